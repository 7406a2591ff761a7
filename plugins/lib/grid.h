/*
 * grid.h - header-only board code shared by the grid rulesets
 * (domineering, cram, clobber, amazons).  Every function is static.
 *
 * Position bytes (all four rulesets):
 *     byte 0      number of rows R     (1..255)
 *     byte 1      number of columns C  (1..255)
 *     bytes 2..   R*C cells, row by row from the top row, one byte per
 *                 cell holding the cell's character in CGSuite notation
 *                 ('.', '#', 'x', 'o')
 * so print is a copy with '|' between rows, and comparing two boards
 * byte-wise compares (rows, cols, cells) lexicographically.
 *
 * A ruleset describes itself with a struct grid_game: which character is
 * the "wall" (a cell that takes no part in play: '#' for Domineering,
 * Cram and Amazons, '.' for Clobber), its alphabet, whether regions are
 * 4- or 8-connected, how many of the 8 board symmetries preserve the game
 * (4: the flips and the half turn; 8: the whole dihedral group) and which
 * components are worth keeping (the others are 0 and are dropped), asked
 * of a cropped board or of a region of a bit board.
 *
 * Canonical form: split the board into connected components of non-wall
 * cells, drop the worthless ones, crop each to its bounding box (cells of
 * the box outside the component become walls), take for each the
 * smallest encoding over the allowed symmetries, sort them and lay them
 * out left to right in one board, separated by a column of walls and
 * padded with walls below.  No component left: the 1x1 wall board.
 * (This is Glop's Cram normalisation.)  If the laid-out board would be
 * wider than 255 columns, the whole board is cropped and minimised over
 * the symmetries instead (still a valid, idempotent, but less merging
 * form).
 *
 * Two ways to the same bytes: boards of at most 64 cells (every board of
 * a knowledge-base family) are bit boards, regions grown by shifts and
 * cut out on the stack; larger ones are labelled cell by cell.  The
 * rulesets' parameter "reference" sends every board the second way, to
 * check the first against.  Hooks of one thread share a state (init()
 * makes it) through which a board handed to the host comes back without
 * being read again (see struct grid_lent).
 *
 * Coordinates in move names: a column is a letter, a for the leftmost
 * (z, then aa, ab, ... as in spreadsheets), a row a number, 1 for the
 * BOTTOM row of the text (chess style): in "..|.x" the x is on b1.
 */
#ifndef CG_PLUGIN_GRID_H
#define CG_PLUGIN_GRID_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cg/ruleset.h"

#define GRID_HDR 2
#define GRID_MAX_SIDE 255

struct grid_bits;

struct grid_game {
	char wall;          /* the cell that takes no part in play */
	/* the characters a board may contain (at most 4); on bit boards a
	 * cell's code is the index of its character here */
	const char *alphabet;
	unsigned nsym;      /* 4 (no transposition) or 8 */
	int conn8;          /* components are 8-connected */
	/* Is this cropped component (a board) worth keeping?  n = number
	 * of its non-wall cells.  NULL keeps every component. */
	int (*keep)(const unsigned char *board, size_t n);
	/* The same with the game at hand (a ruleset whose grid_game is part
	 * of a larger description); used instead of keep when set. */
	int (*keep_with)(const struct grid_game *g, const unsigned char *board,
	    size_t n);
	/* The same question on bit boards: is region (a connected set of
	 * live cells of b) worth keeping?  Must agree with keep. */
	int (*keep_bits)(const struct grid_bits *b, uint64_t region);
};

static inline int
grid_keep(const struct grid_game *g, const unsigned char *board, size_t n)
{
	if (g->keep_with != NULL)
		return g->keep_with(g, board, n);
	return g->keep == NULL || g->keep(board, n);
}

/* ------------------------------------------------------------------ */
/* checking, parsing, printing                                         */

/* Is pos a well-formed board?  Sets *rows, *cols.  0 or CG_EPARSE. */
static inline int
grid_dims(const struct cg_context *cx, const unsigned char *pos, size_t len,
    int *rows, int *cols)
{
	if (len < GRID_HDR || pos[0] == 0 || pos[1] == 0 ||
	    len != GRID_HDR + (size_t)pos[0] * pos[1]) {
		cx->host->error(cx->err, 0, "corrupt board position");
		return CG_EPARSE;
	}
	*rows = pos[0];
	*cols = pos[1];
	return CG_OK;
}

/* The empty squares of a board: the measure of every game whose moves
 * fill or burn squares (each move leaves fewer empty ones, and so does
 * every region of what it leaves). */
static inline int
grid_measure_empty(const struct cg_context *cx, const unsigned char *pos,
    size_t len, uint64_t *m)
{
	size_t i;
	uint64_t n = 0;

	(void)cx;
	for (i = GRID_HDR; i < len; i++)
		n += pos[i] == '.';
	*m = n;
	return CG_OK;
}

static inline int
grid_badchar(const struct cg_context *cx, size_t col, int c)
{
	if (c > ' ' && c < 127)
		return cx->host->error(cx->err, col, "bad character '%c'", c);
	return cx->host->error(cx->err, col, "bad character '\\x%02x'",
	    (unsigned char)c);
}

/*
 * Parse CGSuite's notation, rows separated by '|'.  map translates a text
 * character into a cell byte (0 = not allowed).  Appends the board.
 */
static inline int
grid_parse_text(const struct cg_context *cx, const char *text, size_t len,
    const char map[256], struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	size_t i, start = out->len, w = 0, rowlen = 0, rows = 0;
	unsigned char hdr[GRID_HDR] = { 0, 0 };

	if (len == 0)
		return h->error(cx->err, 1, "empty board");
	if (h->buf_put(out, hdr, GRID_HDR) < 0)
		return CG_ENOMEM;
	for (i = 0; i <= len; i++) {
		if (i == len || text[i] == '|') {
			if (rowlen == 0)
				return h->error(cx->err, i + 1, "empty row");
			if (rows == 0)
				w = rowlen;
			else if (rowlen != w)
				return h->error(cx->err, i + 1,
				    "bad board widths");
			if (++rows > GRID_MAX_SIDE)
				return h->error(cx->err, i + 1,
				    "board too large (at most %d rows)",
				    GRID_MAX_SIDE);
			rowlen = 0;
			continue;
		}
		if (map[(unsigned char)text[i]] == 0)
			return grid_badchar(cx, i + 1, text[i]);
		if (++rowlen > GRID_MAX_SIDE)
			return h->error(cx->err, i + 1,
			    "board too large (at most %d columns)",
			    GRID_MAX_SIDE);
		if (rows > 0 && rowlen > w)
			return h->error(cx->err, i + 1, "bad board widths");
		if (h->buf_putc(out, map[(unsigned char)text[i]]) < 0)
			return CG_ENOMEM;
	}
	out->data[start] = (unsigned char)rows;
	out->data[start + 1] = (unsigned char)w;
	return CG_OK;
}

