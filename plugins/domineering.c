/*
 * domineering.c - Domineering: players take turns placing dominoes on
 * the empty cells of a board; Left places them vertically (cells (r,c)
 * and (r+1,c)), Right horizontally.  CGSuite's convention.
 *
 * Text: CGSuite's notation, rows separated by '|', '.' empty, '#'
 * filled: "..|.." is the 2x2 board.
 * Bytes: plugins/lib/grid.h (rows, cols, one character per cell).
 * Parameter: none, or "reference" (grid.h: the labelling code for every
 * board instead of bit boards, to check them against).
 * Move names: the two cells covered, lower or left cell first, in chess
 * coordinates (columns a.., rows 1.. from the bottom): "a1-a2", "a1-b1".
 *
 * Symmetries: the left-right and up-down mirrors and the half turn (a
 * quarter turn or a transposition swaps the players).  decompose() gives
 * the 4-connected regions of empty cells, without single cells.
 *
 * Synchronized play (CG_SYNCHRONIZED): joint option (i, j) places Left's
 * i-th and Right's j-th domino at once; they may overlap, every cell
 * either covers becomes filled.  A decided position (at most one player
 * can move) is worth the number of dominoes that player could still place
 * alone: the sum over the columns (rows for Right) of floor(run / 2) over
 * the maximal runs of empty cells; positive for Left.
 *
 * cg.move-counts (cg/movecounts.h): safe, sure and most moves of each
 * player, for the outcome searches (dom_counts below); cg.search-order
 * (cg/searchorder.h): options edge first (grid_domino_rank).
 *
 * enumerate("N"): every region (a polyomino of empty cells, 2 <= size <=
 * N, N <= 24) once up to the four symmetries, smallest sizes first.
 */
#include <stdlib.h>
#include <string.h>

#include "cg/bitsearch.h"
#include "cg/movecounts.h"
#include "cg/searchorder.h"
#include "cg/ruleset.h"
#include "lib/grid.h"

static int
dom_keep(const unsigned char *board, size_t n)
{
	(void)board;
	return n >= 2;  /* a single empty cell has no moves */
}

static int
dom_keep_bits(const struct grid_bits *b, uint64_t region)
{
	(void)b;
	return (region & (region - 1)) != 0;  /* two cells or more */
}

static const struct grid_game dom_game = {
	.wall = '#',
	.alphabet = ".#",
	.nsym = 4,
	.conn8 = 0,
	.keep = dom_keep,
	.keep_bits = dom_keep_bits,
};

static int
dom_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	char map[256] = { 0 };

	map['.'] = '.';
	map['#'] = '#';
	return grid_parse_text(cx, text, len, map, out);
}

static int
dom_print(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	return grid_print(cx, &dom_game, pos, len, out);
}


/* Left places vertical dominoes, Right horizontal ones. */
static int
dom_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	return grid_domino_options(cx, &dom_game, pos, len, side == CG_LEFT,
	    side == CG_RIGHT, emit, ctx);
}

/* The same, edge-first (grid_domino_rank), for the searches. */
static int
dom_search_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	return grid_domino_options_in(cx, &dom_game, pos, len,
	    side == CG_LEFT, side == CG_RIGHT, 1, emit, ctx);
}

static int
dom_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	return grid_canonical(cx, &dom_game, pos, len, out);
}

static int
dom_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	return grid_decompose(cx, &dom_game, pos, len, emit, ctx);
}

/* The first cells of every domino of one player, in options() order. */
static size_t
dom_list(const unsigned char *cells, int rows, int cols, int vertical,
    uint32_t *list)
{
	size_t n = (size_t)rows * cols, step = vertical ? (size_t)cols : 1,
	    k, m = 0;

	for (k = 0; k + step < n; k++) {
		if (cells[k] != '.' || cells[k + step] != '.')
			continue;
		if (!vertical && (int)(k % cols) == cols - 1)
			continue;
		list[m++] = (uint32_t)k;
	}
	return m;
}

