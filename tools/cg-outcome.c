/* cg-outcome - outcome classes, nimbers, misere values and genus by search,
 * with solving databases (Glop/SPOTS .spr), check mode, progress and
 * nim sequences of heap games. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "base/bytemap.h"
#include "format/doc.h"
#include "solve/heapseq.h"
#include "kb/kb.h"
#include "solve/outcome.h"
#include "format/solvedb.h"
#include "base/tool.h"
#include "base/util.h"

static const char usage[] =
    "[-gmnt] [--children] [-D FILE]... [--check [--proof FILE]] [-K FILE]...\n"
    "       [-v] [--max-memory MB] [-r NAME[:PARAMS]] [-P DIR] [file ...]\n"
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
    "  -D FILE           load the solving database FILE (Glop/SPOTS .spr)\n"
    "                    before the run; the first one is saved after it\n"
    "      --check       re-derive the results with the -D databases only as\n"
    "                    a guide; report wrong entries and the proof size\n"
    "      --proof FILE  with --check, save the positions of the proof\n"
    "  -K FILE           consult the knowledge base FILE (cg-kb-build)\n"
    "  -v, --progress    report progress on standard error\n"
    "      --max-memory MB  stop (saving the -D database) when the tables\n"
    "                    reach MB megabytes\n"
    "      --sequence N  heap games: nim values of heaps 0..N on one line\n"
    "      --periodicity N\n"
    "                    heap games: period, preperiod and saltus, proven\n"
    "                    with the heaps up to N (Guy-Smith test)\n"
    "      --no-shortcut with --sequence, compute every heap even after\n"
    "                    the period is proven\n"
    "  -r NAME[:PARAMS]  read bare positions of this ruleset\n"
    "  -P DIR            also search DIR for ruleset plugins\n"
    "  -h, --help        show this help\n"
    "      --version     show the version\n";

enum {
	OPT_CHILDREN = CG_OPT_TOOL_BASE, OPT_CHECK, OPT_PROOF, OPT_SEQUENCE,
	OPT_PERIODICITY, OPT_NOSHORTCUT, OPT_MAXMEM
};

enum mode { M_OUTCOME, M_NIMBER, M_GENUS };

static int tsv, misere, children, check, progress, noshortcut;
static enum mode mode = M_OUTCOME;
static const char **dbfiles;
static size_t ndb;
static const char *prooffile;
static int nkb;

static volatile sig_atomic_t interrupted;

static void
on_signal(int sig)
{
	interrupted = sig;
}

/* ------------------------------------------------------------ solvers */

/* One plugin solver per ruleset spec, alive for the whole run so that
 * results carry over between roots and documents (and into -D files). */
struct psolver {
	struct cg_plugin *rs;
	struct cg_solver *s;
	struct cg_solvedb_extra extra;
	struct cg_bytemap *guide;     /* --check: canonical key -> nim + 1 */
	struct cg_heapseq *heap;      /* heap games: the nim sequence */
	int db_loaded;
	struct psolver *next;
};
static struct psolver *psolvers;
static struct timespec t0;

static double
elapsed(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0.tv_sec) +
	    (double)(t.tv_nsec - t0.tv_nsec) / 1e9;
}

static long
maxrss_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static unsigned long max_memory_mb;

/* Called every 4096 expansions: the memory limit, then the report. */
static void
show_progress(struct cg_solver *s, void *arg)
{
	static double last;
	double now = elapsed();

	if (max_memory_mb != 0 &&
	    cg_solver_memory(s) / 1048576 >= max_memory_mb && !interrupted) {
		fprintf(stderr, "%s: memory limit of %lu MB reached\n",
		    cg_progname, max_memory_mb);
		interrupted = SIGTERM;
		return;
	}
	if (!progress)
		return;
	const struct cg_solver_stats *st = cg_solver_stats(s);
	struct cg_buf b;

	(void)arg;
	if (now - last < 1.0)
		return;
	last = now;
	cg_buf_init(&b);
	cg_solver_branch(s, &b);
	fprintf(stderr, "%s: %llu expanded, %llu solved, %.0f/s, "
	    "%zu positions known, %.1f MB tables, %.1f MB resident; "
	    "branch %s\n", cg_progname,
	    (unsigned long long)st->expanded, (unsigned long long)st->solved,
	    now > 0 ? (double)st->expanded / now : 0.0,
	    cg_solver_ncomponents(s),
	    (double)cg_solver_memory(s) / 1048576.0,
	    (double)maxrss_kb() / 1024.0, cg_buf_str(&b));
	cg_buf_free(&b);
}