/* Check that every cell of a board is in the game's alphabet. */
static inline int
grid_check_cells(const struct cg_context *cx, const struct grid_game *g,
    const unsigned char *pos, size_t len)
{
	size_t i;

	for (i = GRID_HDR; i < len; i++)
		if (pos[i] == 0 || strchr(g->alphabet, pos[i]) == NULL)
			return cx->host->error(cx->err, 0,
			    "corrupt board position");
	return CG_OK;
}

static inline int
grid_print(const struct cg_context *cx, const struct grid_game *g,
    const unsigned char *pos, size_t len, struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	int rows, cols, r, rc;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0 ||
	    (rc = grid_check_cells(cx, g, pos, len)) < 0)
		return rc;
	for (r = 0; r < rows; r++) {
		if (r > 0 && h->buf_putc(out, '|') < 0)
			return CG_ENOMEM;
		if (h->buf_put(out, pos + GRID_HDR + (size_t)r * cols,
		    (size_t)cols) < 0)
			return CG_ENOMEM;
	}
	return CG_OK;
}

/* ------------------------------------------------------------------ */
/* coordinates                                                         */

/* Write the name of cell (r, c) of a board with `rows` rows ("b1");
 * returns the number of characters written (at most 7, NUL added). */
static inline size_t
grid_coord(char *s, int r, int c, int rows)
{
	char tmp[8];
	size_t n = 0, k = 0;
	int v = c + 1, rank = rows - r;

	while (v > 0) {
		v--;
		tmp[k++] = (char)('a' + v % 26);
		v /= 26;
	}
	while (k > 0)
		s[n++] = tmp[--k];
	if (rank >= 100)
		s[n++] = (char)('0' + rank / 100);
	if (rank >= 10)
		s[n++] = (char)('0' + rank / 10 % 10);
	s[n++] = (char)('0' + rank % 10);
	s[n] = '\0';
	return n;
}

/* Parse a cell name at text; returns characters used (0 = none, or the
 * cell is off the board: *off set then). */
static inline size_t
grid_coord_parse(const char *text, int rows, int cols, int *r, int *c,
    int *off)
{
	size_t i = 0;
	long col = 0, rank = 0;

	*off = 0;
	while (text[i] >= 'a' && text[i] <= 'z' && i < 4) {
		col = col * 26 + (text[i] - 'a' + 1);
		i++;
	}
	if (i == 0 || text[i] < '1' || text[i] > '9')
		return 0;
	while (text[i] >= '0' && text[i] <= '9' && rank < 100000) {
		rank = rank * 10 + (text[i] - '0');
		i++;
	}
	if (col > cols || rank > rows) {
		*off = 1;
		return i;
	}
	*c = (int)col - 1;
	*r = rows - (int)rank;
	return i;
}

/* ------------------------------------------------------------------ */
/* symmetries                                                          */

/*
 * Symmetry k (0..7) of an R x C board: bit 2 transposes (first), bit 1
 * flips the rows, bit 0 flips the columns.  0..3 keep the orientation of
 * dominoes (identity, left-right mirror, up-down mirror, half turn).
 * Returns the source index of cell (i, j) of the image.
 */
static inline size_t
grid_sym_src(int k, int R, int C, int i, int j)
{
	int Rd = (k & 4) ? C : R, Cd = (k & 4) ? R : C;

	if (k & 2)
		i = Rd - 1 - i;
	if (k & 1)
		j = Cd - 1 - j;
	return (k & 4) ? (size_t)j * C + i : (size_t)i * C + j;
}

/* Image k of an R x C board as strides: the source index of cell (i, j)
 * of the image is base + i * si + j * sj. */
static inline void
grid_sym_strides(int k, int R, int C, long *base, long *si, long *sj)
{
	int Rd = (k & 4) ? C : R, Cd = (k & 4) ? R : C;

	if (!(k & 4)) {
		*si = (k & 2) ? -C : C;
		*sj = (k & 1) ? -1 : 1;
		*base = ((k & 2) ? (long)(Rd - 1) * C : 0) +
		    ((k & 1) ? Cd - 1 : 0);
	} else {
		*si = (k & 2) ? -1 : 1;
		*sj = (k & 1) ? -C : C;
		*base = ((k & 2) ? Rd - 1 : 0) +
		    ((k & 1) ? (long)(Cd - 1) * C : 0);
	}
}

/* Compare the images of a board under symmetries a and b (same dims). */
static inline int
grid_sym_cmp(const unsigned char *cells, int R, int C, int a, int b)
{
	int Rd = (a & 4) ? C : R, Cd = (a & 4) ? R : C, i, j;
	long ba, sia, sja, bb, sib, sjb, pa, pb;
	unsigned char x, y;

	grid_sym_strides(a, R, C, &ba, &sia, &sja);
	grid_sym_strides(b, R, C, &bb, &sib, &sjb);
	for (i = 0; i < Rd; i++) {
		pa = ba + i * sia;
		pb = bb + i * sib;
		for (j = 0; j < Cd; j++, pa += sja, pb += sjb) {
			x = cells[pa];
			y = cells[pb];
			if (x != y)
				return x < y ? -1 : 1;
		}
	}
	return 0;
}

/* The first symmetry whose image (rows, cols, cells) is smallest. */
static inline int
grid_sym_best(const unsigned char *board, unsigned nsym)
{
	int R = board[0], C = board[1], best = 0, k;
	const unsigned char *cells = board + GRID_HDR;

	for (k = 1; k < (int)nsym; k++) {
		if ((k & 4) && R != C) {
			if (R > C && !(best & 4))
				best = k;  /* transposed dims are smaller */
			else if (R < C)
				break;     /* transposed dims are larger */
			else if (grid_sym_cmp(cells, R, C, k, best) < 0)
				best = k;
			continue;
		}
		if (grid_sym_cmp(cells, R, C, k, best) < 0)
			best = k;
	}
	return best;
}

/* Write the image of board under symmetry k to dst (header included). */
static inline void
grid_sym_write(const unsigned char *board, int k, unsigned char *dst)
{
	int R = board[0], C = board[1], Rd = (k & 4) ? C : R,
	    Cd = (k & 4) ? R : C, i, j;

	dst[0] = (unsigned char)Rd;
	dst[1] = (unsigned char)Cd;
	for (i = 0; i < Rd; i++)
		for (j = 0; j < Cd; j++)
			dst[GRID_HDR + (size_t)i * Cd + j] =
			    board[GRID_HDR + grid_sym_src(k, R, C, i, j)];
}

/* ------------------------------------------------------------------ */
/* bit boards: boards of at most 64 cells                              */

