/*
 * rank.c - the cg.rank extension of Domineering (cg/rank.h): the index
 * of family "N", every polyomino of 2..N cells, numbered by arithmetic.
 *
 * A polyomino spanning an R x C box has R + C - 1 cells at least, so the
 * boxes of family N are those with R + C - 1 <= N (except 1 x 1), taken
 * R = 1 .. N, then C = 1 .. N + 1 - R; each owns the slots after those
 * of the boxes before it.
 *
 * Inside a box the cells are read as lines across its shorter side: the
 * columns of a box wider than high (each a line of w = R cells, from
 * the top), else the rows (w = C cells, from the left); L lines in all,
 * the first column or the top row first.  A line is a mask of w bits,
 * bit j its j-th cell, set when the cell is empty ('.').  A polyomino's
 * lines are never empty, two neighbouring lines share a cell (a path
 * from one side of the cut between them to the other crosses it there),
 * and it has at most N cells: the index counts every sequence of L masks
 * with these three properties, in lexicographic order (the first line
 * first, a line as the number its mask is), and a board's slot is the
 * number of such sequences before its own.
 *
 * Counting them: G[l][k][b] is the number of ways to go on with l more
 * lines, the first sharing a cell with a line of k cells, all of them
 * holding b cells at most.  For a set bit i of the line being ranked,
 * with q set bits above it, the masks that agree with it above bit i,
 * lack bit i and are free below hold q + t cells; with l lines after
 * this one and b cells left for this line and those, H[l][i][q][b] =
 * sum over t of C(i, t) G[l][q + t][b - q - t] counts them with their
 * continuations, and H[l][i - e][q][b] those among them that miss the
 * line before, when the bits above i miss it already (e of the i free
 * bits being cells of the line before).  So a line costs one or two
 * table reads per empty cell, and the tables depend on w, l <= N - w,
 * i, q <= w and b <= N alone (230 kilobytes for N = 14, 1.7 megabytes
 * for N = 22), made once per thread and family.  unrank() walks the
 * same counts down, bit by bit from the highest of each line.
 *
 * The index is sparse (most sequences are not one region) but its
 * members cluster: see domineering(7) for its density.  Past
 * DOM_RANK_MAX the number of slots no longer fits in 64 bits, and the
 * family has no index.
 */
#include <stdlib.h>
#include <string.h>

#include "cg/rank.h"
#include "dom.h"

/* The largest N whose index has fewer than 2^64 slots (about 2.5e18). */
#define DOM_RANK_MAX 22
/* Lines are at most this wide: w <= (N + 1) / 2; boxes at most this
 * large: R + C <= N + 1. */
#define DOM_RANK_W ((DOM_RANK_MAX + 1) / 2)
#define DOM_RANK_CELLS (DOM_RANK_W * (DOM_RANK_MAX + 1 - DOM_RANK_W))

struct dom_rank {
	uint64_t key;               /* grid_rank_get(): N */
	int n;
	uint64_t slots;
	/* the first slot of box R x C */
	uint64_t off[DOM_RANK_MAX + 1][DOM_RANK_MAX + 1];
	/* where the table H of lines w wide starts in h */
	size_t at[DOM_RANK_W + 1];
	uint64_t h[];
};

/* The entries H[l][.][.][b] of lines w wide, a (w + 1) x (w + 1) block
 * of i and q (those a line reads lie close together). */
static inline const uint64_t *
dr_hlb(const struct dom_rank *t, int w, int l, int b)
{
	return t->h + t->at[w] + ((size_t)l * (t->n + 1) + (size_t)b) *
	    (size_t)(w + 1) * (size_t)(w + 1);
}

/* H[l][i][q][b] of lines w wide. */
static inline uint64_t
dr_h(const struct dom_rank *t, int w, int l, int i, int q, int b)
{
	return dr_hlb(t, w, l, b)[i * (w + 1) + q];
}

static uint64_t
dr_binom(int n, int k)
{
	uint64_t c = 1;
	int j;

	if (k < 0 || k > n)
		return 0;
	for (j = 1; j <= k; j++)
		c = c * (uint64_t)(n - k + j) / (uint64_t)j;
	return c;
}

