/* kbfile.c - the cgkb(5) file format: entry sets, writer, reader.
 *
 * Layout (little-endian; see man/man5/cgkb.5):
 *   header  magic "\x89CGKB\r\n\x1a", u32 version, u32 header size H,
 *           u64 entries, u32 blocks B, u32 shard k, u32 shard n,
 *           u32 block target, u32 kinds K, strings (u16 length + bytes):
 *           ruleset, params, plugin version, family, K kind names;
 *           dictionary record (u32 clen, u32 ulen, u32 crc32);
 *           B block records (u32 clen, u32 ulen, u32 entries, u32 crc32,
 *           u16 first key length, first key); u32 crc32 of all of it.
 *   data    the zlib-compressed dictionary, then the B compressed blocks.
 * The dictionary lists each kind's distinct values sorted bytewise; an
 * entry stores the key front-coded against the previous key of its block
 * and, per kind, the value's dictionary rank + 1 (0 = absent), as LEB128
 * varints. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/bytemap.h"
#include "base/jobs.h"
#include "values/canon.h"
#include "values/notation.h"
#include "kb/kbfile.h"
#include "host/plugin.h"
#include "base/util.h"

static const unsigned char magic[8] = {
	0x89, 'C', 'G', 'K', 'B', '\r', '\n', 0x1a
};

/*
 * Bounds on what a header may claim, so that a small (or crafted) file
 * never makes the reader allocate more than a fixed multiple of its size:
 *  - deflate expands at most 1032 times: a part of C compressed bytes
 *    holds at most MAX_INFLATE(C) bytes;
 *  - an entry takes at least 2 + K bytes of its block (two varints for the
 *    key, one per value kind);
 *  - a block's keys decode to at most KEY_EXPANSION times the block's
 *    size (the writer shares fewer prefix bytes where a long key would
 *    exceed that);
 *  - a kind stored as games is rebuilt in the canonical store (one game
 *    per dictionary entry, which takes at least a byte) and a value is
 *    printed only when it is asked for; one whose print could exceed
 *    PRINT_MAX bytes (print_bound(): a DAG of a few bytes can print to
 *    exabytes) is an error when asked for, never an allocation.
 */
#define MAX_INFLATE(c) ((uint64_t)(c) * 1032 + 1024)
#define KEY_EXPANSION 64
#define PRINT_MAX ((uint64_t)1 << 26)   /* 64 MB: no real value comes near */
#define PRINT_CAP ((uint64_t)1 << 62)

/* ------------------------------------------------------------- metadata */

void
cg_kb_meta_init(struct cg_kb_meta *m)
{
	memset(m, 0, sizeof *m);
	m->shard_k = m->shard_n = 1;
	m->block_size = CG_KB_BLOCK_DEFAULT;
}

void
cg_kb_meta_free(struct cg_kb_meta *m)
{
	uint32_t k;

	free(m->ruleset);
	free(m->params);
	free(m->plugin_version);
	free(m->family);
	for (k = 0; k < m->nkinds; k++)
		free(m->kinds[k]);
	cg_kb_meta_init(m);
}

static char *
dupnull(const char *s)
{
	return cg_xstrdup(s ? s : "");
}

void
cg_kb_meta_copy(struct cg_kb_meta *dst, const struct cg_kb_meta *src)
{
	uint32_t k;

	*dst = *src;
	dst->ruleset = dupnull(src->ruleset);
	dst->params = dupnull(src->params);
	dst->plugin_version = dupnull(src->plugin_version);
	dst->family = dupnull(src->family);
	for (k = 0; k < src->nkinds; k++)
		dst->kinds[k] = cg_xstrdup(src->kinds[k]);
}

int
cg_kb_meta_set_kinds(struct cg_kb_meta *m, const char *list)
{
	const char *p = list, *e;
	uint32_t k, n = 0;
	char *kinds[CG_KB_MAXKINDS];

	if (*p == '\0')
		return -1;
	for (;;) {
		e = p + strcspn(p, ",");
		if (e == p || n == CG_KB_MAXKINDS)
			goto bad;
		for (const char *q = p; q < e; q++)
			if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9')
			    || *q == '-'))
				goto bad;
		kinds[n] = cg_xstrndup(p, (size_t)(e - p));
		for (k = 0; k < n; k++)
			if (strcmp(kinds[k], kinds[n]) == 0) {
				n++;
				goto bad;
			}
		n++;
		if (*e == '\0')
			break;
		p = e + 1;
	}
	for (k = 0; k < m->nkinds; k++)
		free(m->kinds[k]);
	for (k = 0; k < n; k++)
		m->kinds[k] = kinds[k];
	m->nkinds = n;
	return 0;
bad:
	for (k = 0; k < n; k++)
		free(kinds[k]);
	return -1;
}

int
cg_kb_meta_kind(const struct cg_kb_meta *m, const char *kind)
{
	uint32_t k;

	for (k = 0; k < m->nkinds; k++)
		if (strcmp(m->kinds[k], kind) == 0)
			return (int)k;
	return -1;
}

const char *
cg_kb_meta_spec(const struct cg_kb_meta *m, char *buf, size_t len)
{
	if (m->params && *m->params)
		snprintf(buf, len, "%s:%s", m->ruleset, m->params);
	else
		snprintf(buf, len, "%s", m->ruleset);
	return buf;
}

int
cg_kb_meta_same_base(const struct cg_kb_meta *a, const struct cg_kb_meta *b,
    char *why, size_t whylen)
{
	char sa[256], sb[256];
	uint32_t k;

	if (strcmp(a->ruleset, b->ruleset) != 0 ||
	    strcmp(a->params, b->params) != 0) {
		snprintf(why, whylen, "ruleset '%s' differs from '%s'",
		    cg_quote_str(cg_kb_meta_spec(b, sb, sizeof sb)),
		    cg_quote_str(cg_kb_meta_spec(a, sa, sizeof sa)));
		return 0;
	}
	if (strcmp(a->plugin_version, b->plugin_version) != 0) {
		snprintf(why, whylen, "ruleset version '%s' differs from '%s'",
		    cg_quote_str(b->plugin_version),
		    cg_quote_str(a->plugin_version));
		return 0;
	}
	if (strcmp(a->family, b->family) != 0) {
		snprintf(why, whylen, "family '%s' differs from '%s'",
		    cg_quote_str(b->family), cg_quote_str(a->family));
		return 0;
	}
	if (a->nkinds != b->nkinds)
		goto kinds;
	for (k = 0; k < a->nkinds; k++)
		if (strcmp(a->kinds[k], b->kinds[k]) != 0)
			goto kinds;
	if (a->shard_n != b->shard_n) {
		snprintf(why, whylen, "shard count %u differs from %u",
		    b->shard_n, a->shard_n);
		return 0;
	}
	if (a->block_size != b->block_size) {
		snprintf(why, whylen, "block size %u differs from %u",
		    b->block_size, a->block_size);
		return 0;
	}
	return 1;
kinds:
	snprintf(why, whylen, "value kinds differ");
	return 0;
}

