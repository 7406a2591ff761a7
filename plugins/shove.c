/*
 * shove.c - Shove (Lessons in Play): a row of Left (B) and Right (R)
 * stones and gaps (_), index 0 at the left edge.  A move shoves one of
 * your own stones one square to the left together with everything to its
 * left; whatever was on square 0 falls off.  Synchronized (CGSynch's
 * rule): shoves at a and b at once move the squares up to min(a,b) two to
 * the left and those in (min, max] one to the left.  A decided position is
 * worth 1 + the index of the last stone of the player who can still move
 * (positive for Left).
 *
 * Text and bytes as for push: B/b, R/r/W/w, _ . or space; trailing gaps
 * dropped; the empty row prints as "_".
 */
#include <stdio.h>
#include <string.h>

#include "cg/ruleset.h"
#include "stones.h"

#define MAX_LEN STONES_MAX

static int
shove_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	return stones_parse_row(cx, text, len, MAX_LEN, out);
}

static int
check(const struct cg_context *cx, const unsigned char *pos, size_t len)
{
	return stones_check_row(cx, pos, len, "shove");
}

static int
shove_print(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	return stones_print_row(cx, pos, len, "shove", out);
}

/* Shove the stone at i: every square from 0 to i moves one left (the
 * content of square 0 falls off), square i becomes empty. */
static void
shove_at(unsigned char *b, size_t i)
{
	memmove(b, b + 1, i);
	b[i] = '_';
}

/* Both players shove at once, at lo < hi: squares up to lo move two left,
 * squares in (lo, hi] one left (CGSynch's rule). */
static void
shove_both(unsigned char *b, size_t lo, size_t hi)
{
	size_t k;

	for (k = 0; k + 2 <= lo; k++)
		b[k] = b[k + 2];
	if (lo >= 1)
		b[lo - 1] = '_';
	for (k = lo; k < hi; k++)
		b[k] = b[k + 1];
	b[hi] = '_';
}

static int
shove_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	return stones_row_options(cx, pos, len, "shove", side, shove_at, emit,
	    ctx);
}

static int
shove_synch_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_joint_fn emit, void *ctx)
{
	return stones_row_synch_options(cx, pos, len, "shove", shove_both,
	    emit, ctx);
}

static int
shove_decided_value(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int64_t *num, int64_t *den)
{
	int64_t l = 0, r = 0;
	size_t i;

	if (check(cx, pos, len) < 0)
		return CG_EPARSE;
	for (i = 0; i < len; i++) {
		if (pos[i] == 'B')
			l = (int64_t)i + 1;
		else if (pos[i] == 'R')
			r = (int64_t)i + 1;
	}
	if (l > 0 && r > 0)
		return cx->host->error(cx->err, 0,
		    "shove position is not decided (both players can move)");
	*num = l - r;
	*den = 1;
	return CG_OK;
}

static const struct cg_ruleset shove_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "shove",
	.version = "1.0",
	.summary = "Shove: shove one of your stones and everything left of it "
	    "one square left (CGSynch's joint moves)",
	.params_help = NULL,
	.flags = CG_SYNCHRONIZED,
	.parse = shove_parse,
	.print = shove_print,
	.options = shove_options,
	.synch_options = shove_synch_options,
	.decided_value = shove_decided_value,
};

CG_RULESET_ENTRY(shove, shove_ruleset)
