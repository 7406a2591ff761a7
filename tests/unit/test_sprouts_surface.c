/* test_sprouts_surface.c - Sprouts on compact surfaces, checked against
 * an independent brute force.
 *
 * The brute force below shares no code and no representation with
 * plugins/sprouts.c.  It keeps the drawing itself: numbered spots with
 * their degrees, and faces (regions), each a closed surface with holes
 * given by its Euler characteristic and orientability, whose holes are
 * the boundary walks: cyclic lists of spot numbers, one entry per corner
 * of the spot on that side.  There is no letter naming, no reduction of
 * small regions, no canonical form and no splitting into lands.
 *
 * A move draws a curve between two corners of one face, with a new spot
 * on it.  Between two walks it merges them into one walk (on a face
 * without orientation the second walk may be met either way round).
 * From a walk to itself it cuts the walk in two pieces P1, P2; then the
 * surface is cut along the closed curve, and which surfaces can result
 * follows from the classification of surfaces alone (never from a list
 * of move types): cutting raises the Euler characteristic of the closed
 * surfaces by 2 for a two-sided curve, by 1 for a one-sided one
 * (cross-caps only, the pieces then join into one walk), and
 *   - a separating curve gives two faces S1, S2 with chi1 + chi2 =
 *     chi + 2, S non-orientable exactly when S1 or S2 is;
 *   - a non-separating two-sided curve gives one face S' with chi + 2,
 *     orientable if S is; when S is not and S' is, the two pieces face
 *     opposite ways;
 *   - a one-sided curve gives one face S' with chi + 1.
 * A face that is orientable while its parent was not reads every walk
 * other than the new one either way round.  Every such surface is
 * drawn: the game's value is computed by plain mex over all drawings.
 *
 * Every position met is also written in Glop's notation, parsed by the
 * plugin and valued by plain mex over the plugin's options: the two nim
 * values must agree, for every position reachable from k spots on the
 * plane, the torus, the double torus, the projective plane, the Klein
 * bottle and three cross-caps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/plugin.h"
#include "tap.h"

#define MAXV 32         /* spots */
#define MAXC 40         /* corners in a walk */
#define MAXW 12         /* walks of a face */
#define MAXF 12         /* faces */

struct walk {
	int n;
	unsigned char v[MAXC];
};

struct face {
	int chi;        /* Euler characteristic of the closed surface */
	int orientable;
	int nw;
	struct walk w[MAXW];
};

struct drawing {
	int nv;
	unsigned char deg[MAXV];
	int nf;
	struct face f[MAXF];
};

static int overflow;    /* a capacity above was too small */

static int
lives(const struct drawing *d, int v)
{
	return 3 - d->deg[v];
}

/* Spots with no life can never end a curve; walks and faces without a
 * live corner can never hold one: leave them out (keeps memo keys
 * short; the order of the live corners is unchanged). */
static void
tidy(struct drawing *d)
{
	int f, w, k, n, nf = 0;

	for (f = 0; f < d->nf; f++) {
		struct face *fc = &d->f[f];
		int nw = 0;

		for (w = 0; w < fc->nw; w++) {
			struct walk *wk = &fc->w[w];

			for (k = 0, n = 0; k < wk->n; k++)
				if (lives(d, wk->v[k]) > 0)
					wk->v[n++] = wk->v[k];
			wk->n = n;
			if (n > 0)
				fc->w[nw++] = *wk;
		}
		fc->nw = nw;
		if (nw > 0)
			d->f[nf++] = *fc;
	}
	d->nf = nf;
}

/* ---- memo: key text -> nim value ---------------------------------- */

struct memo {
	char **key;
	int *val;
	size_t cap, n;
};

