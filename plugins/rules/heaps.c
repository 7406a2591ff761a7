/*
 * heaps.c - sums of heaps ("3+4", plugins/lib/heaps.h), the take-and-
 * break rules of a rules file, and its parameters.
 *
 * A rule takes k counters from one heap (k from a list, a parameter, or
 * any k >= 1) and leaves the rest as j non-empty heaps, j from the rule's
 * 'leave' list (default 0,1: the rest as one heap, or nothing when k is
 * the whole heap), perhaps all different ('unequal') or all the same
 * ('equal').  A parameter of type code gives both k and j digit by digit:
 * bit j of digit k allows leaving j heaps (the octal and hexadecimal codes
 * of Winning Ways and CGSuite, "0.137", "4.7"; digit 0, before the point,
 * only splits).  Options: heaps in order, each heap's rules in file
 * order, k ascending, j ascending, the heaps left in increasing order; a
 * move is named "HEAP:LEFT" (1-based heap, the heaps left joined by '+',
 * or 0), as the compiled heap rulesets name theirs.
 *
 * When both players have the same moves (every rule 'both', or the
 * parameters make Left's and Right's the same) the game is impartial and
 * the "cg.heap-rules" extension describes it, so cg-outcome computes nim
 * sequences without building positions.
 *
 * A file with a rule that takes from several heaps at once ('from 2')
 * plays on tuples of heaps instead: each hook hands its work to
 * tuples.c, and no heap rules are exported (a tuple is no sum of heaps).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "takebreak.h"

#define MAX_HEAP 0x7fffffffu
#define MAX_TAKE 1000000u

/* Does the file play on tuples (tuples.c)? */
static int
tuples(const struct cg_context *cx)
{
	return ((const struct rstate *)cx->state)->r->tuples;
}

/* a rule's constraint is a take-and-break one */
_Static_assert((int)CONS_NONE == TB_NONE &&
    (int)CONS_UNEQUAL == TB_UNEQUAL && (int)CONS_EQUAL == TB_EQUAL,
    "rules.h's CONS_* are lib/takebreak.h's TB_*");

/* ------------------------------------------------------- parameters */

/* "D0.D1D2...": base-32 digits, each perhaps followed by '!' (the heaps
 * left all different) or '=' (all equal). */
int
heap_code_parse(const char *text, struct code *c, char *why, size_t whylen)
{
	size_t i = 0, n = strlen(text);
	int v;

	memset(c, 0, sizeof *c);
	if (n < 2 || (v = tb_digit(text[0])) < 0 || text[1] != '.') {
		snprintf(why, whylen, "bad code '%s' (expected a digit, '.', "
		    "then digits, such as 0.137 or 4.7)", text);
		return -1;
	}
	if (v & 3) {
		snprintf(why, whylen, "bad code '%s': the digit before the "
		    "point only splits heaps (0, 4, 8, ...)", text);
		return -1;
	}
	c->digit[0] = (uint32_t)v;
	for (i = 2; i < n; i++) {
		if (text[i] == '!' || text[i] == '=') {
			if (text[i - 1] == '.' || text[i - 1] == '!' ||
			    text[i - 1] == '=') {
				snprintf(why, whylen, "bad code '%s': '%c' "
				    "follows no digit", text, text[i]);
				return -1;
			}
			c->cons[c->n] = text[i] == '!' ? CONS_UNEQUAL :
			    CONS_EQUAL;
			continue;
		}
		if ((v = tb_digit(text[i])) < 0) {
			snprintf(why, whylen, "bad code '%s': '%c' is not a "
			    "digit (0-9, A-V)", text, text[i]);
			return -1;
		}
		if (c->n == MAX_CODE) {
			snprintf(why, whylen, "code '%s' too long (at most %d "
			    "digits)", text, MAX_CODE);
			return -1;
		}
		c->digit[++c->n] = (uint32_t)v;
	}
	if (text[1] == '.' && (text[0] != '0' || c->n > 0))
		return 0;
	snprintf(why, whylen, "bad code '%s': no digits after the point",
	    text);
	return -1;
}

