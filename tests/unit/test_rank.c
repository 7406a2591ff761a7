/*
 * test_rank.c - the cg.rank extension (cg/rank.h) of Amazons and
 * Domineering through the host's wrappers: every member of small
 * families has a slot below slots(), no two members share one, and
 * unrank() gives each member back byte for byte; every slot of the
 * smallest families unranks to a board that ranks to it again; boards
 * no member can be are refused.  Plugins come from the build's
 * directory.
 */
#include <stdlib.h>
#include <string.h>

#include "cg/rank.h"
#include "cg/ruleset.h"
#include "host/plugin.h"
#include "tap.h"

struct members {
	struct cg_plugin *p;
	const char *family;
	uint64_t slots;
	uint64_t *slot;
	size_t n, cap;
	size_t bad_rank, out_of_range, bad_unrank;
	struct cg_buf canon, back;
};

static int
on_member(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct members *m = ctx;
	uint64_t r;

	(void)move;
	m->canon.len = 0;
	if (cg_rs_canonical(m->p, pos, len, &m->canon) < 0 ||
	    cg_rs_rank(m->p, m->family, m->canon.data, m->canon.len,
	    &r) != CG_OK) {
		m->bad_rank++;
		return 0;
	}
	if (r >= m->slots)
		m->out_of_range++;
	m->back.len = 0;
	if (cg_rs_unrank(m->p, m->family, r, &m->back) != CG_OK ||
	    m->back.len != m->canon.len ||
	    memcmp(m->back.data, m->canon.data, m->canon.len) != 0)
		m->bad_unrank++;
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 1024;
		m->slot = realloc(m->slot, m->cap * sizeof *m->slot);
		if (m->slot == NULL)
			abort();
	}
	m->slot[m->n++] = r;
	return 0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Every member of the family ranks, below slots, to a slot of its own
 * that unranks to it. */
static void
members(const char *spec, const char *family)
{
	struct members m;
	size_t i, dup = 0;
	int rc;

	memset(&m, 0, sizeof m);
	m.p = cg_plugin_get(spec, 1);
	m.family = family;
	cg_buf_init(&m.canon);
	cg_buf_init(&m.back);
	rc = cg_rs_slots(m.p, family, &m.slots);
	ok(rc == CG_OK && m.slots > 0, "%s %s: %llu slots", spec, family,
	    (unsigned long long)m.slots);
	rc = cg_rs_enumerate(m.p, family, on_member, &m);
	qsort(m.slot, m.n, sizeof *m.slot, cmp_u64);
	for (i = 1; i < m.n; i++)
		dup += m.slot[i] == m.slot[i - 1];
	ok(rc == CG_OK && m.n > 0 && m.bad_rank == 0 && m.out_of_range == 0,
	    "%s %s: each of the %zu members ranks below slots (%zu refused, "
	    "%zu too high)", spec, family, m.n, m.bad_rank, m.out_of_range);
	ok(m.n > 0 && dup == 0, "%s %s: no two members share a slot (%zu "
	    "do)", spec, family, dup);
	ok(m.n > 0 && m.bad_unrank == 0, "%s %s: unrank(rank(p)) is p (%zu "
	    "are not)", spec, family, m.bad_unrank);
	cg_buf_free(&m.canon);
	cg_buf_free(&m.back);
	free(m.slot);
}

/* Every slot unranks to a board that ranks to it. */
static void
every_slot(const char *spec, const char *family)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf pos;
	uint64_t n = 0, r, back;
	size_t bad = 0;

	cg_buf_init(&pos);
	if (cg_rs_slots(p, family, &n) != CG_OK)
		bad++;
	for (r = 0; r < n; r++) {
		pos.len = 0;
		if (cg_rs_unrank(p, family, r, &pos) != CG_OK ||
		    cg_rs_rank(p, family, pos.data, pos.len, &back) != CG_OK ||
		    back != r)
			bad++;
	}
	ok(n > 0 && bad == 0, "%s %s: rank(unrank(r)) is r for each of the "
	    "%llu slots (%zu are not)", spec, family, (unsigned long long)n,
	    bad);
	pos.len = 0;
	ok(cg_rs_unrank(p, family, n, &pos) == CG_EUNSUPPORTED,
	    "%s %s: no board has slot %llu", spec, family,
	    (unsigned long long)n);
	cg_buf_free(&pos);
}

/* rank() of a board given as text (-1: refused, -2: not parsed). */
static long long
rank_of(const char *spec, const char *family, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf pos;
	uint64_t r;
	long long v = -2;

	cg_buf_init(&pos);
	if (cg_rs_parse(p, text, strlen(text), &pos) == CG_OK)
		v = cg_rs_rank(p, family, pos.data, pos.len, &r) == CG_OK ?
		    (long long)r : -1;
	cg_buf_free(&pos);
	return v;
}

/* rank() of raw board bytes: 1 accepted, 0 refused. */
static int
ranks_bytes(const char *spec, const char *family, const char *bytes,
    size_t len)
{
	uint64_t r;

	return cg_rs_rank(cg_plugin_get(spec, 1), family,
	    (const unsigned char *)bytes, len, &r) == CG_OK;
}

