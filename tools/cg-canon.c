/* cg-canon - canonical forms and their properties, CGSuite's notation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jobs.h"
#include "base/tool.h"
#include "base/util.h"
#include "base/watch.h"
#include "format/doc.h"
#include "graph/graph.h"
#include "kb/kb.h"
#include "solve/canonical.h"
#include "solve/lgame.h"
#include "solve/misere_canon.h"
#include "values/canon.h"
#include "values/canonprop.h"
#include "values/misere.h"
#include "values/notation.h"

static const char usage[] =
    "[-mt] [-p LIST] [-c GAME] [-K FILE] [--stats] [--progress]\n"
    "              [--max-memory MB] [--jobs N] [-r NAME[:PARAMS]] [-P DIR]\n"
    "              [file ...]";
static const char help[] =
    "Compute the canonical form of each root, written in CGSuite's notation,\n"
    "and optionally its properties.  Positions are expanded through their\n"
    "ruleset plugin (with a transposition table and decomposition into\n"
    "components); trees in the document are evaluated bottom-up.\n"
    "\n"
    "  -m                misere play: the misere canonical form of each\n"
    "                    root (impartial games), and -p its properties:\n"
    "                    canon outcome genus mate misere-nim-value\n"
    "                    nim-value birthday tame restive restless\n"
    "                    half-tame generally-tame generally-restive\n"
    "                    tameable extraverted introverted even prime\n"
    "                    nim-heap options parts partitions\n"
    "  -t                one line per root: position, then each value\n"
    "  -p LIST           properties, comma separated (default canon):\n"
    "                    canon outcome birthday lstop rstop mean temp\n"
    "                    thermograph atomic rcf incentives and the\n"
    "                    predicates number integer nimber nus infinitesimal\n"
    "                    numberish switch uptimal zero allsmall\n"
    "  -c GAME           compare each root with the game literal GAME: a\n"
    "                    column (or annotation cmp) with ==, <, > or <>\n"
    "                    (confused); repeatable.  Loopy games (documents\n"
    "                    with cycles, loopy literals): canon is the simplest\n"
    "                    form of a stopper, outcome its class with draws\n"
    "  -K FILE           look positions up in this knowledge base first\n"
    "      --stats       print store statistics on standard error\n"
    "      --progress    report progress on standard error every second\n"
    "      --max-memory MB  stop with an error when the process holds\n"
    "                    more than MB megabytes (default: 7/8 of the\n"
    "                    machine; 0: no limit)\n"
    "      --jobs N      worker threads (default: every core)\n"
    "  -r NAME[:PARAMS]  read bare positions of this ruleset\n"
    "  -P DIR            also search DIR for ruleset plugins\n"
    "  -h, --help        show this help\n"
    "      --version     show the version\n";

enum { OPT_STATS = CG_OPT_TOOL_BASE, OPT_PROGRESS, OPT_MAXMEM, OPT_JOBS };

static int tsv, stats, misere;
static struct cg_mtab *mtab;
static struct cg_misere_eval *meval;
static char **props;
static size_t nprops;
static char **cmps;
static cg_game *cmpgame;
static size_t ncmps;

/* One graph for the whole run: positions met in one document are known
 * in the next. */
static struct cg_graph *graph;
static struct cg_canon_eval eval[CG_MAX_JOBS];
static unsigned jobs = 1;

static unsigned long long
evaluated(void)
{
	unsigned long long n = 0;
	unsigned k;

	if (misere)     /* each position met is expanded once */
		return cg_graph_count(graph);
	for (k = 0; k < jobs; k++)
		n += eval[k].evaluated;
	return n;
}

static void
show_progress(void *ctx, double secs)
{
	(void)ctx;
	fprintf(stderr, "%s: %llu positions evaluated, %.0f/s, %zu known, "
	    "%zu games, %.1f MB resident\n", cg_progname,
	    evaluated(), evaluated() / secs,
	    cg_graph_count(graph), misere ? cg_mtab_count(mtab) :
	    cg_canon_count(), (double)cg_memory_rss() / 1048576.0);
}

static cg_game
root_value(struct cg_doc *d, uint32_t x)
{
	struct cg_sum sum;
	cg_game g;
	unsigned k;

	cg_sum_init(&sum);
	cg_graph_node(graph, x, &sum);
	for (k = 0; k < jobs; k++) {
		eval[k].file = d->file;
		eval[k].line = d->node[x].line;
	}
	g = cg_canonical_parallel(graph, sum.v, sum.n, jobs, eval);
	cg_sum_free(&sum);
	if (g == CG_NO_GAME && eval[0].error[0] != '\0') {
		char msg[sizeof eval[0].error];

		memcpy(msg, eval[0].error, sizeof msg);
		for (k = 0; k < jobs; k++)
			eval[k].error[0] = '\0';
		cg_canon_data_error("%s", msg);
	}
	if (g == CG_NO_GAME)
		cg_die(cg_stop_status(), "%s", cg_stop_reason());
	return g;
}

