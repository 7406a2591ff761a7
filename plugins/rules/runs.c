/*
 * runs.c - a strip of one kind of run is a take-and-break game.
 *
 * When a strip's cells are a wall c (its 'components' cell) and one
 * other cell x, every component is a run of x, so a position is a sum of
 * heaps: the run lengths.  When moreover every rule is "both", reads x
 * alone (no class, no group), but for [c|] at either end, and turns one
 * contiguous stretch of its x into c, a rule is a take of that
 * stretch's length k from a run, leaving what lies before and after it.  Say the pattern keeps s
 * cells before the stretch and t after it.  Matched at offset i of a run
 * of n, it leaves runs a = i + s and b = n - k - a, with a >= s, b >= t.
 * For s, t <= 1 those are exactly the moves of a take-and-break digit:
 * every way of leaving the n - k counters as two non-empty heaps
 * (a, b >= 1 >= s, t), one non-empty heap when s or t is 0 (a = 0 or
 * b = 0), and none when both are (n = k).  A pattern that keeps two or
 * more cells on one side asks for heaps of at least two, which no digit
 * says, and leaves the file as it is.  [c|] beside the stretch asks
 * that nothing of the run lies on that side: a lone pin, [c|] x [c|],
 * is a take of 1 leaving nothing, digit 1, and [c|] x x -> = . . takes
 * two at an end, leaving none or one heap, digit 3 (Dawson's chess,
 * 0.137).
 *
 * The digits of all rules, or-ed take by take, are exported as the
 * "cg.heap-rules" extension with a heaps() hook listing the runs: the
 * host then values runs from the nim sequence, which it computes once
 * and extends by a proven period, as it does for octal codes, and no
 * position of the strip is searched.  The direction a pattern reads in
 * does not matter: the mirror of a move leaves the same two runs.
 */
#include <string.h>

#include "rules.h"

static int
is_only(const struct cellset *s, unsigned char c)
{
	struct cellset one;

	memset(&one, 0, sizeof one);
	cs_add(&one, c);
	return memcmp(s, &one, sizeof one) == 0;
}

/* Is e the end of a run: the wall or the edge, left as it is? */
static int
is_end(const struct elem *e, int wall)
{
	return e->edge && is_only(&e->match, (unsigned char)wall) &&
	    (e->write < 0 || e->write == wall);
}

/* The digit of one rule for a run of x (bits 0, 1, 2 as in a
 * take-and-break code), its take in *take; 0 when the rule is no take.
 * Each side of the stretch is free (the pattern keeps s <= 1 cells of x
 * there, so that side's run is any length >= s) or anchored ([c|] next
 * to the stretch: that side's run is empty). */
static uint32_t
rule_digit(const struct rule *ru, int wall, unsigned char x, uint32_t *take)
{
	int k, lo = 0, hi = ru->ne - 1, first = -1, last = -1;
	int zero[2], some[2], kept[2], anchored[2];

	if (ru->side != SIDE_BOTH || ru->ng > 0 || ru->ne == 0)
		return 0;
	anchored[0] = is_end(&ru->e[0], wall);
	anchored[1] = ru->ne > 1 && is_end(&ru->e[ru->ne - 1], wall);
	lo += anchored[0];
	hi -= anchored[1];
	for (k = lo; k <= hi; k++) {
		const struct elem *e = &ru->e[k];

		if (e->edge || !is_only(&e->match, x))
			return 0;
		if (e->write == wall) {
			if (last >= 0 && last != k - 1)
				return 0;       /* two stretches */
			if (first < 0)
				first = k;
			last = k;
		} else if (e->write >= 0 && e->write != x) {
			return 0;
		}
	}
	if (first < 0)
		return 0;
	kept[0] = first - lo;
	kept[1] = hi - last;
	for (k = 0; k < 2; k++) {
		if (kept[k] > (anchored[k] ? 0 : 1))
			return 0;
		zero[k] = anchored[k] || kept[k] == 0;  /* may leave 0 */
		some[k] = !anchored[k];                 /* may leave >= 1 */
	}
	*take = (uint32_t)(last - first + 1);
	return (zero[0] && zero[1] ? 1u : 0) |
	    ((zero[0] && some[1]) || (some[0] && zero[1]) ? 2u : 0) |
	    (some[0] && some[1] ? 4u : 0);
}

void
runs_derive(struct rules *r)
{
	struct runs *u = &r->runs;
	unsigned char x = 0;
	uint32_t take, digit;
	int i, ncell = (int)strlen(r->cells);

	memset(u, 0, sizeof *u);
	if (r->kind != BOARD_STRIP || r->wall < 0 || !r->impartial ||
	    ncell != 2 || r->nrule == 0)
		return;
	x = (unsigned char)(r->cells[0] == r->wall ? r->cells[1] :
	    r->cells[0]);
	for (i = 0; i < r->nrule; i++) {
		digit = rule_digit(&r->rule[i], r->wall, x, &take);
		if (digit == 0)
			return;
		u->mask[take] |= digit;
		if (take > u->max_take)
			u->max_take = take;
	}
	u->cell = x;
	u->ok = 1;
}

/* heaps(): the runs of x in a strip (the position's bytes: 1, columns,
 * cells; see grid.h). */
static int
runs_each(const struct cg_context *cx, const unsigned char *pos, size_t len,
    cg_heap_fn fn, void *ctx)
{
	const struct rstate *st = cx->state;
	const struct rules *r = st->r;
	size_t i, run = 0;

	if (len < 2 || pos[0] != 1 || len != 2 + (size_t)pos[1])
		return cx->host->error(cx->err, 0, "not a strip position");
	for (i = 2; i < len; i++) {
		if (pos[i] == r->runs.cell) {
			run++;
			continue;
		}
		if (pos[i] != (unsigned char)r->wall)
			return cx->host->error(cx->err, 0, "cell '%c' is "
			    "not in the strip's alphabet", pos[i]);
		if (run > 0)
			fn(ctx, run);
		run = 0;
	}
	if (run > 0)
		fn(ctx, run);
	return CG_OK;
}

void
runs_init(struct rstate *st)
{
	const struct runs *u = &st->r->runs;

	if (!u->ok)
		return;
	st->hrules.struct_size = sizeof st->hrules;
	st->hrules.max_take = u->max_take;
	st->hrules.mask = u->mask;
	st->hrules.flags = u->flags;
	st->hrules.heaps = runs_each;
	st->has_hrules = 1;
}

const void *
runs_hooks_extension(const struct cg_context *cx, const char *name)
{
	const struct rstate *st = cx->state;

	if (st == NULL || !st->has_hrules)
		return NULL;
	if (strcmp(name, CG_EXT_HEAP_RULES) == 0)
		return &st->hrules;
	return NULL;
}
