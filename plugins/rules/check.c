/*
 * check.c - the whole-file checks of a rules file, once it is read: that
 * with components every rule keeps within a component, and that the
 * declared symmetries map each player's rules (and their conditions) onto
 * rules of the same player.
 */
#include <string.h>

#include "rules.h"


/*
 * With components: a rule may look at the separating cell or the edge
 * only with its first or last element, matching both alike and changing
 * neither, so that a component cut out of its board (the box around it
 * filled with separators) plays as it did in place: the square before or
 * after a component's cell along a line is the separator or the edge in
 * place, and in the box the separator or the box's edge.  A separator
 * read inside a pattern would make one move of two components, whose
 * sum is then no longer the position: such a file is refused.
 */
int
rules_check_components(const struct cg_host *h, struct rules *r,
    struct cg_error *err)
{
	int i, k;

	for (i = 0; i < r->nrule; i++) {
		const struct rule *ru = &r->rule[i];

		for (k = 0; k < ru->ne; k++) {
			const struct elem *x = &ru->e[k];
			int sep = cs_has(&x->match, (unsigned char)r->wall);

			if (!sep && !x->edge)
				continue;
			if ((k == 0 || k == ru->ne - 1) && ru->gof[k] < 0 &&
			    sep && x->edge && x->write < 0)
				continue;
			if (k > 0 && k < ru->ne - 1)
				return rules_error(h, err, ru->line, "with "
				    "'components %c', a pattern may look at "
				    "'%c' or the edge only at its ends: a move "
				    "reading '%c' between cells would join two "
				    "components", r->wall, r->wall, r->wall);
			return rules_error(h, err, ru->line, "with 'components "
			    "%c', a pattern may look at '%c' or the edge only "
			    "in its first or last element, as [%c|] left "
			    "unchanged", r->wall, r->wall, r->wall);
		}
	}
	return CG_OK;
}

/* The image of direction d under board symmetry k (grid.h numbering:
 * bit 2 transposes, bit 1 flips rows, bit 0 flips columns). */
static int
sym_dir(int k, int d)
{
	int dr = dir_dr[d], dc = dir_dc[d], t, e;

	if (k & 4) {
		t = dr;
		dr = dc;
		dc = t;
	}
	if (k & 2)
		dr = -dr;
	if (k & 1)
		dc = -dc;
	for (e = 0; e < D_COUNT; e++)
		if (dir_dr[e] == dr && dir_dc[e] == dc)
			return e;
	return d;
}

static int
opposite(int d)
{
	return sym_dir(3, d);
}

/* A key for (rule, direction) up to reading the pattern backwards along
 * the opposite direction, which gives the same moves. */
static void
move_key(const struct rule *ru, int d, int rev, unsigned char *key,
    size_t *klen)
{
	size_t n = 0;
	int i, j, g;

	/* a pattern of one cell, without repetition, reads no direction */
	key[n++] = (unsigned char)(ru->ne == 1 && ru->ng == 0 ? D_COUNT :
	    rev ? opposite(d) : d);
	for (j = 0; j < ru->ne; j++) {
		i = rev ? ru->ne - 1 - j : j;
		memcpy(key + n, &ru->e[i].match, sizeof ru->e[i].match);
		n += sizeof ru->e[i].match;
		key[n++] = (unsigned char)ru->e[i].edge;
		key[n++] = (unsigned char)(ru->e[i].write + 1);
		g = ru->gof[i];
		key[n++] = (unsigned char)(g < 0 ? 0 : 1 + ru->g[g].min);
		/* group boundaries as seen in this reading order */
		key[n++] = (unsigned char)(g >= 0 && (rev ? i == ru->g[g].first +
		    ru->g[g].count - 1 : i == ru->g[g].first));
	}
	*klen = n;
}

#define KEY_MAX (1 + MAX_ELEMS * (sizeof(struct cellset) + 4))

/* Does condition pattern c read along some direction, either way, give
 * key? */
static int
cond_has(const struct rule *c, const unsigned char *key, size_t klen)
{
	unsigned char k2[KEY_MAX];
	size_t n2;
	int j, rev;

	for (j = 0; j < c->ndirs; j++)
		for (rev = 0; rev < 2; rev++) {
			move_key(c, c->dirs[j], rev, k2, &n2);
			if (n2 == klen && memcmp(k2, key, n2) == 0)
				return 1;
		}
	return 0;
}

