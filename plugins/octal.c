/*
 * octal.c - take-and-break games given by a code (octal, hexadecimal and
 * CGSuite's extended codes).  Impartial.
 *
 * Parameter: the code D0.D1D2...Dp[Dp+1...Dq], e.g. "0.77" (Kayles),
 * or D0 alone for D0. ("4", as published tables write "4."),
 * "0.07" (Dawson's Kayles), "0.137", "0.3F", "4.3", "4!.0" (Grundy's
 * game), "0.[3]" (Nim).  Digit Dk (k counters taken from one heap) is a
 * base-32 digit (0-9, A-V, either case) whose bit j allows leaving the
 * rest as exactly j non-empty heaps: 1 = take the whole heap, 2 = leave
 * one heap, 4 = leave two heaps, 8 = three, 16 = four.  D0, the single
 * digit before the point, takes nothing and only splits (its bit 1, a
 * move to the same heap, is refused).  A digit may be followed by a
 * constraint on the heaps it leaves (when two or more): '!' pairwise
 * different, '=' all equal, '?' not all equal; so "4!.0" splits a heap
 * into two unequal heaps.  Digits in brackets at the end repeat for ever:
 * Dk for k > q is D(p + 1 + (k - p - 1) mod (q - p)).  Not supported:
 * more than one digit before the point (CGSuite's "additive" digits),
 * '*', '{...}' and '&N;' digits.
 *
 * Text: heap sizes joined by '+' ("3+4"), "0" for no heaps.  A move's
 * name is "HEAP:LEFT" where LEFT lists the heaps left in place of that
 * heap, smallest first, joined by '+' ("2:1+3"), or 0.
 *
 * Exports "cg.heap-rules" when the code fits it (no '?' and a period of
 * at most one digit; a code that is Nim's, such as 0.[3], declares Nim's
 * sequence) and "cg.impartial".  canonical() sorts the heaps and
 * drops heaps without moves (worth 0); decompose() emits each live heap;
 * enumerate("N") gives the heaps 1..N.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/heaprules.h"
#include "cg/impartial.h"
#include "cg/ruleset.h"
#include "takebreak.h"

#define MAX_HEAP 0x7fffffffu
#define MAX_DIGITS 1024

struct digit {
	uint32_t mask;
	int constraint; /* TB_NONE, TB_UNEQUAL, TB_EQUAL or TB_SOME */
};

struct octal_state {
	struct digit d[MAX_DIGITS + 1]; /* d[0] = D0, then D1..Dq */
	size_t pre;    /* p: digits after the point before '[' */
	size_t period; /* q - p */
	int has_rules;
	uint32_t mask[MAX_DIGITS + 1], flags[MAX_DIGITS + 1];
	struct cg_heap_rules rules;
};

static const struct digit *
digit(const struct octal_state *s, uint64_t k)
{
	static const struct digit zero = { 0, TB_NONE };

	if (k <= s->pre)
		return &s->d[k];
	if (s->period == 0)
		return &zero;
	return &s->d[s->pre + 1 + (k - s->pre - 1) % s->period];
}

/* Read a digit and its constraint at code[*i] into *d. */
static int
read_digit(const struct cg_host *h, const char *code, size_t *i,
    struct digit *d, struct cg_error *err)
{
	int v = tb_digit(code[*i]);

	if (v < 0) {
		if (code[*i] == '*' || code[*i] == '{' || code[*i] == '&')
			return h->error(err, *i + 1, "'%c' digits are not "
			    "supported", code[*i]);
		return h->error(err, *i + 1, "expected a digit (0-9, A-V), "
		    "found '%c'", code[*i]);
	}
	d->mask = (uint32_t)v;
	d->constraint = TB_NONE;
	(*i)++;
	switch (code[*i]) {
	case '!':
		d->constraint = TB_UNEQUAL;
		(*i)++;
		break;
	case '=':
		d->constraint = TB_EQUAL;
		(*i)++;
		break;
	case '?':
		d->constraint = TB_SOME;
		(*i)++;
		break;
	}
	return CG_OK;
}