uint32_t
cg_kb_shard_of(const unsigned char *key, size_t len, uint32_t n)
{
	uLong c = crc32(0L, Z_NULL, 0);

	c = crc32(c, key, (uInt)len);
	return (uint32_t)(c % n) + 1;
}

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
cmp_entry(const void *pa, const void *pb, void *arg)
{
	const struct cg_bytemap *m = arg;
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	size_t al, bl;
	const unsigned char *ka = cg_bytemap_key(m, a, &al);
	const unsigned char *kb = cg_bytemap_key(m, b, &bl);

	return keycmp(ka, al, kb, bl);
}

static void
put_varint(struct cg_buf *b, uint64_t v)
{
	while (v >= 0x80) {
		cg_buf_addc(b, (int)(v & 0x7f) | 0x80);
		v >>= 7;
	}
	cg_buf_addc(b, (int)v);
}

static void
put_u16(struct cg_buf *b, uint32_t v)
{
	unsigned char x[2] = { (unsigned char)v, (unsigned char)(v >> 8) };

	cg_buf_add(b, x, 2);
}

static void
put_u32(struct cg_buf *b, uint32_t v)
{
	unsigned char x[4];
	int i;

	for (i = 0; i < 4; i++)
		x[i] = (unsigned char)(v >> (8 * i));
	cg_buf_add(b, x, 4);
}

static void
put_u64(struct cg_buf *b, uint64_t v)
{
	put_u32(b, (uint32_t)v);
	put_u32(b, (uint32_t)(v >> 32));
}

static void
put_str(struct cg_buf *b, const char *s)
{
	size_t n = strlen(s);

	put_u16(b, (uint32_t)n);
	cg_buf_add(b, s, n);
}

static uint32_t
crc(const void *p, size_t n)
{
	uLong c = crc32(0L, Z_NULL, 0);

	return (uint32_t)crc32(c, p, (uInt)n);
}

/* Compress raw into out (appended); returns the compressed size. */
static size_t
deflate_into(struct cg_buf *out, const unsigned char *raw, size_t len)
{
	uLongf clen = compressBound((uLong)len);

	cg_buf_reserve(out, clen);
	if (compress2(out->data + out->len, &clen, raw, (uLong)len, 9) != Z_OK)
		cg_die(CG_EXIT_DATA, "zlib compression failed");
	out->len += clen;
	return clen;
}

static int
cmp_value(const void *pa, const void *pb, void *arg)
{
	const struct cg_bytemap *m = arg;
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	size_t al, bl;
	const unsigned char *ka = cg_bytemap_key(m, a, &al);
	const unsigned char *kb = cg_bytemap_key(m, b, &bl);

	return keycmp(ka, al, kb, bl);
}

