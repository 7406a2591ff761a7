/*
 * hackenbush.c - Hackenbush on graphs: blue (Left), red (Right) and green
 * (either player) edges; a move deletes an edge of your colour or a green
 * one, and whatever is no longer connected to the ground disappears.
 * Synchronized play (CGSynch's rules): both chosen edges are deleted at
 * once (once if both chose the same green edge), then the cut-off parts
 * disappear.  A decided position is worth its number of edges, positive
 * when they are blue.
 *
 * Two notations:
 *   n:MATRIX  CGSynch's: an n x n adjacency matrix row by row, node 0 the
 *             ground; '_' (or space) no edge, B/l blue, R/r red, e/G
 *             green.  Entry (i,j) is an edge; an entry of the same colour
 *             at (j,i) is the same edge.  "3:_B_B_R_R_" is a blue edge on
 *             the ground with a red one on top.
 *   lrl(e;r)  CGSuite's: l, r, e (blue, red, green) add an edge from the
 *             current vertex to a new one, which becomes current;
 *             (a;b;...) branches from the current vertex; ":N" or
 *             ":{name}" after an edge names its upper vertex, and naming a
 *             vertex already named joins the edge to it (cycles); a name
 *             at the very start names the ground.  "0" is the empty graph.
 *
 * Bytes: kind ('M' or 'S': the notation it prints in), node count n,
 * edge count m (2 bytes little-endian), then m edges (u, v, colour) with
 * u < v, colour 1 blue, 2 red, 3 green, sorted.  Only the part connected
 * to the ground is kept.  Matrix positions keep the matrix's numbering
 * (and n), so their options are cheap to make; string positions are
 * renumbered in depth-first order from the ground (neighbours by number),
 * which is what their printed form reads back as.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/ruleset.h"

#define MAXN 255
#define MAXM 1024
#define HDR 4

enum { BLUE = 1, RED = 2, GREEN = 3 };

struct edge {
	unsigned char u, v, c;
};

struct graph {
	int kind;
	int n, m;
	struct edge e[MAXM];
};

static const char colour_char_s[] = "?lre";
static const char colour_char_m[] = "_BRe";

/* ------------------------------------------------------------ bytes */

static int
decode(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct graph *g)
{
	int k;

	if (len < HDR || (pos[0] != 'M' && pos[0] != 'S'))
		goto bad;
	g->kind = pos[0];
	g->n = pos[1];
	g->m = pos[2] | pos[3] << 8;
	if (g->n < 1 || g->m > MAXM || len != HDR + 3 * (size_t)g->m)
		goto bad;
	for (k = 0; k < g->m; k++) {
		g->e[k].u = pos[HDR + 3 * k];
		g->e[k].v = pos[HDR + 3 * k + 1];
		g->e[k].c = pos[HDR + 3 * k + 2];
		if (g->e[k].u >= g->e[k].v || g->e[k].v >= g->n ||
		    g->e[k].c < BLUE || g->e[k].c > GREEN)
			goto bad;
	}
	return CG_OK;
bad:
	return cx->host->error(cx->err, 0, "corrupt hackenbush position");
}

static int
cmp_edge(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->u != y->u)
		return x->u - y->u;
	if (x->v != y->v)
		return x->v - y->v;
	return x->c - y->c;
}

/*
 * Keep what is connected to the ground and renumber the vertices in
 * depth-first order from the ground, visiting neighbours in order of
 * their current number (edges in order of colour).  Renumbering a graph
 * already numbered this way changes nothing, so parse(print(p)) == p.
 */
