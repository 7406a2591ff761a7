/*
 * plugins/lib/graphgame.h - vertex-colouring games on graphs in CGSuite's
 * graph notation (Col, Snort), header-only.
 *
 * Position model (CGSuite's GenCol): coloured vertices are gone; what is
 * left are the uncoloured vertices, each with a tint: '.' none, 'L'
 * adjacent to a Left (blue) vertex, 'R' adjacent to a Right (red) one.
 * A vertex adjacent to both colours can never be coloured by anybody and
 * is deleted.  When player P colours vertex v: each untinted neighbour of
 * v gets P's tint, each neighbour with the opponent's tint is deleted,
 * and v is deleted.  Which tints a player may colour is the ruleset's
 * choice (Col: Left colours '.' and 'R'; Snort: Left colours '.' and
 * 'L'; mirrored for Right).
 *
 * Text (CGSuite's Graph.Parse syntax, vertex labels '.', 'L', 'R'):
 *     vertex   tint letter '.', 'L' or 'R', optionally followed by a name
 *              ":X" (one character) or ":{NAME}"; every vertex with the
 *              same name is the same vertex.  The tint may be left out
 *              ('.'), and so may a whole unnamed '.' vertex between or at
 *              the ends of edges: "---" is a path of four vertices.
 *     '-'      an edge from the vertex before it to the vertex after it.
 *     (B;B...) branches off the vertex before it, each starting with '-'
 *              ("--(-;--;---)": a trunk then three branches); it ends
 *              that chain.
 *     '+'      (cgtools) separates connected components: "L-.+.-R".
 *     "0"      the empty graph.
 * Spaces are ignored.  Loops and repeated edges are accepted and dropped
 * (a loop does not change who may colour a vertex).
 *
 * Bytes: n (one byte, at most GG_MAX vertices), n tint bytes, then n
 * 8-byte little-endian neighbour masks.  Vertices are numbered in the
 * order a depth-first search meets them (components in order, neighbours
 * in increasing order), which is also the order print() writes them, so
 * parse(print(p)) == p.
 */
#ifndef CG_PLUGIN_GRAPHGAME_H
#define CG_PLUGIN_GRAPHGAME_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/ruleset.h"

#define GG_MAX 64

struct gg {
	int n;
	char tag[GG_MAX];
	uint64_t adj[GG_MAX];
};

static inline uint64_t
gg_get64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static inline void
gg_set64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

/* The tints of Col and Snort; gg_*_tags take any alphabet of tints
 * (printable, none of "-:(){};+ 0"), the first being the tint of a vertex
 * written without one. */
#define GG_TAGS ".LR"

static inline int
gg_decode_tags(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct gg *g, const char *tags)
{
	int i, j;

	if (len < 1 || pos[0] > GG_MAX || len != 1 + 9 * (size_t)pos[0])
		return cx->host->error(cx->err, 0, "corrupt graph position");
	g->n = pos[0];
	for (i = 0; i < g->n; i++) {
		g->tag[i] = (char)pos[1 + i];
		g->adj[i] = gg_get64(pos + 1 + g->n + 8 * i);
		if (g->tag[i] == '\0' || strchr(tags, g->tag[i]) == NULL ||
		    (g->adj[i] >> i & 1) ||
		    (g->n < 64 && g->adj[i] >> g->n))
			return cx->host->error(cx->err, 0,
			    "corrupt graph position");
	}
	for (i = 0; i < g->n; i++)
		for (j = 0; j < g->n; j++)
			if ((g->adj[i] >> j & 1) != (g->adj[j] >> i & 1))
				return cx->host->error(cx->err, 0,
				    "corrupt graph position");
	return CG_OK;
}

static inline int
gg_decode(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct gg *g)
{
	return gg_decode_tags(cx, pos, len, g, GG_TAGS);
}

#define GG_BYTES (1 + 9 * GG_MAX)

/* Bytes of g into b[GG_BYTES]; returns the length. */
static inline size_t
gg_encode_raw(const struct gg *g, unsigned char *b)
{
	int i;

	b[0] = (unsigned char)g->n;
	memcpy(b + 1, g->tag, (size_t)g->n);
	for (i = 0; i < g->n; i++)
		gg_set64(b + 1 + g->n + 8 * i, g->adj[i]);
	return 1 + 9 * (size_t)g->n;
}