/*
 * A board of at most 64 cells as bit masks, bit r*C+c for cell (r, c).
 * A cell's code (the index of its byte in g->alphabet) is split over hi
 * and lo, so
 * the cells of code k are grid_bits_plane(b, k).  Regions grow by shifts
 * and are cut out of the board bytes without any allocation: canonical()
 * and decompose() of small boards (every board of a knowledge-base
 * family) take this path, larger boards the labelling code below, and
 * both give the same bytes.
 */
#define GRID_BITS_MAX 64

struct grid_bits {
	int R, C, N;
	uint64_t all;        /* the N cells */
	uint64_t live;       /* cells that are not walls */
	uint64_t hi, lo;     /* bit 1 and bit 0 of each cell's code */
	uint64_t notl, notr; /* cells not in the first / last column */
};

/* The number of set bits of x, without a call into libgcc where the
 * processor's instruction is not assumed. */
static inline int
grid_pop(uint64_t x)
{
#ifdef __POPCNT__
	return __builtin_popcountll(x);
#else
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (int)((x * 0x0101010101010101ull) >> 56);
#endif
}

/* The cells of code k (0..3). */
static inline uint64_t
grid_bits_plane(const struct grid_bits *b, unsigned k)
{
	return (k & 2 ? b->hi : ~b->hi) & (k & 1 ? b->lo : ~b->lo) & b->all;
}

/* The masks of an R x C box (R*C <= 64) with no cells set. */
static inline void
grid_bits_shape(struct grid_bits *b, int R, int C)
{
	uint64_t one = 1, colL = 1;
	int k;

	b->R = R;
	b->C = C;
	b->N = R * C;
	b->all = b->N == 64 ? ~(uint64_t)0 : (one << b->N) - 1;
	/* the first column, bits 0, C, 2C, ...: rows doubled */
	for (k = 1; k < R; k *= 2)
		colL |= colL << (k * C);
	colL &= b->all;
	b->notl = b->all & ~colL;
	b->notr = b->all & ~(colL << (C - 1));
	b->live = b->hi = b->lo = 0;
}

/* Bit j set when byte j of v (little-endian) is c: zero bytes of v ^ c
 * found without carries between bytes, their top bits gathered by one
 * multiplication (byte j's bit lands on bit 56 + j, no two collide). */
static inline uint64_t
grid_bytes_eq8(uint64_t v, unsigned char c)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
	uint64_t t = v ^ (0x0101010101010101ull * c);
	uint64_t zero = ~(((t & low7) + low7) | t | low7);

	return ((zero >> 7) * 0x0102040810204080ull) >> 56;
}

/* Load a board of at most 64 cells, 8 cells at a time; -1 if a cell is
 * not in the game's alphabet (the labelling code deals with such
 * boards). */
static inline int
grid_bits_load(const struct grid_game *g, const unsigned char *board,
    struct grid_bits *b)
{
	const unsigned char *cells = board + GRID_HDR;
	uint64_t v, m, hi = 0, lo = 0, live = 0, seen = 0;
	int s, i, n, k;

	grid_bits_shape(b, board[0], board[1]);
	for (s = 0; s < b->N; s += 8) {
		n = b->N - s < 8 ? b->N - s : 8;
		v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (n == 8)
			memcpy(&v, cells + s, 8);
		else
#endif
			for (i = 0; i < n; i++)
				v |= (uint64_t)cells[s + i] << (8 * i);
		for (k = 0; g->alphabet[k] != '\0'; k++) {
			m = grid_bytes_eq8(v, (unsigned char)g->alphabet[k]) << s;
			seen |= m;
			if (k & 2)
				hi |= m;
			if (k & 1)
				lo |= m;
			if (g->alphabet[k] != g->wall)
				live |= m;
		}
	}
	b->hi = hi;
	b->lo = lo;
	b->live = live;
	return seen == b->all ? 0 : -1;
}

/* m and the cells next to it (4- or 8-connected); may set bits past N. */
static inline uint64_t
grid_bits_grow(const struct grid_bits *b, uint64_t m, int conn8)
{
	uint64_t h = m | ((m << 1) & b->notl) | ((m >> 1) & b->notr);

	if (b->R == 1)
		return h;
	if (conn8)
		return h | (h << b->C) | (h >> b->C);
	return h | (m << b->C) | (m >> b->C);
}

/* The region (connected live cells) holding the cells of seed. */
static inline uint64_t
grid_bits_region(const struct grid_bits *b, uint64_t seed, int conn8)
{
	uint64_t r = seed, prev;

	do {
		prev = r;
		r = grid_bits_grow(b, r, conn8) & b->live;
	} while (r != prev);
	return r;
}

/* Give the cells of mask m the character of code k (0..3). */
static inline void
grid_bits_set(const struct grid_game *g, struct grid_bits *b, uint64_t m,
    unsigned k)
{
	b->hi = (b->hi & ~m) | (k & 2 ? m : 0);
	b->lo = (b->lo & ~m) | (k & 1 ? m : 0);
	if (g->alphabet[k] == g->wall)
		b->live &= ~m;
	else
		b->live |= m;
}

/* Write to dst (GRID_HDR + 64 bytes) the bounding box of region cut out
 * of board, its other cells walled up; returns the length.  If out is
 * not NULL it gets the bit board of what was written. */
static inline size_t
grid_bits_crop(const struct grid_game *g, const struct grid_bits *b,
    const unsigned char *board, uint64_t region, unsigned char *dst,
    struct grid_bits *out)
{
	const unsigned char *cells = board + GRID_HDR;
	const unsigned char wall = (unsigned char)g->wall;
	int C = b->C, r0 = __builtin_ctzll(region) / C,
	    r1 = (63 - __builtin_clzll(region)) / C, r, c0, w, at;
	uint64_t rowmask = C == 64 ? ~(uint64_t)0 : ((uint64_t)1 << C) - 1,
	    cols = 0, wmask, outside;
	unsigned char *p = dst + GRID_HDR;

	for (r = r0; r <= r1; r++)
		cols |= (region >> (r * C)) & rowmask;
	c0 = __builtin_ctzll(cols);
	w = 64 - __builtin_clzll(cols) - c0;
	wmask = w == 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1;
	dst[0] = (unsigned char)(r1 - r0 + 1);
	dst[1] = (unsigned char)w;
	for (r = r0; r <= r1; r++, p += w) {
		memcpy(p, cells + (size_t)r * C + c0, (size_t)w);
		outside = ~(region >> (r * C + c0)) & wmask;
		for (; outside != 0; outside &= outside - 1)
			p[__builtin_ctzll(outside)] = wall;
	}
	if (out != NULL) {
		grid_bits_shape(out, r1 - r0 + 1, w);
		for (r = r0; r <= r1; r++) {
			at = r * C + c0;
			out->live |= ((region >> at) & wmask) << ((r - r0) * w);
			out->hi |= ((b->hi & region) >> at & wmask) <<
			    ((r - r0) * w);
			out->lo |= ((b->lo & region) >> at & wmask) <<
			    ((r - r0) * w);
		}
		grid_bits_set(g, out, out->all & ~out->live,
		    (unsigned)(strchr(g->alphabet, g->wall) - g->alphabet));
	}
	return GRID_HDR + (size_t)(r1 - r0 + 1) * w;
}

