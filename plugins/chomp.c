/*
 * chomp.c - Chomp on rectangular boards and the Young diagrams they turn
 * into.  Impartial.
 *
 * Orientation: row 1 is the bottom row, column 1 the left column; the
 * poisoned square is (1,1), the bottom-left corner.  Choosing square
 * (r,c) removes every square (r',c') with r' >= r and c' >= c: the
 * square and everything above it and to its right.  The player who takes
 * the poison loses; equivalently the poison may not be taken and the
 * player who cannot move (only the poison is left) loses, so this is
 * normal play where every square but (1,1) may be chosen.  A board is
 * then always a Young diagram: row lengths a1 >= a2 >= ... >= ak > 0,
 * bottom row first.
 *
 * Text: "RxC" for R rows of C columns ("4x7"), or the row lengths from
 * the bottom, comma separated and non-increasing ("5,3,3,1").  Printed
 * as "RxC" when all rows have the same length, otherwise as the list.
 * Bytes: the row lengths as 4-byte little-endian words, bottom first.
 * Move names "R,C" (the square chosen).
 *
 * canonical(): the board and its transpose (rows and columns swapped,
 * the poison stays in the corner) are the same game; the one with fewer
 * rows (then the smaller row list) is the representative.
 * enumerate("RxC") gives every board inside R rows and C columns.
 */
#include <stdio.h>
#include <string.h>

#include "cg/ruleset.h"
#include "bytes.h"

#define MAX_SIDE 4096u

static int
chomp_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	unsigned char b[4];
	size_t i = 0, start, k;
	uint32_t r, c, prev = 0;

	if (len == 0 || !is_digit(text[0]))
		return h->error(cx->err, 1, len == 0 ?
		    "expected RxC or row lengths, found the end" :
		    "expected RxC or row lengths, found '%c'",
		    len > 0 ? text[0] : 0);
	if (read_uint(text, len, &i, MAX_SIDE, &r) < 0)
		return h->error(cx->err, 1, "number too large (at most %u)",
		    MAX_SIDE);
	if (i < len && (text[i] == 'x' || text[i] == 'X')) {
		i++;
		start = i;
		if (i == len || !is_digit(text[i]))
			return h->error(cx->err, i + 1, i == len ?
			    "expected the columns, found the end" :
			    "expected the columns, found '%c'", i < len ? text[i] : 0);
		if (read_uint(text, len, &i, MAX_SIDE, &c) < 0)
			return h->error(cx->err, start + 1, "too many columns "
			    "(at most %u)", MAX_SIDE);
		if (i < len)
			return h->error(cx->err, i + 1,
			    "unexpected '%c' after RxC", text[i]);
		if (r == 0 || c == 0)
			return h->error(cx->err, r == 0 ? 1 : start + 1,
			    "a board needs at least one row and column");
		set32(b, c);
		for (k = 0; k < r; k++)
			if (h->buf_put(out, b, 4) < 0)
				return CG_ENOMEM;
		return CG_OK;
	}
	/* row lengths, bottom first */
	i = 0;
	for (k = 0;; k++) {
		start = i;
		if (i == len || !is_digit(text[i]))
			return h->error(cx->err, i + 1, i == len ?
			    "expected a row length, found the end" :
			    "expected a row length, found '%c'", i < len ? text[i] : 0);
		if (read_uint(text, len, &i, MAX_SIDE, &c) < 0)
			return h->error(cx->err, start + 1,
			    "row too long (at most %u)", MAX_SIDE);
		if (c == 0)
			return h->error(cx->err, start + 1,
			    "rows must not be empty");
		if (k > 0 && c > prev)
			return h->error(cx->err, start + 1, "row %zu is longer "
			    "than the row below it", k + 1);
		if (k == MAX_SIDE)
			return h->error(cx->err, start + 1,
			    "too many rows (at most %u)", MAX_SIDE);
		prev = c;
		set32(b, c);
		if (h->buf_put(out, b, 4) < 0)
			return CG_ENOMEM;
		if (i == len)
			return CG_OK;
		if (text[i] != ',')
			return h->error(cx->err, i + 1,
			    "expected ',' between rows, found '%c'", i < len ? text[i] : 0);
		i++;
	}
}

static int
check(const struct cg_context *cx, const unsigned char *pos, size_t len)
{
	size_t i;

	if (len == 0 || len % 4 != 0 || len / 4 > MAX_SIDE)
		return cx->host->error(cx->err, 0, "corrupt chomp position");
	for (i = 0; i < len; i += 4)
		if (get32(pos + i) == 0 || get32(pos + i) > MAX_SIDE ||
		    (i > 0 && get32(pos + i) > get32(pos + i - 4)))
			return cx->host->error(cx->err, 0,
			    "corrupt chomp position");
	return CG_OK;
}

static int
chomp_print(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	size_t i;
	int rc = check(cx, pos, len);

	if (rc < 0)
		return rc;
	if (get32(pos) == get32(pos + len - 4))
		return cx->host->buf_printf(out, "%zux%u", len / 4,
		    get32(pos));
	for (i = 0; i < len; i += 4)
		if (cx->host->buf_printf(out, "%s%u", i ? "," : "",
		    get32(pos + i)) < 0)
			return CG_ENOMEM;
	return CG_OK;
}