static int
param_value(const struct cg_host *h, const struct rules *r, int i,
    const char *text, struct rstate *st, struct cg_error *err)
{
	const struct param *p = &r->param[i];
	char why[300];
	size_t len = strlen(text), k = 0, m = 0, q;
	uint32_t v, *set;

	if (p->type == PARAM_CODE) {
		st->pcode[i] = h->alloc(sizeof *st->pcode[i]);
		if (st->pcode[i] == NULL)
			return CG_ENOMEM;
		if (heap_code_parse(text, st->pcode[i], why, sizeof why) < 0)
			return h->error(err, 0, "%s: %s", p->name, why);
		return CG_OK;
	}
	set = h->alloc(MAX_SET * sizeof *set);
	if (set == NULL)
		return CG_ENOMEM;
	st->pset[i] = set;
	for (;;) {
		if (k == len || !is_digit(text[k]) ||
		    read_uint(text, len, &k, MAX_TAKE, &v) < 0 || v == 0)
			return h->error(err, 0, "%s: expected %s (1..%u), found "
			    "'%s'", p->name, p->type == PARAM_NUMBER ?
			    "a number" : "numbers separated by ','",
			    MAX_TAKE, text);
		if (m == MAX_SET)
			return h->error(err, 0, "%s: too many numbers (at most "
			    "%d)", p->name, MAX_SET);
		set[m++] = v;
		if (k == len)
			break;
		if (text[k] != ',' || p->type == PARAM_NUMBER)
			return h->error(err, 0, "%s: unexpected '%c' in '%s'",
			    p->name, text[k], text);
		k++;
	}
	/* sort, no duplicates */
	for (k = 1; k < m; k++)
		for (q = k; q > 0 && set[q - 1] > set[q]; q--) {
			v = set[q];
			set[q] = set[q - 1];
			set[q - 1] = v;
		}
	for (k = 0, q = 0; k < m; k++)
		if (q == 0 || set[q - 1] != set[k])
			set[q++] = set[k];
	st->npset[i] = q;
	return CG_OK;
}

static void heap_tables(const struct cg_host *h, const struct rules *r,
    struct rstate *st);

/* PARAMS: the values in declaration order, separated by '/'; values
 * left out take their defaults. */
int
heap_params(const struct cg_host *h, const struct rules *r,
    const char *params, struct rstate *st, struct cg_error *err)
{
	const char *part[MAX_PARAMS + 1], *s;
	size_t plen[MAX_PARAMS + 1];
	char text[4096];
	int i, n = 0, rc;

	if (params != NULL && *params != '\0')
		for (s = params;; s++) {
			const char *slash = strchr(s, '/');

			if (n == MAX_PARAMS || n == r->nparam)
				return h->error(err, 0, "too many values in "
				    "'%s': the rules take %d", params,
				    r->nparam);
			part[n] = s;
			plen[n++] = slash ? (size_t)(slash - s) : strlen(s);
			if (slash == NULL)
				break;
			s = slash;
		}
	for (i = 0; i < r->nparam; i++) {
		const struct param *p = &r->param[i];

		if (i < n) {
			if (plen[i] == 0 || plen[i] >= sizeof text)
				return h->error(err, 0, "%s value for '%s'",
				    plen[i] ? "too long a" : "empty", p->name);
			memcpy(text, part[i], plen[i]);
			text[plen[i]] = '\0';
		} else if (p->dflt >= 0) {
			/* the value of an earlier parameter */
			if (st->pcode[p->dflt] != NULL) {
				st->pcode[i] = h->alloc(sizeof *st->pcode[i]);
				if (st->pcode[i] == NULL)
					return CG_ENOMEM;
				*st->pcode[i] = *st->pcode[p->dflt];
			} else {
				st->pset[i] = h->alloc(MAX_SET *
				    sizeof *st->pset[i]);
				if (st->pset[i] == NULL)
					return CG_ENOMEM;
				memcpy(st->pset[i], st->pset[p->dflt],
				    st->npset[p->dflt] * sizeof *st->pset[i]);
				st->npset[i] = st->npset[p->dflt];
			}
			continue;
		} else if (p->dflt_text != NULL) {
			snprintf(text, sizeof text, "%s", p->dflt_text);
		} else {
			return h->error(err, 0, "missing value for '%s' (the "
			    "parameters are %d value%s separated by '/')",
			    p->name, r->nparam, r->nparam == 1 ? "" : "s");
		}
		if ((rc = param_value(h, r, i, text, st, err)) < 0)
			return rc;
	}
	{
		struct cg_context cx = { h, st, err };

		if ((rc = measure_check_heaps(&cx, r, st)) < 0)
			return rc;
	}
	heap_tables(h, r, st);
	return CG_OK;
}

