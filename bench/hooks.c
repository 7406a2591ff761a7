/*
 * bench/hooks.c - the plugin side of a knowledge-base build, alone: for
 * every position of a family, what the position graph asks the ruleset
 * (graph/graph.c, cg_graph_all_options): the options of both players,
 * the components of each option (decompose) and the canonical bytes of
 * each component (canonical).  The host side (tables, values) is left
 * out, so the figures are the ruleset's own cost.  Times are CPU seconds
 * of this thread (the machine is shared); each round is timed and the
 * fastest is printed.  Built and run by bench/hooks.
 *
 *   hooks-bench RULESET FAMILY [ROUNDS [EVERY]]
 *
 * EVERY > 1 expands only every EVERY-th position of the family (a sample
 * of a family too big to expand whole in a benchmark).
 *
 * CG_PLUGIN_PATH chooses the plugin build, so two builds of a ruleset can
 * be compared on the same binary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "base/util.h"
#include "host/plugin.h"

struct run {
	struct cg_plugin *rs;
	struct cg_buf pos, canon;
	size_t *off, n, cap;
	size_t options, components;
	uint64_t sum;              /* of canonical bytes: keeps the work */
};

static double
cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static int
on_pos(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct run *r = ctx;

	(void)move;
	if (r->n + 2 > r->cap) {
		r->cap = r->cap ? 2 * r->cap : 1024;
		r->off = cg_xreallocarray(r->off, r->cap, sizeof *r->off);
	}
	r->off[r->n] = r->pos.len;
	cg_buf_add(&r->pos, pos, len);
	r->off[++r->n] = r->pos.len;
	return 0;
}

static int
on_component(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	struct run *r = ctx;

	(void)move;
	r->components++;
	r->canon.len = 0;
	if (cg_rs_canonical(r->rs, pos, len, &r->canon) < 0)
		cg_die(CG_EXIT_DATA, "%s", cg_rs_errmsg(r->rs));
	r->sum += r->canon.len + r->canon.data[r->canon.len - 1];
	return 0;
}

static int
on_option(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct run *r = ctx;

	(void)move;
	r->options++;
	if (cg_rs_decompose(r->rs, pos, len, on_component, r) < 0)
		cg_die(CG_EXIT_DATA, "%s", cg_rs_errmsg(r->rs));
	return 0;
}

int
main(int argc, char **argv)
{
	struct run r;
	size_t i, round, rounds = argc > 3 ? strtoul(argv[3], NULL, 10) : 3,
	    every = argc > 4 ? strtoul(argv[4], NULL, 10) : 1;
	double t, best_enum = 1e30, best_opt = 1e30;
	int side;

	cg_setprogname(argv[0]);
	if (argc < 3 || rounds == 0 || every == 0) {
		fprintf(stderr, "usage: hooks-bench RULESET FAMILY [ROUNDS "
		    "[EVERY]]\n");
		return 2;
	}
	memset(&r, 0, sizeof r);
	cg_buf_init(&r.pos);
	cg_buf_init(&r.canon);
	r.rs = cg_plugin_get(argv[1], CG_EXIT_USAGE);
	for (round = 0; round < rounds; round++) {
		r.n = 0;
		r.pos.len = 0;
		t = cpu_now();
		if (cg_rs_enumerate(r.rs, argv[2], on_pos, &r) < 0)
			cg_die(CG_EXIT_DATA, "%s", cg_rs_errmsg(r.rs));
		t = cpu_now() - t;
		if (t < best_enum)
			best_enum = t;
	}
	for (round = 0; round < rounds; round++) {
		r.options = r.components = 0;
		t = cpu_now();
		for (i = 0; i < r.n; i += every) {
			/* what the graph does for a family position */
			if (cg_rs_decompose(r.rs, r.pos.data + r.off[i],
			    r.off[i + 1] - r.off[i], on_component, &r) < 0)
				cg_die(CG_EXIT_DATA, "%s", cg_rs_errmsg(r.rs));
			for (side = CG_LEFT; side <= CG_RIGHT; side++)
				if (cg_rs_options(r.rs, r.pos.data + r.off[i],
				    r.off[i + 1] - r.off[i], (enum cg_side)side,
				    on_option, &r) < 0)
					cg_die(CG_EXIT_DATA, "%s",
					    cg_rs_errmsg(r.rs));
		}
		t = cpu_now() - t;
		if (t < best_opt)
			best_opt = t;
	}
	printf("%-12s %-6s %9zu positions  enumerate %6.2f s  "
	    "options %6.2f s (%zu options, %zu components): "
	    "%5.0f ns per option, %7.0f positions/s\n", argv[1], argv[2], r.n,
	    best_enum, best_opt, r.options, r.components,
	    best_opt / (double)r.options * 1e9,
	    (double)((r.n + every - 1) / every) / best_opt);
	fflush(stdout);
	cg_buf_free(&r.pos);
	cg_buf_free(&r.canon);
	free(r.off);
	cg_plugin_unload_all();
	return (int)(r.sum & 0);
}
