/*
 * cherries.c - Cherries (van den Bergh, De Mol; CGSynch): segments of
 * Left (B) and Right (R) stones; a move takes a stone of your colour from
 * either end of a segment.  Synchronized (CGSynch's rule): moves on
 * different segments each remove their end; on the same segment both ends
 * go.  A decided position is worth the number of stones the player who
 * can still move could take alone (positive for Left): every stone of a
 * one-colour position.  (CGSynch counts segment ends instead when both
 * colours remain, which it warns about; see cherries(7).)
 *
 * Text: segments of B/b and R/r/W/w separated by _ . or spaces, e.g.
 * "BRB_RBR"; "_" is the empty position.  canonical() reverses segments
 * and sorts them.
 */
#include <stdio.h>

#include "lib/cherries.h"

static int
cherries_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	return ch_options(cx, pos, len, side, emit, ctx, 1);
}

static int
cherries_synch_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_joint_fn emit, void *ctx)
{
	return ch_synch_options(cx, pos, len, emit, ctx, 1);
}

static int
cherries_decided_value(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int64_t *num, int64_t *den)
{
	return ch_decided_value(cx, pos, len, num, den, 1);
}

static int
cherries_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	return ch_canonical(cx, pos, len, out, 1);
}

static int
cherries_decompose(const struct cg_context *cx, const unsigned char *pos,
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

static const struct cg_ruleset cherries_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "cherries",
	.version = "1.0",
	.summary = "Cherries: take a stone of your colour from either end of "
	    "a segment (CGSynch's joint moves)",
	.params_help = NULL,
	.flags = CG_SYMMETRY | CG_DECOMPOSES | CG_SYNCHRONIZED,
	.parse = ch_parse,
	.print = ch_print,
	.options = cherries_options,
	.canonical = cherries_canonical,
	.decompose = cherries_decompose,
	.synch_options = cherries_synch_options,
	.decided_value = cherries_decided_value,
};

CG_RULESET_ENTRY(cherries, cherries_ruleset)
