/* kbvalue.h - computing the values a knowledge base stores.
 *
 * One small interface between cg-kb-build (and cg-kb, cg-play) and the
 * analysis engines: give positions of one ruleset and a value kind, get
 * the value texts back, exactly as the engines' tools print them with -t.
 * The values come from the engines (cg-canon, cg-outcome), never from a
 * search of our own; today they run as a pipeline of the engine tools
 * found next to the running program (or on PATH). */
#ifndef CG_KBVALUE_H
#define CG_KBVALUE_H

#include <stddef.h>

#include "host/plugin.h"

/* The command line (after the tool name) that computes kind, e.g.
 * "cg-outcome -t -n" for "nimber". */
const char *cg_kbv_command(const char *kind, char *buf, size_t len);
/* Compute kind for n positions of rs: out[i] is a malloc'ed value text,
 * or NULL when the engine printed none.  Errors are fatal. */
void cg_kbv_compute(struct cg_plugin *rs, const char *kind, size_t n,
    const unsigned char *const *pos, const size_t *len, char **out);
/* Bases the engines should consult (-K) while computing; may be called
 * several times. */
void cg_kbv_use_base(const char *path);

#endif
