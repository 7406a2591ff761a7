/*
 * frozen.c - 'components frozen' on strips: squares no move can ever
 * change, and the parts of the strip they separate.
 *
 * A square is frozen when no move can ever change it.  The frozen set F
 * is the largest set such that no pattern can match (or, played later,
 * come to match) and change a square of F: squares outside F are taken to
 * hold anything their element accepts, squares of F what they hold now.
 * Start with every square in F and drop the squares some such match would
 * change, until nothing drops: by induction on the moves of any play, a
 * square left in F never changes.  (This is the argument of the compiled
 * Toads and Frogs ruleset, which finds its frozen creatures so, made
 * general: it reads nothing but the patterns.)
 *
 * Then the squares outside F that one possible match covers together are
 * one part; no possible match covers two parts, so each part plays on
 * its own, reading the frozen squares (which never change) and nothing of
 * the other parts.  A part is cut out as the stretch its possible matches
 * cover: every square in it outside F belongs to it, and (as no pattern of
 * such a file looks at the edge, which the reader checks) the stretch
 * plays as it did in place.  The position is the sum of its parts, and a
 * position of one part is represented by that part cut out, so positions
 * that differ only in frozen squares at the ends are one node.
 *
 * Patterns without repetitions are tried by a tight loop, and after the
 * first sweep only the starting squares near a square that thawed are
 * tried again; files with repetitions sweep until nothing thaws.
 */
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "match.h"

struct fz {
	const struct rules *r;
	const struct rule *ru;
	const unsigned char *cells;
	int n, dir, span;     /* span: the longest pattern without groups */
	int groups;           /* some rule repeats a group */
	unsigned char *frozen, *dirty;
	int *stack, nstack;
	int cell[MAX_MATCH], elem[MAX_MATCH], cnt;
	struct match mt;      /* patterns with groups */
	int toomany;          /* a match tried too many splits */
	int join;             /* second pass: join parts (else thaw) */
	int changed;
	int *parent, *lo, *hi;
};

static const struct rules *
rules_of(const struct cg_context *cx)
{
	return ((const struct rstate *)cx->state)->r;
}

static int
fz_find(int *parent, int k)
{
	while (parent[k] != k)
		k = parent[k] = parent[parent[k]];
	return k;
}

static int
nonempty(const struct elem *x)
{
	return (x->match.bits[0] | x->match.bits[1] | x->match.bits[2] |
	    x->match.bits[3]) != 0;
}

static int
fits(const struct fz *f, const struct elem *x, int k)
{
	if (f->frozen[k])
		return cs_has(&x->match, f->cells[k]);
	return nonempty(x);
}

static void
mark_dirty(struct fz *f, int k)
{
	int a, lo = k - f->span + 1, hi = k + f->span - 1;

	for (a = lo < 0 ? 0 : lo; a <= hi && a < f->n; a++)
		if (!f->dirty[a]) {
			f->dirty[a] = 1;
			f->stack[f->nstack++] = a;
		}
}

/* A possible match of f->ru, cells f->cell[0..cnt). */
static void
complete(struct fz *f)
{
	int j, first = -1, a, b, lo = f->n, hi = -1;

	for (j = 0; j < f->cnt; j++) {
		int k = f->cell[j], w = f->ru->e[f->elem[j]].write;

		if (k < lo)
			lo = k;
		if (k > hi)
			hi = k;
		if (!f->join) {
			if (w >= 0 && f->frozen[k] && w != f->cells[k]) {
				f->frozen[k] = 0;
				f->changed = 1;
				if (!f->groups)
					mark_dirty(f, k);
			}
			continue;
		}
		if (f->frozen[k])
			continue;
		if (first < 0) {
			first = k;
			continue;
		}
		a = fz_find(f->parent, first);
		b = fz_find(f->parent, k);
		if (a != b) {
			f->parent[b] = a;
			if (f->lo[b] < f->lo[a])
				f->lo[a] = f->lo[b];
			if (f->hi[b] > f->hi[a])
				f->hi[a] = f->hi[b];
		}
	}
	if (f->join && first >= 0) {
		a = fz_find(f->parent, first);
		if (lo < f->lo[a])
			f->lo[a] = lo;
		if (hi > f->hi[a])
			f->hi[a] = hi;
	}
}

/* A pattern without groups from square k. */
static void
fixed_at(struct fz *f, int k)
{
	const struct rule *ru = f->ru;
	int i, c, last = k + (ru->ne - 1) * f->dir;

	if (last < 0 || last >= f->n)
		return;
	for (i = 0, c = k; i < ru->ne; i++, c += f->dir)
		if (!fits(f, &ru->e[i], c))
			return;
	for (i = 0, c = k; i < ru->ne; i++, c += f->dir) {
		f->cell[i] = c;
		f->elem[i] = i;
	}
	f->cnt = ru->ne;
	complete(f);
}

