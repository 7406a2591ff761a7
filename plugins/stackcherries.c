/*
 * stackcherries.c - StackCherries (CGSynch): like Cherries, but a stone
 * may only be taken from the front (the first stone written) of a
 * segment.  Synchronized: both players take the front stones of their
 * segments (always different segments).  CGSynch never finishes this
 * ruleset's synchronized analysis (its joint-option matrix is never
 * stored); cg-synch applies the same rules as Cherries.  A decided
 * position is worth the stones the player who can still move could take
 * alone: every stone of a one-colour position.
 *
 * Text as for cherries: "BRB_RBR"; "_" is the empty position.
 * canonical() sorts the segments (they cannot be reversed).
 */
#include <stdio.h>

#include "lib/cherries.h"

static int
stackcherries_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	return ch_options(cx, pos, len, side, emit, ctx, 0);
}

static int
stackcherries_synch_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_joint_fn emit, void *ctx)
{
	return ch_synch_options(cx, pos, len, emit, ctx, 0);
}

static int
stackcherries_decided_value(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int64_t *num, int64_t *den)
{
	return ch_decided_value(cx, pos, len, num, den, 0);
}

static int
stackcherries_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	return ch_canonical(cx, pos, len, out, 0);
}

static int
stackcherries_decompose(const struct cg_context *cx, const unsigned char *pos,
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

static const struct cg_ruleset stackcherries_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "stackcherries",
	.version = "1.0",
	.summary = "StackCherries: take the front stone of a segment "
	    "starting with your colour (CGSynch's joint moves)",
	.params_help = NULL,
	.flags = CG_SYMMETRY | CG_DECOMPOSES | CG_SYNCHRONIZED,
	.parse = ch_parse,
	.print = ch_print,
	.options = stackcherries_options,
	.canonical = stackcherries_canonical,
	.decompose = stackcherries_decompose,
	.synch_options = stackcherries_synch_options,
	.decided_value = stackcherries_decided_value,
};

CG_RULESET_ENTRY(stackcherries, stackcherries_ruleset)