static int
write_all(int fd, const void *p, size_t n)
{
	const unsigned char *c = p;
	ssize_t w;

	while (n > 0) {
		w = write(fd, c, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * The games encoding of a dictionary (canonical forms stored as games,
 * the default for "canon"): the games in post-order (options before the
 * games that use them), each either a number-up-star x + u.^ + *n or
 * {L | R} with its options as backward distances.  Store ids differ
 * from run to run, so the order is structural: values, and each game's
 * options, are visited by a hash of the game's structure (ties, which a
 * 64-bit hash makes all but impossible, by CGSuite's order of games);
 * the numbering then depends only on the set of values.
 */
struct dag {
	/* by game id (the store's ids are small and dense: arrays, one
	 * cache miss a look, where hash tables took three) */
	uint64_t *idx;            /* index + 1, 0 when not yet visited */
	uint64_t *hash;           /* structural hash */
	unsigned char *hashed;    /* hash[] set */
	size_t cap;
	struct cg_buf out;
	uint64_t n;
};

/* An upper bound of the printed size of a game whose options print to at
 * most bound[0..n-1] bytes: braces, bar, commas (saturating). */
static uint64_t
print_bound(const uint64_t *bound, const uint64_t *idx, size_t n)
{
	uint64_t b = 2;
	size_t i;

	for (i = 0; i < n; i++) {
		b += bound[idx[i]] + 1;
		if (b > PRINT_CAP)
			return PRINT_CAP;
	}
	return b;
}

static void
put_zigzag(struct cg_buf *b, int64_t v)
{
	put_varint(b, v < 0 ? ((uint64_t)(-(v + 1)) << 1) | 1 :
	    (uint64_t)v << 1);
}

static uint64_t
hmix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Room in d's arrays for game id g. */
static void
dag_room(struct dag *d, cg_game g)
{
	size_t cap = d->cap ? d->cap : 4096;

	if ((size_t)g < d->cap)
		return;
	while (cap <= (size_t)g)
		cap *= 2;
	d->idx = cg_xreallocarray(d->idx, cap, sizeof *d->idx);
	d->hash = cg_xreallocarray(d->hash, cap, sizeof *d->hash);
	d->hashed = cg_xrealloc(d->hashed, cap);
	memset(d->idx + d->cap, 0, (cap - d->cap) * sizeof *d->idx);
	memset(d->hashed + d->cap, 0, cap - d->cap);
	d->cap = cap;
}

/* A hash of g's structure: equal for equal games in any run. */
static uint64_t
shash(struct dag *d, cg_game g)
{
	struct cg_dyadic x;
	int64_t up;
	uint64_t nim, h, *hs;
	int s;
	size_t n, i;

	dag_room(d, g);
	if (d->hashed[g])
		return d->hash[g];
	if (cg_canon_nus_parts(g, &x, &up, &nim)) {
		h = hmix(hmix(hmix(hmix(1, (uint64_t)x.num), (uint64_t)x.exp),
		    (uint64_t)up), nim);
	} else {
		h = 2;
		for (s = 0; s < 2; s++) {
			const cg_game *o = cg_canon_options(g, (enum cg_side)s,
			    &n);

			hs = cg_xmalloc((n ? n : 1) * sizeof *hs);
			for (i = 0; i < n; i++)
				hs[i] = shash(d, o[i]);
			qsort(hs, n, sizeof *hs, cmp_u64);
			h = hmix(h, 0x5e9a7a7e + (uint64_t)s);
			for (i = 0; i < n; i++)
				h = hmix(h, hs[i]);
			free(hs);
		}
	}
	d->hash[g] = h;   /* the arrays may have moved: index again */
	d->hashed[g] = 1;
	return h;
}

struct gsort {
	cg_game g;
	uint64_t h;
};

static int
cmp_gsort(const void *pa, const void *pb)
{
	const struct gsort *a = pa, *b = pb;

	if (a->h != b->h)
		return a->h < b->h ? -1 : 1;
	if (a->g == b->g)
		return 0;
	return cg_canon_order(a->g, b->g);
}

/* Sort games structurally (hashes filled in). */
static void
sort_games(struct dag *d, struct gsort *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i].h = shash(d, v[i].g);
	qsort(v, n, sizeof *v, cmp_gsort);
}

static uint64_t
dag_visit(struct dag *d, cg_game g)
{
	int side;
	struct cg_dyadic x;
	int64_t up;
	uint64_t nim, me;
	size_t n[2], i;
	struct gsort *o[2];
	uint64_t *oi[2];

	dag_room(d, g);
	if (d->idx[g] != 0)
		return d->idx[g] - 1;
	if (cg_canon_nus_parts(g, &x, &up, &nim)) {
		put_varint(&d->out, 0);
		put_zigzag(&d->out, x.num);
		put_varint(&d->out, (uint64_t)x.exp);
		put_zigzag(&d->out, up);
		put_varint(&d->out, nim);
		me = d->n++;
		d->idx[g] = me + 1;
		return me;
	}
	for (side = 0; side < 2; side++) {
		const cg_game *opt = cg_canon_options(g, (enum cg_side)side,
		    &n[side]);

		o[side] = cg_xmalloc((n[side] ? n[side] : 1) * sizeof *o[side]);
		oi[side] = cg_xmalloc((n[side] ? n[side] : 1) * sizeof *oi[side]);
		for (i = 0; i < n[side]; i++)
			o[side][i].g = opt[i];
		sort_games(d, o[side], n[side]);
		for (i = 0; i < n[side]; i++)
			oi[side][i] = dag_visit(d, o[side][i].g);
	}
	me = d->n++;
	put_varint(&d->out, 1);
	put_varint(&d->out, n[0]);
	put_varint(&d->out, n[1]);
	for (side = 0; side < 2; side++) {
		for (i = 0; i < n[side]; i++)
			put_varint(&d->out, me - oi[side][i]);
		free(o[side]);
		free(oi[side]);
	}
	d->idx[g] = me + 1;
	return me;
}

/* Encode one games kind's values into raw and rank them: rank[id] is
 * the place of value id in the dictionary. */
static void
dict_games(struct cg_buf *raw, const struct cg_bytemap *vals, uint32_t *rank)
{
	struct dag d;
	size_t nv = cg_bytemap_count(vals), i, len;
	struct gsort *v = cg_xmalloc((nv ? nv : 1) * sizeof *v);
	uint64_t *gi = cg_xmalloc((nv ? nv : 1) * sizeof *gi);
	struct cg_bytemap *byid = cg_bytemap_new();
	struct cg_buf enc;
	int isnew;

	memset(&d, 0, sizeof d);
	cg_buf_init(&d.out);
	cg_buf_init(&enc);
	for (i = 0; i < nv; i++) {
		memcpy(&v[i].g, cg_bytemap_key(vals, i, &len), sizeof v[i].g);
		*cg_bytemap_value(byid, cg_bytemap_intern(byid, &v[i].g,
		    sizeof v[i].g, &isnew)) = i;
	}
	sort_games(&d, v, nv);
	for (i = 0; i < nv; i++) {
		int64_t id = cg_bytemap_find(byid, &v[i].g, sizeof v[i].g);

		rank[*cg_bytemap_value(byid, (uint64_t)id)] = (uint32_t)i;
		gi[i] = dag_visit(&d, v[i].g);
	}
	put_varint(&enc, 1);          /* encoding: games */
	put_varint(&enc, d.n);
	cg_buf_add(&enc, d.out.data, d.out.len);
	put_varint(&enc, nv);
	for (i = 0; i < nv; i++)
		put_varint(&enc, gi[i]);
	cg_buf_add(raw, enc.data, enc.len);
	free(d.idx);
	free(d.hash);
	free(d.hashed);
	cg_bytemap_free(byid);
	cg_buf_free(&d.out);
	cg_buf_free(&enc);
	free(v);
	free(gi);
}

static unsigned write_jobs;

void
cg_kbfile_jobs(unsigned jobs)
{
	write_jobs = jobs;
}

/* One block of a base being written: its bytes, then their compression. */
struct rawblock {
	struct cg_buf raw, out;
	size_t entries;
	const unsigned char *firstkey;
	size_t firstlen;
};

static void
compress_block(void *ctx, size_t i)
{
	struct rawblock *rb = (struct rawblock *)ctx + i;

	deflate_into(&rb->out, rb->raw.data, rb->raw.len);
}

int
cg_kbset_write(const struct cg_kbset *s, struct cg_kb_meta *m,
    const char *path, char *err, size_t errlen)
{
	size_t n = cg_kbset_count(s), i, klen, plen, vlen;
	uint64_t *order = cg_xmalloc((n ? n : 1) * sizeof *order);
	uint32_t *rank[CG_KB_MAXKINDS];
	uint32_t k, nblocks = 0;
	struct rawblock *blocks = NULL;
	size_t capblocks = 0;
	struct cg_buf head, dict, raw, vraw, data, index, prev;
	size_t dict_clen;
	char *tmp = NULL;
	int fd = -1, saved;
	mode_t um;

	if (m->nkinds != s->nkinds)
		cg_die(CG_EXIT_DATA, "internal error: kind count mismatch");
	cg_buf_init(&head);
	cg_buf_init(&dict);
	cg_buf_init(&raw);
	cg_buf_init(&vraw);
	cg_buf_init(&data);
	cg_buf_init(&index);
	cg_buf_init(&prev);

	/* dictionary: each kind's values, text sorted bytewise, games
	 * structurally */
	for (k = 0; k < s->nkinds; k++) {
		size_t nv = cg_bytemap_count(s->vals[k]);
		uint64_t *vo;

		rank[k] = cg_xmalloc((nv ? nv : 1) * sizeof *rank[k]);
		if (s->games[k]) {
			dict_games(&raw, s->vals[k], rank[k]);
			continue;
		}
		vo = cg_xmalloc((nv ? nv : 1) * sizeof *vo);
		for (i = 0; i < nv; i++)
			vo[i] = i;
		qsort_r(vo, nv, sizeof *vo, cmp_value, s->vals[k]);
		for (i = 0; i < nv; i++)
			rank[k][vo[i]] = (uint32_t)i;
		put_varint(&raw, 0);         /* encoding: text */
		put_varint(&raw, nv);
		for (i = 0; i < nv; i++) {
			const unsigned char *v = cg_bytemap_key(s->vals[k],
			    vo[i], &vlen);

			put_varint(&raw, vlen - 1);
			cg_buf_add(&raw, v, vlen - 1);
		}
		free(vo);
	}
	dict_clen = deflate_into(&dict, raw.data, raw.len);
	put_u32(&index, (uint32_t)dict_clen);
	put_u32(&index, (uint32_t)raw.len);
	put_u32(&index, crc(dict.data, dict.len));
	raw.len = 0;

	/* blocks of entries in key order: laid out first, compressed in
	 * parallel, then written in order */
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof *order, cmp_entry, s->keys);
	{
		size_t first = 0, bentries = 0;
		const unsigned char *firstkey = NULL;
		size_t firstlen = 0;

		for (i = 0; i <= n; i++) {
			const unsigned char *key = NULL;
			size_t shared = 0;

			if (i < n)
				key = cg_bytemap_key(s->keys, order[i], &klen);
			if (bentries > 0 && (i == n ||
			    raw.len + vraw.len >= m->block_size)) {
				struct rawblock *rb;

				/* keys first, then the values: each column
				 * compresses better on its own */
				cg_buf_add(&raw, vraw.data, vraw.len);
				vraw.len = 0;
				if (nblocks == capblocks) {
					capblocks = capblocks ? 2 * capblocks : 64;
					blocks = cg_xreallocarray(blocks, capblocks,
					    sizeof *blocks);
				}
				rb = &blocks[nblocks++];
				rb->raw = raw;
				cg_buf_init(&rb->out);
				rb->entries = bentries;
				rb->firstkey = firstkey;
				rb->firstlen = firstlen;
				cg_buf_init(&raw);
				bentries = 0;
				prev.len = 0;
			}
			if (i == n)
				break;
			if (klen > 65535)
				cg_die(CG_EXIT_DATA, "key of %zu bytes is too long", klen);
			if (bentries == 0) {
				firstkey = key;
				firstlen = klen;
				first = i;
			}
			while (shared < prev.len && shared < klen &&
			    prev.data[shared] == key[shared])
				shared++;
			/* at least ceil(klen / KEY_EXPANSION) bytes of the key
			 * are stored, so keys decode to at most KEY_EXPANSION
			 * times the block's size (no change below 65 bytes) */
			if (shared > klen - (klen + KEY_EXPANSION - 1) /
			    KEY_EXPANSION)
				shared = klen - (klen + KEY_EXPANSION - 1) /
				    KEY_EXPANSION;
			put_varint(&raw, shared);
			put_varint(&raw, klen - shared);
			cg_buf_add(&raw, key + shared, klen - shared);
			prev.len = 0;
			cg_buf_add(&prev, key, klen);
			for (k = 0; k < s->nkinds; k++) {
				uint32_t id = s->v[order[i] * s->nkinds + k];

				put_varint(&vraw, id ? (uint64_t)rank[k][id - 1] + 1 : 0);
			}
			bentries++;
		}
		(void)first;
	}
	cg_parallel_for(nblocks, write_jobs ? write_jobs : cg_jobs_default(),
	    8, compress_block, blocks);
	for (i = 0; i < nblocks; i++) {
		struct rawblock *rb = &blocks[i];

		put_u32(&index, (uint32_t)rb->out.len);
		put_u32(&index, (uint32_t)rb->raw.len);
		put_u32(&index, (uint32_t)rb->entries);
		put_u32(&index, crc(rb->out.data, rb->out.len));
		put_u16(&index, (uint32_t)rb->firstlen);
		cg_buf_add(&index, rb->firstkey, rb->firstlen);
		cg_buf_add(&data, rb->out.data, rb->out.len);
		cg_buf_free(&rb->raw);
		cg_buf_free(&rb->out);
	}
	free(blocks);
	m->count = n;

	/* header */
	cg_buf_add(&head, magic, sizeof magic);
	put_u32(&head, CG_KB_FORMAT);
	put_u32(&head, 0); /* header size, patched below */
	put_u64(&head, m->count);
	put_u32(&head, nblocks);
	put_u32(&head, m->shard_k);
	put_u32(&head, m->shard_n);
	put_u32(&head, m->block_size);
	put_u32(&head, m->nkinds);
	put_str(&head, m->ruleset);
	put_str(&head, m->params ? m->params : "");
	put_str(&head, m->plugin_version ? m->plugin_version : "");
	put_str(&head, m->family ? m->family : "");
	for (k = 0; k < m->nkinds; k++)
		put_str(&head, m->kinds[k]);
	cg_buf_add(&head, index.data, index.len);
	plen = head.len + 4;
	for (i = 0; i < 4; i++)
		head.data[12 + i] = (unsigned char)(plen >> (8 * i));
	put_u32(&head, crc(head.data, head.len));

	/* atomic write: temporary file in the same directory, fsync, rename */
	tmp = cg_xmalloc(strlen(path) + 16);
	sprintf(tmp, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(tmp);
		tmp = NULL;
		goto fail;
	}
	um = umask(0);
	umask(um);
	if (fchmod(fd, 0666 & ~um) < 0 ||
	    write_all(fd, head.data, head.len) < 0 ||
	    write_all(fd, dict.data, dict.len) < 0 ||
	    write_all(fd, data.data, data.len) < 0 || fsync(fd) < 0) {
		saved = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(saved));
		goto fail;
	}
	if (close(fd) < 0) {
		fd = -1;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	{
		/* make the rename durable */
		char *dir = cg_xstrdup(path), *slash = strrchr(dir, '/');
		int dfd;

		if (slash == dir)
			slash[1] = '\0';
		else if (slash)
			*slash = '\0';
		else
			strcpy(dir, ".");
		dfd = open(dir, O_RDONLY | O_DIRECTORY);
		if (dfd >= 0) {
			(void)fsync(dfd);
			close(dfd);
		}
		free(dir);
	}
	free(tmp);
	tmp = NULL;
	for (k = 0; k < s->nkinds; k++)
		free(rank[k]);
	free(order);
	cg_buf_free(&head);
	cg_buf_free(&dict);
	cg_buf_free(&raw);
	cg_buf_free(&vraw);
	cg_buf_free(&data);
	cg_buf_free(&index);
	cg_buf_free(&prev);
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	if (tmp != NULL) {
		unlink(tmp);
		free(tmp);
	}
	for (k = 0; k < s->nkinds; k++)
		free(rank[k]);
	free(order);
	cg_buf_free(&head);
	cg_buf_free(&dict);
	cg_buf_free(&raw);
	cg_buf_free(&vraw);
	cg_buf_free(&data);
	cg_buf_free(&index);
	cg_buf_free(&prev);
	return -1;
}

/* --------------------------------------------------------------- reader */

struct block {
	uint64_t off;          /* file offset of the compressed bytes */
	uint32_t clen, ulen, n, crc;
	const unsigned char *first;
	uint32_t firstlen;
};

#define NCACHE 8

struct decoded {
	uint32_t blk;          /* block number + 1, 0 = empty slot */
	uint64_t used;         /* LRU clock */
	unsigned char *keys;   /* the block's keys, concatenated */
	uint32_t *koff;        /* n + 1 offsets into keys */
	uint32_t *val;         /* n * nkinds value ranks + 1 */
	uint32_t n;
	size_t keycap, ncap;
};

struct cg_kbfile {
	char *path;
	unsigned char *map;
	size_t size;
	struct cg_kb_meta meta;
	struct block *blk;
	uint32_t nblocks;
	uint64_t header_size, dict_clen, dict_ulen;
	char **dict[CG_KB_MAXKINDS];     /* printed values; for a kind
	                                  * stored as games, each printed
	                                  * when first asked for */
	uint64_t ndict[CG_KB_MAXKINDS];
	cg_game *dgame[CG_KB_MAXKINDS];  /* a games kind's values, or NULL */
	uint64_t *dbound[CG_KB_MAXKINDS];  /* and their print bounds */
	char *dictmem;
	struct decoded cache[NCACHE];
	/* cg_kbfile_each's block and last key: kept here, not on its stack,
	 * so that an error leaving through cg_die (a visitor's lookup) loses
	 * nothing; freed by cg_kbfile_close */
	struct decoded each;
	unsigned char *each_prev;
	uint64_t clock;
	unsigned char *inflbuf;
	size_t inflcap;
};

struct rd {
	const unsigned char *p, *end;
	int bad;
};

static uint32_t
get_u16(struct rd *r)
{
	uint32_t v;

	if (r->end - r->p < 2) {
		r->bad = 1;
		return 0;
	}
	v = (uint32_t)r->p[0] | (uint32_t)r->p[1] << 8;
	r->p += 2;
	return v;
}

static uint32_t
get_u32(struct rd *r)
{
	uint32_t v = 0;
	int i;

	if (r->end - r->p < 4) {
		r->bad = 1;
		return 0;
	}
	for (i = 0; i < 4; i++)
		v |= (uint32_t)r->p[i] << (8 * i);
	r->p += 4;
	return v;
}

static uint64_t
get_u64(struct rd *r)
{
	uint64_t lo = get_u32(r);

	return lo | (uint64_t)get_u32(r) << 32;
}

/* A header string: text without control bytes (a NUL would cut it short
 * and they have no place in names, parameters or versions). */
static char *
get_str(struct rd *r)
{
	uint32_t n = get_u16(r), i;
	char *s;

	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = 1;
		return cg_xstrdup("");
	}
	for (i = 0; i < n; i++)
		if (r->p[i] < 0x20 || r->p[i] == 0x7f)
			r->bad = 1;
	s = cg_xstrndup((const char *)r->p, n);
	r->p += n;
	return s;
}

