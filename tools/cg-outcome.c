/* cg-outcome - outcome classes, nimbers, misere values and genus by search,
 * with solving databases (Glop/SPOTS .spr), check mode, progress and
 * nim sequences of heap games. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jobs.h"
#include "base/tool.h"
#include "base/util.h"
#include "base/watch.h"
#include "format/doc.h"
#include "kb/kb.h"
#include "solve/heapseq.h"
#include "solve/quotient.h"
#include "solve/loopy.h"
#include "solve/result.h"
#include "solve/session.h"

static const char usage[] =
    "[-gmnt] [--children] [--remoteness] [--sum] [-D FILE]...\n"
    "       [--check [--proof FILE]] [-K FILE]... [-v] [--max-memory MB]\n"
    "       [--table-memory MB] [--search HOW]\n"
    "       [--jobs N] [--checkpoint FILE [--checkpoint-size SIZE]]\n"
    "       [-r NAME[:PARAMS]] [-P DIR] [file ...]\n"
    "       cg-outcome -r NAME[:PARAMS] --sequence N | --periodicity N";
static const char help[] =
    "Decide who wins each root by search (transpositions, components,\n"
    "cut-offs, move ordering), without canonical forms.\n"
    "\n"
    "  -t                one line per root: position, value\n"
    "  -m                misere play (the outcome class of any game)\n"
    "  -n                the nim value (impartial games; with -m the misere\n"
    "                    nim value)\n"
    "  -g                the genus (impartial games), as CGSuite prints it\n"
    "      --children    list each option of each root with its value\n"
    "      --remoteness  also moves to the end under best play, per player\n"
    "                    moving first (loopy rulesets, documents with every\n"
    "                    node's options)\n"
    "      --sum         with -n: one line, the value of the roots' sum\n"
    "  -D FILE           load the solving database FILE (Glop/SPOTS .spr)\n"
    "                    before the run; the first one is saved after it\n"
    "      --check       re-derive the results with the -D databases only as\n"
    "                    a guide; report wrong entries and the proof size\n"
    "      --proof FILE  with --check, save the positions of the proof\n"
    "  -K FILE           consult the knowledge base FILE (cg-kb-build)\n"
    "  -v, --progress    report progress on standard error\n"
    "      --max-memory MB  stop (saving the -D database) when the tables\n"
    "                    reach MB megabytes (default: 7/8 of the machine;\n"
    "                    0: no limit)\n"
    "      --table-memory MB  depth-first searches start again from the\n"
    "                    root, keeping costly results, rather than let the\n"
    "                    tables pass MB (default: 3/4 of --max-memory);\n"
    "                    proof-number searches collect their tree past\n"
    "                    MB (default: 2/5 of --max-memory)\n"
    "      --search HOW  auto (default), dfs, pns, dfpn, pn2 or bits\n"
    "      --jobs N      threads for --search pns, pn2 and bits\n"
    "      --checkpoint FILE  the bit search's costly results, kept as\n"
    "                    they come and put back when run again\n"
    "      --checkpoint-size SIZE  its most bytes (k, M, G; default 1/8\n"
    "                    of --max-memory; 0: no bound)\n"
    "      --sequence N  heap games: nim values of heaps 0..N on one line\n"
    "      --periodicity N\n"
    "                    heap games: period, preperiod and saltus, proven\n"
    "                    with the heaps up to N (Guy-Smith test)\n"
    "      --no-shortcut heap games: compute every heap, even after the\n"
    "                    period is proven (with --sequence or values)\n"
    "      --quotient N  heap games: the misere quotient of the heaps up\n"
    "                    to N (-t: one line; -v: each heap's step)\n"
    "      --quotient-limit N  give up past candidates of N elements\n"
    "                    (default 8192)\n"
    "      --heap-limit N  heap games: heaps computed one by one when no\n"
    "                    period is known (default 262144)\n"
    "  -r NAME[:PARAMS]  read bare positions of this ruleset\n"
    "  -P DIR            also search DIR for ruleset plugins\n"
    "  -h, --help        show this help\n"
    "      --version     show the version\n";

enum {
	OPT_CHILDREN = CG_OPT_TOOL_BASE, OPT_CHECK, OPT_PROOF, OPT_SEQUENCE,
	OPT_PERIODICITY, OPT_NOSHORTCUT, OPT_QUOTIENT, OPT_QLIMIT, OPT_MAXMEM,
	OPT_HEAPLIMIT, OPT_SEARCH, OPT_SUM,
	OPT_JOBS, OPT_TABLEMEM, OPT_CHECKPOINT, OPT_CKPTSIZE, OPT_REMOTENESS
};

static int tsv, children, remoteness, sum;
static enum cg_kind kind = CG_KIND_OUTCOME;
static unsigned loopy_what;     /* what the loopy solvers give (loopy.h) */
static cg_loopy_known_fn loopy_known;   /* -K: loopy roots' known values */
static struct cg_session *session;

