/* verify.c - checking a base (cg-kb-build --verify): its checksums and
 * order, canonical keys in their shard, then every entry's values made
 * again from its children's.  Outcomes, mis\`ere outcomes and nim values
 * follow from the children's; a canonical form is the children's forms
 * made into one game and compared as a game (a base of games is never
 * printed and parsed).  The children's values come from the base itself
 * (a whole base is added for lookups, so a child that is a sum of
 * components is combined from theirs), or, for children the base does
 * not hold, from the engines, computed once before the entries are
 * derived on every core.  Other kinds are computed again by the
 * engines. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jobs.h"
#include "base/util.h"
#include "base/watch.h"
#include "kb/build.h"
#include "kb/kb.h"
#include "kb/kbfile.h"
#include "kb/kbmove.h"
#include "kb/kbvalue.h"
#include "kb/loopybuild.h"
#include "solve/outcome.h"
#include "values/notation.h"

#define BATCH 4096

struct verifier {
	struct cg_kbfile *f;
	const struct cg_kb_meta *m;
	struct cg_plugin *rs;
	const char *path;
	int whole;
	/* children the base does not hold: their values (canon as games) */
	struct cg_kbset *extra;
	/* a batch of entries: keys and references */
	struct cg_buf keys;
	size_t *off, n, cap;
	uint64_t *ref;                    /* n * nkinds */
	/* children the base does not hold, and the entries that need them
	 * (made again once those are computed), per worker */
	struct cg_kbset *missing[CG_MAX_JOBS], *redo[CG_MAX_JOBS];
	int pass;
	/* the first wrong entry in index order: its message and place */
	_Atomic(char *) fail;
	uint64_t failat;
	pthread_mutex_t faillock;
	uint64_t batch0;                  /* index of the batch's first entry */
	size_t entries, outside;
	uint32_t first;                   /* the canon kind, or 0 */
};

static int
derivable(const char *kind)
{
	return strcmp(kind, "outcome") == 0 || strcmp(kind, "nimber") == 0 ||
	    strcmp(kind, "misere") == 0 || strcmp(kind, "canon") == 0;
}

/* ---------------------------------------------------- children's values */

struct kids {
	struct cg_buf keys, canon;        /* canonical children, concatenated */
	size_t *off, n, cap;
	struct cg_plugin *rs;
};

static int
on_child(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct kids *k = ctx;

	(void)move;
	k->canon.len = 0;
	if (cg_rs_canonical(k->rs, pos, len, &k->canon) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", k->rs->name,
		    cg_rs_errmsg(k->rs));
	if (k->n + 2 > k->cap) {
		k->cap = k->cap ? 2 * k->cap : 64;
		k->off = cg_xreallocarray(k->off, k->cap, sizeof *k->off);
	}
	if (k->n == 0)
		k->off[0] = 0;
	cg_buf_add(&k->keys, k->canon.data, k->canon.len);
	k->off[++k->n] = k->keys.len;
	return 0;
}

static void
children(struct kids *k, const unsigned char *pos, size_t len,
    enum cg_side side)
{
	k->keys.len = 0;
	k->n = 0;
	if (cg_rs_options(k->rs, pos, len, side, on_child, k) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", k->rs->name,
		    cg_rs_errmsg(k->rs));
}

/* A child's value of kind k as text (malloc'ed) or NULL. */
static char *
child_text(struct verifier *v, const unsigned char *key, size_t len,
    uint32_t k)
{
	const char *x;
	int64_t e;

	if (v->whole) {
		char *r = cg_kb_lookup(v->rs, key, len, v->m->kinds[k]);

		if (r != NULL)
			return r;
	} else if ((x = cg_kbfile_get(v->f, key, len, k)) != NULL) {
		return cg_xstrdup(x);
	}
	e = cg_kbset_find(v->extra, key, len);
	x = e < 0 ? NULL : cg_kbset_value(v->extra, (uint64_t)e, k);
	return x ? cg_xstrdup(x) : NULL;
}