/* Is condition a seen through symmetry k the condition b: the same
 * pattern read along the images of a's directions as along b's? */
static int
cond_image(const struct rule *a, int k, const struct rule *b)
{
	unsigned char key[KEY_MAX];
	size_t klen;
	int j, e, found;

	for (j = 0; j < a->ndirs; j++) {
		move_key(a, sym_dir(k, a->dirs[j]), 0, key, &klen);
		if (!cond_has(b, key, klen))
			return 0;
	}
	for (j = 0; j < b->ndirs; j++) {
		move_key(b, b->dirs[j], 0, key, &klen);
		for (e = 0, found = 0; e < a->ndirs && !found; e++) {
			unsigned char k2[KEY_MAX];
			size_t n2;
			int rev;

			for (rev = 0; rev < 2 && !found; rev++) {
				move_key(a, sym_dir(k, a->dirs[e]), rev, k2,
				    &n2);
				found = n2 == klen && memcmp(k2, key, n2) == 0;
			}
		}
		if (!found)
			return 0;
	}
	return 1;
}

/* Are src's conditions, seen through symmetry k, those of ru? */
static int
same_conds(const struct rules *r, const struct rule *src, int k,
    const struct rule *ru)
{
	int i, j, found;

	if (src == NULL)
		return 1;       /* conditions not compared */
	if (src->ncond != ru->ncond)
		return 0;
	for (i = 0; i < src->ncond; i++) {
		for (j = 0, found = 0; j < ru->ncond && !found; j++)
			found = src->cond[i].negate == ru->cond[j].negate &&
			    cond_image(&r->cond[src->cond[i].pat], k,
			    &r->cond[ru->cond[j].pat]);
		if (!found)
			return 0;
	}
	return 1;
}

/* Has side a rule that reads key, with src's conditions seen through
 * symmetry k? */
static int
has_move(const struct rules *r, int side, const unsigned char *key,
    size_t klen, const struct rule *src, int k)
{
	unsigned char k2[KEY_MAX];
	size_t n2;
	int i, j, rev;

	for (i = 0; i < r->nrule; i++) {
		const struct rule *ru = &r->rule[i];

		if (!(ru->side & side) || !same_conds(r, src, k, ru))
			continue;
		for (j = 0; j < ru->ndirs; j++)
			for (rev = 0; rev < 2; rev++) {
				move_key(ru, ru->dirs[j], rev, k2, &n2);
				if (n2 == klen && memcmp(k2, key, n2) == 0)
					return 1;
			}
	}
	return 0;
}

/* Each generator of the declared symmetries maps every move of each
 * player onto a move of the same player. */
int
rules_check_symmetry(const struct cg_host *h, struct rules *r,
    struct cg_error *err)
{
	static const int gens[3] = { 1, 2, 4 };
	static const char *const what[3] = { "left-right mirror",
		"up-down mirror", "transposition" };
	unsigned char key[KEY_MAX];
	size_t klen;
	int gi, i, j, side;

	for (gi = 0; gi < 3 && (1u << (gi + 1)) <= r->nsym; gi++)
		for (i = 0; i < r->nrule; i++) {
			const struct rule *ru = &r->rule[i];

			for (side = SIDE_LEFT; side <= SIDE_RIGHT; side++) {
				if (!(ru->side & side))
					continue;
				for (j = 0; j < ru->ndirs; j++) {
					move_key(ru, sym_dir(gens[gi],
					    ru->dirs[j]), 0, key, &klen);
					if (has_move(r, side, key, klen, ru,
					    gens[gi]))
						continue;
					if (has_move(r, side, key, klen, NULL,
					    0))
						return rules_error(h, err,
						    ru->line, "the symmetry "
						    "does not hold: the %s "
						    "turns this rule's "
						    "conditions into others",
						    what[gi]);
					return rules_error(h, err, ru->line,
					    "the symmetry does not hold: the "
					    "%s turns this rule along %s into "
					    "one along %s, which %s does not "
					    "have", what[gi],
					    dir_name[ru->dirs[j]],
					    dir_name[sym_dir(gens[gi],
					    ru->dirs[j])], side == SIDE_LEFT ?
					    "Left" : "Right");
				}
			}
		}
	return CG_OK;
}

size_t
rules_pattern_key(const struct rule *ru, int d, int rev, unsigned char *key)
{
	size_t n;

	move_key(ru, d, rev, key, &n);
	return n;
}

int
rules_sym_dir(int k, int d)
{
	return sym_dir(k, d);
}