static inline int
gg_encode(const struct cg_context *cx, const struct gg *g, struct cg_buf *out)
{
	unsigned char b[8];
	int i;

	if (cx->host->buf_putc(out, g->n) < 0 ||
	    cx->host->buf_put(out, g->tag, (size_t)g->n) < 0)
		return CG_ENOMEM;
	for (i = 0; i < g->n; i++) {
		gg_set64(b, g->adj[i]);
		if (cx->host->buf_put(out, b, 8) < 0)
			return CG_ENOMEM;
	}
	return CG_OK;
}

/* Depth-first preorder from v (neighbours in increasing order). */
static inline void
gg_dfs(const struct gg *g, int v, int *order, int *cnt, uint64_t *seen)
{
	uint64_t m;
	int u;

	*seen |= 1ull << v;
	order[(*cnt)++] = v;
	m = g->adj[v] & ~*seen;
	while (m) {
		u = __builtin_ctzll(m);
		if (!(*seen >> u & 1))
			gg_dfs(g, u, order, cnt, seen);
		m &= ~(1ull << u);
		m &= ~*seen;
	}
}

/* Renumber the vertices listed in order[0..k-1] as 0..k-1 into out. */
static inline void
gg_relabel(const struct gg *g, const int *order, int k, struct gg *out)
{
	int newid[GG_MAX], i;
	uint64_t m, a;

	for (i = 0; i < g->n; i++)
		newid[i] = -1;
	for (i = 0; i < k; i++)
		newid[order[i]] = i;
	out->n = k;
	for (i = 0; i < k; i++) {
		out->tag[i] = g->tag[order[i]];
		a = 0;
		m = g->adj[order[i]];
		while (m) {
			int u = __builtin_ctzll(m);

			if (newid[u] >= 0)
				a |= 1ull << newid[u];
			m &= m - 1;
		}
		out->adj[i] = a;
	}
}

/* Number the vertices in depth-first preorder, components in order. */
static inline void
gg_normalize(struct gg *g)
{
	int order[GG_MAX], cnt = 0, v;
	uint64_t seen = 0;
	struct gg t;

	for (v = 0; v < g->n; v++)
		if (!(seen >> v & 1))
			gg_dfs(g, v, order, &cnt, &seen);
	gg_relabel(g, order, cnt, &t);
	*g = t;
}

/* ------------------------------------------------------------ parsing */

struct gg_parser {
	const struct cg_context *cx;
	const char *tags;
	const char *s;
	size_t len, i;
	struct gg g;
	int nnames;
	const char *names[GG_MAX];  /* name of vertex, or NULL */
	size_t namelen[GG_MAX];
};

static inline void
gg_skip(struct gg_parser *p)
{
	while (p->i < p->len && p->s[p->i] == ' ')
		p->i++;
}

static inline int
gg_peek(struct gg_parser *p)
{
	gg_skip(p);
	return p->i < p->len ? (unsigned char)p->s[p->i] : -1;
}

static inline int
gg_err(struct gg_parser *p, const char *what)
{
	if (p->i >= p->len)
		return p->cx->host->error(p->cx->err, p->i + 1,
		    "%s, found the end", what);
	return p->cx->host->error(p->cx->err, p->i + 1, "%s, found '%c'",
	    what, p->s[p->i]);
}

