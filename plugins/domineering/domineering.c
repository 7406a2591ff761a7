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
 * cg.move-counts (cgx/movecounts.h): safe, sure and most moves of each
 * player, for the outcome searches (counts.c); cg.bit-search
 * (cgx/bitsearch.h): boards as bits for cg-outcome --search bits
 * (bits.c); cg.search-order (cgx/searchorder.h): options edge first
 * (grid_domino_rank); cg.rank (cg/rank.h): the members of a family
 * numbered by arithmetic (rank.c).
 *
 * enumerate("N"): every region (a polyomino of empty cells, 2 <= size <=
 * N, N <= 24) once up to the four symmetries, smallest sizes first.
 */
#include <stdlib.h>
#include <string.h>

#include "cgx/searchorder.h"
#include "dom.h"

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

int64_t
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
static const struct cg_search_order dom_search_order = {
	.struct_size = sizeof(struct cg_search_order),
	.options = dom_search_options,
};

/* The board turned about its diagonal: Left's dominoes become Right's,
 * so its value is the board's negative. */
static int
dom_conjugate(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	unsigned char *img;
	int rows, cols, rc;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	if ((img = cx->host->alloc(len)) == NULL)
		return CG_ENOMEM;
	grid_sym_write(pos, 4, img);   /* symmetry 4: the transpose */
	rc = cx->host->buf_put(out, img, len) < 0 ? CG_ENOMEM : CG_OK;
	cx->host->free(img);
	return rc;
}

static const struct cg_conjugate dom_conjugate_ext = {
	.struct_size = sizeof(struct cg_conjugate),
	.conjugate = dom_conjugate,
};

static const void *
dom_extension(const struct cg_context *cx, const char *name)
{
	(void)cx;
	if (strcmp(name, CG_EXT_CONJUGATE) == 0)
		return &dom_conjugate_ext;
	if (strcmp(name, CG_EXT_MOVE_COUNTS) == 0)
		return &dom_move_counts;
	if (strcmp(name, CG_EXT_SEARCH_ORDER) == 0)
		return &dom_search_order;
	if (strcmp(name, CG_EXT_BIT_SEARCH) == 0)
		return &dom_bit_search;
	if (strcmp(name, CG_EXT_RANK) == 0)
		return &dom_rank;
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