static unsigned long
strhash(const char *s)
{
	unsigned long h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static int *
memo_slot(struct memo *m, const char *key, int add)
{
	size_t i;

	if (add && 2 * (m->n + 1) > m->cap) {
		struct memo nm;

		nm.cap = m->cap ? 2 * m->cap : 1024;
		nm.n = 0;
		nm.key = calloc(nm.cap, sizeof *nm.key);
		nm.val = calloc(nm.cap, sizeof *nm.val);
		for (i = 0; i < m->cap; i++)
			if (m->key[i] != NULL) {
				size_t j = strhash(m->key[i]) & (nm.cap - 1);

				while (nm.key[j] != NULL)
					j = (j + 1) & (nm.cap - 1);
				nm.key[j] = m->key[i];
				nm.val[j] = m->val[i];
				nm.n++;
			}
		free(m->key);
		free(m->val);
		*m = nm;
	}
	if (m->cap == 0)
		return NULL;
	for (i = strhash(key) & (m->cap - 1); m->key[i] != NULL;
	    i = (i + 1) & (m->cap - 1))
		if (strcmp(m->key[i], key) == 0)
			return &m->val[i];
	if (!add)
		return NULL;
	m->key[i] = strdup(key);
	m->n++;
	return &m->val[i];
}

static void
memo_free(struct memo *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->key[i]);
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof *m);
}

/* spots renumbered in order of appearance: equal keys, equal drawings */
static void
drawing_key(const struct drawing *d, char *out, size_t size)
{
	int map[MAXV], next = 0, f, w, k;
	size_t o = 0;

	memset(map, -1, sizeof map);
	for (f = 0; f < d->nf; f++) {
		const struct face *fc = &d->f[f];

		o += (size_t)snprintf(out + o, size - o, "F%c%d",
		    fc->orientable ? 'o' : 'n', fc->chi);
		for (w = 0; w < fc->nw; w++) {
			out[o++] = '(';
			for (k = 0; k < fc->w[w].n; k++) {
				int v = fc->w[w].v[k];

				if (map[v] < 0)
					map[v] = next++;
				o += (size_t)snprintf(out + o, size - o,
				    "%d.%d,", map[v], d->deg[v]);
			}
			out[o++] = ')';
		}
	}
	out[o] = '\0';
}

/* ---- moves --------------------------------------------------------- */

typedef void (*visit_fn)(const struct drawing *, void *);

static void
walk_add(struct walk *w, int v)
{
	if (w->n >= MAXC) {
		overflow = 1;
		return;
	}
	w->v[w->n++] = (unsigned char)v;
}

/* The walk of a corner joined by a new curve, from the corner round the
 * walk and back to it: "u rest u", or "u" for an unused spot. */
static void
corner_walk(const struct drawing *d, const struct walk *w, int at,
    int backwards, struct walk *out)
{
	int u = w->v[at], k;

	walk_add(out, u);
	if (d->deg[u] == 0)
		return;
	for (k = 1; k < w->n; k++)
		walk_add(out, w->v[(at + (backwards ? w->n - k : k)) % w->n]);
	walk_add(out, u);
}

static void
walk_reverse(struct walk *w)
{
	int i;

	for (i = 0; i < w->n / 2; i++) {
		unsigned char t = w->v[i];

		w->v[i] = w->v[w->n - 1 - i];
		w->v[w->n - 1 - i] = t;
	}
}

static int
new_spot(struct drawing *d)
{
	if (d->nv >= MAXV) {
		overflow = 1;
		return 0;
	}
	d->deg[d->nv] = 2;
	return d->nv++;
}

static void
emit(struct drawing *d, visit_fn fn, void *ctx)
{
	tidy(d);
	fn(d, ctx);
}

