/*
 * lib/cherries.h - the cherries and stackcherries rulesets (header-only,
 * static functions): both are this code, told apart by both_ends (1:
 * Cherries, a stone from either end of a segment; 0: StackCherries, the
 * front only); CH_RULESET at the end makes a ruleset of it.
 *
 * Text: segments of stones, B or b (Left) and R, r, W or w (Right),
 * separated by '_', '.' or spaces.  Bytes: the segments joined by single
 * '_', no separator at either end; the empty position has no bytes and
 * prints as "_".
 */
#ifndef CG_PLUGIN_LIB_CHERRIES_H
#define CG_PLUGIN_LIB_CHERRIES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/ruleset.h"
#include "stones.h"

#define CH_MAX_LEN 4096
#define CH_MAX_SEG (CH_MAX_LEN / 2 + 1)

/* Children may be empty: never hand the host a NULL position. */
static const unsigned char ch_empty[1];
#define CH_DATA(buf) ((buf).data != NULL ? (buf).data : ch_empty)

struct ch_seg {
	size_t a, b; /* [a, b) in the position bytes */
};

static int
ch_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	size_t i, start = out->len;
	int c, sep = 1;

	if (len == 0)
		return h->error(cx->err, 1,
		    "empty position (write _ for the empty position)");
	if (len > CH_MAX_LEN)
		return h->error(cx->err, CH_MAX_LEN + 1,
		    "position too long (at most %d characters)", CH_MAX_LEN);
	for (i = 0; i < len; i++) {
		if ((c = stones_char(text[i])) == 0)
			return h->error(cx->err, i + 1,
			    "expected B, R or _, found '%c'", text[i]);
		if (c == '_') {
			sep = 1;
			continue;
		}
		if (sep && out->len > start && h->buf_putc(out, '_') < 0)
			return CG_ENOMEM;
		sep = 0;
		if (h->buf_putc(out, c) < 0)
			return CG_ENOMEM;
	}
	return CG_OK;
}

/* Split pos into segments; returns their number or -1 if corrupt. */
static int
ch_split(const unsigned char *pos, size_t len, struct ch_seg *seg)
{
	size_t i, a = 0;
	int n = 0;

	if (len > CH_MAX_LEN)
		return -1;
	if (len == 0)
		return 0;
	for (i = 0; i <= len; i++) {
		if (i < len && (pos[i] == 'B' || pos[i] == 'R'))
			continue;
		if (i < len && pos[i] != '_')
			return -1;
		if (i == a)
			return -1; /* empty segment: not normal */
		seg[n].a = a;
		seg[n].b = i;
		n++;
		a = i + 1;
	}
	return n;
}

static int
ch_print(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	struct ch_seg *seg;
	int n;

	seg = cx->host->alloc(sizeof *seg * CH_MAX_SEG);
	if (seg == NULL)
		return CG_ENOMEM;
	n = ch_split(pos, len, seg);
	cx->host->free(seg);
	if (n < 0)
		return cx->host->error(cx->err, 0, "corrupt cherries position");
	if (len == 0)
		return cx->host->buf_putc(out, '_');
	return cx->host->buf_put(out, pos, len);
}

/* Append the position where segment k is cut to [na[k], nb[k]). */
static int
ch_build(const struct cg_context *cx, const unsigned char *pos,
    const struct ch_seg *seg, int n, const size_t *na, const size_t *nb,
    struct cg_buf *out)
{
	int k, first = 1;

	for (k = 0; k < n; k++) {
		if (nb[k] <= na[k])
			continue;
		if (!first && cx->host->buf_putc(out, '_') < 0)
			return CG_ENOMEM;
		if (cx->host->buf_put(out, pos + na[k], nb[k] - na[k]) < 0)
			return CG_ENOMEM;
		first = 0;
	}
	(void)seg;
	return CG_OK;
}

/* Canonical form: each segment reversed when that reads smaller (only
 * when reversible), then the segments sorted. */
struct ch_sortkey {
	const unsigned char *p;
	size_t len;
};

static int
ch_cmp_key(const void *x, const void *y)
{
	const struct ch_sortkey *a = x, *b = y;
	size_t m = a->len < b->len ? a->len : b->len;
	int r = memcmp(a->p, b->p, m);

	if (r != 0)
		return r;
	return a->len < b->len ? -1 : a->len > b->len;
}

