/*
 * subtraction.c - subtraction games on heaps.
 *
 * Parameters: "LEFT/RIGHT", two comma-separated sets of positive integers
 * (e.g. "1,3,5/2,4": the partizan subtraction game, CGSuite's "Partizan
 * Nim" tutorial), or one set "1,2,3" for the impartial game where both
 * players use it.  Sets are sorted and duplicates dropped; "2,1/1,2" is
 * impartial too.
 *
 * Text: heap sizes joined by '+' ("3+4"), "0" for no heaps (see
 * lib/heaps.h).  A move takes k counters from one heap, k in the mover's
 * set and at most the heap; its name is "HEAP:NEWSIZE" (1-based heap
 * number, as nim writes it).
 *
 * Impartial parameters export "cg.heap-rules" (mask[k] = 0x3 for k in the
 * set: the heap left is empty or one heap) and "cg.impartial" (non-NULL
 * when both sets are equal; the descriptor flag cannot depend on the
 * parameters).  canonical() sorts the heaps and drops those smaller than
 * every set's least element (no moves: worth 0); decompose() emits the
 * other heaps one by one.  enumerate("N") gives the heaps 1..N.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/heaprules.h"
#include "cg/impartial.h"
#include "cg/ruleset.h"
#include "heaps.h"

#define MAX_HEAP 0x7fffffffu
#define MAX_TAKE 1000000u
#define MAX_SET 4096u

struct sub_state {
	uint32_t *set[2]; /* ascending, no duplicates */
	size_t n[2];
	int impartial;
	uint32_t *mask, *flags;
	struct cg_heap_rules rules;
};

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Parse one set at params[*i], up to '/' or the end. */
static int
parse_set(const struct cg_host *h, const char *params, size_t len,
    size_t *i, uint32_t *set, size_t *n, struct cg_error *err)
{
	size_t start, k, m;
	uint32_t v;

	*n = 0;
	for (;;) {
		start = *i;
		if (*i == len || !is_digit(params[*i]))
			return h->error(err, *i + 1, *i == len ?
			    "expected a subtraction amount, found the end" :
			    "expected a subtraction amount, found '%c'",
			    *i < len ? params[*i] : 0);
		if (read_uint(params, len, i, MAX_TAKE, &v) < 0)
			return h->error(err, start + 1,
			    "subtraction amount too large (at most %u)",
			    MAX_TAKE);
		if (v == 0)
			return h->error(err, start + 1,
			    "subtraction amounts must be positive");
		if (*n == MAX_SET)
			return h->error(err, start + 1,
			    "too many subtraction amounts (at most %u)",
			    MAX_SET);
		set[(*n)++] = v;
		if (*i == len || params[*i] == '/')
			break;
		if (params[*i] != ',')
			return h->error(err, *i + 1,
			    "expected ',' or '/', found '%c'", params[*i]);
		(*i)++;
	}
	qsort(set, *n, sizeof *set, cmp_u32);
	for (k = m = 0; k < *n; k++)
		if (m == 0 || set[m - 1] != set[k])
			set[m++] = set[k];
	*n = m;
	return CG_OK;
}

static void
sub_fini(const struct cg_host *host, void *state)
{
	struct sub_state *s = state;

	if (s == NULL)
		return;
	host->free(s->set[0]);
	host->free(s->set[1]);
	host->free(s->mask);
	host->free(s->flags);
	host->free(s);
}

static int
sub_heaps(const struct cg_context *cx, const unsigned char *pos, size_t len,
    cg_heap_fn fn, void *ctx)
{
	return heaps_each(cx, pos, len, fn, ctx, MAX_HEAP);
}

static int
sub_init(const struct cg_host *h, const char *params, void **state,
    struct cg_error *err)
{
	struct sub_state *s;
	size_t len, i = 0, k;
	int rc;