static int
get_varint(struct rd *r, uint64_t *v)
{
	uint64_t x = 0;
	int shift = 0;

	while (r->p < r->end && shift < 64) {
		unsigned c = *r->p++;

		x |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = x;
			return 0;
		}
		shift += 7;
	}
	r->bad = 1;
	return -1;
}

/*
 * Inflate the zlib stream src[0..clen) into *buf, which grows (from *cap)
 * as output arrives, up to want bytes: what a header claims is allocated
 * only as the data bears it out.  0 when the stream holds exactly want
 * bytes, else -1.
 */
static int
inflate_exact(const unsigned char *src, size_t clen, unsigned char **buf,
    size_t *cap, size_t want)
{
	z_stream zs;
	unsigned char extra;
	size_t got = 0, ncap;
	int ret, rc = -1;

	memset(&zs, 0, sizeof zs);
	if (inflateInit(&zs) != Z_OK)
		return -1;
	zs.next_in = (unsigned char *)(uintptr_t)src;
	zs.avail_in = (uInt)clen;
	for (;;) {
		if (got == want) {
			/* the stream must end here */
			zs.next_out = &extra;
			zs.avail_out = 1;
			ret = inflate(&zs, Z_FINISH);
			rc = ret == Z_STREAM_END && zs.avail_out == 1 ? 0 : -1;
			break;
		}
		if (got == *cap) {
			ncap = *cap ? 2 * *cap : 65536;
			if (ncap > want)
				ncap = want;
			*buf = cg_xrealloc(*buf, ncap);
			*cap = ncap;
		}
		zs.next_out = *buf + got;
		zs.avail_out = (uInt)(*cap - got < want - got ? *cap - got :
		    want - got);
		ret = inflate(&zs, Z_NO_FLUSH);
		got = (size_t)(zs.next_out - *buf);
		if (ret == Z_STREAM_END) {
			rc = got == want ? 0 : -1;
			break;
		}
		if (ret != Z_OK)
			break;
	}
	inflateEnd(&zs);
	return rc;
}

