/* watch.h - watching long computations: requests to stop (SIGINT and
 * SIGTERM, the memory limit) and progress reports.
 *
 * Engines poll cg_stop (cheap: one load) where they can stop cleanly and
 * call cg_progress_tick() once per unit of work; a tool turns the
 * watching on with the options every long-running tool shares:
 * --progress and --max-memory MB.  The memory limit is on the whole
 * process (its resident set, sampled by a thread of its own ten times a
 * second), not on one engine's tables: past it cg_stop is set, the
 * engine stops, and the tool saves what it can and says why. */
#ifndef CG_WATCH_H
#define CG_WATCH_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* Non-zero when the computation should stop: one of these. */
enum { CG_STOP_SIGNAL = 1, CG_STOP_MEMORY = 2 };
extern volatile sig_atomic_t cg_stop;

/* SIGINT and SIGTERM set cg_stop (a second signal ends the program). */
void cg_watch_signals(void);
/* The largest --max-memory: the limit in bytes fits a size_t. */
#define CG_MEMORY_MB_MAX ((unsigned long)(SIZE_MAX >> 20))
/* Stop past limit_mb megabytes resident (0: no limit). */
void cg_watch_memory(unsigned long limit_mb);
/* Unless cg_watch_memory was called (--max-memory, even 0), stop past
 * seven eighths of the physical memory: a clean stop with a message
 * rather than the kernel's kill. */
void cg_watch_memory_default(void);
/* The limit in bytes (0: none), for engines that keep their tables
 * below it rather than stop at it. */
size_t cg_watch_limit(void);
/* Whether the process may grow by bytes more now: 0 (and cg_stop set)
 * when its resident size plus bytes would pass the limit.  An engine
 * asks before a large step that fills its memory at once (a table
 * doubled and refilled, a compaction's copies), which the sampling
 * thread would see only after the fact; without a limit, always 1. */
int cg_watch_room(size_t bytes);
/* The same question without the stop, for a table that can do without
 * growing (one that replaces its entries). */
int cg_watch_fits(size_t bytes);
/* Whether an open-addressed table of nslots slots holding n entries
 * doubles now (its new slots taking bytes): past half load when that
 * has room (cg_watch_room: else the engine stops at its next poll and
 * the slots fill further meanwhile), and past 7/8 load in any case. */
static inline int
cg_watch_double(size_t n, size_t nslots, size_t bytes)
{
	if (2 * n <= nslots)
		return 0;
	return 8 * n > 7 * nslots || (cg_stop == 0 && cg_watch_room(bytes));
}
/* Why cg_stop was set, for the message: "interrupted" or "memory limit
 * of N MB reached". */
const char *cg_stop_reason(void);
/* The exit status for it: 128 + the signal, or 1 past the memory limit
 * (a clear error, not a kill). */
int cg_stop_status(void);

/* Resident and peak resident bytes of the process. */
size_t cg_memory_rss(void);
size_t cg_memory_peak(void);

/* Report progress: fn(ctx, seconds since the start) is called from
 * cg_progress_tick() about every `seconds` (the ticking thread calls
 * it, so fn may read the engine's state). */
void cg_progress_every(double seconds, void (*fn)(void *ctx, double elapsed),
    void *ctx);
void cg_progress_tick(void);
/* Seconds since cg_progress_every (or the first call of this). */
double cg_elapsed(void);

#endif
