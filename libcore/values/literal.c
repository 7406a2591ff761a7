/* literal.c - game literals (CGSuite's game specifiers, the grammar of
 * include/cg/gamelit.h) read into the canonical store. */
#include <stdio.h>
#include <stdlib.h>

#include "cg/gamelit.h"
#include "values/canon.h"
#include "values/notation.h"
#include "values/gamevec.h"
#include "base/util.h"

/* ------------------------------------------------------------ literals */

static void *
gl_realloc_x(void *p, size_t n)
{
	return realloc(p, n);
}

static const struct gl_alloc gl_libc = { gl_realloc_x, free };

/* Evaluating a parsed literal, bottom-up; the vectors live here so that
 * an error caught by cg_canon_catch can free them. */
struct literal {
	struct gl_tree t;
	cg_game *val;
	struct vec l, r;
};

static void
evaluate(void *arg)
{
	struct literal *lt = arg;
	const struct gl_tree *t = &lt->t;
	struct vec *l = &lt->l, *r = &lt->r;
	cg_game *val = lt->val;
	uint32_t i, k;

	/* nodes are stored children first: one pass bottom-up */
	for (i = 0; i < t->n; i++) {
		const struct gl_node *nd = &t->node[i];
		cg_game g = CG_NO_GAME, a;

		l->n = r->n = 0;
		switch (nd->kind) {
		case GL_ATOM:
			g = cg_canon_nus(cg_dyadic_make(nd->num, nd->exp),
			    nd->up, nd->nim);
			break;
		case GL_BIG: {
			mpz_t m;
			struct cg_dyadic x;

			mpz_init(m);
			mpz_import(m, nd->nl, -1, sizeof *t->list, 0, 0,
			    t->list + nd->first);
			if (nd->a)
				mpz_neg(m, m);
			x = cg_dyadic_from_mpz(m, nd->exp);
			mpz_clear(m);
			g = cg_canon_nus(x, nd->up, nd->nim);
			break;
		}
		case GL_BRACE:
			for (k = 0; k < nd->nl; k++)
				vec_push(l, val[t->list[nd->first + k]]);
			for (k = 0; k < nd->nr; k++)
				vec_push(r, val[t->list[nd->first + nd->nl + k]]);
			g = cg_canon_make(l->v, l->n, r->v, r->n);
			break;
		case GL_SUM:
			g = cg_canon_zero();
			for (k = 0; k < nd->nl; k++)
				g = cg_canon_add(g, val[t->list[nd->first + k]]);
			break;
		case GL_NEG:
			g = cg_canon_neg(val[nd->a]);
			break;
		case GL_SWITCH:
			a = cg_canon_neg(val[nd->a]);
			g = cg_canon_make(&val[nd->a], 1, &a, 1);
			break;
		case GL_SWITCHES:
			for (k = 0; k < nd->nl; k++) {
				vec_push(l, val[t->list[nd->first + k]]);
				vec_push(r, cg_canon_neg(val[t->list[nd->first + k]]));
			}
			g = cg_canon_make(l->v, l->n, r->v, r->n);
			break;
		case GL_TINY: {
			/* {0 || 0 | -a} */
			cg_game z = cg_canon_zero(), na = cg_canon_neg(val[nd->a]);
			cg_game in = cg_canon_make(&z, 1, &na, 1);

			g = cg_canon_make(&z, 1, &in, 1);
			break;
		}
		case GL_MINY: {
			cg_game z = cg_canon_zero();
			cg_game in = cg_canon_make(&val[nd->a], 1, &z, 1);

			g = cg_canon_make(&in, 1, &z, 1);
			break;
		}
		case GL_POW:
			g = cg_canon_up_pow((int)nd->up);
			break;
		case GL_POWTO:
			g = cg_canon_up_powto((int)nd->up);
			break;
		case GL_MISERE:
		case GL_MLIST:
			/* an impartial game: its normal-play value */
			if (nd->kind == GL_MISERE && nd->nl == 1) {
				g = val[t->list[nd->first]];
				break;
			}
			for (k = 0; k < nd->nl; k++)
				vec_push(l, val[t->list[nd->first + k]]);
			g = cg_canon_make(l->v, l->n, l->v, l->n);
			break;
		}
		val[i] = g;
	}
}

int
cg_canon_parse(const char *text, size_t len, cg_game *out, char *msg,
    size_t msgsize, size_t *col)
{
	struct literal lt;
	uint32_t i;
	int rc;

	gl_init(&lt.t, &gl_libc);
	if (gl_parse(&lt.t, text, len) < 0) {
		if (lt.t.nomem)
			cg_die(CG_EXIT_DATA, "out of memory");
		snprintf(msg, msgsize, "%s", lt.t.errmsg);
		*col = lt.t.errcol;
		gl_free(&lt.t);
		return -1;
	}
	for (i = 0; i < lt.t.n; i++) {
		const struct gl_node *nd = &lt.t.node[i];

		if ((nd->kind == GL_POW || nd->kind == GL_POWTO) &&
		    nd->up > 100000) {
			snprintf(msg, msgsize, nd->kind == GL_POW ?
			    "^<%lld> too large" : "^[%lld] too large",
			    (long long)nd->up);
			*col = 1;
			gl_free(&lt.t);
			return -1;
		}
	}
	lt.val = cg_xreallocarray(NULL, lt.t.n ? lt.t.n : 1, sizeof *lt.val);
	vec_init(&lt.l);
	vec_init(&lt.r);
	/* a value too large for the store is an error of this literal (the
	 * caller names its file and line), not an exit without a place */
	rc = cg_canon_catch(evaluate, &lt, msg, msgsize);
	if (rc == 0)
		*out = lt.val[lt.t.root];
	else
		*col = 1;
	vec_free(&lt.l);
	vec_free(&lt.r);
	free(lt.val);
	gl_free(&lt.t);
	return rc;
}

cg_game
cg_canon_value(const char *text, size_t len, const char *what)
{
	cg_game g;
	char msg[256];
	size_t col;

	if (cg_canon_parse(text, len, &g, msg, sizeof msg, &col) < 0)
		cg_die(CG_EXIT_DATA, "%s '%.*s': %s", what, (int)len, text,
		    msg);
	return g;
}