/* A child's canonical form, or CG_NO_GAME. */
static cg_game
child_game(struct verifier *v, const unsigned char *key, size_t len,
    uint32_t k)
{
	char *t, msg[256];
	size_t col;
	cg_game g = CG_NO_GAME;

	if (v->whole)
		g = cg_kb_lookup_game(v->rs, key, len);
	if (g != CG_NO_GAME)
		return g;
	t = child_text(v, key, len, k);
	if (t != NULL && cg_canon_parse(t, strlen(t), &g, msg, sizeof msg,
	    &col) < 0)
		g = CG_NO_GAME;
	free(t);
	return g;
}

/* ------------------------------------------------------------ deriving */

/* Kind k of an entry from its children, into out (its text) or *game
 * (canon); 0, or -1 when a child has no value (the child in *miss). */
static int
derive(struct verifier *v, struct kids kid[2], uint32_t k, struct cg_buf *out,
    cg_game *game, size_t *miss_side, size_t *miss)
{
	const char *name = v->m->kinds[k];
	int win[2] = { 0, 0 }, s;
	size_t i;
	char *c;

	out->len = 0;
	if (strcmp(name, "canon") == 0) {
		cg_game *g[2];

		for (s = 0; s < 2; s++) {
			g[s] = cg_xmalloc((kid[s].n ? kid[s].n : 1) * sizeof *g[s]);
			for (i = 0; i < kid[s].n; i++) {
				g[s][i] = child_game(v, kid[s].keys.data +
				    kid[s].off[i], kid[s].off[i + 1] -
				    kid[s].off[i], k);
				if (g[s][i] == CG_NO_GAME) {
					*miss_side = (size_t)s;
					*miss = i;
					free(g[0]);
					if (s == 1)
						free(g[1]);
					return -1;
				}
			}
		}
		*game = cg_canon_make(g[0], kid[0].n, g[1], kid[1].n);
		free(g[0]);
		free(g[1]);
		return 0;
	}
	if (strcmp(name, "nimber") == 0) {
		unsigned char seen[4096];
		unsigned long n;

		memset(seen, 0, sizeof seen);
		for (s = 0; s < 2; s++)
			for (i = 0; i < kid[s].n; i++) {
				c = child_text(v, kid[s].keys.data + kid[s].off[i],
				    kid[s].off[i + 1] - kid[s].off[i], k);
				if (c == NULL) {
					*miss_side = (size_t)s;
					*miss = i;
					return -1;
				}
				n = strtoul(c, NULL, 10);
				free(c);
				if (n < sizeof seen)
					seen[n] = 1;
			}
		for (n = 0; seen[n]; n++)
			;
		cg_buf_addf(out, "%lu", n);
		return 0;
	}
	/* outcome classes: the mover wins by moving to a position the other
	 * player loses moving first (normal play); in misere play having no
	 * move wins too */
	for (s = 0; s < 2; s++) {
		const char *good = s == CG_LEFT ? "LP" : "RP";

		if (kid[s].n == 0 && strcmp(name, "misere") == 0)
			win[s] = 1;
		for (i = 0; i < kid[s].n; i++) {
			c = child_text(v, kid[s].keys.data + kid[s].off[i],
			    kid[s].off[i + 1] - kid[s].off[i], k);
			if (c == NULL) {
				*miss_side = (size_t)s;
				*miss = i;
				return -1;
			}
			if (c[0] != '\0' && c[1] == '\0' && strchr(good, c[0]))
				win[s] = 1;
			free(c);
		}
	}
	cg_buf_addc(out, cg_outcome_class(win[0], win[1]));
	return 0;
}

/* Keep the message of the first wrong entry of the batch (i): the
 * report does not depend on the threads. */
static void
fail(struct verifier *v, size_t i, char *msg)
{
	char *old;

	pthread_mutex_lock(&v->faillock);
	old = atomic_load(&v->fail);
	if (old == NULL || v->batch0 + i < v->failat) {
		atomic_store(&v->fail, msg);
		v->failat = v->batch0 + i;
		free(old);
	} else {
		free(msg);
	}
	pthread_mutex_unlock(&v->faillock);
}

