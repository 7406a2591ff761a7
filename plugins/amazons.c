/*
 * amazons.c - the Game of the Amazons on any board: a move takes one of
 * your amazons like a chess queen (any distance along a row, column or
 * diagonal, over empty squares only) and then shoots an arrow from its
 * landing square, again like a queen, burning the square it lands on.
 * The square the amazon left is empty, so the arrow may pass over it or
 * land there.
 *
 * Text: CGSuite's notation, rows separated by '|', 'x' a Left amazon, 'o'
 * a Right amazon, '.' empty, '#' burnt ('X' and 'O' are read as 'x' and
 * 'o', MCGS's letters).
 * Bytes: plugins/lib/grid.h (rows, cols, one character per cell).
 * Parameter: none, or "reference" (grid.h: the labelling code for every
 * board instead of bit boards, to check them against).
 * Move names: FROM-TO/ARROW in chess coordinates, columns a, b, ... from
 * the left, rows 1, 2, ... from the BOTTOM row of the text: in "x..|o.."
 * Left's amazon is on a2 and "a2-c2/b1" moves it to the top right corner
 * and burns the middle of the bottom row.  move_parse() reads the same
 * names and says why a move is illegal.
 *
 * Regions: the 8-connected groups of unburnt squares (an amazon cannot
 * cross a burnt square, not even diagonally between two).  A region in
 * which no amazon has an empty neighbour has no moves at all (0) and is
 * dropped, and so is one without amazons.  All 8 symmetries keep the
 * game.
 *
 * enumerate("WxH"): every region (8-connected unburnt squares) that fits
 * a box W columns wide and H rows high (or H wide and W high: positions
 * are taken up to symmetry) with at most one amazon of each side and at
 * least one amazon that can move, once up to the 8 symmetries, as its
 * canonical form; W*H <= 30.  Smaller boxes first.
 *
 * cg.rank (cg/rank.h): the family's members numbered by arithmetic on
 * their cells (the index is described above struct am_rank).
 */
#include <stdlib.h>
#include <string.h>

#include "cg/rank.h"
#include "cg/conjugate.h"
#include "cg/ruleset.h"
#include "grid.h"

#define AMAZONS_ENUM_CELLS 30

static const int am_dr[8] = { -1, -1, -1, 0, 0, 1, 1, 1 };
static const int am_dc[8] = { -1, 0, 1, -1, 1, -1, 0, 1 };

/* Does some amazon of the board have an empty neighbour? */
static int
am_mobile(const unsigned char *board)
{
	int R = board[0], C = board[1], r, c, d, nr, nc;
	const unsigned char *cells = board + GRID_HDR;

	for (r = 0; r < R; r++)
		for (c = 0; c < C; c++) {
			if (cells[(size_t)r * C + c] != 'x' &&
			    cells[(size_t)r * C + c] != 'o')
				continue;
			for (d = 0; d < 8; d++) {
				nr = r + am_dr[d];
				nc = c + am_dc[d];
				if (nr >= 0 && nr < R && nc >= 0 && nc < C &&
				    cells[(size_t)nr * C + nc] == '.')
					return 1;
			}
		}
	return 0;
}

static int
am_keep(const unsigned char *board, size_t n)
{
	(void)n;
	return am_mobile(board);
}

/* The alphabet ".#xo" codes '.' 0, '#' 1, 'x' 2, 'o' 3: the amazons are
 * the hi plane, the empty squares neither plane. */
static int
am_keep_bits(const struct grid_bits *b, uint64_t region)
{
	uint64_t amazons = region & b->hi, empty = region & ~b->hi & ~b->lo;

	return (grid_bits_grow(b, amazons, 1) & empty) != 0;
}

static const struct grid_game am_game = {
	.wall = '#',
	.alphabet = ".#xo",
	.nsym = 8,
	.conn8 = 1,
	.keep = am_keep,
	.keep_bits = am_keep_bits,
};

static int
am_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	char map[256] = { 0 };

	map['.'] = '.';
	map['#'] = '#';
	map['x'] = map['X'] = 'x';
	map['o'] = map['O'] = 'o';
	return grid_parse_text(cx, text, len, map, out);
}

static int
am_print(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	return grid_print(cx, &am_game, pos, len, out);
}

