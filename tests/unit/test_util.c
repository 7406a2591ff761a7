/*
 * test_util.c - libcore's allocation helpers (base/util.h): an array
 * grown to hold an index keeps its elements and zeroes the new ones.
 */
#include <stdint.h>
#include <stdlib.h>

#include "base/util.h"
#include "tap.h"

int
main(void)
{
	uint32_t *a = NULL, *before;
	size_t cap = 0, i, zero = 1;

	a = cg_xgrow_zero(a, &cap, 0, sizeof *a);
	is_int(cap, 1, "index 0 of an empty array: one element");
	is_int(a[0], 0, "and it is zero");
	a[0] = 7;
	a = cg_xgrow_zero(a, &cap, 1, sizeof *a);
	is_int(cap, 2, "one past the end: the array doubles");
	a[1] = 8;
	a = cg_xgrow_zero(a, &cap, 100, sizeof *a);
	is_int(cap, 101, "far past the end: just enough to hold the index");
	is_int(a[0], 7, "old elements kept");
	is_int(a[1], 8, "all of them");
	for (i = 2; i < cap; i++)
		zero &= a[i] == 0;
	ok(zero, "new elements are zero");
	before = a;
	a = cg_xgrow_zero(a, &cap, 50, sizeof *a);
	ok(a == before && cap == 101, "an index inside: nothing changes");
	free(a);
	return tap_done();
}