/* Heap games: a component printed as a heap size gets its nim value from
 * the nim sequence (normal play), not from a search. */
static void
heap_lookup(struct psolver *ps, struct cg_solver *s, uint32_t c,
    const unsigned char *key, size_t len)
{
	struct cg_buf text;
	const char *p;
	unsigned long n = 0;
	size_t got;
	const uint32_t *v;

	cg_buf_init(&text);
	if (cg_rs_print(ps->rs, key, len, &text) >= 0) {
		p = cg_buf_str(&text);
		if (*p != 0 && text.len <= 9 && strspn(p, "0123456789") == text.len) {
			n = strtoul(p, NULL, 10);
			if (n <= 50000000UL) {
				cg_heapseq_compute(ps->heap, n, !noshortcut);
				v = cg_heapseq_values(ps->heap, &got);
				(void)cg_solver_set_nimber(s, c, v[n]);
			}
		}
	}
	cg_buf_free(&text);
}

static void
kb_lookup(void *ctx, struct cg_solver *s, uint32_t c,
    const unsigned char *key, size_t len)
{
	struct psolver *ps = ctx;
	struct cg_buf out;

	if (ps->heap != NULL && !check)
		heap_lookup(ps, s, c, key, len);
	if (nkb == 0 || check)
		return;
	cg_buf_init(&out);
	if (cg_kb_find(ps->rs, key, len, "nimber", &out)) {
		char *end;
		unsigned long v = strtoul(cg_buf_str(&out), &end, 10);

		if (*end == 0 && end != (char *)out.data)
			(void)cg_solver_set_nimber(s, c, (uint32_t)v);
	}
	cg_buf_free(&out);
}

static int64_t
guide_nimber(void *ctx, struct cg_solver *s, uint32_t c)
{
	struct psolver *ps = ctx;
	size_t len;
	const unsigned char *k = cg_solver_key(s, c, &len);
	int64_t e = cg_bytemap_find(ps->guide, k, len);

	if (e < 0)
		return -1;
	return (int64_t)*cg_bytemap_value(ps->guide, (uint64_t)e) - 1;
}

struct guidectx {
	struct psolver *ps;
	const char *path;
	struct cg_buf canon;
};

static int
guide_entry(void *ctx, const unsigned char *pos, const size_t *ends,
    size_t nparts, long value, const char *text, unsigned long line,
    char *err, size_t errlen)
{
	struct guidectx *g = ctx;
	uint64_t e, *v;
	int isnew;
	size_t len = ends[0];

	if (nparts != 1)
		return 0;   /* sums of several parts do not guide */

	g->canon.len = 0;
	if (cg_rs_canonical(g->ps->rs, pos, len, &g->canon) < 0) {
		snprintf(err, errlen, "%s:%lu: %s", g->path, line,
		    cg_rs_errmsg(g->ps->rs));
		return 1;
	}
	e = cg_bytemap_intern(g->ps->guide, g->canon.data, g->canon.len,
	    &isnew);
	v = cg_bytemap_value(g->ps->guide, e);
	if (!isnew && *v != (uint64_t)value + 1) {
		snprintf(err, errlen, "%s:%lu: position '%.60s' has nimber %ld "
		    "here but %llu in an earlier database", g->path, line, text,
		    value, (unsigned long long)(*v - 1));
		return 1;
	}
	*v = (uint64_t)value + 1;
	return 0;
}