/* Curves between two different walks a, b of face f. */
static void
join_walks(const struct drawing *d, int f, int a, int b, visit_fn fn,
    void *ctx)
{
	const struct face *fc = &d->f[f];
	int i, j, back;

	for (i = 0; i < fc->w[a].n; i++)
		for (j = 0; j < fc->w[b].n; j++) {
			int u = fc->w[a].v[i], v = fc->w[b].v[j];

			if (u == v || lives(d, u) < 1 || lives(d, v) < 1)
				continue;
			for (back = 0; back <= !fc->orientable; back++) {
				struct drawing c = *d;
				struct face *cf = &c.f[f];
				struct walk m = { 0 }, t = { 0 };
				int x = new_spot(&c), k, nw = 0;

				corner_walk(d, &fc->w[a], i, 0, &m);
				walk_add(&m, x);
				corner_walk(d, &fc->w[b], j, back, &t);
				for (k = 0; k < t.n; k++)
					walk_add(&m, t.v[k]);
				walk_add(&m, x);
				c.deg[u]++;
				c.deg[v]++;
				for (k = 0; k < fc->nw; k++)
					if (k != a && k != b)
						cf->w[nw++] = fc->w[k];
				cf->w[nw++] = m;
				cf->nw = nw;
				emit(&c, fn, ctx);
			}
		}
}

/* chi of some closed surface of that orientability? */
static int
surface_exists(int chi, int orientable)
{
	return orientable ? chi <= 2 && chi % 2 == 0 : chi <= 1;
}

/* Put the walks of the face's others[] whose bit is in set into face
 * cf after its first walk; those in rev read backwards. */
static void
add_walks(struct face *cf, const struct walk *others, int n,
    unsigned set, unsigned rev)
{
	int k;

	for (k = 0; k < n; k++) {
		if (!(set >> k & 1))
			continue;
		if (cf->nw >= MAXW) {
			overflow = 1;
			return;
		}
		cf->w[cf->nw] = others[k];
		if (rev >> k & 1)
			walk_reverse(&cf->w[cf->nw]);
		cf->nw++;
	}
}

/* All faces made of the pieces (first walks) and the other walks, given
 * the surfaces; free orientations where a face lost its cross-caps. */
static void
separating(const struct drawing *c, int f, const struct walk *p1,
    const struct walk *p2, const struct walk *others, int n, visit_fn fn,
    void *ctx)
{
	const struct face *fc = &c->f[f];
	unsigned set, r1, r2, full = (1u << n) - 1;
	int chi1, o1, o2;

	for (chi1 = fc->chi; chi1 <= 2; chi1++)
		for (o1 = 0; o1 <= 1; o1++)
			for (o2 = 0; o2 <= 1; o2++) {
				int chi2 = fc->chi + 2 - chi1;

				if (!surface_exists(chi1, o1) ||
				    !surface_exists(chi2, o2) ||
				    (o1 && o2) != fc->orientable)
					continue;
				for (set = 0; set <= full; set++)
					for (r1 = 0; r1 <= full; r1++)
						for (r2 = 0; r2 <= full; r2++) {
							struct drawing d = *c;
							struct face *a = &d.f[f], *b;

							/* orientations only where
							 * the parent had none */
							if ((r1 & ~set) || (r2 & set) ||
							    ((fc->orientable || !o1) && r1) ||
							    ((fc->orientable || !o2) && r2))
								continue;
							if (d.nf >= MAXF) {
								overflow = 1;
								return;
							}
							b = &d.f[d.nf++];
							a->chi = chi1;
							a->orientable = o1;
							a->nw = 1;
							a->w[0] = *p1;
							add_walks(a, others, n, set, r1);
							b->chi = chi2;
							b->orientable = o2;
							b->nw = 1;
							b->w[0] = *p2;
							add_walks(b, others, n, full ^ set,
							    r2);
							emit(&d, fn, ctx);
						}
			}
}

