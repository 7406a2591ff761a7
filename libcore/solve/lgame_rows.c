/* lgame_rows.c - cg-canon's values of loopy games (lgame.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "solve/lgame.h"
#include "solve/lgame_int.h"
#include "values/notation.h"

/* The sides of x (the stopper itself for a stopper), adopted into g. */
static int
sides_of(struct cg_lgame *g, uint32_t x, uint32_t *on, uint32_t *off,
    char *msg, size_t msgsize);

int
cg_lgame_compare_text(struct cg_lgame *g, uint32_t x, const char *text,
    struct cg_buf *out, char *msg, size_t msgsize)
{
	static const char *rel[] = { "<", "==", ">", "<>" };
	size_t len = strlen(text), col;
	uint32_t yon, yoff, xon, xoff, nx, ny;
	char m[200];
	cg_game s;
	int con, coff, ge, le;

	if (cg_lgame_looks_loopy(text, len)) {
		if (cg_lgame_parse_sided(g, text, len, &yon, &yoff, m,
		    sizeof m, &col) < 0) {
			snprintf(msg, msgsize, "-c '%s': column %zu: %s", text,
			    col, m);
			return -1;
		}
	} else {
		if (cg_canon_parse(text, len, &s, m, sizeof m, &col) < 0) {
			snprintf(msg, msgsize, "-c '%s': column %zu: %s", text,
			    col, m);
			return -1;
		}
		yon = yoff = cg_lgame_short(g, s);
	}
	free(lg_reach(g, x, &nx));
	free(lg_reach(g, yon, &ny));
	if ((uint64_t)(nx + ny + 1) * (nx + ny + 1) > CG_LGAME_MAXPAIRS) {
		snprintf(msg, msgsize, "-c '%s': games of %u and %u nodes: "
		    "more than %llu pairs of nodes to order", text,
		    (unsigned)nx, (unsigned)ny,
		    (unsigned long long)CG_LGAME_MAXPAIRS);
		return -1;
	}
	if (yon == yoff && cg_lgame_is_stopper(g, x) &&
	    cg_lgame_is_stopper(g, yon)) {
		cg_buf_addstr(out, rel[cg_lgame_compare(g, x, yon) + 1]);
		return 0;
	}
	/* side by side: G >= H when G+ >= H+ and G- >= H- */
	if (sides_of(g, x, &xon, &xoff, msg, msgsize) < 0)
		return -1;
	if (yon == yoff && sides_of(g, yon, &yon, &yoff, msg, msgsize) < 0)
		return -1;
	con = cg_lgame_compare(g, xon, yon);
	coff = cg_lgame_compare(g, xoff, yoff);
	ge = (con == 0 || con == 1) && (coff == 0 || coff == 1);
	le = (con == 0 || con == -1) && (coff == 0 || coff == -1);
	cg_buf_addstr(out, ge && le ? "==" : ge ? ">" : le ? "<" : "<>");
	return 0;
}

int
cg_lgame_property_known(const char *name)
{
	static const char *const known[] = { "canon", "outcome", "lstop",
	    "rstop", "onside", "offside", "degree", "variety", NULL };
	size_t i;

	for (i = 0; known[i] != NULL; i++)
		if (strcmp(name, known[i]) == 0)
			return 1;
	return 0;
}

/* Are simplest forms a and b (roots 0) the same graph?  Simplest forms
 * are unique (Siegel), so equal stoppers print alike. */
static int
same_form(const struct cg_lgame *a, const struct cg_lgame *b)
{
	struct cg_buf x, y;
	int r;

	cg_buf_init(&x);
	cg_buf_init(&y);
	cg_lgame_print(a, &x);
	cg_lgame_print(b, &y);
	r = strcmp(cg_buf_str(&x), cg_buf_str(&y)) == 0;
	cg_buf_free(&x);
	cg_buf_free(&y);
	return r;
}

/* The value of x as CGSuite writes a sided value: "dud" for on & off,
 * the stopper when both sides are one, else "onside & offside". */