void
heap_params_free(const struct cg_host *h, struct rstate *st)
{
	int i;

	for (i = 0; i < MAX_PARAMS; i++) {
		h->free(st->pset[i]);
		h->free(st->pcode[i]);
	}
	h->free(st->hmask);
	h->free(st->hflags);
}

/* ------------------------------------------------------------ moves */

/* Every move of side on a heap of n counters. */
static int
heap_moves(const struct rules *r, const struct rstate *st, uint32_t n,
    enum cg_side side, struct tb_gen *g)
{
	int i, bit = side == CG_LEFT ? SIDE_LEFT : SIDE_RIGHT, rc;
	size_t q, na;
	uint32_t k;

	for (i = 0; i < r->nrule; i++) {
		const struct rule *ru = &r->rule[i];
		const uint32_t *amt;

		if (!(ru->side & bit))
			continue;
		if (ru->amt_kind == AMT_ANY) {
			for (k = 1; k <= n; k++)
				if ((rc = tb_take(g, n, k, ru->leave,
				    ru->cons)))
					return rc;
			continue;
		}
		if (ru->amt_kind == AMT_PARAM &&
		    st->pcode[ru->amt_param] != NULL) {
			const struct code *c = st->pcode[ru->amt_param];

			for (q = 0; q <= c->n && q <= n; q++)
				if (c->digit[q] && (rc = tb_take(g, n,
				    (uint32_t)q, c->digit[q], c->cons[q])))
					return rc;
			continue;
		}
		amt = ru->amt_kind == AMT_LIST ? ru->amt :
		    st->pset[ru->amt_param];
		na = ru->amt_kind == AMT_LIST ? ru->namt :
		    st->npset[ru->amt_param];
		for (q = 0; q < na && amt[q] <= n; q++)
			if ((rc = tb_take(g, n, amt[q], ru->leave,
			    ru->cons)))
				return rc;
	}
	return 0;
}

int
heap_hooks_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	struct rstate *st = cx->state;
	struct tb_opt o;
	size_t i;
	int rc;

	if (tuples(cx))
		return tuple_hooks_options(cx, pos, len, side, emit, ctx);
	if ((rc = heaps_check(cx, pos, len, MAX_HEAP)) < 0)
		return rc;
	if ((rc = state_child(cx, len + 4 * TB_MAX_PARTS)) < 0)
		return rc;
	memset(&o, 0, sizeof o);
	o.g.fn = tb_emit_move;
	o.pos = pos;
	o.len = len;
	o.child = st->child;
	o.emit = emit;
	o.ctx = ctx;
	for (i = 0, rc = 0; i < len / 4 && rc == 0; i++) {
		o.heap = i;
		rc = heap_moves(st->r, st, get32(pos + i * 4), side, &o.g);
	}
	return rc ? CG_STOP : CG_OK;
}

/* Has anybody a move on a heap of n? */
static int
heap_live(const struct cg_context *cx, uint32_t n)
{
	const struct rstate *st = cx->state;
	struct tb_gen g;

	memset(&g, 0, sizeof g);
	g.fn = tb_found;
	return heap_moves(st->r, st, n, CG_LEFT, &g) ||
	    heap_moves(st->r, st, n, CG_RIGHT, &g);
}

int
heap_hooks_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	if (tuples(cx))
		return tuple_hooks_parse(cx, text, len, out);
	return heaps_parse(cx, text, len, out, MAX_HEAP);
}

