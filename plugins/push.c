/*
 * push.c - Push: a row of Left (B) and Right (R) stones and gaps (_).
 * Index 0 is the left edge.  A move pushes one of your own stones one
 * square to the left; the stones between it and the nearest gap to its
 * left move with it (filling the gap), and with no gap the stone at
 * index 0 falls off the edge.  The synchronized game (CGSynch's rules):
 * when both players push at once, the push with the smaller index is made
 * first, then the other one on the resulting row.  A decided position is
 * worth the sum of (index + 1) over the stones of the player who can
 * still move (positive for Left).
 *
 * Text: B or b (Left), R, r, W or w (Right), _ . or space (gap); trailing
 * gaps are dropped (they never matter).  The empty row prints as "_".
 * Bytes: one of 'B', 'R', '_' per square, no trailing '_'.
 */
#include <stdio.h>
#include <string.h>

#include "cg/ruleset.h"
#include "stones.h"

#define MAX_LEN STONES_MAX

static int
push_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	return stones_parse_row(cx, text, len, MAX_LEN, out);
}

static int
check(const struct cg_context *cx, const unsigned char *pos, size_t len)
{
	return stones_check_row(cx, pos, len, "push");
}

static int
push_print(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	return stones_print_row(cx, pos, len, "push", out);
}

/* Push the stone at i (in place, len unchanged). */
static void
push_at(unsigned char *b, size_t i)
{
	size_t j = i;

	while (j > 0 && b[j - 1] != '_')
		j--;
	if (j == 0) {
		/* no gap: everything from 0 to i moves, b[0] falls off */
		memmove(b, b + 1, i);
	} else {
		/* gap at j - 1 is filled */
		memmove(b + j - 1, b + j, i - j + 1);
	}
	b[i] = '_';
}

/* Of two pushes at once, the smaller index is made first (CGSynch). */
static void
push_both(unsigned char *b, size_t lo, size_t hi)
{
	push_at(b, lo);
	push_at(b, hi);
}

static int
push_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	return stones_row_options(cx, pos, len, "push", side, push_at, emit,
	    ctx);
}

static int
push_synch_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_joint_fn emit, void *ctx)
{
	return stones_row_synch_options(cx, pos, len, "push", push_both, emit,
	    ctx);
}

static int
push_decided_value(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int64_t *num, int64_t *den)
{
	int64_t l = 0, r = 0;
	size_t i;

	if (check(cx, pos, len) < 0)
		return CG_EPARSE;
	for (i = 0; i < len; i++) {
		if (pos[i] == 'B')
			l += (int64_t)i + 1;
		else if (pos[i] == 'R')
			r += (int64_t)i + 1;
	}
	if (l > 0 && r > 0)
		return cx->host->error(cx->err, 0,
		    "push position is not decided (both players can move)");
	*num = l - r;
	*den = 1;
	return CG_OK;
}

static const struct cg_ruleset push_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "push",
	.version = "1.0",
	.summary = "Push: push one of your stones left, shunting the block "
	    "before it (CGSynch's joint moves)",
	.params_help = NULL,
	.flags = CG_SYNCHRONIZED,
	.parse = push_parse,
	.print = push_print,
	.options = push_options,
	.synch_options = push_synch_options,
	.decided_value = push_decided_value,
};

CG_RULESET_ENTRY(push, push_ruleset)
