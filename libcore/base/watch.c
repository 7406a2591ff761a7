/* watch.c - stop requests and progress (see watch.h). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "base/jobs.h"
#include "base/util.h"
#include "base/watch.h"

volatile sig_atomic_t cg_stop;
static volatile sig_atomic_t stop_signal;

static unsigned long limit_mb;
static int limit_given;      /* --max-memory was given (0: no limit) */
static int limit_default;    /* the limit is cg_watch_memory_default's */
static char reason[128];

static void
on_signal(int sig)
{
	if (cg_stop == CG_STOP_SIGNAL) {
		/* asked twice: stop now */
		signal(sig, SIG_DFL);
		raise(sig);
	}
	stop_signal = sig;
	cg_stop = CG_STOP_SIGNAL;
}

int
cg_stop_status(void)
{
	return cg_stop == CG_STOP_SIGNAL ? 128 + stop_signal : CG_EXIT_DATA;
}

void
cg_watch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

size_t
cg_memory_rss(void)
{
	FILE *fp = fopen("/proc/self/statm", "r");
	unsigned long size, rss = 0;

	if (fp == NULL)
		return 0;
	if (fscanf(fp, "%lu %lu", &size, &rss) != 2)
		rss = 0;
	fclose(fp);
	return (size_t)rss * (size_t)sysconf(_SC_PAGESIZE);
}

size_t
cg_memory_peak(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (size_t)ru.ru_maxrss * 1024;
}

static void *
memory_watch(void *arg)
{
	struct timespec ts = { 0, 100000000 };

	(void)arg;
	for (;;) {
		if (cg_memory_rss() / 1048576 >= limit_mb && cg_stop == 0)
			cg_stop = CG_STOP_MEMORY;
		nanosleep(&ts, NULL);
	}
	return NULL;
}

void
cg_watch_memory(unsigned long mb)
{
	pthread_t t;
	pthread_attr_t attr;

	limit_given = 1;
	if (mb == 0 || limit_mb != 0)
		return;
	limit_mb = mb;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 65536);
	if (pthread_create(&t, &attr, memory_watch, NULL) != 0)
		cg_die(CG_EXIT_DATA, "cannot start the memory watch");
	pthread_attr_destroy(&attr);
}

/* The memory limit of the control group (v2, then v1) in bytes, or 0
 * for none. */
static double
cgroup_limit(void)
{
	static const char *const files[] = {
		"/sys/fs/cgroup/memory.max",
		"/sys/fs/cgroup/memory/memory.limit_in_bytes"
	};
	double lim = 0;
	size_t i;

	for (i = 0; i < sizeof files / sizeof files[0] && lim == 0; i++) {
		FILE *fp = fopen(files[i], "r");
		char line[64];

		if (fp == NULL)
			continue;
		if (fgets(line, sizeof line, fp) != NULL &&
		    line[0] >= '0' && line[0] <= '9')
			lim = strtod(line, NULL);
		fclose(fp);
	}
	return lim;
}

void
cg_watch_memory_default(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	double bytes, cg = cgroup_limit();
	unsigned long mb;

	if (limit_given || pages <= 0 || psz <= 0)
		return;
	/* seven eighths of the machine (or of the control group's limit,
	 * when lower): near where the kernel would kill the process, but
	 * a clean stop (and the -D database saved) */
	bytes = (double)pages * (double)psz;
	if (cg > 0 && cg < bytes)
		bytes = cg;
	mb = (unsigned long)(bytes / 1048576.0 / 8 * 7);
	if (mb > 0) {
		cg_watch_memory(mb);
		limit_default = 1;
	}
}

size_t
cg_watch_limit(void)
{
	return (size_t)limit_mb << 20;
}

int
cg_watch_fits(size_t bytes)
{
	return limit_mb == 0 || cg_memory_rss() + bytes < cg_watch_limit();
}

int
cg_watch_room(size_t bytes)
{
	if (cg_watch_fits(bytes))
		return 1;
	if (cg_stop == 0)
		cg_stop = CG_STOP_MEMORY;
	return 0;
}

const char *
cg_stop_reason(void)
{
	if (cg_stop == CG_STOP_MEMORY)
		snprintf(reason, sizeof reason, "memory limit of %lu MB "
		    "reached%s", limit_mb, limit_default ? " (the default, 7/8 "
		    "of the memory; --max-memory sets another)" : "");
	else
		snprintf(reason, sizeof reason, "interrupted");
	return reason;
}

static struct timespec start;
static int started;
static double every, next_report;
static void (*report)(void *, double);
static void *report_ctx;

double
cg_elapsed(void)
{
	struct timespec t;

	if (!started) {
		clock_gettime(CLOCK_MONOTONIC, &start);
		started = 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - start.tv_sec) +
	    (double)(t.tv_nsec - start.tv_nsec) / 1e9;
}

void
cg_progress_every(double seconds, void (*fn)(void *, double), void *ctx)
{
	cg_elapsed();
	every = seconds;
	next_report = seconds;
	report = fn;
	report_ctx = ctx;
}

void
cg_progress_tick(void)
{
	static unsigned long ticks;
	double t;

	/* the main thread reports; it takes part in every parallel loop */
	if (report == NULL || cg_worker != 0 || (++ticks & 255) != 0)
		return;
	t = cg_elapsed();
	if (t < next_report)
		return;
	next_report = t + every;
	report(report_ctx, t);
}
