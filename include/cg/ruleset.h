/*
 * cg/ruleset.h - the cgtools ruleset plugin ABI.
 *
 * A ruleset is a shared object NAME.so exporting one function,
 * cg_ruleset_entry(), which returns a constant descriptor.  The host hands
 * the plugin a table of services (allocation, byte buffers, error reports);
 * the plugin never prints, exits, longjmps or keeps global mutable state.
 * Positions are byte strings owned by the host: every hook receives a
 * position as (pointer, length) and writes new positions into host buffers.
 *
 * Threads: the host never calls the hooks of one state (what init() made)
 * from two threads at once; worker threads each get a state of their own,
 * init() being called once per thread.  So memo tables and scratch space
 * belong in the state, never in globals.
 *
 * Growth rules: fields are only ever appended to struct cg_host and
 * struct cg_ruleset.  The host reads a descriptor field only if it lies
 * below struct_size; a plugin reads a host field only if it lies below the
 * host's struct_size.  CG_ABI_VERSION changes only for incompatible edits.
 *
 * See cg-ruleset(3) for the full contract and a worked example.
 */
#ifndef CG_RULESET_H
#define CG_RULESET_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CG_ABI_VERSION 1u
#define CG_ENTRY_SYMBOL "cg_ruleset_entry"

/* Players. */
enum cg_side { CG_LEFT = 0, CG_RIGHT = 1 };

/* Hook return values: 0 success, CG_STOP when a visitor asked to stop,
 * negative for errors (with a message given through host->error). */
enum {
	CG_OK = 0,
	CG_STOP = 1,
	CG_EPARSE = -1,       /* malformed text */
	CG_ENOMEM = -2,       /* an allocation failed */
	CG_EUNSUPPORTED = -3, /* the hook cannot answer this position */
	CG_ELIMIT = -4,       /* a size limit of the ruleset was exceeded */
	CG_EPARAM = -5        /* bad ruleset parameters */
};

/* Descriptor flags. */
#define CG_IMPARTIAL    (1u << 0) /* both players always have the same options */
#define CG_SYMMETRY     (1u << 1) /* canonical() folds symmetries of the position */
#define CG_DECOMPOSES   (1u << 2) /* decompose() splits positions into sums */
#define CG_SYNCHRONIZED (1u << 3) /* synch_options() and decided_value() exist */
#define CG_ENUMERATES   (1u << 4) /* enumerate() knows position families */
/* print() writes a board: rows of one character per square, separated by
 * '|', the top row first, every row as long.  Tools draw such positions as
 * grids, columns a, b, ... from the left and rows 1, 2, ... from the
 * bottom (the squares move names such as "a1-a2" refer to).  Tools never
 * guess: without the flag a position's text is shown as it is. */
#define CG_BOARD        (1u << 5)
#define CG_INTERPRETER  (1u << 6) /* not a ruleset: load() reads rules files */
/* Moves may come back to an earlier position, so a game may go on for
 * ever (a loopy game; play that never ends is a draw).  The ruleset has
 * no measure().  Engines that need every game to end refuse it; the
 * retrograde analysis of cg-outcome solves its positions with draws. */
#define CG_LOOPY        (1u << 7)

/* A growable byte buffer owned by the host.  Plugins append through the
 * host's buf_* services and never free or reallocate data themselves. */
struct cg_buf {
	unsigned char *data;
	size_t len;
	size_t cap;
};

/* Opaque error sink; a hook reports through host->error(). */
struct cg_error;