	if (params == NULL || *params == '\0') {
		h->error(err, 0, "subtraction needs parameters: LEFT/RIGHT "
		    "sets such as 1,3/2 or one set such as 1,2,3");
		return CG_EPARAM;
	}
	len = strlen(params);
	s = h->alloc(sizeof *s);
	if (s == NULL)
		return CG_ENOMEM;
	memset(s, 0, sizeof *s);
	s->set[0] = h->alloc(MAX_SET * sizeof(uint32_t));
	s->set[1] = h->alloc(MAX_SET * sizeof(uint32_t));
	if (s->set[0] == NULL || s->set[1] == NULL) {
		sub_fini(h, s);
		return CG_ENOMEM;
	}
	rc = parse_set(h, params, len, &i, s->set[0], &s->n[0], err);
	if (rc == CG_OK && i < len) {
		i++; /* the '/' */
		rc = parse_set(h, params, len, &i, s->set[1], &s->n[1], err);
		if (rc == CG_OK && i < len)
			rc = h->error(err, i + 1, "only two sets, LEFT/RIGHT");
	} else if (rc == CG_OK) {
		memcpy(s->set[1], s->set[0], s->n[0] * sizeof(uint32_t));
		s->n[1] = s->n[0];
	}
	if (rc < 0) {
		sub_fini(h, s);
		return CG_EPARAM;
	}
	s->impartial = s->n[0] == s->n[1] &&
	    memcmp(s->set[0], s->set[1], s->n[0] * sizeof(uint32_t)) == 0;
	if (s->impartial) {
		uint32_t max = s->set[0][s->n[0] - 1];

		s->mask = h->alloc((max + 1) * sizeof(uint32_t));
		s->flags = h->alloc((max + 1) * sizeof(uint32_t));
		if (s->mask == NULL || s->flags == NULL) {
			sub_fini(h, s);
			return CG_ENOMEM;
		}
		memset(s->mask, 0, (max + 1) * sizeof(uint32_t));
		memset(s->flags, 0, (max + 1) * sizeof(uint32_t));
		for (k = 0; k < s->n[0]; k++)
			s->mask[s->set[0][k]] = 0x3;
		s->rules.struct_size = sizeof s->rules;
		s->rules.max_take = max;
		s->rules.mask = s->mask;
		s->rules.flags = s->flags;
		s->rules.tail_mask = 0;
		s->rules.tail_flags = 0;
		s->rules.heaps = sub_heaps;
	}
	*state = s;
	return CG_OK;
}

static int
sub_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	return heaps_parse(cx, text, len, out, MAX_HEAP);
}

static int
sub_print(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	return heaps_print(cx, pos, len, out, MAX_HEAP);
}

static int
sub_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	const struct sub_state *s = cx->state;
	const uint32_t *set = s->set[side];
	unsigned char *child;
	char move[48];
	size_t i, j, clen;
	uint32_t heap, rest;
	int rc = heaps_check(cx, pos, len, MAX_HEAP), stop = 0;

	if (rc < 0)
		return rc;
	child = cx->host->alloc(len ? len : 1);
	if (child == NULL)
		return CG_ENOMEM;
	for (i = 0; i < len / 4 && !stop; i++) {
		heap = get32(pos + i * 4);
		for (j = 0; j < s->n[side] && set[j] <= heap && !stop; j++) {
			rest = heap - set[j];
			clen = heaps_replace(child, pos, len, i, &rest, 1);
			snprintf(move, sizeof move, "%zu:%u", i + 1, rest);
			stop = emit(ctx, child, clen, move);
		}
	}
	cx->host->free(child);
	return stop ? CG_STOP : CG_OK;
}

static int
sub_live(const struct cg_context *cx, uint32_t heap)
{
	const struct sub_state *s = cx->state;

	return heap >= s->set[0][0] || heap >= s->set[1][0];
}

static int
sub_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	return heaps_canonical(cx, pos, len, out, MAX_HEAP, sub_live);
}

static int
sub_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	return heaps_decompose(cx, pos, len, emit, ctx, MAX_HEAP, sub_live);
}

static const void *
sub_extension(const struct cg_context *cx, const char *name)
{
	const struct sub_state *s = cx->state;

	if (s == NULL || !s->impartial)
		return NULL;
	if (strcmp(name, CG_EXT_HEAP_RULES) == 0)
		return &s->rules;
	if (strcmp(name, CG_EXT_IMPARTIAL) == 0)
		return s;
	return NULL;
}

static int
sub_measure(const struct cg_context *cx, const unsigned char *pos,
    size_t len, uint64_t *m)
{
	return heaps_measure(cx, pos, len, MAX_HEAP, m);
}

static const struct cg_ruleset subtraction_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "subtraction",
	.version = "1.0",
	.summary = "subtraction games: take an amount in your set from a heap",
	.params_help = "LEFT/RIGHT sets (1,3,5/2,4), or one set for both "
	    "players (1,2,3)",
	.flags = CG_SYMMETRY | CG_DECOMPOSES | CG_ENUMERATES,
	.init = sub_init,
	.fini = sub_fini,
	.parse = sub_parse,
	.print = sub_print,
	.options = sub_options,
	.canonical = sub_canonical,
	.decompose = sub_decompose,
	.enumerate = heaps_enumerate,
	.extension = sub_extension,
	.measure = sub_measure,
};

CG_RULESET_ENTRY(subtraction, subtraction_ruleset)
