/*
 * toads.c - Toads and Frogs on a strip.
 *
 * Text (CGSuite's ToadsAndFrogs notation): one character per square, `t` a
 * toad (Left's, moves right), `f` a frog (Right's, moves left), `.` empty;
 * e.g. "t.tff".  Upper-case `T` and `F` are accepted and printed lower
 * case.  Bytes: the same characters, lower case.
 *
 * A move slides one of your creatures one square forward into an empty
 * square, or jumps it forward over exactly one adjacent enemy creature into
 * the empty square beyond.
 *
 * Frozen material.  A set F of occupied squares is frozen when, for each
 * creature in F, each square it could ever move to is off the strip or in
 * F, and each jump it could make is over its own kind or lands off the strip
 * or in F.  By induction no creature of F ever moves, so its squares stay
 * occupied for ever.  The largest such set is found by removing violators
 * until none is left.  A frozen run of two or more squares cannot be jumped
 * (a jump passes exactly one creature) nor entered, so the creatures on
 * either side behave as if the strip ended there: the position is the sum
 * of the segments between such runs.  A frozen run touching an end of the
 * strip (or of a segment) is equivalent to the end itself: nothing can
 * land beyond it.  decompose() emits those segments; canonical() strips
 * frozen ends and joins the segments with the always-frozen wall "ttff".
 * Mirroring the strip and swapping t with f gives the negative, so there
 * is no symmetry to fold.  enumerate("N") gives every strip of N squares.
 */
#include <stdio.h>
#include <string.h>

#include "cg/ruleset.h"
#include "bytes.h"

#define MAX_LEN 4096

static int
toads_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	const struct cg_host *h = cx->host;
	size_t i;
	int c;

	if (len == 0)
		return h->error(cx->err, 1, "empty strip (write '.' for one "
		    "empty square)");
	if (len > MAX_LEN)
		return h->error(cx->err, MAX_LEN + 1,
		    "strip too long (at most %d squares)", MAX_LEN);
	for (i = 0; i < len; i++) {
		c = text[i];
		if (c == 'T')
			c = 't';
		else if (c == 'F')
			c = 'f';
		if (c != 't' && c != 'f' && c != '.')
			return h->error(cx->err, i + 1, "expected 't', 'f' or "
			    "'.', found '%c'", text[i]);
		if (h->buf_putc(out, c) < 0)
			return CG_ENOMEM;
	}
	return CG_OK;
}

static int
check(const struct cg_context *cx, const unsigned char *pos, size_t len)
{
	size_t i;

	if (len == 0 || len > MAX_LEN)
		return cx->host->error(cx->err, 0, "corrupt toads position");
	for (i = 0; i < len; i++)
		if (pos[i] != 't' && pos[i] != 'f' && pos[i] != '.')
			return cx->host->error(cx->err, 0,
			    "corrupt toads position");
	return CG_OK;
}

static int
toads_print(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	int rc = check(cx, pos, len);

	if (rc < 0)
		return rc;
	return cx->host->buf_put(out, pos, len);
}

static int
toads_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	unsigned char *child;
	char move[48];
	size_t i, to;
	int rc = check(cx, pos, len), me, enemy, stop;

	if (rc < 0)
		return rc;
	child = cx->host->alloc(len);
	if (child == NULL)
		return CG_ENOMEM;
	me = side == CG_LEFT ? 't' : 'f';
	enemy = side == CG_LEFT ? 'f' : 't';
	stop = 0;
	/* Squares in strip order, 1-based in move names "FROM-TO". */
	for (i = 0; i < len && !stop; i++) {
		if (pos[i] != me)
			continue;
		to = (size_t)-1;
		if (side == CG_LEFT) {
			if (i + 1 < len && pos[i + 1] == '.')
				to = i + 1;
			else if (i + 2 < len && pos[i + 1] == enemy &&
			    pos[i + 2] == '.')
				to = i + 2;
		} else {
			if (i >= 1 && pos[i - 1] == '.')
				to = i - 1;
			else if (i >= 2 && pos[i - 1] == enemy &&
			    pos[i - 2] == '.')
				to = i - 2;
		}
		if (to == (size_t)-1)
			continue;
		memcpy(child, pos, len);
		child[i] = '.';
		child[to] = (unsigned char)me;
		snprintf(move, sizeof move, "%zu-%zu", i + 1, to + 1);
		stop = emit(ctx, child, len, move);
	}
	cx->host->free(child);
	return stop ? CG_STOP : CG_OK;
}