/* Fill the table of lines w wide; -1 when a count overflows. */
static int
dr_fill(struct dom_rank *t, int w)
{
	int N = t->n, l, k, b, j, i, q, u;
	uint64_t g[DOM_RANK_W + 1][DOM_RANK_MAX + 1], v, c;
	uint64_t *h;

	for (l = 0; l <= N - w; l++) {
		/* g = G[l] */
		for (k = 0; k <= w; k++)
			for (b = 0; b <= N; b++) {
				if (k == 0)
					v = 0;
				else if (l == 0)
					v = 1;
				else
					for (v = 0, j = 1; j <= w && j <= b;
					    j++) {
						c = dr_binom(w, j) -
						    dr_binom(w - k, j);
						if (__builtin_mul_overflow(c,
						    dr_h(t, w, l - 1, 0, j, b),
						    &c) ||
						    __builtin_add_overflow(v, c,
						    &v))
							return -1;
					}
				g[k][b] = v;
			}
		/* H[l] from G[l]; H[l][0][q][b] is G[l][q][b - q] */
		for (i = 0; i <= w; i++)
			for (q = 0; q <= w; q++)
				for (b = 0; b <= N; b++) {
					for (v = 0, u = 0; u <= i &&
					    q + u <= w && q + u <= b; u++)
						if (__builtin_mul_overflow(
						    dr_binom(i, u),
						    g[q + u][b - q - u], &c) ||
						    __builtin_add_overflow(v, c,
						    &v))
							return -1;
					h = (uint64_t *)dr_hlb(t, w, l, b);
					h[i * (w + 1) + q] = v;
				}
	}
	return 0;
}

/* Lines w wide in a box of R x C. */
static inline int
dr_width(int R, int C)
{
	return R < C ? R : C;
}

/* The tables of family: those kept in the state, else made (and kept;
 * without a state, made for the call: *scratch is what to free after
 * it).  NULL with *rc set on an error or for a family without index. */
static const struct dom_rank *
dr_tables(const struct cg_context *cx, const char *family, void **scratch,
    int *rc)
{
	struct dom_rank *t;
	int N, w, R, C;
	size_t cells = 0;
	uint64_t at = 0, size;

	*scratch = NULL;
	if (grid_family_size(family, GRID_POLY_MAX, &N) < 0) {
		*rc = cx->host->error(cx->err, 0,
		    "bad family '%s' (expected a region size N, 1..%d)",
		    family ? family : "", GRID_POLY_MAX);
		return NULL;
	}
	if (N > DOM_RANK_MAX) {
		cx->host->error(cx->err, 0, "family %d has no index (its slots "
		    "would not fit in 64 bits, N <= %d)", N, DOM_RANK_MAX);
		*rc = CG_EUNSUPPORTED;
		return NULL;
	}
	if ((t = grid_rank_get(cx, (uint64_t)N)) != NULL)
		return t;
	for (w = 1; 2 * w - 1 <= N; w++)
		cells += (size_t)(N - w + 1) * (w + 1) * (w + 1) * (N + 1);
	t = cx->host->alloc(sizeof *t + cells * sizeof t->h[0]);
	if (t == NULL) {
		*rc = CG_ENOMEM;
		return NULL;
	}
	memset(t, 0, sizeof *t);
	t->key = (uint64_t)N;
	t->n = N;
	for (cells = 0, w = 1; 2 * w - 1 <= N; w++) {
		t->at[w] = cells;
		cells += (size_t)(N - w + 1) * (w + 1) * (w + 1) * (N + 1);
		if (dr_fill(t, w) < 0)
			goto overflow;
	}
	for (R = 1; R <= N; R++)
		for (C = 1; R + C - 1 <= N; C++) {
			if (R * C < 2)
				continue;
			w = dr_width(R, C);
			/* every first line with its continuations */
			size = dr_h(t, w, R + C - w - 1, w, 0, N);
			t->off[R][C] = at;
			if (__builtin_add_overflow(at, size, &at))
				goto overflow;
		}
	t->slots = at;
	if (grid_rank_put(cx, t) < 0)
		*scratch = t;
	return t;
overflow:
	cx->host->free(t);
	*rc = CG_EUNSUPPORTED;
	return NULL;
}

static int
dom_slots(const struct cg_context *cx, const char *family, uint64_t *n)
{
	const struct dom_rank *t;
	void *scratch;
	int rc;

	if ((t = dr_tables(cx, family, &scratch, &rc)) == NULL)
		return rc;
	*n = t->slots;
	grid_rank_done(cx, scratch);
	return CG_OK;
}

/* The lines of a board R x C of a family (R * C <= DOM_RANK_CELLS), or
 * -1 for a byte that is neither '.' nor '#'.  The cells are read 8 at a
 * time into a bit board, bit r * C + c for cell (r, c). */
static inline int
dr_lines(const unsigned char *cells, int R, int C, uint64_t *line)
{
	uint64_t bits[(DOM_RANK_CELLS + 63) / 64 + 1] = { 0 }, v, dot, row, x;
	int n = R * C, s, k, i, r;

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
		if ((dot | grid_bytes_eq8(v, '#')) != ((uint64_t)1 << k) - 1)
			return -1;
		/* s is a multiple of 8: the byte lies in one word */
		bits[s >> 6] |= dot << (s & 63);
	}
	if (R < C)
		memset(line, 0, (size_t)C * sizeof *line);
	for (r = 0, s = 0; r < R; r++, s += C) {
		row = bits[s >> 6] >> (s & 63);
		if ((s & 63) + C > 64)
			row |= bits[(s >> 6) + 1] << (64 - (s & 63));
		row &= ((uint64_t)1 << C) - 1;
		if (R >= C)
			line[r] = row;
		else
			for (x = row; x != 0; x &= x - 1)
				line[__builtin_ctzll(x)] |= (uint64_t)1 << r;
	}
	return 0;
}

