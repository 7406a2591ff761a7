/* huff.c - canonical Huffman codes and bit streams (see huff.h). */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/varint.h"
#include "kb/huff.h"

/* --------------------------------------------------------------- bits */

void
cg_bitw_init(struct cg_bitw *w, struct cg_buf *out)
{
	w->out = out;
	w->acc = 0;
	w->n = 0;
	w->bits = 0;
}

void
cg_bitw_put(struct cg_bitw *w, uint64_t v, unsigned nbits)
{
	if (nbits == 0)
		return;
	w->acc = (w->acc << nbits) | (v & ((1ull << nbits) - 1));
	w->n += nbits;
	w->bits += nbits;
	while (w->n >= 8) {
		w->n -= 8;
		cg_buf_addc(w->out, (int)(w->acc >> w->n) & 0xff);
	}
}

void
cg_bitw_flush(struct cg_bitw *w)
{
	if (w->n > 0) {
		cg_buf_addc(w->out, (int)(w->acc << (8 - w->n)) & 0xff);
		w->bits += 8 - w->n;
		w->n = 0;
	}
	w->acc = 0;
}

/* -------------------------------------------------------- code lengths */

struct leaf {
	uint64_t count;
	uint32_t sym;
};

/* By count, then the larger symbol first: it is the one to get the
 * longer codeword. */
static int
cmp_leaf(const void *pa, const void *pb)
{
	const struct leaf *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count < b->count ? -1 : 1;
	return a->sym > b->sym ? -1 : a->sym < b->sym;
}

#define DEPTHS 128

void
cg_huff_lengths(const uint64_t *count, size_t n, unsigned maxlen,
    uint8_t *len)
{
	struct leaf *lf;
	uint64_t *w, bits[DEPTHS];
	size_t *parent, m = 0, i, k, q1 = 0, q2, nint, a, b;
	unsigned *depth, d, j, top = 0;

	memset(len, 0, n);
	for (i = 0; i < n; i++)
		m += count[i] != 0;
	if (m == 0)
		return;
	lf = cg_xmalloc(m * sizeof *lf);
	for (i = 0, k = 0; i < n; i++)
		if (count[i] != 0) {
			lf[k].count = count[i];
			lf[k++].sym = (uint32_t)i;
		}
	if (m == 1) {
		len[lf[0].sym] = 1;
		free(lf);
		return;
	}
	while (maxlen < CG_HUFF_MAXLEN && ((uint64_t)1 << maxlen) < m)
		maxlen++;
	qsort(lf, m, sizeof *lf, cmp_leaf);
	/* two queues: the sorted leaves, and the internal nodes, which are
	 * made in order of weight */
	w = cg_xmalloc((2 * m) * sizeof *w);
	parent = cg_xmalloc((2 * m) * sizeof *parent);
	depth = cg_xmalloc((2 * m) * sizeof *depth);
	for (i = 0; i < m; i++)
		w[i] = lf[i].count;
	q2 = m;
	nint = m;
	for (k = 0; k + 1 < m; k++) {
		if (q1 < m && (q2 >= nint || w[q1] <= w[q2]))
			a = q1++;
		else
			a = q2++;
		if (q1 < m && (q2 >= nint || w[q1] <= w[q2]))
			b = q1++;
		else
			b = q2++;
		w[nint] = w[a] + w[b];
		parent[a] = parent[b] = nint;
		nint++;
	}
	depth[nint - 1] = 0;
	memset(bits, 0, sizeof bits);
	for (i = nint - 1; i-- > 0;) {
		depth[i] = depth[parent[i]] + 1;
		if (depth[i] >= DEPTHS)
			depth[i] = DEPTHS - 1;  /* weights over 2^64 only */
		if (i < m) {
			bits[depth[i]]++;
			if (depth[i] > top)
				top = depth[i];
		}
	}
	/* longest codewords folded up to maxlen, the Kraft sum kept at 1
	 * (JPEG's adjustment, ITU T.81 K.3) */
	for (d = top; d > maxlen; d--)
		while (bits[d] > 0) {
			j = d - 2;
			while (bits[j] == 0)
				j--;
			bits[d] -= 2;
			bits[d - 1]++;
			bits[j + 1] += 2;
			bits[j]--;
		}
	/* the most frequent symbols take the shortest lengths */
	k = m;
	for (d = 1; d <= maxlen; d++)
		while (bits[d]-- > 0)
			len[lf[--k].sym] = (uint8_t)d;
	free(w);
	free(parent);
	free(depth);
	free(lf);
}

/* ------------------------------------------------------------ encoder */

void
cg_huff_enc_init(struct cg_huff_enc *e, const uint8_t *len, size_t n)
{
	uint32_t count[CG_HUFF_MAXLEN + 1] = { 0 }, next[CG_HUFF_MAXLEN + 2];
	uint32_t code = 0;
	size_t i;
	unsigned l;

	e->n = n;
	e->len = cg_xmalloc(n ? n : 1);
	e->code = cg_xmalloc((n ? n : 1) * sizeof *e->code);
	if (n > 0)
		memcpy(e->len, len, n);
	for (i = 0; i < n; i++)
		count[len[i]]++;
	count[0] = 0;
	for (l = 1; l <= CG_HUFF_MAXLEN; l++) {
		code = (code + count[l - 1]) << 1;
		next[l] = code;
	}
	for (i = 0; i < n; i++)
		e->code[i] = len[i] ? next[len[i]]++ : 0;
}