/* What am_options() works with while it builds the children. */
struct am_gen {
	const struct cg_context *cx;
	unsigned char *child, *cells, me;
	size_t len;
	int rows, cols;
	char move[40];             /* "FROM-TO/" then the arrow's square */
	int bits;                  /* the bit boards are kept */
	struct grid_bits b, cb;    /* of the position, of the child */
	uint64_t hi1, lo1;         /* the child's planes before the arrow */
	cg_emit_fn emit;
	void *ctx;
};

/* Every arrow from the amazon on (r, c), n: length of the move name so
 * far.  Returns non-zero to stop. */
static int
am_arrows(struct am_gen *g, int r, int c, size_t n)
{
	int d, r2, c2, rc;
	size_t a;
	uint64_t sq;

	for (d = 0; d < 8; d++)
		for (r2 = r + am_dr[d], c2 = c + am_dc[d]; r2 >= 0 &&
		    r2 < g->rows && c2 >= 0 && c2 < g->cols;
		    r2 += am_dr[d], c2 += am_dc[d]) {
			a = (size_t)r2 * g->cols + c2;
			if (g->cells[a] != '.')
				break;
			g->cells[a] = '#';
			grid_coord(g->move + n, r2, c2, g->rows);
			if (g->bits) {
				sq = (uint64_t)1 << a;
				g->cb.hi = g->hi1 & ~sq;
				g->cb.lo = g->lo1 | sq;
				g->cb.live = g->b.live & ~sq;
				rc = grid_emit_lent(g->cx, g->child, g->len,
				    &g->cb, 0, g->emit, g->ctx, g->move);
			} else {
				rc = g->emit(g->ctx, g->child, g->len, g->move);
			}
			g->cells[a] = '.';
			if (rc)
				return 1;
		}
	return 0;
}

/* Every move of the amazon on square k = (r, c). */
static int
am_amazon(struct am_gen *g, int r, int c)
{
	size_t k = (size_t)r * g->cols + c, t, n0, n1;
	/* bit boards only for boards of at most 64 squares */
	uint64_t from = g->bits ? (uint64_t)1 << k : 0, to;
	int d, r1, c1;

	g->cells[k] = '.';
	n0 = grid_coord(g->move, r, c, g->rows);
	g->move[n0++] = '-';
	for (d = 0; d < 8; d++)
		for (r1 = r + am_dr[d], c1 = c + am_dc[d]; r1 >= 0 &&
		    r1 < g->rows && c1 >= 0 && c1 < g->cols;
		    r1 += am_dr[d], c1 += am_dc[d]) {
			t = (size_t)r1 * g->cols + c1;
			if (g->cells[t] != '.')
				break;
			g->cells[t] = g->me;
			n1 = n0 + grid_coord(g->move + n0, r1, c1, g->rows);
			g->move[n1++] = '/';
			/* the alphabet ".#xo" codes '.' 0, '#' 1, 'x' 2, 'o' 3 */
			to = g->bits ? (uint64_t)1 << t : 0;
			g->hi1 = (g->b.hi & ~from) | to;
			g->lo1 = (g->b.lo & ~from & ~to) |
			    (g->me == 'o' ? to : 0);
			if (am_arrows(g, r1, c1, n1))
				return 1;
			g->cells[t] = '.';
		}
	g->cells[k] = g->me;
	return 0;
}

/* Amazons of side in reading order; for each, the 8 directions (up-left,
 * up, up-right, left, right, down-left, down, down-right), nearest square
 * first; for each landing square the arrows in the same order.  The move
 * name's "FROM-TO/" is written once per landing square.  A board of at
 * most 64 squares keeps its bit board in step with the child's bytes and
 * lends it with each option (grid.h: decompose() is asked next). */
static int
am_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	struct am_gen g;
	int rc, r, c;

	memset(&g, 0, sizeof g);
	if ((rc = grid_dims(cx, pos, len, &g.rows, &g.cols)) < 0)
		return rc;
	g.cx = cx;
	g.len = len;
	g.me = side == CG_LEFT ? 'x' : 'o';
	g.emit = emit;
	g.ctx = ctx;
	g.bits = grid_use_bits(cx, (size_t)g.rows * g.cols) &&
	    grid_bits_get(cx, &am_game, pos, &g.b) >= 0;
	g.cb = g.b;
	g.child = cx->host->alloc(len);
	if (g.child == NULL)
		return CG_ENOMEM;
	memcpy(g.child, pos, len);
	g.cells = g.child + GRID_HDR;
	rc = CG_OK;
	for (r = 0; r < g.rows && rc == CG_OK; r++)
		for (c = 0; c < g.cols; c++)
			if (g.cells[(size_t)r * g.cols + c] == g.me &&
			    am_amazon(&g, r, c)) {
				rc = CG_STOP;
				break;
			}
	cx->host->free(g.child);
	return rc;
}