/* Does region reach all four sides of b's box (so cropping it to its
 * bounding box leaves the box as it is)? */
static inline int
grid_bits_spans(const struct grid_bits *b, uint64_t region)
{
	uint64_t rowmask = b->C == 64 ? ~(uint64_t)0 :
	    ((uint64_t)1 << b->C) - 1;

	return (region & rowmask) != 0 && (region >> (b->N - b->C)) != 0 &&
	    (region & ~b->notl) != 0 && (region & ~b->notr) != 0;
}

/* The game's keep() for a region of b (crop: scratch for the bytes). */
static inline int
grid_bits_keep(const struct grid_game *g, const struct grid_bits *b,
    const unsigned char *board, uint64_t region, unsigned char *crop)
{
	if (g->keep_bits != NULL)
		return g->keep_bits(b, region);
	if (g->keep == NULL && g->keep_with == NULL)
		return 1;
	grid_bits_crop(g, b, board, region, crop, NULL);
	return grid_keep(g, crop, (size_t)__builtin_popcountll(region));
}

/*
 * What a grid ruleset keeps per thread (init() makes it, see
 * grid_init()): its parameter, and the board it has lent the host.
 *
 * Lending: a hook that emits a board it owns (the child options() is
 * building, a component decompose() cut out) records the pointer and its
 * bit board here for the time the emit callback runs, and clears them
 * when it returns.  Meanwhile that memory is the plugin's and the host
 * sees it const, so a hook the callback calls with the same pointer is
 * looking at exactly those bytes and takes their bit board from here
 * instead of reading them again: decompose() of an option and
 * canonical() of a component, what a knowledge-base build does for every
 * option.  A copy elsewhere, or a call after the emit, reads the bytes.
 */
struct grid_lent {
	const unsigned char *pos;   /* NULL: nothing lent */
	struct grid_bits b;
	int component;  /* pos is one kept region reaching the four sides */
};

struct grid_state {
	int reference;  /* "reference": the labelling code for every board */
	struct grid_lent lent;
	/* the ruleset's cg.rank tables for the family it was last asked
	 * about (one allocation starting with its uint64_t key; see
	 * grid_rank_get()), or NULL */
	void *rank;
};

/* init() of the grid rulesets: no parameters, or "reference", which
 * sends boards of every size through the labelling code instead of bit
 * boards (the same bytes, slower: an independent check of the bit
 * boards). */
static inline int
grid_init(const struct cg_host *host, const char *params, void **state,
    struct cg_error *err)
{
	struct grid_state *st;

	if (params != NULL && *params != '\0' &&
	    strcmp(params, "reference") != 0) {
		host->error(err, 0, "unknown parameter '%s' (the only one is "
		    "'reference')", params);
		return CG_EPARAM;
	}
	st = host->alloc(sizeof *st);
	if (st == NULL)
		return CG_ENOMEM;
	memset(st, 0, sizeof *st);
	st->reference = params != NULL && *params != '\0';
	*state = st;
	return CG_OK;
}

static inline void
grid_fini(const struct cg_host *host, void *state)
{
	struct grid_state *st = state;

	if (st != NULL)
		host->free(st->rank);
	host->free(state);
}

/*
 * The cg.rank tables a ruleset built for a family: what rank() needs
 * beyond arithmetic (the first slot of each box, counting tables)
 * depends on the family alone, so each thread keeps the tables of the
 * last family it was asked about in its state.  A ruleset's tables are
 * one host allocation whose first member is a uint64_t key naming the
 * family (never 0).  grid_rank_get() gives the kept tables when their
 * key is key, else NULL; grid_rank_put() keeps t instead of those kept
 * before, or returns -1 when there is no state to keep them in: the
 * tables then serve one call, and grid_rank_done() frees them after it
 * (it is given NULL for tables that are kept).
 */
static inline void *
grid_rank_get(const struct cg_context *cx, uint64_t key)
{
	const struct grid_state *st = cx->state;

	if (st != NULL && st->rank != NULL &&
	    *(const uint64_t *)st->rank == key)
		return st->rank;
	return NULL;
}

static inline int
grid_rank_put(const struct cg_context *cx, void *t)
{
	struct grid_state *st = cx->state;

	if (st == NULL)
		return -1;
	cx->host->free(st->rank);
	st->rank = t;
	return 0;
}

static inline void
grid_rank_done(const struct cg_context *cx, void *scratch)
{
	if (scratch != NULL)
		cx->host->free(scratch);
}

/* Do boards of this many cells go through the bit-board code? */
static inline int
grid_use_bits(const struct cg_context *cx, size_t cells)
{
	const struct grid_state *st = cx->state;

	return cells <= GRID_BITS_MAX && (st == NULL || !st->reference);
}

/* The bit board of pos: the lent one if pos is lent, else read.  Returns
 * 1 when pos is known to be one kept region reaching its four sides, 0,
 * or -1 for a byte outside the alphabet. */
static inline int
grid_bits_get(const struct cg_context *cx, const struct grid_game *g,
    const unsigned char *pos, struct grid_bits *b)
{
	const struct grid_state *st = cx->state;

	if (st != NULL && st->lent.pos == pos) {
		*b = st->lent.b;
		return st->lent.component;
	}
	return grid_bits_load(g, pos, b);
}

/* Emit pos (whose bit board is b) lent for the time of the call. */
static inline int
grid_emit_lent(const struct cg_context *cx, const unsigned char *pos,
    size_t len, const struct grid_bits *b, int component, cg_emit_fn emit,
    void *ctx, const char *move)
{
	struct grid_state *st = cx->state;
	int rc;

	if (st == NULL)
		return emit(ctx, pos, len, move);
	st->lent.pos = pos;
	st->lent.b = *b;
	st->lent.component = component;
	rc = emit(ctx, pos, len, move);
	st->lent.pos = NULL;
	return rc;
}



/* ------------------------------------------------------------------ */
/* components                                                          */

static inline int
grid_cmp_boards(const unsigned char *a, const unsigned char *b)
{
	size_t la = GRID_HDR + (size_t)a[0] * a[1];
	size_t lb = GRID_HDR + (size_t)b[0] * b[1];
	int r = memcmp(a, b, la < lb ? la : lb);

	return r ? r : la < lb ? -1 : la > lb;
}

