/* session.h - one run of the search engines, with what a user asks around
 * them: the value kinds, heap sequences for heap games, knowledge bases
 * (-K), solving databases (.spr, -D), check mode (--check), progress and
 * interrupts.  cg-outcome is a loop over roots that asks a session for
 * values; so are the knowledge-base builder and best-move listings.
 *
 * A session keeps one solver per ruleset for its whole life, so results
 * carry over between roots and documents (and into the -D database), and
 * one solver per document for trees read from documents. */
#ifndef CG_SESSION_H
#define CG_SESSION_H

#include <stddef.h>

#include "format/doc.h"
#include "host/plugin.h"
#include "solve/outcome.h"

/* What is asked of a position. */
enum cg_kind {
	CG_KIND_OUTCOME,        /* L, R, N or P */
	CG_KIND_MISERE,         /* misere outcome class */
	CG_KIND_NIMBER,         /* nim value (impartial games) */
	CG_KIND_MISERE_NIMBER,  /* misere nim value */
	CG_KIND_GENUS           /* genus in CGSuite's notation */
};

/* The name of a kind as annotations and bases call it ("outcome",
 * "misere", "nimber", "misere-nimber", "genus"); parsing: 0 or -1. */
const char *cg_kind_name(enum cg_kind k);
int cg_kind_parse(const char *name, enum cg_kind *k);
/* Does the kind need an impartial game? */
int cg_kind_impartial(enum cg_kind k);

struct cg_session_options {
	enum cg_kind kind;          /* what -D databases hold (nimber or
	                             * misere losses) and --check checks */
	const char *const *db;      /* -D files; the first is saved */
	size_t ndb;
	int check;                  /* --check: databases only guide */
	const char *proof;          /* --check --proof FILE */
	/* Values known without a search (knowledge bases, -K): append the
	 * value of kind for the canonical bytes key of a position of rs to
	 * out and return 1, or return 0.  Optional. */
	int (*known)(void *ctx, struct cg_plugin *rs, const unsigned char *key,
	    size_t len, const char *kind, struct cg_buf *out);
	void *known_ctx;
	int progress;               /* report on standard error */
	const struct cg_engine *search;  /* --search (NULL: auto) */
	unsigned jobs;              /* --jobs: worker threads (0: 1) */
	const char *checkpoint;     /* --checkpoint: the bit search's */
	uint64_t checkpoint_size;   /* --checkpoint-size: its bound in bytes
	                             * (0: an eighth of --max-memory, or none
	                             * without a limit; UINT64_MAX: none) */
	int no_shortcut;            /* heap sequences: compute every heap */
	size_t heap_limit;          /* heaps computed one by one when no
	                             * period is known (0: the default) */
	size_t table_memory;        /* --table-memory: bytes the depth-first
	                             * tables may hold before the search
	                             * starts again (0: three quarters of
	                             * --max-memory, or no bound) */
};

struct cg_session;

struct cg_session *cg_session_new(const struct cg_session_options *o);
/* Save the databases (as cg_session_save) and free everything. */
void cg_session_free(struct cg_session *se);

/* The solver for positions of rs (made, with its databases loaded, on
 * first use). */
struct cg_solver *cg_session_solver(struct cg_session *se,
    struct cg_plugin *rs);
/* The solver for the trees of document d (replaces the previous one). */
struct cg_solver *cg_session_doc_solver(struct cg_session *se,
    struct cg_doc *d);

/*
 * Append the value of kind for the sum ids of solver s to out.  Returns
 * 0, or -1 when the search was stopped (cg_stop: a signal or the memory
 * limit).  A kind that needs an impartial game, asked of a partizan one,
 * is an error at file:line.
 */
int cg_session_value(struct cg_session *se, struct cg_solver *s,
    enum cg_kind kind, const uint32_t *ids, size_t n, struct cg_buf *out,
    const char *file, unsigned long line);
/* The solver of root x of d and x's components in it (*ids, the
 * caller's to free; the count returned): the ruleset's solver for a
 * position the document does not expand, else the document's solver,
 * *dsolver, made on first use. */
size_t cg_session_root(struct cg_session *se, struct cg_doc *d, uint32_t x,
    struct cg_solver **dsolver, struct cg_solver **s, uint32_t **ids);
/* The value of root x (its components ids in s) appended to val: from
 * the knowledge bases, the misere quotient, or a search, in that order.
 * 0, or -1 when the search was stopped; errors as cg_session_value. */
int cg_session_root_value(struct cg_session *se, struct cg_solver *s,
    enum cg_kind kind, struct cg_doc *d, uint32_t x, const uint32_t *ids,
    size_t nids, struct cg_buf *val);

/* Misere outcomes of sums of heaps from the ruleset's misere quotient
 * (quotient.h), for a ruleset that exports cg.heap-rules with heaps():
 * 1 with 'P' or 'N' in out; 0 when it does not apply (another kind, a
 * heap past CG_QUOT_SESSION_HEAPS with no proven period, a quotient not
 * found within CG_QUOT_SESSION_LIMIT elements, a search named by
 * --search, -D databases to fill), the search then answers.
 * With progress, says which on stderr. */
#define CG_QUOT_SESSION_HEAPS 64
#define CG_QUOT_SESSION_LIMIT 4096
int cg_session_quotient_value(struct cg_session *se, enum cg_kind kind,
    struct cg_plugin *rs, const unsigned char *pos, size_t len,
    struct cg_buf *out);
/* A root's value straight from the knowledge bases (1), or 0. */
int cg_session_kb_value(struct cg_session *se, enum cg_kind kind,
    struct cg_plugin *rs, const unsigned char *pos, size_t len,
    struct cg_buf *out);

/*
 * The options of root x of d (whose sum of components in s is ids) with
 * their values of kind: fn(ctx, side, move, child, value) for each, Left's
 * then Right's (one side for an impartial game).  A root given by a
 * position has the plugin's move names and its text of each child.
 * Returns 0, or -1 when the search was stopped.
 */
typedef void (*cg_child_fn)(void *ctx, int side, const char *move,
    const char *child, const char *value);
int cg_session_children(struct cg_session *se, struct cg_solver *s,
    enum cg_kind kind, const struct cg_doc *d, uint32_t x,
    const uint32_t *ids, size_t n, cg_child_fn fn, void *ctx);

/* Write the first -D database (nothing in check mode); -1 on error with
 * the message given; the number of positions saved otherwise. */
long cg_session_save(struct cg_session *se);
/* Check mode: report wrong database entries and the proof size on
 * standard error, save the proof; the number of wrong entries. */
size_t cg_session_check(struct cg_session *se);
/* Statistics of each ruleset's solver on standard error. */
void cg_session_report(struct cg_session *se);

#endif
