/*
 * cram.c - Cram: Domineering in which both players may place a domino
 * either way (impartial).
 *
 * Text: CGSuite's notation as for domineering ("..|..": rows separated
 * by '|', '.' empty, '#' filled), or Glop's: the cells row by row, '0'
 * empty and 'G' filled, '*' after the first row (it gives the width) and
 * 'E' (or 'F') at the end of the board, optionally after a leading 'B':
 * "B000*0GG000000E", "0000*E", "00*00E".  Several Glop boards written one
 * after another are a sum; they are read as one board, side by side,
 * separated by a column of filled cells.  Positions are always printed
 * in CGSuite's notation.
 * Bytes: plugins/lib/grid.h (rows, cols, one character per cell).
 * Parameter: none, or "reference" (grid.h: the labelling code for every
 * board instead of bit boards, to check them against).
 * Move names as in domineering: "a1-a2" (vertical), "a1-b1".
 *
 * Canonical form: Glop's normalisation (single empty cells filled,
 * regions cropped and minimised over all 8 symmetries, sorted).
 * order_key: the number of empty cells that have an empty neighbour
 * (smaller positions first).
 * cg.value: a position the half turn maps onto itself is 0 when no empty
 * cell is its own image or next to it (Tweedledum and Tweedledee: the
 * second player answers each domino with its image, which never meets
 * it); every empty board with an even side is such a position.
 * enumerate("N"): every region of 2..N cells (N <= 24) once up to the 8
 * symmetries (the free polyominoes), smallest first.
 */
#include <stdlib.h>
#include <string.h>

#include "cg/ruleset.h"
#include "cg/value.h"
#include "grid.h"

static int
cram_keep(const unsigned char *board, size_t n)
{
	(void)board;
	return n >= 2;  /* a single empty cell has no moves */
}

static int
cram_keep_bits(const struct grid_bits *b, uint64_t region)
{
	(void)b;
	return (region & (region - 1)) != 0;  /* two cells or more */
}

static const struct grid_game cram_game = {
	.wall = '#',
	.alphabet = ".#",
	.nsym = 8,
	.conn8 = 0,
	.keep = cram_keep,
	.keep_bits = cram_keep_bits,
};

/* Glop's notation: one board from text[*i], appended to out. */
static int
cram_glop_board(const struct cg_context *cx, const char *text, size_t len,
    size_t *i, struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	size_t start = out->len, n = 0, w = 0, rows;
	int star = 0;
	unsigned char hdr[GRID_HDR] = { 0, 0 };

	if (*i < len && text[*i] == 'B')
		(*i)++;
	if (h->buf_put(out, hdr, GRID_HDR) < 0)
		return CG_ENOMEM;
	for (;; (*i)++) {
		if (*i == len)
			return h->error(cx->err, len + 1,
			    "missing 'E' at the end of the board");
		switch (text[*i]) {
		case '0':
		case 'G':
			if (h->buf_putc(out, text[*i] == '0' ? '.' : '#') < 0)
				return CG_ENOMEM;
			if (++n > GRID_MAX_SIDE * GRID_MAX_SIDE ||
			    (!star && n > GRID_MAX_SIDE))
				return h->error(cx->err, *i + 1,
				    "board too large (at most %d rows and "
				    "columns)", GRID_MAX_SIDE);
			continue;
		case '*':
			if (star)
				return h->error(cx->err, *i + 1,
				    "second '*' in a board");
			if (n == 0)
				return h->error(cx->err, *i + 1, "empty row");
			star = 1;
			w = n;
			continue;
		case 'E':
		case 'F':
			break;
		default:
			return grid_badchar(cx, *i + 1, text[*i]);
		}
		break;
	}
	if (n == 0)
		return h->error(cx->err, *i + 1, "empty board");
	if (!star)
		return h->error(cx->err, *i + 1,
		    "missing '*' after the first row");
	if (n % w != 0)
		return h->error(cx->err, *i + 1, "bad board widths");
	rows = n / w;
	if (rows > GRID_MAX_SIDE)
		return h->error(cx->err, *i + 1,
		    "board too large (at most %d rows)", GRID_MAX_SIDE);
	out->data[start] = (unsigned char)rows;
	out->data[start + 1] = (unsigned char)w;
	(*i)++;
	return CG_OK;
}

