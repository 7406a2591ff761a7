/* loopybuild.c - knowledge bases of loopy families by retrograde
 * analysis (loopybuild.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytemap.h"
#include "base/util.h"
#include "base/watch.h"
#include "kb/kbfile.h"
#include "kb/loopybuild.h"
#include "solve/explore.h"
#include "solve/retro.h"

enum lkind { LK_OUTCOME, LK_REMOTENESS, LK_NIMBER };

struct loopy_build {
	struct cg_plugin *rs;
	const char *family;
	struct cg_explore *e;
	uint64_t members;          /* positions the family emitted */
	uint64_t distinct;         /* those up to symmetry */
	int enumerating;           /* the family is being enumerated */
	struct cg_kb_meta meta;
	enum lkind kind[CG_KB_MAXKINDS];
	/* per kind: each node's value id, and the texts (with their NUL)
	 * interned in the order met, so an id is the text's entry */
	uint32_t *vid[CG_KB_MAXKINDS];
	struct cg_bytemap *dict[CG_KB_MAXKINDS];
	uint32_t *order;           /* nodes by key, as the base lists them */
	struct cg_kb_source src;
};

static void
set_kinds(struct loopy_build *lb, const char *list)
{
	uint32_t k;

	if (cg_kb_meta_set_kinds(&lb->meta, list) < 0)
		cg_die(CG_EXIT_USAGE, "bad value kinds '%s' (a comma-separated "
		    "list of at most %d)", list, CG_KB_MAXKINDS);
	for (k = 0; k < lb->meta.nkinds; k++) {
		const char *name = lb->meta.kinds[k];

		if (strcmp(name, "outcome") == 0) {
			lb->kind[k] = LK_OUTCOME;
		} else if (strcmp(name, "remoteness") == 0) {
			lb->kind[k] = LK_REMOTENESS;
		} else if (strcmp(name, "nimber") == 0 && lb->rs->impartial) {
			lb->kind[k] = LK_NIMBER;
		} else {
			cg_die(CG_EXIT_USAGE, "kind '%s' is not one a base of "
			    "loopy ruleset '%s' holds (outcome, remoteness%s)",
			    name, lb->rs->name, lb->rs->impartial ?
			    ", nimber" : "; nimber needs an impartial ruleset");
		}
	}
}

static int
on_member(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct loopy_build *lb = ctx;

	(void)move;
	if (cg_stop)
		return 1;
	(void)cg_explore_add(lb->e, pos, len);
	lb->members++;
	cg_progress_tick();
	return 0;
}

/* Once a second: positions met and expanded, the rate, memory. */
static void
progress(void *ctx, double secs)
{
	struct loopy_build *lb = ctx;
	uint64_t met = cg_explore_count(lb->e),
	    done = cg_explore_expanded(lb->e);

	if (lb->enumerating) {
		fprintf(stderr, "%s: family '%s': %llu positions enumerated, "
		    "%.1f MB resident\n", cg_progname, lb->family,
		    (unsigned long long)lb->members,
		    (double)cg_memory_rss() / 1048576.0);
		return;
	}
	fprintf(stderr, "%s: family '%s': %llu positions explored, %llu "
	    "waiting, %.0f/s, %.1f MB resident\n", cg_progname, lb->family,
	    (unsigned long long)done, (unsigned long long)(met - done),
	    (double)done / (secs > 0 ? secs : 1),
	    (double)cg_memory_rss() / 1048576.0);
}

/* Every member of the family and what it reaches, into lb->e. */
static void
explore(struct loopy_build *lb, int verbose)
{
	int rc;

	if (!CG_HAS_HOOK(lb->rs, enumerate))
		cg_die(CG_EXIT_DATA, "ruleset '%s' cannot enumerate families",
		    lb->rs->name);
	if (verbose)
		cg_progress_every(1.0, progress, lb);
	lb->enumerating = 1;
	rc = cg_rs_enumerate(lb->rs, lb->family, on_member, lb);
	lb->enumerating = 0;
	if (rc < 0 && !cg_stop)
		cg_die(CG_EXIT_DATA, "family '%s': %s", lb->family,
		    cg_rs_errmsg(lb->rs));
	lb->distinct = cg_explore_count(lb->e);
	/* a stop leaves cg_stop set, which is what is looked at below */
	if (!cg_stop)
		(void)cg_explore_run(lb->e);
	if (verbose)
		cg_progress_every(1.0, NULL, NULL);
	if (cg_stop) {
		uint64_t n = cg_explore_count(lb->e);

		/* freed before the exit, so that a leak checker finds none */
		cg_explore_free(lb->e);
		cg_kb_meta_free(&lb->meta);
		if (cg_stop != CG_STOP_MEMORY)
			cg_die(cg_stop_status(), "%s", cg_stop_reason());
		cg_die(CG_EXIT_DATA, "family '%s': %s after %llu positions: "
		    "exploring the whole family needs more", lb->family,
		    cg_stop_reason(), (unsigned long long)n);
	}
}

