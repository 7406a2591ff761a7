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
 * matter in push or shove). */
static inline int
stones_parse_row(const struct cg_context *cx, const char *text, size_t len,
    size_t max, struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	size_t i, start = out->len, keep;
	int c;

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

#endif