int
heap_hooks_print(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	if (tuples(cx))
		return tuple_hooks_print(cx, pos, len, out);
	return heaps_print(cx, pos, len, out, MAX_HEAP);
}

int
heap_hooks_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	if (tuples(cx))
		return tuple_hooks_canonical(cx, pos, len, out);
	return heaps_canonical(cx, pos, len, out, MAX_HEAP, heap_live);
}

int
heap_hooks_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	if (tuples(cx))
		return tuple_hooks_decompose(cx, pos, len, emit, ctx);
	return heaps_decompose(cx, pos, len, emit, ctx, MAX_HEAP, heap_live);
}

int
heap_hooks_enumerate(const struct cg_context *cx, const char *family,
    cg_emit_fn emit, void *ctx)
{
	if (tuples(cx))
		return tuple_hooks_enumerate(cx, family, emit, ctx);
	return heaps_enumerate(cx, family, emit, ctx);
}

/* ------------------------------------------------------- impartial */

/* One player's moves as heap-rules tables: mask[k], the constraint of
 * each k (-1 none seen), and the tail for 'any'.  0, or -1 when two
 * rules give one k different constraints (not expressible). */
struct table {
	uint32_t *mask;
	int *cons;
	uint32_t max, tail;
	int tail_cons;
};

static int
note(struct table *t, uint32_t k, uint32_t bits, int cons)
{
	t->mask[k] |= bits;
	if (bits & ~3u) {
		if (t->cons[k] >= 0 && t->cons[k] != cons)
			return -1;
		t->cons[k] = cons;
	}
	return 0;
}

static int
fill(const struct rules *r, const struct rstate *st, int bit,
    struct table *t)
{
	uint32_t k;
	size_t q;
	int i, bad = 0;

	for (k = 0; k <= t->max; k++) {
		t->mask[k] = 0;
		t->cons[k] = -1;
	}
	t->tail = 0;
	t->tail_cons = CONS_NONE;
	for (i = 0; i < r->nrule; i++) {
		const struct rule *ru = &r->rule[i];

		if (!(ru->side & bit))
			continue;
		if (ru->amt_kind == AMT_ANY) {
			t->tail |= ru->leave;
			t->tail_cons = ru->cons;
			for (k = 1; k <= t->max; k++)
				bad |= note(t, k, ru->leave, ru->cons);
		} else if (ru->amt_kind == AMT_PARAM &&
		    st->pcode[ru->amt_param] != NULL) {
			const struct code *c = st->pcode[ru->amt_param];

			for (q = 0; q <= c->n; q++)
				bad |= note(t, (uint32_t)q, c->digit[q],
				    c->cons[q]);
		} else {
			const uint32_t *amt = ru->amt_kind == AMT_LIST ?
			    ru->amt : st->pset[ru->amt_param];
			size_t na = ru->amt_kind == AMT_LIST ? ru->namt :
			    st->npset[ru->amt_param];

			for (q = 0; q < na; q++)
				bad |= note(t, amt[q], ru->leave, ru->cons);
		}
	}
	return bad ? -1 : 0;
}

/* The largest amount any rule names. */
static uint32_t
max_amount(const struct rules *r, const struct rstate *st)
{
	uint32_t max = 0;
	int i;

	for (i = 0; i < r->nrule; i++) {
		const struct rule *ru = &r->rule[i];

		if (ru->amt_kind == AMT_LIST && ru->namt > 0 &&
		    ru->amt[ru->namt - 1] > max)
			max = ru->amt[ru->namt - 1];
		if (ru->amt_kind == AMT_PARAM) {
			if (st->pcode[ru->amt_param] != NULL) {
				if (st->pcode[ru->amt_param]->n > max)
					max = (uint32_t)
					    st->pcode[ru->amt_param]->n;
			} else if (st->npset[ru->amt_param] > 0 &&
			    st->pset[ru->amt_param][st->npset[ru->amt_param] -
			    1] > max) {
				max = st->pset[ru->amt_param]
				    [st->npset[ru->amt_param] - 1];
			}
		}
	}
	return max;
}

