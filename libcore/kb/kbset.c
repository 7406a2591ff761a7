/* kbset.c - a knowledge base's entries held in memory while they are
 * built or merged, and written out through the cgkb(5) writer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytemap.h"
#include "base/util.h"
#include "kb/kbfile.h"
#include "values/notation.h"

/* ------------------------------------------------------------ entry set */

/*
 * A kind stored as games holds canonical forms as store ids (the 4 bytes
 * of a cg_game are the key of its value table), not as text: a build
 * hands its forms over without printing them.  Text given for such a
 * kind is read as a game, and when one text is not the printed form of
 * the game it reads as (a hand-written annotation), the kind turns back
 * into text, as in files written before games were the default.
 */
struct cg_kbset {
	uint32_t nkinds;
	struct cg_bytemap *keys;            /* key -> entry */
	struct cg_bytemap *vals[CG_KB_MAXKINDS]; /* value -> id */
	int games[CG_KB_MAXKINDS];          /* values are cg_game ids */
	char **text[CG_KB_MAXKINDS];        /* games kinds: printed, by id */
	size_t ntext[CG_KB_MAXKINDS];
	uint32_t *v;                        /* entry * nkinds: id + 1, 0 */
	size_t cap;
};

struct cg_kbset *
cg_kbset_new(uint32_t nkinds)
{
	struct cg_kbset *s = cg_xcalloc(1, sizeof *s);
	uint32_t k;

	s->nkinds = nkinds;
	s->keys = cg_bytemap_new();
	for (k = 0; k < nkinds; k++)
		s->vals[k] = cg_bytemap_new();
	return s;
}

void
cg_kbset_free(struct cg_kbset *s)
{
	uint32_t k;

	if (s == NULL)
		return;
	cg_bytemap_free(s->keys);
	for (k = 0; k < s->nkinds; k++) {
		size_t i;

		cg_bytemap_free(s->vals[k]);
		for (i = 0; i < s->ntext[k]; i++)
			free(s->text[k][i]);
		free(s->text[k]);
	}
	free(s->v);
	free(s);
}

void
cg_kbset_use_games(struct cg_kbset *s, uint32_t k)
{
	if (cg_bytemap_count(s->vals[k]) == 0)
		s->games[k] = 1;
}

/* Kind k back to text: every game value printed, ids kept. */
static void
to_text(struct cg_kbset *s, uint32_t k)
{
	struct cg_bytemap *t = cg_bytemap_new();
	struct cg_buf b;
	size_t i, n = cg_bytemap_count(s->vals[k]), len;
	int isnew;

	cg_buf_init(&b);
	for (i = 0; i < n; i++) {
		cg_game g;

		memcpy(&g, cg_bytemap_key(s->vals[k], i, &len), sizeof g);
		b.len = 0;
		cg_canon_print(g, &b);
		cg_buf_addc(&b, '\0');
		cg_bytemap_intern(t, b.data, b.len, &isnew);
	}
	cg_buf_free(&b);
	cg_bytemap_free(s->vals[k]);
	s->vals[k] = t;
	s->games[k] = 0;
}

/* The id of a value text of kind k. */
static uint32_t
text_id(struct cg_kbset *s, uint32_t k, const char *text)
{
	int isnew;

	if (s->games[k]) {
		struct cg_buf b;
		char msg[128];
		size_t col, tl = strlen(text);
		cg_game g;
		int same;

		if (cg_canon_parse(text, tl, &g, msg, sizeof msg, &col) == 0) {
			cg_buf_init(&b);
			cg_canon_print(g, &b);
			same = b.len == tl && memcmp(b.data, text, tl) == 0;
			cg_buf_free(&b);
			if (same)
				return (uint32_t)cg_bytemap_intern(s->vals[k],
				    &g, sizeof g, &isnew);
		}
		to_text(s, k);
	}
	return (uint32_t)cg_bytemap_intern(s->vals[k], text, strlen(text) + 1,
	    &isnew);
}

uint32_t
cg_kbset_game_id(struct cg_kbset *s, uint32_t k, cg_game g)
{
	int isnew;
	struct cg_buf b;
	uint32_t id;

	if (s->games[k])
		return (uint32_t)cg_bytemap_intern(s->vals[k], &g, sizeof g,
		    &isnew);
	cg_buf_init(&b);
	cg_canon_print(g, &b);
	id = text_id(s, k, cg_buf_str(&b));
	cg_buf_free(&b);
	return id;
}

size_t
cg_kbset_count(const struct cg_kbset *s)
{
	return cg_bytemap_count(s->keys);
}