int
main(void)
{
	struct cg_plugin *p;
	uint64_t n;
	long long a, b;
	int rc;

	members("amazons", "3x3");
	members("amazons", "4x3");
	members("domineering", "6");
	members("domineering", "8");
	every_slot("amazons", "3x3");
	every_slot("domineering", "6");

	/* Amazons: boxes 1x1, 1x2, 1x3, 2x2, 2x3, 3x3 of n cells own
	 * 2^(n-2) n (n + 3) slots each: 2 + 10 + 36 + 112 + 864 + 13824;
	 * 5x4 adds 1x4, 1x5, 2x4, 2x5, 3x4, 3x5, 4x4 and 4x5 */
	p = cg_plugin_get("amazons", 1);
	ok(cg_rs_slots(p, "3x3", &n) == CG_OK && n == 14848,
	    "amazons 3x3: 14848 slots");
	ok(cg_rs_slots(p, "5x4", &n) == CG_OK && n == 128017328,
	    "amazons 5x4: 128017328 slots");
	ok(cg_rs_slots(p, "4x5", &n) == CG_OK && n == 128017328,
	    "amazons 4x5: the same boxes");
	ok(cg_rs_slots(p, "7x7", &n) == CG_EPARSE, "amazons 7x7: refused");
	/* the first slots of box 3x3: mask 0 owns none, mask 1 (cell a3
	 * alone) owns 'o' there, then 'x' there */
	a = rank_of("amazons", "3x3", "o##|###|###");
	b = rank_of("amazons", "3x3", "x##|###|###");
	ok(a == 14848 - 13824 && b == a + 1, "amazons 3x3: the first "
	    "slots of box 3x3 (%lld, %lld)", a, b);
	/* the last: every cell unburnt, 'x' and 'o' on the last two */
	is_int(rank_of("amazons", "3x3", "...|...|.ox"), 14848 - 1,
	    "amazons 3x3: the last slot");
	is_int(rank_of("amazons", "3x3", "x.x|...|o.."), -1,
	    "amazons 3x3: two x's refused");
	is_int(rank_of("amazons", "3x3", "o.o|...|x.."), -1,
	    "amazons 3x3: two o's refused");
	is_int(rank_of("amazons", "3x3", "...|...|..."), -1,
	    "amazons 3x3: no amazon refused");
	is_int(rank_of("amazons", "3x3", "x..o"), -1,
	    "amazons 3x3: box 1x4 refused");
	is_int(rank_of("amazons", "3x3", "x|o"), -1,
	    "amazons 3x3: box 2x1 (more rows than columns) refused");
	ok(rank_of("amazons", "4x3", "x..o") >= 0,
	    "amazons 4x3: box 1x4 ranked");
	ok(!ranks_bytes("amazons", "3x3", "\1\2x?", 4),
	    "amazons 3x3: a byte outside .#xo refused");
	ok(!ranks_bytes("amazons", "3x3", "\1\2x", 3),
	    "amazons 3x3: a short board refused");
	/* a table of another family in between changes nothing: box 2x2
	 * follows 1x4 in 4x3, not in 3x3 */
	a = rank_of("amazons", "3x3", "x.|.o");
	b = rank_of("amazons", "4x3", "x.|.o");
	ok(a >= 0 && b > a && rank_of("amazons", "3x3", "x.|.o") == a,
	    "amazons: 2x2 board in 3x3 (%lld) and 4x3 (%lld)", a, b);

	/* Domineering: boxes R x C with R + C - 1 <= N */
	p = cg_plugin_get("domineering", 1);
	n = 0;
	rc = cg_rs_slots(p, "22", &n);
	ok(rc == CG_OK && n > ((uint64_t)1 << 60), "domineering 22: %llu "
	    "slots", (unsigned long long)n);
	ok(cg_rs_slots(p, "23", &n) == CG_EUNSUPPORTED,
	    "domineering 23: too many slots for an index");
	ok(cg_rs_slots(p, "25", &n) == CG_EPARSE,
	    "domineering 25: refused as enumerate() refuses it");
	/* boxes 1 x 2 .. 1 x 6 first, one slot each (every cell empty),
	 * then 2 x 1 */
	is_int(rank_of("domineering", "6", ".."), 0, "domineering 6: ..");
	is_int(rank_of("domineering", "6", "......"), 4,
	    "domineering 6: ......");
	is_int(rank_of("domineering", "6", ".|."), 5, "domineering 6: .|.");
	ok(rank_of("domineering", "6", "...|...") >= 0,
	    "domineering 6: 2x3 full board ranked");
	is_int(rank_of("domineering", "5", "...|..."), -1,
	    "domineering 5: six cells refused");
	is_int(rank_of("domineering", "6", "......."), -1,
	    "domineering 6: box 1x7 (R + C - 1 > 6) refused");
	is_int(rank_of("domineering", "8", ".#.|.#."), -1,
	    "domineering 8: a column without a cell refused");
	is_int(rank_of("domineering", "8", "..#|##.|..."), -1,
	    "domineering 8: rows without a common cell refused");
	ok(!ranks_bytes("domineering", "6", "\1\2.x", 4),
	    "domineering 6: a byte outside .# refused");
	ok(!ranks_bytes("domineering", "6", "\1\1.", 3),
	    "domineering 6: box 1x1 refused");

	/* no extension: the wrappers say so */
	p = cg_plugin_get("nim", 1);
	ok(cg_rs_slots(p, "3", &n) == CG_EUNSUPPORTED,
	    "nim: no cg.rank extension");
	cg_plugin_unload_all();
	return tap_done();
}