static int
sided(struct cg_lgame *g, uint32_t x, struct cg_buf *b, char *msg,
    size_t msgsize)
{
	struct cg_lgame on, off;

	if (cg_lgame_side(g, x, 1, &on, msg, msgsize) < 0)
		return -1;
	if (cg_lgame_side(g, x, 0, &off, msg, msgsize) < 0) {
		cg_lgame_free(&on);
		return -1;
	}
	/* on & off: one node each, passing for Left and for Right */
	if (on.n == 1 && lg_is_pass_only(&on, 0, CG_LEFT) && off.n == 1 &&
	    lg_is_pass_only(&off, 0, CG_RIGHT)) {
		cg_buf_addstr(b, "dud");
	} else {
		cg_lgame_print(&on, b);
		if (!same_form(&on, &off)) {
			cg_buf_addstr(b, " & ");
			cg_lgame_print(&off, b);
		}
	}
	cg_lgame_free(&on);
	cg_lgame_free(&off);
	return 0;
}

/* The side (onside != 0: upsum, else downsum) of the sum of stoppers a
 * and b (nodes of g), as a simplest form in out. */
static int
side_sum(struct cg_lgame *g, uint32_t a, uint32_t b, int onside,
    struct cg_lgame *out, char *msg, size_t msgsize)
{
	return cg_lgame_side(g, cg_lgame_sum(g, a, b), onside, out, msg,
	    msgsize);
}

static int
sides_of(struct cg_lgame *g, uint32_t x, uint32_t *on, uint32_t *off,
    char *msg, size_t msgsize)
{
	struct cg_lgame c;

	if (cg_lgame_is_stopper(g, x)) {
		*on = *off = x;
		return 0;
	}
	if (cg_lgame_side(g, x, 1, &c, msg, msgsize) < 0)
		return -1;
	*on = lg_graft(g, &c, 0);
	cg_lgame_free(&c);
	if (cg_lgame_side(g, x, 0, &c, msg, msgsize) < 0)
		return -1;
	*off = lg_graft(g, &c, 0);
	cg_lgame_free(&c);
	return 0;
}

/*
 * The degree of stopper x, x upsum -x (0 for a game with no cycle), and
 * its variety: with degree d idempotent (d + d = d), x upsum (-x downsum
 * -d) when that equals x downsum (-x upsum d), the game being stable
 * (Siegel, Combinatorial Game Theory, ch. VI; CGSuite's CanonicalStopper).
 */
static int
degree_variety(struct cg_lgame *g, uint32_t x, int variety,
    struct cg_buf *b, char *msg, size_t msgsize)
{
	struct cg_lgame d, dd, u, v;
	uint32_t nx, dn, t;
	int r = -1;

	if (!cg_lgame_is_stopper(g, x)) {
		snprintf(msg, msgsize, "degree and variety are defined for "
		    "stoppers only");
		return -1;
	}
	nx = cg_lgame_neg(g, x);
	if (!cg_lgame_is_loopy(g, x)) {
		cg_buf_addstr(b, "0");
		if (!variety)
			return 0;
	}
	if (side_sum(g, x, nx, 1, &d, msg, msgsize) < 0)
		return -1;
	if (!variety) {
		cg_lgame_print(&d, b);
		cg_lgame_free(&d);
		return 0;
	}
	if (!cg_lgame_is_loopy(g, x)) {
		cg_lgame_free(&d);
		return 0;
	}
	dn = lg_graft(g, &d, 0);
	cg_lgame_free(&d);
	/* d + d = d, both sides */
	if (side_sum(g, dn, dn, 1, &dd, msg, msgsize) < 0)
		return -1;
	t = lg_graft(g, &dd, 0);
	cg_lgame_free(&dd);
	if (cg_lgame_compare(g, t, dn) != 0) {
		snprintf(msg, msgsize, "no variety: the degree is not an "
		    "idempotent");
		return -1;
	}
	/* u = x upsum (-x downsum -d), v = x downsum (-x upsum d) */
	if (side_sum(g, nx, cg_lgame_neg(g, dn), 0, &u, msg, msgsize) < 0)
		return -1;
	t = lg_graft(g, &u, 0);
	cg_lgame_free(&u);
	if (side_sum(g, x, t, 1, &u, msg, msgsize) < 0)
		return -1;
	if (side_sum(g, nx, dn, 1, &v, msg, msgsize) < 0)
		goto out_u;
	t = lg_graft(g, &v, 0);
	cg_lgame_free(&v);
	if (side_sum(g, x, t, 0, &v, msg, msgsize) < 0)
		goto out_u;
	if (same_form(&u, &v)) {
		cg_lgame_print(&u, b);
		r = 0;
	} else {
		snprintf(msg, msgsize, "no variety: the game is not stable");
	}
	cg_lgame_free(&v);
out_u:
	cg_lgame_free(&u);
	return r;
}