static int
dom_synch_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_joint_fn emit, void *ctx)
{
	unsigned char *child, *cells;
	uint32_t *lm, *rm;
	size_t n, nl, nr, i, j, a, b;
	int rows, cols, rc;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	n = (size_t)rows * cols;
	lm = cx->host->alloc(2 * n * sizeof *lm + len);
	if (lm == NULL)
		return CG_ENOMEM;
	rm = lm + n;
	child = (unsigned char *)(rm + n);
	memcpy(child, pos, len);
	cells = child + GRID_HDR;
	nl = dom_list(cells, rows, cols, 1, lm);
	nr = dom_list(cells, rows, cols, 0, rm);
	rc = CG_OK;
	for (i = 0; i < nl && rc == CG_OK; i++)
		for (j = 0; j < nr; j++) {
			a = lm[i];
			b = rm[j];
			cells[a] = cells[a + cols] = '#';
			cells[b] = cells[b + 1] = '#';
			if (emit(ctx, i, j, child, len)) {
				rc = CG_STOP;
				break;
			}
			cells[a] = cells[a + cols] = '.';
			cells[b] = cells[b + 1] = '.';
		}
	cx->host->free(lm);
	return rc;
}

/* Dominoes one player could place alone: floor(run/2) summed over the
 * maximal runs of empty cells of each column (vertical) or row. */
static int64_t
dom_alone(const unsigned char *cells, int rows, int cols, int vertical)
{
	int outer = vertical ? cols : rows, inner = vertical ? rows : cols,
	    a, b, run;
	int64_t total = 0;
	unsigned char v;

	for (a = 0; a < outer; a++) {
		run = 0;
		for (b = 0; b <= inner; b++) {
			v = b == inner ? '#' : vertical ?
			    cells[(size_t)b * cols + a] :
			    cells[(size_t)a * cols + b];
			if (v == '.') {
				run++;
			} else {
				total += run / 2;
				run = 0;
			}
		}
	}
	return total;
}

static int
dom_decided_value(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int64_t *num, int64_t *den)
{
	int rows, cols, rc;
	int64_t l, r;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	l = dom_alone(pos + GRID_HDR, rows, cols, 1);
	r = dom_alone(pos + GRID_HDR, rows, cols, 0);
	if (l > 0 && r > 0) {
		cx->host->error(cx->err, 0,
		    "position is not decided (both players can move)");
		return CG_EUNSUPPORTED;
	}
	*num = l - r;
	*den = 1;
	return CG_OK;
}

/* The cells of a board seen from one player: a "line" runs along the
 * player's dominoes (a column for Left, a row for Right), "across" is the
 * other way, where the opponent's dominoes lie.  The board is padded with
 * a frame of filled cells, so a neighbour of a cell is always there to
 * look at; st and marks are indexed by padded cell. */
#define DOM_EMPTY 1u
#define DOM_PROOF 2u    /* empty, and no opponent domino can ever cover it */

struct dom_view {
	unsigned char *st;      /* DOM_* flags of each padded cell */
	unsigned char *marks;   /* the reserve (dom_guaranteed) */
	int lines, len;         /* number of lines, cells per line */
	size_t origin;          /* padded index of line 0, cell 0 */
	size_t lstep, astep;    /* index steps to the next line, cell */
};

#define AT(v, l, at) ((v)->origin + (size_t)(l) * (v)->lstep + \
	(size_t)(at) * (v)->astep)

static int
dom_empty(const struct dom_view *v, int line, int at)
{
	return v->st[AT(v, line, at)] & DOM_EMPTY;
}

static int
dom_proof(const struct dom_view *v, int line, int at)
{
	return v->st[AT(v, line, at)] & DOM_PROOF;
}

/*
 * Moves the player of view v can make whatever the opponent does.
 *  - Safe dominoes: half of each run, along a line, of proof cells (no
 *    opponent domino can touch them, nor can the player's other reserved
 *    dominoes).  A run of odd length leaves its last cell free, or its
 *    first when the cell past the last is not empty.
 *  - A pool of further dominoes on the cells left, chosen so that no
 *    opponent domino can touch two of them: no open cell (one the
 *    opponent can cover) of a pool domino is next, across, to an open
 *    cell of another.  Each opponent move then destroys at most one pool
 *    domino; the player pairs them and plays the partner of a destroyed
 *    one at once, so each pair is worth one move.
 * v->marks (zeroed) records what is reserved: 1 a safe cell, 2 an open
 * pool cell, 3 a proof pool cell.
 * Room: the opponent's dominoes and the player's reserved ones lie on
 * distinct empty cells, never on a proof cell the reserve leaves free;
 * so together they number at most half the other empty cells.
 */
