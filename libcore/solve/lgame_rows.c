/* lgame_rows.c - cg-canon's values of loopy games (lgame.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "solve/lgame.h"
#include "solve/lgame_int.h"
#include "values/notation.h"

int
cg_lgame_compare_text(struct cg_lgame *g, uint32_t x, const char *text,
    struct cg_buf *out, char *msg, size_t msgsize)
{
	static const char *rel[] = { "<", "==", ">", "<>" };
	size_t len = strlen(text), col;
	uint32_t y;
	char m[200];
	cg_game s;

	if (cg_lgame_looks_loopy(text, len)) {
		if (cg_lgame_parse(g, text, len, &y, m, sizeof m, &col) < 0) {
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
		y = cg_lgame_short(g, s);
	}
	if (!cg_lgame_is_stopper(g, x) || !cg_lgame_is_stopper(g, y)) {
		snprintf(msg, msgsize, "-c '%s': comparing games that are not "
		    "both stoppers (their order by onsides and offsides is not "
		    "computed here)", text);
		return -1;
	}
	{
		uint32_t nx, ny, *q;

		free(lg_reach(g, x, &nx));
		q = lg_reach(g, y, &ny);
		free(q);
		if ((uint64_t)(nx + ny + 1) * (nx + ny + 1) >
		    CG_LGAME_MAXPAIRS) {
			snprintf(msg, msgsize, "-c '%s': games of %u and %u "
			    "nodes: more than %llu pairs of nodes to order",
			    text, (unsigned)nx, (unsigned)ny,
			    (unsigned long long)CG_LGAME_MAXPAIRS);
			return -1;
		}
	}
	cg_buf_addstr(out, rel[cg_lgame_compare(g, x, y) + 1]);
	return 0;
}

int
cg_lgame_property_known(const char *name)
{
	return strcmp(name, "canon") == 0 || strcmp(name, "outcome") == 0 ||
	    strcmp(name, "lstop") == 0 || strcmp(name, "rstop") == 0;
}

/* One value of root x (a node of g); -1 with msg when it has none. */
static int
value(struct cg_lgame *g, uint32_t x, const char *prop, struct cg_buf *b,
    char *msg, size_t msgsize)
{
	struct cg_lgame c;

	if (strcmp(prop, "outcome") == 0) {
		cg_buf_addstr(b, cg_lgame_class(g, x));
		return 0;
	}
	if (!cg_lgame_property_known(prop)) {
		snprintf(msg, msgsize, "property '%s' is not computed for "
		    "loopy games (canon, outcome, lstop and rstop are)", prop);
		return -1;
	}
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
				bad = value(&g, x, props[i], &b[i], msg,
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