/* Services the host gives a plugin.  Append-only. */
struct cg_host {
	uint32_t abi_version; /* CG_ABI_VERSION of the host */
	uint32_t struct_size; /* sizeof(struct cg_host) of the host */
	void *(*alloc)(size_t size);               /* NULL on failure */
	void *(*realloc)(void *ptr, size_t size);  /* NULL on failure */
	void (*free)(void *ptr);
	/* Append to a buffer; 0 on success, CG_ENOMEM on failure. */
	int (*buf_put)(struct cg_buf *buf, const void *data, size_t len);
	int (*buf_putc)(struct cg_buf *buf, int c);
	int (*buf_printf)(struct cg_buf *buf, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
	/* Record an error message (no trailing newline, lower case, no full
	 * stop).  column is the 1-based byte column in the text being parsed,
	 * or 0 when there is none.  Returns CG_EPARSE for convenience. */
	int (*error)(struct cg_error *err, size_t column, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

	/* -- appended for rules files (read below struct_size only) -- */
	/* Like error(), for load(), which reads a file of several lines:
	 * line is 1-based (0 = none).  The host writes "FILE:LINE: msg". */
	int (*error_at)(struct cg_error *err, unsigned long line,
	    size_t column, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));
	/* -- appended for warnings (check struct_size before calling) -- */
	/* Tell the user something that is no error (a file that will run
	 * slowly): the host writes "PROG: warning: message" on standard
	 * error the first time it is given a message, and drops the same
	 * message given again, from any thread, so a hook may call it each
	 * time it meets the cause. */
	void (*warn)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
};

/* Does the host's table h hold service field (appended since the first
 * version)? */
#define CG_HOST_HAS(h, field)                                              \
	((h)->struct_size >= offsetof(struct cg_host, field) +             \
	    sizeof((h)->field))

/* What every hook receives: the host's services and the plugin's own state
 * made by init() (NULL when there is no init). */
struct cg_context {
	const struct cg_host *host;
	void *state;
	struct cg_error *err; /* where hooks report errors */
};

/*
 * Visitor for positions a hook produces.  move is a short human-readable
 * move name (NUL-terminated, no TAB or newline) or NULL.  Return non-zero to
 * stop the enumeration; the hook then returns CG_STOP at once.
 */
typedef int (*cg_emit_fn)(void *ctx, const unsigned char *pos, size_t len,
    const char *move);

/*
 * Visitor for joint (synchronized) options: i is the index of Left's move
 * in the order options(CG_LEFT) emits them, j that of Right's move in the
 * order of options(CG_RIGHT).  Every pair (i, j) must be emitted once.
 */
typedef int (*cg_emit_joint_fn)(void *ctx, size_t i, size_t j,
    const unsigned char *pos, size_t len);

struct cg_ruleset {
	/* header: present in every version */
	uint32_t abi_version; /* CG_ABI_VERSION the plugin was built for */
	uint32_t struct_size; /* sizeof(struct cg_ruleset) at build time */
	const char *name;     /* equals the file stem: [a-z0-9_-]+ */
	const char *version;  /* the ruleset's own version, e.g. "1.0" */
	const char *summary;  /* one line */
	const char *params_help; /* one line describing PARAMS, or NULL */
	uint64_t flags;

	/* Parse PARAMS (the text after ':' in -r NAME:PARAMS, or NULL) and
	 * make the state passed back in cg_context.state.  Optional. */
	int (*init)(const struct cg_host *host, const char *params,
	    void **state, struct cg_error *err);
	void (*fini)(const struct cg_host *host, void *state);

	/* Text to position bytes, appended to out.  Required.  On error,
	 * report the 1-based column of the offending character. */
	int (*parse)(const struct cg_context *cx, const char *text,
	    size_t len, struct cg_buf *out);
	/* Position bytes to text (no newline) appended to out.  Required.
	 * parse(print(p)) must give back p byte for byte. */
	int (*print)(const struct cg_context *cx, const unsigned char *pos,
	    size_t len, struct cg_buf *out);
	/* Emit every option of side from pos (duplicates allowed).
	 * Required.  Returns CG_OK, CG_STOP or an error. */
	int (*options)(const struct cg_context *cx, const unsigned char *pos,
	    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx);

	/* Optional hooks: NULL when absent. */

	/* Append the canonical representative of pos's class: a position
	 * equal to pos up to the ruleset's symmetries and relabellings, the
	 * same bytes for every member of the class.  Must be idempotent. */
	int (*canonical)(const struct cg_context *cx,
	    const unsigned char *pos, size_t len, struct cg_buf *out);
	/* Emit positions whose disjunctive sum equals pos (one component
	 * per emit; components without moves may be left out). */
	int (*decompose)(const struct cg_context *cx,
	    const unsigned char *pos, size_t len, cg_emit_fn emit, void *ctx);
	/* Emit the joint options of pos (both players move at once). */
	int (*synch_options)(const struct cg_context *cx,
	    const unsigned char *pos, size_t len, cg_emit_joint_fn emit,
	    void *ctx);
	/* Value of a decided synchronized position (at most one player can
	 * move): *num / *den, positive for Left. */
	int (*decided_value)(const struct cg_context *cx,
	    const unsigned char *pos, size_t len, int64_t *num, int64_t *den);
	/* Emit every position of the family named by text (ruleset-defined,
	 * e.g. "4x3"); used to build knowledge bases. */
	int (*enumerate)(const struct cg_context *cx, const char *family,
	    cg_emit_fn emit, void *ctx);
	/* Turn a move name typed by a person into the child position, or
	 * report why it is not a legal move of side.  When NULL, the host
	 * matches the text against the move names options() emits. */
	int (*move_parse)(const struct cg_context *cx,
	    const unsigned char *pos, size_t len, enum cg_side side,
	    const char *text, struct cg_buf *child);
	/* Search-ordering hint: positions with a smaller key are tried
	 * first by outcome searches. */
	int (*order_key)(const struct cg_context *cx,
	    const unsigned char *pos, size_t len, int64_t *key);
	/* Named extensions for hooks not yet in this struct; NULL if
	 * unknown.  The returned data lives as long as the state does.
	 * Each extension is declared in a header of its own under cg/
	 * (cg/heaprules.h, cg/impartial.h, cg/value.h, cg/rank.h, ...);
	 * see cg-ruleset(3). */
	const void *(*extension)(const struct cg_context *cx,
	    const char *name);

