/* cg-options - expand roots into their options, to a depth or completely. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/doc.h"
#include "graph/expand.h"
#include "plot/dot.h"
#include "base/tool.h"
#include "base/util.h"
#include "base/watch.h"

static const char usage[] =
    "[-a | -d N] [-j] [-t | --dot] [-v] [--max-memory MB]\n"
    "       [-r NAME[:PARAMS]] [-P DIR] [file ...]";
static const char help[] =
    "Expand each root of the input documents into its Left and Right options\n"
    "and write the document again with the new nodes (a DAG: transpositions,\n"
    "and positions equal up to the ruleset's symmetries, are one node).\n"
    "\n"
    "  -d N              expand to depth N (default 1)\n"
    "  -a                expand the whole game tree\n"
    "  -j                also write joint (synchronized) options\n"
    "  -t                one line per root: position, Left options, Right\n"
    "                    options (options separated by \", \")\n"
    "      --dot         write a Graphviz picture instead of a document:\n"
    "                    boards as grids, Left's moves blue, Right's red,\n"
    "                    moves of either player (impartial) black\n"
    "  -v, --progress    report progress on standard error every second\n"
    "      --max-memory MB  stop with an error, writing nothing for the\n"
    "                    document, when the process holds more than MB\n"
    "                    megabytes (default: 7/8 of the machine; 0: no\n"
    "                    limit)\n"
    "  -r NAME[:PARAMS]  read bare positions of this ruleset\n"
    "  -P DIR            also search DIR for ruleset plugins\n"
    "  -h, --help        show this help\n"
    "      --version     show the version\n";

enum { OPT_DOT = CG_OPT_TOOL_BASE, OPT_MAXMEM };

static unsigned long max_depth = 1;
static int joint, tsv, dot;
static struct cg_expand_stats stats;

static void
show_progress(void *ctx, double secs)
{
	(void)ctx;
	fprintf(stderr, "%s: %llu positions expanded, %.0f/s, depth %lu, "
	    "%zu waiting, %.1f MB resident\n", cg_progname, stats.expanded,
	    (double)stats.expanded / secs, stats.depth, stats.waiting,
	    (double)cg_memory_rss() / 1048576.0);
}

static void
write_dot(FILE *out, const struct cg_doc *d)
{
	struct cg_buf b;

	cg_buf_init(&b);
	cg_dot_write(&b, d);
	fwrite(b.data, 1, b.len, out);
	cg_buf_free(&b);
	cg_check_write(out, "standard output");
}

static void
write_tsv(FILE *out, const struct cg_doc *d)
{
	struct cg_buf side[2];
	const char *vals[2];
	uint32_t i, k;
	int s;

	for (i = 0; i < d->nroot; i++) {
		const struct cg_node *n = &d->node[d->root[i]];

		for (s = 0; s < 2; s++) {
			cg_buf_init(&side[s]);
			for (k = 0; k < n->nopt[s]; k++) {
				const struct cg_node *c =
				    &d->node[n->opt[s][k].child];

				if (k)
					cg_buf_addstr(&side[s], ", ");
				/* raw text: cg_tsv_row escapes the values */
				if (c->text != NULL)
					cg_buf_addstr(&side[s], c->text);
				else
					cg_buf_addf(&side[s], "#%llu",
					    (unsigned long long)c->id);
			}
			vals[s] = cg_buf_str(&side[s]);
		}
		cg_tsv_row(out, d, d->root[i], vals, 2);
		cg_buf_free(&side[0]);
		cg_buf_free(&side[1]);
	}
}

static void
each(struct cg_doc *d, void *arg)
{
	(void)arg;
	if (cg_expand_doc(d, max_depth, joint, &stats) < 0) {
		/* a partial tree is not written as though it were the tree */
		if (cg_stop == CG_STOP_MEMORY)
			cg_die_at(d->file, d->node[stats.root].line,
			    "game too large to expand: %s", cg_stop_reason());
		cg_die(cg_stop_status(), "%s", cg_stop_reason());
	}
	if (dot)
		write_dot(stdout, d);
	else if (tsv)
		write_tsv(stdout, d);
	else
		cg_doc_write(stdout, d);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, CG_OPT_VERSION },
		{ "dot", no_argument, NULL, OPT_DOT },
		{ "progress", no_argument, NULL, 'v' },
		{ "max-memory", required_argument, NULL, OPT_MAXMEM },
		{ NULL, 0, NULL, 0 },
	};
	const char *spec = NULL;
	int c;

	cg_tool_init(argc, argv);
	while ((c = getopt_long(argc, argv, "ad:hjP:r:tv", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'a': max_depth = 0; break;
		case 'd':
			max_depth = cg_parse_count(optarg, "-d", 1, ULONG_MAX);
			break;
		case 'j': joint = 1; break;
		case 't': tsv = 1; break;
		case OPT_DOT: dot = 1; break;
		case 'v': cg_progress_every(1.0, show_progress, NULL); break;
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
	if (tsv && dot)
		cg_usage(usage);
	cg_watch_memory_default();
	cg_watch_signals();
	/* expansion is breadth first with every position one node, so the
	 * graph of a loopy ruleset is finite and written with its cycles */
	cg_each_document_flags(argc - optind, argv + optind, spec,
	    CG_EACH_CYCLES | CG_EACH_LOOPY, each, NULL);
	cg_plugin_unload_all();
	cg_close_stdout();
	return 0;
}