int
cg_kbset_add(struct cg_kbset *s, const unsigned char *key, size_t len,
    const char *const *values, const char **old)
{
	uint64_t e, id;
	uint32_t k, *slot;
	int isnew;

	e = cg_bytemap_intern(s->keys, key, len, &isnew);
	if (isnew) {
		if ((e + 1) * s->nkinds > s->cap) {
			size_t ncap = s->cap ? s->cap * 2 : 1024;

			while (ncap < (e + 1) * s->nkinds)
				ncap *= 2;
			s->v = cg_xreallocarray(s->v, ncap, sizeof *s->v);
			memset(s->v + s->cap, 0, (ncap - s->cap) * sizeof *s->v);
			s->cap = ncap;
		}
	}
	slot = s->v + e * s->nkinds;
	for (k = 0; k < s->nkinds; k++) {
		if (values[k] == NULL)
			continue;
		/* text values are interned with their NUL: keys are
		 * strings */
		id = text_id(s, k, values[k]);
		slot = s->v + e * s->nkinds;
		if (slot[k] == 0) {
			slot[k] = (uint32_t)id + 1;
		} else if (slot[k] != id + 1) {
			*old = cg_kbset_value(s, e, k);
			return (int)k;
		}
	}
	return -1;
}

void
cg_kbset_add_keys(struct cg_kbset *s, const unsigned char *keys,
    const size_t *off, size_t n)
{
	uint64_t *ids = cg_xmalloc((n + 1) * sizeof *ids);
	size_t count, ncap;

	cg_bytemap_intern_batch(s->keys, keys, off, n, ids, NULL);
	free(ids);
	count = cg_bytemap_count(s->keys);
	if (count * s->nkinds > s->cap) {
		ncap = s->cap ? s->cap * 2 : 1024;
		while (ncap < count * s->nkinds)
			ncap *= 2;
		s->v = cg_xreallocarray(s->v, ncap, sizeof *s->v);
		memset(s->v + s->cap, 0, (ncap - s->cap) * sizeof *s->v);
		s->cap = ncap;
	}
}

uint64_t
cg_kbset_entry(struct cg_kbset *s, const unsigned char *key, size_t len)
{
	static const char *none[CG_KB_MAXKINDS];
	const char *old;

	cg_kbset_add(s, key, len, none, &old);
	return (uint64_t)cg_kbset_find(s, key, len);
}

uint32_t
cg_kbset_value_id(struct cg_kbset *s, uint32_t k, const char *text)
{
	return text_id(s, k, text);
}

int
cg_kbset_set(struct cg_kbset *s, uint64_t entry, uint32_t k, uint32_t id,
    const char **old)
{
	uint32_t *slot = s->v + entry * s->nkinds + k;
	size_t klen;

	if (*slot == 0) {
		*slot = id + 1;
		return 0;
	}
	if (*slot == id + 1)
		return 0;
	(void)klen;
	*old = cg_kbset_value(s, entry, k);
	return -1;
}

int64_t
cg_kbset_find(const struct cg_kbset *s, const unsigned char *key, size_t len)
{
	return cg_bytemap_find(s->keys, key, len);
}

const unsigned char *
cg_kbset_key(const struct cg_kbset *s, uint64_t entry, size_t *len)
{
	return cg_bytemap_key(s->keys, entry, len);
}

const char *
cg_kbset_value(const struct cg_kbset *cs, uint64_t entry, uint32_t k)
{
	struct cg_kbset *s = (struct cg_kbset *)cs;
	uint32_t id = s->v[entry * s->nkinds + k];
	size_t len;

	if (id == 0)
		return NULL;
	if (s->games[k]) {
		/* printed on demand, kept for the set's life */
		if (id > s->ntext[k]) {
			size_t n = cg_bytemap_count(s->vals[k]);

			s->text[k] = cg_xreallocarray(s->text[k], n,
			    sizeof *s->text[k]);
			memset(s->text[k] + s->ntext[k], 0,
			    (n - s->ntext[k]) * sizeof *s->text[k]);
			s->ntext[k] = n;
		}
		if (s->text[k][id - 1] == NULL) {
			struct cg_buf b;
			cg_game g;

			memcpy(&g, cg_bytemap_key(s->vals[k], id - 1, &len),
			    sizeof g);
			cg_buf_init(&b);
			cg_canon_print(g, &b);
			s->text[k][id - 1] = cg_xstrdup(cg_buf_str(&b));
			cg_buf_free(&b);
		}
		return s->text[k][id - 1];
	}
	return (const char *)cg_bytemap_key(s->vals[k], id - 1, &len);
}

/* ---------------------------------------------------------------- write */

static int
keycmp(const unsigned char *a, size_t al, const unsigned char *b, size_t bl)
{
	int c = memcmp(a, b, al < bl ? al : bl);

	if (c != 0)
		return c;
	return al < bl ? -1 : al > bl;
}