static void
stopped(void)
{
	int saved = cg_session_save(session) > 0;

	fprintf(stderr, "%s: %s%s\n", cg_progname, cg_stop_reason(),
	    saved ? ", database saved" : "");
	cg_plugin_unload_all();
	exit(cg_stop_status());
}

struct row {
	struct cg_doc *d;
	uint32_t root;
	int impartial;
};

/* --children: one line per option, label, child and value. */
static void
print_child(void *ctx, int side, const char *move, const char *child,
    const char *value)
{
	struct row *r = ctx;
	struct cg_buf label, esc;
	const char *vals[3];

	cg_buf_init(&label);
	cg_buf_init(&esc);
	if (r->impartial)
		cg_buf_addstr(&label, move);
	else
		cg_buf_addf(&label, "%c:%s", side == CG_LEFT ? 'L' : 'R', move);
	cg_escape(&esc, child);
	vals[0] = cg_buf_str(&label);
	vals[1] = cg_buf_str(&esc);
	vals[2] = value;
	cg_tsv_row(stdout, r->d, r->root, vals, 3);
	cg_buf_free(&label);
	cg_buf_free(&esc);
}

/* A root of a game that ends in a result (cg.result): its class and,
 * with payoffs, the payoffs, by minimax over its positions. */
static void
result_root(struct cg_doc *d, uint32_t x)
{
	struct cg_node *n = &d->node[x];

	if (kind != CG_KIND_OUTCOME)
		cg_rs_refuse_result(n->rs, d->file, n->line, "-m, -n and -g "
		    "have no meaning there");
	if (children) {
		struct row r = { d, x, 0 };

		if (cg_result_children(n->rs, n->pos, n->poslen, print_child,
		    &r) < 0)
			stopped();
		return;
	}
	if (cg_result_root(d, x, tsv ? stdout : NULL) < 0)
		stopped();
}