static enum cg_solvedb_kind
db_kind(void)
{
	return misere ? CG_DB_MISERE : CG_DB_NIMBER;
}

static void
load_databases(struct psolver *ps)
{
	char err[1024];
	size_t i;

	if (ps->db_loaded || ndb == 0)
		return;
	ps->db_loaded = 1;
	if (!cg_solver_impartial(ps->s))
		cg_die(CG_EXIT_DATA, "ruleset '%s' is not impartial: solving "
		    "databases hold impartial results", ps->rs->spec);
	if (check) {
		struct guidectx g;

		if (misere)
			cg_die(CG_EXIT_USAGE, "--check works on nimber "
			    "databases (normal play)");
		ps->guide = cg_bytemap_new();
		g.ps = ps;
		cg_buf_init(&g.canon);
		for (i = 0; i < ndb; i++) {
			g.path = dbfiles[i];
			if (cg_solvedb_read(dbfiles[i], ps->rs, CG_DB_NIMBER, 0,
			    guide_entry, &g, err, sizeof err) < 0)
				cg_die(CG_EXIT_DATA, "%s", err);
		}
		cg_buf_free(&g.canon);
		cg_solver_set_guide(ps->s, guide_nimber, ps);
		return;
	}
	for (i = 0; i < ndb; i++)
		if (cg_solvedb_load(dbfiles[i], ps->s, db_kind(), i == 0,
		    &ps->extra, err, sizeof err) < 0)
			cg_die(CG_EXIT_DATA, "%s", err);
}

static struct psolver *
psolver_for(struct cg_plugin *rs)
{
	struct psolver *ps;

	for (ps = psolvers; ps != NULL; ps = ps->next)
		if (ps->rs == rs)
			return ps;
	ps = cg_xcalloc(1, sizeof *ps);
	ps->rs = rs;
	ps->s = cg_solver_new(rs);
	if (CG_HAS_HOOK(rs, extension)) {
		const struct cg_heap_rules *r =
		    cg_rs_extension(rs, CG_EXT_HEAP_RULES);
		const char *why;

		if (r != NULL)
			ps->heap = cg_heapseq_new(r, &why);
	}
	cg_solver_set_interrupt(ps->s, &interrupted);
	cg_solver_set_lookup(ps->s, kb_lookup, ps);
	if (progress || max_memory_mb)
		cg_solver_set_progress(ps->s, show_progress, NULL, 4096);
	ps->next = psolvers;
	psolvers = ps;
	load_databases(ps);
	return ps;
}

static void
save_databases(void)
{
	struct psolver *ps;
	char err[1024];
	long n;

	if (ndb == 0 || check)
		return;
	for (ps = psolvers; ps != NULL; ps = ps->next) {
		if (!ps->db_loaded)
			continue;
		n = cg_solvedb_save(dbfiles[0], ps->s, db_kind(), &ps->extra,
		    err, sizeof err);
		if (n < 0)
			cg_die(CG_EXIT_DATA, "%s", err);
		if (progress)
			fprintf(stderr, "%s: %s: %ld positions saved\n",
			    cg_progname, dbfiles[0], n);
		break;   /* one database file: the first ruleset's */
	}
}

static void
stop_interrupted(void)
{
	save_databases();
	fprintf(stderr, "%s: interrupted%s\n", cg_progname,
	    ndb && !check ? ", database saved" : "");
	cg_plugin_unload_all();
	exit(128 + interrupted);
}

/* ------------------------------------------------------------- values */

static void
value_text(struct cg_solver *s, const uint32_t *ids, size_t n,
    struct cg_buf *out, const char *file, unsigned long line)
{
	int64_t v;
	int o;

