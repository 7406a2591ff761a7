/* loopy.h - cg-outcome's values of the games of a document read as a
 * graph that may have cycles (cgt(5) version 2): outcome classes with
 * draws, remoteness, generalized Sprague-Grundy values, by retro.h. */
#ifndef CG_SOLVE_LOOPY_H
#define CG_SOLVE_LOOPY_H

#include <stdio.h>

#include "format/doc.h"
#include "host/plugin.h"
#include "solve/retro.h"

enum {
	CG_LOOPY_CLASS = 1,        /* the outcome class ("outcome") */
	CG_LOOPY_NIMBER = 2,       /* generalized SG value ("nimber") */
	CG_LOOPY_REMOTENESS = 4,   /* "wN lN", "d" per side ("remoteness") */
	/* cg_loopy_rs_new: every root must be a position of a loopy
	 * ruleset (the others have no graph to be solved on) */
	CG_LOOPY_ALL = 8,
	/* with CG_LOOPY_NIMBER alone: the roots of a document are the
	 * terms of one sum, whose value is written as one row (the roots'
	 * labels joined by '+', then the value) in place of the roots' */
	CG_LOOPY_SUM = 16,
	/* with CG_LOOPY_CLASS alone: each root's class by proof-number
	 * searches from it (lpn.h), without the whole graph; a search that
	 * cannot finish (the memory limit) stops with file:line */
	CG_LOOPY_PN = 32,
	/* cg_loopy_rs_new: a root of an impartial ruleset that splits its
	 * positions into components (cg_rs_decompose) is valued as their
	 * sum, by the rule of cg_loopy_sum_row from each component's value,
	 * and its class read from that value; each component is explored
	 * alone, never the product of their graphs.  Not with
	 * CG_LOOPY_REMOTENESS or CG_LOOPY_PN, and not for
	 * cg_loopy_rs_children (the options of the whole position) */
	CG_LOOPY_SPLIT = 64
};

/* The CG_LOOPY_* of cg-outcome's options: -n (else the class),
 * --remoteness, --sum (which needs -n and goes without --remoteness:
 * exit 2 otherwise), --children (CG_LOOPY_SPLIT without it) and
 * --search (its name: "pns" is CG_LOOPY_PN). */
unsigned cg_loopy_what(int nimber, int remoteness, int sum, int children,
    const char *search);

/* The generalized Sprague-Grundy value of the sum of d's roots from
 * their values (value(ctx, root)) by the rule of Smith: one row on tsv. */
void cg_loopy_sum_row(struct cg_doc *d, struct cg_gsg_value (*value)(void *,
    uint32_t), void *ctx, FILE *tsv);

/*
 * The values asked for (CG_LOOPY_*, in that order) of each root of d:
 * one row per root written to tsv (label, then the values), or, with tsv
 * NULL, annotations of the roots under the keys above.  The game is the
 * document's graph as written, so every node's options must be there:
 * a node with a position of a ruleset needs its E record.  Stops with
 * "file:line: ..." on a node that lacks it, and, for CG_LOOPY_NIMBER,
 * on a node whose Left and Right options differ (not impartial).
 */
void cg_loopy_rows(struct cg_doc *d, unsigned what, FILE *tsv);
/* cg-outcome on a document whose graph is the game: with refuse set (a
 * question cycles have no answer to) a cycle stops with file:line;
 * else cg_loopy_rows, and with tsv NULL the annotated document on out. */
void cg_loopy_doc(struct cg_doc *d, unsigned what, int refuse, FILE *tsv,
    FILE *out);

/*
 * The roots of d that are positions of loopy rulesets (CG_LOOPY; option
 * records the document may have for them are not read, the plugin's
 * moves being the same): the positions each reaches by either player's
 * moves are explored through the plugin (solve/explore.h:
 * one graph per ruleset, shared by the roots), then solved as above.
 * NULL when d has no such root.  Stops with "file:line: ..." at a root of
 * a partizan ruleset when CG_LOOPY_NIMBER is asked, and with
 * CG_LOOPY_ALL at a root that is not such a position.
 */
struct cg_loopy_rs;
/* Values known without exploring (knowledge bases, -K), in the shape of
 * struct cg_session_options' known: 1 with the value of kind ("outcome",
 * "nimber", "remoteness") of the canonical bytes key appended to out, or
 * 0.  A root whose every value asked for is known is not explored (nor
 * can its children be listed); NULL: none is known. */
typedef int (*cg_loopy_known_fn)(void *ctx, struct cg_plugin *rs,
    const unsigned char *key, size_t len, const char *kind,
    struct cg_buf *out);
struct cg_loopy_rs *cg_loopy_rs_new(struct cg_doc *d, unsigned what,
    cg_loopy_known_fn known, void *known_ctx);
/* Explore and solve: 0, or -1 when cg_stop stopped the exploration
 * (a signal or the memory limit; cg_loopy_rs_stopped_at names the root
 * whose graph was unfinished). */
int cg_loopy_rs_run(struct cg_loopy_rs *h);
uint32_t cg_loopy_rs_stopped_at(const struct cg_loopy_rs *h);
/* --children: fn for each option of root x (for Left, then Right; once,
 * as Left's, when CG_LOOPY_NIMBER was asked): the side, the move's name
 * ("" when it has none), the option's text and its value (its class, or
 * its generalized Sprague-Grundy value).  1, or 0 (nothing called) when
 * x is not a position of a loopy ruleset. */
typedef void (*cg_loopy_child_fn)(void *ctx, int side, const char *move,
    const char *child, const char *value);
int cg_loopy_rs_children(struct cg_loopy_rs *h, uint32_t x,
    cg_loopy_child_fn fn, void *ctx);
/* Root x's values, as cg_loopy_rows writes them (known ones as they are
 * known): 1, or 0 (nothing written) when x is not a position of a loopy
 * ruleset.  With CG_LOOPY_SUM, the first root's row is the sum's
 * (cg_loopy_sum_row, on tsv), and the other roots write nothing. */
int cg_loopy_rs_row(struct cg_loopy_rs *h, uint32_t x, FILE *tsv);
/* Positions met and options (moves) explored, over every ruleset. */
void cg_loopy_rs_count(const struct cg_loopy_rs *h, uint64_t *positions,
    uint64_t *options);
/* new and run: NULL when d has no such root; when the exploration is
 * stopped, stops the program ("interrupted", exit 128 + the signal, or
 * "file:line: game too large to explore: memory limit of N MB reached
 * after P positions", exit 1).  With progress, a line there every
 * second while exploring (positions explored and waiting, the rate,
 * memory), and one at the end: the positions and moves, and the seconds
 * since the start. */
struct cg_loopy_rs *cg_loopy_rs_solve(struct cg_doc *d, unsigned what,
    FILE *progress, cg_loopy_known_fn known, void *known_ctx);
void cg_loopy_rs_free(struct cg_loopy_rs *h);

/*
 * One position of a loopy ruleset at a time, for play: a graph per
 * ruleset, kept until cg_loopy_free_all, grown by what each new position
 * reaches and solved again then.  *res is CG_RETRO_WIN, _LOSS or _DRAW
 * for side, to move at pos, *rem its remoteness, *cls (when not NULL)
 * the position's class.  An interrupt or the memory limit stops the
 * program with its reason.
 */
struct cg_loopy_game;
struct cg_loopy_game *cg_loopy_game(struct cg_plugin *rs);
void cg_loopy_game_value(struct cg_loopy_game *g, const unsigned char *pos,
    size_t len, enum cg_side side, int *res, uint32_t *rem,
    const char **cls);
void cg_loopy_free_all(void);

#endif
