/*
 * rules.h - the rules interpreter: a rules file (cgr(5)) compiled into
 * tables once, when the host loads it, and the hooks that play from them.
 *
 * read.c      the reader: tokens, directives, patterns
 * check.c     the whole-file checks: components, symmetries
 * measure.c   the measure: proved decreasing at load time, or checked
 *             move by move at run time where no proof was found
 * match.h     the ways a pattern matches along a line, one at a time
 * grid.c      boards of cells: grids ("..|.#") and strips ("t.f")
 * frozen.c    strips' squares no move can ever change ('components
 *             frozen'), and the parts they separate
 * graph.c     graphs in CGSuite's notation (vertex tints)
 * heaps.c     sums of heaps ("3+4"), with parameters
 * runs.c      strips of one kind of run, valued as take-and-break games
 * tuples.c    heap games whose moves take from several heaps at once:
 *             sums of tuples of heaps ("(3,5)+(1,2)")
 * wins.c      win conditions, draws and payoffs ('win', 'draw',
 *             'nomove', 'payoff'): the cg.result extension
 * entry.c     the interpreter's descriptor, load/unload, the per-file
 *             descriptor and its state
 *
 * A compiled file (struct rules) is never written after load(): every
 * state made by init_desc() (one per thread) reads it and keeps its own
 * scratch buffers, so hooks on different states may run at once.
 */
#ifndef CG_RULES_H
#define CG_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "cg/ruleset.h"
#include "cg/result.h"
#include "grid.h"

enum board_kind { BOARD_NONE, BOARD_GRID, BOARD_STRIP, BOARD_GRAPH,
	BOARD_HEAPS };

#define SIDE_LEFT  1
#define SIDE_RIGHT 2
#define SIDE_BOTH  3

#define MAX_CELLS    48   /* characters in the cell alphabet */
#define MAX_ELEMS    32   /* elements of one pattern */
#define MAX_RULES    256
#define MAX_TERMS    16   /* terms of the measure */
#define MAX_PARAMS   8
#define MAX_SET      1024 /* numbers in one set */
#define MAX_NAME_TPL 32   /* items of a move-name template */
#define MAX_MATCH    600  /* cells one match may cover (a 255-cell line) */
#define MAX_FROM     8    /* heaps one heap rule takes from at once */
#define MAX_CONDS    4    /* conditions of one rule */

/* Directions: index into dir_dr/dir_dc; strips use e and w only. */
enum { D_N, D_E, D_S, D_W, D_NE, D_SE, D_SW, D_NW, D_COUNT };
extern const int dir_dr[D_COUNT], dir_dc[D_COUNT];
extern const char *const dir_name[D_COUNT];

/* A set of cell bytes. */
struct cellset {
	uint64_t bits[4];
};

static inline int
cs_has(const struct cellset *s, unsigned char c)
{
	return (int)(s->bits[c >> 6] >> (c & 63) & 1);
}

static inline void
cs_add(struct cellset *s, unsigned char c)
{
	s->bits[c >> 6] |= (uint64_t)1 << (c & 63);
}

/* One element of a line pattern: the cells it matches, whether it also
 * matches the edge (the square just beyond the board), and what the
 * cell becomes (-1: unchanged). */
struct elem {
	struct cellset match;
	int edge;
	int write;
};

/* A run of elements repeated min.. times: (ab)* or x+. */
struct group {
	int first, count, min;
};

/* A move-name template item. */
enum { NT_TEXT, NT_CELL, NT_LAST, NT_DIR };
struct name_item {
	int kind;
	int cell;          /* NT_CELL: 0-based matched cell */
	char text[16];     /* NT_TEXT */
};

/* A rule's precondition: the pattern rules->cond[pat] occurs somewhere
 * on the board (negate 0), or nowhere (negate 1). */
struct cond {
	int pat;
	int negate;
};

/* Heap rules: amounts from a list, from a parameter, or any. */
enum { AMT_LIST, AMT_PARAM, AMT_ANY };
enum { LEAVE_MASK, LEAVE_CODE };
enum { CONS_NONE, CONS_UNEQUAL, CONS_EQUAL };