/* Is (r1,c1) reachable from (r0,c0) by a queen move over empty squares
 * of cells (the destination must be empty too)?  0 yes, 1 not on a
 * line, 2 blocked. */
static int
am_line(const unsigned char *cells, int cols, int r0, int c0, int r1, int c1)
{
	int dr = (r1 > r0) - (r1 < r0), dc = (c1 > c0) - (c1 < c0);

	if ((r0 == r1 && c0 == c1) ||
	    (r0 != r1 && c0 != c1 && abs(r1 - r0) != abs(c1 - c0)))
		return 1;
	do {
		r0 += dr;
		c0 += dc;
		if (cells[(size_t)r0 * cols + c0] != '.')
			return 2;
	} while (r0 != r1 || c0 != c1);
	return 0;
}

static int
am_move_parse(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, const char *text, struct cg_buf *child)
{
	const struct cg_host *h = cx->host;
	int rows, cols, rc, r[3], c[3], off, i, why;
	size_t at = 0, n, start, col[3], nlen[3];
	unsigned char *cells, me = side == CG_LEFT ? 'x' : 'o';
	static const char sep[3] = { '-', '/', '\0' };
	static const char *const what[3] = { "amazon", "landing square",
	    "arrow" };
	const char *who = side == CG_LEFT ? "Left" : "Right";

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	for (i = 0; i < 3; i++) {
		n = grid_coord_parse(text + at, rows, cols, &r[i], &c[i], &off);
		if (n == 0)
			return h->error(cx->err, at + 1,
			    "expected a square like a1 for the %s (moves are "
			    "written FROM-TO/ARROW, e.g. a1-a3/b4)", what[i]);
		if (off)
			return h->error(cx->err, at + 1,
			    "square '%.*s' is off the %dx%d board", (int)n,
			    text + at, cols, rows);
		col[i] = at + 1;
		nlen[i] = n;
		at += n;
		if (text[at] != sep[i]) {
			if (sep[i] == '\0')
				return h->error(cx->err, at + 1,
				    "unexpected text after the move");
			return h->error(cx->err, at + 1, "expected '%c' after "
			    "the %s square", sep[i], i == 0 ? "from" : "to");
		}
		at++;
	}
	start = child->len;
	if (h->buf_put(child, pos, len) < 0)
		return CG_ENOMEM;
	cells = child->data + start + GRID_HDR;
	if (cells[(size_t)r[0] * cols + c[0]] != me) {
		child->len = start;
		return h->error(cx->err, col[0], "no %s amazon on %.*s", who,
		    (int)nlen[0], text + col[0] - 1);
	}
	cells[(size_t)r[0] * cols + c[0]] = '.';
	why = am_line(cells, cols, r[0], c[0], r[1], c[1]);
	if (why != 0) {
		child->len = start;
		return h->error(cx->err, col[1], why == 1 ?
		    "%.*s to %.*s is not a queen move (along a row, column or "
		    "diagonal)" : "the way from %.*s to %.*s is blocked",
		    (int)nlen[0], text + col[0] - 1, (int)nlen[1],
		    text + col[1] - 1);
	}
	cells[(size_t)r[1] * cols + c[1]] = me;
	why = am_line(cells, cols, r[1], c[1], r[2], c[2]);
	if (why != 0) {
		child->len = start;
		return h->error(cx->err, col[2], why == 1 ?
		    "the arrow from %.*s to %.*s is not a queen move" :
		    "the arrow's way from %.*s to %.*s is blocked",
		    (int)nlen[1], text + col[1] - 1, (int)nlen[2],
		    text + col[2] - 1);
	}
	cells[(size_t)r[2] * cols + c[2]] = '#';
	return CG_OK;
}

static int
am_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	return grid_canonical(cx, &am_game, pos, len, out);
}

