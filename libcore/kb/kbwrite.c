/* kbwrite.c - writing a cgkb(5) base (see kbfile.h and cgkb(5)).
 *
 * Every kind's values are numbered by falling frequency, so that its
 * per-entry Huffman code is described by counts alone; a kind whose
 * value follows from another kind's (outcome from canon, say) is stored
 * as a column over that kind's values when that takes fewer bits than a
 * code per entry.  The blocks are streamed to a temporary file, the
 * header written last; the file depends only on the entries and the
 * metadata. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/jobs.h"
#include "base/util.h"
#include "base/watch.h"
#include "base/varint.h"
#include "kb/huff.h"
#include "kb/kbfile.h"
#include "kb/kbfmt.h"
#include "kb/kbgames.h"

struct wkind {
	int games;
	uint64_t ninput;          /* value ids of the source */
	uint64_t *count;          /* per input id */
	uint64_t absent;          /* entries without a value */
	uint64_t *vidx;           /* per input id: dictionary value */
	uint8_t *sign;            /* per input id (games) */
	uint64_t nvals;           /* dictionary values */
	uint8_t *selfneg;         /* per value (games) */
	uint64_t *vcount;         /* per value: entries */
	uint64_t absent_sym;      /* UINT64_MAX: none */
	uint64_t nsym;
	uint64_t nrefs;
	int store, base;
	uint32_t stride;
	uint8_t *len;             /* per symbol */
	struct cg_huff_enc code;
	struct cg_buf dict;
	uint64_t dict_checked;
	struct cg_buf column;
};

struct writer {
	const struct cg_kb_source *src;
	struct cg_kb_meta *m;
	uint32_t nk;
	struct wkind k[CG_KB_MAXKINDS];
	int ranked;
	struct cg_huff_enc run, gap;
	struct kb_section sec[KB_MAXSECTIONS];
	struct cg_buf secdata[KB_MAXSECTIONS]; /* all but the blocks */
	int nsec;
	int fd;
	unsigned jobs;            /* threads making blocks */
	uint64_t off;             /* bytes written so far */
	const char *path;
	char *err;
	size_t errlen;
};

static int
write_all(struct writer *w, const void *p, size_t n)
{
	const unsigned char *c = p;
	ssize_t r;

	while (n > 0) {
		r = write(w->fd, c, n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			snprintf(w->err, w->errlen, "%s: %s", w->path,
			    strerror(errno));
			return -1;
		}
		c += r;
		n -= (size_t)r;
		w->off += (uint64_t)r;
	}
	return 0;
}

/* ---------------------------------------------------- values and codes */

static uint64_t
ref_of(const struct wkind *k, uint64_t id)
{
	if (id == CG_KB_NOVALUE)
		return CG_KB_NOVALUE;
	return k->games ? 2 * k->vidx[id] + k->sign[id] : k->vidx[id];
}

static uint64_t
sym_of(const struct wkind *k, uint64_t id)
{
	uint64_t v;

	if (id == CG_KB_NOVALUE)
		return k->absent_sym;
	v = k->vidx[id];
	return v < k->absent_sym ? v : v + 1;
}

struct tsort {
	const struct cg_kb_source *src;
	uint32_t k;
	const uint64_t *count;
};

static int
cmp_text(const void *pa, const void *pb, void *arg)
{
	const struct tsort *t = arg;
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	if (t->count[a] != t->count[b])
		return t->count[a] > t->count[b] ? -1 : 1;
	return strcmp(t->src->text(t->src->ctx, t->k, a),
	    t->src->text(t->src->ctx, t->k, b));
}

/* A text dictionary: the values in order, in zlib blocks of about
 * KB_TEXT_BLOCK bytes. */