/* Every child without a value of kind k, for the engines to compute. */
static void
note_missing(struct verifier *v, struct kids kid[2], uint32_t k)
{
	const char *none[CG_KB_MAXKINDS] = { 0 }, *old;
	int canon = strcmp(v->m->kinds[k], "canon") == 0, s;
	size_t i;

	for (s = 0; s < 2; s++)
		for (i = 0; i < kid[s].n; i++) {
			const unsigned char *c = kid[s].keys.data + kid[s].off[i];
			size_t cl = kid[s].off[i + 1] - kid[s].off[i];
			char *t = NULL;

			if (canon ? child_game(v, c, cl, k) != CG_NO_GAME :
			    (t = child_text(v, c, cl, k)) != NULL) {
				free(t);
				continue;
			}
			cg_kbset_add(v->missing[cg_worker], c, cl, none, &old);
		}
}

/* Kind k of entry i of the batch, derived from the children kid and
 * compared with the base: 0 to go on, 1 when the entry is put off or
 * wrong.  *made is the canonical form derived (the outcome and the nim
 * value follow from it when the base holds forms). */
static int
check(struct verifier *v, size_t i, uint32_t k, struct kids kid[2],
    cg_game *made, struct cg_buf *out, struct cg_buf *t1)
{
	const unsigned char *key = v->keys.data + v->off[i];
	size_t len = v->off[i + 1] - v->off[i], ms, mi;
	uint64_t ref = v->ref[i * v->m->nkinds + k];
	const char *name = v->m->kinds[k], *stored, *got;
	cg_game g = CG_NO_GAME;
	struct cg_buf msg;

	if (!derivable(name) || ref == CG_KB_NOVALUE)
		return 0;
	cg_buf_init(&msg);
	if (*made != CG_NO_GAME && (strcmp(name, "outcome") == 0 ||
	    strcmp(name, "nimber") == 0)) {
		out->len = 0;
		if (!cg_kbv_from_canon(name, *made, out))
			cg_buf_addstr(out, "(none)");
	} else if (derive(v, kid, k, out, &g, &ms, &mi) < 0) {
		const char *none[CG_KB_MAXKINDS] = { 0 }, *old;

		if (v->pass == 0) {
			note_missing(v, kid, k);
			cg_kbset_add(v->redo[cg_worker], key, len, none, &old);
			return 1;
		}
		cg_buf_addf(&msg, "%s: cannot re-derive %s of '%s': a child has "
		    "no value", v->path, name,
		    cg_kb_describe(v->rs, key, len, t1));
		fail(v, i, cg_xstrdup(cg_buf_str(&msg)));
		cg_buf_free(&msg);
		return 1;
	}
	if (g != CG_NO_GAME) {
		*made = g;
		if (cg_kbfile_games(v->f, k) && g == cg_kbfile_game(v->f, k, ref))
			return 0;
		cg_canon_print(g, out);
	}
	stored = cg_kbfile_text(v->f, k, ref);
	got = cg_buf_str(out);
	if (strcmp(got, stored) == 0)
		return 0;
	cg_buf_addf(&msg, "%s: %s of '%s' is '%s', but its options give '%s'",
	    v->path, name, cg_kb_describe(v->rs, key, len, t1), stored, got);
	fail(v, i, cg_xstrdup(cg_buf_str(&msg)));
	cg_buf_free(&msg);
	return 1;
}

/* Entry i of the batch: derived and compared; in the first pass, an
 * entry with a child the base does not hold is put off until the
 * engines have computed the children.  The canonical form is checked
 * first. */
static void
entry_one(void *ctx, size_t i)
{
	struct verifier *v = ctx;
	const unsigned char *key = v->keys.data + v->off[i];
	size_t len = v->off[i + 1] - v->off[i];
	struct kids kid[2];
	struct cg_buf out, t1;
	cg_game made = CG_NO_GAME;
	uint32_t x, k;
	int s;

	if (cg_stop)
		return;
	memset(kid, 0, sizeof kid);
	cg_buf_init(&out);
	cg_buf_init(&t1);
	for (s = 0; s < 2; s++) {
		kid[s].rs = v->rs;
		cg_buf_init(&kid[s].keys);
		cg_buf_init(&kid[s].canon);
		children(&kid[s], key, len, (enum cg_side)s);
	}
	for (x = 0; x < v->m->nkinds; x++) {
		k = x == 0 ? v->first : x <= v->first ? x - 1 : x;
		if (check(v, i, k, kid, &made, &out, &t1))
			break;
	}
	for (s = 0; s < 2; s++) {
		cg_buf_free(&kid[s].keys);
		cg_buf_free(&kid[s].canon);
		free(kid[s].off);
	}
	cg_buf_free(&out);
	cg_buf_free(&t1);
}