/* A pattern with groups from square k. */
static void
grouped_at(struct fz *f, int k)
{
	int rc, j;

	match_start(&f->mt, f->ru, f->cells, k, f->dir, f->dir > 0 ?
	    f->n - k : k + 1, f->frozen, 0);
	while ((rc = match_next(&f->mt)) > 0) {
		for (j = 0; j < f->mt.n; j++) {
			f->cell[j] = k + j * f->dir;
			f->elem[j] = f->mt.elem[j];
		}
		f->cnt = f->mt.n;
		complete(f);
	}
	if (rc < 0)
		f->toomany = 1;
}

/* Every possible match of every rule of either player from square k. */
static void
at(struct fz *f, int k)
{
	int i, j;

	for (i = 0; i < f->r->nrule; i++) {
		f->ru = &f->r->rule[i];
		for (j = 0; j < f->ru->ndirs; j++) {
			f->dir = f->ru->dirs[j] == D_E ? 1 : -1;
			if (f->ru->ng == 0)
				fixed_at(f, k);
			else
				grouped_at(f, k);
		}
	}
}

/*
 * The same for strips of at most 64 squares whose patterns do not repeat:
 * bit k of a mask is square k.  M_i, the squares element i fits, gives
 * the starts of every possible match of a rule along e as the AND of
 * M_i >> i (along w, M_i << i); the squares it would change follow by
 * shifting back.  A part is a run of unfrozen squares, each next to the
 * following one within some possible match.
 */
static int
analyse64(struct fz *f)
{
	const struct rules *r = f->r;
	uint64_t all = f->n == 64 ? ~0ull : (1ull << f->n) - 1, frozen = all,
	    ofchar[256], starts[MAX_RULES * 2], m, a, thaw;
	int i, j, e, changed, k, u, v, L, nrd, npc = 0, c;
	unsigned char present[256], pc[64];

	memset(present, 0, sizeof present);
	for (k = 0; k < f->n; k++)
		if (!present[f->cells[k]]) {
			present[f->cells[k]] = 1;
			ofchar[f->cells[k]] = 0;
			pc[npc++] = f->cells[k];
		}
	for (k = 0; k < f->n; k++)
		ofchar[f->cells[k]] |= 1ull << k;
	if (r->nrule > MAX_RULES)
		return -1;
	do {
		changed = 0;
		nrd = 0;
		for (i = 0; i < r->nrule; i++) {
			const struct rule *ru = &r->rule[i];

			for (j = 0; j < ru->ndirs; j++) {
				int east = ru->dirs[j] == D_E;

				L = ru->ne;
				if (L > f->n) {
					starts[nrd++] = 0;
					continue;
				}
				a = east ? all >> (L - 1) :
				    (all >> (L - 1)) << (L - 1);
				for (e = 0; e < L && a; e++) {
					const struct elem *x = &ru->e[e];
					uint64_t fit = 0;

					for (c = 0; c < npc; c++)
						if (cs_has(&x->match, pc[c]))
							fit |= ofchar[pc[c]];
					fit &= frozen;
					if (nonempty(x))
						fit |= all & ~frozen;
					a &= east ? fit >> e : fit << e;
				}
				starts[nrd++] = a;
				for (e = 0; e < L && a; e++) {
					int w = ru->e[e].write;

					if (w < 0)
						continue;
					m = east ? a << e : a >> e;
					thaw = m & frozen & ~(present[w] ?
					    ofchar[w] : 0);
					if (thaw) {
						frozen &= ~thaw;
						changed = 1;
					}
				}
			}
		}
	} while (changed);
	for (k = 0; k < f->n; k++) {
		f->frozen[k] = (unsigned char)(frozen >> k & 1);
		f->parent[k] = k;
		f->lo[k] = f->n;
		f->hi[k] = -1;
	}
	/* link consecutive unfrozen squares u < v when one possible match
	 * covers both: a start s with v - L + 1 <= s <= u (along w a match
	 * starting at a covers a - L + 1 .. a) */
	for (u = 0; u < f->n; u = v) {
		for (v = u + 1; v < f->n && f->frozen[v]; v++)
			;
		if (f->frozen[u] || v >= f->n)
			continue;
		nrd = 0;
		for (i = 0; i < r->nrule; i++)
			for (j = 0; j < r->rule[i].ndirs; j++) {
				int lo;
				uint64_t st = starts[nrd++];

				L = r->rule[i].ne;
				if (r->rule[i].dirs[j] != D_E)
					st >>= L - 1;   /* leftmost squares */
				lo = v - L + 1 < 0 ? 0 : v - L + 1;
				if (lo <= u && (st >> lo) & (u - lo + 1 >= 64 ?
				    ~0ull : (1ull << (u - lo + 1)) - 1)) {
					f->parent[v] = fz_find(f->parent, u);
					i = r->nrule;
					break;
				}
			}
	}
	/* spans: every possible match with an unfrozen square */
	nrd = 0;
	for (i = 0; i < r->nrule; i++)
		for (j = 0; j < r->rule[i].ndirs; j++) {
			uint64_t st = starts[nrd++];

			L = r->rule[i].ne;
			if (r->rule[i].dirs[j] != D_E)
				st >>= L - 1;
			while (st) {
				int s0 = __builtin_ctzll(st), root = -1;

				st &= st - 1;
				for (k = s0; k < s0 + L; k++)
					if (!f->frozen[k]) {
						root = fz_find(f->parent, k);
						break;
					}
				if (root < 0)
					continue;
				if (s0 < f->lo[root])
					f->lo[root] = s0;
				if (s0 + L - 1 > f->hi[root])
					f->hi[root] = s0 + L - 1;
			}
		}
	return 0;
}