static void
octal_fini(const struct cg_host *host, void *state)
{
	host->free(state);
}

static int
parse_code(const struct cg_host *h, const char *code,
    struct octal_state *s, struct cg_error *err)
{
	size_t i = 0, n = 0, len = strlen(code);
	int rc, inper = 0;

	if (len == 0)
		return h->error(err, 1, "empty code (write e.g. 0.77)");
	if (code[0] == '.')
		return h->error(err, 1, "expected a digit before the point");
	if ((rc = read_digit(h, code, &i, &s->d[0], err)) < 0)
		return rc;
	if (s->d[0].mask & 2)
		return h->error(err, 1, "the digit before the point may not "
		    "allow one heap (2): that move would be a pass");
	if (code[i] == '\0') {
		/* "4" as published tables write "4.": no takes at all */
		s->pre = 0;
		return CG_OK;
	}
	if (code[i] != '.') {
		if (tb_digit(code[i]) >= 0)
			return h->error(err, i + 1, "only one digit before the "
			    "point is supported");
		return h->error(err, i + 1, code[i] ? "expected '.', found "
		    "'%c'" : "expected '.', found the end", code[i]);
	}
	i++;
	while (i < len) {
		if (code[i] == '[') {
			if (inper)
				return h->error(err, i + 1, "nested '['");
			inper = 1;
			s->pre = n;
			i++;
			continue;
		}
		if (code[i] == ']') {
			if (!inper)
				return h->error(err, i + 1, "']' without '['");
			if (i + 1 != len)
				return h->error(err, i + 2, "']' must end the "
				    "code");
			if (n == s->pre)
				return h->error(err, i + 1, "empty period");
			s->period = n - s->pre;
			inper = 2;
			i++;
			continue;
		}
		if (n == MAX_DIGITS)
			return h->error(err, i + 1, "code too long (at most "
			    "%d digits)", MAX_DIGITS);
		if ((rc = read_digit(h, code, &i, &s->d[n + 1], err)) < 0)
			return rc;
		n++;
	}
	if (inper == 1)
		return h->error(err, len + 1, "missing ']'");
	if (inper == 0)
		s->pre = n;
	return CG_OK;
}

static const uint32_t nim_values[1] = { 0 };

static int
octal_heaps(const struct cg_context *cx, const unsigned char *pos, size_t len,
    cg_heap_fn fn, void *ctx)
{
	return heaps_each(cx, pos, len, fn, ctx, MAX_HEAP);
}

static void
make_rules(struct octal_state *s)
{
	size_t k, last = s->pre + s->period;

	for (k = 0; k <= last; k++)
		if (s->d[k].constraint == TB_SOME)
			return;
	if (s->period > 1)
		return;
	for (k = 0; k <= s->pre; k++) {
		s->mask[k] = s->d[k].mask;
		s->flags[k] = tb_heap_flags(s->d[k].constraint);
	}
	s->rules.struct_size = sizeof s->rules;
	s->rules.max_take = (uint32_t)s->pre;
	s->rules.mask = s->mask;
	s->rules.flags = s->flags;
	if (s->period == 1) {
		s->rules.tail_mask = s->d[last].mask;
		s->rules.tail_flags = tb_heap_flags(s->d[last].constraint);
	}
	s->rules.heaps = octal_heaps;
	/* every digit 3 (take any k >= 1 leaving nothing or one heap), no
	 * split without a take: the code is Nim's, G(n) = n (Bouton) */
	if (s->period == 1 && s->d[0].mask == 0 && s->d[last].mask == 3 &&
	    s->d[last].constraint == TB_NONE) {
		for (k = 1; k <= s->pre; k++)
			if (s->d[k].mask != 3)
				break;
		if (k > s->pre) {
			s->rules.known_preperiod = 0;
			s->rules.known_period = 1;
			s->rules.known_saltus = 1;
			s->rules.known_values = nim_values;
		}
	}
	s->has_rules = 1;
}

