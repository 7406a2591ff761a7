/* jobs.h - worker threads: how many to run, which one is running, and a
 * parallel loop.  The calling thread is worker 0 and takes part in every
 * loop, so code indexed by cg_worker needs no special case for --jobs 1. */
#ifndef CG_JOBS_H
#define CG_JOBS_H

#include <stddef.h>

#define CG_MAX_JOBS 256

/* The running thread's worker number: 0 in the main thread, 1 .. jobs-1
 * in the helpers of cg_parallel_for. */
extern _Thread_local unsigned cg_worker;

/* Cores this process may use (at least 1, at most CG_MAX_JOBS). */
unsigned cg_jobs_default(void);
/* The argument of --jobs: 1 .. CG_MAX_JOBS; a usage error otherwise. */
unsigned cg_jobs_parse(const char *arg);

/*
 * Call fn(ctx, i) once for every i in [0, n), on jobs threads (the caller
 * among them).  Items are handed out in increasing order, grain at a
 * time; fn must not call cg_parallel_for.  Returns when every call has
 * returned.
 */
void cg_parallel_for(size_t n, unsigned jobs, size_t grain,
    void (*fn)(void *ctx, size_t i), void *ctx);

#endif
