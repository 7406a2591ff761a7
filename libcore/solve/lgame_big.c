/* lgame_big.c - simplest forms of stoppers too large to order whole
 * (lgame.h).
 *
 * The order of a stopper is found over every pair of its nodes, which
 * is quadratic.  Where the graph breaks into strongly connected
 * components (Fox and Geese: the geese only go forward, so each set of
 * geese is one component of fox moves), the components are done one at
 * a time from the bottom: a component's graph is its own nodes with
 * every move out of it going to the simplest form of its target, found
 * before; each node's simplest form is then taken in that small graph.
 * Replacing a follower that no cycle passes through by an equal stopper
 * leaves the value unchanged, and simplest forms are unique (Siegel,
 * Combinatorial Game Theory, ch. VI), so the result is the game's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "solve/lgame.h"
#include "solve/lgame_int.h"

/* Simplest forms met so far, by their text (simplest forms are unique,
 * so equal texts are equal games), each grafted into the arena once. */
struct forms {
	struct lg_map byhash;     /* hash of the text -> index */
	char **text;
	uint32_t *root, n;
};

static uint64_t
text_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static uint32_t
intern(struct cg_lgame *arena, struct forms *fs, const struct cg_lgame *f)
{
	struct cg_buf b;
	uint64_t h;
	uint32_t *slot;
	int isnew;

	cg_buf_init(&b);
	cg_lgame_print(f, &b);
	/* probe past other texts with the same hash */
	for (h = text_hash(cg_buf_str(&b));; h++) {
		slot = lg_map_get(&fs->byhash, h, &isnew);
		if (isnew || strcmp(fs->text[*slot], cg_buf_str(&b)) == 0)
			break;
	}
	if (isnew) {
		fs->text = cg_xreallocarray(fs->text, fs->n + 1,
		    sizeof *fs->text);
		fs->root = cg_xreallocarray(fs->root, fs->n + 1,
		    sizeof *fs->root);
		fs->text[fs->n] = cg_xstrdup(cg_buf_str(&b));
		fs->root[fs->n] = lg_graft(arena, f, 0);
		*slot = fs->n++;
	}
	cg_buf_free(&b);
	return fs->root[*slot];
}

int
lg_simplify_by_parts(const struct cg_lgame *g, uint32_t x,
    struct cg_lgame *out, char *msg, size_t msgsize)
{
	uint32_t nc, *comp = lg_comps(g, x, 0, &nc), n, *q = lg_reach(g, x, &n);
	uint32_t *val = cg_xcalloc(g->n, sizeof *val), *members, *moff, i, c;
	uint32_t *at = cg_xcalloc(g->n, sizeof *at), *seen;
	uint32_t *track = cg_xcalloc(n ? n : 1, sizeof *track);
	struct cg_lgame arena;
	struct forms forms;
	int ret = -1;

	cg_lgame_init(&arena);
	memset(&forms, 0, sizeof forms);
	/* the members of each component, in one array */
	moff = cg_xcalloc((size_t)nc + 1, sizeof *moff);
	members = cg_xcalloc(n ? n : 1, sizeof *members);
	for (i = 0; i < n; i++)
		moff[comp[q[i]] + 1]++;
	for (c = 0; c < nc; c++)
		moff[c + 1] += moff[c];
	seen = cg_xcalloc((size_t)nc + 1, sizeof *seen);
	for (i = 0; i < n; i++)
		members[moff[comp[q[i]]] + seen[comp[q[i]]]++] = q[i];
	free(seen);
	for (c = 0; c < nc; c++) {
		struct cg_lgame lv;
		uint32_t m = moff[c + 1] - moff[c], j, k, v, t, top;
		int s;

		/* the component's nodes first, then the simplest forms of the
		 * targets of moves out of it */
		struct lg_map once;

		lg_poll();
		cg_lgame_init(&lv);
		lg_map_init(&once);
		for (j = 0; j < m; j++)
			at[members[moff[c] + j]] = cg_lgame_node(&lv);
		for (j = 0; j < m; j++) {
			v = members[moff[c] + j];
			for (s = 0; s < 2; s++)
				for (k = 0; k < g->v[v].nopt[s]; k++) {
					uint32_t *slot;
					int isnew;

					t = g->v[v].opt[s][k];
					if (comp[t] == c) {
						cg_lgame_edge(&lv, at[v], s, at[t]);
						continue;
					}
					/* one copy of each form per component */
					slot = lg_map_get(&once, val[t], &isnew);
					if (isnew)
						*slot = lg_graft(&lv, &arena, val[t]);
					cg_lgame_edge(&lv, at[v], s, *slot);
				}
		}
		lg_map_free(&once);
		if ((uint64_t)(lv.n + 1) * (lv.n + 1) > CG_LGAME_MAXPAIRS) {
			snprintf(msg, msgsize, "a stopper with a strongly "
			    "connected part of %u nodes (%u with the forms it "
			    "moves to): more than %llu pairs of nodes to order",
			    (unsigned)m, (unsigned)lv.n,
			    (unsigned long long)CG_LGAME_MAXPAIRS);
			cg_lgame_free(&lv);
			goto out;
		}
		/* one simplification for the whole component: a frozen node
		 * over its members reaches them all */
		top = cg_lgame_node(&lv);
		for (j = 0; j < m; j++) {
			track[j] = at[members[moff[c] + j]];
			cg_lgame_edge(&lv, top, CG_LEFT, track[j]);
		}
		lg_simplify_in_place(&lv, top, 1, track, m);
		for (j = 0; j < m; j++) {
			struct cg_lgame f;

			lg_copy_under(&lv, track[j], &f);
			val[members[moff[c] + j]] = intern(&arena, &forms, &f);
			cg_lgame_free(&f);
		}
		cg_lgame_free(&lv);
	}
	ret = cg_lgame_simplify(&arena, val[x], out, msg, msgsize);
out:
	for (i = 0; i < forms.n; i++)
		free(forms.text[i]);
	free(forms.text);
	free(forms.root);
	lg_map_free(&forms.byhash);
	cg_lgame_free(&arena);
	free(members);
	free(moff);
	free(comp);
	free(q);
	free(val);
	free(at);
	free(track);
	return ret;
}