/* ---------------------------------------------------------- the passes */

struct walk {
	struct verifier *v;
	struct cg_buf canon, text;
};

static void add_entry(struct verifier *v, const struct cg_kbentry *e);
static void batch_done(struct verifier *v);

static int
collect(void *ctx, const struct cg_kbentry *e)
{
	struct walk *w = ctx;
	struct verifier *v = w->v;

	if (v->m->shard_n > 1 && cg_kb_shard_of(e->key, e->len,
	    v->m->shard_n) != v->m->shard_k)
		cg_die(CG_EXIT_DATA, "%s: '%s' does not belong in shard %u of %u",
		    v->path, cg_kb_describe(v->rs, e->key, e->len, &w->text),
		    v->m->shard_k, v->m->shard_n);
	w->canon.len = 0;
	if (cg_rs_canonical(v->rs, e->key, e->len, &w->canon) < 0)
		cg_die(CG_EXIT_DATA, "%s: key %s: %s", v->path,
		    cg_kb_describe(v->rs, e->key, e->len, &w->text),
		    cg_rs_errmsg(v->rs));
	if (w->canon.len != e->len || memcmp(w->canon.data, e->key,
	    e->len) != 0)
		cg_die(CG_EXIT_DATA, "%s: key of '%s' is not canonical", v->path,
		    cg_kb_describe(v->rs, e->key, e->len, &w->text));
	v->entries++;
	add_entry(v, e);
	if (v->n < BATCH)
		return 0;
	batch_done(v);
	return 0;
}

/* Put an entry in the batch. */
static void
add_entry(struct verifier *v, const struct cg_kbentry *e)
{
	if (v->n + 2 > v->cap) {
		v->cap = v->cap ? 2 * v->cap : BATCH + 2;
		v->off = cg_xreallocarray(v->off, v->cap, sizeof *v->off);
		v->ref = cg_xreallocarray(v->ref, v->cap * (v->m->nkinds ?
		    v->m->nkinds : 1), sizeof *v->ref);
	}
	if (v->n == 0) {
		v->keys.len = 0;
		v->off[0] = 0;
	}
	cg_buf_add(&v->keys, e->key, e->len);
	memcpy(v->ref + v->n * v->m->nkinds, e->ref, v->m->nkinds *
	    sizeof *v->ref);
	v->off[++v->n] = v->keys.len;
}

static void
batch_done(struct verifier *v)
{
	if (v->n > 0 && atomic_load(&v->fail) == NULL && !cg_stop)
		cg_parallel_for(v->n, cg_jobs_default(), 8, entry_one, v);
	v->batch0 += v->n;
	v->n = 0;
	if (cg_stop)
		cg_die(cg_stop_status(), "%s", cg_stop_reason());
	if (atomic_load(&v->fail) != NULL)
		cg_die(CG_EXIT_DATA, "%s", atomic_load(&v->fail));
}

/* Every entry, in batches. */
static void
first_pass(struct verifier *v)
{
	struct walk w;
	char err[1024];

	v->pass = 0;
	v->n = 0;
	w.v = v;
	cg_buf_init(&w.canon);
	cg_buf_init(&w.text);
	if (cg_kbfile_each(v->f, 1, collect, &w, err, sizeof err) < 0)
		cg_die(CG_EXIT_DATA, "%s", err);
	cg_buf_free(&w.canon);
	cg_buf_free(&w.text);
	batch_done(v);
}

