/*
 * foxgeese.c - Fox and Geese (Winning Ways, ch. 22; CGSuite's
 * FoxAndGeese).
 *
 * Played on the dark squares of a checkerboard: the squares whose row
 * and column, both counted from 1 at the bottom left, add up to an even
 * number.  Left's geese `x` each move one square diagonally downwards; a
 * goose may not move onto the fox or another goose.  Right's fox `o`
 * moves one square diagonally in any direction onto an empty square.
 * There are no captures.  A player who cannot move loses: the geese win
 * by penning the fox in.
 *
 * CGSuite's board is unbounded upwards, and CGSuite treats a position
 * whose fox has got level with or past the highest goose (or is one row
 * below it with an empty square diagonally above it) as the value off:
 * the geese move only downwards, so they can never pen the fox again,
 * and must in the end run out of moves.  This ruleset does the same, so
 * its games are CGSuite's and its graphs finite: in such a position
 * (escaped) the geese have no move and the fox's one move keeps the
 * position as it is, named "escaped".  The board's rows are the text's;
 * above the highest goose the fox is always escaped, so no more are
 * needed.
 *
 * Text: rows of one character per square separated by '|', the top row
 * first, every row as long: `.` empty, `x` a goose, `o` the fox (one
 * fox; a goose or the fox only on a dark square).  Bytes: the text.
 * Moves are named by squares, columns a, b, ... from the left and rows
 * 1, 2, ... from the bottom: "b4-a3".
 *
 * A goose moves towards the fox's side but the fox moves back and
 * forth, so positions come back: the ruleset is loopy (CG_LOOPY).
 *
 * enumerate("WxH:K"): every board of W columns and H rows (each 1..26)
 * with K geese and the fox, on dark squares.  A move keeps the board and
 * the number of geese, so the family is closed under moves, as a loopy
 * family's knowledge base needs.  Geese are placed on the dark squares
 * in the order of their combinations (squares from the top left, row by
 * row), and for each placement the fox on each square left.
 */
#include <stdio.h>
#include <string.h>

#include "cg/ruleset.h"
#include "bytes.h"

#define MAX_SIDE 26    /* columns a..z, and as many rows */

struct board {
	size_t w, h;            /* columns, rows */
};

/* The square at row r, column c (1-based, row 1 at the bottom) in the
 * text of a board of shape b. */
static size_t
at(const struct board *b, size_t r, size_t c)
{
	return (b->h - r) * (b->w + 1) + (c - 1);
}

/* Shape of a well-formed board text, or 0 with *col the 1-based column
 * of the fault and *why what it is. */
static int
shape(const unsigned char *t, size_t len, struct board *b, size_t *col,
    const char **why)
{
	size_t i, w = 0, rows = 1, foxes = 0, r, c, x;

	for (i = 0; i < len && t[i] != '|'; i++)
		;
	w = i;
	*why = "a row of 1 to 26 squares";
	if (w == 0 || w > MAX_SIDE) {
		*col = i + 1;
		return 0;
	}
	for (i = 0, x = 0; i < len; i++) {
		if (t[i] == '|') {
			if (x != w) {
				*col = i + 1;
				*why = "rows of different lengths";
				return 0;
			}
			rows++;
			x = 0;
			continue;
		}
		x++;
	}
	if (x != w || rows > MAX_SIDE) {
		*col = len + 1;
		*why = x != w ? "rows of different lengths" :
		    "at most 26 rows";
		return 0;
	}
	b->w = w;
	b->h = rows;
	for (r = 1; r <= b->h; r++) {
		for (c = 1; c <= b->w; c++) {
			i = at(b, r, c);
			if (t[i] != '.' && t[i] != 'x' && t[i] != 'o') {
				*col = i + 1;
				*why = "expected '.', 'x' (a goose) or 'o' (the "
				    "fox)";
				return 0;
			}
			if (t[i] != '.' && (r + c) % 2 != 0) {
				*col = i + 1;
				*why = "geese and the fox stand on dark squares "
				    "(row + column even, counted from 1 at the "
				    "bottom left)";
				return 0;
			}
			foxes += t[i] == 'o';
		}
	}
	if (foxes != 1) {
		*col = 1;
		*why = foxes ? "more than one fox" : "no fox";
		return 0;
	}
	return 1;
}