int
cg_lgame_value(struct cg_lgame *g, uint32_t x, const char *prop, struct cg_buf *b,
    char *msg, size_t msgsize)
{
	struct cg_lgame c;

	if (strcmp(prop, "outcome") == 0) {
		cg_buf_addstr(b, cg_lgame_class(g, x));
		return 0;
	}
	if (!cg_lgame_property_known(prop)) {
		snprintf(msg, msgsize, "property '%s' is not computed for "
		    "loopy games (canon, outcome, lstop, rstop, onside, "
		    "offside, degree and variety are)", prop);
		return -1;
	}
	if (strcmp(prop, "degree") == 0 || strcmp(prop, "variety") == 0)
		return degree_variety(g, x, prop[0] == 'v', b, msg, msgsize);
	if (strcmp(prop, "onside") == 0 || strcmp(prop, "offside") == 0) {
		if (cg_lgame_side(g, x, prop[1] == 'n', &c, msg, msgsize) < 0)
			return -1;
		cg_lgame_print(&c, b);
		cg_lgame_free(&c);
		return 0;
	}
	if (strcmp(prop, "canon") == 0 && !cg_lgame_is_stopper(g, x))
		return sided(g, x, b, msg, msgsize);
	if (cg_lgame_simplify(g, x, &c, msg, msgsize) < 0)
		return -1;
	if (strcmp(prop, "canon") == 0) {
		cg_lgame_print(&c, b);
	} else if (cg_lgame_stop(&c, strcmp(prop, "lstop") == 0 ? CG_LEFT :
	    CG_RIGHT, b) < 0) {
		snprintf(msg, msgsize, "no %s: play reaches a position with no "
		    "move that is not a pseudonumber", prop);
		cg_lgame_free(&c);
		return -1;
	}
	cg_lgame_free(&c);
	return 0;
}

int
cg_lgame_of_short(cg_game s, const char *prop, const char *cmp,
    struct cg_buf *b, char *msg, size_t msgsize)
{
	struct cg_lgame g;
	uint32_t x;
	int r;

	cg_lgame_init(&g);
	x = cg_lgame_short(&g, s);
	r = prop != NULL ? cg_lgame_value(&g, x, prop, b, msg, msgsize) :
	    cg_lgame_compare_text(&g, x, cmp, b, msg, msgsize);
	cg_lgame_free(&g);
	return r;
}

void
cg_lgame_rows(struct cg_doc *d, char *const *props, size_t nprops,
    char *const *cmps, size_t ncmps, FILE *tsv, FILE *out)
{
	size_t nv = nprops + ncmps, i;
	struct cg_buf *b = cg_xcalloc(nv ? nv : 1, sizeof *b);
	const char **vals = cg_xcalloc(nv ? nv : 1, sizeof *vals);
	char msg[512];
	uint32_t r, x;
	int bad;

	for (i = 0; i < nv; i++)
		cg_buf_init(&b[i]);
	for (r = 0; r < d->nroot; r++) {
		struct cg_lgame g;

		cg_lgame_init(&g);
		x = cg_lgame_from_doc(&g, d, d->root[r]);
		for (bad = 0, i = 0; i < nv && !bad; i++) {
			b[i].len = 0;
			if (i < nprops)
				bad = cg_lgame_value(&g, x, props[i], &b[i], msg,
				    sizeof msg) < 0;
			else
				bad = cg_lgame_compare_text(&g, x,
				    cmps[i - nprops], &b[i], msg,
				    sizeof msg) < 0;
			vals[i] = cg_buf_str(&b[i]);
		}
		cg_lgame_free(&g);
		if (bad) {
			struct cg_buf pos;

			cg_buf_init(&pos);
			cg_doc_root_label(d, d->root[r], &pos);
			cg_error_at(d->file, d->node[d->root[r]].line,
			    "position '%s': %s", cg_buf_str(&pos), msg);
			cg_buf_free(&pos);
			continue;
		}
		if (tsv != NULL) {
			cg_tsv_row(tsv, d, d->root[r], vals, nv);
			continue;
		}
		cg_doc_annotate_props(d, d->root[r], props, nprops, cmps,
		    vals, nv);
	}
	if (tsv == NULL)
		cg_doc_write(out, d);
	for (i = 0; i < nv; i++)
		cg_buf_free(&b[i]);
	free(b);
	free(vals);
}
