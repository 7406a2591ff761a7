/* engine.h - the table of search engines (engines.c).  Not for tools:
 * they name an engine (--search NAME) through outcome.h.
 *
 * An engine answers outcome queries on sums of a solver's components,
 * and nim values where it can; what it keeps between queries is its
 * own, behind one pointer of the solver (its tree, its tables), and
 * freed by its free.  Engines of one family may share that state and
 * point at the same memory, branch and free functions (the proof-number
 * searches share one tree); the solver counts and frees each once.  The
 * queries get their row, so that one function serves a family.  A
 * new engine is one file defining its row and one line in engines.c. */
#ifndef CG_ENGINE_H
#define CG_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

struct cg_solver;

/* What an engine's outcome returns for a sum it does not take (a bit
 * search's sum that does not fit its words): the query goes to the
 * engine auto would pick. */
#define CG_ENGINE_DECLINED (-2)

enum {
	CG_ENGINE_MISERE = 1,          /* answers misere outcomes */
	CG_ENGINE_NIMBER = 2,          /* answers nim values */
	/* auto's engine for impartial normal play */
	CG_ENGINE_AUTO_IMPARTIAL = 4,
	/* auto asks it first in partizan normal play; it declines the sums
	 * it is not the fastest for */
	CG_ENGINE_AUTO_FIRST = 8,
	/* auto's engine for everything else, and check mode's (--check
	 * re-derives results guided by databases) */
	CG_ENGINE_FALLBACK = 16
};

struct cg_engine {
	const char *name;              /* --search NAME */
	unsigned flags;                /* CG_ENGINE_* */
	/* Outcome class 'L', 'R', 'N' or 'P' of sum ids[0..n) (misere play
	 * when misere is set), CG_SOLVE_INTERRUPTED, or CG_ENGINE_DECLINED. */
	int (*outcome)(const struct cg_engine *e, struct cg_solver *s,
	    const uint32_t *ids, size_t n, int misere);
	/* Nim value of sum ids[0..n) (impartial normal play) or
	 * CG_SOLVE_INTERRUPTED; NULL without CG_ENGINE_NIMBER. */
	int64_t (*nimber)(const struct cg_engine *e, struct cg_solver *s,
	    const uint32_t *ids, size_t n);
	/* Bytes its state holds now. */
	size_t (*memory)(const struct cg_solver *s);
	/* The computing branch, when it is at work: 1 when written. */
	int (*branch)(struct cg_solver *s, struct cg_buf *out);
	/* Free its state (the solver is being freed). */
	void (*free)(struct cg_solver *s);
};

extern const struct cg_engine cg_engine_dfs, cg_engine_pns, cg_engine_dfpn,
    cg_engine_pn2, cg_engine_bits;

/* Every engine, in the order cg-outcome(1) lists them; NULL ends it. */
extern const struct cg_engine *const cg_engines[];

/* The engine that answers an outcome query (nimber 0; misere play when
 * misere is set) or a nim-value query (nimber 1) on s: the one asked for
 * when it answers such queries, else auto's. */
const struct cg_engine *cg_engine_for(const struct cg_solver *s, int nimber,
    int misere);
/* Auto's engine for such a query, other than one that declined it. */
const struct cg_engine *cg_engine_auto(const struct cg_solver *s,
    int nimber, int misere, const struct cg_engine *declined);

#endif