static void
one_face(const struct drawing *c, int f, const struct walk *first,
    const struct walk *second, const struct walk *others, int n, int chi,
    int orientable, visit_fn fn, void *ctx)
{
	const struct face *fc = &c->f[f];
	unsigned rev, full = (1u << n) - 1;

	for (rev = 0; rev <= full; rev++) {
		struct drawing d = *c;
		struct face *a = &d.f[f];

		if (rev && (fc->orientable || !orientable))
			break;
		a->chi = chi;
		a->orientable = orientable;
		a->nw = 1;
		a->w[0] = *first;
		if (second != NULL)
			a->w[a->nw++] = *second;
		add_walks(a, others, n, full, rev);
		emit(&d, fn, ctx);
	}
}

/* Curves from walk a of face f to itself, between corners i <= j. */
static void
split_walk(const struct drawing *d, int f, int a, visit_fn fn, void *ctx)
{
	const struct face *fc = &d->f[f];
	const struct walk *w = &fc->w[a];
	struct walk others[MAXW];
	int i, j, k, n = 0;

	for (k = 0; k < fc->nw; k++)
		if (k != a)
			others[n++] = fc->w[k];
	for (i = 0; i < w->n; i++)
		for (j = i; j < w->n; j++) {
			int u = w->v[i], v = w->v[j], o;
			struct drawing c = *d;
			struct walk p1 = { 0 }, p2 = { 0 }, one = { 0 }, p2r;
			int x;

			if (i == j ? lives(d, u) < 2 : u == v ||
			    lives(d, u) < 1 || lives(d, v) < 1)
				continue;
			x = new_spot(&c);
			c.deg[u]++;
			c.deg[v]++;
			/* P1 = u .. v x, inside the curve */
			for (k = i; k < j; k++)
				walk_add(&p1, w->v[k]);
			walk_add(&p1, v);
			walk_add(&p1, x);
			/* P2 = v .. u x, outside (an unused spot: u x) */
			if (d->deg[u] == 0)
				walk_add(&p2, u);
			else {
				for (k = j; k < w->n; k++)
					walk_add(&p2, w->v[k]);
				for (k = 0; k <= i; k++)
					walk_add(&p2, w->v[k]);
			}
			walk_add(&p2, x);
			/* one-sided: both pieces, the inner one backwards */
			for (k = 0; k < p2.n; k++)
				walk_add(&one, p2.v[k]);
			for (k = p1.n - 2; k >= 0; k--)
				walk_add(&one, p1.v[k]);
			walk_add(&one, x);

			separating(&c, f, &p1, &p2, others, n, fn, ctx);
			for (o = 0; o <= 1; o++) {
				if (!surface_exists(fc->chi + 2, o) ||
				    (fc->orientable && !o))
					continue;
				p2r = p2;
				if (!fc->orientable && o)
					walk_reverse(&p2r);
				one_face(&c, f, &p1, &p2r, others, n, fc->chi + 2,
				    o, fn, ctx);
			}
			if (fc->orientable)
				continue;
			for (o = 0; o <= 1; o++)
				if (surface_exists(fc->chi + 1, o))
					one_face(&c, f, &one, NULL, others, n,
					    fc->chi + 1, o, fn, ctx);
		}
}

static void
moves(const struct drawing *d, visit_fn fn, void *ctx)
{
	int f, a, b;

	for (f = 0; f < d->nf; f++)
		for (a = 0; a < d->f[f].nw; a++) {
			split_walk(d, f, a, fn, ctx);
			for (b = a + 1; b < d->f[f].nw; b++)
				join_walks(d, f, a, b, fn, ctx);
		}
}

/* ---- Glop's notation of a drawing ---------------------------------- */

/* Spots met twice: a lower-case letter in one walk, a two-boundary
 * letter in two walks of one face, an upper-case letter in two faces. */