/* The entries put off, with the children's values all known now. */
static void
second_pass(struct verifier *v)
{
	struct cg_kbentry e;
	unsigned j;
	size_t i;
	uint32_t k;

	v->pass = 1;
	v->n = 0;
	for (j = 0; j < CG_MAX_JOBS; j++) {
		for (i = 0; v->redo[j] && i < cg_kbset_count(v->redo[j]); i++) {
			memset(&e, 0, sizeof e);
			e.key = cg_kbset_key(v->redo[j], i, &e.len);
			for (k = 0; k < v->m->nkinds; k++)
				e.ref[k] = cg_kbfile_ref(v->f, e.key, e.len, k);
			add_entry(v, &e);
			if (v->n == BATCH)
				batch_done(v);
		}
	}
	batch_done(v);
}

/* The children the base does not hold, computed by the engines. */
static void
outside(struct verifier *v, int verbose)
{
	struct cg_kbset *need = cg_kbset_new(1);
	const char *none[CG_KB_MAXKINDS] = { 0 }, *old;
	size_t i, nn, len;
	uint32_t k;
	unsigned j;

	for (j = 0; j < CG_MAX_JOBS; j++) {
		if (v->missing[j] == NULL)
			continue;
		for (i = 0; i < cg_kbset_count(v->missing[j]); i++) {
			const unsigned char *c = cg_kbset_key(v->missing[j], i,
			    &len);

			cg_kbset_add(need, c, len, none, &old);
		}
		cg_kbset_free(v->missing[j]);
		v->missing[j] = NULL;
	}
	nn = cg_kbset_count(need);
	v->outside = nn;
	if (verbose && nn > 0)
		fprintf(stderr, "%s: computing %zu children outside the base\n",
		    cg_progname, nn);
	for (k = 0; k < v->m->nkinds && nn > 0; k++) {
		const unsigned char **pos;
		size_t *plen;
		char **out;

		if (!derivable(v->m->kinds[k]))
			continue;
		pos = cg_xmalloc(nn * sizeof *pos);
		plen = cg_xmalloc(nn * sizeof *plen);
		out = cg_xcalloc(nn, sizeof *out);
		for (i = 0; i < nn; i++)
			pos[i] = cg_kbset_key(need, i, &plen[i]);
		cg_kbv_compute(v->rs, v->m->kinds[k], nn, pos, plen, out);
		for (i = 0; i < nn; i++) {
			const char *vals[CG_KB_MAXKINDS] = { 0 };

			vals[k] = out[i];
			cg_kbset_add(v->extra, pos[i], plen[i], vals, &old);
			free(out[i]);
		}
		free(pos);
		free(plen);
		free(out);
	}
	cg_kbset_free(need);
}

/* Kinds no child tells: computed again by the engines, batch by batch. */
struct recompute {
	struct verifier *v;
	uint32_t k;
	size_t batch;
	const unsigned char **pos;
	size_t *len;
	uint64_t *ref;
	size_t n;
	char **out;
	struct cg_buf keys, text;
};

static void
recompute_flush(struct recompute *rc)
{
	struct verifier *v = rc->v;
	size_t i, at = 0;

	for (i = 0; i < rc->n; i++) {
		rc->pos[i] = rc->keys.data + at;
		at += rc->len[i];
	}
	cg_kbv_compute(v->rs, v->m->kinds[rc->k], rc->n, rc->pos, rc->len,
	    rc->out);
	for (i = 0; i < rc->n; i++) {
		const char *stored = cg_kbfile_text(v->f, rc->k, rc->ref[i]);

		if (rc->out[i] == NULL || strcmp(stored, rc->out[i]) != 0)
			cg_die(CG_EXIT_DATA, "%s: %s of '%s' is '%s', but the "
			    "engine gives '%s'", v->path, v->m->kinds[rc->k],
			    cg_kb_describe(v->rs, rc->pos[i], rc->len[i],
			    &rc->text), stored, rc->out[i] ? rc->out[i] :
			    "nothing");
		free(rc->out[i]);
		rc->out[i] = NULL;
	}
	rc->n = 0;
	rc->keys.len = 0;
}

static int
recompute_one(void *ctx, const struct cg_kbentry *e)
{
	struct recompute *rc = ctx;

	if (e->ref[rc->k] == CG_KB_NOVALUE)
		return 0;
	cg_buf_add(&rc->keys, e->key, e->len);
	rc->len[rc->n] = e->len;
	rc->ref[rc->n++] = e->ref[rc->k];
	if (rc->n == rc->batch)
		recompute_flush(rc);
	return cg_stop != 0;
}

