/*
 * cutcake.c - Cutcake: rectangular pieces of cake on a grid.
 *
 * Text: pieces "RxC" (R rows by C columns) joined by '+', e.g. "8x3" or
 * "3x4+2x1"; spaces around '+' are allowed, 'X' is read as 'x'.
 * Bytes: per piece two 4-byte little-endian words, rows then columns, in
 * the order written.
 *
 * Left cuts a piece between two columns (a vertical cut: RxC becomes
 * Rxa + Rx(C-a)); Right cuts between two rows (axC + (R-a)xC).  This is
 * the orientation CGSuite's values imply: 8x1 = -7 (only Right can cut,
 * seven times) and 1xn = n-1.
 *
 * Synchronized play: when both players move at once, cuts of different
 * pieces are made independently; a piece cut by both splits into four
 * (Left's column cut a and Right's row cut b give bxa, bx(C-a),
 * (R-b)xa, (R-b)x(C-a)).  A decided position (at most one player can
 * cut) is worth the number of cuts that player could make alone: Left
 * can cut a piece RxC C-1 times (each cut adds one piece, down to C
 * pieces Rx1; the row count does not matter, a cut spans all rows), so
 * Left's total is the sum of C-1, Right's the sum of R-1, negated.
 *
 * canonical() drops 1x1 pieces (no moves) and sorts the pieces; an empty
 * result is written "1x1".  decompose() emits each piece that has a move.
 * enumerate("RxC") gives every single piece up to R rows and C columns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/ruleset.h"
#include "bytes.h"

#define MAX_SIDE 1000000u
#define MAX_PIECES 100000u

static int
cutcake_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	unsigned char b[8];
	size_t i = 0, start, n = 0;
	uint32_t r, c;

	for (;;) {
		while (i < len && text[i] == ' ')
			i++;
		if (i == len || !is_digit(text[i]))
			return h->error(cx->err, i + 1, i == len ?
			    "expected a piece RxC, found the end" :
			    "expected a piece RxC, found '%c'", i < len ? text[i] : 0);
		start = i;
		if (read_uint(text, len, &i, MAX_SIDE, &r) < 0)
			return h->error(cx->err, start + 1,
			    "too many rows (at most %u)", MAX_SIDE);
		if (r == 0)
			return h->error(cx->err, start + 1,
			    "a piece needs at least one row");
		if (i == len || (text[i] != 'x' && text[i] != 'X'))
			return h->error(cx->err, i + 1, i == len ?
			    "expected 'x' after the rows, found the end" :
			    "expected 'x' after the rows, found '%c'", i < len ? text[i] : 0);
		i++;
		start = i;
		if (i == len || !is_digit(text[i]))
			return h->error(cx->err, i + 1, i == len ?
			    "expected the columns, found the end" :
			    "expected the columns, found '%c'", i < len ? text[i] : 0);
		if (read_uint(text, len, &i, MAX_SIDE, &c) < 0)
			return h->error(cx->err, start + 1,
			    "too many columns (at most %u)", MAX_SIDE);
		if (c == 0)
			return h->error(cx->err, start + 1,
			    "a piece needs at least one column");
		if (++n > MAX_PIECES)
			return h->error(cx->err, start + 1,
			    "too many pieces (at most %u)", MAX_PIECES);
		set32(b, r);
		set32(b + 4, c);
		if (h->buf_put(out, b, 8) < 0)
			return CG_ENOMEM;
		while (i < len && text[i] == ' ')
			i++;
		if (i == len)
			return CG_OK;
		if (text[i] != '+')
			return h->error(cx->err, i + 1,
			    "expected '+' between pieces, found '%c'", i < len ? text[i] : 0);
		i++;
	}
}

static int
check(const struct cg_context *cx, const unsigned char *pos, size_t len)
{
	size_t i;

	if (len == 0 || len % 8 != 0)
		return cx->host->error(cx->err, 0, "corrupt cutcake position");
	for (i = 0; i < len; i += 8)
		if (get32(pos + i) == 0 || get32(pos + i + 4) == 0 ||
		    get32(pos + i) > MAX_SIDE || get32(pos + i + 4) > MAX_SIDE)
			return cx->host->error(cx->err, 0,
			    "corrupt cutcake position");
	return CG_OK;
}

static int
cutcake_print(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	size_t i;
	int rc = check(cx, pos, len);

	if (rc < 0)
		return rc;
	for (i = 0; i < len; i += 8)
		if (cx->host->buf_printf(out, "%s%ux%u", i ? "+" : "",
		    get32(pos + i), get32(pos + i + 4)) < 0)
			return CG_ENOMEM;
	return CG_OK;
}

/*
 * Write pos with piece k replaced by the pieces in repl (nrepl of them,
 * 8 bytes each) into child; returns the child's length.
 */
