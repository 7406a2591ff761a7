/* loopybuild.h - the knowledge base of a loopy ruleset's family
 * (CG_LOOPY), built by one retrograde analysis over the whole family.
 *
 * A loopy family has no measure that every move decreases, so it cannot
 * be built from the leaves up in waves as short games are (build.h).
 * Instead every position of the family, and every position those reach
 * by either player's moves (so the set is closed under moves), is
 * explored into one graph (solve/explore.h) and solved at once
 * (solve/retro.h).  Every explored position is an entry, keyed by its
 * canonical bytes, with the kinds asked for:
 *   "outcome"     the class with draws, as cg-outcome -t prints it
 *   "remoteness"  "wN lN d" per player moving first, as cg-outcome -t
 *                 --remoteness prints it
 *   "nimber"      the generalized Sprague-Grundy value (impartial
 *                 rulesets), as cg-outcome -t -n prints it
 * The base is written in cgkb(5)'s format, as text kinds. */
#ifndef CG_KB_LOOPYBUILD_H
#define CG_KB_LOOPYBUILD_H

#include "host/plugin.h"
#include "kb/build.h"

/* The kinds a loopy base holds when none are asked for. */
#define CG_KB_LOOPY_KINDS "outcome,remoteness"

/* Build the base of o->family of loopy ruleset rs and write it to path
 * ("-" for standard output).  With dry_run, print only the number of
 * positions (the family and what it reaches) on standard output.  Kinds
 * a loopy base cannot hold, no family, o->measured (a loopy ruleset has
 * no measure) and shards are a usage error (exit 2); an interrupt or
 * the memory limit stops the program with the reason and the positions
 * explored by then; with o->progress, a line on standard error every
 * second while exploring and the figures at the end. */
void cg_kb_loopy_build(const struct cg_kb_build_options *o,
    struct cg_plugin *rs, const char *path, int dry_run);

/* cg-kb-build --verify of a base of loopy ruleset rs (f checked and
 * bound): every key canonical, the entries closed under moves, and every
 * value what one retrograde analysis of them gives.  A fault is fatal,
 * naming the position. */
struct cg_kbfile;
void cg_kb_loopy_verify(struct cg_kbfile *f, struct cg_plugin *rs,
    int verbose);

#endif
