/*
 * backsliding.c - Backsliding Toads and Frogs on a strip (Siegel,
 * "Backsliding Toads and Frogs", Games of No Chance 3, 2009; CGSuite's
 * BackslidingToadsAndFrogs).
 *
 * Text (as the toads ruleset's): one character per square, `t` a toad
 * (Left's, moves right), `f` a frog (Right's, moves left), `.` empty; e.g.
 * "tt..ff".  Upper-case `T` and `F` are accepted and printed lower case.
 * Bytes: the same characters, lower case.
 *
 * A move is one of Toads and Frogs's -- a creature slides one square
 * forward into an empty square, or jumps forward over exactly one
 * adjacent enemy creature into the empty square beyond -- or a slide one
 * square back into an empty square.  There are no backward jumps.  A
 * creature can slide back and forth, so positions come back: the ruleset
 * is loopy (CG_LOOPY) and play that never ends is a draw.  Nothing is
 * frozen for good (a creature blocked now may be freed by a neighbour's
 * backward slide), so positions are not split into sums, and mirroring
 * with t and f swapped is the negative, no symmetry: every position is
 * its own canonical form.
 *
 * enumerate("N"): every strip of N squares (N <= 16); enumerate("N:T:F"):
 * every strip of N squares (N <= 32) with at most T toads and at most F
 * frogs.  A move keeps the numbers of toads and frogs, so both families
 * are closed under moves, as a loopy family's knowledge base needs.
 * Strips come in the order '.' < 'f' < 't' read left to right.
 */
#include <stdio.h>
#include <string.h>

#include "cg/ruleset.h"
#include "bytes.h"

#define MAX_LEN 4096

static int
bs_parse(const struct cg_context *cx, const char *text, size_t len,
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
		c = text[i] == 'T' ? 't' : text[i] == 'F' ? 'f' : text[i];
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
		return cx->host->error(cx->err, 0,
		    "corrupt backsliding position");
	for (i = 0; i < len; i++)
		if (pos[i] != 't' && pos[i] != 'f' && pos[i] != '.')
			return cx->host->error(cx->err, 0,
			    "corrupt backsliding position");
	return CG_OK;
}

static int
bs_print(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	int rc = check(cx, pos, len);

	return rc < 0 ? rc : cx->host->buf_put(out, pos, len);
}

/* Emit the move of the creature on square i to square to (0-based), named
 * "FROM-TO" with squares numbered from 1. */
static int
emit_move(unsigned char *child, const unsigned char *pos, size_t len,
    size_t i, size_t to, cg_emit_fn emit, void *ctx)
{
	char move[48];

	memcpy(child, pos, len);
	child[to] = pos[i];
	child[i] = '.';
	snprintf(move, sizeof move, "%zu-%zu", i + 1, to + 1);
	return emit(ctx, child, len, move);
}

static int
bs_options(const struct cg_context *cx, const unsigned char *pos, size_t len,
    enum cg_side side, cg_emit_fn emit, void *ctx)
{
	unsigned char *child;
	size_t i, to;
	int rc = check(cx, pos, len), me, enemy, stop = 0;
	/* forward is +1 for toads, -1 for frogs; squares are 0 .. len-1 */
	long fwd = side == CG_LEFT ? 1 : -1, a, b;

	if (rc < 0)
		return rc;
	child = cx->host->alloc(len);
	if (child == NULL)
		return CG_ENOMEM;
	me = side == CG_LEFT ? 't' : 'f';
	enemy = side == CG_LEFT ? 'f' : 't';
	/* creatures in strip order; each one's forward move first (a slide
	 * or a jump: at most one applies), then its slide back */
	for (i = 0; i < len && !stop; i++) {
		if (pos[i] != me)
			continue;
		a = (long)i + fwd;
		b = (long)i + 2 * fwd;
		to = (size_t)-1;
		if (a >= 0 && a < (long)len && pos[a] == '.')
			to = (size_t)a;
		else if (a >= 0 && a < (long)len && pos[a] == enemy &&
		    b >= 0 && b < (long)len && pos[b] == '.')
			to = (size_t)b;
		if (to != (size_t)-1)
			stop = emit_move(child, pos, len, i, to, emit, ctx);
		a = (long)i - fwd;
		if (!stop && a >= 0 && a < (long)len && pos[a] == '.')
			stop = emit_move(child, pos, len, i, (size_t)a, emit,
			    ctx);
	}
	cx->host->free(child);
	return stop ? CG_STOP : CG_OK;
}

struct strips {
	unsigned char s[32];
	uint32_t n;
	cg_emit_fn emit;
	void *ctx;
};

/* Fill squares i .. n-1 with at most t more toads and f more frogs. */
static int
strips(struct strips *w, uint32_t i, uint32_t t, uint32_t f)
{
	if (i == w->n)
		return w->emit(w->ctx, w->s, w->n, NULL) ? CG_STOP : CG_OK;
	w->s[i] = '.';
	if (strips(w, i + 1, t, f) != CG_OK)
		return CG_STOP;
	w->s[i] = 'f';
	if (f > 0 && strips(w, i + 1, t, f - 1) != CG_OK)
		return CG_STOP;
	w->s[i] = 't';
	if (t > 0 && strips(w, i + 1, t - 1, f) != CG_OK)
		return CG_STOP;
	return CG_OK;
}

static int
bs_enumerate(const struct cg_context *cx, const char *family,
    cg_emit_fn emit, void *ctx)
{
	struct strips w;
	uint32_t t, f;
	size_t i = 0, len = family ? strlen(family) : 0;

	w.emit = emit;
	w.ctx = ctx;
	if (len > 0 && is_digit(family[0]) && read_uint(family, len, &i, 32,
	    &w.n) == 0 && w.n > 0) {
		if (i == len && w.n <= 16)
			return strips(&w, 0, w.n, w.n);
		if (i < len && family[i] == ':' && is_digit(family[++i]) &&
		    read_uint(family, len, &i, 32, &t) == 0 && i < len &&
		    family[i] == ':' && is_digit(family[++i]) &&
		    read_uint(family, len, &i, 32, &f) == 0 && i == len)
			return strips(&w, 0, t, f);
	}
	return cx->host->error(cx->err, 0, "expected a strip length N, 1..16, "
	    "or N:T:F, N up to 32 squares with at most T toads and F frogs");
}

static const struct cg_ruleset backsliding_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "backsliding",
	.version = "1.0",
	.summary = "Backsliding Toads and Frogs: toads (t) move right, frogs "
	    "(f) left, both also slide back",
	.params_help = NULL,
	.flags = CG_LOOPY | CG_ENUMERATES,
	.parse = bs_parse,
	.print = bs_print,
	.options = bs_options,
	.enumerate = bs_enumerate,
};

CG_RULESET_ENTRY(backsliding, backsliding_ruleset)