/* The frozen squares, then the parts (parent, lo, hi). */
static void
analyse(struct fz *f)
{
	int k, i;

	memset(f->frozen, 1, (size_t)f->n);
	f->span = 1;
	f->groups = 0;
	for (i = 0; i < f->r->nrule; i++) {
		if (f->r->rule[i].ng > 0)
			f->groups = 1;
		if (f->r->rule[i].ne > f->span)
			f->span = f->r->rule[i].ne;
	}
	if (!f->groups && f->n <= 64 && analyse64(f) == 0)
		return;
	f->toomany = 0;
	if (f->groups) {
		do {
			f->changed = 0;
			for (k = 0; k < f->n && !f->toomany; k++)
				at(f, k);
		} while (f->changed && !f->toomany);
	} else {
		/* every start once, then those near a square that thawed */
		memset(f->dirty, 1, (size_t)f->n);
		for (k = 0; k < f->n; k++)
			f->stack[k] = f->n - 1 - k;
		f->nstack = f->n;
		while (f->nstack > 0) {
			k = f->stack[--f->nstack];
			f->dirty[k] = 0;
			at(f, k);
		}
	}
	for (k = 0; k < f->n; k++) {
		f->parent[k] = k;
		f->lo[k] = f->n;
		f->hi[k] = -1;
	}
	f->join = 1;
	for (k = 0; k < f->n && !f->toomany; k++)
		at(f, k);
	if (!f->toomany || f->n == 0)
		return;
	/* some possible match splits the line too many ways: the strip is
	 * one part, nothing frozen (its moves, when asked for, say why
	 * they cannot be made) */
	for (k = 0; k < f->n; k++) {
		f->frozen[k] = 0;
		f->parent[k] = 0;
	}
	f->lo[0] = 0;
	f->hi[0] = f->n - 1;
}

/*
 * The parts of recent positions, per state: canonical() and decompose()
 * ask about the same positions (a node's, then its children's), so each
 * analysis is kept in a direct-mapped table of the last few thousand.
 */
#define CACHE_SLOTS 4096
#define CACHE_PARTS 24

struct slot {
	uint64_t hash;         /* 0: empty */
	uint16_t len, nparts;
	unsigned char pos[GRID_HDR + 255];
	unsigned char lo[CACHE_PARTS], hi[CACHE_PARTS];
};

void
grid_frozen_cache_free(const struct cg_host *h, void *cache)
{
	h->free(cache);
}

/* Emit the parts (lo[i]..hi[i]) of the strip pos. */
static int
emit_parts(const unsigned char *pos, const unsigned char *lo,
    const unsigned char *hi, int nparts, unsigned char *part, cg_emit_fn emit,
    void *ctx)
{
	int i, a;

	for (i = 0; i < nparts; i++) {
		a = hi[i] - lo[i] + 1;
		part[0] = 1;
		part[1] = (unsigned char)a;
		memcpy(part + GRID_HDR, pos + GRID_HDR + lo[i], (size_t)a);
		if (emit(ctx, part, GRID_HDR + (size_t)a, NULL))
			return CG_STOP;
	}
	return CG_OK;
}

