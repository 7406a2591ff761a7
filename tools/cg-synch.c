/* cg-synch - values and outcome classes of synchronized games. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/tool.h"
#include "base/util.h"
#include "base/watch.h"
#include "format/doc.h"
#include "solve/synch.h"

static const char usage[] =
    "[-c] [-t | --matrix] [-v] [--float] [--max-digits N] [--progress]\n"
    "       [--max-memory MB] [-r NAME[:PARAMS]] [-P DIR] [file ...]";
static const char help[] =
    "Solve each root as a synchronized game: both players choose a move at\n"
    "the same time.  The value (CGSynch's) of a position where both can move\n"
    "is the value of the zero-sum matrix game over its joint options, Left\n"
    "maximising with mixed strategies; a decided position (at most one player\n"
    "can move) is worth what the ruleset says.  Exact while numerator and\n"
    "denominator have at most N digits, else '~' and six decimals.  With -c,\n"
    "the Cincotti-Iida outcome class (L R D LD RD LRD) instead.\n"
    "\n"
    "  -t                one line per root: position TAB value\n"
    "  -c                outcome classes instead of values\n"
    "      --matrix      print each root's joint-option matrix, the entries'\n"
    "                    values and both players' optimal strategies\n"
    "      --float       compute in floating point, print CGSynch's form\n"
    "                    (six decimals)\n"
    "      --max-digits N  digits kept exactly (default 60)\n"
    "  -v                statistics on standard error\n"
    "      --progress    report progress on standard error every second\n"
    "      --max-memory MB  stop with an error past MB megabytes resident\n"
    "                    (default: 7/8 of the machine; 0: no limit)\n"
    "  -r NAME[:PARAMS]  read bare positions of this ruleset\n"
    "  -P DIR            also search DIR for ruleset plugins\n"
    "  -h, --help        show this help\n"
    "      --version     show the version\n";

enum {
	OPT_MATRIX = CG_OPT_TOOL_BASE, OPT_FLOAT, OPT_DIGITS, OPT_PROGRESS,
	OPT_MAXMEM
};

static int tsv, matrix, stats;
static struct cg_synch_options opts;
static struct cg_synch *current;

static void
show_progress(void *ctx, double secs)
{
	(void)ctx;
	if (current != NULL)
		fprintf(stderr, "%s: %zu positions, %.1f s, %.1f MB resident\n",
		    cg_progname, cg_synch_positions(current), secs,
		    (double)cg_memory_rss() / 1048576.0);
}

static void
each(struct cg_doc *d, void *arg)
{
	struct cg_synch *s;
	struct cg_buf val;
	uint32_t r;

	cg_doc_refuse_results(d, "it has no synchronized value (cg-outcome "
	    "solves it)");
	s = cg_synch_new(&opts, d);

	current = s;
	(void)arg;
	cg_buf_init(&val);
	for (r = 0; r < d->nroot; r++) {
		if (matrix) {
			cg_synch_matrix(s, d->root[r], stdout);
			continue;
		}
		val.len = 0;
		cg_synch_root(s, d->root[r], &val);
		if (tsv) {
			const char *v = cg_buf_str(&val);

			cg_tsv_row(stdout, d, d->root[r], &v, 1);
		} else {
			cg_doc_annotate(d, d->root[r],
			    opts.classes ? "synch-outcome" : "synch",
			    cg_buf_str(&val));
		}
	}
	if (!tsv && !matrix)
		cg_doc_write(stdout, d);
	if (stats)
		cg_synch_stats(s, stderr);
	current = NULL;
	cg_synch_free(s);
	cg_buf_free(&val);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, CG_OPT_VERSION },
		{ "matrix", no_argument, NULL, OPT_MATRIX },
		{ "float", no_argument, NULL, OPT_FLOAT },
		{ "max-digits", required_argument, NULL, OPT_DIGITS },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "max-memory", required_argument, NULL, OPT_MAXMEM },
		{ NULL, 0, NULL, 0 },
	};
	const char *spec = NULL;
	int c;

	cg_tool_init(argc, argv);
	while ((c = getopt_long(argc, argv, "chP:r:tv", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': opts.classes = 1; break;
		case 'v': stats = 1; break;
		case 't': tsv = 1; break;
		case OPT_MATRIX: matrix = 1; break;
		case OPT_FLOAT: opts.float_mode = 1; break;
		case OPT_DIGITS:
			opts.max_digits = cg_parse_count(optarg, "--max-digits",
			    1, ULONG_MAX);
			break;
		case OPT_PROGRESS:
			cg_progress_every(1.0, show_progress, NULL);
			break;
		case OPT_MAXMEM:
			cg_watch_memory(cg_parse_count(optarg, "--max-memory",
			    0, CG_MEMORY_MB_MAX));
			break;
		case 'r': spec = optarg; break;
		case 'P': cg_plugin_add_dir(optarg); break;
		case 'h': cg_help(usage, help);
		case CG_OPT_VERSION: cg_version();
		default: cg_usage(usage);
		}
	}
	cg_watch_memory_default();
	if (matrix && tsv)
		cg_die(CG_EXIT_USAGE, "-t and --matrix do not go together");
	cg_watch_signals();
	cg_each_document(argc - optind, argv + optind, spec, each, NULL);
	cg_plugin_unload_all();
	cg_close_stdout();
	return 0;
}