void
cg_huff_enc_free(struct cg_huff_enc *e)
{
	free(e->len);
	free(e->code);
	e->len = NULL;
	e->code = NULL;
	e->n = 0;
}

/* ------------------------------------------------------------ decoder */

/* Limits, bases and the fast table from counts per length. */
static int
dec_tables(struct cg_huff_dec *d, const uint64_t *count, unsigned maxlen)
{
	uint64_t code = 0, first, idx = 0, c, f;
	unsigned l;

	memset(d->fast, 0, sizeof d->fast);
	memset(d->limit, 0, sizeof d->limit);
	memset(d->base, 0, sizeof d->base);
	d->maxlen = maxlen;
	for (l = 1; l <= maxlen; l++) {
		code = (code + (l > 1 ? count[l - 1] : 0)) << 1;
		first = code;
		if (first + count[l] > ((uint64_t)1 << l))
			return -1;      /* over-full: no prefix code */
		d->limit[l] = (first + count[l]) << (32 - l);
		d->base[l] = (int64_t)first - (int64_t)idx;
		if (l <= CG_HUFF_FAST)
			for (c = first; c < first + count[l]; c++)
				for (f = c << (CG_HUFF_FAST - l);
				    f < (c + 1) << (CG_HUFF_FAST - l); f++)
					d->fast[f] = (uint32_t)((idx + c - first)
					    << 5 | l);
		idx += count[l];
	}
	return 0;
}

int
cg_huff_dec_counts(struct cg_huff_dec *d, const uint64_t *count,
    unsigned maxlen)
{
	uint64_t n = 0;
	unsigned l;

	d->sym = NULL;
	if (maxlen > CG_HUFF_MAXLEN)
		return -1;
	for (l = 1; l <= maxlen; l++) {
		if (count[l] > ((uint64_t)1 << l))
			return -1;
		n += count[l];
	}
	if (n > UINT32_MAX)
		return -1;
	d->n = (uint32_t)n;
	return dec_tables(d, count, maxlen);
}

int
cg_huff_dec_init(struct cg_huff_dec *d, const uint8_t *len, size_t n)
{
	uint64_t count[CG_HUFF_MAXLEN + 1] = { 0 }, at[CG_HUFF_MAXLEN + 1];
	unsigned maxlen = 0, l;
	size_t i;

	d->sym = NULL;
	if (n > UINT32_MAX)
		return -1;
	for (i = 0; i < n; i++) {
		if (len[i] > CG_HUFF_MAXLEN)
			return -1;
		count[len[i]]++;
		if (len[i] > maxlen)
			maxlen = len[i];
	}
	count[0] = 0;
	d->n = (uint32_t)n;
	if (maxlen == 0) {      /* no symbol: every read fails */
		memset(d->fast, 0, sizeof d->fast);
		d->maxlen = 0;
		return 0;
	}
	if (dec_tables(d, count, maxlen) < 0)
		return -1;
	d->sym = cg_xmalloc((n ? n : 1) * sizeof *d->sym);
	at[1] = 0;
	for (l = 2; l <= maxlen; l++)
		at[l] = at[l - 1] + count[l - 1];
	for (i = 0; i < n; i++)
		if (len[i])
			d->sym[at[len[i]]++] = (uint32_t)i;
	return 0;
}

void
cg_huff_dec_free(struct cg_huff_dec *d)
{
	free(d->sym);
	d->sym = NULL;
}

/* ------------------------------------------------------- descriptions */

void
cg_huff_put_lengths(struct cg_buf *b, const uint8_t *len, size_t n)
{
	cg_put_varint(b, n);
	cg_buf_add(b, len, n);
}

int
cg_huff_get_lengths(struct cg_rd *r, struct cg_huff_dec *d, size_t maxsym)
{
	uint64_t n = cg_get_varint(r);
	const unsigned char *len;

	if (r->bad || n > maxsym || (len = cg_get_bytes(r, n)) == NULL)
		return -1;
	return cg_huff_dec_init(d, len, n);
}

void
cg_huff_put_counts(struct cg_buf *b, const uint8_t *len, size_t n)
{
	uint64_t count[CG_HUFF_MAXLEN + 1] = { 0 };
	unsigned maxlen = 0, l;
	size_t i;

	for (i = 0; i < n; i++) {
		count[len[i]]++;
		if (len[i] > maxlen)
			maxlen = len[i];
	}
	cg_put_varint(b, maxlen);
	for (l = 1; l <= maxlen; l++)
		cg_put_varint(b, count[l]);
}

int
cg_huff_get_counts(struct cg_rd *r, struct cg_huff_dec *d, uint64_t maxsym)
{
	uint64_t count[CG_HUFF_MAXLEN + 1] = { 0 }, n = 0;
	uint64_t maxlen = cg_get_varint(r);
	unsigned l;

	if (r->bad || maxlen > CG_HUFF_MAXLEN)
		return -1;
	for (l = 1; l <= maxlen; l++) {
		count[l] = cg_get_varint(r);
		if (count[l] > ((uint64_t)1 << l))
			return -1;
		n += count[l];
	}
	if (r->bad || n > maxsym)
		return -1;
	return cg_huff_dec_counts(d, count, (unsigned)maxlen);
}