static void
glop_text(const struct drawing *d, char *out, size_t size)
{
	int where_f[MAXV], name[MAXV], f, w, k;
	int nup = 0;
	size_t o = 0;

	memset(where_f, -1, sizeof where_f);
	memset(name, 0, sizeof name);
	for (f = 0; f < d->nf; f++)
		for (w = 0; w < d->f[f].nw; w++)
			for (k = 0; k < d->f[f].w[w].n; k++) {
				int v = d->f[f].w[w].v[k];

				if (where_f[v] < 0)
					where_f[v] = f;
				else if (where_f[v] != f)
					name[v] = 'A' + nup++;
			}
	if (d->nf == 0) {
		snprintf(out, size, "!");
		return;
	}
	for (f = 0; f < d->nf; f++) {
		const struct face *fc = &d->f[f];
		int nlow2 = 0;

		if (f > 0)
			out[o++] = '|';
		for (w = 0; w < fc->nw; w++) {
			int nlow = 0;

			if (w > 0)
				out[o++] = '.';
			for (k = 0; k < fc->w[w].n; k++) {
				int v = fc->w[w].v[k], j, c;

				if (d->deg[v] < 2) {
					out[o++] = (char)('0' + d->deg[v]);
					continue;
				}
				if (name[v] >= 'A') {
					out[o++] = (char)name[v];
					continue;
				}
				/* first time in this face: name it */
				if (name[v] == 0) {
					int same = 0;

					for (j = 0; j < fc->w[w].n; j++)
						same += fc->w[w].v[j] == v;
					name[v] = same == 2 ? 'a' + nlow++ :
					    'z' - nlow2++;
				}
				c = name[v];
				out[o++] = (char)c;
			}
			/* lower-case names are per walk */
			for (k = 0; k < fc->w[w].n; k++) {
				int v = fc->w[w].v[k];

				if (name[v] >= 'a' && name[v] <= 'l')
					name[v] = -1;
			}
			for (k = 0; k < fc->w[w].n; k++) {
				int v = fc->w[w].v[k];

				if (name[v] == -1)
					name[v] = 0;
			}
		}
		if (fc->chi != 2)
			o += (size_t)snprintf(out + o, size - o, "@%d",
			    fc->orientable ? (2 - fc->chi) / 2 :
			    -(2 - fc->chi));
		/* two-boundary names are per face */
		for (w = 0; w < fc->nw; w++)
			for (k = 0; k < fc->w[w].n; k++) {
				int v = fc->w[w].v[k];

				if (name[v] >= 'o' && name[v] <= 'z')
					name[v] = 0;
			}
	}
	out[o] = '\0';
}

/* ---- the two nim values ---------------------------------------------- */

static struct cg_plugin *rs;
static struct memo bmemo, pmemo;
static int checked, disagree;

struct pctx {
	unsigned long seen;
	int err;
};

static int plugin_value(const unsigned char *pos, size_t len);

static int
plugin_child(void *ctx, const unsigned char *pos, size_t len, const char *m)
{
	struct pctx *p = ctx;
	int v = plugin_value(pos, len);

	(void)m;
	if (v < 0 || v > 63)
		p->err = 1;
	else
		p->seen |= 1ul << v;
	return 0;
}

static int
plugin_value(const unsigned char *pos, size_t len)
{
	char *key = malloc(2 * len + 2);
	struct pctx p = { 0, 0 };
	size_t i;
	int *slot, v;

	for (i = 0; i < len; i++)
		sprintf(key + 2 * i, "%02x", pos[i]);
	key[2 * len] = 'k';
	key[2 * len + 1] = '\0';
	if ((slot = memo_slot(&pmemo, key, 0)) != NULL) {
		free(key);
		return *slot;
	}
	if (cg_rs_options(rs, pos, len, CG_LEFT, plugin_child, &p) < 0 ||
	    p.err) {
		free(key);
		return -1;
	}
	for (v = 0; p.seen >> v & 1; v++)
		;
	*memo_slot(&pmemo, key, 1) = v;
	free(key);
	return v;
}

static int brute_value(const struct drawing *d);

static void
brute_child(const struct drawing *d, void *ctx)
{
	unsigned long *seen = ctx;
	int v = brute_value(d);

	if (v >= 0 && v < 64)
		*seen |= 1ul << v;
}