static int
octal_init(const struct cg_host *h, const char *params, void **state,
    struct cg_error *err)
{
	struct octal_state *s;

	if (params == NULL) {
		h->error(err, 0, "octal needs a code such as 0.77 or 4!.0");
		return CG_EPARAM;
	}
	s = h->alloc(sizeof *s);
	if (s == NULL)
		return CG_ENOMEM;
	memset(s, 0, sizeof *s);
	if (parse_code(h, params, s, err) < 0) {
		h->free(s);
		return CG_EPARAM;
	}
	make_rules(s);
	*state = s;
	return CG_OK;
}

/* Every move from a heap of n, as the parts left; stops on non-zero. */
static int
heap_moves(const struct octal_state *s, uint32_t n, struct tb_gen *g)
{
	const struct digit *d;
	uint64_t k, kmax;
	int rc;

	kmax = s->period ? n : (s->pre < n ? s->pre : n);
	for (k = 0; k <= kmax; k++) {
		d = digit(s, k);
		if (d->mask == 0)
			continue;
		if ((rc = tb_take(g, n, (uint32_t)k, d->mask, d->constraint)))
			return rc;
	}
	return 0;
}

static int
octal_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	struct tb_opt o;
	size_t i;
	int rc = heaps_check(cx, pos, len, MAX_HEAP);

	(void)side;
	if (rc < 0)
		return rc;
	memset(&o, 0, sizeof o);
	o.g.fn = tb_emit_move;
	o.pos = pos;
	o.len = len;
	o.emit = emit;
	o.ctx = ctx;
	o.child = cx->host->alloc(len + 4 * TB_MAX_PARTS);
	if (o.child == NULL)
		return CG_ENOMEM;
	for (i = 0, rc = 0; i < len / 4 && rc == 0; i++) {
		o.heap = i;
		rc = heap_moves(cx->state, get32(pos + i * 4), &o.g);
	}
	cx->host->free(o.child);
	return rc ? CG_STOP : CG_OK;
}

static int
octal_live(const struct cg_context *cx, uint32_t heap)
{
	struct tb_gen g;

	memset(&g, 0, sizeof g);
	g.fn = tb_found;
	return heap_moves(cx->state, heap, &g) != 0;
}

static int
octal_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	return heaps_parse(cx, text, len, out, MAX_HEAP);
}

static int
octal_print(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	return heaps_print(cx, pos, len, out, MAX_HEAP);
}

static int
octal_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	return heaps_canonical(cx, pos, len, out, MAX_HEAP, octal_live);
}

static int
octal_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	return heaps_decompose(cx, pos, len, emit, ctx, MAX_HEAP, octal_live);
}

static const void *
octal_extension(const struct cg_context *cx, const char *name)
{
	const struct octal_state *s = cx->state;

	if (s == NULL)
		return NULL;
	if (strcmp(name, CG_EXT_HEAP_RULES) == 0)
		return s->has_rules ? &s->rules : NULL;
	if (strcmp(name, CG_EXT_IMPARTIAL) == 0)
		return s;
	return NULL;
}

static int
octal_measure(const struct cg_context *cx, const unsigned char *pos,
    size_t len, uint64_t *m)
{
	return heaps_measure(cx, pos, len, MAX_HEAP, m);
}

static const struct cg_ruleset octal_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "octal",
	.version = "1.0",
	.summary = "take-and-break games given by an octal or hexadecimal code",
	.params_help = "a code such as 0.77 (Kayles), 0.3F, 4.3, 4!.0 "
	    "(Grundy's game) or 0.[3] (Nim)",
	.flags = CG_IMPARTIAL | CG_SYMMETRY | CG_DECOMPOSES | CG_ENUMERATES,
	.init = octal_init,
	.fini = octal_fini,
	.parse = octal_parse,
	.print = octal_print,
	.options = octal_options,
	.canonical = octal_canonical,
	.decompose = octal_decompose,
	.enumerate = heaps_enumerate,
	.extension = octal_extension,
	.measure = octal_measure,
};

CG_RULESET_ENTRY(octal, octal_ruleset)