static void
normalise(struct graph *g)
{
	static const int none = -1;
	int adjn[MAXN + 1], adj[2 * MAXM], start[MAXN + 2], fill[MAXN + 1];
	int label[MAXN + 1], stack[MAXN + 1], pos[MAXN + 1];
	int i, k, sp, next = 0, m = 0;
	struct edge ne[MAXM];

	for (i = 0; i < g->n; i++) {
		adjn[i] = 0;
		label[i] = none;
	}
	for (k = 0; k < g->m; k++) {
		adjn[g->e[k].u]++;
		adjn[g->e[k].v]++;
	}
	start[0] = 0;
	for (i = 0; i < g->n; i++)
		start[i + 1] = start[i] + adjn[i];
	for (i = 0; i < g->n; i++)
		fill[i] = start[i];
	/* edges sorted by (u, v, c): each vertex's list ends up ordered by
	 * neighbour number, since an edge (u,v) with u < v is listed at u
	 * in v order and at v in u order */
	qsort(g->e, (size_t)g->m, sizeof g->e[0], cmp_edge);
	for (k = 0; k < g->m; k++)
		adj[fill[g->e[k].v]++] = k;
	for (k = 0; k < g->m; k++)
		adj[fill[g->e[k].u]++] = k;
	/* at v the lower neighbours were added first, in u order: good.
	 * at u the higher ones after, in v order: good, since every lower
	 * neighbour of u was added in the first loop */
	sp = 0;
	label[0] = next++;
	stack[sp] = 0;
	pos[sp] = start[0];
	sp++;
	while (sp > 0) {
		int x = stack[sp - 1];

		if (pos[sp - 1] < start[x + 1]) {
			struct edge *e = &g->e[adj[pos[sp - 1]++]];
			int y = e->u == x ? e->v : e->u;

			if (label[y] == none) {
				label[y] = next++;
				stack[sp] = y;
				pos[sp] = start[y];
				sp++;
			}
		} else {
			sp--;
		}
	}
	for (k = 0; k < g->m; k++) {
		int a = label[g->e[k].u], b = label[g->e[k].v];

		if (a == none)
			continue;
		ne[m].u = (unsigned char)(a < b ? a : b);
		ne[m].v = (unsigned char)(a < b ? b : a);
		ne[m].c = g->e[k].c;
		m++;
	}
	memcpy(g->e, ne, sizeof(struct edge) * (size_t)m);
	g->m = m;
	g->n = next;
	qsort(g->e, (size_t)g->m, sizeof g->e[0], cmp_edge);
	if (g->m == 0)
		g->kind = g->kind == 'S' ? 'S' : 'M';
}

/*
 * Matrix-notation positions keep their numbering (so children are cheap
 * to make and print as the same matrix): only the edges no longer
 * connected to the ground go.  Edges stay sorted.
 */
static void
prune(struct graph *g)
{
	unsigned char reach[MAXN + 1];
	int k, m = 0, changed = 1;

	if (g->n <= 64) {
		/* bit sets: grow the ground's component edge by edge */
		uint64_t adj[64], seen = 1, frontier = 1;
		int x;

		memset(adj, 0, sizeof(uint64_t) * (size_t)g->n);
		for (k = 0; k < g->m; k++) {
			adj[g->e[k].u] |= (uint64_t)1 << g->e[k].v;
			adj[g->e[k].v] |= (uint64_t)1 << g->e[k].u;
		}
		while (frontier != 0) {
			uint64_t next = 0;

			while (frontier != 0) {
				x = __builtin_ctzll(frontier);
				frontier &= frontier - 1;
				next |= adj[x];
			}
			frontier = next & ~seen;
			seen |= next;
		}
		for (k = 0; k < g->m; k++)
			if (seen >> g->e[k].u & 1)
				g->e[m++] = g->e[k];
		g->m = m;
		return;
	}
	memset(reach, 0, (size_t)g->n);
	reach[0] = 1;
	while (changed) {
		changed = 0;
		for (k = 0; k < g->m; k++)
			if (reach[g->e[k].u] != reach[g->e[k].v]) {
				reach[g->e[k].u] = reach[g->e[k].v] = 1;
				changed = 1;
			}
	}
	for (k = 0; k < g->m; k++)
		if (reach[g->e[k].u])
			g->e[m++] = g->e[k];
	g->m = m;
}

static void
tidy(struct graph *g)
{
	if (g->kind == 'M') {
		qsort(g->e, (size_t)g->m, sizeof g->e[0], cmp_edge);
		prune(g);
	} else {
		normalise(g);
	}
}

static int
encode(const struct cg_context *cx, const struct graph *g,
    struct cg_buf *out)
{
	unsigned char b[HDR + 3 * MAXM];
	int k;