static int
cram_parse_glop(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	struct cg_buf list = { 0 };
	size_t i = 0, nb = 0, off, width = 0, height = 0, base, L, c0;
	unsigned char *dst, *b;
	int rc = CG_OK, r;

	while (i < len) {
		if ((rc = cram_glop_board(cx, text, len, &i, &list)) < 0)
			goto done;
		nb++;
	}
	/* lay the boards out side by side */
	for (off = 0; off < list.len; off += GRID_HDR +
	    (size_t)list.data[off] * list.data[off + 1]) {
		width += list.data[off + 1] + (off > 0);
		if (list.data[off] > height)
			height = list.data[off];
	}
	if (width > GRID_MAX_SIDE) {
		rc = h->error(cx->err, 1, "board too large (the boards of the "
		    "sum take more than %d columns)", GRID_MAX_SIDE);
		goto done;
	}
	if (nb == 1) {
		rc = h->buf_put(out, list.data, list.len) < 0 ? CG_ENOMEM : 0;
		goto done;
	}
	L = GRID_HDR + width * height;
	base = out->len;
	for (i = 0; i < L; i++)
		if (h->buf_putc(out, '#') < 0) {
			rc = CG_ENOMEM;
			goto done;
		}
	dst = out->data + base;
	dst[0] = (unsigned char)height;
	dst[1] = (unsigned char)width;
	c0 = 0;
	for (off = 0; off < list.len; off += GRID_HDR + (size_t)b[0] * b[1]) {
		b = list.data + off;
		for (r = 0; r < b[0]; r++)
			memcpy(dst + GRID_HDR + (size_t)r * width + c0,
			    b + GRID_HDR + (size_t)r * b[1], b[1]);
		c0 += b[1] + 1;
	}
done:
	h->free(list.data);
	return rc;
}

static int
cram_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	char map[256] = { 0 };

	if (len > 0 && (text[0] == '0' || text[0] == 'G' || text[0] == 'B'))
		return cram_parse_glop(cx, text, len, out);
	map['.'] = '.';
	map['#'] = '#';
	return grid_parse_text(cx, text, len, map, out);
}

static int
cram_print(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	return grid_print(cx, &cram_game, pos, len, out);
}


/* Both players: every vertical domino, then every horizontal one. */
static int
cram_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	(void)side;
	return grid_domino_options(cx, &cram_game, pos, len, 1, 1, emit, ctx);
}

static int
cram_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	return grid_canonical(cx, &cram_game, pos, len, out);
}

static int
cram_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	return grid_decompose(cx, &cram_game, pos, len, emit, ctx);
}

static int
cram_order_key(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int64_t *key)
{
	const unsigned char *cells = pos + GRID_HDR;
	int rows, cols, rc, r, c;
	int64_t live = 0;
	size_t k;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++) {
			k = (size_t)r * cols + c;
			if (cells[k] != '.')
				continue;
			if ((r > 0 && cells[k - cols] == '.') ||
			    (r + 1 < rows && cells[k + cols] == '.') ||
			    (c > 0 && cells[k - 1] == '.') ||
			    (c + 1 < cols && cells[k + 1] == '.'))
				live++;
		}
	*key = live;
	return CG_OK;
}

static int
cram_enumerate(const struct cg_context *cx, const char *family,
    cg_emit_fn emit, void *ctx)
{
	return grid_enumerate_regions(cx, &cram_game, family, emit, ctx);
}

/* 0 when the half turn maps pos onto itself and no domino can meet its
 * own image (the image of an empty cell is never that cell or one of its
 * neighbours): the second player copies every move turned by a half turn
 * and always has a move.  Otherwise no value on sight. */
static int
cram_value(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	const unsigned char *cells = pos + GRID_HDR;
	int rows, cols, rc, i, j;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++) {
			int mi = rows - 1 - i, mj = cols - 1 - j;
			int d = abs(mi - i) + abs(mj - j);
			unsigned char a = cells[(size_t)i * cols + j];

			if (a != cells[(size_t)mi * cols + mj])
				return CG_EUNSUPPORTED;
			if (a == '.' && d <= 1)
				return CG_EUNSUPPORTED;
		}
	return cx->host->buf_putc(out, '0') < 0 ? CG_ENOMEM : CG_OK;
}

static const struct cg_value_ext cram_value_ext = {
	.struct_size = sizeof(struct cg_value_ext),
	.value = cram_value,
};

static const void *
cram_extension(const struct cg_context *cx, const char *name)
{
	(void)cx;
	if (strcmp(name, CG_EXT_VALUE) == 0)
		return &cram_value_ext;
	return NULL;
}

static const struct cg_ruleset cram_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "cram",
	.version = "1.0",
	.summary = "Cram: both players place dominoes either way",
	.params_help = "none, or reference (the labelling code instead of bit "
	    "boards, for checking)",
	.flags = CG_IMPARTIAL | CG_SYMMETRY | CG_DECOMPOSES | CG_ENUMERATES |
	    CG_BOARD,
	.init = grid_init,
	.fini = grid_fini,
	.parse = cram_parse,
	.print = cram_print,
	.options = cram_options,
	.canonical = cram_canonical,
	.decompose = cram_decompose,
	.enumerate = cram_enumerate,
	.order_key = cram_order_key,
	.extension = cram_extension,
	.measure = grid_measure_empty,
};

CG_RULESET_ENTRY(cram, cram_ruleset)