const struct cg_kb_meta *
cg_kbfile_meta(const struct cg_kbfile *f)
{
	return &f->meta;
}

const char *
cg_kbfile_path(const struct cg_kbfile *f)
{
	return f->path;
}

static int
get_zigzag(struct rd *r, int64_t *v)
{
	uint64_t u;

	if (get_varint(r, &u) < 0)
		return -1;
	*v = (u & 1) ? -(int64_t)(u >> 1) - 1 : (int64_t)(u >> 1);
	return 0;
}

/* A kind stored as games, rebuilt in the canon store and printed. */
struct games {
	struct rd *r;
	cg_game *val;                /* the values */
	uint64_t *vbound;            /* print_bound of each value */
	struct cg_buf scratch;
	uint64_t count;
	cg_game *g;
	uint64_t *bound;             /* print_bound of each game */
	uint64_t *idx;               /* options (indices), then values */
	cg_game *big;                /* options beyond the fixed arrays */
	const char *why;
};

static int
cmp_game(const void *a, const void *b)
{
	cg_game x = *(const cg_game *)a, y = *(const cg_game *)b;

	return x < y ? -1 : x > y;
}

/* Are the canonical options of g on side exactly opt[0..n-1]?  (A game
 * is stored with its canonical options, so anything else is not a file
 * the writer made.) */
static int
same_options(cg_game g, enum cg_side side, cg_game *opt, size_t n)
{
	size_t m, i;
	const cg_game *o = cg_canon_options(g, side, &m);

	if (m != n)
		return 0;
	qsort(opt, n, sizeof *opt, cmp_game);
	for (i = 0; i < n; i++)
		if (o[i] != opt[i])
			return 0;
	return 1;
}