	b[0] = (unsigned char)g->kind;
	b[1] = (unsigned char)g->n;
	b[2] = (unsigned char)(g->m & 0xff);
	b[3] = (unsigned char)(g->m >> 8);
	for (k = 0; k < g->m; k++) {
		b[HDR + 3 * k] = g->e[k].u;
		b[HDR + 3 * k + 1] = g->e[k].v;
		b[HDR + 3 * k + 2] = g->e[k].c;
	}
	if (cx->host->buf_put(out, b, HDR + 3 * (size_t)g->m) < 0)
		return CG_ENOMEM;
	return CG_OK;
}

/* ------------------------------------------------------------ parse */

static int
colour_of(int ch)
{
	switch (ch) {
	case 'l': case 'L': case 'B': case 'b': return BLUE;
	case 'r': case 'R': return RED;
	case 'e': case 'E': case 'g': case 'G': return GREEN;
	default: return 0;
	}
}

static int
parse_matrix(const struct cg_context *cx, const char *text, size_t len,
    struct graph *g)
{
	const struct cg_host *h = cx->host;
	size_t i = 0, at;
	long n = 0;
	int a, b, c, c2;

	while (i < len && text[i] >= '0' && text[i] <= '9') {
		n = n * 10 + (text[i] - '0');
		if (n > MAXN)
			return h->error(cx->err, 1, "too many nodes (at most "
			    "%d)", MAXN);
		i++;
	}
	if (n < 1)
		return h->error(cx->err, 1, "a matrix needs at least one node "
		    "(the ground)");
	i++; /* ':' */
	at = i;
	if (len - at != (size_t)(n * n))
		return h->error(cx->err, len + 1 > at + (size_t)(n * n) ?
		    at + (size_t)(n * n) + 1 : len + 1,
		    "a %ld-node matrix needs %ld entries, found %zu", n,
		    n * n, len - at);
	g->n = (int)n;
	g->m = 0;
	for (a = 0; a < n; a++)
		for (b = 0; b < n; b++) {
			size_t col = at + (size_t)(a * n + b);

			if (text[col] == '_' || text[col] == ' ' ||
			    text[col] == '.')
				continue;
			c = colour_of(text[col]);
			if (c == 0)
				return h->error(cx->err, col + 1, "unknown edge "
				    "colour '%c' (B, R, e or _)", text[col]);
			if (a == b)
				return h->error(cx->err, col + 1, "self-loop: "
				    "node %d joined to itself", a);
			c2 = colour_of(text[at + (size_t)(b * n + a)]);
			if (c2 != 0 && c2 != c)
				return h->error(cx->err, col + 1, "entries "
				    "(%d,%d) and (%d,%d) have different colours",
				    a, b, b, a);
			if (c2 == c && b < a)
				continue; /* the mirror entry, already added */
			if (g->m == MAXM)
				return h->error(cx->err, col + 1, "too many "
				    "edges (at most %d)", MAXM);
			g->e[g->m].u = (unsigned char)(a < b ? a : b);
			g->e[g->m].v = (unsigned char)(a < b ? b : a);
			g->e[g->m].c = (unsigned char)c;
			g->m++;
		}
	g->kind = 'M';
	return CG_OK;
}

struct names {
	char name[MAXN + 1][32];
	int vertex[MAXN + 1];
	int count;
};

/* Read ":N" or ":{name}" at text[*i] (after the ':'); 0 or error. */
static int
read_name(const struct cg_context *cx, const char *text, size_t len,
    size_t *i, char *name)
{
	size_t start = *i, k = 0;

	if (*i < len && text[*i] == '{') {
		(*i)++;
		while (*i < len && text[*i] != '}') {
			if (k + 1 >= 32)
				return cx->host->error(cx->err, start + 1,
				    "vertex name too long");
			name[k++] = text[(*i)++];
		}
		if (*i == len)
			return cx->host->error(cx->err, start, "unclosed "
			    "'{' in a vertex name");
		(*i)++;
	} else if (*i < len && text[*i] != '(' && text[*i] != ')' &&
	    text[*i] != ';' && text[*i] != ':') {
		name[k++] = text[(*i)++];
	} else {
		return cx->host->error(cx->err, start, "expected a vertex "
		    "name after ':'");
	}
	name[k] = '\0';
	return CG_OK;
}

static int
lookup_name(struct names *nm, const char *name)
{
	int k;

	for (k = 0; k < nm->count; k++)
		if (strcmp(nm->name[k], name) == 0)
			return nm->vertex[k];
	return -1;
}