static size_t
replace(unsigned char *child, const unsigned char *pos, size_t len, size_t k,
    const unsigned char *repl, size_t nrepl)
{
	memcpy(child, pos, k * 8);
	memcpy(child + k * 8, repl, nrepl * 8);
	memcpy(child + k * 8 + nrepl * 8, pos + k * 8 + 8, len - k * 8 - 8);
	return len - 8 + nrepl * 8;
}

/* The two pieces of a cut at a of piece (r, c) by side, into two[16]. */
static void
cut(uint32_t r, uint32_t c, enum cg_side side, uint32_t a, unsigned char *two)
{
	if (side == CG_LEFT) {
		set32(two, r);
		set32(two + 4, a);
		set32(two + 8, r);
		set32(two + 12, c - a);
	} else {
		set32(two, a);
		set32(two + 4, c);
		set32(two + 8, r - a);
		set32(two + 12, c);
	}
}

static int
cutcake_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	unsigned char *child, two[16];
	char move[48];
	size_t k, clen;
	uint32_t r, c, a, n;
	int rc = check(cx, pos, len), stop = 0;

	if (rc < 0)
		return rc;
	child = cx->host->alloc(len + 8);
	if (child == NULL)
		return CG_ENOMEM;
	/* Move "P:cA" cuts piece P after column A, "P:rA" after row A. */
	for (k = 0; k < len / 8 && !stop; k++) {
		r = get32(pos + k * 8);
		c = get32(pos + k * 8 + 4);
		n = side == CG_LEFT ? c : r;
		for (a = 1; a < n && !stop; a++) {
			cut(r, c, side, a, two);
			clen = replace(child, pos, len, k, two, 2);
			snprintf(move, sizeof move, "%zu:%c%u", k + 1,
			    side == CG_LEFT ? 'c' : 'r', a);
			stop = emit(ctx, child, clen, move);
		}
	}
	cx->host->free(child);
	return stop ? CG_STOP : CG_OK;
}

static int
cmp_piece(const void *x, const void *y)
{
	const unsigned char *a = x, *b = y;
	uint32_t ra = get32(a), rb = get32(b), ca = get32(a + 4),
	    cb = get32(b + 4);

	if (ra != rb)
		return ra < rb ? 1 : -1;
	return ca < cb ? 1 : ca > cb ? -1 : 0;
}

static int
cutcake_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	size_t start = out->len, i;
	unsigned char one[8];
	int rc = check(cx, pos, len);

	if (rc < 0)
		return rc;
	for (i = 0; i < len; i += 8)
		if ((get32(pos + i) > 1 || get32(pos + i + 4) > 1) &&
		    cx->host->buf_put(out, pos + i, 8) < 0)
			return CG_ENOMEM;
	if (out->len == start) {
		set32(one, 1);
		set32(one + 4, 1);
		return cx->host->buf_put(out, one, 8) < 0 ? CG_ENOMEM : CG_OK;
	}
	qsort(out->data + start, (out->len - start) / 8, 8, cmp_piece);
	return CG_OK;
}

static int
cutcake_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	size_t i;
	int rc = check(cx, pos, len);

	if (rc < 0)
		return rc;
	for (i = 0; i < len; i += 8)
		if ((get32(pos + i) > 1 || get32(pos + i + 4) > 1) &&
		    emit(ctx, pos + i, 8, NULL))
			return CG_STOP;
	return CG_OK;
}

/* Left's move number i (options() order) as (piece, cut). */
struct move {
	size_t piece;
	uint32_t at;
};

static size_t
list_moves(const unsigned char *pos, size_t len, enum cg_side side,
    struct move *m)
{
	size_t k, n = 0;
	uint32_t a, lim;

	for (k = 0; k < len / 8; k++) {
		lim = side == CG_LEFT ? get32(pos + k * 8 + 4) :
		    get32(pos + k * 8);
		for (a = 1; a < lim; a++) {
			if (m != NULL) {
				m[n].piece = k;
				m[n].at = a;
			}
			n++;
		}
	}
	return n;
}