static uint32_t
intern(struct cg_bytemap *dict, struct cg_buf *text)
{
	int isnew;

	/* the NUL is kept, so the entry's key is the text as a string */
	cg_buf_addc(text, '\0');
	return (uint32_t)cg_bytemap_intern(dict, text->data, text->len,
	    &isnew);
}

/* Solve the graph and give each node its value id of each kind. */
static void
solve(struct loopy_build *lb)
{
	struct cg_retro_graph g;
	struct cg_retro *r = NULL;
	struct cg_gsg *v = NULL;
	struct cg_buf t;
	uint32_t n, x, k;

	cg_explore_graph(lb->e, &g);
	n = g.n;
	for (k = 0; k < lb->meta.nkinds; k++) {
		if (lb->kind[k] == LK_NIMBER && v == NULL)
			v = cg_gsg_solve(&g);
		else if (lb->kind[k] != LK_NIMBER && r == NULL)
			r = cg_retro_solve(&g);
	}
	cg_buf_init(&t);
	for (k = 0; k < lb->meta.nkinds; k++) {
		lb->dict[k] = cg_bytemap_new();
		lb->vid[k] = cg_xcalloc(n ? n : 1, sizeof *lb->vid[k]);
		for (x = 0; x < n; x++) {
			t.len = 0;
			if (lb->kind[k] == LK_OUTCOME)
				cg_buf_addstr(&t, cg_retro_class(r, x));
			else if (lb->kind[k] == LK_REMOTENESS)
				cg_retro_remoteness_text(r, x, &t);
			else
				cg_gsg_text(cg_gsg_of(v, x), &t);
			lb->vid[k][x] = intern(lb->dict[k], &t);
		}
	}
	cg_buf_free(&t);
	cg_retro_free(r);
	cg_gsg_free(v);
}

static int
cmp_nodes(const void *a, const void *b, void *ctx)
{
	const struct cg_explore *e = ctx;
	size_t la, lb;
	const unsigned char *ka = cg_explore_key(e, *(const uint32_t *)a, &la);
	const unsigned char *kb = cg_explore_key(e, *(const uint32_t *)b, &lb);
	int c = memcmp(ka, kb, la < lb ? la : lb);

	/* bytewise, a proper prefix first, as cgkb(5) orders keys */
	if (c != 0)
		return c;
	return (la > lb) - (la < lb);
}

static const unsigned char *
src_key(void *ctx, uint64_t i, size_t *len)
{
	struct loopy_build *lb = ctx;

	return cg_explore_key(lb->e, lb->order[i], len);
}

static uint64_t
src_value(void *ctx, uint64_t i, uint32_t k)
{
	struct loopy_build *lb = ctx;

	return lb->vid[k][lb->order[i]];
}

static const char *
src_text(void *ctx, uint32_t k, uint64_t id)
{
	struct loopy_build *lb = ctx;
	size_t len;

	return (const char *)cg_bytemap_key(lb->dict[k], id, &len);
}

static void
write_base(struct loopy_build *lb, const char *path)
{
	uint32_t n = cg_explore_count(lb->e), x, k;

	lb->order = cg_xcalloc(n ? n : 1, sizeof *lb->order);
	for (x = 0; x < n; x++)
		lb->order[x] = x;
	qsort_r(lb->order, n, sizeof *lb->order, cmp_nodes, lb->e);
	memset(&lb->src, 0, sizeof lb->src);
	lb->src.ctx = lb;
	lb->src.n = n;
	lb->src.key = src_key;
	lb->src.value = src_value;
	lb->src.text = src_text;
	for (k = 0; k < lb->meta.nkinds; k++)
		lb->src.nvalues[k] = cg_bytemap_count(lb->dict[k]);
	cg_kb_write_source(&lb->src, &lb->meta, path);
}