static int
am_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	return grid_decompose(cx, &am_game, pos, len, emit, ctx);
}

/* Is mask (the unburnt squares of b's box) one 8-connected region that
 * touches all four sides of the box? */
static int
am_shape_ok(struct grid_bits *b, uint64_t mask)
{
	uint64_t rowmask = b->C == 64 ? ~(uint64_t)0 : ((uint64_t)1 << b->C) - 1, colL = b->all & ~b->notl;

	if ((mask & rowmask) == 0 || (mask >> (b->N - b->C)) == 0 ||
	    (mask & colL) == 0 || (mask & ~b->notr) == 0)
		return 0;
	b->live = mask;
	return grid_bits_region(b, mask & -mask, 1) == mask;
}

/* Emit a position of the family, lent with its bit board (one region
 * that spans its box, with an amazon that can move: a component).
 * Codes of ".#xo": '#' and 'o' have the lo bit, 'x' and 'o' the hi. */
static int
am_emit_shape(const struct cg_context *cx, struct grid_bits *b,
    const unsigned char *board, size_t len, uint64_t bx, uint64_t bo,
    cg_emit_fn emit, void *ctx)
{
	b->hi = bx | bo;
	b->lo = (b->all & ~b->live) | bo;
	return grid_emit_lent(cx, board, len, b, 1, emit, ctx, NULL);
}