static int
chomp_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	unsigned char *child;
	char move[48];
	size_t r, k, rows = len / 4, clen;
	uint32_t c, a;
	int rc = check(cx, pos, len), stop = 0;

	(void)side;
	if (rc < 0)
		return rc;
	child = cx->host->alloc(len);
	if (child == NULL)
		return CG_ENOMEM;
	for (r = 0; r < rows && !stop; r++) {
		for (c = r == 0 ? 1 : 0; c < get32(pos + r * 4) && !stop;
		    c++) {
			/* square (r+1, c+1): rows >= r keep min(a, c) */
			memcpy(child, pos, r * 4);
			clen = r * 4;
			for (k = r; k < rows; k++) {
				a = get32(pos + k * 4);
				if (a > c)
					a = c;
				if (a == 0)
					break;
				set32(child + clen, a);
				clen += 4;
			}
			snprintf(move, sizeof move, "%zu,%u", r + 1, c + 1);
			stop = emit(ctx, child, clen, move);
		}
	}
	cx->host->free(child);
	return stop ? CG_STOP : CG_OK;
}

static int
chomp_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	size_t rows = len / 4, k, start = out->len;
	uint32_t cols, j, n;
	unsigned char b[4];
	int rc = check(cx, pos, len), cmp = 0;

	if (rc < 0)
		return rc;
	cols = get32(pos);
	/* the transpose has cols rows; row j (1-based) is the number of
	 * rows of length >= j */
	if (rows < cols)
		return h->buf_put(out, pos, len) < 0 ? CG_ENOMEM : CG_OK;
	for (j = 1; j <= cols; j++) {
		n = 0;
		for (k = 0; k < rows && get32(pos + k * 4) >= j; k++)
			n++;
		if (cmp == 0 && rows == cols) {
			uint32_t a = get32(pos + (j - 1) * 4);

			cmp = n < a ? -1 : n > a ? 1 : 0;
		}
		set32(b, n);
		if (h->buf_put(out, b, 4) < 0)
			return CG_ENOMEM;
	}
	if (rows > cols || cmp < 0)
		return CG_OK;
	out->len = start;
	return h->buf_put(out, pos, len) < 0 ? CG_ENOMEM : CG_OK;
}

static int
chomp_live(const unsigned char *pos, size_t len)
{
	return len > 4 || get32(pos) > 1;
}

static int
chomp_order_key(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int64_t *key)
{
	size_t i;
	int64_t n = 0;
	int rc = check(cx, pos, len);

	if (rc < 0)
		return rc;
	/* try small boards first: a move to the lone poison wins at once */
	for (i = 0; i < len; i += 4)
		n += get32(pos + i);
	*key = chomp_live(pos, len) ? n : 0;
	return CG_OK;
}

/* The squares left (the poison included): a move takes at least one, and
 * the transpose has as many. */
static int
chomp_measure(const struct cg_context *cx, const unsigned char *pos,
    size_t len, uint64_t *m)
{
	size_t i;
	uint64_t n = 0;
	int rc = check(cx, pos, len);

	if (rc < 0)
		return rc;
	for (i = 0; i < len; i += 4)
		n += get32(pos + i);
	*m = n;
	return CG_OK;
}

/* Emit every diagram with rows[0..k-1] fixed and up to rmax rows, each
 * row at most the one below. */
static int
chomp_enum_rows(uint32_t *rows, size_t k, size_t rmax, uint32_t below,
    unsigned char *buf, cg_emit_fn emit, void *ctx)
{
	size_t i;
	uint32_t a;

	if (k > 0) {
		for (i = 0; i < k; i++)
			set32(buf + 4 * i, rows[i]);
		if (emit(ctx, buf, 4 * k, NULL))
			return CG_STOP;
	}
	if (k == rmax)
		return CG_OK;
	for (a = 1; a <= below; a++) {
		rows[k] = a;
		if (chomp_enum_rows(rows, k + 1, rmax, a, buf, emit, ctx))
			return CG_STOP;
	}
	return CG_OK;
}

/* enumerate("RxC"): every board inside R rows and C columns (every
 * Young diagram holding the poison), R and C at most 16. */
static int
chomp_enumerate(const struct cg_context *cx, const char *family,
    cg_emit_fn emit, void *ctx)
{
	uint32_t r, c, rows[16];
	unsigned char buf[64];

	if (family_rxc(family, 16, &r, &c) < 0)
		return cx->host->error(cx->err, 0, "bad family '%s' (expected "
		    "RxC, 1..16 each)", family ? family : "");
	return chomp_enum_rows(rows, 0, r, c, buf, emit, ctx);
}

static const struct cg_ruleset chomp_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "chomp",
	.version = "1.0",
	.summary = "Chomp: take a square and all above and right of it; "
	    "the poison (1,1) may not be taken",
	.params_help = NULL,
	.flags = CG_IMPARTIAL | CG_SYMMETRY | CG_ENUMERATES,
	.parse = chomp_parse,
	.print = chomp_print,
	.options = chomp_options,
	.canonical = chomp_canonical,
	.enumerate = chomp_enumerate,
	.order_key = chomp_order_key,
	.measure = chomp_measure,
};

CG_RULESET_ENTRY(chomp, chomp_ruleset)