static int
parse_string(const struct cg_context *cx, const char *text, size_t len,
    struct graph *g)
{
	const struct cg_host *h = cx->host;
	int stack[MAXN + 1], sp = 0, cur = 0, c, v;
	struct names *nm;
	char name[32];
	size_t i = 0;
	int rc = CG_OK;

	nm = h->alloc(sizeof *nm);
	if (nm == NULL)
		return CG_ENOMEM;
	nm->count = 0;
	g->kind = 'S';
	g->n = 1;
	g->m = 0;
	if (len == 1 && text[0] == '0')
		len = 0;
	while (i < len && text[i] == ' ')
		i++;
	if (i < len && text[i] == ':') {
		i++;
		if ((rc = read_name(cx, text, len, &i, name)) < 0)
			goto out;
		strcpy(nm->name[nm->count], name);
		nm->vertex[nm->count++] = 0;
	}
	while (i < len) {
		char ch = text[i];

		if (ch == ' ') {
			i++;
		} else if (ch == '(') {
			if (sp > MAXN) {
				rc = h->error(cx->err, i + 1, "too deeply "
				    "nested");
				goto out;
			}
			stack[sp++] = cur;
			i++;
		} else if (ch == ';') {
			if (sp == 0) {
				rc = h->error(cx->err, i + 1, "';' outside "
				    "parentheses");
				goto out;
			}
			cur = stack[sp - 1];
			i++;
		} else if (ch == ')') {
			if (sp == 0) {
				rc = h->error(cx->err, i + 1, "unbalanced ')'");
				goto out;
			}
			cur = stack[--sp];
			i++;
		} else if ((c = colour_of(ch)) != 0) {
			size_t col = i + 1;

			i++;
			v = -1;
			if (i < len && text[i] == ':') {
				i++;
				if ((rc = read_name(cx, text, len, &i,
				    name)) < 0)
					goto out;
				v = lookup_name(nm, name);
				if (v < 0) {
					if (nm->count > MAXN) {
						rc = h->error(cx->err, col,
						    "too many names");
						goto out;
					}
					strcpy(nm->name[nm->count], name);
					nm->vertex[nm->count++] = g->n;
				}
			}
			if (v < 0) {
				if (g->n >= MAXN) {
					rc = h->error(cx->err, col, "too many "
					    "vertices (at most %d)", MAXN);
					goto out;
				}
				v = g->n++;
			}
			if (v == cur) {
				rc = h->error(cx->err, col, "self-loop: an "
				    "edge from a vertex to itself");
				goto out;
			}
			if (g->m == MAXM) {
				rc = h->error(cx->err, col, "too many edges "
				    "(at most %d)", MAXM);
				goto out;
			}
			g->e[g->m].u = (unsigned char)(cur < v ? cur : v);
			g->e[g->m].v = (unsigned char)(cur < v ? v : cur);
			g->e[g->m].c = (unsigned char)c;
			g->m++;
			cur = v;
		} else {
			rc = h->error(cx->err, i + 1, "unexpected '%c' (edges "
			    "are l, r, e)", ch);
			goto out;
		}
	}
	if (sp != 0)
		rc = h->error(cx->err, len + 1, "unclosed '('");
out:
	h->free(nm);
	return rc;
}

static int
hb_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	struct graph *g;
	size_t i = 0;
	int rc;

	if (len == 0)
		return cx->host->error(cx->err, 1,
		    "empty position (write 0 for the empty graph)");
	g = cx->host->alloc(sizeof *g);
	if (g == NULL)
		return CG_ENOMEM;
	while (i < len && text[i] >= '0' && text[i] <= '9')
		i++;
	if (i > 0 && i < len && text[i] == ':')
		rc = parse_matrix(cx, text, len, g);
	else
		rc = parse_string(cx, text, len, g);
	if (rc == CG_OK) {
		tidy(g);
		rc = encode(cx, g, out);
	}
	cx->host->free(g);
	return rc;
}

/* ------------------------------------------------------------ print */

/*
 * A depth-first walk (the order normalise() numbers vertices in) prints
 * each edge once, from the vertex where the walk meets it first.  An edge
 * to a vertex met before names that vertex ":{N}" (N its number), and
 * the vertex is named where it first appears too.
 */
