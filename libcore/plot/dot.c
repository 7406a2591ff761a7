/* dot.c - game graphs for Graphviz (see dot.h). */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "plot/board.h"
#include "plot/dot.h"

/* What the legend must explain. */
struct seen {
	int partizan, impartial, equivalent, joint;
};

static void
dot_string(struct cg_buf *out, const char *s)
{
	cg_buf_addc(out, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			cg_buf_addc(out, '\\');
		if (*s == '\n')
			cg_buf_addstr(out, "\\n");
		else
			cg_buf_addc(out, *s);
	}
	cg_buf_addc(out, '"');
}

/* One square of a board in an HTML-like label: blocked squares ('#')
 * dark, empty ones ('.') blank, pieces by their letter. */
static void
square(struct cg_buf *out, char c)
{
	cg_buf_addstr(out, "<TD WIDTH=\"16\" HEIGHT=\"16\" FIXEDSIZE=\"TRUE\"");
	if (c == '#') {
		cg_buf_addstr(out, " BGCOLOR=\"gray35\"></TD>");
		return;
	}
	if (c == '.') {
		cg_buf_addstr(out, "></TD>");
		return;
	}
	cg_buf_addstr(out, "><FONT POINT-SIZE=\"11\">");
	if (c == '&')
		cg_buf_addstr(out, "&amp;");
	else if (c == '<')
		cg_buf_addstr(out, "&lt;");
	else if (c == '>')
		cg_buf_addstr(out, "&gt;");
	else
		cg_buf_addc(out, c);
	cg_buf_addstr(out, "</FONT></TD>");
}

static void
node_label(struct cg_buf *out, const struct cg_node *n)
{
	size_t rows, cols, r, c;
	char id[32];

	if (n->text == NULL) {
		snprintf(id, sizeof id, "#%llu", (unsigned long long)n->id);
		cg_buf_addstr(out, "label=");
		dot_string(out, id);
		return;
	}
	if (!cg_board_is(n->rs) || cg_board_shape(n->text, &rows, &cols) < 0) {
		cg_buf_addstr(out, "label=");
		dot_string(out, n->text);
		return;
	}
	/* the position's text as a tooltip, the board as a grid */
	cg_buf_addstr(out, "tooltip=");
	dot_string(out, n->text);
	cg_buf_addstr(out, ", margin=\"0.05\", label=<<TABLE BORDER=\"0\" "
	    "CELLBORDER=\"1\" CELLSPACING=\"0\" CELLPADDING=\"0\">");
	for (r = 0; r < rows; r++) {
		cg_buf_addstr(out, "<TR>");
		for (c = 0; c < cols; c++)
			square(out, n->text[r * (cols + 1) + c]);
		cg_buf_addstr(out, "</TR>");
	}
	cg_buf_addstr(out, "</TABLE>>");
}

/* Do both players have the same moves here (same children, same names, in
 * the same order)? */
static int
same_moves(const struct cg_node *n)
{
	uint32_t k;

	/* (compared, not taken from CG_IMPARTIAL: a hand-written document
	 * may give the two sides different lists) */
	if (n->nopt[0] != n->nopt[1] || n->nopt[0] == 0)
		return 0;
	for (k = 0; k < n->nopt[0]; k++) {
		const struct cg_option *l = &n->opt[0][k], *r = &n->opt[1][k];

		if (l->child != r->child || (l->move == NULL) !=
		    (r->move == NULL) || (l->move && strcmp(l->move,
		    r->move) != 0))
			return 0;
	}
	return 1;
}

/* The positions the named moves of one side really reach. */
struct reached {
	struct cg_buf bytes;
	char **name;
	size_t *off, n, cap;
};

static int
on_reached(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct reached *r = ctx;

	if (r->n + 2 > r->cap) {
		r->cap = r->cap ? r->cap * 2 : 16;
		r->name = cg_xreallocarray(r->name, r->cap, sizeof *r->name);
		r->off = cg_xreallocarray(r->off, r->cap + 1, sizeof *r->off);
	}
	if (r->n == 0)
		r->off[0] = 0;
	r->name[r->n] = move ? cg_xstrdup(move) : NULL;
	cg_buf_add(&r->bytes, pos, len);
	r->off[++r->n] = r->bytes.len;
	return 0;
}

static void
reached_free(struct reached *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->name[i]);
	free(r->name);
	free(r->off);
	cg_buf_free(&r->bytes);
}

/* Is the node drawn for this named move only equivalent to the position
 * the move reaches (merged with it: the same canonical representative)? */