static int
brute_value(const struct drawing *d)
{
	char key[4096], text[1024];
	unsigned long seen = 0;
	struct cg_buf pos;
	int *slot, v, pv;

	drawing_key(d, key, sizeof key);
	if ((slot = memo_slot(&bmemo, key, 0)) != NULL)
		return *slot;
	moves(d, brute_child, &seen);
	for (v = 0; seen >> v & 1; v++)
		;
	*memo_slot(&bmemo, key, 1) = v;

	/* the same position through the plugin */
	glop_text(d, text, sizeof text);
	cg_buf_init(&pos);
	pv = cg_rs_parse(rs, text, strlen(text), &pos) < 0 ? -2 :
	    plugin_value(pos.data, pos.len);
	cg_buf_free(&pos);
	checked++;
	if (pv != v && disagree++ < 5)
		printf("# %s: brute force %d, plugin %d\n", text, v, pv);
	return v;
}

/* k unused spots on one face */
static int
start_value(int k, int chi, int orientable)
{
	struct drawing d;
	int i;

	memset(&d, 0, sizeof d);
	d.nf = 1;
	d.f[0].chi = chi;
	d.f[0].orientable = orientable;
	d.f[0].nw = k;
	for (i = 0; i < k; i++) {
		d.f[0].w[i].n = 1;
		d.f[0].w[i].v[0] = (unsigned char)i;
	}
	d.nv = k;
	return brute_value(&d);
}

/* Every drawing reachable from k spots in the plane, with a handle or
 * cross-caps added to one of its faces in turn: faces with several
 * walks on every kind of surface. */
struct variants {
	struct memo seen;
	int n, depth, maxdepth;
};

static void
variant_visit(const struct drawing *d, void *ctx)
{
	static const int kind[][2] = { { 1, 0 }, { 0, 0 }, { 0, 1 } };
	struct variants *va = ctx;
	char key[4096];
	int f, k;

	drawing_key(d, key, sizeof key);
	if (memo_slot(&va->seen, key, 0) != NULL)
		return;
	*memo_slot(&va->seen, key, 1) = 0;
	for (f = 0; f < d->nf; f++)
		for (k = 0; k < 3; k++) {
			struct drawing c = *d;

			c.f[f].chi = kind[k][0];
			c.f[f].orientable = kind[k][1];
			brute_value(&c);
			va->n++;
		}
	if (va->depth < va->maxdepth) {
		va->depth++;
		moves(d, variant_visit, ctx);
		va->depth--;
	}
}

static int
variants_of(int spots, int maxdepth)
{
	struct variants va;
	struct drawing d;
	int k;

	memset(&va, 0, sizeof va);
	memset(&d, 0, sizeof d);
	va.maxdepth = maxdepth;
	d.nf = 1;
	d.f[0].chi = 2;
	d.f[0].orientable = 1;
	d.f[0].nw = spots;
	for (k = 0; k < spots; k++) {
		d.f[0].w[k].n = 1;
		d.f[0].w[k].v[0] = (unsigned char)k;
	}
	d.nv = spots;
	variant_visit(&d, &va);
	memo_free(&va.seen);
	return va.n;
}

/* The same for drawings met on random games from k spots in the plane,
 * after some moves (a fixed sequence of pseudo-random choices). */
struct pick {
	struct drawing *d;
	unsigned long n, want;
};

static void
pick_visit(const struct drawing *d, void *ctx)
{
	struct pick *p = ctx;

	if (p->n++ == p->want)
		*p->d = *d;
}

