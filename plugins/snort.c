/*
 * snort.c - Snort: a player colours an uncoloured vertex with their colour
 * (Left blue, Right red), never next to a vertex of the opponent's colour.
 *
 * Positions are graphs in CGSuite's notation (see lib/graphgame.h): the
 * vertices left uncoloured, each '.' (untinted), 'L' (next to a blue
 * vertex) or 'R' (next to a red one), e.g. "L-.-.-.-L" (CGSuite:
 * {4|0,+-1}).  Left may colour '.' and 'L' vertices, Right '.' and 'R' ones.
 * decompose() gives the connected components; canonical() renumbers each
 * component (least depth-first numbering) and sorts them.
 */
#include "cg/ruleset.h"
#include "graphgame.h"

static int
snort_permit(enum cg_side side, int tint)
{
	return tint == '.' || tint == (side == CG_LEFT ? 'L' : 'R');
}

static int
snort_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	return gg_options(cx, pos, len, side, emit, ctx, snort_permit);
}

static const struct cg_ruleset snort_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "snort",
	.version = "1.0",
	.summary = "Snort: colour a vertex not next to one of the opponent's colour",
	.params_help = NULL,
	.flags = CG_SYMMETRY | CG_DECOMPOSES,
	.parse = gg_parse_hook,
	.print = gg_print_hook,
	.options = snort_options,
	.canonical = gg_canonical,
	.decompose = gg_decompose,
};

CG_RULESET_ENTRY(snort, snort_ruleset)