/* Parse a vertex (possibly implicit); its number in *v. */
static inline int
gg_vertex(struct gg_parser *p, int *v)
{
	int c = gg_peek(p), tag = 0, k;
	size_t start = p->i, nstart, nlen;

	if (c > 0 && strchr(p->tags, c) != NULL) {
		tag = c;
		p->i++;
		c = gg_peek(p);
	}
	if (c == ':') {
		p->i++;
		if (p->i < p->len && p->s[p->i] == '{') {
			nstart = ++p->i;
			while (p->i < p->len && p->s[p->i] != '}')
				p->i++;
			if (p->i == p->len)
				return p->cx->host->error(p->cx->err,
				    nstart, "missing '}' after a vertex name");
			nlen = p->i - nstart;
			if (nlen == 0)
				return p->cx->host->error(p->cx->err,
				    nstart, "empty vertex name");
			p->i++;
		} else if (p->i < p->len && ((p->s[p->i] >= 'A' &&
		    p->s[p->i] <= 'Z') || (p->s[p->i] >= 'a' &&
		    p->s[p->i] <= 'z') || (p->s[p->i] >= '0' &&
		    p->s[p->i] <= '9'))) {
			nstart = p->i++;
			nlen = 1;
		} else
			return gg_err(p, "expected a vertex name (a letter, "
			    "a digit or {NAME}) after ':'");
		for (k = 0; k < p->g.n; k++)
			if (p->names[k] != NULL && p->namelen[k] == nlen &&
			    memcmp(p->names[k], p->s + nstart, nlen) == 0) {
				if (tag && tag != p->g.tag[k])
					return p->cx->host->error(p->cx->err,
					    start + 1, "vertex '%.*s' has two "
					    "tints", (int)nlen, p->s + nstart);
				*v = k;
				return CG_OK;
			}
	} else {
		nstart = 0;
		nlen = 0;
	}
	if (p->g.n == GG_MAX)
		return p->cx->host->error(p->cx->err, start + 1,
		    "too many vertices (at most %d)", GG_MAX);
	k = p->g.n++;
	p->g.tag[k] = (char)(tag ? tag : p->tags[0]);
	p->g.adj[k] = 0;
	p->names[k] = nlen ? p->s + nstart : NULL;
	p->namelen[k] = nlen;
	*v = k;
	return CG_OK;
}

static inline void
gg_edge(struct gg *g, int a, int b)
{
	if (a == b)
		return; /* a loop changes nothing */
	g->adj[a] |= 1ull << b;
	g->adj[b] |= 1ull << a;
}

static inline int gg_chain(struct gg_parser *p, int v);

/* After vertex v: more edges, branches, or the end of the chain. */
static inline int
gg_chain(struct gg_parser *p, int v)
{
	int c, u, rc;

	for (;;) {
		c = gg_peek(p);
		if (c == '-') {
			p->i++;
			if ((rc = gg_vertex(p, &u)) < 0)
				return rc;
			gg_edge(&p->g, v, u);
			v = u;
			continue;
		}
		if (c == '(') {
			p->i++;
			do {
				if (gg_peek(p) != '-')
					return gg_err(p, "expected '-' to start "
					    "a branch");
				p->i++;
				if ((rc = gg_vertex(p, &u)) < 0)
					return rc;
				gg_edge(&p->g, v, u);
				if ((rc = gg_chain(p, u)) < 0)
					return rc;
				c = gg_peek(p);
				if (c == ';')
					p->i++;
			} while (c == ';');
			if (c != ')')
				return gg_err(p, "expected ';' or ')'");
			p->i++;
			c = gg_peek(p);
			if (c != -1 && c != ';' && c != ')' && c != '+')
				return gg_err(p, "expected ';', ')', '+' or "
				    "the end after branches");
			return CG_OK;
		}
		return CG_OK;
	}
}

static inline int
gg_parse_text_tags(const struct cg_context *cx, const char *text, size_t len,
    struct gg *out, const char *tags)
{
	struct gg_parser p;
	char what[128];
	size_t w, t;
	int v, rc, c;

