/*
 * bench/table.c - the position table (base/bytemap) against uthash, the
 * hash table the project's design names, on the keys the engines really
 * use: the canonical bytes of every position of a knowledge-base family.
 * Both tables get the same keys in the same order; each run interns them
 * all, then looks every key up again in a shuffled order, then looks up
 * as many absent keys.  Printed: nanoseconds per operation and bytes per
 * key.  Built and run by bench/table.
 *
 *   table-bench RULESET FAMILY [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uthash.h>

#include "base/bytemap.h"
#include "base/util.h"
#include "host/plugin.h"

struct keys {
	struct cg_buf bytes, canon;
	size_t *off, n, cap;
	struct cg_plugin *rs;
};

static int
on_pos(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct keys *k = ctx;

	(void)move;
	k->canon.len = 0;
	if (cg_rs_canonical(k->rs, pos, len, &k->canon) < 0)
		cg_die(CG_EXIT_DATA, "%s", cg_rs_errmsg(k->rs));
	if (k->n + 2 > k->cap) {
		k->cap = k->cap ? 2 * k->cap : 1024;
		k->off = cg_xreallocarray(k->off, k->cap, sizeof *k->off);
	}
	k->off[k->n] = k->bytes.len;
	cg_buf_add(&k->bytes, k->canon.data, k->canon.len);
	k->off[++k->n] = k->bytes.len;
	return 0;
}

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

struct uh {
	const unsigned char *key;
	size_t len;
	uint64_t value;
	UT_hash_handle hh;
};

static size_t rss_kb(void)
{
	FILE *fp = fopen("/proc/self/statm", "r");
	unsigned long a = 0, b = 0;

	if (fp != NULL) {
		if (fscanf(fp, "%lu %lu", &a, &b) != 2)
			b = 0;
		fclose(fp);
	}
	return b * 4;
}

int
main(int argc, char **argv)
{
	struct keys k;
	size_t *perm, i, j, t, rounds = argc > 3 ? strtoul(argv[3], NULL, 10) : 3;
	double best[2][3] = { { 1e9, 1e9, 1e9 }, { 1e9, 1e9, 1e9 } };
	size_t bytes[2] = { 0, 0 };
	unsigned char miss[64];
	uint64_t sum = 0;
	unsigned long long seed = 12345;

	cg_setprogname(argv[0]);
	if (argc < 3)
		cg_die(CG_EXIT_USAGE, "usage: table-bench RULESET FAMILY [ROUNDS]");
	memset(&k, 0, sizeof k);
	cg_buf_init(&k.bytes);
	cg_buf_init(&k.canon);
	k.rs = cg_plugin_get(argv[1], CG_EXIT_USAGE);
	if (cg_rs_enumerate(k.rs, argv[2], on_pos, &k) < 0)
		cg_die(CG_EXIT_DATA, "%s", cg_rs_errmsg(k.rs));
	perm = cg_xmalloc(k.n * sizeof *perm);
	for (i = 0; i < k.n; i++)
		perm[i] = i;
	for (i = k.n; i > 1; i--) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		j = (size_t)(seed >> 33) % i;
		t = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = t;
	}
	for (t = 0; t < rounds; t++) {
		struct cg_bytemap *m;
		struct uh *head = NULL, *e, *tmp, *pool;
		size_t before;
		double t0, t1, t2, t3;
		int isnew;

		/* bytemap */
		before = rss_kb();
		t0 = now();
		m = cg_bytemap_new();
		for (i = 0; i < k.n; i++)
			*cg_bytemap_value(m, cg_bytemap_intern(m, k.bytes.data +
			    k.off[i], k.off[i + 1] - k.off[i], &isnew)) = i;
		t1 = now();
		for (i = 0; i < k.n; i++)
			sum += (uint64_t)cg_bytemap_find(m, k.bytes.data +
			    k.off[perm[i]], k.off[perm[i] + 1] - k.off[perm[i]]);
		t2 = now();
		for (i = 0; i < k.n; i++) {
			size_t len = k.off[perm[i] + 1] - k.off[perm[i]];

			memcpy(miss, k.bytes.data + k.off[perm[i]], len);
			miss[0] ^= 0x80;   /* no key starts like this */
			sum += (uint64_t)cg_bytemap_find(m, miss, len);
		}
		t3 = now();
		bytes[0] = cg_bytemap_memory(m);
		(void)before;
		cg_bytemap_free(m);
		if (t1 - t0 < best[0][0]) best[0][0] = t1 - t0;
		if (t2 - t1 < best[0][1]) best[0][1] = t2 - t1;
		if (t3 - t2 < best[0][2]) best[0][2] = t3 - t2;

		/* uthash: keys copied into an arena as the engines would
		 * (the caller's buffer is reused), one allocation per entry
		 * avoided by a pool */
		t0 = now();
		pool = cg_xcalloc(k.n, sizeof *pool);
		{
			unsigned char *arena = cg_xmalloc(k.bytes.len + 1);
			size_t used = 0;

			for (i = 0; i < k.n; i++) {
				size_t len = k.off[i + 1] - k.off[i];

				HASH_FIND(hh, head, k.bytes.data + k.off[i], len, e);
				if (e != NULL)
					continue;
				memcpy(arena + used, k.bytes.data + k.off[i], len);
				e = &pool[i];
				e->key = arena + used;
				e->len = len;
				e->value = i;
				used += len;
				HASH_ADD_KEYPTR(hh, head, e->key, len, e);
			}
			t1 = now();
			for (i = 0; i < k.n; i++) {
				HASH_FIND(hh, head, k.bytes.data + k.off[perm[i]],
				    k.off[perm[i] + 1] - k.off[perm[i]], e);
				sum += e ? e->value : 0;
			}
			t2 = now();
			for (i = 0; i < k.n; i++) {
				size_t len = k.off[perm[i] + 1] - k.off[perm[i]];

				memcpy(miss, k.bytes.data + k.off[perm[i]], len);
				miss[0] ^= 0x80;
				HASH_FIND(hh, head, miss, len, e);
				sum += e ? 1 : 0;
			}
			t3 = now();
			bytes[1] = k.n * sizeof *pool + used +
			    HASH_OVERHEAD(hh, head);
			HASH_ITER(hh, head, e, tmp)
				HASH_DELETE(hh, head, e);
			free(arena);
		}
		free(pool);
		if (t1 - t0 < best[1][0]) best[1][0] = t1 - t0;
		if (t2 - t1 < best[1][1]) best[1][1] = t2 - t1;
		if (t3 - t2 < best[1][2]) best[1][2] = t3 - t2;
	}
	printf("%zu keys of %s %s, %.1f bytes each; best of %zu rounds\n",
	    k.n, argv[1], argv[2], (double)k.bytes.len / (double)k.n, rounds);
	printf("%-10s %12s %12s %12s %12s\n", "table", "insert ns", "hit ns",
	    "miss ns", "bytes/key");
	for (t = 0; t < 2; t++)
		printf("%-10s %12.1f %12.1f %12.1f %12.1f\n",
		    t ? "uthash" : "bytemap", 1e9 * best[t][0] / k.n,
		    1e9 * best[t][1] / k.n, 1e9 * best[t][2] / k.n,
		    (double)bytes[t] / k.n);
	if (sum == 42)
		putchar('\n');   /* keep the lookups */
	free(perm);
	free(k.off);
	cg_buf_free(&k.bytes);
	cg_buf_free(&k.canon);
	cg_plugin_unload_all();
	return 0;
}