struct rule {
	int side;              /* SIDE_* */
	unsigned long line;
	/* grid and strip */
	struct elem e[MAX_ELEMS];
	int ne;
	struct group g[MAX_ELEMS];
	int ng;
	int gof[MAX_ELEMS];    /* group of element i, or -1 */
	struct cellset first;  /* the cells a match may start on */
	int lead;              /* a match may start on the edge */
	int dirs[D_COUNT], ndirs;
	struct name_item name[MAX_NAME_TPL];
	int nname;             /* 0: the default name */
	int check;             /* measure checked at run time */
	struct cond cond[MAX_CONDS];
	int ncond;             /* all must hold for the rule to apply */
	/* graph */
	struct cellset vmatch;
	int vwrite;            /* new tint, 0 = the vertex is deleted */
	unsigned char nmap[256]; /* neighbour tint -> new tint, 0 = delete */
	/* heaps */
	int amt_kind, amt_param;
	uint32_t *amt;         /* AMT_LIST: ascending */
	size_t namt;
	int leave_kind;        /* LEAVE_MASK or LEAVE_CODE (amt_param) */
	uint32_t leave;        /* bit j: j heaps may be left */
	int cons;
	uint32_t from;         /* bit m: from m heaps of a tuple at once */
	int same;              /* the same amount from each of them */
};

/* A term of the measure: coef times the number of cells (vertices) in
 * set, or (dir >= 0) the sum over those cells of their distance to the
 * edge in direction dir, the cell itself included; for heaps coef times
 * the counters (what 0) or the heaps (what 1). */
struct term {
	long coef;
	struct cellset set;
	int dir;
	int what;
};

enum { PARAM_SET, PARAM_NUMBER, PARAM_CODE };
struct param {
	char name[32];
	int type;
	int dflt;              /* index of the parameter it defaults to, -1 */
	char *dflt_text;       /* or a literal default, NULL */
	unsigned long line;
};

/* Take-and-break code digits (a parameter value): digit[k] has bit j
 * when taking k may leave j heaps; cons[k] as CONS_*. */
#define MAX_CODE 256
struct code {
	uint32_t digit[MAX_CODE + 1];
	int cons[MAX_CODE + 1];
	size_t n;              /* digits after the point */
};

/* A strip whose components are runs of one cell, as a take-and-break
 * game (runs.c): mask[k] the digit of taking k, as cg/heaprules.h. */
struct runs {
	int ok;
	unsigned char cell;    /* the cell the runs are made of */
	uint32_t max_take;
	uint32_t mask[MAX_ELEMS + 1];
	uint32_t flags[MAX_ELEMS + 1];  /* all 0 */
};

/* A condition that ends the game (wins.c): a pattern somewhere on the
 * board, or a count of cells compared with a number. */
enum { END_LEFT, END_RIGHT, END_DRAW };
enum { CMP_LT, CMP_LE, CMP_EQ, CMP_GE, CMP_GT };
#define MAX_ENDS 64
struct endcond {
	int who;               /* END_* */
	int count;             /* 1: count cells of set, compared by op to n */
	struct cellset set;
	int op;
	long n;
	struct rule pat;       /* 0: the pattern, its directions, its line */
};

struct rules {
	const char *file;      /* for messages (owned) */
	int kind;
	char cells[MAX_CELLS + 1];
	unsigned char alias[256]; /* input byte -> cell, 0 = not allowed */
	struct rule *rule;
	int nrule;
	struct rule *cond;     /* the conditions' patterns (no rewrite) */
	int ncond;
	int order_rules;       /* "order rules": each rule over every cell */
	struct term term[MAX_TERMS];
	int nterm;
	unsigned long measure_line;
	int runtime_check;     /* some rule needs the run-time check */
	int wall;              /* components separator, -1 none */
	int frozen;            /* components frozen (strips) */
	int conn8;             /* components 8-connected (diagonal rules) */
	unsigned nsym;         /* 1, 2, 4 or 8 (grid.h's symmetry prefix) */
	struct grid_game gg;   /* for grid.h: wall, symmetries, keep */
	int family;            /* enumerate() exists */
	unsigned long loopy;   /* the 'loopy' line (0: none): no measure,
	                        * moves may come back (CG_LOOPY) */
	struct cellset family_cells;
	struct param param[MAX_PARAMS];
	int nparam;
	int impartial;         /* every rule is "both" */
	struct runs runs;
	int tuples;            /* a heap rule takes from several heaps */
	/* games with a result (wins.c): the conditions that end them, what
	 * a stuck player gets (CG_RESULT_*, 0 normal play), the payoff */
	struct endcond *end;
	int nend;
	int stuck;
	struct term payoff[MAX_TERMS];
	int npayoff;
	int result;            /* any of these: the game has a result */
	int have_stuck;
	unsigned long stuck_line, payoff_line, result_line;
	struct cg_result_rules xres;   /* the extension, when result */
	char summary[256];
	char version[64];
};