static int
stand_in(const struct reached *r, const char *move, const struct cg_node *c)
{
	size_t i;

	if (move == NULL || c->pos == NULL)
		return 0;
	for (i = 0; i < r->n; i++)
		if (r->name[i] != NULL && strcmp(r->name[i], move) == 0)
			return r->off[i + 1] - r->off[i] != c->poslen ||
			    memcmp(r->bytes.data + r->off[i], c->pos,
			    c->poslen) != 0;
	return 0;
}

static void
edges(struct cg_buf *out, const struct cg_doc *d, const struct cg_node *n,
    struct seen *seen)
{
	static const char *const colour[3] = { "blue", "red", "black" };
	int both = same_moves(n), s;
	struct reached r;
	uint32_t k;

	for (s = 0; s < (both ? 1 : 2); s++) {
		memset(&r, 0, sizeof r);
		cg_buf_init(&r.bytes);
		if (n->rs != NULL && n->pos != NULL && cg_rs_options(n->rs,
		    n->pos, n->poslen, (enum cg_side)s, on_reached, &r) < 0)
			cg_die_at(d->file, n->line, "ruleset '%s': %s",
			    n->rs->name, cg_rs_errmsg(n->rs));
		for (k = 0; k < n->nopt[s]; k++) {
			const struct cg_option *o = &n->opt[s][k];
			const struct cg_node *c = &d->node[o->child];
			int sym = stand_in(&r, o->move, c);

			cg_buf_addf(out, "\tn%llu -> n%llu [color=%s",
			    (unsigned long long)n->id,
			    (unsigned long long)c->id, colour[both ? 2 : s]);
			if (o->move != NULL) {
				struct cg_buf l;

				cg_buf_init(&l);
				cg_buf_addf(&l, "%s%s", o->move, sym ?
				    " (equivalent)" : "");
				cg_buf_addstr(out, ", label=");
				dot_string(out, cg_buf_str(&l));
				cg_buf_free(&l);
			}
			cg_buf_addstr(out, "];\n");
			seen->equivalent |= sym;
		}
		reached_free(&r);
	}
	if (n->nopt[0] + n->nopt[1] > 0) {
		seen->impartial |= both;
		seen->partizan |= !both;
	}
	for (k = 0; k < n->njoint; k++)
		cg_buf_addf(out, "\tn%llu -> n%llu [color=purple, "
		    "style=dashed, label=\"%u,%u\"];\n",
		    (unsigned long long)n->id,
		    (unsigned long long)d->node[n->joint[k].child].id,
		    n->joint[k].i, n->joint[k].j);
	seen->joint |= n->njoint > 0;
}

/* The legend: what the colours and marks of this picture mean. */
static void
legend(struct cg_buf *out, const struct seen *seen)
{
	if (!seen->partizan && !seen->impartial && !seen->joint)
		return;
	cg_buf_addstr(out, "\tlabelloc=b;\n\tlabeljust=l;\n\tlabel=\"");
	if (seen->partizan)
		cg_buf_addstr(out, "blue: Left's moves, red: Right's moves\\l");
	if (seen->impartial)
		cg_buf_addstr(out, "black: a move of either player\\l");
	if (seen->joint)
		cg_buf_addstr(out, "purple, dashed: both move at once (Left's "
		    "i-th, Right's j-th)\\l");
	if (seen->equivalent)
		cg_buf_addstr(out, "(equivalent): the move reaches not the "
		    "position drawn but one the ruleset counts as the same\\l"
		    "  (reordered, mirrored or turned, or without its dead "
		    "parts: equal in value)\\l");
	cg_buf_addstr(out, "\";\n");
}

void
cg_dot_write(struct cg_buf *out, const struct cg_doc *d)
{
	struct seen seen;
	uint32_t i;

	memset(&seen, 0, sizeof seen);
	cg_buf_addstr(out, "digraph cg {\n\tgraph [fontname=\"sans-serif\", "
	    "fontsize=10];\n\tnode [shape=box, fontname=\"monospace\"];\n"
	    "\tedge [fontname=\"monospace\", fontsize=10];\n");
	for (i = 0; i < d->n; i++) {
		cg_buf_addf(out, "\tn%llu [",
		    (unsigned long long)d->node[i].id);
		node_label(out, &d->node[i]);
		cg_buf_addstr(out, "];\n");
	}
	for (i = 0; i < d->nroot; i++)
		cg_buf_addf(out, "\tn%llu [penwidth=2];\n",
		    (unsigned long long)d->node[d->root[i]].id);
	for (i = 0; i < d->n; i++)
		edges(out, d, &d->node[i], &seen);
	legend(out, &seen);
	cg_buf_addstr(out, "}\n");
}