static void
dom_guaranteed(const struct dom_view *v, uint32_t *sure, uint32_t *safep,
    uint32_t *roomp, uint32_t *firstp)
{
	uint32_t safe = 0, pool = 0, room = 0;
	int a, b, run, k, free = 0;

#define MARK(l, at) v->marks[AT(v, l, at)]
	for (a = 0; a < v->lines; a++) {
		run = 0;
		for (b = 0; b <= v->len; b++) {
			if (b < v->len && dom_proof(v, a, b)) {
				run++;
				continue;
			}
			if (run >= 2) {
				/* the run is [first, last]; an odd one leaves
				 * its last cell free, or its first when only
				 * the cell before it is empty (a pool cell) */
				int first = b - run, last = b - 1;

				if (run % 2 == 1) {
					if (!dom_empty(v, a, b) &&
					    dom_empty(v, a, first - 1))
						first++;
					else
						last--;
				}
				for (k = first; k < last; k += 2) {
					MARK(a, k) = 1;
					MARK(a, k + 1) = 1;
					safe++;
				}
			}
			run = 0;
		}
	}
	for (a = 0; a < v->lines; a++)
		for (b = 0; b + 1 < v->len; b++) {
			int ok = 1;

			for (k = 0; k < 2 && ok; k++) {
				int at = b + k;

				if (!dom_empty(v, a, at) || MARK(a, at) != 0)
					ok = 0;
				else if (!dom_proof(v, a, at) &&
				    (MARK(a - 1, at) == 2 ||
				    MARK(a + 1, at) == 2))
					ok = 0;
			}
			if (!ok)
				continue;
			for (k = 0; k < 2; k++)
				MARK(a, b + k) = dom_proof(v, a, b + k) ? 3 : 2;
			pool++;
			b++;
		}
	for (a = 0; a < v->lines; a++)
		for (b = 0; b < v->len; b++)
			if (dom_empty(v, a, b) && (MARK(a, b) != 0 ||
			    !dom_proof(v, a, b)))
				room++;
	/* a domino on two cells the reserve leaves free, to play first */
	for (a = 0; a < v->lines; a++)
		for (b = 0; b + 1 < v->len; b++)
			if (dom_empty(v, a, b) && dom_empty(v, a, b + 1) &&
			    MARK(a, b) == 0 && MARK(a, b + 1) == 0)
				free = 1;
#undef MARK
	*safep = safe;
	*sure = safe + pool / 2;
	*roomp = room / 2;
	*firstp = *sure + (free || pool % 2 == 1);
}

/*
 * The counts below are popcounts on bit lines.  Built for any x86-64,
 * __builtin_popcountll is a call into libgcc; so the functions that
 * count (DOM_HOT) are built twice, once for processors with the popcnt
 * instruction, and the loader picks one (GCC's target_clones).  Their
 * helpers are always inlined, so they are built with them.
 */
#if defined(__x86_64__) && !defined(__POPCNT__) && defined(__GNUC__)
#define DOM_HOT __attribute__((target_clones("popcnt", "default")))
#else
#define DOM_HOT
#endif
#define DOM_INLINE static inline __attribute__((always_inline))

DOM_INLINE int
dom_pop(uint64_t x)
{
	return __builtin_popcountll(x);
}

/* The first cells of the pairs a greedy walk takes from each run of x:
 * (s, s+1), (s+2, s+3), ..., the last cell of an odd run left.  Those
 * are the cells an even distance from their run's start, followed by a
 * cell of x.  Adding a run's start carries through the run, so the runs
 * that start on an even bit are the cells x + (starts on even bits)
 * changes. */
DOM_INLINE uint64_t
dom_pair_firsts(uint64_t x)
{
	const uint64_t even = 0x5555555555555555u;
	uint64_t starts = x & ~(x << 1), from_even;

	from_even = ((x + (starts & even)) ^ x) & x;
	return ((from_even & even) | (x & ~from_even & ~even)) & x >> 1;
}

/* The pairs themselves: both cells of each. */
DOM_INLINE uint64_t
dom_pairs(uint64_t x)
{
	uint64_t f = dom_pair_firsts(x);

	return f | f << 1;
}

/*
 * dom_guaranteed and dom_alone on bit lines: line[a] holds the empty
 * cells of line a of the player's view (bit b = cell b along it, at most
 * 64), nl lines.  The same passes in the same order, so the same counts.
 */
