/* huff.h - the entropy code of cgkb(5) blocks: canonical Huffman codes
 * read through a table, and numbers of any size as a Huffman-coded bit
 * length followed by the bits below the leading one.
 *
 * A code is given by the length of each symbol's codeword (0: the symbol
 * never occurs).  Codewords are assigned canonically: shorter first,
 * among equal lengths the smaller symbol first; bits are written most
 * significant first.  When symbols are numbered by falling frequency the
 * lengths never decrease with the symbol, so a code is described by the
 * number of codewords of each length alone.  A code of one symbol has a
 * codeword of length 1.  Lengths are at most CG_HUFF_MAXLEN, so that a
 * codeword is found in one 32-bit window of the stream. */
#ifndef CG_HUFF_H
#define CG_HUFF_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

#define CG_HUFF_MAXLEN 32
/* Numbers: class 0 is 0, class c >= 1 holds [2^(c-1), 2^c), its c - 1
 * low bits following the class's codeword. */
#define CG_NUM_CLASSES 65

/* --------------------------------------------------------------- bits */

struct cg_bitw {
	struct cg_buf *out;
	uint64_t acc;          /* pending bits, the oldest highest */
	unsigned n;            /* pending bit count, < 8 after a flush */
	uint64_t bits;         /* bits written in all */
};

void cg_bitw_init(struct cg_bitw *w, struct cg_buf *out);
/* nbits <= 32 */
void cg_bitw_put(struct cg_bitw *w, uint64_t v, unsigned nbits);
/* Pad with zero bits to a byte boundary. */
void cg_bitw_flush(struct cg_bitw *w);

struct cg_bitr {
	const unsigned char *p, *end;
	uint64_t acc;          /* the next bits, left-aligned */
	unsigned n;            /* valid bits in acc */
	unsigned pad;          /* zero bits added past the end */
};

static inline void
cg_bitr_init(struct cg_bitr *r, const unsigned char *p, size_t len)
{
	r->p = p;
	r->end = p + len;
	r->acc = 0;
	r->n = 0;
	r->pad = 0;
}

/* At least 57 valid bits in acc (zeros past the end). */
static inline void
cg_bitr_fill(struct cg_bitr *r)
{
	while (r->n <= 56) {
		if (r->p < r->end)
			r->acc |= (uint64_t)*r->p++ << (56 - r->n);
		else
			r->pad += 8;
		r->n += 8;
	}
}

static inline uint64_t
cg_bitr_peek(const struct cg_bitr *r, unsigned nbits)
{
	return nbits ? r->acc >> (64 - nbits) : 0;
}

static inline void
cg_bitr_skip(struct cg_bitr *r, unsigned nbits)
{
	r->acc = nbits < 64 ? r->acc << nbits : 0;
	r->n -= nbits;
}

/* nbits <= 32. */
static inline uint64_t
cg_bitr_get(struct cg_bitr *r, unsigned nbits)
{
	uint64_t v;

	cg_bitr_fill(r);
	v = cg_bitr_peek(r, nbits);
	cg_bitr_skip(r, nbits);
	return v;
}

/* Has the reader taken bits past the end of its data (a malformed
 * stream)? */
static inline int
cg_bitr_overrun(const struct cg_bitr *r)
{
	return r->pad > r->n;
}

/* ------------------------------------------------------------- codes */

/* Codeword lengths for symbols of the given counts: len[i] is 0 exactly
 * when count[i] is 0; at most maxlen, or the least length that holds
 * that many symbols when maxlen cannot (never over CG_HUFF_MAXLEN).  A
 * symbol never gets a longer codeword than a more frequent one, nor than
 * an equally frequent one of a smaller number. */
void cg_huff_lengths(const uint64_t *count, size_t n, unsigned maxlen,
    uint8_t *len);

struct cg_huff_enc {
	size_t n;
	uint8_t *len;
	uint32_t *code;
};

/* Codewords of lengths len[0..n-1] (copied). */
void cg_huff_enc_init(struct cg_huff_enc *e, const uint8_t *len, size_t n);
void cg_huff_enc_free(struct cg_huff_enc *e);
static inline void
cg_huff_put(struct cg_bitw *w, const struct cg_huff_enc *e, size_t sym)
{
	cg_bitw_put(w, e->code[sym], e->len[sym]);
}
/* Cost in bits of sym. */
static inline unsigned
cg_huff_cost(const struct cg_huff_enc *e, size_t sym)
{
	return e->len[sym];
}

#define CG_HUFF_FAST 10