static int
text_dict(struct writer *w, uint32_t kk, const uint64_t *order)
{
	struct wkind *k = &w->k[kk];
	struct cg_buf raw, data, table;
	uint64_t i = 0, nb = 0, n;

	cg_buf_init(&raw);
	cg_buf_init(&data);
	cg_buf_init(&table);
	while (i < k->nvals) {
		uLongf clen;
		size_t at = data.len;

		raw.len = 0;
		for (n = 0; i < k->nvals && n < KB_TEXTS_PER_BLOCK; i++, n++) {
			const char *t = w->src->text(w->src->ctx, kk, order[i]);
			size_t tl = strlen(t) + 1;

			if (tl > KB_PRINT_MAX) {
				snprintf(w->err, w->errlen, "%s: a value of kind "
				    "'%s' of %zu bytes is too long for a text "
				    "dictionary", w->path, w->m->kinds[kk], tl);
				cg_buf_free(&raw);
				cg_buf_free(&data);
				cg_buf_free(&table);
				return -1;
			}
			if (n > 0 && raw.len + tl > KB_TEXT_BLOCK)
				break;
			cg_buf_add(&raw, t, tl);
		}
		clen = compressBound((uLong)raw.len);
		cg_buf_reserve(&data, clen);
		if (compress2(data.data + at, &clen, raw.data, (uLong)raw.len,
		    9) != Z_OK)
			cg_die(CG_EXIT_DATA, "zlib compression failed");
		data.len += clen;
		cg_put_le(&table, at, 8);
		cg_put_le(&table, clen, 4);
		cg_put_le(&table, raw.len, 4);
		cg_put_le(&table, kb_crc(data.data + at, clen), 4);
		cg_put_le(&table, n, 4);
		nb++;
	}
	cg_put_le(&k->dict, k->nvals, 8);
	cg_put_le(&k->dict, nb, 8);
	cg_buf_add(&k->dict, table.data, table.len);
	k->dict_checked = k->dict.len;
	cg_buf_add(&k->dict, data.data, data.len);
	cg_buf_free(&raw);
	cg_buf_free(&data);
	cg_buf_free(&table);
	return 0;
}

/* Count the values, number them by frequency, make the dictionaries:
 * 0, or -1 with a message. */
static int
values(struct writer *w)
{
	const struct cg_kb_source *src = w->src;
	uint64_t i, id, v, nused, need;
	uint32_t kk;

	/* the tables below, about 20 bytes a value id and 40 a game of
	 * the store: never past the memory limit */
	for (kk = 0, need = 0; kk < w->nk; kk++)
		need += src->nvalues[kk] * 20 + (src->games[kk] ?
		    (uint64_t)cg_canon_count() * 40 : 0);
	if (!cg_watch_room(need)) {
		snprintf(w->err, w->errlen, "%s: %s while writing (about %llu "
		    "MB more needed)", w->path, cg_stop_reason(),
		    (unsigned long long)(need >> 20));
		return -1;
	}
	for (kk = 0; kk < w->nk; kk++) {
		struct wkind *k = &w->k[kk];

		k->games = src->games[kk];
		k->ninput = src->nvalues[kk];
		k->count = cg_xcalloc(k->ninput + 1, sizeof *k->count);
	}
	for (i = 0; i < src->n; i++)
		for (kk = 0; kk < w->nk; kk++) {
			id = src->value(src->ctx, i, kk);
			if (id == CG_KB_NOVALUE)
				w->k[kk].absent++;
			else if (id < w->k[kk].ninput)
				w->k[kk].count[id]++;
			else
				cg_die(CG_EXIT_DATA, "internal error: value id "
				    "out of range");
		}
	for (kk = 0; kk < w->nk; kk++) {
		struct wkind *k = &w->k[kk];

		cg_buf_init(&k->dict);
		cg_buf_init(&k->column);
		if (k->games) {
			cg_game *g = cg_xmalloc((k->ninput + 1) * sizeof *g);
			struct kb_games_w gw;

			for (id = 0; id < k->ninput; id++)
				g[id] = src->game(src->ctx, kk, id);
			kb_games_write(g, k->count, k->ninput, &gw, &k->dict);
			free(g);
			k->dict_checked = gw.checked;
			k->vidx = gw.vidx;
			k->sign = gw.sign;
			k->selfneg = gw.selfneg;
			k->vcount = gw.count;
			k->nvals = gw.nvalues;
			k->nrefs = 2 * k->nvals;
			gw.vidx = NULL;
			gw.sign = NULL;
			gw.selfneg = NULL;
			gw.count = NULL;
			kb_games_w_free(&gw);
		} else {
			uint64_t *order = cg_xmalloc((k->ninput + 1) *
			    sizeof *order);
			struct tsort t = { src, kk, k->count };

			for (id = 0, nused = 0; id < k->ninput; id++)
				if (k->count[id] > 0)
					order[nused++] = id;
			qsort_r(order, nused, sizeof *order, cmp_text, &t);
			k->vidx = cg_xmalloc((k->ninput + 1) * sizeof *k->vidx);
			k->vcount = cg_xmalloc((nused + 1) * sizeof *k->vcount);
			for (id = 0; id < k->ninput; id++)
				k->vidx[id] = UINT64_MAX;
			for (v = 0; v < nused; v++) {
				k->vidx[order[v]] = v;
				k->vcount[v] = k->count[order[v]];
			}
			k->nvals = nused;
			k->nrefs = nused;
			if (text_dict(w, kk, order) < 0) {
				free(order);
				return -1;
			}
			free(order);
		}
		/* no value is a symbol too, in its place by frequency */
		k->absent_sym = UINT64_MAX;
		if (k->absent > 0) {
			for (v = 0; v < k->nvals && k->vcount[v] >= k->absent; v++)
				;
			k->absent_sym = v;
		}
		k->nsym = k->nvals + (k->absent > 0);
	}
	return 0;
}