	/* Appended in ABI 1 (read only below struct_size). */

	/* A number every move strictly decreases: for every option of pos
	 * and every component of that option, measure(component) <
	 * measure(pos) -- empty squares for a placement game, counters for
	 * a heap game.  Engines order work by it (a knowledge base is built
	 * in waves of increasing measure, cg-kb-build --measure). */
	int (*measure)(const struct cg_context *cx, const unsigned char *pos,
	    size_t len, uint64_t *m);

	/* -- appended for rules files (read below struct_size only) -- */
	/*
	 * An interpreter (flag CG_INTERPRETER, no parse, print or options of
	 * its own) turns the text of a rules file NAME.cgr, read by the
	 * host, into the descriptor of ruleset NAME.  file names the file in
	 * messages; the interpreter never opens files.  On an error it
	 * returns NULL with a message given through host->error_at (the
	 * file's line).  The descriptor and everything it points to stay
	 * valid and unchanged until unload(); every state init_desc() makes
	 * shares them.
	 */
	const struct cg_ruleset *(*load)(const struct cg_host *host,
	    const char *name, const char *file, const char *text, size_t len,
	    struct cg_error *err);
	void (*unload)(const struct cg_host *host, const struct cg_ruleset *rs);
	/* init() that is also given the descriptor, so one interpreter can
	 * serve several rulesets; when present the host calls it instead of
	 * init(), with the same contract. */
	int (*init_desc)(const struct cg_ruleset *self,
	    const struct cg_host *host, const char *params, void **state,
	    struct cg_error *err);
};

/* Rules files: NAME.cgr on the plugin path is ruleset NAME, read by the
 * interpreter plugin CG_RULES_INTERPRETER (rules.so) found on the same
 * path.  See cgr(5). */
#define CG_RULES_SUFFIX ".cgr"
#define CG_RULES_INTERPRETER "rules"
/* The host reads at most this many bytes of a rules file. */
#define CG_RULES_MAX_BYTES (1u << 20)

/* The one exported symbol.  host_abi is the host's CG_ABI_VERSION; a
 * plugin returns NULL if it cannot work with that host. */
typedef const struct cg_ruleset *(*cg_entry_fn)(uint32_t host_abi,
    const struct cg_host *host);

#if defined(CG_STATIC_PLUGIN)
#define CG_RULESET_ENTRY_NAME(stem) cg_ruleset_entry_##stem
#define CG_EXPORT
#else
#define CG_RULESET_ENTRY_NAME(stem) cg_ruleset_entry
#define CG_EXPORT __attribute__((visibility("default")))
#endif

/* Define the entry function of a plugin whose descriptor is desc:
 *     CG_RULESET_ENTRY(nim, nim_ruleset)                              */
#define CG_RULESET_ENTRY(stem, desc)                                      \
	CG_EXPORT const struct cg_ruleset *CG_RULESET_ENTRY_NAME(stem)(     \
	    uint32_t host_abi, const struct cg_host *host);                 \
	CG_EXPORT const struct cg_ruleset *CG_RULESET_ENTRY_NAME(stem)(     \
	    uint32_t host_abi, const struct cg_host *host)                  \
	{                                                                   \
		(void)host;                                                 \
		return host_abi == CG_ABI_VERSION ? &(desc) : NULL;         \
	}

#ifdef __cplusplus
}
#endif

/* The extensions, each in its own header; included here too for plugins
 * written before they had headers of their own. */
#include "heaprules.h"
#include "impartial.h"
#endif