static int
dr_rank(const struct dom_rank *t, const unsigned char *pos, size_t len,
    uint64_t *r)
{
	const uint64_t *hl;
	uint64_t line[DOM_RANK_MAX], at, prev, rest, v;
	int R, C, w, L, k, i, q, b, z;

	if (len < GRID_HDR)
		return CG_EUNSUPPORTED;
	R = pos[0];
	C = pos[1];
	if (R == 0 || C == 0 || R + C - 1 > t->n || R * C < 2 ||
	    len != GRID_HDR + (size_t)R * C ||
	    dr_lines(pos + GRID_HDR, R, C, line) < 0)
		return CG_EUNSUPPORTED;
	w = dr_width(R, C);
	L = R + C - w;
	at = t->off[R][C];
	b = t->n;
	prev = ((uint64_t)1 << w) - 1;  /* the first line meets it if not empty */
	for (k = 0; k < L; k++) {
		if ((line[k] & prev) == 0)
			return CG_EUNSUPPORTED;
		hl = dr_hlb(t, w, L - 1 - k, b);
		/* the set bits from the highest; z: the bits above i meet
		 * prev */
		for (rest = line[k], q = 0, z = 0; rest != 0; q++) {
			i = 63 - __builtin_clzll(rest);
			rest &= ~((uint64_t)1 << i);
			v = hl[i * (w + 1) + q];
			if (!z) {
				v -= hl[(i - grid_pop(prev & (((uint64_t)1 <<
				    i) - 1))) * (w + 1) + q];
				z = (int)(prev >> i & 1);
			}
			at += v;
		}
		if (q > b)
			return CG_EUNSUPPORTED;
		b -= q;
		prev = line[k];
	}
	*r = at;
	return CG_OK;
}

static int
dom_rank_pos(const struct cg_context *cx, const char *family,
    const unsigned char *pos, size_t len, uint64_t *r)
{
	const struct dom_rank *t;
	void *scratch;
	int rc;

	if ((t = dr_tables(cx, family, &scratch, &rc)) == NULL)
		return rc;
	rc = dr_rank(t, pos, len, r);
	grid_rank_done(cx, scratch);
	return rc;
}

static int
dr_unrank(const struct cg_context *cx, const struct dom_rank *t,
    uint64_t r, struct cg_buf *out)
{
	unsigned char board[GRID_HDR + DOM_RANK_CELLS], *cells = board +
	    GRID_HDR;
	int R, C = 0, w, L, l, i, q, b, z, j, k;
	uint64_t prev, line, c0;
	size_t sl, sc;

	if (r >= t->slots)
		return CG_EUNSUPPORTED;
	/* the last box starting at r or before */
	for (R = t->n; R >= 1; R--) {
		for (C = t->n + 1 - R; C >= 1; C--)
			if (R * C >= 2 && t->off[R][C] <= r)
				break;
		if (C >= 1)
			break;
	}
	r -= t->off[R][C];
	board[0] = (unsigned char)R;
	board[1] = (unsigned char)C;
	memset(cells, '#', (size_t)R * C);
	w = dr_width(R, C);
	L = R + C - w;
	/* cell j of line k is cells[k * sl + j * sc] */
	sl = R < C ? 1 : (size_t)C;
	sc = R < C ? (size_t)C : 1;
	b = t->n;
	prev = ((uint64_t)1 << w) - 1;
	for (k = 0; k < L; k++) {
		l = L - 1 - k;
		line = 0;
		q = 0;
		z = 0;
		/* from the highest bit: the lines without it come first */
		for (i = w - 1; i >= 0; i--) {
			c0 = dr_h(t, w, l, i, q, b);
			if (!z)
				c0 -= dr_h(t, w, l, i - grid_pop(prev &
				    (((uint64_t)1 << i) - 1)), q, b);
			if (r < c0)
				continue;
			r -= c0;
			line |= (uint64_t)1 << i;
			q++;
			z |= (int)(prev >> i & 1);
		}
		for (j = 0; j < w; j++)
			if (line >> j & 1)
				cells[k * sl + j * sc] = '.';
		b -= q;
		prev = line;
	}
	return cx->host->buf_put(out, board, GRID_HDR + (size_t)R * C);
}

static int
dom_unrank(const struct cg_context *cx, const char *family, uint64_t r,
    struct cg_buf *out)
{
	const struct dom_rank *t;
	void *scratch;
	int rc;

	if ((t = dr_tables(cx, family, &scratch, &rc)) == NULL)
		return rc;
	rc = dr_unrank(cx, t, r, out);
	grid_rank_done(cx, scratch);
	return rc;
}

const struct cg_rank dom_rank = {
	.struct_size = sizeof(struct cg_rank),
	.slots = dom_slots,
	.rank = dom_rank_pos,
	.unrank = dom_unrank,
};
