/*
 * nim.c - Nim: heaps of counters; a move takes any positive number of
 * counters from one heap.  Impartial.
 *
 * Text: heap sizes separated by '+' (spaces and commas are accepted too),
 * e.g. "3+4+5"; "0" is the empty position.  A text without a heap size
 * (the empty text, "+") is refused: it would vanish (cg-ruleset(3)).
 * Bytes: each non-empty heap as a 4-byte little-endian size, in the order
 * written; the canonical form sorts them (largest first).
 *
 * Exports "cg.heap-rules" (cg/heaprules.h): octal 0.[3], every take
 * leaves one heap or none, with the nim sequence declared, G(n) = n
 * (Bouton 1901), so the host answers any heap or sum at once; and
 * "cg.value" (cg/value.h): a heap of n is *n, so the engines expand
 * nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/heaprules.h"
#include "cg/value.h"
#include "cg/ruleset.h"
#include "bytes.h"

#define MAX_HEAP 0x7fffffffu

static int
nim_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	size_t i = 0, start;
	unsigned char b[4];
	uint64_t v;
	int any = 0;

	while (i < len) {
		while (i < len && (text[i] == ' ' || text[i] == '+' ||
		    text[i] == ','))
			i++;
		if (i == len)
			break;
		if (text[i] < '0' || text[i] > '9')
			return h->error(cx->err, i + 1,
			    "expected a heap size, found '%c'", text[i]);
		start = i;
		v = 0;
		while (i < len && text[i] >= '0' && text[i] <= '9') {
			v = v * 10 + (uint64_t)(text[i] - '0');
			if (v > MAX_HEAP)
				return h->error(cx->err, start + 1,
				    "heap size too large (at most %u)", MAX_HEAP);
			i++;
		}
		if (i < len && text[i] != ' ' && text[i] != '+' && text[i] != ',')
			return h->error(cx->err, i + 1,
			    "unexpected '%c' after heap size", text[i]);
		any = 1;
		if (v == 0)
			continue;
		set32(b, (uint32_t)v);
		if (h->buf_put(out, b, 4) < 0)
			return CG_ENOMEM;
	}
	if (!any)
		return h->error(cx->err, len + 1,
		    "empty position (write 0 for no heaps)");
	return CG_OK;
}

static int
nim_print(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	size_t i;

	if (len % 4 != 0)
		return cx->host->error(cx->err, 0, "corrupt nim position");
	if (len == 0)
		return cx->host->buf_putc(out, '0');
	for (i = 0; i < len; i += 4)
		if (cx->host->buf_printf(out, "%s%u", i ? "+" : "",
		    get32(pos + i)) < 0)
			return CG_ENOMEM;
	return CG_OK;
}

static int
nim_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	unsigned char *child;
	char move[32];
	size_t i, clen;
	uint32_t heap, k;

	(void)side;
	if (len % 4 != 0)
		return cx->host->error(cx->err, 0, "corrupt nim position");
	child = cx->host->alloc(len ? len : 1);
	if (child == NULL)
		return CG_ENOMEM;
	for (i = 0; i < len; i += 4) {
		heap = get32(pos + i);
		for (k = 0; k < heap; k++) {
			/* the heap becomes k: drop it when empty */
			memcpy(child, pos, i);
			clen = i;
			if (k > 0) {
				set32(child + clen, k);
				clen += 4;
			}
			memcpy(child + clen, pos + i + 4, len - i - 4);
			clen += len - i - 4;
			snprintf(move, sizeof move, "%zu:%u", i / 4 + 1, k);
			if (emit(ctx, child, clen, move)) {
				cx->host->free(child);
				return CG_STOP;
			}
		}
	}
	cx->host->free(child);
	return CG_OK;
}

static int
cmp_desc(const void *a, const void *b)
{
	uint32_t x = get32(a), y = get32(b);

	return x < y ? 1 : x > y ? -1 : 0;
}

static int
nim_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	size_t start = out->len;

	if (len % 4 != 0)
		return cx->host->error(cx->err, 0, "corrupt nim position");
	if (cx->host->buf_put(out, pos, len) < 0)
		return CG_ENOMEM;
	if (len > 0)
		qsort(out->data + start, len / 4, 4, cmp_desc);
	return CG_OK;
}

static int
nim_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	size_t i;

	if (len % 4 != 0)
		return cx->host->error(cx->err, 0, "corrupt nim position");
	for (i = 0; i < len; i += 4)
		if (emit(ctx, pos + i, 4, NULL))
			return CG_STOP;
	return CG_OK;
}

static int
nim_heaps(const struct cg_context *cx, const unsigned char *pos, size_t len,
    cg_heap_fn fn, void *ctx)
{
	size_t i;

	if (len % 4 != 0)
		return cx->host->error(cx->err, 0, "corrupt nim position");
	for (i = 0; i < len; i += 4)
		fn(ctx, get32(pos + i));
	return CG_OK;
}

/* 0.[3]: no take below 1 (mask[0] = 0), every take of k >= 1 may leave
 * nothing or one heap (tail 3); G(n) = n: preperiod 0, period 1, saltus
 * 1 from G(0) = 0. */
static const uint32_t nim_mask[1] = { 0 }, nim_flags[1] = { 0 };
static const uint32_t nim_values[1] = { 0 };
static const struct cg_heap_rules nim_rules = {
	.struct_size = sizeof(struct cg_heap_rules),
	.max_take = 0,
	.mask = nim_mask,
	.flags = nim_flags,
	.tail_mask = 3,
	.tail_flags = 0,
	.known_preperiod = 0,
	.known_period = 1,
	.known_saltus = 1,
	.known_values = nim_values,
	.heaps = nim_heaps,
};

/* cg.value: a heap of n is *n, a sum the XOR of its heaps (Bouton). */
static int
nim_value(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	uint32_t x = 0;
	size_t i;

	if (len % 4 != 0)
		return cx->host->error(cx->err, 0, "corrupt nim position");
	for (i = 0; i < len; i += 4)
		x ^= get32(pos + i);
	return x == 0 ? cx->host->buf_putc(out, '0') :
	    cx->host->buf_printf(out, "*%u", x);
}

static const struct cg_value_ext nim_value_ext = {
	.struct_size = sizeof(struct cg_value_ext),
	.value = nim_value,
};

static const void *
nim_extension(const struct cg_context *cx, const char *name)
{
	(void)cx;
	if (strcmp(name, CG_EXT_HEAP_RULES) == 0)
		return &nim_rules;
	if (strcmp(name, CG_EXT_VALUE) == 0)
		return &nim_value_ext;
	return NULL;
}

static const struct cg_ruleset nim_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "nim",
	.version = "1.0",
	.summary = "Nim: take any number of counters from one heap",
	.params_help = NULL,
	.flags = CG_IMPARTIAL | CG_SYMMETRY | CG_DECOMPOSES,
	.parse = nim_parse,
	.print = nim_print,
	.options = nim_options,
	.canonical = nim_canonical,
	.decompose = nim_decompose,
	.extension = nim_extension,
};

CG_RULESET_ENTRY(nim, nim_ruleset)