/* A root's value and the values asked of it, under cg_canon_catch: a
 * value past the store's bounds costs its own row only. */
struct row {
	struct cg_doc *d;
	uint32_t x;
	struct cg_buf *b;
	const char **vals;
};

static void
make_row(void *arg)
{
	struct row *w = arg;
	cg_game g;
	size_t i;

	if (misere) {
		uint32_t m = 0;
		char msg[256];
		int r = cg_misere_node(meval, w->x, &m, msg, sizeof msg);

		if (r == -1)
			cg_canon_data_error("%s", msg);
		if (r < 0)
			cg_die(cg_stop_status(), "%s", cg_stop_reason());
		for (i = 0; i < nprops; i++) {
			w->b[i].len = 0;
			cg_mtab_property(mtab, m, props[i], &w->b[i]);
			w->vals[i] = cg_buf_str(&w->b[i]);
		}
		return;
	}
	g = root_value(w->d, w->x);

	for (i = 0; i < nprops + ncmps; i++) {
		w->b[i].len = 0;
		if (i < nprops ? !cg_canon_property_known(props[i]) :
		    cmpgame[i - nprops] == CG_NO_GAME) {
			/* a loopy property or literal (lgame.h) */
			char msg[512];

			if (cg_lgame_of_short(g, i < nprops ? props[i] : NULL,
			    i < nprops ? NULL : cmps[i - nprops], &w->b[i], msg,
			    sizeof msg) < 0)
				cg_canon_data_error("%s", msg);
		} else if (i < nprops) {
			cg_canon_property(g, props[i], &w->b[i]);
		} else {
			static const char *rel[] = { "==", ">", "<>" };
			int c = cg_canon_compare(g, cmpgame[i - nprops]);

			cg_buf_addstr(&w->b[i], c < 0 ? "<" : rel[c]);
		}
		w->vals[i] = cg_buf_str(&w->b[i]);
	}
}

/* ------------------------------------------------------------ output */

static void
each(struct cg_doc *d, void *arg)
{
	size_t nv = nprops + ncmps, i;
	struct cg_buf *b = cg_xcalloc(nv ? nv : 1, sizeof *b);
	const char **vals = cg_xcalloc(nv ? nv : 1, sizeof *vals);
	uint32_t r;

	(void)arg;
	if (misere)
		cg_doc_refuse_loopy(d, "misere play of loopy games is not "
		    "computed");
	if ((d->cyclic || cg_doc_has_loopy(d)) && !misere) {
		/* loopy games: simplest forms and sides (lgame.h) */
		cg_lgame_rows(d, props, nprops, cmps, ncmps, tsv ? stdout :
		    NULL, stdout);
		free(b);
		free(vals);
		return;
	}
	cg_doc_refuse_cycles(d);
	cg_doc_refuse_results(d, "it has no canonical form (cg-outcome "
	    "solves it)");
	cg_graph_use_doc(graph, d);
	for (r = 0; r < d->nroot; r++) {
		struct row w = { d, d->root[r], b, vals };
		char msg[256];

		if (cg_canon_catch(make_row, &w, msg, sizeof msg) < 0) {
			struct cg_buf pos;

			cg_buf_init(&pos);
			cg_doc_root_label(d, d->root[r], &pos);
			cg_error_at(d->file, d->node[d->root[r]].line,
			    "position '%s': %s", cg_buf_str(&pos), msg);
			cg_buf_free(&pos);
			continue;
		}
		if (tsv)
			cg_tsv_row(stdout, d, d->root[r], vals, nv);
		else
			cg_doc_annotate_props(d, d->root[r], props, nprops,
			    cmps, vals, nv);
	}
	if (!tsv)
		cg_doc_write(stdout, d);
	for (i = 0; i < nv; i++)
		cg_buf_free(&b[i]);
	free(b);
	free(vals);
}

