/*
 * clobber.c - Clobber: a move takes one of your stones onto an
 * orthogonally adjacent stone of the opponent, which is removed.
 *
 * Text: CGSuite's notation, rows separated by '|', 'x' a Left stone, 'o'
 * a Right stone, '.' empty ('X' and 'O' are read as 'x' and 'o').
 * Bytes: plugins/lib/grid.h (rows, cols, one character per cell).
 * Parameter: none, or "reference" (grid.h: the labelling code for every
 * board instead of bit boards, to check them against).
 * Move names: FROM-TO in chess coordinates (columns a.., rows 1.. from
 * the bottom): in "xo" Left's move is "a1-b1".
 *
 * Stones never enter an empty cell, so empty cells only separate: the
 * regions are the 4-connected groups of stones, and a region of one
 * colour has no moves for anybody (it is 0 and is dropped).  All 8 board
 * symmetries keep the game.
 * enumerate("N"): every region of 2..N stones (N <= 16) with both colours,
 * once up to the 8 symmetries, smallest first.
 */
#include <stdlib.h>
#include <string.h>

#include "cg/ruleset.h"
#include "grid.h"

#define CLOBBER_ENUM_MAX 16

static int
clob_keep(const unsigned char *board, size_t n)
{
	size_t i, N = (size_t)board[0] * board[1];
	int x = 0, o = 0;

	(void)n;
	for (i = 0; i < N; i++) {
		x |= board[GRID_HDR + i] == 'x';
		o |= board[GRID_HDR + i] == 'o';
	}
	return x && o;
}

/* The alphabet ".xo" codes 'x' 1 (the lo plane), 'o' 2 (the hi plane). */
static int
clob_keep_bits(const struct grid_bits *b, uint64_t region)
{
	return (region & b->lo) != 0 && (region & b->hi) != 0;
}

static const struct grid_game clob_game = {
	.wall = '.',
	.alphabet = ".xo",
	.nsym = 8,
	.conn8 = 0,
	.keep = clob_keep,
	.keep_bits = clob_keep_bits,
};

static int
clob_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	char map[256] = { 0 };

	map['.'] = '.';
	map['x'] = map['X'] = 'x';
	map['o'] = map['O'] = 'o';
	return grid_parse_text(cx, text, len, map, out);
}

static int
clob_print(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	return grid_print(cx, &clob_game, pos, len, out);
}

/* Each stone of side in reading order, its targets up, left, right,
 * down.  Small boards lend each child with its bit board. */
static int
clob_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	static const int dr[4] = { -1, 0, 0, 1 }, dc[4] = { 0, -1, 1, 0 };
	unsigned char *child, *cells, me, them;
	char move[24];
	int rows, cols, rc, r, c, d, nr, nc, bits;
	size_t k, t, n;
	struct grid_bits b = { 0 }, cb;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	bits = grid_use_bits(cx, (size_t)rows * cols) &&
	    grid_bits_get(cx, &clob_game, pos, &b) >= 0;
	me = side == CG_LEFT ? 'x' : 'o';
	them = side == CG_LEFT ? 'o' : 'x';
	child = cx->host->alloc(len);
	if (child == NULL)
		return CG_ENOMEM;
	memcpy(child, pos, len);
	cells = child + GRID_HDR;
	rc = CG_OK;
	for (r = 0; r < rows && rc == CG_OK; r++)
		for (c = 0; c < cols; c++) {
			k = (size_t)r * cols + c;
			if (cells[k] != me)
				continue;
			for (d = 0; d < 4; d++) {
				nr = r + dr[d];
				nc = c + dc[d];
				if (nr < 0 || nr >= rows || nc < 0 ||
				    nc >= cols)
					continue;
				t = (size_t)nr * cols + nc;
				if (cells[t] != them)
					continue;
				cells[k] = '.';
				cells[t] = me;
				n = grid_coord(move, r, c, rows);
				move[n++] = '-';
				grid_coord(move + n, nr, nc, rows);
				if (bits) {
					/* ".xo": '.' 0, 'x' 1, 'o' 2 */
					cb = b;
					grid_bits_set(&clob_game, &cb,
					    (uint64_t)1 << k, 0);
					grid_bits_set(&clob_game, &cb,
					    (uint64_t)1 << t, me == 'x' ? 1 : 2);
					rc = grid_emit_lent(cx, child, len, &cb,
					    0, emit, ctx, move);
				} else {
					rc = emit(ctx, child, len, move);
				}
				if (rc) {
					rc = CG_STOP;
					break;
				}
				cells[k] = me;
				cells[t] = them;
			}
			if (rc != CG_OK)
				break;
		}
	cx->host->free(child);
	return rc;
}