/* Runs under cg_canon_catch: the store's limits are data errors here. */
static void
build_games(void *arg)
{
	struct games *gs = arg;
	struct rd *r = gs->r;
	uint64_t ng, i, j, tag, nl, nr, d, exp, nim, nv, gi;
	int64_t num, up;
	cg_game *val;
	uint64_t *vb;
	cg_game opt[2][64], *o[2] = { opt[0], opt[1] };

	if (get_varint(r, &ng) < 0 || ng > (uint64_t)(r->end - r->p))
		return;
	gs->g = cg_xmalloc((ng ? ng : 1) * sizeof *gs->g);
	gs->bound = cg_xmalloc((ng ? ng : 1) * sizeof *gs->bound);
	for (i = 0; i < ng; i++) {
		if (get_varint(r, &tag) < 0)
			goto out;
		if (tag == 0) {
			if (get_zigzag(r, &num) < 0 || get_varint(r, &exp) < 0 ||
			    get_zigzag(r, &up) < 0 || get_varint(r, &nim) < 0 ||
			    exp > 62)
				goto out;
			gs->g[i] = cg_canon_nus(cg_dyadic_make(num, (int)exp),
			    up, nim);
			gs->scratch.len = 0;
			cg_canon_print(gs->g[i], &gs->scratch);
			gs->bound[i] = gs->scratch.len;
			continue;
		}
		/* every option takes a byte at least: no overflow below */
		if (tag != 1 || get_varint(r, &nl) < 0 || get_varint(r, &nr) < 0 ||
		    nl > (uint64_t)(r->end - r->p) ||
		    nr > (uint64_t)(r->end - r->p) - nl)
			goto out;
		free(gs->idx);
		gs->idx = cg_xmalloc((nl + nr + 1) * sizeof *gs->idx);
		if (nl + nr > 64) {
			free(gs->big);
			gs->big = cg_xmalloc((nl + nr) * sizeof *gs->big);
			o[0] = gs->big;
			o[1] = gs->big + nl;
		} else {
			o[0] = opt[0];
			o[1] = opt[1];
		}
		for (j = 0; j < nl + nr; j++) {
			if (get_varint(r, &d) < 0 || d == 0 || d > i)
				goto out;
			gs->idx[j] = i - d;
			if (j < nl)
				o[0][j] = gs->g[i - d];
			else
				o[1][j - nl] = gs->g[i - d];
		}
		gs->g[i] = cg_canon_make(o[0], nl, o[1], nr);
		if (!same_options(gs->g[i], CG_LEFT, o[0], nl) ||
		    !same_options(gs->g[i], CG_RIGHT, o[1], nr)) {
			gs->why = "a game is not in canonical form";
			goto out;
		}
		gs->bound[i] = print_bound(gs->bound, gs->idx, nl + nr);
	}
	if (get_varint(r, &nv) < 0 || nv > (uint64_t)(r->end - r->p))
		goto out;
	val = cg_xmalloc((nv ? nv : 1) * sizeof *val);
	vb = cg_xmalloc((nv ? nv : 1) * sizeof *vb);
	for (i = 0; i < nv; i++) {
		if (get_varint(r, &gi) < 0 || gi >= ng) {
			free(val);
			free(vb);
			goto out;
		}
		val[i] = gs->g[gi];
		vb[i] = gs->bound[gi];
	}
	gs->val = val;
	gs->vbound = vb;
	gs->count = nv;
out:
	;
}

/* Load a kind stored as games: its values, as games of the canonical
 * store, to *val.  -1 with *why (or NULL) when malformed. */
static int
load_games(struct rd *r, cg_game **val, uint64_t **vbound, uint64_t *count,
    const char **why)
{
	struct games gs;
	char msg[256];
	static char caught[300];
	uint64_t steps;
	int rc;

	memset(&gs, 0, sizeof gs);
	gs.r = r;
	cg_buf_init(&gs.scratch);
	steps = CG_CANON_MAX_STEPS + ((uint64_t)(r->end - r->p) << 10);
	rc = cg_canon_catch_bounded(build_games, &gs, msg, sizeof msg, &steps);
	cg_buf_free(&gs.scratch);
	free(gs.g);
	free(gs.bound);
	free(gs.idx);
	free(gs.big);
	if (rc < 0) {
		snprintf(caught, sizeof caught, "a game is too large (%s)", msg);
		*why = caught;
		free(gs.val);
		free(gs.vbound);
		return -1;
	}
	if (gs.val == NULL) {
		*why = gs.why;
		return -1;
	}
	*val = gs.val;
	*vbound = gs.vbound;
	*count = gs.count;
	return 0;
}

static int
load_dict(struct cg_kbfile *f, char *err, size_t errlen)
{
	unsigned char *raw = NULL;
	size_t rawcap = 0;
	struct rd r;
	struct cg_buf mem;
	uint64_t *off[CG_KB_MAXKINDS] = { 0 };
	uint32_t k;
	uint64_t n, len, i, enc;
	const char *why = NULL;

	if (inflate_exact(f->map + f->header_size, f->dict_clen, &raw,
	    &rawcap, f->dict_ulen) < 0) {
		snprintf(err, errlen, "%s: value dictionary does not decompress",
		    f->path);
		free(raw);
		return -1;
	}
	/* strings NUL-terminated in one buffer; pointers set at the end */
	cg_buf_init(&mem);
	r.p = raw;
	r.end = raw + f->dict_ulen;
	r.bad = 0;
	for (k = 0; k < f->meta.nkinds; k++) {
		if (get_varint(&r, &enc) < 0)
			goto bad;
		if (enc == 1) {
			if (load_games(&r, &f->dgame[k], &f->dbound[k],
			    &f->ndict[k], &why) < 0)
				goto bad;
			f->meta.games = 1;
			continue;
		}
		if (enc != 0 || get_varint(&r, &n) < 0 || n > f->dict_ulen)
			goto bad;
		f->ndict[k] = n;
		off[k] = cg_xmalloc((n ? n : 1) * sizeof *off[k]);
		for (i = 0; i < n; i++) {
			if (get_varint(&r, &len) < 0 ||
			    len > (uint64_t)(r.end - r.p))
				goto bad;
			off[k][i] = mem.len;
			cg_buf_add(&mem, r.p, len);
			cg_buf_addc(&mem, '\0');
			r.p += len;
		}
	}
	if (r.p != r.end)
		goto bad;
	f->dictmem = (char *)mem.data;
	for (k = 0; k < f->meta.nkinds; k++) {
		f->dict[k] = cg_xcalloc(f->ndict[k] ? f->ndict[k] : 1,
		    sizeof *f->dict[k]);
		for (i = 0; f->dgame[k] == NULL && i < f->ndict[k]; i++)
			f->dict[k][i] = f->dictmem + off[k][i];
		free(off[k]);
	}
	free(raw);
	return 0;
bad:
	snprintf(err, errlen, "%s: value dictionary is malformed%s%s%s",
	    f->path, why ? " (" : "", why ? why : "", why ? ")" : "");
	for (k = 0; k < f->meta.nkinds; k++) {
		free(off[k]);
		free(f->dgame[k]);
		free(f->dbound[k]);
		f->dgame[k] = NULL;
		f->dbound[k] = NULL;
		f->ndict[k] = 0;
	}
	cg_buf_free(&mem);
	free(raw);
	return -1;
}

/* The message for a value dict_value() will not print. */
static void
too_large(const struct cg_kbfile *f, uint32_t k, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: a value of kind '%s' could print to more "
	    "than %llu MB", f->path, f->meta.kinds[k],
	    (unsigned long long)(PRINT_MAX >> 20));
}

/* Value i of kind k as text (NULL: it could print to more than
 * PRINT_MAX); a kind stored as games is printed here, the
 * first time a value is asked for (a whole dictionary printed at open
 * would be 69 MB of text for the Amazons 4x4 family). */
static const char *
dict_value(struct cg_kbfile *f, uint32_t k, uint64_t i)
{
	struct cg_buf b;

	if (f->dict[k][i] == NULL) {
		if (f->dbound[k][i] > PRINT_MAX)
			return NULL;   /* too_large() says why */
		cg_buf_init(&b);
		cg_canon_print(f->dgame[k][i], &b);
		f->dict[k][i] = (char *)cg_buf_str(&b);
	}
	return f->dict[k][i];
}