DOM_INLINE void
dom_bits_side(const uint64_t *line, int nl, struct cg_move_bounds *b,
    int side)
{
	uint32_t safe = 0, pool = 0, room = 0, most = 0;
	uint64_t e, p, run, marks, open = 0, avail, picks, smask, rest;
	int a, first, last, free = 0;

	for (a = 0; a < nl; a++) {
		e = line[a];
		p = e & ~(a > 0 ? line[a - 1] : 0) &
		    ~(a + 1 < nl ? line[a + 1] : 0);
		/* most: each run alone, floor(run / 2) dominoes */
		most += (uint32_t)dom_pop(dom_pair_firsts(e));
		/* safe: runs of proof cells, an odd one less its last cell,
		 * or its first when only the cell before it is empty */
		smask = 0;
		for (uint64_t x = p; x != 0; x &= ~run) {
			run = x & ~(x + (x & -x));
			if (dom_pop(run) < 2)
				continue;
			first = __builtin_ctzll(run);
			last = 63 - __builtin_clzll(run);
			if (dom_pop(run) % 2 == 1) {
				int after = last < 63 && (e >> (last + 1) & 1);
				int before = first > 0 && (e >> (first - 1) & 1);

				run &= ~((uint64_t)1 << (!after && before ?
				    first : last));
			}
			smask |= run;
			safe += (uint32_t)dom_pop(run) / 2;
		}
		/* pool: pairs of free cells, an open one never across from
		 * an open pool cell of the line before */
		avail = e & ~smask & (p | ~open);
		picks = dom_pairs(avail);
		pool += (uint32_t)dom_pop(picks) / 2;
		open = picks & ~p;
		marks = smask | picks;
		room += (uint32_t)dom_pop(e & (marks | ~p));
		rest = e & ~marks;
		free |= (rest & rest >> 1) != 0;
	}
	b->most[side] = most;
	b->safe[side] = safe;
	b->sure[side] = safe + pool / 2;
	b->room[side] = room / 2;
	/* first: a domino off the reserve played first leaves it whole;
	 * one of an odd pool leaves pairs */
	b->first[side] = b->sure[side] + (free || pool % 2 == 1);
}

/* dom_counts for boards of at most 64 rows and columns. */
DOM_INLINE void
dom_counts_bits(const unsigned char *cells, int rows, int cols,
    struct cg_move_bounds *b)
{
	uint64_t col[64] = { 0 }, row[64] = { 0 };
	int r, c;

	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			if (cells[(size_t)r * cols + c] == '.') {
				col[c] |= (uint64_t)1 << r;
				row[r] |= (uint64_t)1 << c;
			}
	dom_bits_side(col, cols, b, CG_LEFT);
	dom_bits_side(row, rows, b, CG_RIGHT);
}

DOM_HOT static int
dom_counts(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_move_bounds *out, size_t out_size)
{
	int rows, cols, rc, side, r, c;
	const unsigned char *cells = pos + GRID_HDR;
	size_t pc, n, i;
	unsigned char *buf;
	struct cg_move_bounds b;
	struct dom_view v;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	/* "reference" keeps the cell-by-cell code below, to check against */
	if (rows <= 64 && cols <= 64 && (cx->state == NULL ||
	    !((const struct grid_state *)cx->state)->reference)) {
		memset(&b, 0, sizeof b);
		dom_counts_bits(cells, rows, cols, &b);
		b.flags = CG_BOUNDS_ROOM | CG_BOUNDS_FIRST;
		memcpy(out, &b, out_size < sizeof b ? out_size : sizeof b);
		return CG_OK;
	}
	pc = (size_t)cols + 2;
	n = ((size_t)rows + 2) * pc;
	if ((buf = cx->host->alloc(2 * n)) == NULL)
		return CG_ENOMEM;
	memset(&b, 0, sizeof b);
	for (side = CG_LEFT; side <= CG_RIGHT; side++) {
		memset(buf, 0, 2 * n);
		v.st = buf;
		v.marks = buf + n;
		v.origin = pc + 1;
		v.lstep = side == CG_LEFT ? 1 : pc;
		v.astep = side == CG_LEFT ? pc : 1;
		v.lines = side == CG_LEFT ? cols : rows;
		v.len = side == CG_LEFT ? rows : cols;
		for (r = 0; r < rows; r++)
			for (c = 0; c < cols; c++)
				if (cells[(size_t)r * cols + c] == '.')
					v.st[(r + 1) * pc + c + 1] = DOM_EMPTY;
		for (i = pc; i < n - pc; i++)
			if (v.st[i] && !(v.st[i - v.lstep] & DOM_EMPTY) &&
			    !(v.st[i + v.lstep] & DOM_EMPTY))
				v.st[i] |= DOM_PROOF;
		b.most[side] = (uint32_t)dom_alone(cells, rows, cols,
		    side == CG_LEFT);
		dom_guaranteed(&v, &b.sure[side], &b.safe[side],
		    &b.room[side], &b.first[side]);
	}
	b.flags = CG_BOUNDS_ROOM | CG_BOUNDS_FIRST;
	cx->host->free(buf);
	memcpy(out, &b, out_size < sizeof b ? out_size : sizeof b);
	return CG_OK;
}