static int
fg_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	struct board b;
	size_t col;
	const char *why;

	if (!shape((const unsigned char *)text, len, &b, &col, &why))
		return cx->host->error(cx->err, col, "%s", why);
	return cx->host->buf_put(out, text, len);
}

static int
fg_print(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	struct board b;
	size_t col;
	const char *why;

	if (!shape(pos, len, &b, &col, &why))
		return cx->host->error(cx->err, 0, "corrupt foxgeese position");
	return cx->host->buf_put(out, pos, len);
}

/* CGSuite's test for a fox that can no longer be penned: level with or
 * above the highest goose, or one row below it with an empty square
 * diagonally above. */
static int
escaped(const struct board *b, const unsigned char *t, size_t fr,
    size_t fc)
{
	size_t r, c, top = 0;

	for (r = 1; r <= b->h; r++)
		for (c = 1; c <= b->w; c++)
			if (t[at(b, r, c)] == 'x')
				top = r;
	if (fr >= top)
		return 1;
	return fr + 1 == top && ((fc > 1 && t[at(b, fr + 1, fc - 1)] !=
	    'x') || (fc < b->w && t[at(b, fr + 1, fc + 1)] != 'x'));
}

static int
emit_move(unsigned char *child, const unsigned char *pos, size_t len,
    const struct board *b, size_t r0, size_t c0, size_t r1, size_t c1,
    cg_emit_fn emit, void *ctx)
{
	char name[32];

	memcpy(child, pos, len);
	child[at(b, r1, c1)] = pos[at(b, r0, c0)];
	child[at(b, r0, c0)] = '.';
	snprintf(name, sizeof name, "%c%zu-%c%zu", (char)('a' + c0 - 1), r0,
	    (char)('a' + c1 - 1), r1);
	return emit(ctx, child, len, name);
}

static int
fg_options(const struct cg_context *cx, const unsigned char *pos, size_t len,
    enum cg_side side, cg_emit_fn emit, void *ctx)
{
	static const int dr[4] = { -1, -1, 1, 1 }, dc[4] = { -1, 1, -1, 1 };
	unsigned char *child;
	struct board b;
	size_t r, c, fr = 0, fc = 0, col, nr, nc;
	const char *why;
	int d, stop = 0;

	if (!shape(pos, len, &b, &col, &why))
		return cx->host->error(cx->err, 0, "corrupt foxgeese position");
	for (r = 1; r <= b.h; r++)
		for (c = 1; c <= b.w; c++)
			if (pos[at(&b, r, c)] == 'o') {
				fr = r;
				fc = c;
			}
	if (escaped(&b, pos, fr, fc)) {
		/* off: the fox's one move keeps the position */
		if (side == CG_RIGHT && emit(ctx, pos, len, "escaped"))
			return CG_STOP;
		return CG_OK;
	}
	child = cx->host->alloc(len);
	if (child == NULL)
		return CG_ENOMEM;
	if (side == CG_RIGHT) {
		for (d = 0; d < 4 && !stop; d++) {
			if ((dr[d] < 0 && fr == 1) || (dr[d] > 0 &&
			    fr == b.h) || (dc[d] < 0 && fc == 1) ||
			    (dc[d] > 0 && fc == b.w))
				continue;
			nr = (size_t)((long)fr + dr[d]);
			nc = (size_t)((long)fc + dc[d]);
			if (pos[at(&b, nr, nc)] == '.')
				stop = emit_move(child, pos, len, &b, fr, fc,
				    nr, nc, emit, ctx);
		}
	}
	/* the geese from the top row down, each row from the left; each
	 * goose to the left first */
	for (r = b.h; side == CG_LEFT && r > 1 && !stop; r--)
		for (c = 1; c <= b.w && !stop; c++) {
			if (pos[at(&b, r, c)] != 'x')
				continue;
			if (c > 1 && pos[at(&b, r - 1, c - 1)] == '.')
				stop = emit_move(child, pos, len, &b, r, c,
				    r - 1, c - 1, emit, ctx);
			if (!stop && c < b.w && pos[at(&b, r - 1, c + 1)] ==
			    '.')
				stop = emit_move(child, pos, len, &b, r, c,
				    r - 1, c + 1, emit, ctx);
		}
	cx->host->free(child);
	return stop ? CG_STOP : CG_OK;
}