/* Mark the largest frozen set (see the top of the file) in fz[]. */
static void
frozen(const unsigned char *pos, size_t len, unsigned char *fz)
{
	size_t i;
	int changed = 1, ok;

	for (i = 0; i < len; i++)
		fz[i] = pos[i] != '.';
	while (changed) {
		changed = 0;
		for (i = 0; i < len; i++) {
			if (!fz[i])
				continue;
			if (pos[i] == 't')
				ok = (i + 1 >= len || fz[i + 1]) &&
				    (i + 1 >= len || pos[i + 1] == 't' ||
				    i + 2 >= len || fz[i + 2]);
			else
				ok = (i == 0 || fz[i - 1]) &&
				    (i == 0 || pos[i - 1] == 'f' || i == 1 ||
				    fz[i - 2]);
			if (!ok) {
				fz[i] = 0;
				changed = 1;
			}
		}
	}
}

/*
 * Call fn for each segment between frozen runs of length >= 2 with frozen
 * squares at its ends trimmed; segments left empty are skipped.
 */
typedef int (*seg_fn)(void *arg, const unsigned char *seg, size_t n);

static int
segments(const struct cg_context *cx, const unsigned char *pos, size_t len,
    seg_fn fn, void *arg)
{
	unsigned char *fz;
	size_t i, a, b, r;
	int rc = CG_OK;

	fz = cx->host->alloc(len);
	if (fz == NULL)
		return CG_ENOMEM;
	frozen(pos, len, fz);
	i = 0;
	while (i < len && rc == CG_OK) {
		/* segment [i, b): stop at a frozen run of length >= 2 */
		b = i;
		while (b < len) {
			if (fz[b]) {
				r = b;
				while (r < len && fz[r])
					r++;
				if (r - b >= 2)
					break;
				b = r;
			} else
				b++;
		}
		a = i;
		r = b;
		while (a < r && fz[a])
			a++;
		while (r > a && fz[r - 1])
			r--;
		if (r > a)
			rc = fn(arg, pos + a, r - a);
		i = b;
		while (i < len && fz[i])
			i++;
	}
	cx->host->free(fz);
	return rc;
}

struct canon_arg {
	const struct cg_context *cx;
	struct cg_buf *out;
	size_t start;
};

static int
canon_seg(void *arg, const unsigned char *seg, size_t n)
{
	struct canon_arg *a = arg;
	const struct cg_host *h = a->cx->host;

	if (a->out->len > a->start && h->buf_put(a->out, "ttff", 4) < 0)
		return CG_ENOMEM;
	return h->buf_put(a->out, seg, n) < 0 ? CG_ENOMEM : CG_OK;
}

static int
toads_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	struct canon_arg a = { cx, out, out->len };
	int rc = check(cx, pos, len);

	if (rc < 0)
		return rc;
	rc = segments(cx, pos, len, canon_seg, &a);
	if (rc < 0)
		return rc;
	if (out->len == a.start)
		return cx->host->buf_putc(out, '.');
	return CG_OK;
}

struct dec_arg {
	cg_emit_fn emit;
	void *ctx;
};

static int
dec_seg(void *arg, const unsigned char *seg, size_t n)
{
	struct dec_arg *a = arg;

	return a->emit(a->ctx, seg, n, NULL) ? CG_STOP : CG_OK;
}

static int
toads_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	struct dec_arg a = { emit, ctx };
	int rc = check(cx, pos, len);

	if (rc < 0)
		return rc;
	return segments(cx, pos, len, dec_seg, &a);
}

