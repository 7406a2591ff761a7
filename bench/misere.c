/*
 * bench/misere.c - the misere table (values/misere.h) on the games born
 * by each day: every set of the games born by day d - 1 made canonical,
 * and the distinct games counted.  Conway (On Numbers and Games, ch. 12)
 * counts 1, 2, 3, 5, 22 and 4171780 games born by days 0 to 5; a count
 * that differs is an error (exit 1).  Then the forms of the 22 games of
 * day 4 are printed, with their parts, in CGSuite's notation, timed.
 * CPU seconds of this thread and the peak resident memory.
 *
 *   misere-bench [DAYS]        (default 5; 4 takes no time)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "base/util.h"
#include "base/watch.h"
#include "values/misere.h"

static double
cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	static const unsigned long want[] = { 1, 2, 3, 5, 22, 4171780 };
	unsigned days = argc > 1 ? (unsigned)atoi(argv[1]) : 5, d;
	struct cg_mtab *t = cg_mtab_new();
	uint32_t games[32], o[32];
	size_t n = 1, i, k, m;
	unsigned char *seen = NULL;
	size_t capseen = 0;
	double t0;
	int bad = 0;

	if (days > 5) {
		fprintf(stderr, "misere-bench: at most 5 days\n");
		return 2;
	}
	games[0] = 0;
	printf("%-5s %12s %12s %9s\n", "day", "games", "published", "cpu-s");
	printf("%-5u %12zu %12lu %9.3f\n", 0u, n, want[0], 0.0);
	for (d = 1; d <= days; d++) {
		size_t prev = n, count = 0;

		t0 = cpu();
		memset(seen, 0, capseen);
		for (m = 0; m < (size_t)1 << prev; m++) {
			uint32_t g;

			for (i = 0, k = 0; i < prev; i++)
				if (m >> i & 1)
					o[k++] = games[i];
			g = cg_mtab_canon(t, o, k);
			seen = cg_xgrow_zero(seen, &capseen, g, 1);
			if (!seen[g]) {
				seen[g] = 1;
				count++;
				/* the games of this day make the next one */
				if (d < 5 && n < sizeof games / sizeof games[0] &&
				    g != games[0]) {
					int known = 0;

					for (i = 0; i < n && !known; i++)
						known = games[i] == g;
					if (!known)
						games[n++] = g;
				}
			}
		}
		printf("%-5u %12zu %12lu %9.3f\n", d, count, want[d], cpu() - t0);
		bad |= count != want[d];
	}
	if (days >= 4) {
		struct cg_buf b;

		cg_buf_init(&b);
		t0 = cpu();
		for (i = 0; i < 22 && i < n; i++) {
			b.len = 0;
			cg_mtab_property(t, games[i], "canon", &b);
			cg_buf_addc(&b, '\t');
			cg_mtab_property(t, games[i], "parts", &b);
			printf("  %s\n", cg_buf_str(&b));
		}
		printf("forms and parts of day 4: %.3f cpu-s\n", cpu() - t0);
		cg_buf_free(&b);
	}
	printf("peak rss KiB %zu, table bytes %zu\n", cg_memory_peak() / 1024,
	    cg_mtab_memory(t));
	free(seen);
	cg_mtab_free(t);
	return bad;
}