void
cg_kb_loopy_build(const struct cg_kb_build_options *o, struct cg_plugin *rs,
    const char *path, int dry_run)
{
	struct loopy_build lb;
	double t0 = cg_elapsed(), t1;
	uint32_t k;

	/* what builds short games in parts has no meaning here */
	if (o->measured)
		cg_die(CG_EXIT_USAGE, "ruleset '%s' is loopy: --measure builds "
		    "in waves of a measure every move decreases, and a loopy "
		    "ruleset has none; its base is one retrograde analysis of "
		    "a family closed under moves (--family)", rs->name);
	if (o->family == NULL)
		cg_die(CG_EXIT_USAGE, "ruleset '%s' is loopy: its base is "
		    "built from a family closed under moves (--family), not "
		    "from positions", rs->name);
	if (o->shard_n > 1)
		cg_die(CG_EXIT_USAGE, "ruleset '%s' is loopy: its base is one "
		    "retrograde analysis of the whole family, not built in "
		    "shards", rs->name);
	memset(&lb, 0, sizeof lb);
	lb.rs = rs;
	lb.family = o->family;
	cg_kb_meta_init(&lb.meta);
	set_kinds(&lb, o->kinds ? o->kinds : CG_KB_LOOPY_KINDS);
	lb.meta.ruleset = cg_xstrdup(rs->name);
	lb.meta.params = cg_xstrdup(rs->params ? rs->params : "");
	lb.meta.plugin_version = cg_xstrdup(rs->rs->version ?
	    rs->rs->version : "");
	lb.meta.family = cg_xstrdup(o->family);
	lb.meta.shard_k = lb.meta.shard_n = 1;
	lb.meta.block_size = o->block_size ? o->block_size :
	    CG_KB_BLOCK_DEFAULT;
	lb.e = cg_explore_new(rs);
	explore(&lb, o->progress);
	t1 = cg_elapsed();
	if (o->progress)
		fprintf(stderr, "%s: family '%s': %llu positions, %llu up to "
		    "symmetry, closed under moves: %lu positions, %llu moves, "
		    "explored in %.3f s\n", cg_progname, lb.family,
		    (unsigned long long)lb.members,
		    (unsigned long long)lb.distinct,
		    (unsigned long)cg_explore_count(lb.e),
		    (unsigned long long)cg_explore_options(lb.e), t1 - t0);
	if (dry_run) {
		printf("%lu\n", (unsigned long)cg_explore_count(lb.e));
		cg_check_write(stdout, "standard output");
	} else {
		solve(&lb);
		if (o->progress)
			fprintf(stderr, "%s: family '%s': %lu positions solved "
			    "in %.3f s, %.0f positions/s from the start\n",
			    cg_progname, lb.family,
			    (unsigned long)cg_explore_count(lb.e),
			    cg_elapsed() - t1, (double)cg_explore_count(lb.e) /
			    (cg_elapsed() - t0 > 0 ? cg_elapsed() - t0 : 1));
		write_base(&lb, path);
	}
	for (k = 0; k < lb.meta.nkinds; k++) {
		free(lb.vid[k]);
		cg_bytemap_free(lb.dict[k]);
	}
	free(lb.order);
	cg_explore_free(lb.e);
	cg_kb_meta_free(&lb.meta);
}

/* ------------------------------------------------------------ verify */

struct loopy_check {
	struct loopy_build lb;
	struct cg_kbfile *f;
	const char *path;
	uint64_t *ref;             /* node * nkinds: the base's references */
	size_t cap;
	struct cg_buf canon, text;
};

