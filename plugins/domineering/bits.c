/*
 * bits.c - Domineering's cg.bit-search (cgx/bitsearch.h), the boards that
 * cg-outcome --search bits plays on.
 */
#include <stddef.h>
#include <string.h>

#include "dom.h"

/*
 * cg.bit-search (cgx/bitsearch.h): a board of at most 256 cells and 64
 * rows and columns as bits, cell (r, c) at bit r * cols + c, set when
 * empty; dims[0] rows, dims[1] columns.  Components go side by side, a
 * filled column between two.
 */
#define DB_CELLS 256

/* Four keys at once (GCC's vector extension: SSE2 on any x86-64). */
typedef int32_t db_v4 __attribute__((vector_size(16)));

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

/* Put v as row r of a state of cols columns (the inverse of db_row;
 * the row's bits in st are clear). */
DOM_INLINE void
db_put_row(uint64_t *st, int r, int cols, uint64_t v)
{
	size_t i = (size_t)r * cols;

	st[i >> 6] |= v << (i & 63);
	if ((i & 63) + (size_t)cols > 64)
		st[(i >> 6) + 1] |= v >> (64 - (i & 63));
}

/* An 8x8 bit matrix, row i in byte i, transposed: column j in byte j
 * (three exchanges of blocks, Hacker's Delight 7-3). */
DOM_INLINE uint64_t
db_transpose8(uint64_t x)
{
	uint64_t t;

	t = (x ^ x >> 7) & 0x00aa00aa00aa00aau;
	x ^= t ^ t << 7;
	t = (x ^ x >> 14) & 0x0000cccc0000ccccu;
	x ^= t ^ t << 14;
	t = (x ^ x >> 28) & 0x00000000f0f0f0f0u;
	return x ^ t ^ t << 28;
}

/* The rows and the columns of a state as bit lines, the columns by 8x8
 * block transposes, not a loop over the empty cells: every count starts
 * here. */