	memset(&p, 0, sizeof p);
	p.cx = cx;
	p.tags = tags;
	p.s = text;
	p.len = len;
	if (gg_peek(&p) == '0') {
		p.i++;
		if (gg_peek(&p) != -1)
			return gg_err(&p, "expected the end after '0' (the "
			    "empty graph)");
		out->n = 0;
		return CG_OK;
	}
	if (gg_peek(&p) == -1)
		return gg_err(&p, "expected a graph");
	for (;;) {
		c = gg_peek(&p);
		if (c != -1 && (c <= 0 || strchr(tags, c) == NULL) &&
		    c != ':' && c != '-' && c != '(') {
			w = (size_t)snprintf(what, sizeof what,
			    "expected a vertex (");
			for (t = 0; tags[t] != '\0' && w + 8 < sizeof what; t++)
				w += (size_t)snprintf(what + w, sizeof what - w,
				    "%s'%c'", t ? ", " : "", tags[t]);
			snprintf(what + w, sizeof what - w, ") or an edge");
			return gg_err(&p, what);
		}
		if (c == '(')
			return gg_err(&p, "expected a vertex before '('");
		if ((rc = gg_vertex(&p, &v)) < 0 || (rc = gg_chain(&p, v)) < 0)
			return rc;
		c = gg_peek(&p);
		if (c == -1)
			break;
		if (c != '+')
			return gg_err(&p, c == ';' || c == ')' ?
			    "unbalanced branch" : "expected '-', '(' or '+'");
		p.i++;
		if (gg_peek(&p) == -1)
			return gg_err(&p, "expected a graph after '+'");
	}
	*out = p.g;
	gg_normalize(out);
	return CG_OK;
}

static inline int
gg_parse_text(const struct cg_context *cx, const char *text, size_t len,
    struct gg *out)
{
	return gg_parse_text_tags(cx, text, len, out, GG_TAGS);
}

/* ----------------------------------------------------------- printing */

struct gg_printer {
	const struct cg_context *cx;
	const struct gg *g;
	struct cg_buf *out;
	int parent[GG_MAX];
	int name[GG_MAX]; /* 0 none, else 1-based name number */
	int rc;
};

static inline void
gg_put_vertex(struct gg_printer *pr, int v, int first)
{
	const struct cg_host *h = pr->cx->host;
	int k = pr->name[v];

	if (h->buf_putc(pr->out, pr->g->tag[v]) < 0)
		pr->rc = CG_ENOMEM;
	if (k == 0)
		return;
	(void)first;
	if (k <= 26) {
		if (h->buf_printf(pr->out, ":%c", 'A' + k - 1) < 0)
			pr->rc = CG_ENOMEM;
	} else if (h->buf_printf(pr->out, ":{%d}", k) < 0)
		pr->rc = CG_ENOMEM;
}

static inline void
gg_print_from(struct gg_printer *pr, int v)
{
	const struct cg_host *h = pr->cx->host;
	const struct gg *g = pr->g;
	int items[GG_MAX], isref[GG_MAX], n = 0, u, k;

	gg_put_vertex(pr, v, 1);
	/* back references: neighbours numbered lower, except the parent */
	for (u = 0; u < v; u++)
		if ((g->adj[v] >> u & 1) && u != pr->parent[v]) {
			items[n] = u;
			isref[n++] = 1;
		}
	for (u = v + 1; u < g->n; u++)
		if ((g->adj[v] >> u & 1) && pr->parent[u] == v) {
			items[n] = u;
			isref[n++] = 0;
		}
	if (n > 1 && h->buf_putc(pr->out, '(') < 0)
		pr->rc = CG_ENOMEM;
	for (k = 0; k < n; k++) {
		if (k > 0 && h->buf_putc(pr->out, ';') < 0)
			pr->rc = CG_ENOMEM;
		if (h->buf_putc(pr->out, '-') < 0)
			pr->rc = CG_ENOMEM;
		if (isref[k])
			gg_put_vertex(pr, items[k], 0);
		else
			gg_print_from(pr, items[k]);
	}
	if (n > 1 && h->buf_putc(pr->out, ')') < 0)
		pr->rc = CG_ENOMEM;
}