/*
 * The measure: over the creatures outside the largest frozen set F, the
 * squares outside F ahead of each (to the right of a toad, to the left of
 * a frog).  Every move lowers it, and so does every component of every
 * option:
 *
 * 1. A creature of F never moves, so a move of creature c (from square i
 *    to an empty square j ahead of it) leaves the squares of F and what
 *    stands on them as they were; the conditions that make F frozen name
 *    only those squares and the ends of the strip, so F is still frozen
 *    after the move, and the child's largest frozen set F' contains F.
 *    Squares i and j were outside F (c moved; j was empty), so every
 *    square outside F' was outside F: each creature other than c counts
 *    a subset of what it counted before, and c, if not frozen now,
 *    counts the squares outside F' ahead of j, a subset of those it
 *    counted ahead of i minus j itself.  The child measures less.
 * 2. A component is a piece K of the child cut at frozen squares (and
 *    with frozen ends trimmed).  F' restricted to K is frozen in K, since
 *    a condition about a square beyond K's ends holds at the end of a
 *    strip; so K's frozen set contains it, each creature not frozen in K
 *    was not frozen in the child, and what it counts in K is a subset of
 *    what it counted there.  So K measures at most the child.
 * 3. canonical() joins the pieces of K by the wall "ttff", which is
 *    frozen whatever stands around it, and a frozen square of a piece
 *    stays frozen next to the wall (the wall's toads face the piece's
 *    toads as toads, its frogs the frogs as frogs); the squares outside
 *    the frozen set keep their order, so canonical(K) measures at most
 *    K.
 */
static int
toads_measure(const struct cg_context *cx, const unsigned char *pos,
    size_t len, uint64_t *m)
{
	unsigned char fz[MAX_LEN];
	size_t i, free_left = 0, free_all = 0;
	uint64_t n = 0;
	int rc = check(cx, pos, len);

	if (rc < 0)
		return rc;
	frozen(pos, len, fz);
	for (i = 0; i < len; i++)
		free_all += !fz[i];
	for (i = 0; i < len; i++) {
		/* free_left: squares outside F left of i */
		if (!fz[i] && pos[i] == 't')
			n += free_all - free_left - 1;
		else if (!fz[i] && pos[i] == 'f')
			n += free_left;
		free_left += !fz[i];
	}
	*m = n;
	return CG_OK;
}

/* enumerate("N"): every strip of N squares (N <= 16), in the order
 * '.' < 'f' < 't' read left to right. */
static int
toads_enumerate(const struct cg_context *cx, const char *family,
    cg_emit_fn emit, void *ctx)
{
	static const char sym[3] = { '.', 'f', 't' };
	unsigned char s[16];
	int d[16];
	uint32_t n;
	size_t i;

	if (family_n(family, 16, &n) < 0)
		return cx->host->error(cx->err, 0, "bad family '%s' (expected "
		    "a strip length N, 1..16)", family ? family : "");
	memset(d, 0, sizeof d);
	for (;;) {
		for (i = 0; i < n; i++)
			s[i] = (unsigned char)sym[d[i]];
		if (emit(ctx, s, n, NULL))
			return CG_STOP;
		for (i = n; i > 0 && d[i - 1] == 2; i--)
			d[i - 1] = 0;
		if (i == 0)
			return CG_OK;
		d[i - 1]++;
	}
}

static const struct cg_ruleset toads_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "toads",
	.version = "1.0",
	.summary = "Toads and Frogs: toads (t) move right, frogs (f) left",
	.params_help = NULL,
	.flags = CG_SYMMETRY | CG_DECOMPOSES | CG_ENUMERATES,
	.parse = toads_parse,
	.print = toads_print,
	.options = toads_options,
	.canonical = toads_canonical,
	.decompose = toads_decompose,
	.enumerate = toads_enumerate,
	.measure = toads_measure,
};

CG_RULESET_ENTRY(toads, toads_ruleset)
