/* lgame.h - loopy games as explicit graphs: CGSuite's loopy literals
 * (pass, labels, on, off, over, under, dud, upon, uponth), sums and
 * negatives of graphs, stoppers, their comparison (Left survives G - H
 * playing second: Siegel, Combinatorial Game Theory, ch. VI), their
 * simplest forms (dominated options deleted, reversible ones bypassed,
 * equal nodes fused) and CGSuite's way of printing them.
 *
 * A graph is a set of nodes, each with Left and Right options (indices
 * of nodes, cycles allowed).  A game is a node of a graph. */
#ifndef CG_SOLVE_LGAME_H
#define CG_SOLVE_LGAME_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "format/doc.h"
#include "values/canon.h"

struct cg_lnode {
	uint32_t *opt[2];         /* [CG_LEFT], [CG_RIGHT] */
	uint32_t nopt[2], cap[2];
};

struct cg_lgame {
	struct cg_lnode *v;
	uint32_t n, cap;
};

void cg_lgame_init(struct cg_lgame *g);
void cg_lgame_free(struct cg_lgame *g);
uint32_t cg_lgame_node(struct cg_lgame *g);
/* Add option `to' for side s of `from' (a repeat is not added). */
void cg_lgame_edge(struct cg_lgame *g, uint32_t from, int s, uint32_t to);

/* The graph of a short game (its canonical options), a new node. */
uint32_t cg_lgame_short(struct cg_lgame *g, cg_game s);
/* -x and x + y as new nodes (copies of the graphs under them). */
uint32_t cg_lgame_neg(struct cg_lgame *g, uint32_t x);
uint32_t cg_lgame_sum(struct cg_lgame *g, uint32_t x, uint32_t y);

/* Is x a stopper (no infinite alternating play from x, whoever starts)? */
int cg_lgame_is_stopper(const struct cg_lgame *g, uint32_t x);
/* Is there a cycle under x at all? */
int cg_lgame_is_loopy(const struct cg_lgame *g, uint32_t x);

/*
 * Read a loopy game literal (see cg-parse(1), "Loopy game literals") into
 * g; *root is its node.  Returns 0, or -1 with a message and a 1-based
 * column.  A sided value "A & B" is refused (one graph cannot hold it).
 */
int cg_lgame_parse(struct cg_lgame *g, const char *text, size_t len,
    uint32_t *root, char *msg, size_t msgsize, size_t *col);
/* A literal or a sided value "A & B" (A >= B, both stoppers): *on and
 * *off are its sides' nodes (the same node without "&"). */
int cg_lgame_parse_sided(struct cg_lgame *g, const char *text, size_t len,
    uint32_t *on, uint32_t *off, char *msg, size_t msgsize, size_t *col);
/* Does the text use a word only loopy literals have (pass, on, off,
 * over, under, dud, a label before a brace, ^[on], ^<on>, &)? */
int cg_lgame_looks_loopy(const char *text, size_t len);

/* The graph of d under node x (every node needs its options: an abstract
 * node, or an expanded position); stops with file:line otherwise.
 * Returns the node of x in g. */
uint32_t cg_lgame_from_doc(struct cg_lgame *g, const struct cg_doc *d,
    uint32_t x);
/* Add the nodes under x to d as abstract nodes (root's text is `text');
 * returns the index of x's node in d. */
uint32_t cg_lgame_to_doc(const struct cg_lgame *g, uint32_t x,
    struct cg_doc *d, const char *text);

/* Compare stoppers x and y of g: 0 (equal), 1 (x > y), -1 (x < y) or
 * 2 (confused). */
int cg_lgame_compare(const struct cg_lgame *g, uint32_t x, uint32_t y);

/* The simplest form of stopper x as a new graph out (its root is node
 * 0).  Returns 0, or -1 with a message (too large, not a stopper). */
int cg_lgame_simplify(const struct cg_lgame *g, uint32_t x,
    struct cg_lgame *out, char *msg, size_t msgsize);

/*
 * The onside (onside != 0) or offside of x, as the simplest form of a
 * stopper in out (root 0): Siegel's sides, where endless play is Left's
 * (onside) or Right's (offside).  For a stopper, its simplest form.
 * Returns 0, or -1 with a message (the side is no stopper, or too large).
 */
int cg_lgame_side(const struct cg_lgame *g, uint32_t x, int onside,
    struct cg_lgame *out, char *msg, size_t msgsize);

/* A simplest form (out of cg_lgame_simplify, root 0) in CGSuite's
 * notation: on, off, over, under (after a number), ^[on], ^<on>, v[on],
 * v<on> (with a number and a star), short games as cg_canon_print
 * writes them, else braces with `pass' for a move to the same node and
 * named nodes (a, b, ...) where a cycle passes through another node. */
void cg_lgame_print(const struct cg_lgame *g, struct cg_buf *out);

/* The left (side CG_LEFT) or right stop of a simplest form (root 0), a
 * pseudonumber written as CGSuite writes one: a number, on, off, x over,
 * x under.  Returns 0, or -1 when play reaches a position where the
 * player to move has no move and that is no pseudonumber. */
int cg_lgame_stop(const struct cg_lgame *g, int side, struct cg_buf *out);

/* The outcome class of x (cg_retro_class). */
const char *cg_lgame_class(const struct cg_lgame *g, uint32_t x);

/* Compare x of g with the game literal text (loopy or short, or a sided
 * value A & B), read into g: "==", ">", "<" or "<>" into out, as
 * stoppers, or side by side (G >= H when G+ >= H+ and G- >= H-).
 * Returns 0, or -1 with a message (a bad literal, a side that is no
 * stopper). */
int cg_lgame_compare_text(struct cg_lgame *g, uint32_t x, const char *text,
    struct cg_buf *out, char *msg, size_t msgsize);

/* Is name a property cg_lgame_rows gives (canon, outcome, lstop,
 * rstop)? */
int cg_lgame_property_known(const char *name);

/* One property (cg_lgame_property_known) of node x of g into b;
 * -1 with a message when x has none. */
int cg_lgame_value(struct cg_lgame *g, uint32_t x, const char *prop,
    struct cg_buf *b, char *msg, size_t msgsize);

/* Of short game s, a loopy property (prop) or a comparison with a loopy
 * literal (cmp, when prop is NULL), as above. */
int cg_lgame_of_short(cg_game s, const char *prop, const char *cmp,
    struct cg_buf *b, char *msg, size_t msgsize);

/*
 * cg-canon's values of the roots of a document read as a graph that may
 * have cycles: the properties props (canon: the simplest form of a
 * stopper; outcome: the class with draws; lstop, rstop: its stops), then
 * a comparison with each literal of cmps.  One row per root to tsv, or,
 * with tsv NULL, annotations (the property's name, "cmp LITERAL") and
 * the document written to out.  A root whose value cannot be given (not
 * a stopper; a property not defined for loopy games) is reported with
 * the file and line, and the others go on (exit status 1).
 */
void cg_lgame_rows(struct cg_doc *d, char *const *props, size_t nprops,
    char *const *cmps, size_t ncmps, FILE *tsv, FILE *out);

#endif
