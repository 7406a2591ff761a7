/* canonprop.h - named properties of canonical games, as cg-canon -p
 * prints them (CGSuite's printed forms). */
#ifndef CG_CANONPROP_H
#define CG_CANONPROP_H

#include "values/canon.h"
#include "base/buf.h"

/* Is name a property cg_canon_property knows? */
int cg_canon_property_known(const char *name);
/* Append the value of property name of g to out. */
void cg_canon_property(cg_game g, const char *name, struct cg_buf *out);

/* Reduced canonical form, and atomic weight (CG_NO_GAME when g is not
 * all-small and has none). */
cg_game cg_canon_rcf(cg_game g);
cg_game cg_canon_atomic_weight(cg_game g);

#endif
