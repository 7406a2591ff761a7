/*
 * test_heapnim.c - nim values of heaps and sums from the rulesets'
 * cg.heap-rules (heapnim.h): declared sequences (Nim), periods proven on
 * computed values (Kayles, subtraction), the limit for games without a
 * known period (Grundy's game).  Plugins come from the build's plugin
 * directory.  Expected values: Bouton (Nim, G(n) = n); OEIS A002186 and
 * Winning Ways p. 91 (Kayles: from n = 71 on, G(n) depends only on
 * n mod 12: 4 1 2 8 1 4 7 2 1 8 2 7 for n mod 12 = 0..11); Winning Ways
 * ch. 3 (subtraction set {1, 2, 3}: G(n) = n mod 4).
 */
#include <stdio.h>
#include <string.h>

#include "solve/heapnim.h"
#include "host/plugin.h"
#include "tap.h"

static struct cg_heapnim *
for_spec(const char *spec, size_t limit)
{
	const char *why;
	struct cg_heapnim *h = cg_heapnim_for(cg_plugin_get(spec, 1), limit,
	    &why);

	if (h == NULL)
		printf("# %s: no heap rules (%s)\n", spec, why ? why : "none");
	return h;
}

static uint64_t
heap(struct cg_heapnim *h, uint64_t n)
{
	uint64_t v = (uint64_t)-1;
	char msg[256];

	if (cg_heapnim_heap(h, n, &v, msg, sizeof msg) < 0)
		printf("# heap %llu: %s\n", (unsigned long long)n, msg);
	return v;
}

static uint64_t
position(struct cg_heapnim *h, const char *spec, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf pos;
	uint64_t v = (uint64_t)-1;
	char msg[256];

	cg_buf_init(&pos);
	if (cg_rs_parse(p, text, strlen(text), &pos) < 0 ||
	    cg_heapnim_position(h, p, pos.data, pos.len, &v, msg,
	    sizeof msg) < 0)
		printf("# %s %s: %s\n", spec, text, msg);
	cg_buf_free(&pos);
	return v;
}

int
main(void)
{
	static const uint64_t kayles[12] = { 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7 };
	struct cg_heapnim *h;
	size_t per, pre;
	long saltus;
	uint64_t v;
	char msg[256];

	/* Nim declares G(n) = n: answered at once, any size */
	h = for_spec("nim", 0);
	ok(h != NULL, "nim exports heap rules");
	is_int(heap(h, 0), 0, "nim: G(0)");
	is_int(heap(h, 7), 7, "nim: G(7)");
	is_int(heap(h, 2147483647), 2147483647, "nim: G(2^31 - 1)");
	ok(heap(h, (uint64_t)1 << 40) == (uint64_t)1 << 40, "nim: G(2^40)");
	ok(cg_heapnim_period(h, &per, &pre, &saltus) && per == 1 &&
	    pre == 0 && saltus == 1, "nim: period 1, saltus 1, declared");
	/* 100000 = 0x186A0, 99999 = 0x1869F: XOR 0xA0 ^ 0x9F = 0x3F */
	is_int(position(h, "nim", "100000+99999"), 63, "nim: 100000+99999");
	is_int(position(h, "nim", "0"), 0, "nim: the empty position");
	cg_heapnim_free(h);

	/* 0.[3] is Nim's code: the same declared sequence */
	h = for_spec("octal:0.[3]", 0);
	ok(h != NULL && heap(h, 1000000000) == 1000000000,
	    "octal 0.[3]: G(10^9) = 10^9, declared");
	cg_heapnim_free(h);

	/* Kayles: the period is proven on the computed values */
	h = for_spec("octal:0.77", 0);
	ok(h != NULL, "kayles exports heap rules");
	is_int(heap(h, 70), 6, "kayles: G(70) = 6, the last exception");
	is_int(heap(h, 50000000), kayles[50000000 % 12], "kayles: G(50000000)");
	is_int(heap(h, 50000001), kayles[50000001 % 12], "kayles: G(50000001)");
	ok(heap(h, 1000000000000000ull) == kayles[1000000000000000ull % 12],
	    "kayles: G(10^15)");
	ok(cg_heapnim_period(h, &per, &pre, &saltus) && per == 12 &&
	    pre == 71 && saltus == 0, "kayles: period 12 from 71, proven");
	is_int(position(h, "octal:0.77", "50000000+50000001+70"),
	    kayles[8] ^ kayles[9] ^ 6, "kayles: a sum is the XOR");
	cg_heapnim_free(h);

	/* subtraction {1,2,3}: n mod 4 (bounded takes, no splits) */
	h = for_spec("subtraction:1,2,3", 0);
	is_int(heap(h, 1000000000003ull), 3, "subtraction 1,2,3: G(10^12 + 3)");
	is_int(heap(h, 1000000000000ull), 0, "subtraction 1,2,3: G(10^12)");
	cg_heapnim_free(h);
	ok(for_spec("subtraction:1/2", 0) == NULL, "partizan: no heap rules");

	/* Grundy's game (4!.0): no period is known; within the limit the
	 * value is computed, past it a clear error.  OEIS A002188:
	 * 0 0 0 1 0 2 1 0 2 1 0 2 1 3 ...; by hand G(5) = mex{G1^G4, G2^G3}
	 * = mex{0, 1} = 2. */
	h = for_spec("octal:4!.0", 2000);
	is_int(heap(h, 5), 2, "grundy: G(5) = 2 (A002188)");
	is_int(heap(h, 13), 3, "grundy: G(13) = 3 (A002188)");
	ok(cg_heapnim_heap(h, 5000, &v, msg, sizeof msg) < 0 &&
	    strcmp(msg, "nim value of heap 5000 unknown: no period proven in "
	    "heaps 0 to 2000 (the limit of heaps computed one by one)") == 0,
	    "grundy: past the limit, an error");
	ok(heap(h, 1999) != (uint64_t)-1, "grundy: below the limit, a value");
	cg_heapnim_free(h);

	cg_plugin_unload_all();
	return tap_done();
}
