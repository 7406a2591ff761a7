/* kbgames.c - the games dictionary of cgkb(5) (see kbgames.h).
 *
 * A record is a number-up-star (its numerator, exponent, ups and nimber
 * as numbers) or a game of Left and Right options, each side's options
 * as references in increasing order: the first, then each one's
 * distance from the one before less one.  Every number is a
 * Huffman-coded bit length and the bits below the leading one (huff.h);
 * a record's shape (number-up-star, or how many options a side) has a
 * code of its own.  Which of a game and its negative a record holds is
 * fixed by the games' structure, not by the store's ids, so that the
 * file depends only on the values: the one with the smaller structural
 * hash (ties, which a 64-bit hash all but never has, by CGSuite's order
 * of games). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/jobs.h"
#include "base/util.h"
#include "base/varint.h"
#include "kb/huff.h"
#include "kb/kbfmt.h"
#include "kb/kbgames.h"
#include "values/notation.h"

/* ------------------------------------------------------------- writer */

struct gw {
	/* by store id */
	cg_game *neg;             /* the negative + 1; 0: not known yet */
	uint64_t *hash;
	uint64_t *ref;            /* 2 record + sign, + 1; 0: none */
	uint64_t *pcount;         /* a pair's entries, at its representative */
	unsigned char *hashed;
	size_t cap;
	cg_game *rec;             /* representative of each record */
	size_t nrec, caprec;
};

