/* test_heapseq.c - nim sequences and periodicity of heap games.
 *
 * Expected values: Kayles (0.77) heaps 0..104 and its period 12 /
 * preperiod 71 from tests/vectors/impartial.tsv (CGSuite, OEIS A002186);
 * Grundy's game (4!.0) values from the same file; 0.07 (Dawson's Kayles)
 * from the outcome.tsv Cram 1xn rows (OEIS A002187).  Larger checks
 * compare the fast engine (bitsets, rare values, period shortcut) with a
 * plain mex written here from the definition. */
#include <stdlib.h>
#include <string.h>

#include "solve/heapseq.h"
#include "tap.h"

static const char kayles105[] =
    "0,1,2,3,1,4,3,2,1,4,2,6,4,1,2,7,1,4,3,2,1,4,6,7,4,1,2,8,5,4,7,2,1,8,"
    "6,7,4,1,2,3,1,4,7,2,1,8,2,7,4,1,2,8,1,4,7,2,1,4,2,7,4,1,2,8,1,4,7,2,"
    "1,8,6,7,4,1,2,8,1,4,7,2,1,8,2,7,4,1,2,8,1,4,7,2,1,8,2,7,4,1,2,8,1,4,"
    "7,2,1";

static char *
join(const uint32_t *v, size_t n)
{
	char *s = malloc(n * 12 + 1), *p = s;
	size_t i;

	*p = 0;
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s%u", i ? "," : "", v[i]);
	return s;
}

/* Plain mex from the definition (at most two heaps left, any flags). */
static uint32_t *
naive(const uint32_t *mask, const uint32_t *flags, uint32_t max_take,
    size_t n)
{
	uint32_t *g = calloc(n + 1, sizeof *g);
	unsigned char *seen = malloc(n + 2);
	size_t h, k, a, m;

	for (h = 1; h <= n; h++) {
		memset(seen, 0, n + 2);
		for (k = 0; k <= max_take && k <= h; k++) {
			m = h - k;
			if (m == 0) {
				if (k && (mask[k] & 1))
					seen[0] = 1;
				continue;
			}
			if (k && (mask[k] & 2) && g[m] <= n)
				seen[g[m]] = 1;
			if (mask[k] & 4)
				for (a = 1; 2 * a <= m; a++) {
					if ((flags[k] & CG_HEAP_UNEQUAL) && 2 * a == m)
						continue;
					if ((flags[k] & CG_HEAP_EQUAL) && 2 * a != m)
						continue;
					if ((g[a] ^ g[m - a]) <= n)
						seen[g[a] ^ g[m - a]] = 1;
				}
		}
		for (g[h] = 0; seen[g[h]]; g[h]++)
			;
	}
	free(seen);
	return g;
}

static void
compare(const char *name, const uint32_t *mask, uint32_t max_take,
    size_t n, int shortcut)
{
	uint32_t flags[16] = { 0 };
	struct cg_heap_rules r = {
	    .struct_size = sizeof r, .max_take = max_take,
	    .mask = mask, .flags = flags };
	const char *why;
	struct cg_heapseq *s = cg_heapseq_new(&r, &why);
	const uint32_t *v;
	uint32_t *g = naive(mask, flags, max_take, n);
	size_t len, i, bad = 0;

	cg_heapseq_compute(s, n, shortcut);
	v = cg_heapseq_values(s, &len);
	for (i = 0; i <= n && i < len; i++)
		if (v[i] != g[i]) {
			if (!bad)
				printf("# %s: first difference at %zu: %u, want %u\n",
				    name, i, v[i], g[i]);
			bad++;
		}
	ok(len > n && bad == 0, "%s to %zu agrees with a plain mex%s", name, n,
	    shortcut ? " (period shortcut)" : "");
	free(g);
	cg_heapseq_free(s);
}

