/*
 * cgx/searchorder.h - the "cg.search-order" ruleset extension (see
 * cg-ruleset(3)): a position's options in the order a search should try
 * them first.
 *
 * options(pos, side, emit, ctx) emits exactly the options the ruleset's
 * options() hook emits for pos and side, each once, with the same move
 * name and the same child, in search order.  The outcome searches sort
 * moves by their own keys (the cg.move-counts lead, the order_key hook)
 * and keep this order among moves those rate alike; tools that list moves
 * (cg-options, cg-play) keep options() order.  The order changes how long
 * a search takes, never its answer.  (Domineering: the dominoes one line
 * in from an edge first, as Bullock's Obsequi orders them.)
 *
 * The host asks extension(cx, CG_EXT_SEARCH_ORDER) once, when it loads
 * the ruleset, and calls options() from the threads the ruleset's states
 * serve, like the options() hook.  Growth: fields are only appended; the
 * host reads a field only below struct_size.
 */
#ifndef CG_SEARCHORDER_H
#define CG_SEARCHORDER_H

#include <stdint.h>

#include "../cg/ruleset.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CG_EXT_SEARCH_ORDER "cg.search-order"

struct cg_search_order {
	uint32_t struct_size;   /* sizeof(struct cg_search_order) of the plugin */
	int (*options)(const struct cg_context *cx, const unsigned char *pos,
	    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx);
};

#ifdef __cplusplus
}
#endif
#endif