struct cg_kbfile *
cg_kbfile_open(const char *path, char *err, size_t errlen)
{
	struct cg_kbfile *f;
	struct stat st;
	struct rd r;
	uint32_t version, hsize, b, k, nkinds, c;
	uint64_t off, entries = 0;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		close(fd);
		return NULL;
	}
	if ((size_t)st.st_size < 48) {
		snprintf(err, errlen, "%s: %s", path, st.st_size > 0 ?
		    "truncated knowledge base (or not one)" :
		    "empty file, not a knowledge base");
		close(fd);
		return NULL;
	}
	f = cg_xcalloc(1, sizeof *f);
	cg_kb_meta_init(&f->meta);
	f->path = cg_xstrdup(path);
	f->size = (size_t)st.st_size;
	f->map = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f->map == MAP_FAILED) {
		f->map = NULL;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (memcmp(f->map, magic, sizeof magic) != 0) {
		snprintf(err, errlen, "%s: not a knowledge base (bad magic)",
		    path);
		goto fail;
	}
	r.p = f->map + 8;
	r.end = f->map + f->size;
	r.bad = 0;
	version = get_u32(&r);
	if (version != CG_KB_FORMAT) {
		snprintf(err, errlen, "%s: unsupported format version %u "
		    "(this program reads %u)", path, version, CG_KB_FORMAT);
		goto fail;
	}
	hsize = get_u32(&r);
	if (hsize < 48 || hsize > f->size) {
		snprintf(err, errlen, "%s: truncated knowledge base "
		    "(header of %u bytes, file of %zu)", path, hsize, f->size);
		goto fail;
	}
	c = (uint32_t)f->map[hsize - 4] | (uint32_t)f->map[hsize - 3] << 8 |
	    (uint32_t)f->map[hsize - 2] << 16 | (uint32_t)f->map[hsize - 1] << 24;
	if (crc(f->map, hsize - 4) != c) {
		snprintf(err, errlen, "%s: header checksum mismatch "
		    "(corrupt knowledge base)", path);
		goto fail;
	}
	r.end = f->map + hsize - 4;
	f->header_size = hsize;
	f->meta.count = get_u64(&r);
	f->nblocks = get_u32(&r);
	f->meta.shard_k = get_u32(&r);
	f->meta.shard_n = get_u32(&r);
	f->meta.block_size = get_u32(&r);
	nkinds = get_u32(&r);
	if (r.bad || nkinds > CG_KB_MAXKINDS || f->meta.shard_n == 0 ||
	    f->meta.shard_k == 0 || f->meta.shard_k > f->meta.shard_n ||
	    f->nblocks > f->size)
		goto malformed;
	free(f->meta.ruleset);
	f->meta.ruleset = get_str(&r);
	f->meta.params = get_str(&r);
	f->meta.plugin_version = get_str(&r);
	f->meta.family = get_str(&r);
	for (k = 0; k < nkinds; k++)
		f->meta.kinds[k] = get_str(&r);
	f->meta.nkinds = nkinds;
	f->dict_clen = get_u32(&r);
	f->dict_ulen = get_u32(&r);
	c = get_u32(&r);
	/* a block record takes 18 bytes at least */
	if (r.bad || f->dict_ulen > MAX_INFLATE(f->dict_clen) ||
	    f->nblocks > (size_t)(r.end - r.p) / 18)
		goto malformed;
	off = hsize;
	if (off + f->dict_clen > f->size)
		goto truncated;
	if (crc(f->map + off, f->dict_clen) != c)
		goto badcrc_dict;
	off += f->dict_clen;
	f->blk = cg_xcalloc(f->nblocks ? f->nblocks : 1, sizeof *f->blk);
	for (b = 0; b < f->nblocks; b++) {
		struct block *bl = &f->blk[b];

		bl->clen = get_u32(&r);
		bl->ulen = get_u32(&r);
		bl->n = get_u32(&r);
		bl->crc = get_u32(&r);
		bl->firstlen = get_u16(&r);
		if (r.bad || (size_t)(r.end - r.p) < bl->firstlen ||
		    bl->n == 0 || bl->ulen > MAX_INFLATE(bl->clen) ||
		    bl->n > bl->ulen / (2 + nkinds))
			goto malformed;
		entries += bl->n;
		bl->first = r.p;
		r.p += bl->firstlen;
		bl->off = off;
		off += bl->clen;
		if (off > f->size)
			goto truncated;
		if (crc(f->map + bl->off, bl->clen) != bl->crc) {
			snprintf(err, errlen, "%s: block %u checksum mismatch "
			    "(corrupt knowledge base)", path, b + 1);
			goto fail;
		}
	}
	if (r.p != r.end || entries != f->meta.count)
		goto malformed;
	if (off != f->size) {
		snprintf(err, errlen, "%s: %zu bytes of trailing garbage",
		    path, f->size - (size_t)off);
		goto fail;
	}
	if (load_dict(f, err, errlen) < 0)
		goto fail;
	return f;
truncated:
	snprintf(err, errlen, "%s: truncated knowledge base", path);
	goto fail;
badcrc_dict:
	snprintf(err, errlen, "%s: value dictionary checksum mismatch "
	    "(corrupt knowledge base)", path);
	goto fail;
malformed:
	snprintf(err, errlen, "%s: malformed knowledge base header", path);
fail:
	cg_kbfile_close(f);
	return NULL;
}

void
cg_kbfile_close(struct cg_kbfile *f)
{
	uint32_t k;
	uint64_t n;
	int i;

	if (f == NULL)
		return;
	if (f->map)
		munmap(f->map, f->size);
	for (k = 0; k < f->meta.nkinds; k++) {
		for (n = 0; f->dgame[k] != NULL && n < f->ndict[k]; n++)
			free(f->dict[k][n]);
		free(f->dict[k]);
		free(f->dgame[k]);
		free(f->dbound[k]);
	}
	free(f->dictmem);
	for (i = 0; i < NCACHE; i++) {
		free(f->cache[i].keys);
		free(f->cache[i].koff);
		free(f->cache[i].val);
	}
	free(f->each.keys);   /* left by an each() that never returned */
	free(f->each.koff);
	free(f->each.val);
	free(f->each_prev);
	free(f->inflbuf);
	free(f->blk);
	free(f->path);
	cg_kb_meta_free(&f->meta);
	free(f);
}