static int
cmp_key(const void *pa, const void *pb, void *arg)
{
	const struct cg_bytemap *m = arg;
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	size_t al, bl;
	const unsigned char *ka = cg_bytemap_key(m, a, &al);
	const unsigned char *kb = cg_bytemap_key(m, b, &bl);

	return keycmp(ka, al, kb, bl);
}

struct ranked {
	uint64_t rank, entry;
};

static int
cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return a->rank < b->rank ? -1 : a->rank > b->rank;
}

struct setsrc {
	struct cg_kb_source src;      /* first: what callers see */
	const struct cg_kbset *s;
	uint64_t *order;          /* entries in index order */
	uint64_t *rank;           /* their slots (a base of slots) */
};

static uint64_t
src_rank(void *ctx, uint64_t i)
{
	return ((struct setsrc *)ctx)->rank[i];
}

static const unsigned char *
src_key(void *ctx, uint64_t i, size_t *len)
{
	struct setsrc *c = ctx;

	return cg_bytemap_key(c->s->keys, c->order[i], len);
}

static uint64_t
src_value(void *ctx, uint64_t i, uint32_t k)
{
	struct setsrc *c = ctx;
	uint32_t id = c->s->v[c->order[i] * c->s->nkinds + k];

	return id ? id - 1 : CG_KB_NOVALUE;
}

static cg_game
src_game(void *ctx, uint32_t k, uint64_t id)
{
	struct setsrc *c = ctx;
	cg_game g;
	size_t len;

	memcpy(&g, cg_bytemap_key(c->s->vals[k], id, &len), sizeof g);
	return g;
}

static const char *
src_text(void *ctx, uint32_t k, uint64_t id)
{
	struct setsrc *c = ctx;
	size_t len;

	return (const char *)cg_bytemap_key(c->s->vals[k], id, &len);
}

void
cg_kbset_source_free(struct cg_kb_source *src)
{
	struct setsrc *c = (struct setsrc *)src;

	if (c == NULL)
		return;
	free(c->order);
	free(c->rank);
	free(c);
}

struct cg_kb_source *
cg_kbset_source(const struct cg_kbset *s, struct cg_kb_meta *m,
    struct cg_plugin *rs, char *err, size_t errlen)
{
	struct setsrc *c = cg_xcalloc(1, sizeof *c);
	size_t n = cg_kbset_count(s), i, len;
	uint32_t k;

	if (m->nkinds != s->nkinds)
		cg_die(CG_EXIT_DATA, "internal error: kind count mismatch");
	c->s = s;
	c->order = cg_xmalloc((n ? n : 1) * sizeof *c->order);
	if (m->index_family != NULL && *m->index_family) {
		struct ranked *r = cg_xmalloc((n ? n : 1) * sizeof *r);

		if (rs == NULL || cg_rs_slots(rs, m->index_family,
		    &m->slots) < 0) {
			snprintf(err, errlen, "ruleset '%s' has no index of "
			    "family '%s'", m->ruleset, m->index_family);
			goto fail_r;
		}
		for (i = 0; i < n; i++) {
			const unsigned char *key = cg_bytemap_key(s->keys, i,
			    &len);

			r[i].entry = i;
			if (cg_rs_rank(rs, m->index_family, key, len,
			    &r[i].rank) < 0) {
				snprintf(err, errlen, "a position has no slot in "
				    "the index of family '%s': %s",
				    m->index_family, cg_rs_errmsg(rs));
				goto fail_r;
			}
		}
		qsort(r, n, sizeof *r, cmp_ranked);
		c->rank = cg_xmalloc((n ? n : 1) * sizeof *c->rank);
		for (i = 0; i < n; i++) {
			if (i > 0 && r[i].rank == r[i - 1].rank) {
				snprintf(err, errlen, "two positions share slot "
				    "%llu of family '%s' (the ruleset's cg.rank "
				    "is not one-to-one)",
				    (unsigned long long)r[i].rank,
				    m->index_family);
				goto fail_r;
			}
			c->order[i] = r[i].entry;
			c->rank[i] = r[i].rank;
		}
		free(r);
		c->src.rank = src_rank;
		goto ordered;
fail_r:
		free(r);
		cg_kbset_source_free(&c->src);
		return NULL;
	}
	for (i = 0; i < n; i++)
		c->order[i] = i;
	qsort_r(c->order, n, sizeof *c->order, cmp_key, s->keys);
ordered:
	c->src.ctx = c;
	c->src.n = n;
	c->src.key = src_key;
	c->src.value = src_value;
	c->src.game = src_game;
	c->src.text = src_text;
	for (k = 0; k < s->nkinds; k++) {
		c->src.nvalues[k] = cg_bytemap_count(s->vals[k]);
		c->src.games[k] = s->games[k];
	}
	return &c->src;
}
