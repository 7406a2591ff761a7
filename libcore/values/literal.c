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

int
cg_canon_parse(const char *text, size_t len, cg_game *out, char *msg,
    size_t msgsize, size_t *col)
{
	struct gl_tree t;
	cg_game *val;
	uint32_t i, k;

	gl_init(&t, &gl_libc);
	if (gl_parse(&t, text, len) < 0) {
		if (t.nomem)
			cg_die(CG_EXIT_DATA, "out of memory");
		snprintf(msg, msgsize, "%s", t.errmsg);
		*col = t.errcol;
		gl_free(&t);
		return -1;
	}
	/* nodes are stored children first: one pass bottom-up */
	val = cg_xreallocarray(NULL, t.n ? t.n : 1, sizeof *val);
	for (i = 0; i < t.n; i++) {
		const struct gl_node *nd = &t.node[i];
		cg_game g = CG_NO_GAME, a;

		switch (nd->kind) {
		case GL_ATOM:
			g = cg_canon_nus(cg_dyadic_make(nd->num, nd->exp),
			    nd->up, nd->nim);
			break;
		case GL_BRACE: {
			struct vec l, r;

			vec_init(&l);
			vec_init(&r);
			for (k = 0; k < nd->nl; k++)
				vec_push(&l, val[t.list[nd->first + k]]);
			for (k = 0; k < nd->nr; k++)
				vec_push(&r, val[t.list[nd->first + nd->nl + k]]);
			g = cg_canon_make(l.v, l.n, r.v, r.n);
			vec_free(&l);
			vec_free(&r);
			break;
		}
		case GL_SUM:
			g = cg_canon_zero();
			for (k = 0; k < nd->nl; k++)
				g = cg_canon_add(g, val[t.list[nd->first + k]]);
			break;
		case GL_NEG:
			g = cg_canon_neg(val[nd->a]);
			break;
		case GL_SWITCH:
			a = cg_canon_neg(val[nd->a]);
			g = cg_canon_make(&val[nd->a], 1, &a, 1);
			break;
		case GL_SWITCHES: {
			struct vec l, r;

			vec_init(&l);
			vec_init(&r);
			for (k = 0; k < nd->nl; k++) {
				vec_push(&l, val[t.list[nd->first + k]]);
				vec_push(&r, cg_canon_neg(val[t.list[nd->first + k]]));
			}
			g = cg_canon_make(l.v, l.n, r.v, r.n);
			vec_free(&l);
			vec_free(&r);
			break;
		}
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
			if (nd->up > 100000)
				cg_die(CG_EXIT_DATA, "^<%lld> too large",
				    (long long)nd->up);
			g = cg_canon_up_pow((int)nd->up);
			break;
		case GL_POWTO:
			if (nd->up > 100000)
				cg_die(CG_EXIT_DATA, "^[%lld] too large",
				    (long long)nd->up);
			g = cg_canon_up_powto((int)nd->up);
			break;
		}
		val[i] = g;
	}
	*out = val[t.root];
	free(val);
	gl_free(&t);
	return 0;
}
