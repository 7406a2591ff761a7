/*
 * counts.c - Domineering's cg.move-counts (cgx/movecounts.h): for each
 * player its safe, sure, most and first moves and its room, on bit lines
 * for boards of at most 64 rows and columns, cell by cell otherwise (and
 * for "domineering:reference", to check the bit lines against).
 */
#include <string.h>

#include "dom.h"


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
	unsigned char *slots;   /* the other reserve (dom_slots) */
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
 * dom_bits_areas cell by cell: the protective areas, line by line, the
 * wall on the line before and then on the line after, each scanned from
 * its first cell; v->marks gets 6 on an area cell, 7 on an empty guard
 * cell beyond it.
 */
static int
dom_area_ok(const struct dom_view *v, int a, int w, int o, int at)
{
	unsigned char m0 = v->marks[AT(v, a, at)],
	    m1 = v->marks[AT(v, a + 1, at)];

	return dom_empty(v, a, at) && dom_empty(v, a + 1, at) &&
	    !dom_empty(v, w, at) && m0 != 6 && m0 != 7 && m1 != 6 &&
	    m1 != 7 && v->marks[AT(v, o, at)] != 6;
}

static uint32_t
dom_areas(const struct dom_view *v)
{
	uint32_t n = 0;
	int a, b, k, side, w, o;

	for (a = 0; a + 1 < v->lines; a++)
		for (side = 0; side < 2; side++) {
			w = side ? a + 2 : a - 1;
			o = side ? a - 1 : a + 2;
			for (b = 0; b + 1 < v->len; b++) {
				if (!dom_area_ok(v, a, w, o, b) ||
				    !dom_area_ok(v, a, w, o, b + 1))
					continue;
				for (k = 0; k < 2; k++) {
					v->marks[AT(v, a, b + k)] = 6;
					v->marks[AT(v, a + 1, b + k)] = 6;
					if (dom_empty(v, o, b + k))
						v->marks[AT(v, o, b + k)] = 7;
				}
				n++;
				b++;
			}
		}
	return n;
}

/*
 * What a cell holds for one reserve's options: for the pool's
 * (slots 0), its mark; for the slots' (slots 1), its slot mark (4 or 5,
 * or 8 or 9 for an option's cell), else its mark when safe, an area's
 * or a guard (the pool is not the slots' reserve).
 */
static unsigned char
dom_held(const struct dom_view *v, int a, int c, int slots)
{
	unsigned char m = v->marks[AT(v, a, c)];

	if (!slots)
		return m;
	if (v->slots[AT(v, a, c)] != 0)
		return v->slots[AT(v, a, c)];
	return m == 1 || m == 6 || m == 7 ? m : 0;
}

/*
 * dom_bits_options cell by cell: the safe options of v beside one
 * reserve (the pool's, or with slots the slots'), whose safe dominoes
 * (marks 1) pair from the start of each run; first the cell before each
 * domino, then the cell after it for a domino that has none.  The cell
 * before gets 8, the cell after 9 (in v->marks, or v->slots for the
 * slots').  w[k] counts the options that waste k cells.
 */
static int
dom_option_ok(const struct dom_view *v, int a, int c, int slots)
{
	int d;
	unsigned char m;

	if (c < 0 || c >= v->len || !dom_empty(v, a, c) || dom_proof(v, a, c))
		return 0;
	if (dom_held(v, a, c, slots) != 0)   /* reserved, or an option */
		return 0;
	for (d = a - 1; d <= a + 1; d += 2) {
		m = dom_held(v, d, c, slots);
		if (dom_empty(v, d, c) && m != 0 && m != 1)
			return 0;
	}
	return 1;
}

/* Is cell at of line a (perhaps the frame) an option's cell c? */
static int
dom_option_at(const struct dom_view *v, int a, int at)
{
	unsigned char m = v->marks[AT(v, a, at)];

	return m == 8 || m == 9;
}

static void
dom_options(const struct dom_view *v, uint32_t w[4], int slots)
{
	unsigned char *mk = slots ? v->slots : v->marks, m;
	int a, b, end, k, pass, c, d, n;

	w[0] = w[1] = w[2] = w[3] = 0;
	for (a = 0; a < v->lines; a++)
		for (pass = 0; pass < 2; pass++)
			for (b = 0; b < v->len; b = end) {
				for (end = b; end < v->len &&
				    v->marks[AT(v, a, end)] == 1; end++)
					;
				if (end == b) {
					end++;
					continue;
				}
				for (k = b; k + 1 < end; k += 2) {
					c = pass == 0 ? k - 1 : k + 2;
					if (pass == 1 && k > 0 &&
					    mk[AT(v, a, k - 1)] == 8)
						continue;
					if (!dom_option_ok(v, a, c, slots))
						continue;
					mk[AT(v, a, c)] = pass ? 9 : 8;
				}
			}
	for (a = 0; a < v->lines; a++)
		for (c = 0; c < v->len; c++) {
			m = mk[AT(v, a, c)];
			if (m != 8 && m != 9)
				continue;
			n = 1;
			/* a cell across, empty, with a filled cell beyond */
			for (d = -1; d <= 1; d += 2)
				if (a + d >= 0 && a + d < v->lines &&
				    dom_empty(v, a + d, c) && (a + 2 * d < 0 ||
				    a + 2 * d >= v->lines ||
				    !dom_empty(v, a + 2 * d, c)))
					n++;
			w[n]++;
		}
}