struct printer {
	const struct graph *g;
	int adj[2 * MAXM], start[MAXN + 2];
	int head[MAXN + 1], tail[MAXN + 1], nxt[MAXM], count[MAXN + 1];
	int target[MAXM];
	unsigned char used[MAXM], seen[MAXN + 1], named[MAXN + 1];
	unsigned char descend[MAXM];
};

static void
build_adj(const struct graph *g, int *adj, int *start)
{
	int fill[MAXN + 1], i, k;

	memset(start, 0, sizeof(int) * (size_t)(g->n + 2));
	for (k = 0; k < g->m; k++) {
		start[g->e[k].u + 1]++;
		start[g->e[k].v + 1]++;
	}
	for (i = 0; i < g->n; i++)
		start[i + 1] += start[i];
	for (i = 0; i < g->n; i++)
		fill[i] = start[i];
	/* edges are sorted by (u, v): lower neighbours first, in order */
	for (k = 0; k < g->m; k++)
		adj[fill[g->e[k].v]++] = k;
	for (k = 0; k < g->m; k++)
		adj[fill[g->e[k].u]++] = k;
}

static void
walk(struct printer *p, int x)
{
	const struct graph *g = p->g;
	int a, k, y;

	p->seen[x] = 1;
	for (a = p->start[x]; a < p->start[x + 1]; a++) {
		k = p->adj[a];
		if (p->used[k])
			continue;
		p->used[k] = 1;
		y = g->e[k].u == x ? g->e[k].v : g->e[k].u;
		p->target[k] = y;
		p->nxt[k] = -1;
		if (p->tail[x] < 0)
			p->head[x] = k;
		else
			p->nxt[p->tail[x]] = k;
		p->tail[x] = k;
		p->count[x]++;
		if (!p->seen[y]) {
			p->descend[k] = 1;
			walk(p, y);
		} else {
			p->descend[k] = 0;
			p->named[y] = 1;
		}
	}
}

static int
emit_vertex(const struct cg_context *cx, struct printer *p, int x,
    struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	int k, y, rc;

	if (p->count[x] > 1 && h->buf_putc(out, '(') < 0)
		return CG_ENOMEM;
	for (k = p->head[x]; k >= 0; k = p->nxt[k]) {
		if (k != p->head[x] && h->buf_putc(out, ';') < 0)
			return CG_ENOMEM;
		y = p->target[k];
		if (h->buf_putc(out, colour_char_s[p->g->e[k].c]) < 0)
			return CG_ENOMEM;
		if (p->named[y] && h->buf_printf(out, ":{%d}", y) < 0)
			return CG_ENOMEM;
		if (p->descend[k] && (rc = emit_vertex(cx, p, y, out)) < 0)
			return rc;
	}
	if (p->count[x] > 1 && h->buf_putc(out, ')') < 0)
		return CG_ENOMEM;
	return CG_OK;
}

static int
print_string(const struct cg_context *cx, const struct graph *g,
    struct cg_buf *out)
{
	struct printer *p;
	int x, rc;

	if (g->m == 0)
		return cx->host->buf_putc(out, '0');
	p = cx->host->alloc(sizeof *p);
	if (p == NULL)
		return CG_ENOMEM;
	p->g = g;
	build_adj(g, p->adj, p->start);
	memset(p->used, 0, sizeof p->used);
	memset(p->seen, 0, sizeof p->seen);
	memset(p->named, 0, sizeof p->named);
	for (x = 0; x < g->n; x++) {
		p->head[x] = p->tail[x] = -1;
		p->count[x] = 0;
	}
	walk(p, 0);
	rc = CG_OK;
	if (p->named[0] && cx->host->buf_printf(out, ":{0}") < 0)
		rc = CG_ENOMEM;
	if (rc == CG_OK)
		rc = emit_vertex(cx, p, 0, out);
	cx->host->free(p);
	return rc;
}