static int
ch_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out, int reversible)
{
	const struct cg_host *h = cx->host;
	struct ch_seg *seg;
	struct ch_sortkey *key;
	unsigned char *tmp;
	int n, k, rc = CG_OK;
	size_t i, l;

	seg = h->alloc(sizeof *seg * CH_MAX_SEG);
	key = h->alloc(sizeof *key * CH_MAX_SEG);
	tmp = h->alloc(len ? len : 1);
	if (seg == NULL || key == NULL || tmp == NULL) {
		rc = CG_ENOMEM;
		goto out;
	}
	n = ch_split(pos, len, seg);
	if (n < 0) {
		rc = h->error(cx->err, 0, "corrupt cherries position");
		goto out;
	}
	for (k = 0; k < n; k++) {
		const unsigned char *p = pos + seg[k].a;

		l = seg[k].b - seg[k].a;
		memcpy(tmp + seg[k].a, p, l);
		if (reversible) {
			/* compare with the reverse */
			int rev = 0;

			for (i = 0; i < l; i++) {
				if (p[l - 1 - i] != p[i]) {
					rev = p[l - 1 - i] < p[i];
					break;
				}
			}
			if (rev)
				for (i = 0; i < l; i++)
					tmp[seg[k].a + i] = p[l - 1 - i];
		}
		key[k].p = tmp + seg[k].a;
		key[k].len = l;
	}
	qsort(key, (size_t)n, sizeof *key, ch_cmp_key);
	for (k = 0; k < n && rc == CG_OK; k++) {
		if (k > 0 && h->buf_putc(out, '_') < 0)
			rc = CG_ENOMEM;
		else if (h->buf_put(out, key[k].p, key[k].len) < 0)
			rc = CG_ENOMEM;
	}
out:
	h->free(seg);
	h->free(key);
	h->free(tmp);
	return rc;
}

/* Stones one player could take alone: from the front only (stack) or
 * from both ends; a one-colour segment entirely. */
static int64_t
ch_alone(const unsigned char *pos, const struct ch_seg *seg, int n, int colour,
    int both_ends)
{
	int64_t total = 0;
	size_t i, l, front, back;
	int k;

	for (k = 0; k < n; k++) {
		const unsigned char *p = pos + seg[k].a;

		l = seg[k].b - seg[k].a;
		for (front = 0; front < l && p[front] == colour; front++)
			;
		if (front == l) {
			total += (int64_t)l;
			continue;
		}
		total += (int64_t)front;
		if (both_ends) {
			for (back = 0, i = l; i > 0 && p[i - 1] == colour; i--)
				back++;
			total += (int64_t)back;
		}
	}
	return total;
}

/* One move: (segment, end) with end 0 = front, 1 = back. */
struct ch_move {
	int seg, end;
};

/* The moves of colour, in the order options() emits them. */
static int
ch_moves(const unsigned char *pos, const struct ch_seg *seg, int n, int colour,
    int both_ends, struct ch_move *mv)
{
	int k, nm = 0;

	for (k = 0; k < n; k++) {
		if (pos[seg[k].a] == colour) {
			mv[nm].seg = k;
			mv[nm].end = 0;
			nm++;
		}
		if (both_ends && seg[k].b - seg[k].a > 1 &&
		    pos[seg[k].b - 1] == colour) {
			mv[nm].seg = k;
			mv[nm].end = 1;
			nm++;
		}
	}
	return nm;
}

static void
ch_apply(const struct ch_seg *seg, const struct ch_move *m, size_t *na,
    size_t *nb)
{
	if (m->end == 0)
		na[m->seg] = seg[m->seg].a + 1;
	else
		nb[m->seg] = seg[m->seg].b - 1;
}

struct ch_work {
	struct ch_seg seg[CH_MAX_SEG];
	struct ch_move mv[2][2 * CH_MAX_SEG];
	size_t na[CH_MAX_SEG], nb[CH_MAX_SEG];
	int n, nm[2];
};

static int
ch_prepare(const struct cg_context *cx, const unsigned char *pos, size_t len,
    int both_ends, struct ch_work **pw)
{
	struct ch_work *w = cx->host->alloc(sizeof *w);

	if (w == NULL)
		return CG_ENOMEM;
	w->n = ch_split(pos, len, w->seg);
	if (w->n < 0) {
		cx->host->free(w);
		return cx->host->error(cx->err, 0, "corrupt cherries position");
	}
	w->nm[0] = ch_moves(pos, w->seg, w->n, 'B', both_ends, w->mv[0]);
	w->nm[1] = ch_moves(pos, w->seg, w->n, 'R', both_ends, w->mv[1]);
	*pw = w;
	return CG_OK;
}

static void
ch_reset(struct ch_work *w)
{
	int k;

	for (k = 0; k < w->n; k++) {
		w->na[k] = w->seg[k].a;
		w->nb[k] = w->seg[k].b;
	}
}

static int
ch_options(const struct cg_context *cx, const unsigned char *pos, size_t len,
    enum cg_side side, cg_emit_fn emit, void *ctx, int both_ends)
{
	struct ch_work *w;
	struct cg_buf buf = { NULL, 0, 0 };
	char move[32];
	int k, rc;

	if ((rc = ch_prepare(cx, pos, len, both_ends, &w)) < 0)
		return rc;
	for (k = 0; k < w->nm[side] && rc == CG_OK; k++) {
		ch_reset(w);
		ch_apply(w->seg, &w->mv[side][k], w->na, w->nb);
		buf.len = 0;
		if ((rc = ch_build(cx, pos, w->seg, w->n, w->na, w->nb,
		    &buf)) < 0)
			break;
		snprintf(move, sizeof move, "%d%s", w->mv[side][k].seg + 1,
		    !both_ends ? "" : w->mv[side][k].end ? ">" : "<");
		if (emit(ctx, CH_DATA(buf), buf.len, move))
			rc = CG_STOP;
	}
	cx->host->free(buf.data);
	cx->host->free(w);
	return rc;
}

