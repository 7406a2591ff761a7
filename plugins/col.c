/*
 * col.c - Col: a player colours an uncoloured vertex with their colour
 * (Left blue, Right red), never next to a vertex of their own colour.
 *
 * Positions are graphs in CGSuite's notation (see lib/graphgame.h): the
 * vertices left uncoloured, each '.' (untinted), 'L' (next to a blue
 * vertex) or 'R' (next to a red one), e.g. "R-.-R-.-L-.-R-.-R-." (CGSuite:
 * 7/8).  Left may colour '.' and 'R' vertices, Right '.' and 'L' ones.
 * decompose() gives the connected components; canonical() renumbers each
 * component (least depth-first numbering) and sorts them.
 */
#include "cg/ruleset.h"
#include "graphgame.h"

static int
col_permit(enum cg_side side, int tint)
{
	return tint == '.' || tint == (side == CG_LEFT ? 'R' : 'L');
}

static int
col_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	return gg_options(cx, pos, len, side, emit, ctx, col_permit);
}

static const struct cg_ruleset col_ruleset = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "col",
	.version = "1.0",
	.summary = "Col: colour a vertex not next to one of your own colour",
	.params_help = NULL,
	.flags = CG_SYMMETRY | CG_DECOMPOSES,
	.parse = gg_parse_hook,
	.print = gg_print_hook,
	.options = col_options,
	.canonical = gg_canonical,
	.decompose = gg_decompose,
};

CG_RULESET_ENTRY(col, col_ruleset)