/*
 * cg.bit-search (cg/bitsearch.h): a board of at most 256 cells and 64
 * rows and columns as bits, cell (r, c) at bit r * cols + c, set when
 * empty; dims[0] rows, dims[1] columns.  Components go side by side, a
 * filled column between two.
 */
#define DB_CELLS 256

DOM_INLINE uint64_t
db_row(const uint64_t *st, int r, int cols)
{
	size_t i = (size_t)r * cols;
	unsigned o = (unsigned)(i & 63);
	uint64_t v = st[i >> 6] >> o;

	if (o + (unsigned)cols > 64)
		v |= st[(i >> 6) + 1] << (64 - o);
	return cols == 64 ? v : v & (((uint64_t)1 << cols) - 1);
}

/* The rows and the columns of a state as bit lines. */
DOM_INLINE void
db_lines(const struct cg_bit_shape *sh, const uint64_t *st, uint64_t *row,
    uint64_t *col)
{
	int rows = (int)sh->dims[0], cols = (int)sh->dims[1], r;
	uint64_t x;

	memset(col, 0, (size_t)cols * sizeof *col);
	for (r = 0; r < rows; r++) {
		row[r] = x = db_row(st, r, cols);
		for (; x != 0; x &= x - 1)
			col[__builtin_ctzll(x)] |= (uint64_t)1 << r;
	}
}

static int
db_pack(const struct cg_context *cx, const unsigned char *const *comp,
    const size_t *len, size_t n, struct cg_bit_shape *sh, uint64_t *st)
{
	int rows = 0, cols = -1, r, c, at = 0, cr, cc, rc;
	size_t i, k;

	for (i = 0; i < n; i++) {
		if ((rc = grid_dims(cx, comp[i], len[i], &cr, &cc)) < 0)
			return rc;
		rows = cr > rows ? cr : rows;
		cols += cc + 1;
	}
	if (n == 0 || rows > 64 || cols > 64 || rows * cols > DB_CELLS)
		return CG_EUNSUPPORTED;
	memset(sh, 0, sizeof *sh);
	sh->words = (uint32_t)(rows * cols + 63) / 64;
	sh->max_options = (uint32_t)(rows * cols);
	sh->dims[0] = (uint32_t)rows;
	sh->dims[1] = (uint32_t)cols;
	/* a strip splits into many small regions, which the search over
	 * components solves once each (2x27: 0.2 s that way, 7 s here) */
	if (n == 1 && rows >= 3 && cols >= 3)
		sh->flags = CG_BIT_PREFER;
	memset(st, 0, sh->words * sizeof *st);
	for (i = 0; i < n; i++) {
		cr = comp[i][0];
		cc = comp[i][1];
		for (r = 0; r < cr; r++)
			for (c = 0; c < cc; c++)
				if (comp[i][GRID_HDR + (size_t)r * cc + c] ==
				    '.') {
					k = (size_t)r * cols + at + c;
					st[k >> 6] |= (uint64_t)1 << (k & 63);
				}
		at += cc + 1;
	}
	return CG_OK;
}

static int
db_unpack(const struct cg_context *cx, const struct cg_bit_shape *sh,
    const uint64_t *st, struct cg_buf *out)
{
	unsigned char hdr[GRID_HDR], cell;
	size_t k, n = (size_t)sh->dims[0] * sh->dims[1];

	hdr[0] = (unsigned char)sh->dims[0];
	hdr[1] = (unsigned char)sh->dims[1];
	if (cx->host->buf_put(out, hdr, GRID_HDR) < 0)
		return CG_ENOMEM;
	for (k = 0; k < n; k++) {
		cell = st[k >> 6] >> (k & 63) & 1 ? '.' : '#';
		if (cx->host->buf_put(out, &cell, 1) < 0)
			return CG_ENOMEM;
	}
	return CG_OK;
}