#define GRID_BAD_BYTES 9 /* not a hook result: use the labelling code */

/* grid_split() of a board of at most 64 cells, on bit boards. */
static inline int
grid_split_bits(const struct cg_context *cx, const struct grid_game *g,
    const unsigned char *pos, struct cg_buf *list, size_t *n,
    unsigned char *whole)
{
	struct grid_bits b;
	unsigned char crop[GRID_HDR + GRID_BITS_MAX];
	uint64_t left, region;
	size_t L;
	int s;

	if (grid_bits_get(cx, g, pos, &b) < 0)
		return GRID_BAD_BYTES;
	*n = 0;
	if (whole != NULL)
		memcpy(whole, pos, GRID_HDR + (size_t)b.N);
	for (left = b.live; left != 0; left &= ~region) {
		region = grid_bits_region(&b, left & -left, g->conn8);
		if (!grid_bits_keep(g, &b, pos, region, crop)) {
			if (whole != NULL)
				for (s = 0; s < b.N; s++)
					if ((region >> s) & 1)
						whole[GRID_HDR + s] =
						    (unsigned char)g->wall;
			continue;
		}
		L = grid_bits_crop(g, &b, pos, region, crop, NULL);
		if (cx->host->buf_put(list, crop, L) < 0)
			return CG_ENOMEM;
		(*n)++;
	}
	return CG_OK;
}

/*
 * Split a board into its kept components, each cropped, appended one
 * after another to list (each is a self-delimiting board).  *n gets their
 * number.  If whole is non-NULL it receives the board with the dropped
 * components walled up.
 */
#define GRID_SMALL 1024

static inline int
grid_split(const struct cg_context *cx, const struct grid_game *g,
    const unsigned char *pos, int R, int C, struct cg_buf *list, size_t *n,
    unsigned char *whole)
{
	const struct cg_host *h = cx->host;
	const unsigned char *cells = pos + GRID_HDR;
	const unsigned char wall = (unsigned char)g->wall;
	size_t N = (size_t)R * C, s, top, k, cnt, start, w;
	uint16_t small[2 * GRID_SMALL], *lab, *stack, comp = 0;
	int r0, r1, c0, c1, r, c, nr, nc, i, j, d, rc;
	unsigned char hdr[GRID_HDR], *dst;
	static const int dr8[8] = { -1, 0, 0, 1, -1, -1, 1, 1 };
	static const int dc8[8] = { 0, -1, 1, 0, -1, 1, -1, 1 };
	int nd = g->conn8 ? 8 : 4;

	if (grid_use_bits(cx, N) && (rc = grid_split_bits(cx, g, pos, list, n,
	    whole)) != GRID_BAD_BYTES)
		return rc;
	*n = 0;
	if (N <= GRID_SMALL) {
		lab = small;
	} else {
		lab = h->alloc(2 * N * sizeof *lab);
		if (lab == NULL)
			return CG_ENOMEM;
	}
	stack = lab + N;
	memset(lab, 0, N * sizeof *lab);
	if (whole != NULL)
		memcpy(whole, pos, GRID_HDR + N);
	for (s = 0; s < N; s++) {
		if (cells[s] == wall || lab[s] != 0)
			continue;
		comp++;
		lab[s] = comp;
		stack[0] = (uint16_t)s;
		top = 1;
		cnt = 0;
		r0 = r1 = (int)(s / C);
		c0 = c1 = (int)(s % C);
		while (top > 0) {
			k = stack[--top];
			cnt++;
			r = (int)(k / C);
			c = (int)(k % C);
			if (r > r1) r1 = r;
			if (c < c0) c0 = c;
			if (c > c1) c1 = c;
			for (d = 0; d < nd; d++) {
				nr = r + dr8[d];
				nc = c + dc8[d];
				if (nr < 0 || nr >= R || nc < 0 || nc >= C)
					continue;
				k = (size_t)nr * C + nc;
				if (lab[k] != 0 || cells[k] == wall)
					continue;
				lab[k] = comp;
				stack[top++] = (uint16_t)k;
			}
		}
		/* (r0: the first cell met is in the component's top row) */
		start = list->len;
		w = (size_t)(c1 - c0 + 1);
		hdr[0] = (unsigned char)(r1 - r0 + 1);
		hdr[1] = (unsigned char)w;
		if (h->buf_put(list, hdr, GRID_HDR) < 0)
			goto nomem;
		for (i = r0; i <= r1; i++)
			if (h->buf_put(list, cells + (size_t)i * C + c0, w) < 0)
				goto nomem;
		dst = list->data + start + GRID_HDR;
		for (i = r0; i <= r1; i++)
			for (j = c0; j <= c1; j++)
				if (lab[(size_t)i * C + j] != comp)
					dst[(size_t)(i - r0) * w + (j - c0)] =
					    wall;
		if (!grid_keep(g, list->data + start, cnt)) {
			list->len = start;
			if (whole != NULL)
				for (i = r0; i <= r1; i++)
					for (j = c0; j <= c1; j++) {
						k = (size_t)i * C + j;
						if (lab[k] == comp)
							whole[GRID_HDR + k] =
							    wall;
					}
			continue;
		}
		(*n)++;
	}
	if (lab != small)
		h->free(lab);
	return CG_OK;
nomem:
	if (lab != small)
		h->free(lab);
	return CG_ENOMEM;
}

static inline int
grid_qsort_cmp(const void *a, const void *b)
{
	return grid_cmp_boards(*(unsigned char *const *)a,
	    *(unsigned char *const *)b);
}

/* Append the 1x1 wall board. */
static inline int
grid_put_empty(const struct cg_context *cx, const struct grid_game *g,
    struct cg_buf *out)
{
	unsigned char b[GRID_HDR + 1] = { 1, 1, (unsigned char)g->wall };

	return cx->host->buf_put(out, b, sizeof b) < 0 ? CG_ENOMEM : CG_OK;
}

/* Append the minimal symmetric image of a board. */
static inline int
grid_put_min(const struct cg_context *cx, const struct grid_game *g,
    const unsigned char *board, struct cg_buf *out)
{
	size_t L = GRID_HDR + (size_t)board[0] * board[1];
	int k = grid_sym_best(board, g->nsym);

	if (cx->host->buf_put(out, board, L) < 0)
		return CG_ENOMEM;
	if (k != 0)
		grid_sym_write(board, k, out->data + out->len - L);
	return CG_OK;
}

/*
 * canonical() of a board of at most 64 cells with at most one kept
 * region (a component, a family's position): no allocation.
 * GRID_BAD_BYTES when it has more or a byte outside the alphabet.
 */