	if (mode != M_OUTCOME && !cg_solver_impartial(s))
		cg_die_at(file, line, "-%c needs an impartial game",
		    mode == M_GENUS ? 'g' : 'n');
	switch (mode) {
	case M_OUTCOME:
		o = cg_solver_outcome(s, ids, n, misere);
		if (o == CG_SOLVE_INTERRUPTED)
			stop_interrupted();
		cg_buf_addc(out, o);
		break;
	case M_NIMBER:
		v = misere ? cg_solver_misere_nimber(s, ids, n) :
		    cg_solver_nimber(s, ids, n);
		if (v == CG_SOLVE_INTERRUPTED)
			stop_interrupted();
		cg_buf_addf(out, "%lld", (long long)v);
		break;
	case M_GENUS:
		if (cg_solver_genus(s, ids, n, out) == CG_SOLVE_INTERRUPTED)
			stop_interrupted();
		break;
	}
}

static const char *
annot_key(void)
{
	switch (mode) {
	case M_OUTCOME: return misere ? "misere" : "outcome";
	case M_NIMBER: return misere ? "misere-nimber" : "nimber";
	default: return "genus";
	}
}

/* Knowledge bases answer whole roots (single components) directly. */
static int
kb_root(struct cg_plugin *rs, const struct cg_node *n, struct cg_buf *out)
{
	struct cg_buf canon;
	const char *kind = NULL;
	int hit = 0;

	if (nkb == 0 || check || rs == NULL || n->pos == NULL)
		return 0;
	if (mode == M_OUTCOME)
		kind = misere ? "misere" : "outcome";
	else if (mode == M_NIMBER && !misere)
		kind = "nimber";
	if (kind == NULL)
		return 0;
	cg_buf_init(&canon);
	if (cg_rs_canonical(rs, n->pos, n->poslen, &canon) >= 0)
		hit = cg_kb_find(rs, canon.data, canon.len, kind, out);
	cg_buf_free(&canon);
	return hit;
}

struct childctx {
	struct cg_solver *s;
	struct cg_doc *d;
	uint32_t root;
	int side, impartial;
};

static int
print_child(void *ctx, const char *move, const uint32_t *child, size_t n)
{
	struct childctx *cc = ctx;
	struct cg_buf label, ctext, val;
	const char *vals[3];

	cg_buf_init(&label);
	cg_buf_init(&ctext);
	cg_buf_init(&val);
	if (cc->impartial)
		cg_buf_addstr(&label, move ? move : "-");
	else
		cg_buf_addf(&label, "%c:%s", cc->side == CG_LEFT ? 'L' : 'R',
		    move ? move : "-");
	cg_solver_print_sum(cc->s, child, n, &ctext);
	value_text(cc->s, child, n, &val, cc->d->file,
	    cc->d->node[cc->root].line);
	vals[0] = cg_buf_str(&label);
	{
		struct cg_buf esc;

		cg_buf_init(&esc);
		cg_escape(&esc, cg_buf_str(&ctext));
		vals[1] = cg_buf_str(&esc);
		vals[2] = cg_buf_str(&val);
		cg_tsv_row(stdout, cc->d, cc->root, vals, 3);
		cg_buf_free(&esc);
	}
	cg_buf_free(&label);
	cg_buf_free(&ctext);
	cg_buf_free(&val);
	return 0;
}

/* Children of a plugin root, with the plugin's own move names. */
struct pchild {
	unsigned char *pos;
	size_t len;
	char *move;
};

struct pcollect {
	struct pchild *c;
	size_t n, cap;
};

static int
collect_child(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	struct pcollect *pc = ctx;

	if (pc->n == pc->cap) {
		pc->cap = pc->cap ? 2 * pc->cap : 16;
		pc->c = cg_xreallocarray(pc->c, pc->cap, sizeof *pc->c);
	}
	pc->c[pc->n].pos = cg_xmalloc(len ? len : 1);
	memcpy(pc->c[pc->n].pos, pos, len);
	pc->c[pc->n].len = len;
	pc->c[pc->n].move = cg_xstrdup(move ? move : "-");
	pc->n++;
	return 0;
}