DOM_HOT static void
db_bounds(const struct cg_context *cx, const struct cg_bit_shape *sh,
    const uint64_t *st, struct cg_move_bounds *b)
{
	uint64_t row[64], col[64];

	(void)cx;
	db_lines(sh, st, row, col);
	dom_bits_side(col, (int)sh->dims[1], b, CG_LEFT);
	dom_bits_side(row, (int)sh->dims[0], b, CG_RIGHT);
	b->flags = CG_BOUNDS_ROOM | CG_BOUNDS_FIRST;
}

/* The safe dominoes of line a of n: pairs of its proof cells, those no
 * domino along the lines beside it can cover. */
DOM_INLINE int
db_safe(const uint64_t *line, int n, int a)
{
	uint64_t p = line[a];

	if (a > 0)
		p &= ~line[a - 1];
	if (a + 1 < n)
		p &= ~line[a + 1];
	return dom_pop(dom_pair_firsts(p));
}

/* The change in what lines first..first+count-1 of n and the two beside
 * them are worth to their player when each of the first loses the cells
 * of clear: their dominoes, plus their safe ones twice (sv_static's
 * search-order weights).  most[a] and safe[a] are line a's before. */
DOM_INLINE int
db_change(uint64_t *line, const int *most, const int *safe, int n,
    int first, int count, uint64_t clear)
{
	uint64_t keep[2];
	int a, d = 0, lo = first > 0 ? first - 1 : 0,
	    hi = first + count < n ? first + count : n - 1;

	for (a = 0; a < count; a++) {
		keep[a] = line[first + a];
		line[first + a] &= ~clear;
		d += dom_pop(dom_pair_firsts(line[first + a])) -
		    most[first + a];
	}
	for (a = lo; a <= hi; a++)
		d += 2 * (db_safe(line, n, a) - safe[a]);
	for (a = 0; a < count; a++)
		line[first + a] = keep[a];
	return d;
}

/*
 * Options best first: the mover's gain in the lead of sv_static's
 * search-order key (its dominoes plus twice its safe ones, less the
 * opponent's), then grid_domino_rank (edge first), then cell order.
 */
DOM_HOT static int
db_options(const struct cg_context *cx, const struct cg_bit_shape *sh,
    const uint64_t *st, enum cg_side side, uint64_t *masks)
{
	int rows = (int)sh->dims[0], cols = (int)sh->dims[1], vert =
	    side == CG_LEFT, nl = vert ? cols : rows, no = vert ? rows : cols;
	int a, at, d, m = 0, i, j;
	uint64_t row[64], col[64], *own = vert ? col : row,
	    *opp = vert ? row : col, x, y;
	int64_t key[DB_CELLS], kk;
	int mown[64], sown[64], mopp[64], sopp[64];
	uint32_t cell[DB_CELLS], cc;
	size_t k, w = sh->words;

	(void)cx;
	db_lines(sh, st, row, col);
	for (a = 0; a < nl; a++) {
		mown[a] = dom_pop(dom_pair_firsts(own[a]));
		sown[a] = db_safe(own, nl, a);
	}
	for (a = 0; a < no; a++) {
		mopp[a] = dom_pop(dom_pair_firsts(opp[a]));
		sopp[a] = db_safe(opp, no, a);
	}
	for (a = 0; a < nl; a++)
		for (x = own[a] & own[a] >> 1; x != 0; x &= x - 1) {
			at = __builtin_ctzll(x);
			y = (uint64_t)1 << a;
			/* the two opposing lines lose cell a */
			d = db_change(own, mown, sown, nl, a, 1,
			    (uint64_t)3 << at) -
			    db_change(opp, mopp, sopp, no, at, 2, y);
			k = vert ? (size_t)at * cols + a : (size_t)a * cols + at;
			/* the gain, then the rank (below 2^16) */
			key[m] = (int64_t)d * 65536 +
			    grid_domino_rank(k, vert, rows, cols);
			cell[m++] = (uint32_t)k;
		}
	/* insertion sort, largest key first, cell order among equals */
	for (i = 1; i < m; i++) {
		kk = key[i];
		cc = cell[i];
		for (j = i; j > 0 && key[j - 1] < kk; j--) {
			key[j] = key[j - 1];
			cell[j] = cell[j - 1];
		}
		key[j] = kk;
		cell[j] = cc;
	}
	memset(masks, 0, (size_t)m * w * sizeof *masks);
	for (i = 0; i < m; i++) {
		uint64_t *mk = masks + (size_t)i * w;
		size_t c2 = cell[i] + (vert ? (size_t)cols : 1);

		mk[cell[i] >> 6] |= (uint64_t)1 << (cell[i] & 63);
		mk[c2 >> 6] |= (uint64_t)1 << (c2 & 63);
	}
	return m;
}

