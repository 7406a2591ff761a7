/*
 * stones.h - rows of Left and Right stones, shared by push, shove and the
 * cherries rulesets (header-only: each plugin gets its own static copy).
 *
 * Text: B or b (Left), R, r, W or w (Right, CGSynch also accepts white),
 * _ . or space (a gap).  Bytes: one of 'B', 'R', '_' per square.
 */
#ifndef CG_STONES_H
#define CG_STONES_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cg/ruleset.h"

/* The byte for a text character, or 0 when it is not one. */
static inline int
stones_char(char c)
{
	switch (c) {
	case 'B': case 'b': return 'B';
	case 'R': case 'r': case 'W': case 'w': return 'R';
	case '_': case '.': case ' ': return '_';
	default: return 0;
	}
}

/* Parse a row of at most max squares, dropping trailing gaps (they never
 * matter in push or shove).  The empty text is refused: the empty row is
 * written "_". */
static inline int
stones_parse_row(const struct cg_context *cx, const char *text, size_t len,
    size_t max, struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	size_t i, start = out->len, keep;
	int c;

	if (len == 0)
		return h->error(cx->err, 1,
		    "empty row (write _ for the empty row)");
	if (len > max)
		return h->error(cx->err, max + 1,
		    "row too long (at most %zu squares)", max);
	for (i = 0; i < len; i++) {
		if ((c = stones_char(text[i])) == 0)
			return h->error(cx->err, i + 1,
			    "expected B, R or _, found '%c'", text[i]);
		if (h->buf_putc(out, c) < 0)
			return CG_ENOMEM;
	}
	keep = out->len;
	while (keep > start && out->data[keep - 1] == '_')
		keep--;
	out->len = keep;
	return CG_OK;
}

/* Check position bytes as stones_parse_row() makes them. */
static inline int
stones_check_row(const struct cg_context *cx, const unsigned char *pos,
    size_t len, const char *ruleset)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (pos[i] != 'B' && pos[i] != 'R' && pos[i] != '_')
			return cx->host->error(cx->err, 0,
			    "corrupt %s position", ruleset);
	if (len > 0 && pos[len - 1] == '_')
		return cx->host->error(cx->err, 0, "corrupt %s position",
		    ruleset);
	return CG_OK;
}

/* Print a row; the empty row prints as "_". */
static inline int
stones_print_row(const struct cg_context *cx, const unsigned char *pos,
    size_t len, const char *ruleset, struct cg_buf *out)
{
	if (stones_check_row(cx, pos, len, ruleset) < 0)
		return CG_EPARSE;
	if (len == 0)
		return cx->host->buf_putc(out, '_');
	return cx->host->buf_put(out, pos, len);
}

/* Length without trailing gaps (rows are stored without them). */
static inline size_t
stones_trim(const unsigned char *b, size_t len)
{
	while (len > 0 && b[len - 1] == '_')
		len--;
	return len;
}

/* A ruleset's move of the stone at i, in place (the length stays). */
typedef void (*stones_move_fn)(unsigned char *row, size_t i);
/* Both players' moves at once, of the stones at lo < hi. */
typedef void (*stones_pair_fn)(unsigned char *row, size_t lo, size_t hi);

#define STONES_MAX 4096

/* Options of side in a row: one per stone of its colour, named by the
 * stone's index. */
static inline int
stones_row_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, const char *ruleset, enum cg_side side, stones_move_fn move,
    cg_emit_fn emit, void *ctx)
{
	unsigned char child[STONES_MAX];
	int colour = side == CG_LEFT ? 'B' : 'R';
	char name[24];
	size_t i;

	if (stones_check_row(cx, pos, len, ruleset) < 0 || len > STONES_MAX)
		return CG_EPARSE;
	for (i = 0; i < len; i++) {
		if (pos[i] != colour)
			continue;
		memcpy(child, pos, len);
		move(child, i);
		snprintf(name, sizeof name, "%zu", i);
		if (emit(ctx, child, stones_trim(child, len), name))
			return CG_STOP;
	}
	return CG_OK;
}

/* Joint options: Left's i-th stone and Right's j-th stone (in index
 * order, as stones_row_options emits them) moved at once by pair(). */
static inline int
stones_row_synch_options(const struct cg_context *cx,
    const unsigned char *pos, size_t len, const char *ruleset,
    stones_pair_fn pair, cg_emit_joint_fn emit, void *ctx)
{
	unsigned char child[STONES_MAX];
	size_t a, b, li = 0, rj;

	if (stones_check_row(cx, pos, len, ruleset) < 0 || len > STONES_MAX)
		return CG_EPARSE;
	for (a = 0; a < len; a++) {
		if (pos[a] != 'B')
			continue;
		rj = 0;
		for (b = 0; b < len; b++) {
			if (pos[b] != 'R')
				continue;
			memcpy(child, pos, len);
			pair(child, a < b ? a : b, a < b ? b : a);
			if (emit(ctx, li, rj, child, stones_trim(child, len)))
				return CG_STOP;
			rj++;
		}
		li++;
	}
	return CG_OK;
}

#endif