static int
clob_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	return grid_canonical(cx, &clob_game, pos, len, out);
}

static int
clob_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	return grid_decompose(cx, &clob_game, pos, len, emit, ctx);
}

/* The stones on the board: every move removes one (the stone clobbered),
 * and a component keeps only stones of its position. */
static int
clob_measure(const struct cg_context *cx, const unsigned char *pos,
    size_t len, uint64_t *m)
{
	size_t i;
	uint64_t n = 0;
	int rows, cols, rc;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	for (i = GRID_HDR; i < len; i++)
		n += pos[i] != '.';
	*m = n;
	return CG_OK;
}

struct clob_enum {
	cg_emit_fn emit;
	void *ctx;
	unsigned char board[GRID_HDR + GRID_POLY_MAX * GRID_POLY_MAX];
};

/* Every two-colouring of one polyomino (x where the bit is set). */
static int
clob_enum_one(void *arg, const unsigned char *shape, const int *x,
    const int *y, int n)
{
	struct clob_enum *e = arg;
	size_t L = GRID_HDR + (size_t)shape[0] * shape[1], i, k;
	uint32_t m;

	(void)x;
	(void)y;
	memcpy(e->board, shape, L);
	for (m = 1; m + 1 < (1u << n); m++) {
		for (i = GRID_HDR, k = 0; i < L; i++)
			if (shape[i] != '.')
				e->board[i] = (m >> k++) & 1 ? 'x' : 'o';
		if (grid_sym_best(e->board, clob_game.nsym) != 0)
			continue;
		if (e->emit(e->ctx, e->board, L, NULL))
			return CG_STOP;
	}
	return 0;
}

static int
clob_enumerate(const struct cg_context *cx, const char *family,
    cg_emit_fn emit, void *ctx)
{
	struct clob_enum *e;
	int n, size, rc = CG_OK;

	if (grid_family_size(family, CLOBBER_ENUM_MAX, &n) < 0)
		return cx->host->error(cx->err, 0,
		    "bad family '%s' (expected a region size N, 1..%d)",
		    family ? family : "", CLOBBER_ENUM_MAX);
	e = cx->host->alloc(sizeof *e);
	if (e == NULL)
		return CG_ENOMEM;
	e->emit = emit;
	e->ctx = ctx;
	for (size = 2; size <= n && rc == CG_OK; size++)
		rc = grid_polyominoes(cx, size, 'x', '.', clob_enum_one, e);
	cx->host->free(e);
	return rc;
}

static const struct cg_ruleset clob_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "clobber",
	.version = "1.0",
	.summary = "Clobber: move a stone onto an adjacent enemy stone, "
	    "removing it",
	.params_help = "none, or reference (the labelling code instead of bit "
	    "boards, for checking)",
	.flags = CG_SYMMETRY | CG_DECOMPOSES | CG_ENUMERATES | CG_BOARD,
	.init = grid_init,
	.fini = grid_fini,
	.parse = clob_parse,
	.print = clob_print,
	.options = clob_options,
	.canonical = clob_canonical,
	.decompose = clob_decompose,
	.enumerate = clob_enumerate,
	.measure = clob_measure,
};

CG_RULESET_ENTRY(clobber, clob_ruleset)