/*
 * The other reserve (dom_bits_side's second one): besides the safe
 * dominoes, every free domino a walk along each line takes from the
 * start of each run of cells outside them.  A slot none of whose open
 * cells lies across from an open cell of another is of type 1: an
 * opposing domino that hits it hits no other, so two of them are worth a
 * move; the others (type 2) go by threes, as one opposing domino hits at
 * most two.  v->slots gets 4 on an open slot cell, 5 on a proof one
 * (a slot with one counts for the waste), 8 and 9 on the cells of the
 * slots' own safe options.  Kept when it is sure of more moves than the
 * pool.
 */
static void
dom_slots(const struct dom_view *v, uint32_t safe, uint32_t areas,
    struct cg_move_bounds *bd, int side)
{
	uint32_t one = 0, two = 0, q1 = 0, q2 = 0, room = 0, w[4];
	struct cg_move_bounds sl;
	int a, b, k, free = 0, open, proof;

#define MARK(l, at) v->marks[AT(v, l, at)]
#define SLOT(l, at) v->slots[AT(v, l, at)]
/* a cell no other reserve holds: not safe, no area's (a guard cell is
 * one, as for the pool) */
#define OTHER(l, at) (MARK(l, at) != 1 && MARK(l, at) != 6)
	for (a = 0; a < v->lines; a++)
		for (b = 0; b + 1 < v->len; b++)
			if (dom_empty(v, a, b) && dom_empty(v, a, b + 1) &&
			    OTHER(a, b) && OTHER(a, b + 1)) {
				for (k = 0; k < 2; k++)
					SLOT(a, b + k) = dom_proof(v, a, b + k) ?
					    5 : 4;
				b++;
			}
	for (a = 0; a < v->lines; a++)
		for (b = 0; b < v->len; b++) {
			if (SLOT(a, b) == 0)
				continue;
			/* the slot [b, b + 1]: across from another's open cell? */
			for (open = 0, k = 0; k < 2; k++)
				open |= SLOT(a, b + k) == 4 &&
				    (SLOT(a - 1, b + k) == 4 ||
				    SLOT(a + 1, b + k) == 4);
			proof = SLOT(a, b) == 5 || SLOT(a, b + 1) == 5;
			if (open) {
				two++;
				q2 += (uint32_t)proof;
			} else {
				one++;
				q1 += (uint32_t)proof;
			}
			b++;
		}
	for (a = 0; a < v->lines; a++)
		for (b = 0; b < v->len; b++)
			if (dom_empty(v, a, b) && (MARK(a, b) == 1 ||
			    MARK(a, b) == 6 || SLOT(a, b) != 0 ||
			    !dom_proof(v, a, b)))
				room++;
	for (a = 0; a < v->lines; a++)
		for (b = 0; b + 1 < v->len; b++)
			if (dom_empty(v, a, b) && dom_empty(v, a, b + 1) &&
			    MARK(a, b) != 1 && MARK(a, b + 1) != 1 &&
			    MARK(a, b) != 6 && MARK(a, b + 1) != 6 &&
			    SLOT(a, b) == 0 && SLOT(a, b + 1) == 0)
				free = 1;
#undef OTHER
#undef SLOT
#undef MARK
	dom_options(v, w, 1);
	dom_slots_take(&sl, side, safe, areas, one, q1, two, q2, w, room, free);
	dom_keep_surer(bd, &sl, side);
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
dom_guaranteed(const struct dom_view *v, struct cg_move_bounds *bd,
    int side, uint32_t *deny)
{
	uint32_t safe = 0, pool = 0, pprot = 0, room = 0, areas, w[4];
	int a, b, run, k, free = 0, freek = 0;

#define MARK(l, at) v->marks[AT(v, l, at)]
	areas = dom_areas(v);
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

				/* a guard cell may hold a pool domino
				 * (dom_bits_areas says why) */
				if (!dom_empty(v, a, at) || (MARK(a, at) != 0 &&
				    MARK(a, at) != 7))
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
			pprot += MARK(a, b) == 3 || MARK(a, b + 1) == 3;
			pool++;
			b++;
		}
	for (a = 0; a < v->lines; a++)
		for (b = 0; b < v->len; b++)
			if (dom_empty(v, a, b) && (MARK(a, b) != 0 ||
			    !dom_proof(v, a, b)))
				room++;
	/* a domino on two cells the reserve leaves free (a guard cell is
	 * free: a domino there only walls its area more), to play first */
	for (a = 0; a < v->lines; a++)
		for (b = 0; b + 1 < v->len; b++)
			if (dom_empty(v, a, b) && dom_empty(v, a, b + 1) &&
			    (MARK(a, b) == 0 || MARK(a, b) == 7) &&
			    (MARK(a, b + 1) == 0 || MARK(a, b + 1) == 7))
				free = 1;
#undef MARK
	dom_options(v, w, 0);
	/* a free domino for the room test: off the reserve (or on guard
	 * cells), on cells the opponent could cover, none an option's or
	 * across from one */
	for (a = 0; a < v->lines && !freek; a++)
		for (b = 0; b + 1 < v->len && !freek; b++) {
			freek = 1;
			for (k = 0; k < 2; k++) {
				int at = b + k;
				unsigned char m = v->marks[AT(v, a, at)];

				if (!dom_empty(v, a, at) || dom_proof(v, a, at) ||
				    (m != 0 && m != 7) ||
				    dom_option_at(v, a - 1, at) ||
				    dom_option_at(v, a + 1, at))
					freek = 0;
			}
		}
	bd->safe[side] = safe;
	dom_reserve_plan(bd, side, safe, areas, pool, pprot, w, room, free,
	    freek);
	*deny = areas / 2 * 2;
	dom_slots(v, safe, areas, bd, side);
}