static uint64_t
db_reverse(uint64_t x, int n)
{
	x = (x >> 1 & 0x5555555555555555u) | (x & 0x5555555555555555u) << 1;
	x = (x >> 2 & 0x3333333333333333u) | (x & 0x3333333333333333u) << 2;
	x = (x >> 4 & 0x0f0f0f0f0f0f0f0fu) | (x & 0x0f0f0f0f0f0f0f0fu) << 4;
	return __builtin_bswap64(x) >> (64 - n);
}

/* The least of the state's images under the mirrors that keep each
 * player's dominoes (left-right, up-down, both), as words compared from
 * the last. */
static void
db_canonical(const struct cg_context *cx, const struct cg_bit_shape *sh,
    const uint64_t *st, uint64_t *out)
{
	int rows = (int)sh->dims[0], cols = (int)sh->dims[1], r, sym, w;
	uint64_t row[64], img[CG_BIT_WORDS], v;
	size_t i, nw = sh->words;

	(void)cx;
	memcpy(out, st, nw * sizeof *st);
	for (r = 0; r < rows; r++)
		row[r] = db_row(st, r, cols);
	for (sym = 1; sym < 4; sym++) {
		memset(img, 0, sizeof img);
		for (r = 0; r < rows; r++) {
			v = row[sym & 2 ? rows - 1 - r : r];
			if (sym & 1)
				v = db_reverse(v, cols);
			i = (size_t)r * cols;
			img[i >> 6] |= v << (i & 63);
			if ((i & 63) + (size_t)cols > 64)
				img[(i >> 6) + 1] |= v >> (64 - (i & 63));
		}
		for (w = (int)nw - 1; w >= 0 && img[w] == out[w]; w--)
			;
		if (w >= 0 && img[w] < out[w])
			memcpy(out, img, nw * sizeof *img);
	}
}

static const struct cg_bit_search dom_bit_search = {
	.struct_size = sizeof(struct cg_bit_search),
	.pack = db_pack,
	.options = db_options,
	.bounds = db_bounds,
	.unpack = db_unpack,
	.canonical = db_canonical,
};

static const struct cg_move_counts dom_move_counts = {
	.struct_size = sizeof(struct cg_move_counts),
	.counts = dom_counts,
};

static const struct cg_search_order dom_search_order = {
	.struct_size = sizeof(struct cg_search_order),
	.options = dom_search_options,
};

static const void *
dom_extension(const struct cg_context *cx, const char *name)
{
	(void)cx;
	if (strcmp(name, CG_EXT_MOVE_COUNTS) == 0)
		return &dom_move_counts;
	if (strcmp(name, CG_EXT_SEARCH_ORDER) == 0)
		return &dom_search_order;
	if (strcmp(name, CG_EXT_BIT_SEARCH) == 0)
		return &dom_bit_search;
	return NULL;
}

static int
dom_enumerate(const struct cg_context *cx, const char *family,
    cg_emit_fn emit, void *ctx)
{
	return grid_enumerate_regions(cx, &dom_game, family, emit, ctx);
}

static const struct cg_ruleset dom_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "domineering",
	.version = "1.0",
	.summary = "Domineering: Left places vertical dominoes, Right "
	    "horizontal ones",
	.params_help = "none, or reference (the labelling code instead of bit "
	    "boards, for checking)",
	.flags = CG_SYMMETRY | CG_DECOMPOSES | CG_SYNCHRONIZED |
	    CG_ENUMERATES | CG_BOARD,
	.init = grid_init,
	.fini = grid_fini,
	.parse = dom_parse,
	.print = dom_print,
	.options = dom_options,
	.canonical = dom_canonical,
	.decompose = dom_decompose,
	.synch_options = dom_synch_options,
	.decided_value = dom_decided_value,
	.enumerate = dom_enumerate,
	.extension = dom_extension,
	.measure = grid_measure_empty,
};

CG_RULESET_ENTRY(domineering, dom_ruleset)