static int
cutcake_synch(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_joint_fn emit, void *ctx)
{
	const struct cg_host *h = cx->host;
	struct move *lm, *rm;
	unsigned char *child, *tmp, two[16], four[32];
	size_t nl, nr, i, j, clen, tlen, kl, kr;
	uint32_t r, c, a, b;
	int rc = check(cx, pos, len), stop = 0;

	if (rc < 0)
		return rc;
	nl = list_moves(pos, len, CG_LEFT, NULL);
	nr = list_moves(pos, len, CG_RIGHT, NULL);
	if (nl == 0 || nr == 0)
		return CG_OK;
	lm = h->alloc(nl * sizeof *lm);
	rm = h->alloc(nr * sizeof *rm);
	child = h->alloc(len + 24);
	tmp = h->alloc(len + 24);
	if (lm == NULL || rm == NULL || child == NULL || tmp == NULL) {
		h->free(lm);
		h->free(rm);
		h->free(child);
		h->free(tmp);
		return CG_ENOMEM;
	}
	list_moves(pos, len, CG_LEFT, lm);
	list_moves(pos, len, CG_RIGHT, rm);
	for (i = 0; i < nl && !stop; i++) {
		for (j = 0; j < nr && !stop; j++) {
			kl = lm[i].piece;
			kr = rm[j].piece;
			a = lm[i].at;
			b = rm[j].at;
			if (kl == kr) {
				r = get32(pos + kl * 8);
				c = get32(pos + kl * 8 + 4);
				set32(four, b);
				set32(four + 4, a);
				set32(four + 8, b);
				set32(four + 12, c - a);
				set32(four + 16, r - b);
				set32(four + 20, a);
				set32(four + 24, r - b);
				set32(four + 28, c - a);
				clen = replace(child, pos, len, kl, four, 4);
			} else {
				/* replace the later piece first so the
				 * earlier index stays valid */
				size_t k1 = kl > kr ? kl : kr;
				size_t k2 = kl > kr ? kr : kl;
				uint32_t at1 = kl > kr ? a : b;
				uint32_t at2 = kl > kr ? b : a;
				enum cg_side s1 = kl > kr ? CG_LEFT : CG_RIGHT;

				cut(get32(pos + k1 * 8), get32(pos + k1 * 8 + 4),
				    s1, at1, two);
				tlen = replace(tmp, pos, len, k1, two, 2);
				cut(get32(pos + k2 * 8), get32(pos + k2 * 8 + 4),
				    s1 == CG_LEFT ? CG_RIGHT : CG_LEFT, at2, two);
				clen = replace(child, tmp, tlen, k2, two, 2);
			}
			stop = emit(ctx, i, j, child, clen);
		}
	}
	h->free(lm);
	h->free(rm);
	h->free(child);
	h->free(tmp);
	return stop ? CG_STOP : CG_OK;
}

static int
cutcake_decided(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int64_t *num, int64_t *den)
{
	int64_t left = 0, right = 0;
	size_t i;
	int rc = check(cx, pos, len);

	if (rc < 0)
		return rc;
	for (i = 0; i < len; i += 8) {
		right += (int64_t)get32(pos + i) - 1;
		left += (int64_t)get32(pos + i + 4) - 1;
	}
	if (left > 0 && right > 0)
		return cx->host->error(cx->err, 0,
		    "position is not decided: both players can cut");
	*num = left - right;
	*den = 1;
	return CG_OK;
}

/*
 * The cuts still to make before every piece is 1x1: the sum of R*C - 1
 * over the pieces.  A cut turns one piece into two of the same area, so
 * each move lowers it by exactly one, for the option as a whole and so
 * for each of its pieces (none is worth less than 0).
 */
static int
cutcake_measure(const struct cg_context *cx, const unsigned char *pos,
    size_t len, uint64_t *m)
{
	size_t i;
	uint64_t n = 0;
	int rc = check(cx, pos, len);

	if (rc < 0)
		return rc;
	for (i = 0; i < len; i += 8)
		n += (uint64_t)get32(pos + i) * get32(pos + i + 4) - 1;
	*m = n;
	return CG_OK;
}

/* enumerate("RxC"): every single piece of at most R rows and C columns,
 * rows then columns increasing. */
static int
cutcake_enumerate(const struct cg_context *cx, const char *family,
    cg_emit_fn emit, void *ctx)
{
	unsigned char b[8];
	uint32_t rmax, cmax, r, c;

	if (family_rxc(family, 4096, &rmax, &cmax) < 0)
		return cx->host->error(cx->err, 0, "bad family '%s' (expected "
		    "RxC, 1..4096 each)", family ? family : "");
	for (r = 1; r <= rmax; r++)
		for (c = 1; c <= cmax; c++) {
			set32(b, r);
			set32(b + 4, c);
			if (emit(ctx, b, 8, NULL))
				return CG_STOP;
		}
	return CG_OK;
}

static const struct cg_ruleset cutcake_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "cutcake",
	.version = "1.0",
	.summary = "Cutcake: Left cuts between columns, Right between rows",
	.params_help = NULL,
	.flags = CG_SYMMETRY | CG_DECOMPOSES | CG_SYNCHRONIZED | CG_ENUMERATES,
	.parse = cutcake_parse,
	.print = cutcake_print,
	.options = cutcake_options,
	.canonical = cutcake_canonical,
	.decompose = cutcake_decompose,
	.synch_options = cutcake_synch,
	.decided_value = cutcake_decided,
	.enumerate = cutcake_enumerate,
	.measure = cutcake_measure,
};

CG_RULESET_ENTRY(cutcake, cutcake_ruleset)