static int
on_entry(void *ctx, const struct cg_kbentry *en)
{
	struct loopy_check *c = ctx;
	uint32_t nk = c->lb.meta.nkinds, x, k;

	c->canon.len = 0;
	if (cg_rs_canonical(c->lb.rs, en->key, en->len, &c->canon) < 0 ||
	    c->canon.len != en->len || memcmp(c->canon.data, en->key,
	    en->len) != 0)
		cg_die(CG_EXIT_DATA, "%s: key of '%s' is not its canonical "
		    "form", c->path, cg_kb_describe(c->lb.rs, en->key, en->len,
		    &c->text));
	x = cg_explore_add(c->lb.e, en->key, en->len);
	if ((size_t)(x + 1) * nk > c->cap) {
		c->cap = c->cap ? 2 * c->cap : 4096;
		while (c->cap < (size_t)(x + 1) * nk)
			c->cap *= 2;
		c->ref = cg_xreallocarray(c->ref, c->cap, sizeof *c->ref);
	}
	for (k = 0; k < nk; k++)
		c->ref[(size_t)x * nk + k] = en->ref[k];
	return cg_stop ? 1 : 0;
}

void
cg_kb_loopy_verify(struct cg_kbfile *f, struct cg_plugin *rs, int verbose)
{
	struct loopy_check c;
	const struct cg_kb_meta *m = cg_kbfile_meta(f);
	char err[1024];
	uint32_t n, x, k, nk;
	const char *have, *want;
	size_t len;
	double t0 = cg_elapsed();

	memset(&c, 0, sizeof c);
	c.f = f;
	c.path = cg_kbfile_path(f);
	c.lb.rs = rs;
	c.lb.family = m->family;
	cg_kb_meta_init(&c.lb.meta);
	cg_kb_meta_copy(&c.lb.meta, m);
	nk = m->nkinds;
	for (k = 0; k < nk; k++) {
		c.lb.kind[k] = strcmp(m->kinds[k], "outcome") == 0 ? LK_OUTCOME :
		    strcmp(m->kinds[k], "remoteness") == 0 ? LK_REMOTENESS :
		    LK_NIMBER;
		if (c.lb.kind[k] == LK_NIMBER && (strcmp(m->kinds[k],
		    "nimber") != 0 || !rs->impartial))
			cg_die(CG_EXIT_DATA, "%s: kind '%s' is not one a base of "
			    "loopy ruleset '%s' holds", c.path, m->kinds[k],
			    rs->name);
	}
	cg_buf_init(&c.canon);
	cg_buf_init(&c.text);
	c.lb.e = cg_explore_new(rs);
	if (cg_kbfile_each(f, 1, on_entry, &c, err, sizeof err) < 0)
		cg_die(CG_EXIT_DATA, "%s", err);
	n = cg_explore_count(c.lb.e);
	/* the entries are the family: its closure must add nothing */
	if (cg_stop || cg_explore_run(c.lb.e) < 0)
		cg_die(cg_stop == CG_STOP_MEMORY ? CG_EXIT_DATA :
		    cg_stop_status(), "%s", cg_stop_reason());
	if (cg_explore_count(c.lb.e) > n) {
		c.text.len = 0;
		cg_explore_print(c.lb.e, n, &c.text);
		cg_die(CG_EXIT_DATA, "%s: not closed under moves: position '%s' "
		    "is reached from its entries but is not one", c.path,
		    cg_buf_str(&c.text));
	}
	solve(&c.lb);
	for (x = 0; x < n; x++)
		for (k = 0; k < nk; k++) {
			uint64_t r = c.ref[(size_t)x * nk + k];

			want = (const char *)cg_bytemap_key(c.lb.dict[k],
			    c.lb.vid[k][x], &len);
			have = r == CG_KB_NOVALUE ? "" : cg_kbfile_text(f, k, r);
			if (have != NULL && strcmp(have, want) == 0)
				continue;
			c.text.len = 0;
			cg_explore_print(c.lb.e, x, &c.text);
			cg_die(CG_EXIT_DATA, "%s: %s of '%s' is '%s', retrograde "
			    "analysis gives '%s'", c.path, m->kinds[k],
			    cg_buf_str(&c.text), have ? have : "?", want);
		}
	if (verbose)
		fprintf(stderr, "%s: %s: sound (%lu entries, closed under moves, "
		    "solved again in %.2f s)\n", cg_progname, c.path,
		    (unsigned long)n, cg_elapsed() - t0);
	for (k = 0; k < nk; k++) {
		free(c.lb.vid[k]);
		cg_bytemap_free(c.lb.dict[k]);
	}
	cg_explore_free(c.lb.e);
	cg_kb_meta_free(&c.lb.meta);
	cg_buf_free(&c.canon);
	cg_buf_free(&c.text);
	free(c.ref);
}