static void
plugin_children(struct cg_solver *s, struct cg_doc *d, uint32_t x)
{
	struct cg_node *n = &d->node[x];
	int side, impartial = cg_solver_impartial(s);
	size_t i;

	for (side = 0; side < 2; side++) {
		struct pcollect pc = { NULL, 0, 0 };

		if (cg_rs_options(n->rs, n->pos, n->poslen, (enum cg_side)side,
		    collect_child, &pc) < 0)
			cg_die_at(d->file, n->line, "ruleset '%s': %s",
			    n->rs->name, cg_rs_errmsg(n->rs));
		for (i = 0; i < pc.n; i++) {
			struct cg_buf label, text, esc, val;
			const char *vals[3];
			uint32_t *ids;
			size_t nids;

			cg_buf_init(&label);
			cg_buf_init(&text);
			cg_buf_init(&esc);
			cg_buf_init(&val);
			if (impartial)
				cg_buf_addstr(&label, pc.c[i].move);
			else
				cg_buf_addf(&label, "%c:%s",
				    side == CG_LEFT ? 'L' : 'R', pc.c[i].move);
			if (cg_rs_print(n->rs, pc.c[i].pos, pc.c[i].len,
			    &text) < 0)
				cg_die_at(d->file, n->line, "ruleset '%s': %s",
				    n->rs->name, cg_rs_errmsg(n->rs));
			cg_escape(&esc, cg_buf_str(&text));
			nids = cg_solver_components(s, pc.c[i].pos, pc.c[i].len,
			    &ids);
			value_text(s, ids, nids, &val, d->file, n->line);
			free(ids);
			vals[0] = cg_buf_str(&label);
			vals[1] = cg_buf_str(&esc);
			vals[2] = cg_buf_str(&val);
			cg_tsv_row(stdout, d, x, vals, 3);
			cg_buf_free(&label);
			cg_buf_free(&text);
			cg_buf_free(&esc);
			cg_buf_free(&val);
			free(pc.c[i].pos);
			free(pc.c[i].move);
		}
		free(pc.c);
		if (impartial)
			break;
	}
}

static void
each(struct cg_doc *d, void *arg)
{
	struct cg_solver *dsolver = NULL;
	uint32_t i;

	(void)arg;
	for (i = 0; i < d->nroot; i++) {
		uint32_t x = d->root[i], *ids;
		struct cg_node *n = &d->node[x];
		struct cg_solver *s;
		struct cg_buf val;
		const char *vals[1];
		size_t nids;

		cg_buf_init(&val);
		if (!n->expanded && n->rs != NULL && n->pos != NULL) {
			s = psolver_for(n->rs)->s;
			nids = cg_solver_components(s, n->pos, n->poslen, &ids);
		} else {
			if (!n->expanded && n->nopt[0] + n->nopt[1] == 0 &&
			    n->rs == NULL && n->text == NULL && 0)
				cg_die_at(d->file, n->line, "root has no position");
			if (dsolver == NULL) {
				dsolver = cg_solver_new_doc(d);
				cg_solver_set_interrupt(dsolver, &interrupted);
				if (progress || max_memory_mb)
					cg_solver_set_progress(dsolver,
					    show_progress, NULL, 4096);
			}
			s = dsolver;
			nids = cg_solver_node(s, x, &ids);
		}
		if (children && n->pos != NULL && n->rs != NULL &&
		    !n->expanded) {
			plugin_children(s, d, x);
			free(ids);
			cg_buf_free(&val);
			continue;
		}
		if (children) {
			struct childctx cc = { s, d, x, 0,
			    cg_solver_impartial(s) };
			int side;

			for (side = 0; side < 2; side++) {
				cc.side = side;
				cg_solver_children(s, ids, nids,
				    (enum cg_side)side, print_child, &cc);
				if (cc.impartial)
					break;
			}
			free(ids);
			cg_buf_free(&val);
			continue;
		}
		if (!kb_root(n->rs, n, &val))
			value_text(s, ids, nids, &val, d->file, n->line);
		free(ids);
		if (tsv) {
			vals[0] = cg_buf_str(&val);
			cg_tsv_row(stdout, d, x, vals, 1);
		} else {
			cg_doc_annotate(d, x, annot_key(), cg_buf_str(&val));
		}
		cg_buf_free(&val);
	}
	if (!tsv && !children)
		cg_doc_write(stdout, d);
	cg_solver_free(dsolver);
}