/* Decode block b into d; -1 with a message when it is malformed. */
static int
decode_block(struct cg_kbfile *f, uint32_t b, struct decoded *d, char *err,
    size_t errlen)
{
	struct block *bl = &f->blk[b];
	struct rd r;
	uint64_t shared, slen, v;
	uint32_t i, k, nk = f->meta.nkinds;
	size_t kl = 0, prevoff = 0, prevlen = 0;
	/* keys are at most 65535 bytes and decode to at most KEY_EXPANSION
	 * times the block (offsets are 32-bit) */
	uint64_t keymax = (uint64_t)bl->ulen * KEY_EXPANSION;

	if (keymax > UINT32_MAX)
		keymax = UINT32_MAX;

	if (inflate_exact(f->map + bl->off, bl->clen, &f->inflbuf,
	    &f->inflcap, bl->ulen) < 0) {
		snprintf(err, errlen, "%s: block %u does not decompress",
		    f->path, b + 1);
		return -1;
	}
	if (d->ncap < (size_t)bl->n + 1) {
		d->ncap = (size_t)bl->n + 1;
		d->koff = cg_xreallocarray(d->koff, d->ncap, sizeof *d->koff);
		d->val = cg_xreallocarray(d->val, d->ncap * (nk ? nk : 1),
		    sizeof *d->val);
	}
	r.p = f->inflbuf;
	r.end = f->inflbuf + bl->ulen;
	r.bad = 0;
	for (i = 0; i < bl->n; i++) {
		if (get_varint(&r, &shared) < 0 || get_varint(&r, &slen) < 0 ||
		    shared > prevlen || slen > (uint64_t)(r.end - r.p) ||
		    (i == 0 && shared != 0) || shared + slen > 65535 ||
		    kl + shared + slen > keymax)
			goto bad;
		if (d->keys == NULL || d->keycap < kl + shared + slen) {
			d->keycap = (kl + shared + slen) * 2 + 64;
			d->keys = cg_xrealloc(d->keys, d->keycap);
		}
		memmove(d->keys + kl, d->keys + prevoff, shared);
		memcpy(d->keys + kl + shared, r.p, slen);
		r.p += slen;
		d->koff[i] = (uint32_t)kl;
		prevoff = kl;
		prevlen = shared + slen;
		kl += prevlen;
	}
	for (i = 0; i < bl->n; i++)
		for (k = 0; k < nk; k++) {
			if (get_varint(&r, &v) < 0 || v > f->ndict[k])
				goto bad;
			d->val[(size_t)i * nk + k] = (uint32_t)v;
		}
	if (r.p != r.end)
		goto bad;
	d->koff[bl->n] = (uint32_t)kl;
	d->n = bl->n;
	d->blk = b + 1;
	/* the index's first key must be the block's first key */
	if (bl->n == 0 || keycmp(d->keys, d->koff[1], bl->first,
	    bl->firstlen) != 0)
		goto bad;
	return 0;
bad:
	d->blk = 0;
	snprintf(err, errlen, "%s: block %u is malformed", f->path, b + 1);
	return -1;
}

static struct decoded *
get_block(struct cg_kbfile *f, uint32_t b)
{
	struct decoded *d, *victim = &f->cache[0];
	char err[512];
	int i;

	f->clock++;
	for (i = 0; i < NCACHE; i++) {
		d = &f->cache[i];
		if (d->blk == b + 1) {
			d->used = f->clock;
			return d;
		}
		if (d->used < victim->used)
			victim = d;
	}
	if (decode_block(f, b, victim, err, sizeof err) < 0)
		cg_die(CG_EXIT_DATA, "%s", err);
	victim->used = f->clock;
	return victim;
}

const char *
cg_kbfile_get(struct cg_kbfile *f, const unsigned char *key, size_t len,
    uint32_t k)
{
	uint32_t lo = 0, hi = f->nblocks, mid, v;
	struct decoded *d;
	const char *s;
	int c;

	if (k >= f->meta.nkinds || f->nblocks == 0)
		return NULL;
	/* the last block whose first key is <= key */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (keycmp(f->blk[mid].first, f->blk[mid].firstlen, key,
		    len) <= 0)
			lo = mid;
		else
			hi = mid;
	}
	d = get_block(f, lo);
	lo = 0;
	hi = d->n;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = keycmp(d->keys + d->koff[mid], d->koff[mid + 1] -
		    d->koff[mid], key, len);
		if (c == 0) {
			v = d->val[(size_t)mid * f->meta.nkinds + k];
			if (v == 0)
				return NULL;
			s = dict_value(f, k, v - 1);
			if (s == NULL) {
				char msg[512];

				too_large(f, k, msg, sizeof msg);
				cg_die(CG_EXIT_DATA, "%s", msg);
			}
			return s;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int
cg_kbfile_each(struct cg_kbfile *f, cg_kb_visit_fn fn, void *ctx, char *err,
    size_t errlen)
{
	struct decoded d;
	const char *vals[CG_KB_MAXKINDS];
	unsigned char *prev = NULL;
	size_t prevlen = 0, prevcap = 0;
	uint64_t total = 0;
	uint32_t b, i, k, v;
	int ret = 0;

	memset(&d, 0, sizeof d);
	f->each = d;
	f->each_prev = NULL;
	for (b = 0; b < f->nblocks && ret == 0; b++) {
		ret = decode_block(f, b, &d, err, errlen);
		f->each = d;
		if (ret < 0)
			break;
		for (i = 0; i < d.n; i++) {
			const unsigned char *key = d.keys + d.koff[i];
			size_t kl = d.koff[i + 1] - d.koff[i];

			if (total > 0 && keycmp(prev, prevlen, key, kl) >= 0) {
				snprintf(err, errlen, "%s: block %u: keys out of "
				    "order", f->path, b + 1);
				ret = -1;
				break;
			}
			if (prev == NULL || prevcap < kl) {
				prevcap = kl * 2 + 16;
				prev = cg_xrealloc(prev, prevcap);
				f->each_prev = prev;
			}
			memcpy(prev, key, kl);
			prevlen = kl;
			total++;
			for (k = 0; k < f->meta.nkinds && ret == 0; k++) {
				v = d.val[(size_t)i * f->meta.nkinds + k];
				vals[k] = v ? dict_value(f, k, v - 1) : NULL;
				if (v && vals[k] == NULL) {
					too_large(f, k, err, errlen);
					ret = -1;
				}
			}
			if (ret != 0)
				break;
			ret = fn(ctx, key, kl, vals);
			if (ret != 0)
				break;
		}
	}
	if (ret == 0 && total != f->meta.count) {
		snprintf(err, errlen, "%s: %llu entries, header says %llu",
		    f->path, (unsigned long long)total,
		    (unsigned long long)f->meta.count);
		ret = -1;
	}
	free(prev);
	free(d.keys);
	free(d.koff);
	free(d.val);
	memset(&f->each, 0, sizeof f->each);
	f->each_prev = NULL;
	return ret;
}

void
cg_kbfile_stats(const struct cg_kbfile *f, struct cg_kbfile_stats *st)
{
	uint32_t b, k;

	memset(st, 0, sizeof *st);
	st->file_size = f->size;
	st->header_size = f->header_size;
	st->dict_size = f->dict_clen;
	st->nblocks = f->nblocks;
	for (b = 0; b < f->nblocks; b++) {
		st->data_size += f->blk[b].clen;
		st->raw_size += f->blk[b].ulen;
	}
	for (k = 0; k < f->meta.nkinds; k++)
		st->ndistinct[k] = f->ndict[k];
}