/* A state: the compiled rules and one thread's scratch. */
struct rstate {
	const struct rules *r;
	unsigned char *child;  /* a copy of the position being changed */
	size_t childcap;
	/* heaps: the parameter values */
	uint32_t *pset[MAX_PARAMS];
	size_t npset[MAX_PARAMS];
	struct code *pcode[MAX_PARAMS];
	/* heaps: the heap-rules extension when the game is impartial */
	int heap_impartial;
	uint32_t *hmask, *hflags;
	struct cg_heap_rules hrules;
	int has_hrules;
	/* grids: longest runs of one player's moves (decided values) */
	void *memo;
	/* grids: the moves one match has made (equal moves made once) */
	void *seen;
	/* strips with 'components frozen': recent analyses */
	void *fzcache;
	/* rows too long for a file without components: warned */
	int warned_rows;
	/* games with a result: the last position asked about, and its
	 * result (the host asks result() and then options() of a position) */
	unsigned char *endpos;
	size_t endlen, endcap;
	int endres;
};

/* read.c */
/* The next term of "TERM [+|- TERM]..." in text from *i ("[N*]WORD",
 * what naming the directive in messages): 1 with the signed
 * coefficient and the word (cap bytes), 0 at the end of text, or an
 * error at line.  The measure and the payoff read their terms so. */
int rules_next_term(const struct cg_host *h, struct cg_error *err,
    unsigned long line, const char *what, const char *text, size_t *i,
    int first, long *coef, char *word, size_t cap);
int rules_read(const struct cg_host *h, const char *file, const char *text,
    size_t len, struct rules *r, struct cg_error *err);