static int
print_matrix(const struct cg_context *cx, const struct graph *g,
    struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	unsigned char *cell;
	size_t n = (size_t)g->n, i;
	int k, rc;

	cell = h->alloc(n * n);
	if (cell == NULL)
		return CG_ENOMEM;
	for (i = 0; i < n * n; i++)
		cell[i] = '_';
	for (k = 0; k < g->m; k++)
		cell[g->e[k].u * n + g->e[k].v] =
		    (unsigned char)colour_char_m[g->e[k].c];
	rc = h->buf_printf(out, "%zu:", n);
	if (rc >= 0)
		rc = h->buf_put(out, cell, n * n);
	h->free(cell);
	return rc < 0 ? CG_ENOMEM : CG_OK;
}

static int
has_parallel(const struct graph *g)
{
	int k;

	for (k = 1; k < g->m; k++)
		if (g->e[k].u == g->e[k - 1].u && g->e[k].v == g->e[k - 1].v)
			return 1;
	return 0;
}

static int
hb_print(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	struct graph *g = cx->host->alloc(sizeof *g);
	int rc;

	if (g == NULL)
		return CG_ENOMEM;
	rc = decode(cx, pos, len, g);
	if (rc == CG_OK) {
		if (g->kind == 'M' && !has_parallel(g))
			rc = print_matrix(cx, g, out);
		else
			rc = print_string(cx, g, out);
	}
	cx->host->free(g);
	return rc;
}

/* ------------------------------------------------------------ moves */

static int
playable(int c, enum cg_side side)
{
	return c == GREEN || c == (side == CG_LEFT ? BLUE : RED);
}

/* g without edges a and b (b may equal a, or be -1), normalised. */
static void
cut(const struct graph *g, int a, int b, struct graph *child)
{
	int k;

	child->kind = g->kind;
	child->n = g->n;
	child->m = 0;
	for (k = 0; k < g->m; k++)
		if (k != a && k != b)
			child->e[child->m++] = g->e[k];
	if (child->kind == 'M')
		prune(child);
	else
		normalise(child);
}

static int
hb_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	const struct cg_host *h = cx->host;
	struct graph *g, *child;
	struct cg_buf buf = { NULL, 0, 0 };
	char move[32];
	int k, rc;

	g = h->alloc(2 * sizeof *g);
	if (g == NULL)
		return CG_ENOMEM;
	child = g + 1;
	rc = decode(cx, pos, len, g);
	for (k = 0; rc == CG_OK && k < g->m; k++) {
		if (!playable(g->e[k].c, side))
			continue;
		cut(g, k, -1, child);
		buf.len = 0;
		if ((rc = encode(cx, child, &buf)) < 0)
			break;
		snprintf(move, sizeof move, "%d-%d", g->e[k].u, g->e[k].v);
		if (emit(ctx, buf.data, buf.len, move))
			rc = CG_STOP;
	}
	h->free(buf.data);
	h->free(g);
	return rc;
}

static int
hb_synch_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_joint_fn emit, void *ctx)
{
	const struct cg_host *h = cx->host;
	struct graph *g, *child;
	struct cg_buf buf = { NULL, 0, 0 };
	size_t li = 0, rj;
	int a, b, rc;

	g = h->alloc(2 * sizeof *g);
	if (g == NULL)
		return CG_ENOMEM;
	child = g + 1;
	rc = decode(cx, pos, len, g);
	for (a = 0; rc == CG_OK && a < g->m; a++) {
		if (!playable(g->e[a].c, CG_LEFT))
			continue;
		rj = 0;
		for (b = 0; rc == CG_OK && b < g->m; b++) {
			if (!playable(g->e[b].c, CG_RIGHT))
				continue;
			cut(g, a, b, child);
			buf.len = 0;
			if ((rc = encode(cx, child, &buf)) < 0)
				break;
			if (emit(ctx, li, rj, buf.data, buf.len))
				rc = CG_STOP;
			rj++;
		}
		li++;
	}
	h->free(buf.data);
	h->free(g);
	return rc;
}

static int
hb_decided_value(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int64_t *num, int64_t *den)
{
	struct graph *g = cx->host->alloc(sizeof *g);
	int k, cnt[4] = { 0, 0, 0, 0 }, rc;

	if (g == NULL)
		return CG_ENOMEM;
	rc = decode(cx, pos, len, g);
	if (rc == CG_OK) {
		for (k = 0; k < g->m; k++)
			cnt[g->e[k].c]++;
		if (cnt[GREEN] > 0 || (cnt[BLUE] > 0 && cnt[RED] > 0))
			rc = cx->host->error(cx->err, 0, "hackenbush position "
			    "is not decided (both players can move)");
		*num = cnt[BLUE] - cnt[RED];
		*den = 1;
	}
	cx->host->free(g);
	return rc;
}