static inline int
grid_canonical_bits(const struct cg_context *cx, const struct grid_game *g,
    const unsigned char *pos, struct cg_buf *out)
{
	struct grid_bits b;
	unsigned char crop[GRID_HDR + GRID_BITS_MAX];
	uint64_t left, region, kept = 0;

	switch (grid_bits_get(cx, g, pos, &b)) {
	case -1:
		return GRID_BAD_BYTES;
	case 1:
		return grid_put_min(cx, g, pos, out);  /* a component */
	}
	for (left = b.live; left != 0; left &= ~region) {
		region = grid_bits_region(&b, left & -left, g->conn8);
		if (!grid_bits_keep(g, &b, pos, region, crop))
			continue;
		if (kept != 0)
			return GRID_BAD_BYTES;
		kept = region;
	}
	if (kept == 0)
		return grid_put_empty(cx, g, out);
	if (kept == b.live && grid_bits_spans(&b, kept))
		return grid_put_min(cx, g, pos, out);  /* a component */
	grid_bits_crop(g, &b, pos, kept, crop, NULL);
	return grid_put_min(cx, g, crop, out);
}

static inline int
grid_canonical(const struct cg_context *cx, const struct grid_game *g,
    const unsigned char *pos, size_t len, struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	struct cg_buf list = { 0 }, mins = { 0 };
	unsigned char **ptr = NULL, *whole = NULL, *dst;
	size_t n, i, off, L, width, height, base;
	int rows, cols, rc, r, c, c0;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	if (grid_use_bits(cx, (size_t)rows * cols) &&
	    (rc = grid_canonical_bits(cx, g, pos, out)) != GRID_BAD_BYTES)
		return rc;
	list.data = h->alloc(len + 16);
	if (list.data == NULL)
		return CG_ENOMEM;
	list.cap = len + 16;
	if ((rc = grid_split(cx, g, pos, rows, cols, &list, &n, NULL)) < 0)
		goto done;
	if (n == 0) {
		rc = grid_put_empty(cx, g, out);
		goto done;
	}
	if (n == 1) {
		rc = grid_put_min(cx, g, list.data, out);
		goto done;
	}
	/* minimise each component, then sort them */
	for (i = 0, off = 0; i < n; i++) {
		if ((rc = grid_put_min(cx, g, list.data + off, &mins)) < 0)
			goto done;
		off += GRID_HDR + (size_t)list.data[off] * list.data[off + 1];
	}
	ptr = h->alloc(n * sizeof *ptr);
	if (ptr == NULL) {
		rc = CG_ENOMEM;
		goto done;
	}
	width = n - 1;
	height = 0;
	for (i = 0, off = 0; i < n; i++) {
		ptr[i] = mins.data + off;
		width += ptr[i][1];
		if (ptr[i][0] > height)
			height = ptr[i][0];
		off += GRID_HDR + (size_t)ptr[i][0] * ptr[i][1];
	}
	if (width > GRID_MAX_SIDE) {
		/* fallback: crop the whole board and minimise it */
		list.len = 0;
		whole = h->alloc(len);
		if (whole == NULL) {
			rc = CG_ENOMEM;
			goto done;
		}
		if ((rc = grid_split(cx, g, pos, rows, cols, &list, &n,
		    whole)) < 0)
			goto done;
		list.len = 0;
		{
			int r0 = rows, r1 = -1, cl = cols, cr = -1;
			unsigned char hdr[GRID_HDR];

			for (r = 0; r < rows; r++)
				for (c = 0; c < cols; c++)
					if (whole[GRID_HDR + (size_t)r * cols +
					    c] != (unsigned char)g->wall) {
						if (r < r0) r0 = r;
						if (r > r1) r1 = r;
						if (c < cl) cl = c;
						if (c > cr) cr = c;
					}
			hdr[0] = (unsigned char)(r1 - r0 + 1);
			hdr[1] = (unsigned char)(cr - cl + 1);
			if (h->buf_put(&list, hdr, GRID_HDR) < 0) {
				rc = CG_ENOMEM;
				goto done;
			}
			for (r = r0; r <= r1; r++)
				if (h->buf_put(&list, whole + GRID_HDR +
				    (size_t)r * cols + cl,
				    (size_t)(cr - cl + 1)) < 0) {
					rc = CG_ENOMEM;
					goto done;
				}
		}
		rc = grid_put_min(cx, g, list.data, out);
		goto done;
	}
	qsort(ptr, n, sizeof *ptr, grid_qsort_cmp);
	L = GRID_HDR + width * height;
	base = out->len;
	for (i = 0; i < L; i++)
		if (h->buf_putc(out, g->wall) < 0) {
			rc = CG_ENOMEM;
			goto done;
		}
	dst = out->data + base;
	dst[0] = (unsigned char)height;
	dst[1] = (unsigned char)width;
	c0 = 0;
	for (i = 0; i < n; i++) {
		for (r = 0; r < ptr[i][0]; r++)
			memcpy(dst + GRID_HDR + (size_t)r * width + c0,
			    ptr[i] + GRID_HDR + (size_t)r * ptr[i][1],
			    ptr[i][1]);
		c0 += ptr[i][1] + 1;
	}
	rc = CG_OK;
done:
	h->free(whole);
	h->free(ptr);
	h->free(list.data);
	h->free(mins.data);
	return rc;
}

/* decompose() of a board of at most 64 cells: each kept region cut out
 * straight into a buffer on the stack and emitted, lent with its bit
 * board (canonical() is asked next). */
static inline int
grid_decompose_bits(const struct cg_context *cx, const struct grid_game *g,
    const unsigned char *pos, cg_emit_fn emit, void *ctx)
{
	struct grid_bits b, cb;
	unsigned char crop[GRID_HDR + GRID_BITS_MAX];
	uint64_t left, region;
	size_t L;
	int rc;

	if ((rc = grid_bits_get(cx, g, pos, &b)) < 0)
		return GRID_BAD_BYTES;
	if (rc == 1)	/* one component already */
		return grid_emit_lent(cx, pos, GRID_HDR + (size_t)b.N, &b, 1,
		    emit, ctx, NULL) ? CG_STOP : CG_OK;
	for (left = b.live; left != 0; left &= ~region) {
		region = grid_bits_region(&b, left & -left, g->conn8);
		if (!grid_bits_keep(g, &b, pos, region, crop))
			continue;
		if (region == b.live && grid_bits_spans(&b, region)) {
			/* the board is one component already */
			if (grid_emit_lent(cx, pos, GRID_HDR + (size_t)b.N,
			    &b, 1, emit, ctx, NULL))
				return CG_STOP;
			continue;
		}
		L = grid_bits_crop(g, &b, pos, region, crop, &cb);
		if (grid_emit_lent(cx, crop, L, &cb, 1, emit, ctx, NULL))
			return CG_STOP;
	}
	return CG_OK;
}