/* dom_counts for boards of at most 64 rows and columns. */
DOM_INLINE void
dom_counts_bits(const unsigned char *cells, int rows, int cols,
    struct cg_move_bounds *b)
{
	uint64_t col[64] = { 0 }, row[64] = { 0 };
	uint32_t deny[2];
	struct cg_move_bounds sl;
	struct dom_work wk;
	int r, c;

	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			if (cells[(size_t)r * cols + c] == '.') {
				col[c] |= (uint64_t)1 << r;
				row[r] |= (uint64_t)1 << c;
			}
	memset(&sl, 0, sizeof sl);
	dom_bits_side(col, cols, b, CG_LEFT, &wk, &deny[CG_LEFT]);
	dom_bits_side_slots(col, cols, &wk, b, &sl, CG_LEFT);
	dom_keep_surer(b, &sl, CG_LEFT);
	dom_bits_side(row, rows, b, CG_RIGHT, &wk, &deny[CG_RIGHT]);
	dom_bits_side_slots(row, rows, &wk, b, &sl, CG_RIGHT);
	dom_keep_surer(b, &sl, CG_RIGHT);
	b->most[CG_RIGHT] -= deny[CG_LEFT];
	b->most[CG_LEFT] -= deny[CG_RIGHT];
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
	uint32_t deny[2];

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	/* "reference" keeps the cell-by-cell code below, to check against */
	if (rows <= 64 && cols <= 64 && (cx->state == NULL ||
	    !((const struct grid_state *)cx->state)->reference)) {
		memset(&b, 0, sizeof b);
		dom_counts_bits(cells, rows, cols, &b);
		b.flags = CG_BOUNDS_ROOM | CG_BOUNDS_FIRST |
		    CG_BOUNDS_FIRST_ROOM;
		memcpy(out, &b, out_size < sizeof b ? out_size : sizeof b);
		return CG_OK;
	}
	pc = (size_t)cols + 2;
	n = ((size_t)rows + 2) * pc;
	if ((buf = cx->host->alloc(3 * n)) == NULL)
		return CG_ENOMEM;
	memset(&b, 0, sizeof b);
	for (side = CG_LEFT; side <= CG_RIGHT; side++) {
		memset(buf, 0, 3 * n);
		v.st = buf;
		v.marks = buf + n;
		v.slots = buf + 2 * n;
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
		dom_guaranteed(&v, &b, side, &deny[side]);
	}
	b.most[CG_RIGHT] -= deny[CG_LEFT];
	b.most[CG_LEFT] -= deny[CG_RIGHT];
	b.flags = CG_BOUNDS_ROOM | CG_BOUNDS_FIRST | CG_BOUNDS_FIRST_ROOM;
	cx->host->free(buf);
	memcpy(out, &b, out_size < sizeof b ? out_size : sizeof b);
	return CG_OK;
}

const struct cg_move_counts dom_move_counts = {
	.struct_size = sizeof(struct cg_move_counts),
	.counts = dom_counts,
};