static void
each(struct cg_doc *d, void *arg)
{
	struct cg_solver *dsolver = NULL;
	struct cg_loopy_rs *lr;
	int graph = d->cyclic || remoteness || sum;
	uint32_t i;

	/* a document with a loopy ruleset's nodes is never searched: its
	 * roots are explored through the ruleset, or its graph is solved */
	for (i = 0; i < d->n && !graph; i++)
		graph = cg_rs_loopy(d->node[i].rs);
	for (i = 0; i < d->nroot && kind != CG_KIND_OUTCOME &&
	    kind != CG_KIND_NIMBER; i++)
		cg_rs_refuse_loopy(d->node[d->root[i]].rs, d->file,
		    d->node[d->root[i]].line, "-m and -g do not take it");
	/* loopy rulesets' roots, explored and solved together (or NULL); a
	 * root a base answers is not explored: no base for --children, --sum */
	lr = cg_loopy_rs_solve(d, loopy_what | (graph ? CG_LOOPY_ALL : 0),
	    *(int *)arg ? stderr : NULL, children || sum ? NULL : loopy_known,
	    NULL);
	if (lr == NULL && graph) {
		/* a document with a cycle, or --remoteness: its graph */
		cg_loopy_doc(d, loopy_what, children || (kind !=
		    CG_KIND_OUTCOME && kind != CG_KIND_NIMBER), tsv ? stdout :
		    NULL, stdout);
		return;
	}
	for (i = 0; i < d->nroot; i++) {
		uint32_t x = d->root[i], *ids;
		struct cg_solver *s;
		struct cg_buf val;
		const char *vals[1];
		size_t nids;

		if (children) {
			struct row r = { d, x, kind == CG_KIND_NIMBER };

			if (cg_loopy_rs_children(lr, x, print_child, &r))
				continue;
		} else if (cg_loopy_rs_row(lr, x, tsv ? stdout : NULL)) {
			continue;
		}
		if (d->node[x].rs != NULL && d->node[x].rs->result != NULL &&
		    d->node[x].pos != NULL) {
			result_root(d, x);
			continue;
		}

		nids = cg_session_root(session, d, x, &dsolver, &s, &ids);
		if (children) {
			struct row r = { d, x, cg_solver_impartial(s) };

			if (cg_session_children(session, s, kind, d, x, ids, nids,
			    print_child, &r) < 0)
				stopped();
			free(ids);
			continue;
		}
		cg_buf_init(&val);
		if (cg_session_root_value(session, s, kind, d, x, ids, nids,
		    &val) < 0)
			stopped();
		free(ids);
		vals[0] = cg_buf_str(&val);
		if (tsv)
			cg_tsv_row(stdout, d, x, vals, 1);
		else
			cg_doc_annotate(d, x, cg_kind_name(kind), vals[0]);
		cg_buf_free(&val);
	}
	cg_loopy_rs_free(lr);
	if (!tsv && !children)
		cg_doc_write(stdout, d);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, CG_OPT_VERSION },
		{ "children", no_argument, NULL, OPT_CHILDREN },
		{ "remoteness", no_argument, NULL, OPT_REMOTENESS },
		{ "sum", no_argument, NULL, OPT_SUM },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "proof", required_argument, NULL, OPT_PROOF },
		{ "progress", no_argument, NULL, 'v' },
		{ "sequence", required_argument, NULL, OPT_SEQUENCE },
		{ "periodicity", required_argument, NULL, OPT_PERIODICITY },
		{ "no-shortcut", no_argument, NULL, OPT_NOSHORTCUT },
		{ "quotient", required_argument, NULL, OPT_QUOTIENT },
		{ "quotient-limit", required_argument, NULL, OPT_QLIMIT },
		{ "max-memory", required_argument, NULL, OPT_MAXMEM },
		{ "heap-limit", required_argument, NULL, OPT_HEAPLIMIT },
		{ "search", required_argument, NULL, OPT_SEARCH },
		{ "jobs", required_argument, NULL, OPT_JOBS },
		{ "table-memory", required_argument, NULL, OPT_TABLEMEM },
		{ "checkpoint", required_argument, NULL, OPT_CHECKPOINT },
		{ "checkpoint-size", required_argument, NULL, OPT_CKPTSIZE },
		{ NULL, 0, NULL, 0 },
	};
	struct cg_session_options o;
	const char **db = NULL;
	const char *spec = NULL;
	unsigned long seq = (unsigned long)-1, per = (unsigned long)-1;
	unsigned long quot = (unsigned long)-1, qlimit = 0;
	int c, misere = 0, nimber = 0, genus = 0;
	size_t wrong = 0;

	cg_tool_init(argc, argv);
	memset(&o, 0, sizeof o);
	while ((c = getopt_long(argc, argv, "D:ghK:mnP:r:tv", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'D':
			db = cg_xreallocarray(db, o.ndb + 1, sizeof *db);
			db[o.ndb++] = optarg;
			break;
		case 'g': genus = 1; break;
		case 'K':
			cg_kb_add(optarg);
			o.known = loopy_known = cg_kb_known;
			break;
		case 'm': misere = 1; break;
		case 'n': nimber = 1; break;
		case 'P': cg_plugin_add_dir(optarg); break;
		case 'r': spec = optarg; break;
		case 't': tsv = 1; break;
		case 'v': o.progress = 1; break;
		case OPT_CHILDREN: children = 1; break;
		case OPT_REMOTENESS: remoteness = 1; break;
		case OPT_SUM: sum = tsv = 1; break;
		case OPT_CHECK: o.check = 1; break;
		case OPT_PROOF: o.proof = optarg; break;
		case OPT_SEQUENCE: seq = cg_parse_count(optarg, "--sequence", 0,
			    CG_HEAPSEQ_MAX); break;
		case OPT_PERIODICITY:
			per = cg_parse_count(optarg, "--periodicity", 0,
			    CG_HEAPSEQ_MAX);
			break;
		case OPT_NOSHORTCUT: o.no_shortcut = 1; break;
		case OPT_QUOTIENT:
			quot = cg_parse_count(optarg, "--quotient", 1, 4095);
			break;
		case OPT_QLIMIT:
			qlimit = cg_parse_count(optarg, "--quotient-limit", 2,
			    1 << 16);
			break;
		case OPT_HEAPLIMIT:
			o.heap_limit = cg_parse_count(optarg, "--heap-limit",
			    1, CG_HEAPSEQ_MAX);
			break;
		case OPT_MAXMEM:
			cg_watch_memory(cg_parse_count(optarg, "--max-memory",
			    0, CG_MEMORY_MB_MAX));
			break;
		case OPT_SEARCH:
			if (cg_search_parse(optarg, &o.search) < 0) {
				struct cg_buf names;

				cg_buf_init(&names);
				cg_search_names(&names);
				cg_die(CG_EXIT_USAGE, "unknown search '%s' (%s)",
				    optarg, cg_buf_str(&names));
			}
			break;
		case OPT_JOBS: o.jobs = cg_jobs_parse(optarg); break;
		case OPT_CHECKPOINT: o.checkpoint = optarg; break;
		case OPT_CKPTSIZE:
			if ((o.checkpoint_size = cg_parse_size(optarg,
			    "--checkpoint-size")) == 0)
				o.checkpoint_size = UINT64_MAX;   /* no bound */
			else if (o.checkpoint_size < 4096)
				cg_die(CG_EXIT_USAGE, "--checkpoint-size: at "
				    "least 4k (or 0: no bound)");
			break;
		case OPT_TABLEMEM:
			o.table_memory = cg_parse_count(optarg,
			    "--table-memory", 0, SIZE_MAX >> 21) << 20;
			break;
		case 'h': cg_help(usage, help);
		case CG_OPT_VERSION: cg_version();
		default: cg_usage(usage);
		}
	}
	cg_watch_memory_default();
	if (o.known != NULL && spec != NULL)
		cg_kb_expect(cg_plugin_get(spec, CG_EXIT_USAGE));
	if ((o.check && o.ndb == 0) || (o.proof != NULL && !o.check) ||
	    (genus && misere) || ((remoteness || sum) && (misere || genus ||
	    children || o.check)))
		cg_usage(usage);
	kind = genus ? CG_KIND_GENUS : nimber ? (misere ?
	    CG_KIND_MISERE_NIMBER : CG_KIND_NIMBER) : misere ? CG_KIND_MISERE :
	    CG_KIND_OUTCOME;
	if (quot != (unsigned long)-1) {
		if (optind != argc || spec == NULL || seq != (unsigned long)-1
		    || per != (unsigned long)-1)
			cg_usage(usage);
		cg_watch_signals();
		cg_quot_print_ruleset(stdout, spec, quot, (uint32_t)qlimit,
		    tsv, o.progress);
		cg_check_write(stdout, "standard output");
		cg_plugin_unload_all();
		cg_close_stdout();
		return 0;
	}
	if (seq != (unsigned long)-1 || per != (unsigned long)-1) {
		if (optind != argc)
			cg_usage(usage);
		if (spec == NULL)
			cg_die(CG_EXIT_USAGE, "--sequence and --periodicity "
			    "need -r NAME");
		cg_heapseq_print_ruleset(stdout, spec, seq, per,
		    o.no_shortcut);
		cg_plugin_unload_all();
		cg_close_stdout();
		return 0;
	}
	loopy_what = cg_loopy_what(kind == CG_KIND_NIMBER, remoteness, sum,
	    children, cg_search_name(o.search));
	o.kind = kind;
	o.db = db;
	cg_watch_signals();
	cg_elapsed();
	session = cg_session_new(&o);
	if (spec != NULL && o.ndb > 0)
		(void)cg_session_solver(session, cg_plugin_get(spec,
		    CG_EXIT_USAGE));
	cg_each_document_flags(argc - optind, argv + optind, spec,
	    CG_EACH_CYCLES | CG_EACH_LOOPY, each, &o.progress);
	if (o.check)
		wrong = cg_session_check(session);
	cg_session_save(session);
	if (o.progress)
		cg_session_report(session);
	cg_session_free(session);
	cg_result_free_all();
	free(db);
	if (o.known != NULL)
		cg_kb_close_all();
	cg_plugin_unload_all();
	cg_close_stdout();
	return wrong ? CG_EXIT_DATA : 0;
}
