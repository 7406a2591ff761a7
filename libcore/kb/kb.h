/* kb.h - knowledge bases of solved positions (cg-kb-build writes them;
 * cg-canon, cg-outcome and cg-synch read them with -K FILE).
 *
 * A base is keyed by the canonical representative bytes of a position
 * (cg_rs_canonical) of one ruleset with fixed parameters, and stores for
 * each position one or more value kinds as text:
 *   "canon"   canonical form in CGSuite notation   (cg-canon)
 *   "outcome" L, R, N or P                        (cg-outcome)
 *   "nimber"  a non-negative integer              (cg-outcome -n)
 *   "misere"  misere outcome class                (cg-outcome -m)
 * The file format is in cgkb(5). */
#ifndef CG_KB_H
#define CG_KB_H

#include <stddef.h>

#include "graph/graph.h"
#include "host/plugin.h"

/* Open a base for lookups (the -K option); a bad or corrupt file is a
 * fatal error naming the file.  Bases opened this way are searched by
 * cg_kb_find(). */
void cg_kb_add(const char *path);
/* Look pos (canonical bytes of ruleset rs) up in every added base that
 * matches rs (same ruleset name and parameters) and stores kind.  On a
 * hit, append the value text to out and return 1; otherwise return 0. */
int cg_kb_find(struct cg_plugin *rs, const unsigned char *pos, size_t len,
    const char *kind, struct cg_buf *out);
/* cg_kb_find in the shape of struct cg_session_options' known (ctx
 * unused). */
int cg_kb_known(void *ctx, struct cg_plugin *rs, const unsigned char *pos,
    size_t len, const char *kind, struct cg_buf *out);
/* The canonical form of v from the added bases, or CG_NO_GAME (the
 * known() of a struct cg_canon_eval; ctx unused). */
cg_game cg_kb_canon(void *ctx, struct cg_graph *g, cg_vertex v);
/* The canonical form of pos from a base that stores canonical forms
 * as games, or CG_NO_GAME. */
cg_game cg_kb_find_game(struct cg_plugin *rs, const unsigned char *pos,
    size_t len);
/* Every added base must be of ruleset rs (a tool told its ruleset):
 * one of another is a fatal error naming it. */
void cg_kb_expect(struct cg_plugin *rs);
/* cg_kb_expect, then every added base bound to rs (its parameters and
 * version) and checked whole (cgkb(5) checksums of every block, which
 * lookups otherwise check as they first read them): for a tool that
 * should report a bad base before it starts, not at its first lookup.
 * A bad base is a fatal error naming it. */
void cg_kb_check(struct cg_plugin *rs);
/* Close every added base. */
void cg_kb_close_all(void);

#endif
