/* dfs_int.h - the depth-first engine's stack machine, shared by dfs.c
 * (impartial couples, sums of any game, the driver, restarts) and
 * dfs_misere.c (misere forms standing for equal components, the genus).
 * Not for tools.
 *
 * All its searches share one explicit stack of frames and one arena of
 * 32-bit words holding each frame's children (records of the form
 * [order key, ...]); a frame's arena data lies above its parent's, so
 * popping a frame frees its data. */
#ifndef CG_DFS_INT_H
#define CG_DFS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "solve/solver_int.h"

enum { K_NIM, K_COUPLE, K_SUM, K_XOR, K_S, K_GEN };

struct frame {
	uint8_t kind, stage, side, misere;
	uint32_t c, n;
	uint64_t st;
	size_t base;          /* arena data of this frame */
	size_t index;         /* arena offset of the sorted child index */
	uint32_t nchild, idx, cnt;
	int64_t acc;
};

/* Misere play: the components whose misere canonical forms are made
 * (dfs_m_reduce): canonical bytes at most MFORM_BYTES long, each form
 * within MFORM_WORK expansions of the genus search.  A form costs its
 * component's whole game tree: below these bounds too few sums merge,
 * above them the forms cost more than the merging saves (tuned on misere
 * Sprouts 0*9 .. 0*12, which bench/outcome times). */
#define MFORM_BYTES 14
#define MFORM_WORK 300

/* Push a frame of kind; pop the top one with result v (its parent's
 * stage moves on). */
struct frame *dfs_push(struct cg_solver *s, int kind);
void dfs_finish(struct cg_solver *s, int64_t v);
/* The sorted index of the child records whose offsets are offs[0..n). */
void dfs_make_index(struct cg_solver *s, struct frame *f,
    const uint32_t *offs, uint32_t n);
/* Run the frames above depth; -1 when a stop (or a misere form out of
 * its work) unwound them. */
int dfs_run(struct cg_solver *s, size_t depth);

/* dfs_misere.c: the entry of misere sum e with its small components
 * replaced by the ones standing for their forms (forms made as needed),
 * or -1; the same from the forms made already, for sum ids[0..n), when
 * it is in the table. */
int64_t dfs_m_reduce(struct cg_solver *s, uint64_t e);
int64_t dfs_m_known(struct cg_solver *s, const uint32_t *ids, size_t n);
/* The genus frames: push one for 'G' sum e, step it, and read its
 * misere game (-1 none yet) and height. */
void dfs_push_gen(struct cg_solver *s, uint64_t e);
void dfs_step_gen(struct cg_solver *s, struct frame *f);
int64_t dfs_gen_rec(struct cg_solver *s, uint64_t e);
uint32_t dfs_gen_height(struct cg_solver *s, uint64_t e);

#endif