static void
recompute(struct verifier *v, uint32_t k, size_t batch)
{
	struct recompute rc;
	char err[1024];

	memset(&rc, 0, sizeof rc);
	rc.v = v;
	rc.k = k;
	rc.batch = batch ? batch : 1;
	rc.pos = cg_xmalloc(rc.batch * sizeof *rc.pos);
	rc.len = cg_xmalloc(rc.batch * sizeof *rc.len);
	rc.ref = cg_xmalloc(rc.batch * sizeof *rc.ref);
	rc.out = cg_xcalloc(rc.batch, sizeof *rc.out);
	cg_buf_init(&rc.keys);
	cg_buf_init(&rc.text);
	if (cg_kbfile_each(v->f, 1, recompute_one, &rc, err, sizeof err) < 0)
		cg_die(CG_EXIT_DATA, "%s", err);
	if (cg_stop)
		cg_die(cg_stop_status(), "%s", cg_stop_reason());
	if (rc.n > 0)
		recompute_flush(&rc);
	free(rc.pos);
	free(rc.len);
	free(rc.ref);
	free(rc.out);
	cg_buf_free(&rc.keys);
	cg_buf_free(&rc.text);
}

void
cg_kb_verify(const char *path, size_t batch, int verbose)
{
	struct verifier v;
	char err[1024], spec[512];
	double t0 = cg_elapsed();
	uint32_t k;
	unsigned j;

	memset(&v, 0, sizeof v);
	pthread_mutex_init(&v.faillock, NULL);
	v.path = path;
	v.f = cg_kbfile_open(path, err, sizeof err);
	if (v.f == NULL)
		cg_die(CG_EXIT_DATA, "%s", err);
	v.m = cg_kbfile_meta(v.f);
	v.rs = cg_plugin_get(cg_kb_meta_spec(v.m, spec, sizeof spec),
	    CG_EXIT_DATA);
	if (cg_kbfile_bind(v.f, v.rs, err, sizeof err) < 0)
		cg_die(CG_EXIT_DATA, "%s", err);
	if (cg_kbfile_check(v.f, err, sizeof err) < 0)
		cg_die(CG_EXIT_DATA, "%s", err);
	if (cg_rs_loopy(v.rs)) {
		/* no entry follows from its children alone: the whole base
		 * is solved again */
		cg_kb_loopy_verify(v.f, v.rs, verbose);
		cg_kbfile_close(v.f);
		pthread_mutex_destroy(&v.faillock);
		return;
	}
	v.whole = v.m->shard_n == 1;
	v.first = cg_kb_meta_kind(v.m, "canon") > 0 ?
	    (uint32_t)cg_kb_meta_kind(v.m, "canon") : 0;
	if (v.whole)
		cg_kb_add(path);   /* children found through their components */
	v.extra = cg_kbset_new(v.m->nkinds);
	cg_buf_init(&v.keys);
	for (j = 0; j < CG_MAX_JOBS; j++) {
		v.missing[j] = cg_kbset_new(1);
		v.redo[j] = cg_kbset_new(1);
	}
	/* structure, and the derivable kinds of each entry from its
	 * children, on every core; then the entries with children the
	 * base does not hold */
	first_pass(&v);
	outside(&v, verbose);
	second_pass(&v);
	for (k = 0; k < v.m->nkinds; k++)
		if (!derivable(v.m->kinds[k]))
			recompute(&v, k, batch);
	if (verbose)
		fprintf(stderr, "%s: %s: sound (%zu entries, %zu children "
		    "computed, %.2f s)\n", cg_progname, path, v.entries,
		    v.outside, cg_elapsed() - t0);
	for (j = 0; j < CG_MAX_JOBS; j++) {
		cg_kbset_free(v.missing[j]);
		cg_kbset_free(v.redo[j]);
	}
	cg_kbset_free(v.extra);
	cg_buf_free(&v.keys);
	free(v.off);
	free(v.ref);
	cg_kbfile_close(v.f);
	cg_kb_close_all();
	cg_kbv_done();
}
