/* plugin.h - finding, loading and calling ruleset plugins. */
#ifndef CG_PLUGIN_H
#define CG_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "cgx/movecounts.h"
#include "cg/ruleset.h"

struct cg_move_counts;
struct cg_rank;
struct cg_conjugate;
struct cg_search_order;
struct cg_result_rules;
#include "base/buf.h"

/* The concrete error sink behind struct cg_error. */
struct cg_error {
	int set;
	size_t column;   /* 1-based, 0 = none */
	unsigned long line; /* of a rules file (error_at), 0 = none */
	char msg[512];
};

/* What hooks run with in one worker thread (see cg-ruleset(3): hooks are
 * never called concurrently on one state, so every worker but the main
 * thread gets a state of its own, made by init() on first use). */
struct cg_plugin_worker {
	struct cg_context cx;
	struct cg_error err;
};

struct cg_plugin {
	const struct cg_ruleset *rs;
	struct cg_context cx;     /* worker 0: host, state and error sink */
	struct cg_error err;      /* worker 0's error sink */
	struct cg_plugin_worker *_Atomic *worker; /* [CG_MAX_JOBS], 1.. */
	char *spec;               /* NAME[:PARAMS] */
	char *name;
	char *params;             /* NULL when none */
	char *path;               /* the file it was loaded from */
	void *dl;
	/* a ruleset read from a rules file: the interpreter that made rs */
	const struct cg_ruleset *interp;
	int inited;               /* init() succeeded: call fini() */
	/* both players have the same options in every position: the
	 * CG_IMPARTIAL flag, or cg.impartial answered for these parameters
	 * (asked once, at load) */
	int impartial;
	/* its cg.move-counts, cg.search-order and cg.rank extensions
	 * (asked once, at load), or NULL */
	const struct cg_move_counts *move_counts;
	const struct cg_search_order *search_order;
	const struct cg_rank *rank;
	const struct cg_conjugate *conjugate;
	/* its cg.result extension (cg/result.h), checked at load: the game
	 * ends in a result (won, drawn or scored), not normal play; NULL */
	const struct cg_result_rules *result;
	struct cg_plugin *next;
};

/* The host services table given to every plugin. */
const struct cg_host *cg_host(void);

/* Add a directory searched after CG_PLUGIN_PATH (the -P option). */
void cg_plugin_add_dir(const char *dir);
/* The search path as one colon-separated string (for messages). */
const char *cg_plugin_path(void);

/*
 * Load the ruleset named by spec ("NAME" or "NAME:PARAMS"), or return the
 * one already loaded with the same spec.  Errors are fatal: exit 1 for a
 * plugin that cannot be found or loaded, param_status for parameters that
 * the ruleset refuses (2 when they came from the command line, 1 when they
 * came from a document).
 */
struct cg_plugin *cg_plugin_get(const char *spec, int param_status);
/* Prefix the messages of the next loads with "file:line: " (a ruleset
 * named in a document); NULL for none. */
void cg_plugin_where(const char *file, unsigned long line);
/*
 * Call fn for each ruleset on the search path, sorted by name, with the
 * file a search by that name would load: rs is its descriptor (valid only
 * during the call), or NULL and why says in one line why it cannot be
 * loaded.  Returns -1 if any could not be loaded, else 0.
 */
int cg_plugin_list(void (*fn)(const char *name, const char *path,
    const struct cg_ruleset *rs, const char *why, void *arg), void *arg);
/* Load a plugin from an explicit file path (no search). */
struct cg_plugin *cg_plugin_load_file(const char *path, const char *params,
    int param_status);
/* Release every loaded plugin (calls fini). */
void cg_plugin_unload_all(void);

/* Does the descriptor have this optional field? */
#define CG_HAS_HOOK(p, field)                                           \
	((p)->rs->struct_size >= offsetof(struct cg_ruleset, field) +     \
	    sizeof((p)->rs->field) && (p)->rs->field != NULL)

/* The calling worker's context and error sink (made on first use). */
struct cg_context *cg_rs_context(struct cg_plugin *p);
/* An extension of the plugin's (NULL when it has none by that name). */
const void *cg_rs_extension(struct cg_plugin *p, const char *name);

/* Thin wrappers: clear the error sink, call the hook.  On an error return
 * (< 0) p->err holds the message (a generic one if the plugin gave none). */
int cg_rs_parse(struct cg_plugin *p, const char *text, size_t len,
    struct cg_buf *out);
int cg_rs_print(struct cg_plugin *p, const unsigned char *pos, size_t len,
    struct cg_buf *out);
int cg_rs_options(struct cg_plugin *p, const unsigned char *pos, size_t len,
    enum cg_side side, cg_emit_fn emit, void *ctx);
/* The same options in the order a search should try them: the
 * cg.search-order extension's, else options(). */