int
main(void)
{
	static const uint32_t kmask[3] = { 0, 7, 7 }, kflags[3] = { 0 };
	static const uint32_t dmask[3] = { 0, 0, 7 };
	static const uint32_t m16[3] = { 0, 1, 6 };
	static const uint32_t m55[3] = { 0, 5, 5 };
	static const uint32_t m4[2] = { 4 }, f4[2] = { CG_HEAP_UNEQUAL };
	static const uint32_t nimm[1] = { 0 }, nimf[1] = { 0 };
	static const uint32_t sub[8] = { 0, 0, 3, 3, 0, 0, 0, 3 };
	static const uint32_t subf[8] = { 0 };
	struct cg_heap_rules kayles = {
	    .struct_size = sizeof kayles, .max_take = 2,
	    .mask = kmask, .flags = kflags };
	struct cg_heap_rules dawson = {
	    .struct_size = sizeof dawson, .max_take = 2,
	    .mask = dmask, .flags = kflags };
	struct cg_heap_rules grundy = {
	    .struct_size = sizeof grundy, .max_take = 0,
	    .mask = m4, .flags = f4 };
	struct cg_heap_rules nim = {
	    .struct_size = sizeof nim, .max_take = 0,
	    .mask = nimm, .flags = nimf, .tail_mask = 3 };
	struct cg_heap_rules s237 = {
	    .struct_size = sizeof s237, .max_take = 7,
	    .mask = sub, .flags = subf };
	struct cg_heapseq *s;
	struct cg_period per;
	const uint32_t *v;
	const char *why;
	size_t len;
	char *str;

	s = cg_heapseq_new(&kayles, &why);
	ok(s != NULL, "kayles rules accepted");
	cg_heapseq_compute(s, 104, 0);
	v = cg_heapseq_values(s, &len);
	str = join(v, 105);
	is_str(str, kayles105, "kayles heaps 0..104");
	free(str);
	cg_heapseq_compute(s, 400, 0);
	v = cg_heapseq_values(s, &len);
	ok(cg_heapseq_find_period(v, len, 2, 1, &per), "kayles periodic");
	is_int(per.period, 12, "kayles period");
	is_int(per.preperiod, 71, "kayles preperiod");
	is_int(per.saltus, 0, "kayles saltus");
	/* Guy-Smith asks G(n + 12) = G(n) for 71 <= n < 2e + p + t = 156,
	 * which reads heaps up to 155 + 12 = 167: 168 values (heaps 0..167)
	 * prove it, 167 do not */
	ok(!cg_heapseq_find_period(v, 167, 2, 1, &per) ||
	    per.period != 12, "kayles: 167 values are not a proof");
	ok(cg_heapseq_find_period(v, 168, 2, 1, &per) && per.period == 12 &&
	    per.preperiod == 71, "kayles: 168 values are");
	/* 0.6 begins 0, 0, 1: two values may not prove a period of 1 (the
	 * test would ask G(2) = G(1), which they do not hold) */
	{
		static const uint32_t zero2[] = { 0, 0 };

		ok(!cg_heapseq_find_period(zero2, 2, 1, 1, &per),
		    "0.6: heaps 0 and 1 prove no period");
	}
	cg_heapseq_free(s);

	s = cg_heapseq_new(&kayles, &why);
	cg_heapseq_compute(s, 1000000, 1);
	v = cg_heapseq_values(s, &len);
	ok(cg_heapseq_shortcut_used(s) && len == 1000001, "kayles to 10^6 by its period");
	is_int(v[1000000], v[1000000 - 12 * 1000], "kayles 10^6 follows the period");
	cg_heapseq_free(s);

	/* Dawson's Kayles = 1xn Cram (outcome.tsv): n=4 -> 2, 6 -> 3, 16 -> 5
	 * counted in cells; 0.07 heap n is Cram 1x(n)  */
	s = cg_heapseq_new(&dawson, &why);
	cg_heapseq_compute(s, 40, 0);
	v = cg_heapseq_values(s, &len);
	is_int(v[4], 2, "0.07 heap 4");
	is_int(v[6], 3, "0.07 heap 6");
	is_int(v[16], 5, "0.07 heap 16");
	is_int(v[36], 1, "0.07 heap 36");
	cg_heapseq_free(s);

	s = cg_heapseq_new(&grundy, &why);
	cg_heapseq_compute(s, 20, 0);
	v = cg_heapseq_values(s, &len);
	str = join(v, 21);
	is_str(str, "0,0,0,1,0,2,1,0,2,1,0,2,1,3,2,1,3,2,4,3,0",
	    "grundy's game heaps 0..20");
	free(str);
	cg_heapseq_free(s);

	/* nim as 0.[3]: G(n) = n, arithmetic period 1 saltus 1 */
	s = cg_heapseq_new(&nim, &why);
	cg_heapseq_compute(s, 50, 1);
	v = cg_heapseq_values(s, &len);
	is_int(v[50], 50, "nim heap 50");
	ok(cg_heapseq_find_period(v, len, cg_heapseq_max_take(s),
	    cg_heapseq_splits(s), &per) && per.period == 1 &&
	    per.saltus == 1 && per.preperiod == 0, "nim: period 1, saltus 1");
	cg_heapseq_free(s);

	/* subtraction {2,3,7}, by hand: G(0)=G(1)=0; G(2)=mex{G0}=1;
	 * G(3)=mex{G1,G0}=1; G(4)=mex{G2,G1}=2; G(5)=mex{G3,G2}=mex{1}=0;
	 * G(6)=mex{G4,G3}=0; G(7)=mex{G5,G4,G0}=1; G(8)=mex{G6,G5,G1}=1;
	 * G(9)=mex{G7,G6,G2}=2 (agrees with the impartial.tsv row) */
	s = cg_heapseq_new(&s237, &why);
	cg_heapseq_compute(s, 9, 0);
	v = cg_heapseq_values(s, &len);
	str = join(v, 10);
	is_str(str, "0,0,1,1,2,0,0,1,1,2", "subtraction {2,3,7} heaps 0..9");
	free(str);
	cg_heapseq_free(s);

	compare("0.77", kmask, 2, 3000, 0);
	compare("0.07", dmask, 2, 3000, 0);
	compare("0.16", m16, 2, 20000, 0);
	compare("0.55", m55, 2, 6000, 0);
	compare("0.77", kmask, 2, 3000, 1);
	{
		static const uint32_t m0[1] = { 0 };
		struct cg_heap_rules loopy = {
		    .struct_size = sizeof loopy, .max_take = 0,
		    .mask = m0, .flags = NULL };
		static const uint32_t m2[1] = { 2 };
		loopy.mask = m2;
		ok(cg_heapseq_new(&loopy, &why) == NULL, "loopy rules refused");
		(void)m0;
	}
	return tap_done();
}