static inline int
grid_decompose(const struct cg_context *cx, const struct grid_game *g,
    const unsigned char *pos, size_t len, cg_emit_fn emit, void *ctx)
{
	struct cg_buf list = { 0 };
	size_t n, i, off, L;
	int rows, cols, rc;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	if (grid_use_bits(cx, (size_t)rows * cols) &&
	    (rc = grid_decompose_bits(cx, g, pos, emit, ctx)) != GRID_BAD_BYTES)
		return rc;
	if ((rc = grid_split(cx, g, pos, rows, cols, &list, &n, NULL)) < 0)
		goto done;
	for (i = 0, off = 0; i < n; i++) {
		L = GRID_HDR + (size_t)list.data[off] * list.data[off + 1];
		if (emit(ctx, list.data + off, L, NULL)) {
			rc = CG_STOP;
			goto done;
		}
		off += L;
	}
done:
	cx->host->free(list.data);
	return rc;
}

/* ------------------------------------------------------------------ */
/* polyominoes (for enumerate)                                         */

/*
 * Redelmeier's algorithm: every fixed polyomino of exactly `size` cells,
 * each once, handed to fn as a cropped board (non-wall cells fill, other
 * cells wall).  Cells are (x, y) with y >= 0, and x >= 0 when y == 0;
 * the first cell is (0, 0).
 */
#define GRID_POLY_MAX 24

struct grid_poly {
	int size;
	int W;                     /* 2 * size - 1 */
	unsigned char *seen;       /* W * size */
	int cx[GRID_POLY_MAX], cy[GRID_POLY_MAX];
	unsigned char board[GRID_HDR + GRID_POLY_MAX * GRID_POLY_MAX];
	char fill, wall;
	int (*fn)(void *arg, const unsigned char *board, const int *cellx,
	    const int *celly, int n);
	void *arg;
};

static inline int
grid_poly_report(struct grid_poly *p)
{
	int i, x0 = p->cx[0], x1 = p->cx[0], y1 = 0, R, C;

	for (i = 1; i < p->size; i++) {
		if (p->cx[i] < x0) x0 = p->cx[i];
		if (p->cx[i] > x1) x1 = p->cx[i];
		if (p->cy[i] > y1) y1 = p->cy[i];
	}
	R = y1 + 1;
	C = x1 - x0 + 1;
	p->board[0] = (unsigned char)R;
	p->board[1] = (unsigned char)C;
	memset(p->board + GRID_HDR, p->wall, (size_t)R * C);
	for (i = 0; i < p->size; i++)
		p->board[GRID_HDR + (size_t)p->cy[i] * C + (p->cx[i] - x0)] =
		    (unsigned char)p->fill;
	return p->fn(p->arg, p->board, p->cx, p->cy, p->size);
}