/* Print a normalized graph (vertices in depth-first preorder). */
static inline int
gg_print(const struct cg_context *cx, const struct gg *g, struct cg_buf *out)
{
	struct gg_printer pr;
	int v, u, names = 0, first = 1;

	if (g->n == 0)
		return cx->host->buf_putc(out, '0');
	memset(&pr, 0, sizeof pr);
	pr.cx = cx;
	pr.g = g;
	pr.out = out;
	/* In preorder numbering the tree parent of v is its lowest-numbered
	 * neighbour... not always: it is the neighbour u < v discovered
	 * last before v whose search was still open.  Recompute the tree. */
	{
		int order[GG_MAX], cnt = 0;
		uint64_t seen = 0;
		int stack[GG_MAX], sp, w;

		for (v = 0; v < g->n; v++)
			pr.parent[v] = -1;
		for (v = 0; v < g->n; v++) {
			if (seen >> v & 1)
				continue;
			/* iterative DFS that records parents */
			sp = 0;
			stack[sp++] = v;
			seen |= 1ull << v;
			order[cnt++] = v;
			while (sp > 0) {
				uint64_t m;

				w = stack[sp - 1];
				m = g->adj[w] & ~seen;
				if (m == 0) {
					sp--;
					continue;
				}
				u = __builtin_ctzll(m);
				seen |= 1ull << u;
				pr.parent[u] = w;
				order[cnt++] = u;
				stack[sp++] = u;
			}
		}
		(void)order;
	}
	/* name every vertex that a later vertex refers back to */
	for (v = 0; v < g->n; v++)
		for (u = v + 1; u < g->n; u++)
			if ((g->adj[u] >> v & 1) && pr.parent[u] != v &&
			    pr.name[v] == 0)
				pr.name[v] = ++names;
	for (v = 0; v < g->n; v++) {
		if (pr.parent[v] != -1)
			continue;
		if (!first && cx->host->buf_putc(out, '+') < 0)
			return CG_ENOMEM;
		first = 0;
		gg_print_from(&pr, v);
	}
	return pr.rc;
}

/* The parse and print hooks of a ruleset of graphs with the tags
 * GG_TAGS (Col, Snort). */
static inline int
gg_parse_hook(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	struct gg g;
	int rc = gg_parse_text(cx, text, len, &g);

	return rc < 0 ? rc : gg_encode(cx, &g, out);
}

static inline int
gg_print_hook(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	struct gg g;
	int rc = gg_decode(cx, pos, len, &g);

	return rc < 0 ? rc : gg_print(cx, &g, out);
}

/* ------------------------------------------------------------- moves */

/* May side colour a vertex with this tint?  Supplied by the ruleset. */
typedef int (*gg_permit_fn)(enum cg_side side, int tint);

/*
 * The position after vertex v becomes tint self (or is deleted when self
 * is 0) and each neighbour u of v becomes map[tint of u] (deleted when
 * 0): the general move of a vertex-colouring game.
 */
static inline void
gg_rewrite(const struct gg *g, int v, int self, const unsigned char map[256],
    struct gg *out)
{
	int order[GG_MAX], k = 0, u;
	struct gg t = *g;
	uint64_t del = 0, m = g->adj[v];

	if (self == 0)
		del |= 1ull << v;
	else
		t.tag[v] = (char)self;
	while (m) {
		u = __builtin_ctzll(m);
		m &= m - 1;
		if (map[(unsigned char)t.tag[u]] == 0)
			del |= 1ull << u;
		else
			t.tag[u] = (char)map[(unsigned char)t.tag[u]];
	}
	for (u = 0; u < g->n; u++)
		if (!(del >> u & 1))
			order[k++] = u;
	gg_relabel(&t, order, k, out);
	gg_normalize(out);
}

/* The position after side colours vertex v. */
static inline void
gg_move(const struct gg *g, int v, enum cg_side side, struct gg *out)
{
	int me = side == CG_LEFT ? 'L' : 'R', opp = side == CG_LEFT ? 'R' : 'L';
	int order[GG_MAX], k = 0, u;
	struct gg t = *g;
	uint64_t del = 1ull << v, m = g->adj[v];

	while (m) {
		u = __builtin_ctzll(m);
		m &= m - 1;
		if (t.tag[u] == '.')
			t.tag[u] = (char)me;
		else if (t.tag[u] == opp)
			del |= 1ull << u;
	}
	for (u = 0; u < g->n; u++)
		if (!(del >> u & 1))
			order[k++] = u;
	gg_relabel(&t, order, k, out);
	gg_normalize(out);
}