/* ---------------------------------------------------------- check mode */

static void
report_check(void)
{
	struct psolver *ps;
	size_t nwrong = 0, nproof = 0, i, nc;

	for (ps = psolvers; ps != NULL; ps = ps->next) {
		struct cg_buf b;

		if (ps->guide == NULL)
			continue;
		cg_buf_init(&b);
		nc = cg_solver_ncomponents(ps->s);
		for (i = 0; i < nc; i++) {
			uint32_t c = (uint32_t)i;
			int64_t got = cg_solver_known_nimber(ps->s, c);
			int64_t want = guide_nimber(ps, ps->s, c);

			if (got >= 0)
				nproof++;
			if (got < 0 || want < 0 || got == want)
				continue;
			b.len = 0;
			cg_solver_print_sum(ps->s, &c, 1, &b);
			fprintf(stderr, "%s: wrong database entry: '%s' has "
			    "nimber %lld, not %lld\n", cg_progname,
			    cg_buf_str(&b), (long long)got, (long long)want);
			nwrong++;
		}
		cg_buf_free(&b);
		if (prooffile != NULL) {
			char err[1024];

			if (cg_solvedb_save(prooffile, ps->s, CG_DB_NIMBER, NULL,
			    err, sizeof err) < 0)
				cg_die(CG_EXIT_DATA, "%s", err);
		}
	}
	fprintf(stderr, "%s: check: %zu positions in the proof, %zu wrong "
	    "database entr%s\n", cg_progname, nproof, nwrong,
	    nwrong == 1 ? "y" : "ies");
	if (nwrong)
		exit(CG_EXIT_DATA);
}

/* --------------------------------------------------------- heap games */