struct family {
	unsigned char t[MAX_SIDE * (MAX_SIDE + 1)];
	size_t len;
	size_t dark[MAX_SIDE * MAX_SIDE / 2 + 1];  /* text offsets */
	size_t ndark;
	cg_emit_fn emit;
	void *ctx;
};

/* Place k more geese on the dark squares from the i-th on, then the fox
 * on each empty one. */
static int
place(struct family *f, size_t i, size_t k)
{
	size_t j;

	if (k == 0) {
		for (j = 0; j < f->ndark; j++) {
			if (f->t[f->dark[j]] != '.')
				continue;
			f->t[f->dark[j]] = 'o';
			if (f->emit(f->ctx, f->t, f->len, NULL))
				return CG_STOP;
			f->t[f->dark[j]] = '.';
		}
		return CG_OK;
	}
	for (j = i; j + k <= f->ndark; j++) {
		f->t[f->dark[j]] = 'x';
		if (place(f, j + 1, k - 1) != CG_OK)
			return CG_STOP;
		f->t[f->dark[j]] = '.';
	}
	return CG_OK;
}

static int
fg_enumerate(const struct cg_context *cx, const char *family,
    cg_emit_fn emit, void *ctx)
{
	struct family f;
	struct board b;
	uint32_t w, h, k;
	size_t i = 0, len = family ? strlen(family) : 0, r, c;

	if (len == 0 || !is_digit(family[0]) || read_uint(family, len, &i,
	    MAX_SIDE, &w) < 0 || w == 0 || i == len || family[i] != 'x' ||
	    !is_digit(family[++i]) || read_uint(family, len, &i, MAX_SIDE,
	    &h) < 0 || h == 0 || i == len || family[i] != ':' ||
	    !is_digit(family[++i]) || read_uint(family, len, &i,
	    MAX_SIDE * MAX_SIDE, &k) < 0 || i != len)
		return cx->host->error(cx->err, 0, "expected WxH:K, a board "
		    "of W columns and H rows, 1..%d, with K geese and the fox",
		    MAX_SIDE);
	b.w = w;
	b.h = h;
	f.len = b.h * (b.w + 1) - 1;
	f.ndark = 0;
	f.emit = emit;
	f.ctx = ctx;
	for (r = b.h; r >= 1; r--)
		for (c = 1; c <= b.w + (r > 1); c++) {
			if (c > b.w) {
				f.t[at(&b, r, c - 1) + 1] = '|';
				continue;
			}
			f.t[at(&b, r, c)] = '.';
			if ((r + c) % 2 == 0)
				f.dark[f.ndark++] = at(&b, r, c);
		}
	if (k + 1 > f.ndark)
		return cx->host->error(cx->err, 0, "%u geese and the fox need "
		    "%u dark squares, the board has %zu", k, k + 1, f.ndark);
	return place(&f, 0, k);
}

static const struct cg_ruleset foxgeese_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "foxgeese",
	.version = "1.0",
	.summary = "Fox and Geese: the geese (x) move down, the fox (o) any "
	    "way, diagonally; pen the fox",
	.params_help = NULL,
	.flags = CG_LOOPY | CG_BOARD | CG_ENUMERATES,
	.parse = fg_parse,
	.print = fg_print,
	.options = fg_options,
	.enumerate = fg_enumerate,
};

CG_RULESET_ENTRY(foxgeese, foxgeese_ruleset)