static void
add_props(const char *list)
{
	const char *p = list, *e;

	for (;;) {
		e = strchr(p, ',');
		if (e == NULL)
			e = p + strlen(p);
		if (e == p)
			cg_die(CG_EXIT_USAGE, "empty property in '%s'", list);
		props = cg_xreallocarray(props, nprops + 1, sizeof *props);
		props[nprops] = cg_xstrndup(p, (size_t)(e - p));
		if (misere ? !cg_mtab_property_known(props[nprops]) :
		    !cg_canon_property_known(props[nprops]) &&
		    !cg_lgame_property_known(props[nprops]))
			cg_die(CG_EXIT_USAGE, "unknown %sproperty '%s'%s%s",
			    misere ? "misere " : "", props[nprops],
			    misere ? " (known: " : "", misere ?
			    cg_mtab_property_names() : "");
		nprops++;
		if (*e == '\0')
			break;
		p = e + 1;
	}
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, CG_OPT_VERSION },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "max-memory", required_argument, NULL, OPT_MAXMEM },
		{ "jobs", required_argument, NULL, OPT_JOBS },
		{ NULL, 0, NULL, 0 },
	};
	const char *spec = NULL, **plist = NULL;
	size_t i, nplist = 0;
	int c, use_kb = 0, jobs_set = 0;

	cg_tool_init(argc, argv);
	cg_elapsed();   /* the clock of --stats and --progress */
	while ((c = getopt_long(argc, argv, "c:hK:mP:p:r:t", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 't': tsv = 1; break;
		case 'm': misere = 1; break;
		case 'p':
			/* checked once -m is known: the names differ */
			plist = cg_xreallocarray(plist, nplist + 1,
			    sizeof *plist);
			plist[nplist++] = optarg;
			break;
		case 'c':
			cmps = cg_xreallocarray(cmps, ncmps + 1, sizeof *cmps);
			cmps[ncmps++] = optarg;
			break;
		case 'K': cg_kb_add(optarg); use_kb = 1; break;
		case OPT_STATS: stats = 1; break;
		case OPT_PROGRESS:
			cg_progress_every(1.0, show_progress, NULL);
			break;
		case OPT_MAXMEM:
			cg_watch_memory(cg_parse_count(optarg, "--max-memory",
			    0, CG_MEMORY_MB_MAX));
			break;
		case OPT_JOBS: jobs = cg_jobs_parse(optarg); jobs_set = 1; break;
		case 'r': spec = optarg; break;
		case 'P': cg_plugin_add_dir(optarg); break;
		case 'h': cg_help(usage, help);
		case CG_OPT_VERSION: cg_version();
		default: cg_usage(usage);
		}
	}
	cg_watch_memory_default();
	for (i = 0; i < nplist; i++)
		add_props(plist[i]);
	free(plist);
	if (misere && (ncmps > 0 || use_kb))
		cg_die(CG_EXIT_USAGE, "-m takes neither -c nor -K");
	if (use_kb && spec != NULL)
		cg_kb_expect(cg_plugin_get(spec, CG_EXIT_USAGE));
	cmpgame = cg_xcalloc(ncmps ? ncmps : 1, sizeof *cmpgame);
	for (i = 0; i < ncmps; i++) {
		char msg[256];
		size_t col;

		if (cg_lgame_looks_loopy(cmps[i], strlen(cmps[i]))) {
			struct cg_lgame lg;
			uint32_t x, y;

			cg_lgame_init(&lg);
			if (cg_lgame_parse_sided(&lg, cmps[i], strlen(cmps[i]),
			    &x, &y, msg, sizeof msg, &col) < 0) {
				fprintf(stderr, "%s: -c '%s': column %zu: %s\n",
				    cg_progname, cmps[i], col, msg);
				exit(CG_EXIT_USAGE);
			}
			cg_lgame_free(&lg);
			cmpgame[i] = CG_NO_GAME;   /* read again per root */
		} else if (cg_canon_parse(cmps[i], strlen(cmps[i]), &cmpgame[i], msg,
		    sizeof msg, &col) < 0) {
			fprintf(stderr, "%s: -c '%s': column %zu: %s\n",
			    cg_progname, cmps[i], col, msg);
			exit(CG_EXIT_USAGE);
		}
	}
	if (nprops == 0 && ncmps == 0)
		add_props("canon");
	cg_watch_signals();
	if (!jobs_set)
		jobs = cg_jobs_default();
	if (misere)
		jobs = 1;   /* the misere table is one thread's */
	graph = cg_graph_new();
	if (jobs > 1)
		cg_graph_share(graph, 1);
	if (misere) {
		mtab = cg_mtab_new();
		meval = cg_misere_eval_new(graph, mtab, &cg_stop);
	}
	for (i = 0; i < jobs; i++) {
		eval[i].interrupt = &cg_stop;
		eval[i].recover = 1;
		if (use_kb)
			eval[i].known = cg_kb_canon;
	}
	cg_each_document_flags(argc - optind, argv + optind, spec,
	    CG_EACH_CYCLES | CG_EACH_LOOPY, each, NULL);
	if (stats)
		fprintf(stderr, "%s: games %zu, store bytes %zu, positions %llu, "
		    "seconds %.3f, peak rss KiB %zu\n", cg_progname,
		    misere ? cg_mtab_count(mtab) : cg_canon_count(), misere ?
		    cg_mtab_memory(mtab) : cg_canon_memory(), evaluated(),
		    cg_elapsed(), cg_memory_peak() / 1024);
	cg_misere_eval_free(meval);
	cg_mtab_free(mtab);
	cg_graph_free(graph);
	for (i = 0; i < nprops; i++)
		free(props[i]);
	free(props);
	free(cmps);
	free(cmpgame);
	if (use_kb)
		cg_kb_close_all();
	cg_plugin_unload_all();
	cg_close_stdout();
	return 0;
}