void rules_free(const struct cg_host *h, struct rules *r);
/* Report an error at a line of the rules file. */
int rules_error(const struct cg_host *h, struct cg_error *err,
    unsigned long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* check.c */
int rules_check_components(const struct cg_host *h, struct rules *r,
    struct cg_error *err);
int rules_check_symmetry(const struct cg_host *h, struct rules *r,
    struct cg_error *err);

/* measure.c */
int measure_check_lines(const struct cg_host *h, struct rules *r,
    struct cg_error *err);
int measure_check_graph(const struct cg_host *h, struct rules *r,
    struct cg_error *err);
int measure_check_heaps(const struct cg_context *cx, const struct rules *r,
    const struct rstate *st);
long measure_cells(const struct rules *r, const unsigned char *cells,
    int rows, int cols);

/* grid.c */
int grid_hooks_parse(const struct cg_context *cx, const char *text,
    size_t len, struct cg_buf *out);
int grid_hooks_print(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out);
int grid_hooks_options(const struct cg_context *cx,
    const unsigned char *pos, size_t len, enum cg_side side, cg_emit_fn emit,
    void *ctx);
int grid_hooks_canonical(const struct cg_context *cx,
    const unsigned char *pos, size_t len, struct cg_buf *out);
int grid_hooks_decompose(const struct cg_context *cx,
    const unsigned char *pos, size_t len, cg_emit_fn emit, void *ctx);
int grid_hooks_enumerate(const struct cg_context *cx, const char *family,
    cg_emit_fn emit, void *ctx);
int grid_hooks_synch(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_joint_fn emit, void *ctx);
int grid_hooks_decided(const struct cg_context *cx,
    const unsigned char *pos, size_t len, int64_t *num, int64_t *den);
int grid_hooks_order_key(const struct cg_context *cx,
    const unsigned char *pos, size_t len, int64_t *key);
void grid_frozen_cache_free(const struct cg_host *h, void *cache);
int grid_hooks_frozen_canonical(const struct cg_context *cx,
    const unsigned char *pos, size_t len, struct cg_buf *out);
int grid_hooks_frozen_decompose(const struct cg_context *cx,
    const unsigned char *pos, size_t len, cg_emit_fn emit, void *ctx);
int grid_hooks_measure(const struct cg_context *cx,
    const unsigned char *pos, size_t len, uint64_t *m);
void grid_memo_free(const struct cg_host *h, void *memo);
void grid_seen_free(const struct cg_host *h, void *seen);
int grid_keep_rules(const struct grid_game *g, const unsigned char *board,
    size_t n);
/* Does pattern c (a rule's condition, or a result's) occur anywhere on
 * the board pos of rows x cols, along any of its directions?  Its matches
 * are looked for as a rule's are, from the edge too, stopping at the
 * first: 1, 0, or an error (a line split too many ways). */
int grid_pattern_occurs(const struct cg_context *cx, const struct rule *c,
    const unsigned char *pos, size_t len, int rows, int cols);

/* graph.c */
int graph_hooks_parse(const struct cg_context *cx, const char *text,
    size_t len, struct cg_buf *out);
int graph_hooks_print(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out);
int graph_hooks_options(const struct cg_context *cx,
    const unsigned char *pos, size_t len, enum cg_side side, cg_emit_fn emit,
    void *ctx);
int graph_hooks_canonical(const struct cg_context *cx,
    const unsigned char *pos, size_t len, struct cg_buf *out);
int graph_hooks_measure(const struct cg_context *cx,
    const unsigned char *pos, size_t len, uint64_t *m);
int graph_hooks_decompose(const struct cg_context *cx,
    const unsigned char *pos, size_t len, cg_emit_fn emit, void *ctx);

/* heaps.c */
int heap_params(const struct cg_host *h, const struct rules *r,
    const char *params, struct rstate *st, struct cg_error *err);
void heap_params_free(const struct cg_host *h, struct rstate *st);
int heap_hooks_parse(const struct cg_context *cx, const char *text,
    size_t len, struct cg_buf *out);
int heap_hooks_print(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out);
int heap_hooks_options(const struct cg_context *cx,
    const unsigned char *pos, size_t len, enum cg_side side, cg_emit_fn emit,
    void *ctx);
int heap_hooks_canonical(const struct cg_context *cx,
    const unsigned char *pos, size_t len, struct cg_buf *out);
int heap_hooks_decompose(const struct cg_context *cx,
    const unsigned char *pos, size_t len, cg_emit_fn emit, void *ctx);
int heap_hooks_measure(const struct cg_context *cx,
    const unsigned char *pos, size_t len, uint64_t *m);
int heap_hooks_enumerate(const struct cg_context *cx, const char *family,
    cg_emit_fn emit, void *ctx);
const void *heap_hooks_extension(const struct cg_context *cx,
    const char *name);
int heap_code_parse(const char *text, struct code *c, char *why,
    size_t whylen);

/* runs.c */
void runs_derive(struct rules *r);
void runs_init(struct rstate *st);
const void *runs_hooks_extension(const struct cg_context *cx,
    const char *name);

/* tuples.c: the heap hooks of a file with tuples */
int tuple_hooks_parse(const struct cg_context *cx, const char *text,
    size_t len, struct cg_buf *out);
int tuple_hooks_print(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out);
int tuple_hooks_options(const struct cg_context *cx,
    const unsigned char *pos, size_t len, enum cg_side side, cg_emit_fn emit,
    void *ctx);
int tuple_hooks_canonical(const struct cg_context *cx,
    const unsigned char *pos, size_t len, struct cg_buf *out);
int tuple_hooks_decompose(const struct cg_context *cx,
    const unsigned char *pos, size_t len, cg_emit_fn emit, void *ctx);
int tuple_hooks_measure(const struct cg_context *cx,
    const unsigned char *pos, size_t len, int64_t a, int64_t b, uint64_t *m);
int tuple_hooks_enumerate(const struct cg_context *cx, const char *family,
    cg_emit_fn emit, void *ctx);
int tuple_impartial(const struct rules *r, const struct rstate *st);
/* read.c, for wins.c: "PATTERN [along DIRS]" in tok[0..ntok) read into
 * ru as a rule's pattern is (no rewrite); a key of ru's pattern along
 * direction d (read backwards along the opposite one when rev), and the
 * image of direction d under board symmetry k, as the rules' symmetry
 * check has them. */
int rules_read_pattern(const struct cg_host *h, struct cg_error *err,
    unsigned long line, struct rules *r, char **tok, int ntok,
    struct rule *ru);
size_t rules_pattern_key(const struct rule *ru, int d, int rev,
    unsigned char *key);
int rules_sym_dir(int k, int d);
#define RULES_KEY_MAX (1 + MAX_ELEMS * (sizeof(struct cellset) + 4))

/* wins.c */
int ends_directive(const struct cg_host *h, struct cg_error *err,
    unsigned long line, struct rules *r, char **tok, int ntok);
int ends_finish(const struct cg_host *h, struct rules *r,
    struct cg_error *err);
int ends_over(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int *over);
const void *ends_extension(const struct cg_context *cx, const char *name);

/* entry.c: grow the state's child buffer to n bytes */
int state_child(const struct cg_context *cx, size_t n);

/* FNV-1a of p[0..n), its offset basis xored with salt: the key of the
 * grid's position caches (salt tells the sides apart). */
static inline uint64_t
rules_hash(const unsigned char *p, size_t n, uint64_t salt)
{
	uint64_t h = 1469598103934665603ull ^ salt;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

#endif