/* The heaps of a position, for the extension's heaps(): the host values
 * a sum as the XOR of its heaps' nim values. */
static int
heap_each(const struct cg_context *cx, const unsigned char *pos, size_t len,
    cg_heap_fn fn, void *ctx)
{
	return heaps_each(cx, pos, len, fn, ctx, MAX_HEAP);
}

static void
heap_tables(const struct cg_host *h, const struct rules *r, struct rstate *st)
{
	struct table t[2];
	uint32_t k;
	int ok[2], s;

	if (r->tuples) {
		/* searched as a game, not as heaps */
		st->heap_impartial = tuple_impartial(r, st);
		return;
	}
	memset(t, 0, sizeof t);
	t[0].max = t[1].max = max_amount(r, st);
	for (s = 0; s < 2; s++) {
		t[s].mask = h->alloc((t[s].max + 1) * sizeof *t[s].mask);
		t[s].cons = h->alloc((t[s].max + 1) * sizeof *t[s].cons);
		if (t[s].mask == NULL || t[s].cons == NULL)
			goto done;  /* no extension: still correct */
		ok[s] = fill(r, st, s ? SIDE_RIGHT : SIDE_LEFT, &t[s]) == 0;
	}
	st->heap_impartial = r->impartial || (t[0].tail == t[1].tail &&
	    t[0].tail_cons == t[1].tail_cons &&
	    memcmp(t[0].mask, t[1].mask, (t[0].max + 1) *
	    sizeof *t[0].mask) == 0 && memcmp(t[0].cons, t[1].cons,
	    (t[0].max + 1) * sizeof *t[0].cons) == 0);
	if (!st->heap_impartial || !ok[0])
		goto done;
	st->hmask = t[0].mask;
	st->hflags = h->alloc((t[0].max + 1) * sizeof *st->hflags);
	if (st->hflags == NULL) {
		st->hmask = NULL;
		goto done;
	}
	t[0].mask = NULL;
	for (k = 0; k <= t[0].max; k++)
		st->hflags[k] = tb_heap_flags(t[0].cons[k]);
	st->hrules.struct_size = sizeof st->hrules;
	st->hrules.max_take = t[0].max;
	st->hrules.mask = st->hmask;
	st->hrules.flags = st->hflags;
	st->hrules.tail_mask = t[0].tail;
	st->hrules.tail_flags = tb_heap_flags(t[0].tail_cons);
	st->hrules.heaps = heap_each;
	st->has_hrules = 1;
done:
	for (s = 0; s < 2; s++) {
		h->free(t[s].mask);
		h->free(t[s].cons);
	}
}

const void *
heap_hooks_extension(const struct cg_context *cx, const char *name)
{
	const struct rstate *st = cx->state;

	if (st == NULL || !st->heap_impartial)
		return NULL;
	if (strcmp(name, CG_EXT_HEAP_RULES) == 0)
		return st->has_hrules ? &st->hrules : NULL;
	if (strcmp(name, CG_EXT_IMPARTIAL) == 0)
		return st;
	return NULL;
}

/* The file's measure: a heap of n weighs a*n + b (never negative). */
int
heap_hooks_measure(const struct cg_context *cx, const unsigned char *pos,
    size_t len, uint64_t *m)
{
	const struct rstate *st = cx->state;
	const struct rules *r = st->r;
	int64_t a = 0, b = 0, total = 0;
	size_t i;
	int t, rc;

	for (t = 0; t < r->nterm; t++)
		if (r->term[t].what == 0)
			a += r->term[t].coef;
		else
			b += r->term[t].coef;
	if (r->tuples)
		return tuple_hooks_measure(cx, pos, len, a, b, m);
	if ((rc = heaps_check(cx, pos, len, MAX_HEAP)) < 0)
		return rc;
	for (i = 0; i < len; i += 4)
		total += a * (int64_t)get32(pos + i) + b;
	*m = (uint64_t)total;
	return CG_OK;
}