int cg_rs_search_options(struct cg_plugin *p, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx);
/* Canonical representative; copies pos when the plugin has no hook. */
int cg_rs_canonical(struct cg_plugin *p, const unsigned char *pos,
    size_t len, struct cg_buf *out);
/* Components; emits pos itself when the plugin has no hook. */
int cg_rs_decompose(struct cg_plugin *p, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx);
int cg_rs_synch_options(struct cg_plugin *p, const unsigned char *pos,
    size_t len, cg_emit_joint_fn emit, void *ctx);
int cg_rs_decided_value(struct cg_plugin *p, const unsigned char *pos,
    size_t len, int64_t *num, int64_t *den);
int cg_rs_enumerate(struct cg_plugin *p, const char *family, cg_emit_fn emit,
    void *ctx);
int cg_rs_order_key(struct cg_plugin *p, const unsigned char *pos,
    size_t len, int64_t *key);
/* The ruleset's cg.move-counts bounds of pos (cgx/movecounts.h), or
 * CG_EUNSUPPORTED when it offers none (or inconsistent ones). */
int cg_rs_move_counts(struct cg_plugin *p, const unsigned char *pos,
    size_t len, struct cg_move_bounds *b);

/* What moving first as planned adds to side s's room test (2 sure >
 * room, cgx/movecounts.h): 2 (first_sure - sure) - (first_room - room),
 * or 0 when that is no more or b makes no such claim. */
static inline uint64_t
cg_bounds_room_lead(const struct cg_move_bounds *b, int s)
{
	int64_t d;

	if (!(b->flags & CG_BOUNDS_FIRST_ROOM) || !(b->flags & CG_BOUNDS_ROOM))
		return 0;
	d = 2 * ((int64_t)b->first_sure[s] - b->sure[s]) -
	    ((int64_t)b->first_room[s] - b->room[s]);
	return d > 0 ? (uint64_t)d : 0;
}

/* The ruleset's cg.rank index of a family (cg/rank.h): the number of
 * slots, the slot of pos (canonical bytes), the position of slot r
 * appended to out.  CG_EUNSUPPORTED when the ruleset has no index for
 * the family, or pos no slot in it, or no position has slot r. */
int cg_rs_slots(struct cg_plugin *p, const char *family, uint64_t *n);
/* The conjugate of a component (cg/conjugate.h: the players' roles
 * exchanged, the value negated), appended to out; CG_EUNSUPPORTED when
 * the ruleset offers none. */
int cg_rs_conjugate(struct cg_plugin *p, const unsigned char *pos,
    size_t len, struct cg_buf *out);
int cg_rs_rank(struct cg_plugin *p, const char *family,
    const unsigned char *pos, size_t len, uint64_t *r);
int cg_rs_unrank(struct cg_plugin *p, const char *family, uint64_t r,
    struct cg_buf *out);

/* The ruleset's measure of pos; CG_EUNSUPPORTED when it has none. */
int cg_rs_measure(struct cg_plugin *p, const unsigned char *pos, size_t len,
    uint64_t *m);
/* Parse a move typed by a person; falls back to matching move names. */
int cg_rs_move_parse(struct cg_plugin *p, const unsigned char *pos,
    size_t len, enum cg_side side, const char *text, struct cg_buf *child);

/* What a ruleset can do, from its flags, optional hooks and the
 * extensions it offers with no parameters (cg.rank, as "rank"), as a
 * comma-separated list ("impartial,symmetry,decomposes,..."; "-" for
 * none). */
void cg_rs_capabilities(const struct cg_ruleset *rs, struct cg_buf *out);

/* Whether p's moves can come back to a position (CG_LOOPY). */
int cg_rs_loopy(const struct cg_plugin *p);
/* Stop with "[file:line: ]ruleset 'NAME' is loopy (...): why" when p is
 * loopy (file NULL: no position); the one refusal of loopy rulesets, for
 * every engine that needs each game to end. */
void cg_rs_refuse_loopy(struct cg_plugin *p, const char *file,
    unsigned long line, const char *why);

/* The cg.result hooks (cg/result.h): whether pos is over and with what
 * result, and Left's payoff; CG_EUNSUPPORTED without them. */
int cg_rs_result(struct cg_plugin *p, const unsigned char *pos, size_t len,
    int *res, int64_t *payoff);
int cg_rs_payoff(struct cg_plugin *p, const unsigned char *pos, size_t len,
    int64_t *payoff);
/* Stop with "file:line: ruleset 'NAME' is won, drawn or scored on the
 * board (cg.result): why" when p's games end in a result (p->result):
 * for the tools whose values are normal-play games. */
void cg_rs_refuse_result(struct cg_plugin *p, const char *file,
    unsigned long line, const char *why);

/* p's last error in this worker as "message" or "column N: message". */
const char *cg_rs_errmsg(struct cg_plugin *p);

#endif
