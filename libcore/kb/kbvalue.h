/* kbvalue.h - the values a knowledge base stores, computed in process.
 *
 * A value kind is "canon" (the canonical form), a cg-canon property
 * ("temp", "mean", ...), or a search kind ("outcome", "misere", "nimber",
 * "misere-nimber", "genus"); its text is exactly what cg-canon -t or
 * cg-outcome -t prints for the position.  Canonical forms come from the
 * position graph (solve/canonical.h), search kinds from a session
 * (solve/session.h); nothing starts another program. */
#ifndef CG_KBVALUE_H
#define CG_KBVALUE_H

#include <stddef.h>

#include "host/plugin.h"
#include "values/canon.h"

/* Is kind a value kind, and can rs have it (the impartial kinds need an
 * impartial ruleset)?  1, or 0 with the reason in why. */
int cg_kbv_kind_ok(const char *kind, struct cg_plugin *rs, char *why,
    size_t len);
/* The text of kind that follows from the canonical form g (canon, the
 * properties, outcome, and nimber when g is a nimber): 1, or 0 when kind
 * does not follow from g. */
int cg_kbv_from_canon(const char *kind, cg_game g, struct cg_buf *out);

/* Compute kind for n positions of rs: out[i] is a malloc'ed value text,
 * or NULL when there is none.  Errors are fatal; an interrupt (SIGINT,
 * SIGTERM, the memory limit) is fatal with its reason. */
void cg_kbv_compute(struct cg_plugin *rs, const char *kind, size_t n,
    const unsigned char *const *pos, const size_t *len, char **out);
/* Let the computations consult this base (-K); may be called again. */
void cg_kbv_use_base(const char *path);
/* Free what the computations keep between calls. */
void cg_kbv_done(void);

#endif