/* ------------------------------------------------------ canonical */

/*
 * Trees (every vertex reached once from the ground) get a true canonical
 * form: subtrees are ordered by their encodings (AHU), so every drawing
 * of the same tree gives the same bytes.  Graphs with cycles keep their
 * normalised numbering.
 */
struct canon {
	const struct graph *g;
	int adj[2 * MAXM], start[MAXN + 2];
	int parent[MAXN + 1], pcol[MAXN + 1];
	char *code[MAXN + 1];
	int newlabel[MAXN + 1], next;
	struct edge out[MAXM];
	int nout;
};

static int
cmp_code(const void *a, const void *b, void *arg)
{
	struct canon *c = arg;
	int x = *(const int *)a, y = *(const int *)b;
	int r = c->pcol[x] - c->pcol[y];

	return r ? r : strcmp(c->code[x], c->code[y]);
}

/* children of x, sorted by (edge colour, code) */
static int
children(struct canon *c, int x, int *kids)
{
	int a, k, y, nk = 0;

	for (a = c->start[x]; a < c->start[x + 1]; a++) {
		k = c->adj[a];
		y = c->g->e[k].u == x ? c->g->e[k].v : c->g->e[k].u;
		if (c->parent[y] == x && y != 0)
			kids[nk++] = y;
	}
	qsort_r(kids, (size_t)nk, sizeof *kids, cmp_code, c);
	return nk;
}

static int
make_code(const struct cg_context *cx, struct canon *c, int x)
{
	int kids[MAXN + 1], nk, i, rc;
	size_t total = 3, off;

	for (i = 0; i < c->g->n; i++)
		if (c->parent[i] == x && i != 0 && c->code[i] == NULL &&
		    (rc = make_code(cx, c, i)) < 0)
			return rc;
	nk = children(c, x, kids);
	for (i = 0; i < nk; i++)
		total += strlen(c->code[kids[i]]) + 1;
	c->code[x] = cx->host->alloc(total);
	if (c->code[x] == NULL)
		return CG_ENOMEM;
	off = 0;
	c->code[x][off++] = '(';
	for (i = 0; i < nk; i++) {
		c->code[x][off++] = (char)('0' + c->pcol[kids[i]]);
		strcpy(c->code[x] + off, c->code[kids[i]]);
		off += strlen(c->code[kids[i]]);
	}
	c->code[x][off++] = ')';
	c->code[x][off] = '\0';
	return CG_OK;
}

static void
relabel(struct canon *c, int x)
{
	int kids[MAXN + 1], nk, i;

	c->newlabel[x] = c->next++;
	nk = children(c, x, kids);
	for (i = 0; i < nk; i++) {
		relabel(c, kids[i]);
		c->out[c->nout].u = (unsigned char)c->newlabel[x];
		c->out[c->nout].v = (unsigned char)c->newlabel[kids[i]];
		c->out[c->nout].c = (unsigned char)c->pcol[kids[i]];
		c->nout++;
	}
}

