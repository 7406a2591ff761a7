/* jobs.c - worker threads (see jobs.h).  Threads are made per loop: the
 * engines run a few long loops (one per wave of a build), so a pool would
 * save nothing worth its state. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/jobs.h"
#include "base/util.h"

_Thread_local unsigned cg_worker;

unsigned
cg_jobs_default(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof set, &set) == 0)
		n = CPU_COUNT(&set);
	else
		n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	return n > CG_MAX_JOBS ? CG_MAX_JOBS : (unsigned)n;
}

unsigned
cg_jobs_parse(const char *arg)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end != '\0' || errno || n < 1 ||
	    n > CG_MAX_JOBS)
		cg_die(CG_EXIT_USAGE, "bad argument '%s' for --jobs (want 1 to "
		    "%d)", arg, CG_MAX_JOBS);
	return (unsigned)n;
}

struct loop {
	size_t n, grain;
	_Atomic size_t next;
	void (*fn)(void *, size_t);
	void *ctx;
};

struct helper {
	struct loop *l;
	unsigned worker;
};

static void
run(struct loop *l)
{
	size_t i, end;

	for (;;) {
		i = atomic_fetch_add_explicit(&l->next, l->grain,
		    memory_order_relaxed);
		if (i >= l->n)
			return;
		end = i + l->grain < l->n ? i + l->grain : l->n;
		for (; i < end; i++)
			l->fn(l->ctx, i);
	}
}

static void *
helper_main(void *arg)
{
	struct helper *h = arg;

	cg_worker = h->worker;
	run(h->l);
	return NULL;
}

void
cg_parallel_for(size_t n, unsigned jobs, size_t grain,
    void (*fn)(void *ctx, size_t i), void *ctx)
{
	struct loop l;
	pthread_t tid[CG_MAX_JOBS];
	struct helper h[CG_MAX_JOBS];
	unsigned k, started = 0;
	int r;

	l.n = n;
	l.grain = grain ? grain : 1;
	atomic_init(&l.next, 0);
	l.fn = fn;
	l.ctx = ctx;
	if (jobs > CG_MAX_JOBS)
		jobs = CG_MAX_JOBS;
	if (jobs > 1 && n > l.grain) {
		pthread_attr_t attr;

		/* the canonical store recurses as deep as a game's birthday
		 * (CG_CANON_MAX_DEPTH): room as on the main stack */
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, (size_t)256 << 20);
		for (k = 1; k < jobs; k++) {
			h[k].l = &l;
			h[k].worker = k;
			r = pthread_create(&tid[k], &attr, helper_main, &h[k]);
			if (r != 0) {
				/* fewer threads still finish the loop */
				cg_warn("cannot start a thread: %s", strerror(r));
				break;
			}
			started = k;
		}
		pthread_attr_destroy(&attr);
	}
	run(&l);
	for (k = 1; k <= started; k++)
		pthread_join(tid[k], NULL);
}