static void
heap_mode(const char *spec, unsigned long seq, unsigned long per)
{
	struct cg_plugin *p;
	const struct cg_heap_rules *r = NULL;
	struct cg_heapseq *hs;
	const uint32_t *v;
	const char *why;
	size_t len, i;

	if (spec == NULL)
		cg_die(CG_EXIT_USAGE, "--sequence and --periodicity need -r NAME");
	p = cg_plugin_get(spec, CG_EXIT_USAGE);
	if (CG_HAS_HOOK(p, extension))
		r = cg_rs_extension(p, CG_EXT_HEAP_RULES);
	if (r == NULL)
		cg_die(CG_EXIT_DATA, "ruleset '%s' is not a heap game (no %s)",
		    spec, CG_EXT_HEAP_RULES);
	hs = cg_heapseq_new(r, &why);
	if (hs == NULL)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", spec, why);
	if (seq != (unsigned long)-1) {
		cg_heapseq_compute(hs, seq, !noshortcut);
		v = cg_heapseq_values(hs, &len);
		for (i = 0; i <= seq; i++)
			printf("%s%u", i ? "," : "", v[i]);
		putchar('\n');
		cg_check_write(stdout, "standard output");
	}
	if (per != (unsigned long)-1) {
		struct cg_period pd;

		cg_heapseq_compute(hs, per, 0);
		v = cg_heapseq_values(hs, &len);
		if (cg_heapseq_find_period(v, per + 1, cg_heapseq_max_take(hs),
		    cg_heapseq_splits(hs), &pd))
			printf("Periodicity(Period => %zu, Preperiod => %zu, "
			    "Saltus => %ld)\n", pd.period, pd.preperiod,
			    pd.saltus);
		else
			printf("Nothing\n");
		cg_check_write(stdout, "standard output");
	}
	cg_heapseq_free(hs);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, CG_OPT_VERSION },
		{ "children", no_argument, NULL, OPT_CHILDREN },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "proof", required_argument, NULL, OPT_PROOF },
		{ "progress", no_argument, NULL, 'v' },
		{ "sequence", required_argument, NULL, OPT_SEQUENCE },
		{ "periodicity", required_argument, NULL, OPT_PERIODICITY },
		{ "no-shortcut", no_argument, NULL, OPT_NOSHORTCUT },
		{ "max-memory", required_argument, NULL, OPT_MAXMEM },
		{ NULL, 0, NULL, 0 },
	};
	const char *spec = NULL;
	unsigned long seq = (unsigned long)-1, per = (unsigned long)-1;
	struct sigaction sa;
	int c;

	cg_tool_init(argc, argv);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while ((c = getopt_long(argc, argv, "D:ghK:mnP:r:tv", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'D':
			dbfiles = cg_xreallocarray(dbfiles, ndb + 1,
			    sizeof *dbfiles);
			dbfiles[ndb++] = optarg;
			break;
		case 'g': mode = M_GENUS; break;
		case 'K': cg_kb_add(optarg); nkb++; break;
		case 'm': misere = 1; break;
		case 'n': if (mode != M_GENUS) mode = M_NIMBER; break;
		case 'P': cg_plugin_add_dir(optarg); break;
		case 'r': spec = optarg; break;
		case 't': tsv = 1; break;
		case 'v': progress = 1; break;
		case OPT_CHILDREN: children = 1; break;
		case OPT_CHECK: check = 1; break;
		case OPT_PROOF: prooffile = optarg; break;
		case OPT_SEQUENCE: seq = cg_parse_count(optarg, "--sequence"); break;
		case OPT_PERIODICITY:
			per = cg_parse_count(optarg, "--periodicity");
			break;
		case OPT_NOSHORTCUT: noshortcut = 1; break;
		case OPT_MAXMEM:
			max_memory_mb = cg_parse_count(optarg, "--max-memory");
			break;
		case 'h': cg_help(usage, help);
		case CG_OPT_VERSION: cg_version();
		default: cg_usage(usage);
		}
	}
	if ((check && ndb == 0) || (prooffile != NULL && !check) ||
	    (mode == M_GENUS && misere))
		cg_usage(usage);
	if (seq != (unsigned long)-1 || per != (unsigned long)-1) {
		if (optind != argc)
			cg_usage(usage);
		heap_mode(spec, seq, per);
		cg_plugin_unload_all();
		cg_close_stdout();
		return 0;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (spec != NULL && ndb > 0)
		(void)psolver_for(cg_plugin_get(spec, CG_EXIT_USAGE));
	cg_each_document(argc - optind, argv + optind, spec, each, NULL);
	if (check)
		report_check();
	save_databases();
	if (progress) {
		struct psolver *ps;

		for (ps = psolvers; ps != NULL; ps = ps->next) {
			const struct cg_solver_stats *st =
			    cg_solver_stats(ps->s);

			fprintf(stderr, "%s: %s: %llu expanded, %llu solved, "
			    "%zu positions stored, %.1f MB tables, %.1f s\n",
			    cg_progname, ps->rs->spec,
			    (unsigned long long)st->expanded,
			    (unsigned long long)st->solved,
			    cg_solver_ncomponents(ps->s),
			    (double)cg_solver_memory(ps->s) / 1048576.0,
			    elapsed());
		}
	}
	{
		struct psolver *ps, *next;

		for (ps = psolvers; ps != NULL; ps = next) {
			next = ps->next;
			cg_solver_free(ps->s);
			cg_solvedb_extra_free(&ps->extra);
			cg_bytemap_free(ps->guide);
			cg_heapseq_free(ps->heap);
			free(ps);
		}
	}
	free(dbfiles);
	if (nkb)
		cg_kb_close_all();
	cg_plugin_unload_all();
	cg_close_stdout();
	return 0;
}