DOM_INLINE void
db_lines(const struct cg_bit_shape *sh, const uint64_t *st, uint64_t *row,
    uint64_t *col)
{
	int rows = (int)sh->dims[0], cols = (int)sh->dims[1], r, c, i;
	uint64_t m;

	memset(col, 0, (size_t)cols * sizeof *col);
	for (r = 0; r < rows; r++)
		row[r] = db_row(st, r, cols);
	for (r = 0; r < rows; r += 8)
		for (c = 0; c < cols; c += 8) {
			for (m = 0, i = 0; i < 8 && r + i < rows; i++)
				m |= (row[r + i] >> c & 0xff) << 8 * i;
			if (m == 0)
				continue;
			m = db_transpose8(m);
			for (i = 0; i < 8 && c + i < cols; i++)
				col[c + i] |= (m >> 8 * i & 0xff) << r;
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
	 * components solves once each, where this one, over whole boards,
	 * searches them again in every board that holds them: strips are
	 * left to it */
	if (n == 1 && rows >= 3 && cols >= 3)
		sh->flags = CG_BIT_PREFER;
	/* the cells past the board's, for the host's table */
	sh->flags |= CG_BIT_SPARE(sh->words * 64 - (uint32_t)(rows * cols));
	/* the table's children first where 52 cells or more are empty, on
	 * boards of 81 cells or more (a 9x9 position of depth 4: 159.9 user
	 * s without, 146.8 with; 147.4 from 60 cells, 243.0 from 40) */
	if (rows * cols >= 81)
		sh->flags |= CG_BIT_ETC(52);
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
	uint32_t deny[2];
	struct cg_move_bounds lb;
	struct dom_work wk;

	(void)cx;
	db_lines(sh, st, row, col);
	/* each side's paired protective areas take moves from the other */
	dom_bits_side(col, (int)sh->dims[1], &lb, CG_LEFT, &wk,
	    &deny[CG_LEFT]);
	dom_bits_side(row, (int)sh->dims[0], &lb, CG_RIGHT, &wk,
	    &deny[CG_RIGHT]);
	lb.most[CG_RIGHT] -= deny[CG_LEFT];
	lb.most[CG_LEFT] -= deny[CG_RIGHT];
	/* first_sure and first_room only when the host's b reaches them */
	if (sh->flags & CG_BIT_FIRST_ROOM) {
		lb.flags = CG_BOUNDS_ROOM | CG_BOUNDS_FIRST |
		    CG_BOUNDS_FIRST_ROOM;
		memcpy(b, &lb, sizeof lb);
	} else {
		lb.flags = CG_BOUNDS_ROOM | CG_BOUNDS_FIRST;
		memcpy(b, &lb, offsetof(struct cg_move_bounds, first_sure));
	}
}

/* The host's rule (cgx/movecounts.h) as a margin: x, to move, wins by
 * the counts b of its side, the opponent having most_y moves at most,
 * when the margin is 1 or more; 0 falls short by one, and so on. */
DOM_INLINE int64_t
db_wins(const struct cg_move_bounds *b, int x, uint32_t most_y)
{
	int64_t m = (int64_t)b->first[x] - most_y,
	    r = 2 * (int64_t)b->sure[x] - b->room[x],
	    f = 2 * (int64_t)b->first_sure[x] - b->first_room[x];

	m = r > m ? r : m;
	return f > m ? f : m;
}

/* And y, not to move, wins by b, x having most_x moves at most, when
 * this margin is 1 or more. */
DOM_INLINE int64_t
db_holds(const struct cg_move_bounds *b, int y, uint32_t most_x)
{
	int64_t m = (int64_t)b->sure[y] - most_x + 1,
	    r = 2 * (int64_t)b->sure[y] + 1 - b->room[y];

	return r > m ? r : m;
}

/* The slots' reserve is counted only when the pool's fell short by
 * SLOTS_GAP or less: the slots settle almost nothing elsewhere (on 8x8,
 * 4 states of 118,283), and the passes this skips are most of those
 * that end with no verdict; the search's tree hardly changes. */
#define SLOTS_GAP 2

/*
 * The verdict with side to move by the host's rule, from either of the
 * two reserves (the pool's, which db_bounds gives, or the slots'), each
 * a proved claim: the mover's counts first, and the opponent's only when
 * the mover does not win (most states the search meets are the mover's
 * wins).
 */
DOM_INLINE int
db_settle_sh(const struct cg_bit_shape *sh, const uint64_t *st,
    enum cg_side side)
{
	uint64_t row[64], col[64], *own, *opp;
	uint32_t deny[2], most_x, most_y;
	struct cg_move_bounds lb, sl;
	struct dom_work wk;
	int x = side, y = !x, nx, ny;
	int64_t gap;

	db_lines(sh, st, row, col);
	own = x == CG_LEFT ? col : row;
	opp = x == CG_LEFT ? row : col;
	nx = (int)sh->dims[x == CG_LEFT ? 1 : 0];
	ny = (int)sh->dims[x == CG_LEFT ? 0 : 1];
	dom_bits_side_first(own, nx, &lb, x, &wk, &deny[x]);
	most_y = dom_bits_most(opp, ny) - deny[x];
	/* the most test, which needs no options, settles most of the
	 * mover's wins */
	if (lb.first[x] > most_y)
		return 1;
	dom_bits_side_room(own, nx, &lb, x, &wk);
	if ((gap = db_wins(&lb, x, most_y)) >= 1)
		return 1;
	if (gap >= 1 - SLOTS_GAP) {
		dom_bits_side_slots(own, nx, &wk, &lb, &sl, x);
		if (db_wins(&sl, x, most_y) >= 1)
			return 1;
	}
	most_x = lb.most[x];
	dom_bits_side_first(opp, ny, &lb, y, &wk, &deny[y]);
	most_x -= deny[y];
	if (lb.sure[y] >= most_x)
		return 0;
	dom_bits_side_room(opp, ny, &lb, y, &wk);
	if ((gap = db_holds(&lb, y, most_x)) >= 1)
		return 0;
	if (gap >= 1 - SLOTS_GAP) {
		dom_bits_side_slots(opp, ny, &wk, &lb, &sl, y);
		if (db_holds(&sl, y, most_x) >= 1)
			return 0;
	}
	return -1;
}

/* The 9x9 board's shape as a constant: db_settle_sh is built once more
 * for it, its loops over nine lines of known length, for the deep
 * searches of bench/domineering-deep; the other hooks run no faster
 * built so, and are built once. */
static const struct cg_bit_shape db_9x9 = { .words = 2, .dims = { 9, 9 } };

DOM_HOT static int
db_settle(const struct cg_context *cx, const struct cg_bit_shape *sh,
    const uint64_t *st, enum cg_side side)
{
	(void)cx;
	if (sh->dims[0] == 9 && sh->dims[1] == 9)
		return db_settle_sh(&db_9x9, st, side);
	return db_settle_sh(sh, st, side);
}

/*
 * Verdicts on a position's children from the position's own counts
 * (cgx/bitsearch.h's children()): the opponent y's first reserve (safe
 * dominoes, paired areas, the pool) is a strategy whose count holds in
 * any position where its cells are as they were, whoever moved
 * elsewhere: every wall it needs is a filled cell, and a move fills
 * cells only.  So after an option of the mover x that touches none of
 * the reserve's cells (nor its areas' guards), y moving first keeps
 * first[y], with a free domino if one is left on the cells of no reserve
 * once the option's are filled, and x has at most its most after the
 * move, less what the areas deny: the most test, as db_settle draws it
 * at the child.  An option that
 * touches one pool cell breaks that pool domino only (no x domino lies
 * across two open pool cells), and the reserve keeps the other n - 1.
 * An option that touches an area is not asked about: the reserve less
 * that area settles too few of those children to pay for the count.
 * The host asks only once the first option failed, so at most of the
 * positions the mover loses: their children are most of the verdicts a
 * search asks for.
 */
DOM_HOT static int
db_children(const struct cg_context *cx, const struct cg_bit_shape *sh,
    const uint64_t *st, enum cg_side side, const uint64_t *masks,
    uint32_t n, signed char *out)
{
	int cols = (int)sh->dims[1], x = side, y = !x, vert = x == CG_LEFT,
	    nx = (int)sh->dims[vert ? 1 : 0], ny = (int)sh->dims[vert ? 0 : 1],
	    a, xl, xb, yl1, yl2, yb;
	uint64_t row[64], col[64], *own = vert ? col : row,
	    *opp = vert ? row : col, ar[64], pk[64], rest[64], k1, r1, r2;
	int mown[64], tp, fr, nfree = 0;
	struct cg_move_bounds lb, fb;
	struct dom_work wk;
	uint32_t deny, mostx = 0, i;
	/* y's, with a pool domino lost (tp), with a free domino (fr) */
	int64_t most_c, first[2][2];
	size_t j, w = sh->words;

	(void)cx;
	db_lines(sh, st, row, col);
	dom_bits_side_first(opp, ny, &lb, y, &wk, &deny);
	for (a = 0; a < ny; a++) {
		pk[a] = wk.pk[a];
		ar[a] = wk.used[a] | wk.guard[a];
		/* the cells of no reserve, as dom_bits_side_first's rest */
		rest[a] = opp[a] & ~(wk.sm[a] | wk.pk[a] | wk.used[a]);
		nfree += (rest[a] & rest[a] >> 1) != 0;
	}
	for (tp = 0; tp < 2; tp++)
		for (fr = 0; fr < 2; fr++) {
			first[tp][fr] = -1;
			if (wk.pool < (uint32_t)tp)
				continue;
			dom_reserve_first(&fb, y, lb.safe[y], wk.areas,
			    wk.pool - (uint32_t)tp, fr);
			first[tp][fr] = fb.first[y];
		}
	for (a = 0; a < nx; a++) {
		mown[a] = dom_pop(dom_pair_firsts(own[a]));
		mostx += (uint32_t)mown[a];
	}
	for (i = 0; i < n; i++, masks += w) {
		out[i] = -1;
		/* the option's first cell: (r, c) and (r + 1, c) for x
		 * vertical, (r, c) and (r, c + 1) for x horizontal */
		for (j = 0; j < w && masks[j] == 0; j++)
			;
		if (j == w)
			continue;
		k1 = j * 64 + (uint64_t)__builtin_ctzll(masks[j]);
		xl = (int)(vert ? k1 % (uint64_t)cols : k1 / (uint64_t)cols);
		xb = (int)(vert ? k1 / (uint64_t)cols : k1 % (uint64_t)cols);
		yl1 = xb;
		yl2 = xb + 1;
		yb = xl;
		/* the safe dominoes' cells are proof: no x option touches
		 * them */
		if ((ar[yl1] | ar[yl2]) >> yb & 1)
			continue;
		tp = (int)((pk[yl1] | pk[yl2]) >> yb & 1);
		/* a free domino left once the option's cells are filled */
		r1 = rest[yl1] & ~((uint64_t)1 << yb);
		r2 = rest[yl2] & ~((uint64_t)1 << yb);
		fr = nfree - ((rest[yl1] & rest[yl1] >> 1) != 0) -
		    ((rest[yl2] & rest[yl2] >> 1) != 0) +
		    ((r1 & r1 >> 1) != 0) + ((r2 & r2 >> 1) != 0) > 0;
		most_c = (int64_t)mostx - mown[xl] + dom_pop(dom_pair_firsts(
		    own[xl] & ~((uint64_t)3 << xb))) - deny;
		if (first[tp][fr] > most_c)
			out[i] = 1;
	}
	return 0;
}

/*
 * Options best first: the mover's gain in its dominoes plus its safe
 * ones, less the opponent's, each weighing one (as in Obsequi's move
 * score; sv_static's order weighs safe ones twice, which here expands
 * more positions), then grid_domino_rank (edge first), then the
 * order made.  A move changes the dominoes of three lines (its own and
 * the two it crosses) and the proof cells of those and of the lines
 * beside them, each by the move's cells alone, so each change is one
 * count of one line, not a count of the seven lines the move touches.
 */
DOM_HOT static int
db_options(const struct cg_context *cx, const struct cg_bit_shape *sh,
    const uint64_t *st, enum cg_side side, uint64_t *masks)
{
	int rows = (int)sh->dims[0], cols = (int)sh->dims[1], vert =
	    side == CG_LEFT, nl = vert ? cols : rows, no = vert ? rows : cols;
	int a, at, d, m = 0, i, j, place[DB_CELLS];
	int32_t sk[DB_CELLS + 4];
	uint64_t row[64], col[64], *own = vert ? col : row,
	    *opp = vert ? row : col, x, y, clear, g;
	uint32_t key[DB_CELLS];
	int mown[64], sown[64], mopp[64], sopp[64];
	uint64_t pown[64], popp[64];
	uint32_t cell[DB_CELLS];
	size_t k, w = sh->words;

	(void)cx;
	db_lines(sh, st, row, col);
	for (a = 0; a < nl; a++) {
		mown[a] = dom_pop(dom_pair_firsts(own[a]));
		pown[a] = dom_proof_bits(own, nl, a);
		sown[a] = dom_pop(dom_pair_firsts(pown[a]));
	}
	for (a = 0; a < no; a++) {
		mopp[a] = dom_pop(dom_pair_firsts(opp[a]));
		popp[a] = dom_proof_bits(opp, no, a);
		sopp[a] = dom_pop(dom_pair_firsts(popp[a]));
	}
	for (a = 0; a < nl; a++)
		for (x = own[a] & own[a] >> 1; x != 0; x &= x - 1) {
			at = __builtin_ctzll(x);
			clear = (uint64_t)3 << at;
			y = (uint64_t)1 << a;
			/* own line a loses the two cells, from its dominoes
			 * and its proof cells; the lines beside it may gain
			 * proof cells there */
			d = dom_pop(dom_pair_firsts(own[a] & ~clear)) - mown[a] +
			    dom_pop(dom_pair_firsts(pown[a] & ~clear)) - sown[a];
			if (a > 0 && (g = own[a - 1] & clear &
			    ~(a > 1 ? own[a - 2] : 0)) != 0)
				d += dom_pop(dom_pair_firsts(pown[a - 1] | g)) -
				    sown[a - 1];
			if (a + 1 < nl && (g = own[a + 1] & clear &
			    ~(a + 2 < nl ? own[a + 2] : 0)) != 0)
				d += dom_pop(dom_pair_firsts(pown[a + 1] | g)) -
				    sown[a + 1];
			/* the two opposing lines lose cell a (neither had it
			 * as a proof cell: each is across from the other);
			 * the lines beyond them may gain it as one */
			d -= dom_pop(dom_pair_firsts(opp[at] & ~y)) - mopp[at] +
			    dom_pop(dom_pair_firsts(opp[at + 1] & ~y)) -
			    mopp[at + 1];
			if (at > 0 && (opp[at - 1] & ~(at > 1 ? opp[at - 2] :
			    0) & y) != 0)
				d -= dom_pop(dom_pair_firsts(popp[at - 1] | y)) -
				    sopp[at - 1];
			if (at + 2 < no && (opp[at + 2] & ~(at + 3 < no ?
			    opp[at + 3] : 0) & y) != 0)
				d -= dom_pop(dom_pair_firsts(popp[at + 2] | y)) -
				    sopp[at + 2];
			k = vert ? (size_t)at * cols + a : (size_t)a * cols + at;
			/* one word: the gain (its size is below 1024), the
			 * rank (below 2^13), the order made among equals */
			d = d < -1024 ? -1024 : d > 1023 ? 1023 : d;
			key[m] = (uint32_t)(d + 1024) << 21 |
			    grid_domino_rank_at(a, at, nl, no) << 8 |
			    (uint32_t)(255 - m);
			cell[m++] = (uint32_t)k;
		}
	/* each option's place, best first: how many keys beat its (all
	 * differ), four at a time, without branches (an insertion sort's
	 * exits are mispredicted, at every position); as signed words, the
	 * pad below every key */
	for (i = 0; i < m; i++)
		sk[i] = (int32_t)(key[i] ^ 0x80000000u);
	for (; i % 4 != 0; i++)
		sk[i] = INT32_MIN;
	for (i = 0; i < m; i++) {
		db_v4 beat = { 0, 0, 0, 0 }, ki = { sk[i], sk[i], sk[i],
		    sk[i] }, v;

		for (j = 0; j < m; j += 4) {
			memcpy(&v, sk + j, sizeof v);
			beat += v > ki;
		}
		place[i] = -(beat[0] + beat[1] + beat[2] + beat[3]);
	}
	memset(masks, 0, (size_t)m * w * sizeof *masks);
	for (i = 0; i < m; i++) {
		uint64_t *mk = masks + (size_t)place[i] * w;
		size_t c1 = cell[i], c2 = c1 + (vert ? (size_t)cols : 1);

		mk[c1 >> 6] |= (uint64_t)1 << (c1 & 63);
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

/* db_canonical of a board 8 squares wide (one word, a row a byte):
 * up-down is a byte swap, left-right a bit reversal within each byte. */
static void
db_canonical8(uint64_t x, int rows, uint64_t *out)
{
	uint64_t ud = __builtin_bswap64(x) >> (8 * (8 - rows)), lr = x, both;

	lr = (lr >> 1 & 0x5555555555555555u) | (lr & 0x5555555555555555u) << 1;
	lr = (lr >> 2 & 0x3333333333333333u) | (lr & 0x3333333333333333u) << 2;
	lr = (lr >> 4 & 0x0f0f0f0f0f0f0f0fu) | (lr & 0x0f0f0f0f0f0f0f0fu) << 4;
	both = __builtin_bswap64(lr) >> (8 * (8 - rows));
	x = ud < x ? ud : x;
	x = lr < x ? lr : x;
	out[0] = both < x ? both : x;
}

/* Which of images a and c comes first as words compared from the last,
 * that is row by row from the last row?  Each is a mirror (bit 0
 * left-right, bit 1 up-down) of the board (bit 2 clear: its rows
 * lines[0], each reversed lines[1]) or of the board turned about its
 * diagonal (bit 2 set: its rows are the board's columns, lines[2],
 * reversed lines[3]); n rows. */
static int
db_image_less(const uint64_t *const lines[4], int n, int a, int c)
{
	const uint64_t *ra = lines[(a >> 2) * 2 + (a & 1)],
	    *rc = lines[(c >> 2) * 2 + (c & 1)];
	int r;

	for (r = n - 1; r >= 0; r--) {
		uint64_t x = ra[a & 2 ? n - 1 - r : r],
		    y = rc[c & 2 ? n - 1 - r : r];

		if (x != y)
			return x < y;
	}
	return 0;
}

/* The least of the state's images under the mirrors that keep each
 * player's dominoes (left-right, up-down, both), as words compared from
 * the last: the rows are compared first and only the least image made. */
static void
db_canonical(const struct cg_context *cx, const struct cg_bit_shape *sh,
    const uint64_t *st, uint64_t *out)
{
	int rows = (int)sh->dims[0], cols = (int)sh->dims[1], r, sym, best = 0;
	uint64_t row[64], rev[64];
	const uint64_t *const lines[4] = { row, rev, NULL, NULL };

	(void)cx;
	if (cols == 8 && rows <= 8) {
		db_canonical8(st[0], rows, out);
		return;
	}
	for (r = 0; r < rows; r++) {
		row[r] = db_row(st, r, cols);
		rev[r] = db_reverse(row[r], cols);
	}
	for (sym = 1; sym < 4; sym++)
		if (db_image_less(lines, rows, sym, best))
			best = sym;
	if (best == 0) {
		memcpy(out, st, sh->words * sizeof *st);
		return;
	}
	memset(out, 0, sh->words * sizeof *out);
	for (r = 0; r < rows; r++)
		db_put_row(out, r, cols, (best & 1 ? rev : row)[best & 2 ?
		    rows - 1 - r : r]);
}

/* A square board turned about its diagonal: row r becomes column r, so
 * each player's dominoes become the other's. */
static int
db_swap(const struct cg_context *cx, const struct cg_bit_shape *sh,
    const uint64_t *st, uint64_t *out)
{
	int n = (int)sh->dims[0], r;
	uint64_t row[64], col[64];

	(void)cx;
	if (sh->dims[1] != sh->dims[0])
		return 0;
	if (n == 8) {
		out[0] = db_transpose8(st[0]);
		return 1;
	}
	db_lines(sh, st, row, col);
	memset(out, 0, sh->words * sizeof *out);
	for (r = 0; r < n; r++)
		db_put_row(out, r, n, col[r]);
	return 1;
}

/*
 * The table's key (cgx/bitsearch.h's key()): one image for a state and
 * its images under the mirrors and, on a square board, swap().  Which
 * way the board is turned follows the lead of the vertical pairs of
 * empty cells over the horizontal ones, which the mirrors keep and the
 * turn negates; only at no lead are all eight images compared.  So one
 * pass makes the key that canonical(), swap() and canonical() again
 * would make, at every position the search looks up.
 */
DOM_HOT static int
db_key(const struct cg_context *cx, const struct cg_bit_shape *sh,
    const uint64_t *st, uint64_t *out)
{
	int n = (int)sh->dims[0], r, sym, best, lo, hi, lead = 0;
	uint64_t row[64], col[64], rev[64], rcol[64], x, t, c0, c1;
	const uint64_t *lines[4] = { row, rev, col, rcol };

	if (sh->dims[1] != sh->dims[0]) {
		db_canonical(cx, sh, st, out);
		return 0;
	}
	if (n == 8) {
		x = st[0];
		t = db_transpose8(x);
		lead = dom_pop(x & x >> 8) - dom_pop(x & x >> 1 &
		    0x7f7f7f7f7f7f7f7fu);
		if (lead > 0) {
			db_canonical8(x, 8, out);
			return 0;
		}
		if (lead < 0) {
			db_canonical8(t, 8, out);
			return 1;
		}
		db_canonical8(x, 8, &c0);
		db_canonical8(t, 8, &c1);
		out[0] = c1 < c0 ? c1 : c0;
		return c1 < c0;
	}
	for (r = 0; r < n; r++) {
		row[r] = db_row(st, r, n);
		lead -= dom_pop(row[r] & row[r] >> 1);
		if (r > 0)
			lead += dom_pop(row[r] & row[r - 1]);
	}
	/* the columns only when a turned image may be the key */
	if (lead <= 0)
		db_lines(sh, st, row, col);
	for (r = 0; r < n; r++) {
		if (lead >= 0)
			rev[r] = db_reverse(row[r], n);
		if (lead <= 0)
			rcol[r] = db_reverse(col[r], n);
	}
	lo = lead < 0 ? 4 : 0;
	hi = lead > 0 ? 4 : 8;
	for (best = lo, sym = lo + 1; sym < hi; sym++)
		if (db_image_less(lines, n, sym, best))
			best = sym;
	memset(out, 0, sh->words * sizeof *out);
	for (r = 0; r < n; r++)
		db_put_row(out, r, n, lines[(best >> 2) * 2 + (best & 1)][best &
		    2 ? n - 1 - r : r]);
	return best >> 2;
}

const struct cg_bit_search dom_bit_search = {
	.struct_size = sizeof(struct cg_bit_search),
	.pack = db_pack,
	.options = db_options,
	.bounds = db_bounds,
	.unpack = db_unpack,
	.canonical = db_canonical,
	.settle = db_settle,
	.swap = db_swap,
	.children = db_children,
	.key = db_key,
};