static inline int
grid_poly_rec(struct grid_poly *p, const int *untried, int nu, int depth)
{
	int next[4 * GRID_POLY_MAX + 4], nn, i, k, x, y, nx, ny, rc;
	int added[4], na;
	static const int dx[4] = { 1, -1, 0, 0 }, dy[4] = { 0, 0, 1, -1 };

	for (i = 0; i < nu; i++) {
		x = untried[2 * i];
		y = untried[2 * i + 1];
		p->cx[depth] = x;
		p->cy[depth] = y;
		if (depth + 1 == p->size) {
			if ((rc = grid_poly_report(p)) != 0)
				return rc;
			continue;
		}
		/* the remaining untried cells, plus x,y's new neighbours */
		nn = 0;
		for (k = i + 1; k < nu; k++) {
			next[nn++] = untried[2 * k];
			next[nn++] = untried[2 * k + 1];
		}
		na = 0;
		for (k = 0; k < 4; k++) {
			nx = x + dx[k];
			ny = y + dy[k];
			if (ny < 0 || (ny == 0 && nx < 0) || ny >= p->size ||
			    nx <= -p->size || nx >= p->size)
				continue;
			if (p->seen[(size_t)ny * p->W + nx + p->size - 1])
				continue;
			p->seen[(size_t)ny * p->W + nx + p->size - 1] = 1;
			added[na++] = ny * p->W + nx + p->size - 1;
			next[nn++] = nx;
			next[nn++] = ny;
		}
		rc = grid_poly_rec(p, next, nn / 2, depth + 1);
		for (k = 0; k < na; k++)
			p->seen[added[k]] = 0;
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Returns fn's first non-zero result, 0, or CG_ENOMEM / CG_ELIMIT. */
static inline int
grid_polyominoes(const struct cg_context *cx, int size, char fill, char wall,
    int (*fn)(void *, const unsigned char *, const int *, const int *, int),
    void *arg)
{
	struct grid_poly *p;
	int start[2] = { 0, 0 }, rc;

	if (size < 1 || size > GRID_POLY_MAX)
		return CG_ELIMIT;
	p = cx->host->alloc(sizeof *p);
	if (p == NULL)
		return CG_ENOMEM;
	p->size = size;
	p->W = 2 * size - 1;
	p->seen = cx->host->alloc((size_t)p->W * size);
	if (p->seen == NULL) {
		cx->host->free(p);
		return CG_ENOMEM;
	}
	memset(p->seen, 0, (size_t)p->W * size);
	p->seen[size - 1] = 1;  /* (0, 0) */
	p->fill = fill;
	p->wall = wall;
	p->fn = fn;
	p->arg = arg;
	rc = grid_poly_rec(p, start, 1, 0);
	cx->host->free(p->seen);
	cx->host->free(p);
	return rc;
}

/* Parse a family "N" (a decimal region size, 1..max).  0 or -1. */
static inline int
grid_family_size(const char *family, int max, int *n)
{
	long v = 0;
	size_t i;

	if (family == NULL || family[0] == '\0')
		return -1;
	for (i = 0; family[i] != '\0'; i++) {
		if (family[i] < '0' || family[i] > '9' || v > 1000)
			return -1;
		v = v * 10 + (family[i] - '0');
	}
	if (v < 1 || v > max)
		return -1;
	*n = (int)v;
	return 0;
}

/* Enumeration of the family "N" shared by rulesets whose regions are
 * empty polyominoes: every region of 2..N empty cells, once per class of
 * g's symmetries. */
struct grid_enum_regions {
	const struct grid_game *g;
	cg_emit_fn emit;
	void *ctx;
};

static inline int
grid_enum_region(void *arg, const unsigned char *board, const int *x,
    const int *y, int n)
{
	struct grid_enum_regions *e = arg;

	(void)x;
	(void)y;
	(void)n;
	if (grid_sym_best(board, e->g->nsym) != 0)
		return 0;
	return e->emit(e->ctx, board, GRID_HDR + (size_t)board[0] * board[1],
	    NULL) ? CG_STOP : 0;
}

static inline int
grid_enumerate_regions(const struct cg_context *cx,
    const struct grid_game *g, const char *family, cg_emit_fn emit, void *ctx)
{
	struct grid_enum_regions e = { g, emit, ctx };
	int n, size, rc;

	if (grid_family_size(family, GRID_POLY_MAX, &n) < 0)
		return cx->host->error(cx->err, 0,
		    "bad family '%s' (expected a region size N, 1..%d)",
		    family ? family : "", GRID_POLY_MAX);
	for (size = 2; size <= n; size++)
		if ((rc = grid_polyominoes(cx, size, '.', '#',
		    grid_enum_region, &e)) != 0)
			return rc;
	return CG_OK;
}

/* Name the domino whose first (upper or left) cell is k. */
static inline void
grid_domino_name(char *s, size_t k, int vertical, int rows, int cols)
{
	int r = (int)(k / cols), c = (int)(k % cols);
	size_t n;

	if (vertical) {
		n = grid_coord(s, r + 1, c, rows);
		s[n++] = '-';
		grid_coord(s + n, r, c, rows);
	} else {
		n = grid_coord(s, r, c, rows);
		s[n++] = '-';
		grid_coord(s + n, r, c + 1, rows);
	}
}

/* A domino's rank for edge-first order, larger first (Obsequi's
 * positional values, after Bullock), by its line of nl and its first
 * cell along it, of na: d is its line's distance from the
 * nearer parallel edge (1 = on the edge), e its distance along the line
 * from the nearer end (1 = at the end).  Best are the lines one in from
 * an edge, every other one (d even), at odd e: the dominoes that leave
 * the cells between them and the edge to their owner alone. */
static inline unsigned
grid_domino_rank_at(int line, int along, int nl, int na)
{
	int d, e, level;

	d = line + 1 < nl - line ? line + 1 : nl - line;
	e = along + 1 < na - 1 - along ? along + 1 : na - 1 - along;
	if (d % 2 == 0 && e % 2 == 1)
		level = 4;
	else if (d % 2 == 0)
		level = 3;
	else if (d >= 3 && e % 2 == 1)
		level = 2;
	else if (d >= 3)
		level = 1;
	else
		level = 0;
	d = d > 31 ? 31 : d;
	e = e > 31 ? 31 : e;
	return (unsigned)(level << 10 | (31 - d) << 5 | (31 - e));
}

/* The same for the domino at cell k (its top or left cell). */
static inline unsigned
grid_domino_rank(size_t k, int vertical, int rows, int cols)
{
	int r = (int)(k / cols), c = (int)(k % cols);

	return vertical ? grid_domino_rank_at(c, r, cols, rows) :
	    grid_domino_rank_at(r, c, rows, cols);
}

static int
grid_cmp_u32_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Largest first; insertion for the few dozen moves of a search board. */
static inline void
grid_sort_u32_desc(uint32_t *a, size_t n)
{
	size_t i, j;
	uint32_t x;

	if (n > 64) {
		qsort(a, n, sizeof *a, grid_cmp_u32_desc);
		return;
	}
	for (i = 1; i < n; i++) {
		x = a[i];
		for (j = i; j > 0 && a[j - 1] < x; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

/* Emit every placement of a domino on two empty cells, vertical ones if
 * vertical is set, then horizontal ones if horizontal is set (Domineering
 * asks for one orientation per player, Cram for both).  Small boards lend
 * each child with its bit board ('.' and '#' are g's codes 0 and 1).
 * Each orientation's dominoes come in cell order, or with edge_first in
 * grid_domino_rank's order (cell order among equal ranks). */
static inline int
grid_domino_options_in(const struct cg_context *cx,
    const struct grid_game *g, const unsigned char *pos, size_t len,
    int vertical, int horizontal, int edge_first, cg_emit_fn emit, void *ctx)
{
	unsigned char *child, *cells;
	char move[24];
	int rows, cols, rc, v, bits;
	size_t k, n, step, i, no;
	uint32_t few[128], *order = few;   /* rank << 16 | 0xFFFF - cell */
	struct grid_bits b = { 0 }, cb;
	uint64_t two;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	bits = grid_use_bits(cx, (size_t)rows * cols) &&
	    grid_bits_get(cx, g, pos, &b) >= 0;
	cb = b;
	child = cx->host->alloc(len);
	if (child == NULL)
		return CG_ENOMEM;
	memcpy(child, pos, len);
	cells = child + GRID_HDR;
	n = (size_t)rows * cols;
	rc = CG_OK;
	/* a cell number fits below the rank */
	_Static_assert(GRID_MAX_SIDE * GRID_MAX_SIDE <= 0xFFFF, "cells");
	if (n > sizeof few / sizeof few[0] &&
	    (order = cx->host->alloc(n * sizeof *order)) == NULL) {
		cx->host->free(child);
		return CG_ENOMEM;
	}
	for (v = 1; v >= 0 && rc == CG_OK; v--) {
		if (v ? !vertical : !horizontal)
			continue;
		step = v ? (size_t)cols : 1;
		no = 0;
		for (k = 0; k + step < n; k++) {
			if (cells[k] != '.' || cells[k + step] != '.')
				continue;
			if (!v && (int)(k % cols) == cols - 1)
				continue;
			/* cell order is kept among equal ranks: 0xFFFF - k */
			order[no++] = (edge_first ? (uint32_t)
			    grid_domino_rank(k, v, rows, cols) << 16 : 0) |
			    (uint32_t)(0xFFFF - k);
		}
		if (edge_first)
			grid_sort_u32_desc(order, no);
		for (i = 0; i < no; i++) {
			k = 0xFFFF - (order[i] & 0xFFFF);
			cells[k] = cells[k + step] = '#';
			grid_domino_name(move, k, v, rows, cols);
			if (bits) {
				two = (uint64_t)1 << k | (uint64_t)1 << (k + step);
				cb.lo = b.lo | two;
				cb.live = b.live & ~two;
				rc = grid_emit_lent(cx, child, len, &cb, 0, emit,
				    ctx, move);
			} else {
				rc = emit(ctx, child, len, move);
			}
			if (rc) {
				rc = CG_STOP;
				break;
			}
			cells[k] = cells[k + step] = '.';
		}
	}
	if (order != few)
		cx->host->free(order);
	cx->host->free(child);
	return rc;
}

static inline int
grid_domino_options(const struct cg_context *cx, const struct grid_game *g,
    const unsigned char *pos, size_t len, int vertical, int horizontal,
    cg_emit_fn emit, void *ctx)
{
	return grid_domino_options_in(cx, g, pos, len, vertical, horizontal, 0,
	    emit, ctx);
}

#endif
