/*
 * plugins/lib/heaps.h - positions that are sums of heaps (header-only).
 *
 * Text: heap sizes separated by '+' (spaces and commas also separate),
 * e.g. "3+4+5"; "0" is the empty position.  Heaps of size 0 are dropped.
 * Bytes: each non-empty heap as a 4-byte little-endian size, in the order
 * written.  Used by the subtraction and octal rulesets and rules.so's
 * heap rules (lib/takebreak.h: their take-and-break moves).
 */
#ifndef CG_PLUGIN_HEAPS_H
#define CG_PLUGIN_HEAPS_H

#include <stdlib.h>
#include <string.h>

#include "cg/heaprules.h"
#include "cg/ruleset.h"
#include "bytes.h"

static inline int
heaps_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out, uint32_t max_heap)
{
	const struct cg_host *h = cx->host;
	size_t i = 0, start;
	unsigned char b[4];
	uint32_t v;
	int any = 0;

	for (;;) {
		while (i < len && text[i] == ' ')
			i++;
		if (i == len)
			return h->error(cx->err, i + 1,
			    "expected a heap size, found the end");
		if (!is_digit(text[i]))
			return h->error(cx->err, i + 1,
			    "expected a heap size, found '%c'", text[i]);
		start = i;
		if (read_uint(text, len, &i, max_heap, &v) < 0)
			return h->error(cx->err, start + 1,
			    "heap size too large (at most %u)", max_heap);
		any = 1;
		if (v > 0) {
			set32(b, v);
			if (h->buf_put(out, b, 4) < 0)
				return CG_ENOMEM;
		}
		while (i < len && text[i] == ' ')
			i++;
		if (i == len)
			break;
		if (text[i] != '+' && text[i] != ',')
			return h->error(cx->err, i + 1,
			    "expected '+' between heaps, found '%c'", text[i]);
		i++;
	}
	(void)any;
	return CG_OK;
}

static inline int
heaps_check(const struct cg_context *cx, const unsigned char *pos,
    size_t len, uint32_t max_heap)
{
	size_t i;

	if (len % 4 != 0)
		return cx->host->error(cx->err, 0, "corrupt heap position");
	for (i = 0; i < len; i += 4)
		if (get32(pos + i) == 0 || get32(pos + i) > max_heap)
			return cx->host->error(cx->err, 0,
			    "corrupt heap position");
	return CG_OK;
}

static inline int
heaps_print(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out, uint32_t max_heap)
{
	size_t i;
	int rc = heaps_check(cx, pos, len, max_heap);

	if (rc < 0)
		return rc;
	if (len == 0)
		return cx->host->buf_putc(out, '0');
	for (i = 0; i < len; i += 4)
		if (cx->host->buf_printf(out, "%s%u", i ? "+" : "",
		    get32(pos + i)) < 0)
			return CG_ENOMEM;
	return CG_OK;
}

static inline int
heaps_cmp_desc(const void *a, const void *b)
{
	uint32_t x = get32(a), y = get32(b);

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * Canonical form: the heaps for which live(arg, size) is true, largest
 * first (a heap without moves for either player is worth 0).
 */
static inline int
heaps_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out, uint32_t max_heap,
    int (*live)(const struct cg_context *, uint32_t))
{
	size_t start = out->len, i;
	int rc = heaps_check(cx, pos, len, max_heap);

	if (rc < 0)
		return rc;
	for (i = 0; i < len; i += 4)
		if (live(cx, get32(pos + i)) &&
		    cx->host->buf_put(out, pos + i, 4) < 0)
			return CG_ENOMEM;
	if (out->len > start)
		qsort(out->data + start, (out->len - start) / 4, 4,
		    heaps_cmp_desc);
	return CG_OK;
}

static inline int
heaps_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx, uint32_t max_heap,
    int (*live)(const struct cg_context *, uint32_t))
{
	size_t i;
	int rc = heaps_check(cx, pos, len, max_heap);

	if (rc < 0)
		return rc;
	for (i = 0; i < len; i += 4)
		if (live(cx, get32(pos + i)) && emit(ctx, pos + i, 4, NULL))
			return CG_STOP;
	return CG_OK;
}

/*
 * The measure of a sum of heaps: the sum of 2n - 1 over its heaps of n
 * counters.  A move on a heap of n takes k >= 0 counters and leaves j
 * heaps of n - k counters in all, worth 2(n - k) - j: less than 2n - 1
 * when k >= 1, and when k = 0 too, since a pure split leaves j >= 2
 * heaps.  So every option is worth less than its position, and so is
 * each heap of it (no heap is worth less than 1).
 */
static inline int
heaps_measure(const struct cg_context *cx, const unsigned char *pos,
    size_t len, uint32_t max_heap, uint64_t *m)
{
	size_t i;
	uint64_t sum = 0;
	int rc = heaps_check(cx, pos, len, max_heap);

	if (rc < 0)
		return rc;
	for (i = 0; i < len; i += 4)
		sum += 2 * (uint64_t)get32(pos + i) - 1;
	*m = sum;
	return CG_OK;
}

/*
 * Build into child the position pos with heap number k replaced by the
 * n heaps in repl[] (sizes, zeros skipped); returns the child's length.
 * child must hold len - 4 + 4 * n bytes.
 */
static inline size_t
heaps_replace(unsigned char *child, const unsigned char *pos, size_t len,
    size_t k, const uint32_t *repl, size_t n)
{
	size_t clen = k * 4, j;

	memcpy(child, pos, k * 4);
	for (j = 0; j < n; j++)
		if (repl[j] > 0) {
			set32(child + clen, repl[j]);
			clen += 4;
		}
	memcpy(child + clen, pos + k * 4 + 4, len - k * 4 - 4);
	return clen + len - k * 4 - 4;
}

/* The heaps of a position, for the cg.heap-rules extension's heaps(). */
static inline int
heaps_each(const struct cg_context *cx, const unsigned char *pos, size_t len,
    cg_heap_fn fn, void *ctx, uint32_t max_heap)
{
	size_t i;
	int rc = heaps_check(cx, pos, len, max_heap);

	if (rc < 0)
		return rc;
	for (i = 0; i < len; i += 4)
		fn(ctx, get32(pos + i));
	return CG_OK;
}

/* enumerate("N"): the single heaps 1..N (N at most 1000000). */
static inline int
heaps_enumerate(const struct cg_context *cx, const char *family,
    cg_emit_fn emit, void *ctx)
{
	unsigned char b[4];
	uint32_t n, k;

	if (family_n(family, 1000000, &n) < 0)
		return cx->host->error(cx->err, 0, "bad family '%s' (expected "
		    "a largest heap N, 1..1000000)", family ? family : "");
	for (k = 1; k <= n; k++) {
		set32(b, k);
		if (emit(ctx, b, 4, NULL))
			return CG_STOP;
	}
	return CG_OK;
}

#endif