static int
am_parse_box(const char *family, int *W, int *H)
{
	long w = 0, hh = 0;
	const char *s = family;

	if (s == NULL || *s < '1' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9' && w < 1000)
		w = w * 10 + (*s++ - '0');
	if (*s++ != 'x' || *s < '1' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9' && hh < 1000)
		hh = hh * 10 + (*s++ - '0');
	if (*s != '\0' || w * hh > AMAZONS_ENUM_CELLS)
		return -1;
	*W = (int)w;
	*H = (int)hh;
	return 0;
}

static int
am_enumerate(const struct cg_context *cx, const char *family,
    cg_emit_fn emit, void *ctx)
{
	unsigned char board[GRID_HDR + AMAZONS_ENUM_CELLS];
	unsigned char *cells = board + GRID_HDR;
	struct grid_bits b;
	int W, H, R, C, n, px, po, i;
	uint64_t mask, amazons, bx, bo;
	size_t L;

	if (am_parse_box(family, &W, &H) < 0)
		return cx->host->error(cx->err, 0, "bad family '%s' (expected "
		    "WxH, a box W columns wide and H rows high, W*H <= %d)",
		    family ? family : "", AMAZONS_ENUM_CELLS);
	/* canonical boards have rows <= cols */
	for (n = 1; n <= W * H; n++)
		for (R = 1; R <= n; R++) {
			if (n % R != 0)
				continue;
			C = n / R;
			if (R > C || !((R <= H && C <= W) ||
			    (R <= W && C <= H)))
				continue;
			board[0] = (unsigned char)R;
			board[1] = (unsigned char)C;
			L = GRID_HDR + (size_t)n;
			grid_bits_shape(&b, R, C);
			for (mask = 1; mask < ((uint64_t)1 << n); mask++) {
				if (!am_shape_ok(&b, mask))
					continue;
				for (i = 0; i < n; i++)
					cells[i] = (mask >> i) & 1 ? '.' : '#';
				/* px/po: square of x/o, n = none */
				for (px = 0; px <= n; px++) {
					if (px < n && cells[px] != '.')
						continue;
					bx = px < n ? (uint64_t)1 << px : 0;
					if (px < n)
						cells[px] = 'x';
					for (po = 0; po <= n; po++) {
						if (po < n && cells[po] != '.')
							continue;
						if (px == n && po == n)
							continue;
						bo = po < n ? (uint64_t)1 << po : 0;
						if (po < n)
							cells[po] = 'o';
						/* some amazon next to an empty
						 * square: am_mobile() */
						amazons = bx | bo;
						if ((grid_bits_grow(&b, amazons,
						    1) & mask & ~amazons) != 0 &&
						    grid_sym_best(board,
						    am_game.nsym) == 0 &&
						    am_emit_shape(cx, &b, board,
						    L, bx, bo, emit, ctx))
							return CG_STOP;
						if (po < n)
							cells[po] = '.';
					}
					if (px < n)
						cells[px] = '.';
				}
			}
		}
	return CG_OK;
}

/*
 * cg.rank (cg/rank.h): the index of family "WxH" counts every board the
 * enumeration could meet, so rank() is arithmetic on the board's bits.
 *
 * Boxes: R x C with R <= C fitting W x H either way, in enumerate()'s
 * order (R * C ascending, then R); box by box, each owns the slots after
 * those of the boxes before it.  Inside an R x C box of n cells, masks
 * m = 0 .. 2^n - 1 in ascending order, bit i set when cell i (r * C + c)
 * is not burnt ('.', 'x' or 'o'); mask m owns f(k) = k (k + 1) slots,
 * k = popcount(m), the placements of at most one 'x' and one 'o' on its
 * k unburnt cells, numbered 0 .. k - 1 in cell order, with at least one
 * amazon: slot j (j < k) is 'o' on cell j without 'x'; slot k + a k is
 * 'x' on cell a without 'o', and slot k + a k + 1 + b is 'x' on cell a
 * and 'o' on the b-th of the other k - 1 cells.
 *
 * The masks below m are, for each set bit i of m with p set bits above
 * it, those that agree with m above bit i, lack bit i and are free
 * below it; they own am_block(i, p) = sum over j of C(i, j) f(p + j)
 * slots, a polynomial in i and p times 2^i.  So the offset of m in its
 * box is one such term per set bit of m (a table of them is kept with
 * the family's box offsets), and unrank() finds m bit by bit from the
 * highest, the masks without the bit coming first.  A box of n cells owns
 * am_block(n, 0) = 2^(n-2) n (n + 3) slots: 5x4 has 1.3e8 slots in all,
 * 5x5 6.0e9, 5x6 2.7e11.
 *
 * Every board of such a box with at most one amazon of each side and at
 * least one has a slot, whether or not it is one region, touches its
 * sides, can move or is canonical; those that are not members are the
 * holes of the index.
 */

/* The tables of a family: where each box starts, and am_block(). */
struct am_rank {
	uint64_t key;               /* grid_rank_get(): the family's */
	uint64_t slots;
	/* the first slot of box R x C (R <= C, so R <= 5), or UINT64_MAX
	 * when the box is not in the family */
	uint64_t off[6][AMAZONS_ENUM_CELLS + 1];
	uint64_t block[AMAZONS_ENUM_CELLS + 1][AMAZONS_ENUM_CELLS + 1];
	int nbox;                   /* the boxes in order, for unrank() */
	unsigned char box[64][2];
};

/* sum over j = 0 .. i of C(i, j) f(p + j), f(k) = k (k + 1): with
 * sum C(i, j) = 2^i, sum j C(i, j) = i 2^(i-1) and sum j^2 C(i, j) =
 * i (i + 1) 2^(i-2), that is 2^(i-2) (4 p (p + 1) + 2 i (2 p + 1) +
 * i (i + 1)), a whole number for every i and p. */
static inline uint64_t
am_block(unsigned i, unsigned p)
{
	return ((uint64_t)(4 * p * (p + 1) + 2 * i * (2 * p + 1) +
	    i * (i + 1)) << i) >> 2;
}

/* The tables of family: those kept in the state, else made and kept
 * (without a state, made for the call: *scratch is then what to free
 * after it).  NULL with *rc set on an error. */
static const struct am_rank *
am_rank_tables(const struct cg_context *cx, const char *family,
    void **scratch, int *rc)
{
	struct am_rank *t;
	int W, H, n, R, C;
	unsigned i, p;
	uint64_t key, at = 0;

	if (am_parse_box(family, &W, &H) < 0) {
		*rc = cx->host->error(cx->err, 0, "bad family '%s' (expected "
		    "WxH, a box W columns wide and H rows high, W*H <= %d)",
		    family ? family : "", AMAZONS_ENUM_CELLS);
		return NULL;
	}
	key = (uint64_t)W << 16 | (uint64_t)H;
	*scratch = NULL;
	if ((t = grid_rank_get(cx, key)) != NULL)
		return t;
	if ((t = cx->host->alloc(sizeof *t)) == NULL) {
		*rc = CG_ENOMEM;
		return NULL;
	}
	memset(t->off, 0xff, sizeof t->off);
	t->key = key;
	t->nbox = 0;
	for (i = 0; i <= AMAZONS_ENUM_CELLS; i++)
		for (p = 0; i + p <= AMAZONS_ENUM_CELLS; p++)
			t->block[i][p] = am_block(i, p);
	/* am_enumerate()'s order */
	for (n = 1; n <= W * H; n++)
		for (R = 1; R * R <= n; R++) {
			C = n / R;
			if (n % R != 0 || !((R <= H && C <= W) ||
			    (R <= W && C <= H)))
				continue;
			t->off[R][C] = at;
			t->box[t->nbox][0] = (unsigned char)R;
			t->box[t->nbox++][1] = (unsigned char)C;
			at += am_block((unsigned)n, 0);
		}
	t->slots = at;
	if (grid_rank_put(cx, t) < 0)
		*scratch = t;
	return t;
}

static int
am_slots(const struct cg_context *cx, const char *family, uint64_t *n)
{
	const struct am_rank *t;
	void *scratch;
	int rc;

	if ((t = am_rank_tables(cx, family, &scratch, &rc)) == NULL)
		return rc;
	*n = t->slots;
	grid_rank_done(cx, scratch);
	return CG_OK;
}

/* The n (<= 30) cells of a board as masks, 8 at a time: the unburnt
 * ones, the x's and the o's.  -1 for a byte outside ".#xo". */
static inline int
am_rank_cells(const unsigned char *cells, int n, uint64_t *live,
    uint64_t *x, uint64_t *o)
{
	uint64_t v, dot, wall, xs, os;
	int s, i, k;

	*live = *x = *o = 0;
	for (s = 0; s < n; s += 8) {
		k = n - s < 8 ? n - s : 8;
		v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (k == 8)
			memcpy(&v, cells + s, 8);
		else
#endif
			for (i = 0; i < k; i++)
				v |= (uint64_t)cells[s + i] << (8 * i);
		dot = grid_bytes_eq8(v, '.');
		wall = grid_bytes_eq8(v, '#');
		xs = grid_bytes_eq8(v, 'x');
		os = grid_bytes_eq8(v, 'o');
		if ((dot | wall | xs | os) != ((uint64_t)1 << k) - 1)
			return -1;
		*live |= (dot | xs | os) << s;
		*x |= xs << s;
		*o |= os << s;
	}
	return 0;
}

/* The slot of pos in the index whose tables are t. */
static int
am_rank_in(const struct am_rank *t, const unsigned char *pos, size_t len,
    uint64_t *r)
{
	uint64_t live, m, x, o, at;
	int i, p, k;

	if (len < GRID_HDR || pos[0] == 0 || pos[0] > pos[1] ||
	    pos[0] >= sizeof t->off / sizeof t->off[0] ||
	    pos[1] > AMAZONS_ENUM_CELLS ||
	    len != GRID_HDR + (size_t)pos[0] * pos[1] ||
	    (at = t->off[pos[0]][pos[1]]) == UINT64_MAX ||
	    am_rank_cells(pos + GRID_HDR, pos[0] * pos[1], &live, &x, &o) < 0 ||
	    (x & (x - 1)) != 0 || (o & (o - 1)) != 0 || (x | o) == 0)
		return CG_EUNSUPPORTED;
	/* the masks below live: cell i with p unburnt cells above it */
	k = grid_pop(live);
	for (m = live, p = k; m != 0; m &= m - 1) {
		i = __builtin_ctzll(m);
		at += t->block[i][--p];
	}
	/* the placement, by the amazons' numbers among the unburnt cells */
	if (x == 0)
		at += (uint64_t)grid_pop(live & (o - 1));
	else {
		at += (uint64_t)k * (1 + (uint64_t)grid_pop(live & (x - 1)));
		if (o != 0)
			at += 1 + (uint64_t)grid_pop(live & (o - 1) & ~x);
	}
	*r = at;
	return CG_OK;
}

static int
am_rank(const struct cg_context *cx, const char *family,
    const unsigned char *pos, size_t len, uint64_t *r)
{
	const struct am_rank *t;
	void *scratch;
	int rc;

	if ((t = am_rank_tables(cx, family, &scratch, &rc)) == NULL)
		return rc;
	rc = am_rank_in(t, pos, len, r);
	grid_rank_done(cx, scratch);
	return rc;
}

/* The i-th (from 0) set bit of m, as a mask. */
static inline uint64_t
am_nth_bit(uint64_t m, unsigned i)
{
	while (i-- > 0)
		m &= m - 1;
	return m & -m;
}

/* The board of slot r in the index whose tables are t, appended. */
static int
am_unrank_in(const struct cg_context *cx, const struct am_rank *t,
    uint64_t r, struct cg_buf *out)
{
	unsigned char board[GRID_HDR + AMAZONS_ENUM_CELLS];
	uint64_t m = 0, x = 0, o = 0, u;
	int R = 0, C = 0, n, j;
	unsigned p, k;

	if (r >= t->slots)
		return CG_EUNSUPPORTED;
	/* the last box starting at r or before */
	for (j = t->nbox - 1; j >= 0; j--) {
		R = t->box[j][0];
		C = t->box[j][1];
		if (t->off[R][C] <= r)
			break;
	}
	r -= t->off[R][C];
	n = R * C;
	/* the mask, from its highest cell: the masks without cell j come
	 * first */
	for (j = n - 1, p = 0; j >= 0; j--)
		if (r >= t->block[j][p]) {
			r -= t->block[j][p];
			m |= (uint64_t)1 << j;
			p++;
		}
	/* r < f(k) numbers the placement */
	k = p;
	if (r < k)
		o = am_nth_bit(m, (unsigned)r);
	else {
		u = r - k;
		x = am_nth_bit(m, (unsigned)(u / k));
		if (u % k != 0)
			o = am_nth_bit(m & ~x, (unsigned)(u % k) - 1);
	}
	board[0] = (unsigned char)R;
	board[1] = (unsigned char)C;
	for (j = 0; j < n; j++)
		board[GRID_HDR + j] = x >> j & 1 ? 'x' : o >> j & 1 ? 'o' :
		    m >> j & 1 ? '.' : '#';
	return cx->host->buf_put(out, board, GRID_HDR + (size_t)n);
}

static int
am_unrank(const struct cg_context *cx, const char *family, uint64_t r,
    struct cg_buf *out)
{
	const struct am_rank *t;
	void *scratch;
	int rc;

	if ((t = am_rank_tables(cx, family, &scratch, &rc)) == NULL)
		return rc;
	rc = am_unrank_in(cx, t, r, out);
	grid_rank_done(cx, scratch);
	return rc;
}

static const struct cg_rank am_rank_ext = {
	.struct_size = sizeof(struct cg_rank),
	.slots = am_slots,
	.rank = am_rank,
	.unrank = am_unrank,
};

/* The board with the amazons' colours exchanged: each player has the
 * other's moves, so its value is the board's negative. */
static int
am_conjugate(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	size_t start = out->len, i;
	int rows, cols, rc;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	if (cx->host->buf_put(out, pos, len) < 0)
		return CG_ENOMEM;
	for (i = start + GRID_HDR; i < out->len; i++)
		if (out->data[i] == 'x' || out->data[i] == 'o')
			out->data[i] ^= 'x' ^ 'o';
	return CG_OK;
}

static const struct cg_conjugate am_conjugate_ext = {
	.struct_size = sizeof(struct cg_conjugate),
	.conjugate = am_conjugate,
};

static const void *
am_extension(const struct cg_context *cx, const char *name)
{
	(void)cx;
	if (strcmp(name, CG_EXT_RANK) == 0)
		return &am_rank_ext;
	if (strcmp(name, CG_EXT_CONJUGATE) == 0)
		return &am_conjugate_ext;
	return NULL;
}

static const struct cg_ruleset am_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "amazons",
	.version = "1.0",
	.summary = "Amazons: move an amazon like a queen, then shoot an "
	    "arrow like a queen",
	.params_help = "none, or reference (the labelling code instead of bit "
	    "boards, for checking)",
	.flags = CG_SYMMETRY | CG_DECOMPOSES | CG_ENUMERATES | CG_BOARD,
	.init = grid_init,
	.fini = grid_fini,
	.parse = am_parse,
	.print = am_print,
	.options = am_options,
	.canonical = am_canonical,
	.decompose = am_decompose,
	.enumerate = am_enumerate,
	.move_parse = am_move_parse,
	.extension = am_extension,
	.measure = grid_measure_empty,
};

CG_RULESET_ENTRY(amazons, am_ruleset)