static inline int
gg_options(const struct cg_context *cx, const unsigned char *pos, size_t len,
    enum cg_side side, cg_emit_fn emit, void *ctx, gg_permit_fn permit)
{
	struct gg g, c;
	unsigned char b[GG_BYTES];
	char move[16];
	int v, rc = gg_decode(cx, pos, len, &g), stop = 0;

	if (rc < 0)
		return rc;
	for (v = 0; v < g.n && !stop; v++) {
		if (!permit(side, g.tag[v]))
			continue;
		gg_move(&g, v, side, &c);
		snprintf(move, sizeof move, "%d", v + 1);
		stop = emit(ctx, b, gg_encode_raw(&c, b), move);
	}
	return stop ? CG_STOP : CG_OK;
}

/* ------------------------------------------- components and canonical */

/* The component of the normalized graph g starting at vertex a (its
 * vertices are a..b-1, contiguous in preorder); returns b. */
static inline int
gg_component(const struct gg *g, int a, struct gg *out)
{
	int order[GG_MAX], cnt = 0;
	uint64_t seen = 0;

	gg_dfs(g, a, order, &cnt, &seen);
	gg_relabel(g, order, cnt, out);
	return a + cnt;
}

/* Bytes of a graph for comparisons: tints, then masks. */
static inline int
gg_cmp(const struct gg *x, const struct gg *y)
{
	int i;

	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	for (i = 0; i < x->n; i++)
		if (x->tag[i] != y->tag[i])
			return x->tag[i] < y->tag[i] ? -1 : 1;
	for (i = 0; i < x->n; i++)
		if (x->adj[i] != y->adj[i])
			return x->adj[i] < y->adj[i] ? -1 : 1;
	return 0;
}

/*
 * Make a connected graph's numbering smaller: the least relabelling by
 * a depth-first search from each vertex, repeated until nothing smaller
 * turns up (the result is then stable, so canonical() is idempotent).
 */
static inline void
gg_min_component(struct gg *c)
{
	struct gg best, t;
	int s, order[GG_MAX], cnt, improved = 1;
	uint64_t seen;

	while (improved) {
		improved = 0;
		best = *c;
		for (s = 1; s < c->n; s++) {
			cnt = 0;
			seen = 0;
			gg_dfs(c, s, order, &cnt, &seen);
			gg_relabel(c, order, cnt, &t);
			if (gg_cmp(&t, &best) < 0)
				best = t;
		}
		if (gg_cmp(&best, c) < 0) {
			*c = best;
			improved = 1;
		}
	}
}

static inline int
gg_cmp_ptr(const void *a, const void *b)
{
	return gg_cmp(a, b);
}

/* The k minimal components comp[] sorted, then joined into all: the
 * canonical form of their sum. */
static inline void
gg_join(struct gg *comp, int k, struct gg *all)
{
	int i, j;

	qsort(comp, (size_t)k, sizeof *comp, gg_cmp_ptr);
	all->n = 0;
	for (i = 0; i < k; i++) {
		for (j = 0; j < comp[i].n; j++) {
			all->tag[all->n + j] = comp[i].tag[j];
			all->adj[all->n + j] = comp[i].adj[j] << all->n;
		}
		all->n += comp[i].n;
	}
}

static inline int
gg_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	struct gg g, *comp, all;
	int a, k = 0, rc = gg_decode(cx, pos, len, &g);

	if (rc < 0)
		return rc;
	comp = cx->host->alloc(sizeof *comp * (size_t)(g.n ? g.n : 1));
	if (comp == NULL)
		return CG_ENOMEM;
	for (a = 0; a < g.n; k++) {
		a = gg_component(&g, a, &comp[k]);
		gg_min_component(&comp[k]);
	}
	gg_join(comp, k, &all);
	cx->host->free(comp);
	return gg_encode(cx, &all, out);
}

static inline int
gg_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	struct gg g, c;
	unsigned char b[GG_BYTES];
	int a = 0, rc = gg_decode(cx, pos, len, &g), stop = 0;

	if (rc < 0)
		return rc;
	while (a < g.n && !stop) {
		a = gg_component(&g, a, &c);
		stop = emit(ctx, b, gg_encode_raw(&c, b), NULL);
	}
	return stop ? CG_STOP : CG_OK;
}

#endif