int
grid_hooks_frozen_decompose(const struct cg_context *cx,
    const unsigned char *pos, size_t len, cg_emit_fn emit, void *ctx)
{
	const struct cg_host *h = cx->host;
	struct rstate *st = cx->state;
	struct slot *sl = NULL;
	unsigned char buf[GRID_HDR + 255];
	uint64_t hv = rules_hash(pos, len, 0) | 1;   /* 0: empty */
	struct fz fz, *f = &fz;
	int parent[255], lo[255], hi[255], stack[255];
	unsigned char frozen[255], dirty[255], part[GRID_HDR + 255];
	int rows, cols, rc, k, a;

	(void)h;
	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	if (st->fzcache == NULL) {
		st->fzcache = h->alloc(CACHE_SLOTS * sizeof(struct slot));
		if (st->fzcache != NULL)
			memset(st->fzcache, 0, CACHE_SLOTS *
			    sizeof(struct slot));
	}
	if (st->fzcache != NULL) {
		sl = (struct slot *)st->fzcache + (hv >> 20) % CACHE_SLOTS;
		if (sl->hash == hv && sl->len == len &&
		    memcmp(sl->pos, pos, len) == 0)
			return emit_parts(pos, sl->lo, sl->hi, sl->nparts, buf,
			    emit, ctx);
	}
	/* (the match arrays are written before they are read) */
	f->r = rules_of(cx);
	f->ru = NULL;
	f->cells = pos + GRID_HDR;
	f->n = cols;
	f->cnt = f->join = f->changed = f->nstack = 0;
	f->parent = parent;
	f->lo = lo;
	f->hi = hi;
	f->stack = stack;
	f->frozen = frozen;
	f->dirty = dirty;
	analyse(f);
	if (sl != NULL) {
		sl->hash = hv;
		sl->len = (uint16_t)len;
		sl->nparts = 0;
		memcpy(sl->pos, pos, len);
	}
	rc = CG_OK;
	for (k = 0; k < cols && rc == CG_OK; k++) {
		if (f->frozen[k] || fz_find(f->parent, k) != k ||
		    f->hi[k] < f->lo[k])
			continue;
		if (sl != NULL) {
			if (sl->nparts == CACHE_PARTS) {
				sl->hash = 0;   /* too many to keep */
				sl = NULL;
			} else {
				sl->lo[sl->nparts] = (unsigned char)f->lo[k];
				sl->hi[sl->nparts++] = (unsigned char)f->hi[k];
			}
		}
		a = f->hi[k] - f->lo[k] + 1;
		part[0] = 1;
		part[1] = (unsigned char)a;
		memcpy(part + GRID_HDR, f->cells + f->lo[k], (size_t)a);
		if (emit(ctx, part, GRID_HDR + (size_t)a, NULL))
			rc = CG_STOP;
	}
	if (rc == CG_STOP && sl != NULL)
		sl->hash = 0;   /* the parts were not all seen */
	return rc;
}

struct one_part {
	const struct cg_context *cx;
	struct cg_buf *out;
	size_t start;
	int n;
};

static int
keep_part(void *arg, const unsigned char *pos, size_t len, const char *move)
{
	struct one_part *o = arg;

	(void)move;
	if (o->n++ > 0)
		return 1;   /* two parts: stop */
	o->out->len = o->start;
	return o->cx->host->buf_put(o->out, pos, len) < 0;
}

/* A position of one part is represented by the part cut out (the frozen
 * squares at its ends go), others by themselves; then the smaller of it
 * and its mirror image with 'symmetry mirror'.  (The part cut out has the
 * frozen squares it had in place, so this is idempotent.) */
int
grid_hooks_frozen_canonical(const struct cg_context *cx,
    const unsigned char *pos, size_t len, struct cg_buf *out)
{
	const struct rules *r = rules_of(cx);
	struct one_part o = { cx, out, out->len, 0 };
	unsigned char *b, *copy;
	int rc = grid_hooks_frozen_decompose(cx, pos, len, keep_part, &o), k;

	if (rc < 0)
		return rc;
	if (rc == CG_STOP && o.n <= 1)
		return CG_ENOMEM;   /* keep_part could not append */
	if (o.n != 1) {
		out->len = o.start;
		if (cx->host->buf_put(out, pos, len) < 0)
			return CG_ENOMEM;
	}
	if (r->nsym <= 1)
		return CG_OK;
	b = out->data + o.start;
	if ((k = grid_sym_best(b, r->nsym)) == 0)
		return CG_OK;
	copy = cx->host->alloc(out->len - o.start);
	if (copy == NULL)
		return CG_ENOMEM;
	memcpy(copy, b, out->len - o.start);
	grid_sym_write(copy, k, b);
	cx->host->free(copy);
	return CG_OK;
}
