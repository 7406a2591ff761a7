/*
 * cg/value.h - extension "cg.value": values a ruleset knows without a
 * search.
 *
 * Some positions carry their value on their face: a game literal is its
 * own canonical form, a Nim heap of n is *n.  A ruleset that knows such
 * values returns this table from its extension hook under CG_EXT_VALUE;
 * the engines ask it before they expand a component, and do not expand
 * a component whose value it gives.  The value is written as a game
 * literal in CGSuite's notation (cg/gamelit.h), so any value the
 * canonical store can hold can be given.
 */
#ifndef CG_VALUE_H
#define CG_VALUE_H

#include "cg/ruleset.h"

#define CG_EXT_VALUE "cg.value"

struct cg_value_ext {
	uint32_t struct_size;   /* sizeof(struct cg_value_ext) at build time */
	/* Append the value of the component pos (as decompose() emits it)
	 * as a game literal to out: CG_OK, or CG_EUNSUPPORTED when the ruleset
	 * knows no value for this position short of searching it. */
	int (*value)(const struct cg_context *cx, const unsigned char *pos,
	    size_t len, struct cg_buf *out);
};

#endif
