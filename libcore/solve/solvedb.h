/* solvedb.h - solving databases in Glop's and SPOTS's plain text format
 * (.spr): a header line, then one "position value" line per entry.
 *
 *   [Positions+Nimber]                 position nimber   (losing couples:
 *                                      G + *n is a P-position, nim(G) = n)
 *   [WinLoss_Misere:Losing_Position]   position          (misere P-positions)
 *
 * Positions are written in the ruleset's own notation (the plugin's
 * print), lines sorted bytewise as Glop writes its maps.  Loading merges
 * into a solver; a position whose value disagrees with one already known
 * is a hard error naming it.  Saving is atomic: a temporary file in the
 * same directory is written, flushed to disk and renamed over the old one,
 * so an interrupted save leaves the previous file intact. */
#ifndef CG_SOLVEDB_H
#define CG_SOLVEDB_H

#include <stddef.h>

#include "solve/outcome.h"

enum cg_solvedb_kind { CG_DB_NIMBER, CG_DB_MISERE };

/* Entries a nimber database held for sums of several components (kept
 * as text and written back unchanged). */
struct cg_solvedb_extra {
	char **lines;
	size_t n, cap;
};

/*
 * Merge the database in path into s.  A missing file is an empty
 * database when missing_ok is set.  On error returns -1 with a message
 * "file:line: ..." in err; entries read before the error stay merged.
 * A bytemap "guide" load (check mode) uses cg_solvedb_read instead.
 */
int cg_solvedb_load(const char *path, struct cg_solver *s,
    enum cg_solvedb_kind kind, int missing_ok,
    struct cg_solvedb_extra *extra, char *err, size_t errlen);

/* Read the entries of path: fn(ctx, position bytes, part ends, number of
 * parts, value, text, line) for each (value -1 for misere lines).  A
 * position is one part, or several for a sum written as parts separated
 * by '+' (rulesets whose notation has no sums).  Same errors as above; fn
 * returns non-zero to fail with the message it put in err. */
int cg_solvedb_read(const char *path, struct cg_plugin *rs,
    enum cg_solvedb_kind kind, int missing_ok,
    int (*fn)(void *ctx, const unsigned char *pos, const size_t *ends,
    size_t nparts, long value, const char *text, unsigned long line,
    char *err, size_t errlen),
    void *ctx, char *err, size_t errlen);

/* Write what s knows (nimbers of components, or misere losses) plus the
 * extra lines to path atomically.  Returns the number of entries, or -1
 * with err set (the old file is then untouched). */
long cg_solvedb_save(const char *path, struct cg_solver *s,
    enum cg_solvedb_kind kind, const struct cg_solvedb_extra *extra,
    char *err, size_t errlen);

/* Write arbitrary sorted lines under the header of kind, atomically. */
int cg_solvedb_write_lines(const char *path, enum cg_solvedb_kind kind,
    char **lines, size_t n, char *err, size_t errlen);

void cg_solvedb_extra_free(struct cg_solvedb_extra *x);

#endif