static int
random_variants(int spots, int nmoves, int games)
{
	static struct drawing d;
	struct variants va;
	unsigned long seed = 12345;
	int gm, mv, k;

	memset(&va, 0, sizeof va);
	for (gm = 0; gm < games; gm++) {
		memset(&d, 0, sizeof d);
		d.nf = 1;
		d.f[0].chi = 2;
		d.f[0].orientable = 1;
		d.f[0].nw = spots;
		for (k = 0; k < spots; k++) {
			d.f[0].w[k].n = 1;
			d.f[0].w[k].v[0] = (unsigned char)k;
		}
		d.nv = spots;
		for (mv = 0; mv < nmoves; mv++) {
			struct pick p = { &d, 0, (unsigned long)-1 };
			static struct drawing next;

			moves(&d, pick_visit, &p);  /* count */
			if (p.n == 0)
				break;
			seed = seed * 6364136223846793005ul + 1442695040888963407ul;
			p.d = &next;
			p.want = (seed >> 33) % p.n;
			p.n = 0;
			moves(&d, pick_visit, &p);
			d = next;
		}
		variant_visit(&d, &va);
	}
	memo_free(&va.seen);
	return va.n;
}

/* the plugin's nim value of a position text */
static int
text_value(const char *text)
{
	struct cg_buf pos;
	int v;

	cg_buf_init(&pos);
	v = cg_rs_parse(rs, text, strlen(text), &pos) < 0 ? -2 :
	    plugin_value(pos.data, pos.len);
	cg_buf_free(&pos);
	return v;
}

int
main(void)
{
	static const struct {
		const char *name;
		int chi, orientable, maxk;
	} surf[] = {
		{ "plane", 2, 1, 3 },
		{ "torus", 0, 1, 3 },
		{ "double torus", -2, 1, 2 },
		{ "projective plane", 1, 0, 3 },
		{ "Klein bottle", 0, 0, 3 },
		{ "three cross-caps", -1, 0, 2 },
	};
	size_t s;
	int k;

	rs = cg_plugin_get("sprouts", 1);
	ok(rs != NULL, "plugin loaded");
	if (rs == NULL)
		return tap_done();

	/* the brute force on the plane agrees with the published values
	 * (Applegate, Jacobson and Sleator; tests/vectors/outcome.tsv):
	 * 0*1..0*4 have nim values 0, 0, 1, 1 */
	is_int(start_value(1, 2, 1), 0, "brute force: 0*1 in the plane");
	is_int(start_value(2, 2, 1), 0, "brute force: 0*2 in the plane");
	is_int(start_value(3, 2, 1), 1, "brute force: 0*3 in the plane");
	/* one spot: any first curve leaves the spot and the new one with
	 * one life each on a common boundary, so exactly one more move:
	 * mex{1} = 0 on every surface */
	is_int(start_value(1, 0, 1), 0, "brute force: 0 on the torus");
	is_int(start_value(1, 1, 0), 0, "brute force: 0 on the projective "
	    "plane");

	for (s = 0; s < sizeof surf / sizeof surf[0]; s++)
		for (k = 1; k <= surf[s].maxk; k++) {
			char text[32];
			int g = surf[s].orientable ? (2 - surf[s].chi) / 2 :
			    -(2 - surf[s].chi);
			int bv = start_value(k, surf[s].chi,
			    surf[s].orientable);

			if (g != 0)
				snprintf(text, sizeof text, "0*%d@%d", k, g);
			else
				snprintf(text, sizeof text, "0*%d", k);
			is_int(text_value(text), bv, "%s: %d spots on the %s",
			    text, k, surf[s].name);
		}
	k = variants_of(3, 99);
	ok(k > 300, "%d drawings of 0*3 with a surface in one face", k);
	k = random_variants(5, 8, 150);
	ok(k > 300, "%d drawings of 0*5 after 8 moves with a surface in one "
	    "face", k);
	ok(!overflow, "brute force capacities sufficed");
	ok(checked > 1000, "%d positions compared", checked);
	is_int(disagree, 0, "brute force and plugin agree on every position "
	    "reached");

	memo_free(&bmemo);
	memo_free(&pmemo);
	cg_plugin_unload_all();
	return tap_done();
}