/* Joint moves: on different segments each loses its end; on the same
 * segment (only possible from both ends) both ends go. */
static int
ch_synch_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_joint_fn emit, void *ctx, int both_ends)
{
	struct ch_work *w;
	struct cg_buf buf = { NULL, 0, 0 };
	int i, j, rc;

	if ((rc = ch_prepare(cx, pos, len, both_ends, &w)) < 0)
		return rc;
	for (i = 0; i < w->nm[0] && rc == CG_OK; i++)
		for (j = 0; j < w->nm[1] && rc == CG_OK; j++) {
			const struct ch_move *l = &w->mv[0][i], *r = &w->mv[1][j];

			ch_reset(w);
			if (l->seg != r->seg) {
				ch_apply(w->seg, l, w->na, w->nb);
				ch_apply(w->seg, r, w->na, w->nb);
			} else {
				w->na[l->seg] = w->seg[l->seg].a + 1;
				w->nb[l->seg] = w->seg[l->seg].b - 1;
			}
			buf.len = 0;
			if ((rc = ch_build(cx, pos, w->seg, w->n, w->na, w->nb,
			    &buf)) < 0)
				break;
			if (emit(ctx, (size_t)i, (size_t)j, CH_DATA(buf),
			    buf.len))
				rc = CG_STOP;
		}
	cx->host->free(buf.data);
	cx->host->free(w);
	return rc;
}

static int
ch_decided_value(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int64_t *num, int64_t *den, int both_ends)
{
	struct ch_work *w;
	int rc;

	if ((rc = ch_prepare(cx, pos, len, both_ends, &w)) < 0)
		return rc;
	if (w->nm[0] > 0 && w->nm[1] > 0) {
		cx->host->free(w);
		return cx->host->error(cx->err, 0, "position is not decided "
		    "(both players can move)");
	}
	*num = ch_alone(pos, w->seg, w->n, 'B', both_ends) -
	    ch_alone(pos, w->seg, w->n, 'R', both_ends);
	*den = 1;
	cx->host->free(w);
	return CG_OK;
}

static int
ch_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	size_t i, a = 0;

	(void)cx;
	for (i = 0; i <= len; i++)
		if (i == len || pos[i] == '_') {
			if (i > a && emit(ctx, pos + a, i - a, NULL))
				return CG_STOP;
			a = i + 1;
		}
	return CG_OK;
}

/*
 * The ruleset NAME (its descriptor NAME_ruleset and its entry point):
 * the hooks above with both_ends BOTH_ENDS, summary SUMMARY.
 */
#define CH_RULESET(NAME, BOTH_ENDS, SUMMARY)                            \
	static int                                                      \
	NAME##_options(const struct cg_context *cx, const unsigned char *pos, \
	    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)  \
	{                                                               \
		return ch_options(cx, pos, len, side, emit, ctx, BOTH_ENDS); \
	}                                                               \
	static int                                                      \
	NAME##_synch_options(const struct cg_context *cx,               \
	    const unsigned char *pos, size_t len, cg_emit_joint_fn emit, \
	    void *ctx)                                                  \
	{                                                               \
		return ch_synch_options(cx, pos, len, emit, ctx, BOTH_ENDS); \
	}                                                               \
	static int                                                      \
	NAME##_decided_value(const struct cg_context *cx,               \
	    const unsigned char *pos, size_t len, int64_t *num, int64_t *den) \
	{                                                               \
		return ch_decided_value(cx, pos, len, num, den, BOTH_ENDS); \
	}                                                               \
	static int                                                      \
	NAME##_canonical(const struct cg_context *cx,                   \
	    const unsigned char *pos, size_t len, struct cg_buf *out)   \
	{                                                               \
		return ch_canonical(cx, pos, len, out, BOTH_ENDS);      \
	}                                                               \
	static const struct cg_ruleset NAME##_ruleset = {               \
		.abi_version = CG_ABI_VERSION,                          \
		.struct_size = sizeof(struct cg_ruleset),               \
		.name = #NAME,                                          \
		.version = "1.0",                                       \
		.summary = SUMMARY,                                     \
		.params_help = NULL,                                    \
		.flags = CG_SYMMETRY | CG_DECOMPOSES | CG_SYNCHRONIZED, \
		.parse = ch_parse,                                      \
		.print = ch_print,                                      \
		.options = NAME##_options,                              \
		.canonical = NAME##_canonical,                          \
		.decompose = ch_decompose,                              \
		.synch_options = NAME##_synch_options,                  \
		.decided_value = NAME##_decided_value,                  \
	};                                                              \
	CG_RULESET_ENTRY(NAME, NAME##_ruleset)

#endif