static void
gw_room(struct gw *w, cg_game g)
{
	size_t cap = w->cap ? w->cap : 4096;

	if ((size_t)g < w->cap)
		return;
	while (cap <= (size_t)g)
		cap *= 2;
	w->neg = cg_xreallocarray(w->neg, cap, sizeof *w->neg);
	memset(w->neg + w->cap, 0, (cap - w->cap) * sizeof *w->neg);
	w->hash = cg_xreallocarray(w->hash, cap, sizeof *w->hash);
	w->ref = cg_xreallocarray(w->ref, cap, sizeof *w->ref);
	w->pcount = cg_xreallocarray(w->pcount, cap, sizeof *w->pcount);
	w->hashed = cg_xrealloc(w->hashed, cap);
	memset(w->ref + w->cap, 0, (cap - w->cap) * sizeof *w->ref);
	memset(w->pcount + w->cap, 0, (cap - w->cap) * sizeof *w->pcount);
	memset(w->hashed + w->cap, 0, cap - w->cap);
	w->cap = cap;
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

/* A hash of g's structure, the same for equal games in any run. */
static uint64_t
shash(struct gw *w, cg_game g)
{
	struct cg_dyadic x;
	int64_t up;
	uint64_t nim, h, *hs;
	size_t n, i;
	int s;

	gw_room(w, g);
	if (w->hashed[g])
		return w->hash[g];
	if (cg_canon_nus_parts(g, &x, &up, &nim) && cg_dyadic_is_big(x)) {
		/* by value: a big number's fields are this process's */
		uint64_t wd[CG_DYADIC_MAX_WORDS];
		long e;
		int neg;

		n = cg_dyadic_export(x, wd, &e, &neg);
		h = hmix(hmix(3, (uint64_t)e), (uint64_t)neg);
		for (i = 0; i < n; i++)
			h = hmix(h, wd[i]);
		h = hmix(hmix(h, (uint64_t)up), nim);
	} else if (cg_canon_nus_parts(g, &x, &up, &nim)) {
		h = hmix(hmix(hmix(hmix(1, (uint64_t)x.num), (uint64_t)x.exp),
		    (uint64_t)up), nim);
	} else {
		h = 2;
		for (s = 0; s < 2; s++) {
			const cg_game *o = cg_canon_options(g, (enum cg_side)s,
			    &n);

			hs = cg_xmalloc((n ? n : 1) * sizeof *hs);
			for (i = 0; i < n; i++)
				hs[i] = shash(w, o[i]);
			qsort(hs, n, sizeof *hs, cmp_u64);
			h = hmix(h, 0x5e9a7a7e + (uint64_t)s);
			for (i = 0; i < n; i++)
				h = hmix(h, hs[i]);
			free(hs);
		}
	}
	gw_room(w, g);    /* the arrays may have moved */
	w->hash[g] = h;
	w->hashed[g] = 1;
	return h;
}

/* Structural order: by hash, ties by CGSuite's order. */
static int
scmp(struct gw *w, cg_game a, cg_game b)
{
	uint64_t ha = shash(w, a), hb = shash(w, b);

	if (ha != hb)
		return ha < hb ? -1 : 1;
	return a == b ? 0 : cg_canon_order(a, b);
}

/* -g, remembered: the store's cache of negatives is small and a
 * dictionary asks for millions.  The negative of {L | R} is made from
 * the negatives of its options, remembered too, so that each game of
 * the DAG is negated once; the store finds it at once when it has it
 * (its option lists are those of a game it holds). */
static cg_game
neg(struct gw *w, cg_game g)
{
	struct cg_dyadic x;
	int64_t up;
	uint64_t nim;
	cg_game n, *opt;
	const cg_game *o[2];
	size_t k[2], i;

	gw_room(w, g);
	if (w->neg[g] != 0)
		return w->neg[g] - 1;
	if (cg_canon_nus_parts(g, &x, &up, &nim)) {
		n = cg_canon_nus(cg_dyadic_neg(x), -up, nim);
	} else {
		o[0] = cg_canon_options(g, CG_LEFT, &k[0]);
		o[1] = cg_canon_options(g, CG_RIGHT, &k[1]);
		opt = cg_xmalloc((k[0] + k[1] + 1) * sizeof *opt);
		/* the negative's Left options are the negated Right ones */
		for (i = 0; i < k[1]; i++)
			opt[i] = neg(w, o[1][i]);
		for (i = 0; i < k[0]; i++)
			opt[k[1] + i] = neg(w, o[0][i]);
		n = cg_canon_make_canonical(opt, k[1], opt + k[1], k[0]);
		free(opt);
	}
	gw_room(w, n > g ? n : g);
	w->neg[g] = n + 1;
	w->neg[n] = g + 1;
	return n;
}

/* The game of the pair {g, -g} a record holds. */
static cg_game
representative(struct gw *w, cg_game g)
{
	cg_game n = neg(w, g);

	return scmp(w, g, n) <= 0 ? g : n;
}

/* A record to sort, its keys at hand: a sort of millions that looked
 * them up by game would miss the cache at every comparison. */
struct rkey {
	uint64_t count, hash;
	cg_game g;
};

static int
cmp_rkey(const void *pa, const void *pb)
{
	const struct rkey *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return a->g == b->g ? 0 : cg_canon_order(a->g, b->g);
}

/* Records rec[from .. nrec) by falling entry count, then structure. */
static void
sort_records(struct gw *w, size_t from)
{
	size_t n = w->nrec - from, i;
	struct rkey *k = cg_xmalloc((n ? n : 1) * sizeof *k);

	for (i = 0; i < n; i++) {
		k[i].g = w->rec[from + i];
		k[i].count = w->pcount[k[i].g];
		k[i].hash = shash(w, k[i].g);
	}
	qsort(k, n, sizeof *k, cmp_rkey);
	for (i = 0; i < n; i++)
		w->rec[from + i] = k[i].g;
	free(k);
}

static void
add_record(struct gw *w, cg_game rep)
{
	if (w->nrec == w->caprec) {
		w->caprec = w->caprec ? 2 * w->caprec : 1024;
		w->rec = cg_xreallocarray(w->rec, w->caprec, sizeof *w->rec);
	}
	w->rec[w->nrec++] = rep;
}

/* Number the records from `from` on and note both members of each
 * pair. */
static void
number(struct gw *w, size_t from)
{
	size_t r;

	for (r = from; r < w->nrec; r++) {
		cg_game rep = w->rec[r], n = neg(w, rep);

		gw_room(w, rep > n ? rep : n);
		w->ref[rep] = 2 * (uint64_t)r + 1;
		if (n != rep)
			w->ref[n] = 2 * (uint64_t)r + 2;
	}
}

/* The references of the options of a record's game, per side sorted. */
static size_t
side_refs(struct gw *w, cg_game g, int side, uint64_t **buf, size_t *cap)
{
	size_t n, i;
	const cg_game *o = cg_canon_options(g, (enum cg_side)side, &n);

	if (n > *cap) {
		*cap = n;
		*buf = cg_xreallocarray(*buf, n, sizeof **buf);
	}
	for (i = 0; i < n; i++)
		(*buf)[i] = w->ref[o[i]] - 1;
	qsort(*buf, n, sizeof **buf, cmp_u64);
	return n;
}

/* The codes of a dictionary: counts in a first pass, bits in a second. */
struct gcodes {
	uint64_t cnt[4][KB_SHAPES];
	struct cg_huff_enc enc[4];
	int pass;
	struct cg_bitw *bw;
};
enum { C_SHAPE, C_FIRST, C_DELTA, C_FIELD };

static void
put_sym(struct gcodes *c, int code, unsigned sym)
{
	if (c->pass == 0)
		c->cnt[code][sym]++;
	else
		cg_huff_put(c->bw, &c->enc[code], sym);
}

static void
put_num(struct gcodes *c, int code, uint64_t v)
{
	if (c->pass == 0)
		c->cnt[code][cg_num_class(v)]++;
	else
		cg_num_put(c->bw, &c->enc[code], v);
}

static uint64_t
zz(int64_t v)
{
	return v < 0 ? ((uint64_t)(-(v + 1)) << 1) | 1 : (uint64_t)v << 1;
}

static int64_t
unzz(uint64_t v)
{
	return (v & 1) ? -(int64_t)(v >> 1) - 1 : (int64_t)(v >> 1);
}

static void
put_record(struct gw *w, struct gcodes *c, cg_game g, uint64_t **buf,
    size_t *cap)
{
	struct cg_dyadic x;
	int64_t up;
	uint64_t nim;
	size_t n[2], i;
	int s;

	if (cg_canon_nus_parts(g, &x, &up, &nim) && cg_dyadic_is_big(x)) {
		uint64_t wd[CG_DYADIC_MAX_WORDS];
		long e;
		int neg;

		n[0] = cg_dyadic_export(x, wd, &e, &neg);
		put_sym(c, C_SHAPE, KB_SHAPE_BIGNUS);
		put_num(c, C_FIELD, (uint64_t)neg);
		put_num(c, C_FIELD, (uint64_t)e);
		put_num(c, C_FIELD, n[0]);
		for (i = 0; i < n[0]; i++)
			put_num(c, C_FIELD, wd[i]);
		put_num(c, C_FIELD, zz(up));
		put_num(c, C_FIELD, nim);
		return;
	}
	if (cg_canon_nus_parts(g, &x, &up, &nim)) {
		put_sym(c, C_SHAPE, KB_SHAPE_NUS);
		put_num(c, C_FIELD, zz(x.num));
		put_num(c, C_FIELD, (uint64_t)x.exp);
		put_num(c, C_FIELD, zz(up));
		put_num(c, C_FIELD, nim);
		return;
	}
	cg_canon_options(g, CG_LEFT, &n[0]);
	cg_canon_options(g, CG_RIGHT, &n[1]);
	put_sym(c, C_SHAPE, KB_SHAPE_OPTS(n[0] < 16 ? n[0] : 16,
	    n[1] < 16 ? n[1] : 16));
	for (s = 0; s < 2; s++)
		if (n[s] >= 16)
			put_num(c, C_FIELD, n[s] - 16);
	for (s = 0; s < 2; s++) {
		side_refs(w, g, s, buf, cap);
		for (i = 0; i < n[s]; i++)
			put_num(c, i ? C_DELTA : C_FIRST, i ? (*buf)[i] -
			    (*buf)[i - 1] - 1 : (*buf)[0]);
	}
}

/* The passes over the records, TASK_BLOCKS blocks a task: per worker
 * its counts (pass 0) or its bits (pass 1, each block on its own bytes
 * so that blocks can be made apart and joined in order). */
#define TASK_BLOCKS 64

struct rpart {
	struct gcodes c;
	struct cg_buf blk;
	uint64_t *buf;
	size_t cap;
};

struct rpass {
	struct gw *w;
	const struct gcodes *codes;   /* pass 1: the codes made of counts */
	int pass;
	size_t nblocks, ntasks;
	struct rpart *part;           /* per worker */
	struct cg_buf *out;           /* per task */
	uint64_t *blen;               /* per block: bytes */
	uint32_t *crc;                /* per block */
};

static void
records_task(void *ctx, size_t t)
{
	struct rpass *rp = ctx;
	struct rpart *p = &rp->part[cg_worker];
	struct gw *w = rp->w;
	struct cg_bitw bw;
	size_t b, r;
	int k;

	p->c.pass = rp->pass;
	if (rp->pass == 1)
		for (k = 0; k < 4; k++)
			p->c.enc[k] = rp->codes->enc[k];   /* read only */
	for (b = t * TASK_BLOCKS; b < rp->nblocks && b < (t + 1) * TASK_BLOCKS;
	    b++) {
		p->blk.len = 0;
		cg_bitw_init(&bw, &p->blk);
		p->c.bw = &bw;
		for (r = b * KB_GAMES_PER_BLOCK; r < w->nrec &&
		    r < (b + 1) * KB_GAMES_PER_BLOCK; r++)
			put_record(w, &p->c, w->rec[r], &p->buf, &p->cap);
		if (rp->pass == 0)
			continue;
		cg_bitw_flush(&bw);
		rp->blen[b] = p->blk.len;
		rp->crc[b] = (uint32_t)crc32(crc32(0, Z_NULL, 0), p->blk.data,
		    (uInt)p->blk.len);
		cg_buf_add(&rp->out[t], p->blk.data, p->blk.len);
	}
}

void
kb_games_write(const cg_game *val, const uint64_t *count, size_t n,
    struct kb_games_w *o, struct cg_buf *out)
{
	struct gw w;
	struct gcodes *c = cg_xcalloc(1, sizeof *c);
	cg_game *stack = NULL;
	size_t i, nv, sp = 0, capstack = 0, r, b, nblocks, at;
	struct cg_buf data, table;
	int s, k;

	memset(&w, 0, sizeof w);
	memset(o, 0, sizeof *o);
	o->vidx = cg_xmalloc((n ? n : 1) * sizeof *o->vidx);
	o->sign = cg_xmalloc(n ? n : 1);
	/* the values' pairs, counted at their representatives */
	for (i = 0; i < n; i++) {
		cg_game rep;

		if (count[i] == 0)
			continue;
		rep = representative(&w, val[i]);
		gw_room(&w, rep);
		if (w.pcount[rep] == 0)
			add_record(&w, rep);
		w.pcount[rep] += count[i];
	}
	sort_records(&w, 0);
	nv = w.nrec;
	number(&w, 0);
	/* the games they are made of */
	for (r = 0; r < w.nrec; r++) {
		if (sp == capstack) {
			capstack = capstack ? 2 * capstack : 1024;
			stack = cg_xreallocarray(stack, capstack, sizeof *stack);
		}
		stack[sp++] = w.rec[r];
	}
	{
		size_t first = w.nrec;

		while (sp > 0) {
			cg_game g = stack[--sp];
			size_t no;

			if (cg_canon_is_nus(g))
				continue;
			for (s = 0; s < 2; s++) {
				const cg_game *opt = cg_canon_options(g,
				    (enum cg_side)s, &no);

				for (i = 0; i < no; i++) {
					cg_game rep;

					gw_room(&w, opt[i]);
					if (w.ref[opt[i]] != 0)
						continue;
					rep = representative(&w, opt[i]);
					gw_room(&w, rep);
					add_record(&w, rep);
					number(&w, w.nrec - 1);  /* seen */
					if (sp == capstack) {
						capstack *= 2;
						stack = cg_xreallocarray(stack,
						    capstack, sizeof *stack);
					}
					stack[sp++] = rep;
				}
			}
		}
		sort_records(&w, first);  /* counts are 0 there */
		number(&w, first);
	}
	free(stack);
	/* what the entries need: each value's record and sign */
	for (i = 0; i < n; i++) {
		uint64_t ref = 0;

		if (count[i] > 0) {
			gw_room(&w, val[i]);
			ref = w.ref[val[i]];
		}
		o->vidx[i] = ref ? (ref - 1) >> 1 : UINT64_MAX;
		o->sign[i] = ref ? (uint8_t)((ref - 1) & 1) : 0;
	}
	o->nvalues = nv;
	o->nrecords = w.nrec;
	o->selfneg = cg_xmalloc(nv ? nv : 1);
	o->count = cg_xmalloc((nv ? nv : 1) * sizeof *o->count);
	for (r = 0; r < nv; r++) {
		o->selfneg[r] = neg(&w, w.rec[r]) == w.rec[r];
		o->count[r] = w.pcount[w.rec[r]];
	}
	/* the records: codes counted, then written in blocks, both passes
	 * on every core (reading millions of records' options is what the
	 * writer spends its time on) */
	cg_buf_init(&data);
	cg_buf_init(&table);
	nblocks = (w.nrec + KB_GAMES_PER_BLOCK - 1) / KB_GAMES_PER_BLOCK;
	{
		struct rpass rp;
		unsigned j;

		memset(&rp, 0, sizeof rp);
		rp.w = &w;
		rp.nblocks = nblocks;
		rp.ntasks = (nblocks + TASK_BLOCKS - 1) / TASK_BLOCKS;
		rp.part = cg_xcalloc(CG_MAX_JOBS, sizeof *rp.part);
		rp.out = cg_xcalloc(rp.ntasks ? rp.ntasks : 1,
		    sizeof *rp.out);
		rp.blen = cg_xmalloc((nblocks ? nblocks : 1) *
		    sizeof *rp.blen);
		rp.crc = cg_xmalloc((nblocks ? nblocks : 1) * sizeof *rp.crc);
		cg_parallel_for(rp.ntasks, cg_jobs_default(), 1, records_task,
		    &rp);
		for (j = 0; j < CG_MAX_JOBS; j++)
			for (k = 0; k < 4; k++)
				for (i = 0; i < KB_SHAPES; i++)
					c->cnt[k][i] += rp.part[j].c.cnt[k][i];
		for (k = 0; k < 4; k++) {
			uint8_t len[KB_SHAPES];
			size_t ns = k == C_SHAPE ? KB_SHAPES : CG_NUM_CLASSES;

			cg_huff_lengths(c->cnt[k], ns, 24, len);
			cg_huff_enc_init(&c->enc[k], len, ns);
		}
		rp.pass = 1;
		rp.codes = c;
		cg_parallel_for(rp.ntasks, cg_jobs_default(), 1, records_task,
		    &rp);
		for (b = 0; b < nblocks; b++) {
			if (b % TASK_BLOCKS == 0) {
				cg_buf_add(&data, rp.out[b / TASK_BLOCKS].data,
				    rp.out[b / TASK_BLOCKS].len);
				cg_buf_free(&rp.out[b / TASK_BLOCKS]);
			}
		}
		for (b = 0, at = 0; b < nblocks; b++) {
			cg_put_le(&table, at, 8);
			cg_put_le(&table, rp.crc[b], 4);
			cg_put_le(&table, 0, 4);
			at += rp.blen[b];
		}
		for (j = 0; j < CG_MAX_JOBS; j++) {
			free(rp.part[j].buf);
			cg_buf_free(&rp.part[j].blk);
		}
		free(rp.part);
		free(rp.out);
		free(rp.blen);
		free(rp.crc);
	}
	/* the section: counts, codes, self-negatives, blocks */
	cg_put_le(out, w.nrec, 8);
	cg_put_le(out, nv, 8);
	cg_put_le(out, nblocks, 8);
	for (k = 0; k < 4; k++) {
		cg_huff_put_lengths(out, c->enc[k].len, c->enc[k].n);
		cg_huff_enc_free(&c->enc[k]);
	}
	at = out->len;
	cg_buf_reserve(out, (nv + 7) / 8 + 1);
	memset(out->data + at, 0, (nv + 7) / 8);
	out->len += (nv + 7) / 8;
	for (r = 0; r < nv; r++)
		if (o->selfneg[r])
			out->data[at + r / 8] |= (unsigned char)(1u << (r % 8));
	cg_buf_add(out, table.data, table.len);
	o->checked = out->len;
	cg_buf_add(out, data.data, data.len);
	cg_buf_free(&data);
	cg_buf_free(&table);
	free(c);
	free(w.neg);
	free(w.hash);
	free(w.ref);
	free(w.pcount);
	free(w.hashed);
	free(w.rec);
}

void
kb_games_w_free(struct kb_games_w *w)
{
	free(w->vidx);
	free(w->sign);
	free(w->selfneg);
	free(w->count);
	memset(w, 0, sizeof *w);
}

/* ------------------------------------------------------------- reader */

struct kb_games {
	const unsigned char *sec;
	uint64_t len, data_off;
	uint64_t nrec, nval, nblocks;
	uint64_t tables;
	struct cg_huff_dec code[4];
	const unsigned char *selfneg, *btab;
	_Atomic uint32_t *game;       /* per record: game id + 1 */
	_Atomic uint32_t *negative;   /* and its negative's, once asked */
	_Atomic uint64_t *bound;      /* per record: print bound + 1 */
	_Atomic uint64_t *verified;   /* per block: its checksum was checked */
	uint64_t max_steps;
	const char *path;
};

struct kb_games *
kb_games_open(const unsigned char *sec, uint64_t len, uint64_t checked,
    const char *path, char *err, size_t errlen)
{
	struct kb_games *g = cg_xcalloc(1, sizeof *g);
	struct cg_rd r;
	uint64_t b, prev = 0;
	int k, bad = 0;

	g->sec = sec;
	g->len = len;
	g->path = path;
	cg_rd_init(&r, sec, checked);
	g->nrec = cg_get_le(&r, 8);
	g->nval = cg_get_le(&r, 8);
	g->nblocks = cg_get_le(&r, 8);
	/* a record takes a bit at least */
	if (r.bad || g->nval > g->nrec || g->nrec > 8 * len ||
	    g->nblocks != (g->nrec + KB_GAMES_PER_BLOCK - 1) /
	    KB_GAMES_PER_BLOCK)
		goto malformed;
	for (k = 0; k < 4 && !bad; k++)
		bad = cg_huff_get_lengths(&r, &g->code[k], k == C_SHAPE ?
		    KB_SHAPES : CG_NUM_CLASSES) < 0;
	if (bad)
		goto malformed;
	g->selfneg = cg_get_bytes(&r, (g->nval + 7) / 8);
	if (g->nblocks > cg_rd_left(&r) / 16)
		goto malformed;
	g->btab = cg_get_bytes(&r, 16 * g->nblocks);
	if (r.bad || cg_rd_left(&r) != 0)
		goto malformed;
	g->data_off = checked;
	g->tables = checked;
	for (b = 0; b < g->nblocks; b++) {
		uint64_t off = cg_load_le(g->btab + 16 * b, 8);

		if ((b == 0 && off != 0) || (b > 0 && off <= prev) ||
		    off >= len - g->data_off)
			goto malformed;
		prev = off;
	}
	g->game = cg_xcalloc(g->nrec ? g->nrec : 1, sizeof *g->game);
	g->negative = cg_xcalloc(g->nrec ? g->nrec : 1, sizeof *g->negative);
	g->bound = cg_xcalloc(g->nrec ? g->nrec : 1, sizeof *g->bound);
	g->verified = cg_xcalloc(g->nblocks / 64 + 1, sizeof *g->verified);
	g->max_steps = CG_CANON_MAX_STEPS + (len << 10);
	return g;
malformed:
	snprintf(err, errlen, "%s: games dictionary is malformed", path);
	kb_games_free(g);
	return NULL;
}

void
kb_games_free(struct kb_games *g)
{
	int k;

	if (g == NULL)
		return;
	for (k = 0; k < 4; k++)
		cg_huff_dec_free(&g->code[k]);
	free((void *)g->game);
	free((void *)g->negative);
	free((void *)g->bound);
	free((void *)g->verified);
	free(g);
}

uint64_t
kb_games_nvalues(const struct kb_games *g)
{
	return g->nval;
}

uint64_t
kb_games_nrecords(const struct kb_games *g)
{
	return g->nrec;
}

void
kb_games_sizes(const struct kb_games *g, uint64_t *tables, uint64_t *records)
{
	*tables = g->tables;
	*records = g->len - g->tables;
}

int
kb_games_selfneg(const struct kb_games *g, uint64_t v)
{
	return v < g->nval && (g->selfneg[v / 8] >> (v % 8)) & 1;
}

/* One record decoded: a number-up-star, or options as references. */
struct drec {
	int nus;
	int big;                   /* num and exp: a big number (dyadic.h) */
	int64_t num, up;
	uint64_t exp, nim;
	uint64_t n[2];
	uint64_t *opt;             /* n[0] + n[1] references */
};

struct dblock {
	uint64_t block;            /* + 1; 0: empty */
	uint32_t count;
	struct drec rec[KB_GAMES_PER_BLOCK];
	uint64_t *arena;
	size_t cap;
};

/* Decode block b into d; -1 when malformed. */
static int
decode_block(struct kb_games *g, uint64_t b, struct dblock *d)
{
	const unsigned char *start = g->sec + g->data_off;
	uint64_t off = cg_load_le(g->btab + 16 * b, 8), end;
	uint32_t crc = (uint32_t)cg_load_le(g->btab + 16 * b + 8, 4);
	struct cg_bitr r;
	uint64_t i, j, used = 0, nopt;
	int bad = 0, s;
	uint32_t shape;

	end = b + 1 < g->nblocks ? cg_load_le(g->btab + 16 * (b + 1), 8) :
	    g->len - g->data_off;
	if (!(atomic_load_explicit(&g->verified[b / 64],
	    memory_order_acquire) >> (b % 64) & 1)) {
		if (crc32(crc32(0, Z_NULL, 0), start + off,
		    (uInt)(end - off)) != crc)
			return -1;
		atomic_fetch_or(&g->verified[b / 64], (uint64_t)1 << (b % 64));
	}
	cg_bitr_init(&r, start + off, end - off);
	d->count = (uint32_t)(b + 1 < g->nblocks ? KB_GAMES_PER_BLOCK :
	    g->nrec - b * KB_GAMES_PER_BLOCK);
	for (i = 0; i < d->count; i++) {
		struct drec *x = &d->rec[i];

		shape = cg_huff_get(&r, &g->code[C_SHAPE]);
		if (shape == KB_SHAPE_NUS) {
			x->big = 0;
			x->num = unzz(cg_num_get(&r, &g->code[C_FIELD], &bad));
			x->exp = cg_num_get(&r, &g->code[C_FIELD], &bad);
		} else if (shape == KB_SHAPE_BIGNUS) {
			uint64_t wd[CG_DYADIC_MAX_WORDS], neg, e, nw;
			struct cg_dyadic dy;

			neg = cg_num_get(&r, &g->code[C_FIELD], &bad);
			e = cg_num_get(&r, &g->code[C_FIELD], &bad);
			nw = cg_num_get(&r, &g->code[C_FIELD], &bad);
			if (bad || neg > 1 || nw > CG_DYADIC_MAX_WORDS)
				return -1;
			for (j = 0; j < nw; j++)
				wd[j] = cg_num_get(&r, &g->code[C_FIELD], &bad);
			if (bad || cg_dyadic_import(wd, (size_t)nw, e,
			    (int)neg, &dy) < 0)
				return -1;
			x->big = 1;
			x->num = dy.num;
			x->exp = (uint64_t)(int64_t)dy.exp;
		}
		if (shape == KB_SHAPE_NUS || shape == KB_SHAPE_BIGNUS) {
			/* the number, then the up multiple and the nimber */
			x->nus = 1;
			x->up = unzz(cg_num_get(&r, &g->code[C_FIELD], &bad));
			x->nim = cg_num_get(&r, &g->code[C_FIELD], &bad);
			x->n[0] = x->n[1] = 0;
			continue;
		}
		if (shape > KB_SHAPE_BIGNUS)
			return -1;
		x->nus = 0;
		x->n[0] = (shape - 1) / 17;
		x->n[1] = (shape - 1) % 17;
		for (s = 0; s < 2; s++)
			if (x->n[s] == 16)
				x->n[s] += cg_num_get(&r, &g->code[C_FIELD], &bad);
		/* an option takes a bit at least */
		nopt = x->n[0] + x->n[1];
		if (bad || x->n[0] > 8 * (end - off) || x->n[1] > 8 *
		    (end - off) || used + nopt > 8 * (end - off))
			return -1;
		if (used + nopt > d->cap) {
			size_t k, ncap = 2 * (used + nopt) + 64;

			d->arena = cg_xreallocarray(d->arena, ncap,
			    sizeof *d->arena);
			d->cap = ncap;
			/* re-point the records decoded so far */
			for (k = 0, used = 0; k < i; k++) {
				d->rec[k].opt = d->arena + used;
				used += d->rec[k].n[0] + d->rec[k].n[1];
			}
		}
		x->opt = d->arena + used;
		for (s = 0; s < 2; s++)
			for (j = 0; j < x->n[s]; j++) {
				uint64_t v = cg_num_get(&r, &g->code[j ? C_DELTA :
				    C_FIRST], &bad), *o = x->opt + (s ? x->n[0] :
				    0) + j;

				*o = j ? o[-1] + 1 + v : v;
				if (bad || *o < v || *o >= 2 * g->nrec)
					return -1;
			}
		used += nopt;
	}
	if (bad || cg_bitr_overrun(&r))
		return -1;
	d->block = b + 1;
	return 0;
}

int
kb_games_check(struct kb_games *g, char *err, size_t errlen)
{
	struct dblock *d = cg_xcalloc(1, sizeof *d);
	uint64_t b;
	int rc = 0;

	for (b = 0; b < g->nblocks && rc == 0; b++)
		if (decode_block(g, b, d) < 0) {
			snprintf(err, errlen, "%s: games dictionary block %llu is "
			    "damaged or malformed", g->path,
			    (unsigned long long)b + 1);
			rc = -1;
		}
	free(d->arena);
	free(d);
	return rc;
}

/* ------------------------------------------------------ making games */

#define NCACHE 16

struct build {
	struct kb_games *g;
	uint64_t root;
	struct dblock *cache;           /* [NCACHE], direct-mapped */
	struct frame { uint64_t rec; int expanded; } *stack;
	size_t sp, cap;
	uint64_t *onstack;              /* open-addressed set of records + 1 */
	size_t setcap, setn;
	cg_game *opt;
	size_t optcap;
	const char *why;
	cg_game result;
};

static int
set_has(const struct build *c, uint64_t rec)
{
	size_t i;

	if (c->setcap == 0)
		return 0;
	for (i = (rec * 0x9e3779b97f4a7c15ull) & (c->setcap - 1);
	    c->onstack[i] != 0; i = (i + 1) & (c->setcap - 1))
		if (c->onstack[i] == rec + 1)
			return 1;
	return 0;
}

static void
set_put(struct build *c, uint64_t rec, int on)
{
	size_t i, j, k;

	if (!on && c->setcap == 0)
		return;
	if (on && 2 * (c->setn + 1) > c->setcap) {
		uint64_t *old = c->onstack;
		size_t oldcap = c->setcap;

		c->setcap = c->setcap ? 2 * c->setcap : 64;
		c->onstack = cg_xcalloc(c->setcap, sizeof *c->onstack);
		c->setn = 0;
		for (k = 0; k < oldcap; k++)
			if (old[k] != 0)
				set_put(c, old[k] - 1, 1);
		free(old);
	}
	i = (rec * 0x9e3779b97f4a7c15ull) & (c->setcap - 1);
	while (c->onstack[i] != 0 && c->onstack[i] != rec + 1)
		i = (i + 1) & (c->setcap - 1);
	if (on) {
		if (c->onstack[i] == 0)
			c->setn++;
		c->onstack[i] = rec + 1;
		return;
	}
	if (c->onstack[i] == 0)
		return;
	/* remove, moving later members of the run back */
	c->onstack[i] = 0;
	c->setn--;
	for (j = (i + 1) & (c->setcap - 1); c->onstack[j] != 0;
	    j = (j + 1) & (c->setcap - 1)) {
		uint64_t v = c->onstack[j];

		c->onstack[j] = 0;
		c->setn--;
		set_put(c, v - 1, 1);
	}
}

static struct drec *
record(struct build *c, uint64_t rec)
{
	uint64_t b = rec / KB_GAMES_PER_BLOCK;
	struct dblock *d = &c->cache[b % NCACHE];

	if (d->block != b + 1 && decode_block(c->g, b, d) < 0) {
		d->block = 0;
		c->why = "a block of records is damaged or malformed";
		return NULL;
	}
	return &d->rec[rec % KB_GAMES_PER_BLOCK];
}

static void
push(struct build *c, uint64_t rec)
{
	if (c->sp == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		c->stack = cg_xreallocarray(c->stack, c->cap, sizeof *c->stack);
	}
	c->stack[c->sp].rec = rec;
	c->stack[c->sp++].expanded = 0;
}

static int
cmp_game(const void *a, const void *b)
{
	cg_game x = *(const cg_game *)a, y = *(const cg_game *)b;

	return x < y ? -1 : x > y;
}

/* Are g's options on side exactly opt[0..n-1] (sorted here)? */
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

static uint64_t
bound_of(struct kb_games *g, uint64_t rec)
{
	return atomic_load_explicit(&g->bound[rec], memory_order_acquire) - 1;
}

/* Make the game of record x (its options made). */
static int
make(struct build *c, uint64_t rec, struct drec *x)
{
	struct kb_games *g = c->g;
	uint64_t n = x->n[0] + x->n[1], i, bound = 2;
	cg_game made;
	struct cg_buf b;

	if (x->nus) {
		/* a big number was made when its block was read */
		if (x->exp > 62 && !x->big) {
			c->why = "a number's exponent is out of range";
			return -1;
		}
		made = cg_canon_nus(cg_dyadic_make(x->num, (int)(int64_t)x->exp),
		    x->up, x->nim);
		cg_buf_init(&b);
		cg_canon_print(made, &b);
		bound = b.len;
		cg_buf_free(&b);
	} else {
		if (n > c->optcap) {
			c->optcap = n;
			c->opt = cg_xreallocarray(c->opt, n, sizeof *c->opt);
		}
		for (i = 0; i < n; i++) {
			uint64_t o = x->opt[i], r = o >> 1;
			cg_game og = atomic_load_explicit(&g->game[r],
			    memory_order_acquire) - 1;

			c->opt[i] = (o & 1) ? cg_canon_neg(og) : og;
			bound += bound_of(g, r) + 1;
			if (bound > KB_PRINT_CAP)
				bound = KB_PRINT_CAP;
		}
		made = cg_canon_make(c->opt, x->n[0], c->opt + x->n[0],
		    x->n[1]);
		if (!same_options(made, CG_LEFT, c->opt, x->n[0]) ||
		    !same_options(made, CG_RIGHT, c->opt + x->n[0], x->n[1])) {
			c->why = "a game is not in canonical form";
			return -1;
		}
	}
	atomic_store_explicit(&g->bound[rec], bound + 1, memory_order_release);
	atomic_store_explicit(&g->game[rec], made + 1, memory_order_release);
	return 0;
}

/* Runs under cg_canon_catch_bounded: the store's limits are data
 * errors here. */
static void
build(void *arg)
{
	struct build *c = arg;
	struct kb_games *g = c->g;
	struct drec *x;
	uint64_t i;

	push(c, c->root);
	while (c->sp > 0) {
		struct frame *f = &c->stack[c->sp - 1];
		uint64_t rec = f->rec;

		if (atomic_load_explicit(&g->game[rec], memory_order_acquire)) {
			c->sp--;
			continue;
		}
		if ((x = record(c, rec)) == NULL)
			return;
		if (!f->expanded && !x->nus) {
			f->expanded = 1;
			set_put(c, rec, 1);
			for (i = 0; i < x->n[0] + x->n[1]; i++) {
				uint64_t o = x->opt[i] >> 1;

				if (atomic_load_explicit(&g->game[o],
				    memory_order_acquire))
					continue;
				if (set_has(c, o)) {
					c->why = "the records refer to each "
					    "other in a cycle";
					return;
				}
				push(c, o);
			}
			continue;
		}
		if (make(c, rec, x) < 0)
			return;
		set_put(c, rec, 0);
		c->sp--;
	}
	c->result = atomic_load_explicit(&g->game[c->root],
	    memory_order_acquire) - 1;
}

cg_game
kb_games_get(struct kb_games *g, uint64_t ref, char *err, size_t errlen)
{
	struct build c;
	char msg[256];
	uint64_t steps = g->max_steps, rec = ref >> 1;
	uint32_t have, neg;
	int rc, i;

	if (rec >= g->nrec) {
		snprintf(err, errlen, "%s: a value refers to no record", g->path);
		return CG_NO_GAME;
	}
	have = atomic_load_explicit(&g->game[rec], memory_order_acquire);
	if (have == 0) {
		memset(&c, 0, sizeof c);
		c.g = g;
		c.root = rec;
		c.result = CG_NO_GAME;
		c.cache = cg_xcalloc(NCACHE, sizeof *c.cache);
		rc = cg_canon_catch_bounded(build, &c, msg, sizeof msg, &steps);
		for (i = 0; i < NCACHE; i++)
			free(c.cache[i].arena);
		free(c.cache);
		free(c.stack);
		free(c.onstack);
		free(c.opt);
		if (rc < 0) {
			snprintf(err, errlen, "%s: games dictionary: a game is too "
			    "large (%s)", g->path, msg);
			return CG_NO_GAME;
		}
		if (c.result == CG_NO_GAME) {
			snprintf(err, errlen, "%s: games dictionary is malformed "
			    "(%s)", g->path, c.why ? c.why : "?");
			return CG_NO_GAME;
		}
		have = c.result + 1;
	}
	if (!(ref & 1))
		return have - 1;
	/* the store's cache of negatives is small; a base asks for
	 * millions */
	neg = atomic_load_explicit(&g->negative[rec], memory_order_acquire);
	if (neg == 0) {
		neg = cg_canon_neg(have - 1) + 1;
		atomic_store_explicit(&g->negative[rec], neg,
		    memory_order_release);
	}
	return neg - 1;
}

uint64_t
kb_games_print_bound(struct kb_games *g, uint64_t ref)
{
	uint64_t rec = ref >> 1;

	if (rec >= g->nrec || atomic_load_explicit(&g->game[rec],
	    memory_order_acquire) == 0)
		return KB_PRINT_CAP;
	/* a negative prints as long as the game, give or take its signs:
	 * one '-' more per number at most, which the bound of 2 per brace
	 * pair covers twice over */
	return 2 * bound_of(g, rec);
}