static int
hb_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	struct graph *g;
	struct canon *c = NULL;
	int rc, i, k, stack[MAXN + 1], sp;

	/* matrix positions keep their numbering: no symmetry folding */
	if (len >= HDR && pos[0] == 'M' && len == HDR + 3 *
	    (size_t)(pos[2] | pos[3] << 8))
		return h->buf_put(out, pos, len) < 0 ? CG_ENOMEM : CG_OK;
	g = h->alloc(sizeof *g);
	if (g == NULL)
		return CG_ENOMEM;
	rc = decode(cx, pos, len, g);
	if (rc < 0)
		goto out;
	if (g->kind == 'M') {
		/* kept in its own numbering: cheap, no symmetry folding */
		rc = h->buf_put(out, pos, len) < 0 ? CG_ENOMEM : CG_OK;
		goto out;
	}
	if (g->m != g->n - 1 || g->m == 0) {
		rc = encode(cx, g, out);
		goto out;
	}
	/* a tree: parents from the ground */
	c = h->alloc(sizeof *c);
	if (c == NULL) {
		rc = CG_ENOMEM;
		goto out;
	}
	c->g = g;
	build_adj(g, c->adj, c->start);
	for (i = 0; i < g->n; i++) {
		c->parent[i] = -1;
		c->code[i] = NULL;
	}
	c->parent[0] = 0;
	sp = 0;
	stack[sp++] = 0;
	while (sp > 0) {
		int x = stack[--sp], a;

		for (a = c->start[x]; a < c->start[x + 1]; a++) {
			int y;

			k = c->adj[a];
			y = g->e[k].u == x ? g->e[k].v : g->e[k].u;
			if (c->parent[y] < 0) {
				c->parent[y] = x;
				c->pcol[y] = g->e[k].c;
				stack[sp++] = y;
			}
		}
	}
	c->pcol[0] = 0;
	rc = make_code(cx, c, 0);
	if (rc == CG_OK) {
		c->next = 0;
		c->nout = 0;
		relabel(c, 0);
		memcpy(g->e, c->out, sizeof(struct edge) * (size_t)c->nout);
		normalise(g);
		rc = encode(cx, g, out);
	}
	for (i = 0; i < g->n; i++)
		h->free(c->code[i]);
out:
	h->free(c);
	h->free(g);
	return rc;
}

/* Components that meet only at the ground are a disjunctive sum. */
static int
hb_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	const struct cg_host *h = cx->host;
	struct graph *g, *part;
	struct cg_buf buf = { NULL, 0, 0 };
	int comp[MAXN + 1], stack[MAXN + 1], sp, ncomp = 0, i, k, rc;
	int *adj, *start;

	g = h->alloc(2 * sizeof *g);
	adj = h->alloc(sizeof(int) * (2 * MAXM + MAXN + 2));
	if (g == NULL || adj == NULL) {
		h->free(g);
		h->free(adj);
		return CG_ENOMEM;
	}
	start = adj + 2 * MAXM;
	part = g + 1;
	rc = decode(cx, pos, len, g);
	if (rc < 0)
		goto out;
	build_adj(g, adj, start);
	for (i = 0; i < g->n; i++)
		comp[i] = -1;
	for (i = 1; i < g->n; i++) {
		if (comp[i] >= 0)
			continue;
		sp = 0;
		stack[sp++] = i;
		comp[i] = ncomp;
		while (sp > 0) {
			int x = stack[--sp], a;

			for (a = start[x]; a < start[x + 1]; a++) {
				int y;

				k = adj[a];
				y = g->e[k].u == x ? g->e[k].v : g->e[k].u;
				if (y != 0 && comp[y] < 0) {
					comp[y] = ncomp;
					stack[sp++] = y;
				}
			}
		}
		ncomp++;
	}
	for (i = 0; i < ncomp && rc == CG_OK; i++) {
		part->kind = g->kind;
		part->n = g->n;
		part->m = 0;
		for (k = 0; k < g->m; k++)
			if (comp[g->e[k].v] == i)
				part->e[part->m++] = g->e[k];
		if (part->m == 0)
			continue; /* an isolated vertex */
		tidy(part);
		buf.len = 0;
		if ((rc = encode(cx, part, &buf)) < 0)
			break;
		if (emit(ctx, buf.data, buf.len, NULL))
			rc = CG_STOP;
	}
out:
	h->free(buf.data);
	h->free(adj);
	h->free(g);
	return rc;
}

static const struct cg_ruleset hackenbush_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "hackenbush",
	.version = "1.0",
	.summary = "Hackenbush: blue, red and green edges on the ground "
	    "(CGSynch's n:MATRIX or CGSuite's lrl(e;r) notation)",
	.params_help = NULL,
	.flags = CG_SYMMETRY | CG_DECOMPOSES | CG_SYNCHRONIZED,
	.parse = hb_parse,
	.print = hb_print,
	.options = hb_options,
	.canonical = hb_canonical,
	.decompose = hb_decompose,
	.synch_options = hb_synch_options,
	.decided_value = hb_decided_value,
};

CG_RULESET_ENTRY(hackenbush, hackenbush_ruleset)