/* Code lengths of each kind's symbols, and the bits a code per entry
 * costs. */
static uint64_t
entry_code(struct wkind *k)
{
	uint64_t *cnt = cg_xcalloc(k->nsym + 1, sizeof *cnt), s, bits = 0, v;

	for (v = 0; v < k->nvals; v++)
		cnt[v < k->absent_sym ? v : v + 1] = k->vcount[v];
	if (k->absent_sym != UINT64_MAX)
		cnt[k->absent_sym] = k->absent;
	k->len = cg_xmalloc(k->nsym + 1);
	cg_huff_lengths(cnt, k->nsym, 24, k->len);
	for (s = 0; s < k->nsym; s++)
		bits += cnt[s] * k->len[s];
	for (v = 0; k->games && v < k->nvals; v++)
		if (!k->selfneg[v])
			bits += k->vcount[v];   /* the sign */
	free(cnt);
	return bits;
}

static unsigned
bitlen(uint64_t v)
{
	return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

/* Is kind d a function of kind b over the entries?  Then col[ref of b]
 * is d's ref + 1 (0: no value). */
static uint64_t *
functional(struct writer *w, uint32_t d, uint32_t b)
{
	const struct cg_kb_source *src = w->src;
	struct wkind *kd = &w->k[d], *kb = &w->k[b];
	uint64_t *col = cg_xcalloc(kb->nrefs + 1, sizeof *col), i, rb, rd;
	unsigned char *seen = cg_xcalloc(kb->nrefs + 1, 1);

	for (i = 0; i < src->n; i++) {
		rb = ref_of(kb, src->value(src->ctx, i, b));
		rd = ref_of(kd, src->value(src->ctx, i, d));
		if (rb == CG_KB_NOVALUE) {
			if (rd != CG_KB_NOVALUE)
				goto no;
			continue;
		}
		rd = rd == CG_KB_NOVALUE ? 0 : rd + 1;
		if (seen[rb] && col[rb] != rd)
			goto no;
		seen[rb] = 1;
		col[rb] = rd;
	}
	free(seen);
	return col;
no:
	free(seen);
	free(col);
	return NULL;
}

static int
by_refs(const void *pa, const void *pb, void *arg)
{
	const struct writer *w = arg;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	if (w->k[a].nrefs != w->k[b].nrefs)
		return w->k[a].nrefs > w->k[b].nrefs ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Per entry or as a column: whichever takes fewer bits. */
static void
storage(struct writer *w)
{
	uint32_t order[CG_KB_MAXKINDS], i, j, d, b;
	uint64_t cost[CG_KB_MAXKINDS];

	for (i = 0; i < w->nk; i++) {
		order[i] = i;
		cost[i] = entry_code(&w->k[i]);
		w->k[i].store = STORE_ENTRY;
		w->k[i].base = -1;
	}
	qsort_r(order, w->nk, sizeof *order, by_refs, w);
	for (i = 1; i < w->nk; i++) {
		d = order[i];
		for (j = 0; j < i; j++) {
			uint64_t *col, wbits, r;
			struct cg_bitw bw;

			b = order[j];
			if (w->k[b].store != STORE_ENTRY)
				continue;
			wbits = bitlen(w->k[d].nrefs);
			if (wbits == 0)
				wbits = 1;
			if (w->k[b].nrefs * wbits >= cost[d])
				continue;
			col = functional(w, d, b);
			if (col == NULL)
				continue;
			w->k[d].store = STORE_COLUMN;
			w->k[d].base = (int)b;
			cg_bitw_init(&bw, &w->k[d].column);
			for (r = 0; r < w->k[b].nrefs; r++)
				cg_bitw_put(&bw, col[r], (unsigned)wbits);
			cg_bitw_flush(&bw);
			/* room for a 64-bit read at any field */
			cg_buf_add(&w->k[d].column, "\0\0\0\0\0\0\0\0", 8);
			free(col);
			break;
		}
	}
	for (i = 0; i < w->nk; i++) {
		struct wkind *k = &w->k[i];

		if (k->store != STORE_ENTRY)
			continue;
		cg_huff_enc_init(&k->code, k->len, k->nsym);
		/* long codes get marks to jump by */
		k->stride = w->src->n > 0 && cost[i] > 4 * w->src->n ?
		    KB_STRIDE : 0;
	}
}

/* ------------------------------------------------------------- blocks */

/* The blocks written: their index, and the membership code's counts. */
struct blocks {
	struct writer *w;
	struct cg_buf index, heap;
	uint64_t nblocks;
	uint64_t run_cnt[CG_NUM_CLASSES], gap_cnt[CG_NUM_CLASSES];
};

/* Where block boundaries fall: block_members entries, fewer for a base
 * of keys whose front-coded keys pass block_size bytes. */
static uint64_t
block_end(struct writer *w, uint64_t i)
{
	const struct cg_kb_source *src = w->src;
	uint64_t e = i, keybytes = 0;
	size_t len;

	while (e < src->n && e - i < w->m->block_members) {
		if (!w->ranked) {
			src->key(src->ctx, e, &len);
			if (e > i && keybytes + len > w->m->block_size)
				break;
			keybytes += len + 2;
		}
		e++;
	}
	return e;
}

/* The membership code: counted over every block first. */
static void
count_runs(struct blocks *bk)
{
	struct writer *w = bk->w;
	uint64_t i = 0, e, j, run;

	while (i < w->src->n) {
		e = block_end(w, i);
		run = 1;
		for (j = i + 1; j <= e; j++) {
			uint64_t prev = w->src->rank(w->src->ctx, j - 1);

			if (j < e && w->src->rank(w->src->ctx, j) == prev + 1) {
				run++;
				continue;
			}
			bk->run_cnt[cg_num_class(run - 1)]++;
			if (j < e)
				bk->gap_cnt[cg_num_class(w->src->rank(w->src->ctx,
				    j) - prev - 2)]++;
			run = 1;
		}
		i = e;
	}
}

/* A worker's buffers for making blocks. */
struct enc {
	struct writer *w;
	struct cg_buf blk, part, keys, prev;
	size_t toolong;           /* a key too long for the format */
};

/* group_one on groups from a first one. */
struct at {
	struct groups *gr;
	uint64_t first;
};

static void group_one(void *ctx, size_t g);

static void
group_one_at(void *ctx, size_t i)
{
	struct at *a = ctx;

	group_one(a->gr, a->first + i);
}

static void
put_membership(struct enc *bk, uint64_t i, uint64_t e)
{
	struct writer *w = bk->w;
	struct cg_bitw bw;
	uint64_t j, run = 1;

	bk->part.len = 0;
	cg_bitw_init(&bw, &bk->part);
	for (j = i + 1; j <= e; j++) {
		uint64_t prev = w->src->rank(w->src->ctx, j - 1);

		if (j < e && w->src->rank(w->src->ctx, j) == prev + 1) {
			run++;
			continue;
		}
		cg_num_put(&bw, &w->run, run - 1);
		if (j < e)
			cg_num_put(&bw, &w->gap, w->src->rank(w->src->ctx, j) -
			    prev - 2);
		run = 1;
	}
	cg_bitw_flush(&bw);
	cg_put_varint(&bk->blk, bk->part.len);
	cg_buf_add(&bk->blk, bk->part.data, bk->part.len);
}

static int
put_keys(struct enc *bk, uint64_t i, uint64_t e)
{
	struct writer *w = bk->w;
	uint64_t j;
	size_t len, shared;
	uLongf clen;
	const unsigned char *key;

	bk->keys.len = 0;
	bk->prev.len = 0;
	for (j = i; j < e; j++) {
		key = w->src->key(w->src->ctx, j, &len);
		if (len > KB_MAX_KEY) {
			bk->toolong = len;
			return -1;
		}
		for (shared = 0; shared < bk->prev.len && shared < len &&
		    bk->prev.data[shared] == key[shared]; shared++)
			;
		cg_put_varint(&bk->keys, shared);
		cg_put_varint(&bk->keys, len - shared);
		cg_buf_add(&bk->keys, key + shared, len - shared);
		bk->prev.len = 0;
		cg_buf_add(&bk->prev, key, len);
	}
	clen = compressBound((uLong)bk->keys.len);
	bk->part.len = 0;
	cg_buf_reserve(&bk->part, clen);
	if (compress2(bk->part.data, &clen, bk->keys.data,
	    (uLong)bk->keys.len, 9) != Z_OK)
		cg_die(CG_EXIT_DATA, "zlib compression failed");
	cg_put_varint(&bk->blk, clen);
	cg_put_varint(&bk->blk, bk->keys.len);
	cg_buf_add(&bk->blk, bk->part.data, clen);
	return 0;
}

static void
put_stream(struct enc *bk, uint32_t kk, uint64_t i, uint64_t e)
{
	struct writer *w = bk->w;
	struct wkind *k = &w->k[kk];
	struct cg_bitw bw;
	uint64_t j, id, marks[KB_MAX_MEMBERS / KB_STRIDE + 1];
	size_t nm = 0, m;

	bk->part.len = 0;
	cg_bitw_init(&bw, &bk->part);
	for (j = i; j < e; j++) {
		if (k->stride && j > i && (j - i) % k->stride == 0)
			marks[nm++] = bw.bits;
		id = w->src->value(w->src->ctx, j, kk);
		cg_huff_put(&bw, &k->code, sym_of(k, id));
		if (k->games && id != CG_KB_NOVALUE &&
		    !k->selfneg[k->vidx[id]])
			cg_bitw_put(&bw, k->sign[id], 1);
	}
	cg_bitw_flush(&bw);
	cg_put_varint(&bk->blk, bk->part.len);
	for (m = 0; m < nm; m++)
		cg_put_varint(&bk->blk, marks[m]);
	cg_buf_add(&bk->blk, bk->part.data, bk->part.len);
}

/* One block, i .. e, into e->blk with its checksum. */
static int
encode_block(struct enc *bk, uint64_t i, uint64_t e)
{
	struct writer *w = bk->w;
	uint32_t kk;

	bk->blk.len = 0;
	cg_put_varint(&bk->blk, e - i);
	if (w->ranked)
		put_membership(bk, i, e);
	else if (put_keys(bk, i, e) < 0)
		return -1;
	for (kk = 0; kk < w->nk; kk++)
		if (w->k[kk].store == STORE_ENTRY)
			put_stream(bk, kk, i, e);
	cg_put_le(&bk->blk, kb_crc(bk->blk.data, bk->blk.len), 4);
	return 0;
}

/* Blocks are made GROUP at a time on every core, then written in order. */
#define GROUP 64

struct groups {
	struct writer *w;
	const uint64_t *start;    /* each block's first entry; nblocks + 1 */
	uint64_t nblocks;
	struct cg_buf *out;       /* per group: its blocks */
	uint64_t *blen;           /* per block: bytes */
	struct enc enc[CG_MAX_JOBS];
	_Atomic size_t toolong;
};

static void
group_one(void *ctx, size_t g)
{
	struct groups *gr = ctx;
	struct enc *bk = &gr->enc[cg_worker];
	uint64_t b;

	bk->w = gr->w;
	for (b = g * GROUP; b < gr->nblocks && b < (g + 1) * GROUP; b++) {
		if (encode_block(bk, gr->start[b], gr->start[b + 1]) < 0) {
			atomic_store(&gr->toolong, bk->toolong);
			return;
		}
		cg_buf_add(&gr->out[g], bk->blk.data, bk->blk.len);
		gr->blen[b] = bk->blk.len;
	}
}

static int
write_blocks(struct writer *w, struct blocks *bk)
{
	const struct cg_kb_source *src = w->src;
	struct groups gr;
	uint64_t i = 0, b, ng, g, off = 0, cap = 1024;
	uint64_t *start = cg_xmalloc(cap * sizeof *start);
	unsigned j;
	size_t len;
	int rc = 0;

	/* where the blocks begin */
	start[0] = 0;
	for (b = 0; i < src->n; b++) {
		i = block_end(w, i);
		if (b + 2 > cap) {
			cap *= 2;
			start = cg_xreallocarray(start, cap, sizeof *start);
		}
		start[b + 1] = i;
	}
	memset(&gr, 0, sizeof gr);
	gr.w = w;
	gr.start = start;
	gr.nblocks = b;
	ng = (b + GROUP - 1) / GROUP;
	gr.out = cg_xcalloc(ng ? ng : 1, sizeof *gr.out);
	gr.blen = cg_xmalloc((b ? b : 1) * sizeof *gr.blen);
	/* a few groups at a time: their bytes are held until written */
	for (g = 0; g < ng && rc == 0; g += 16) {
		uint64_t ge = g + 16 < ng ? g + 16 : ng, x;

		cg_parallel_for(ge - g, w->jobs, 1, group_one_at, &(struct at){
		    &gr, g });
		if (atomic_load(&gr.toolong)) {
			snprintf(w->err, w->errlen, "%s: a key of %zu bytes is "
			    "too long", w->path, atomic_load(&gr.toolong));
			rc = -1;
			break;
		}
		for (x = g; x < ge && rc == 0; x++) {
			for (b = x * GROUP; b < gr.nblocks && b < (x + 1) * GROUP;
			    b++) {
				i = start[b];
				if (w->ranked) {
					cg_put_le(&bk->index, src->rank(src->ctx, i),
					    8);
				} else {
					const unsigned char *key = src->key(src->ctx,
					    i, &len);

					cg_put_le(&bk->index, bk->heap.len, 8);
					cg_put_le(&bk->heap, len, 2);
					cg_buf_add(&bk->heap, key, len);
				}
				cg_put_le(&bk->index, off, 8);
				off += gr.blen[b];
				bk->nblocks++;
			}
			rc = write_all(w, gr.out[x].data, gr.out[x].len);
			cg_buf_free(&gr.out[x]);
		}
	}
	for (j = 0; j < CG_MAX_JOBS; j++) {
		cg_buf_free(&gr.enc[j].blk);
		cg_buf_free(&gr.enc[j].part);
		cg_buf_free(&gr.enc[j].keys);
		cg_buf_free(&gr.enc[j].prev);
	}
	for (g = 0; g < ng; g++)
		cg_buf_free(&gr.out[g]);
	free(gr.out);
	free(gr.blen);
	free(start);
	return rc;
}

/* ------------------------------------------------------------- layout */

static void
add_section(struct writer *w, uint32_t type, uint32_t kind,
    struct cg_buf *data, uint64_t checked)
{
	struct kb_section *s = &w->sec[w->nsec];

	s->type = type;
	s->kind = kind;
	s->len = data ? data->len : 0;
	s->checked = checked;
	s->crc = data ? kb_crc(data->data, checked) : 0;
	if (data) {
		w->secdata[w->nsec] = *data;
		cg_buf_init(data);
	} else {
		cg_buf_init(&w->secdata[w->nsec]);
	}
	w->nsec++;
}

static void
put_str(struct cg_buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	cg_put_le(b, n, 2);
	cg_buf_add(b, s ? s : "", n);
}

static void
header(struct writer *w, struct cg_buf *h, uint64_t size)
{
	struct cg_kb_meta *m = w->m;
	uint32_t kk;
	int i;

	h->len = 0;
	cg_buf_add(h, cg_kb_magic, sizeof cg_kb_magic);
	cg_put_le(h, CG_KB_FORMAT, 4);
	cg_put_le(h, size, 4);
	cg_put_le(h, w->src->n, 8);
	cg_put_le(h, m->slots, 8);
	cg_put_le(h, m->shard_k, 4);
	cg_put_le(h, m->shard_n, 4);
	cg_put_le(h, w->ranked ? KB_RANKED : 0, 4);
	cg_put_le(h, m->block_members, 4);
	cg_put_le(h, m->block_size, 4);
	cg_put_le(h, w->nk, 4);
	cg_put_le(h, (uint64_t)w->nsec, 4);
	put_str(h, m->ruleset);
	put_str(h, m->params);
	put_str(h, m->plugin_version);
	put_str(h, m->family);
	put_str(h, m->index_family);
	for (kk = 0; kk < w->nk; kk++)
		put_str(h, m->kinds[kk]);
	for (kk = 0; kk < w->nk; kk++) {
		struct wkind *k = &w->k[kk];

		cg_put_le(h, k->games ? DICT_GAMES : DICT_TEXT, 1);
		cg_put_le(h, (uint64_t)k->store, 1);
		cg_put_le(h, k->store == STORE_COLUMN ? (uint64_t)k->base : 0,
		    2);
		cg_put_le(h, k->stride, 4);
		cg_put_le(h, k->nvals, 8);
		cg_put_le(h, k->absent_sym, 8);
	}
	for (i = 0; i < w->nsec; i++) {
		cg_put_le(h, w->sec[i].type, 4);
		cg_put_le(h, w->sec[i].kind, 4);
		cg_put_le(h, w->sec[i].off, 8);
		cg_put_le(h, w->sec[i].len, 8);
		cg_put_le(h, w->sec[i].checked, 8);
		cg_put_le(h, w->sec[i].crc, 4);
	}
	cg_put_le(h, kb_crc(h->data, h->len), 4);
}

static void
writer_free(struct writer *w)
{
	uint32_t kk;
	int i;

	for (kk = 0; kk < w->nk; kk++) {
		struct wkind *k = &w->k[kk];

		free(k->count);
		free(k->vidx);
		free(k->sign);
		free(k->selfneg);
		free(k->vcount);
		free(k->len);
		cg_huff_enc_free(&k->code);
		cg_buf_free(&k->dict);
		cg_buf_free(&k->column);
	}
	cg_huff_enc_free(&w->run);
	cg_huff_enc_free(&w->gap);
	for (i = 0; i < w->nsec; i++)
		cg_buf_free(&w->secdata[i]);
}

/* Make the rename durable. */
static void
sync_dir(const char *path)
{
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

int
cg_kbfile_write(const struct cg_kb_source *src, struct cg_kb_meta *m,
    const char *path, char *err, size_t errlen)
{
	struct writer w;
	struct blocks bk;
	struct cg_buf h, mc;
	uint64_t hsize, blocks_off;
	uint32_t kk;
	char *tmp;
	int i, isec_blocks, rc = -1;
	mode_t um;

	memset(&w, 0, sizeof w);
	memset(&bk, 0, sizeof bk);
	w.src = src;
	w.m = m;
	w.nk = m->nkinds;
	w.path = path;
	w.err = err;
	w.errlen = errlen;
	w.ranked = m->index_family != NULL && *m->index_family;
	w.fd = -1;
	w.jobs = cg_jobs_default();
	if (m->block_members == 0 || m->block_members > KB_MAX_MEMBERS)
		m->block_members = CG_KB_MEMBERS_DEFAULT;
	if (w.ranked && src->rank == NULL)
		cg_die(CG_EXIT_DATA, "internal error: a base of slots without "
		    "slots");
	if (values(&w) < 0) {
		writer_free(&w);
		return -1;
	}
	storage(&w);
	m->count = src->n;
	m->games = 0;
	for (kk = 0; kk < w.nk; kk++)
		m->games |= w.k[kk].games;
	bk.w = &w;
	cg_buf_init(&bk.index);
	cg_buf_init(&bk.heap);
	cg_buf_init(&h);
	cg_buf_init(&mc);
	/* the sections held in memory: codes, dictionaries, columns */
	if (w.ranked) {
		uint8_t len[CG_NUM_CLASSES];

		count_runs(&bk);
		cg_huff_lengths(bk.run_cnt, CG_NUM_CLASSES, 24, len);
		cg_huff_enc_init(&w.run, len, CG_NUM_CLASSES);
		cg_huff_put_lengths(&mc, len, CG_NUM_CLASSES);
		cg_huff_lengths(bk.gap_cnt, CG_NUM_CLASSES, 24, len);
		cg_huff_enc_init(&w.gap, len, CG_NUM_CLASSES);
		cg_huff_put_lengths(&mc, len, CG_NUM_CLASSES);
		add_section(&w, SEC_CODE, KB_NOKIND, &mc, mc.len);
	}
	for (kk = 0; kk < w.nk; kk++) {
		struct wkind *k = &w.k[kk];

		if (k->store == STORE_ENTRY) {
			cg_huff_put_counts(&mc, k->len, k->nsym);
			add_section(&w, SEC_CODE, kk, &mc, mc.len);
		}
		add_section(&w, k->games ? SEC_GAMES : SEC_TEXT, kk, &k->dict,
		    k->dict_checked);
		if (k->store == STORE_COLUMN)
			add_section(&w, SEC_COLUMN, kk, &k->column,
			    k->column.len);
	}
	isec_blocks = w.nsec;
	add_section(&w, SEC_BLOCKS, KB_NOKIND, NULL, 0);
	add_section(&w, SEC_INDEX, KB_NOKIND, NULL, 0);
	/* the header's size: fixed fields, strings, kinds, sections */
	header(&w, &h, 0);
	hsize = h.len;

	tmp = cg_xmalloc(strlen(path) + 16);
	sprintf(tmp, "%s.tmpXXXXXX", path);
	w.fd = mkstemp(tmp);
	if (w.fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(tmp);
		tmp = NULL;
		goto out;
	}
	um = umask(0);
	umask(um);
	if (fchmod(w.fd, 0666 & ~um) < 0 ||
	    lseek(w.fd, (off_t)hsize, SEEK_SET) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	w.off = hsize;
	for (i = 0; i < isec_blocks; i++) {
		w.sec[i].off = w.off;
		if (write_all(&w, w.secdata[i].data, w.secdata[i].len) < 0)
			goto out;
	}
	blocks_off = w.off;
	if (write_blocks(&w, &bk) < 0)
		goto out;
	w.sec[isec_blocks].off = blocks_off;
	w.sec[isec_blocks].len = w.off - blocks_off;
	/* the index: block count, then first slot or key and offset */
	mc.len = 0;
	cg_put_le(&mc, bk.nblocks, 8);
	cg_buf_add(&mc, bk.index.data, bk.index.len);
	cg_buf_add(&mc, bk.heap.data, bk.heap.len);
	w.sec[isec_blocks + 1].off = w.off;
	w.sec[isec_blocks + 1].len = mc.len;
	w.sec[isec_blocks + 1].checked = mc.len;
	w.sec[isec_blocks + 1].crc = kb_crc(mc.data, mc.len);
	if (write_all(&w, mc.data, mc.len) < 0)
		goto out;
	header(&w, &h, hsize);
	if (h.len != hsize)
		cg_die(CG_EXIT_DATA, "internal error: header size changed");
	if (lseek(w.fd, 0, SEEK_SET) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	w.off = 0;
	if (write_all(&w, h.data, h.len) < 0)
		goto out;
	if (fsync(w.fd) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (close(w.fd) < 0) {
		w.fd = -1;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	w.fd = -1;
	if (rename(tmp, path) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	sync_dir(path);
	free(tmp);
	tmp = NULL;
	rc = 0;
out:
	if (w.fd >= 0)
		close(w.fd);
	if (tmp != NULL) {
		unlink(tmp);
		free(tmp);
	}
	cg_buf_free(&bk.index);
	cg_buf_free(&bk.heap);
	cg_buf_free(&h);
	cg_buf_free(&mc);
	writer_free(&w);
	return rc;
}