struct cg_huff_dec {
	uint32_t n;                      /* symbols of the alphabet */
	unsigned maxlen;
	/* limit[l]: the first left-aligned 32-bit window past the codewords
	 * of length <= l; base[l]: subtracted from the window's first l bits
	 * gives the codeword's index in (length, symbol) order */
	uint64_t limit[CG_HUFF_MAXLEN + 1];
	int64_t base[CG_HUFF_MAXLEN + 1];
	uint32_t *sym;                   /* symbols by that index; NULL: the
	                                  * identity (lengths by symbol) */
	/* by the next CG_HUFF_FAST bits: index << 5 | length for codewords
	 * that short, 0 for the slow path */
	uint32_t fast[1u << CG_HUFF_FAST];
};

/* A decoder for lengths len[0..n-1]: 0, or -1 when they are not a
 * prefix code (Kraft sum over 1) or exceed CG_HUFF_MAXLEN.  A code of
 * no symbol at all reads nothing but errors. */
int cg_huff_dec_init(struct cg_huff_dec *d, const uint8_t *len, size_t n);
/* The same for symbols 0..n-1 numbered in (length, symbol) order, with
 * count[l] codewords of length l (l = 1..maxlen). */
int cg_huff_dec_counts(struct cg_huff_dec *d, const uint64_t *count,
    unsigned maxlen);
void cg_huff_dec_free(struct cg_huff_dec *d);

/* The next symbol, or UINT32_MAX for bits that are no codeword. */
static inline uint32_t
cg_huff_get(struct cg_bitr *r, const struct cg_huff_dec *d)
{
	uint64_t w, i;
	uint32_t f;
	unsigned l;

	cg_bitr_fill(r);
	f = d->fast[cg_bitr_peek(r, CG_HUFF_FAST)];
	if (f != 0) {
		cg_bitr_skip(r, f & 31);
		i = f >> 5;
		return d->sym ? d->sym[i] : (uint32_t)i;
	}
	w = cg_bitr_peek(r, 32);
	for (l = CG_HUFF_FAST + 1; l <= d->maxlen; l++)
		if (w < d->limit[l]) {
			i = (uint64_t)((int64_t)(w >> (32 - l)) - d->base[l]);
			cg_bitr_skip(r, l);
			return d->sym ? d->sym[i] : (uint32_t)i;
		}
	return UINT32_MAX;
}

/* The class of a number (its bit length) and writing it. */
static inline unsigned
cg_num_class(uint64_t v)
{
	return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

static inline void
cg_num_put(struct cg_bitw *w, const struct cg_huff_enc *e, uint64_t v)
{
	unsigned c = cg_num_class(v);

	cg_huff_put(w, e, c);
	if (c > 33) {
		cg_bitw_put(w, (v >> 32) & ((1ull << (c - 33)) - 1), c - 33);
		cg_bitw_put(w, v & 0xffffffffu, 32);
	} else if (c >= 2) {
		cg_bitw_put(w, v & ((1ull << (c - 1)) - 1), c - 1);
	}
}

static inline unsigned
cg_num_cost(const struct cg_huff_enc *e, uint64_t v)
{
	unsigned c = cg_num_class(v);

	return e->len[c] + (c >= 2 ? c - 1 : 0);
}

/* A number, or UINT64_MAX with *bad set for bits that are none. */
static inline uint64_t
cg_num_get(struct cg_bitr *r, const struct cg_huff_dec *d, int *bad)
{
	uint32_t c = cg_huff_get(r, d);
	uint64_t v;

	if (c >= CG_NUM_CLASSES) {
		*bad = 1;
		return UINT64_MAX;
	}
	if (c < 2)
		return c;
	if (c > 33) {
		v = cg_bitr_get(r, c - 33) << 32;
		v |= cg_bitr_get(r, 32);
	} else {
		v = cg_bitr_get(r, c - 1);
	}
	return v | (uint64_t)1 << (c - 1);
}

/* A code in a byte buffer and back.  By lengths: the number of symbols,
 * then one byte per symbol.  By counts (lengths that never decrease with
 * the symbol): the longest length L, then the number of codewords of
 * each length 1..L, as varints. */
struct cg_rd;
void cg_huff_put_lengths(struct cg_buf *b, const uint8_t *len, size_t n);
int cg_huff_get_lengths(struct cg_rd *r, struct cg_huff_dec *d,
    size_t maxsym);
void cg_huff_put_counts(struct cg_buf *b, const uint8_t *len, size_t n);
int cg_huff_get_counts(struct cg_rd *r, struct cg_huff_dec *d,
    uint64_t maxsym);

#endif
