/*
 * test_measure.c - the measure hook of every ruleset that enumerates
 * families (what cg-kb-build --measure builds waves by).  Its promise
 * (include/cg/ruleset.h): for every option of a position and every
 * component of that option, measure(component) < measure(position), the
 * component taken as the graph keys it (canonical bytes).  Checked on
 * every position of small families, both players' options; and a few
 * measures worked out by hand.  Plugins come from the build's directory.
 */
#include <stdlib.h>
#include <string.h>

#include "cg/ruleset.h"
#include "host/plugin.h"
#include "tap.h"

struct check {
	struct cg_plugin *p;
	uint64_t parent;
	size_t positions, options, components, bad;
	struct cg_buf canon;
	struct cg_buf first_bad;   /* printed, for the diagnostic */
};

static uint64_t
measure_of(struct cg_plugin *p, const unsigned char *pos, size_t len)
{
	uint64_t m = 0;

	if (cg_rs_measure(p, pos, len, &m) < 0)
		return UINT64_MAX;
	return m;
}

static int
on_component(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	struct check *c = ctx;
	struct cg_buf key;
	uint64_t m;

	(void)move;
	c->components++;
	cg_buf_init(&key);
	if (cg_rs_canonical(c->p, pos, len, &key) < 0)
		m = UINT64_MAX;
	else
		m = measure_of(c->p, key.data, key.len);
	if (m >= c->parent && c->bad++ == 0)
		cg_rs_print(c->p, key.data, key.len, &c->first_bad);
	cg_buf_free(&key);
	return 0;
}

static int
on_option(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct check *c = ctx;

	(void)move;
	c->options++;
	if (!CG_HAS_HOOK(c->p, decompose))
		return on_component(ctx, pos, len, NULL);
	if (cg_rs_decompose(c->p, pos, len, on_component, c) < 0)
		c->bad++;
	return 0;
}

static int
on_position(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	struct check *c = ctx;

	(void)move;
	c->positions++;
	c->canon.len = 0;
	if (cg_rs_canonical(c->p, pos, len, &c->canon) < 0) {
		c->bad++;
		return 0;
	}
	c->parent = measure_of(c->p, c->canon.data, c->canon.len);
	if (c->parent == UINT64_MAX) {
		c->bad++;
		return 0;
	}
	/* the options of the canonical bytes: what a build expands */
	if (cg_rs_options(c->p, c->canon.data, c->canon.len, CG_LEFT,
	    on_option, c) < 0 ||
	    cg_rs_options(c->p, c->canon.data, c->canon.len, CG_RIGHT,
	    on_option, c) < 0)
		c->bad++;
	return 0;
}

/* Every option's every component of the family measures less than its
 * position. */
static void
family(const char *spec, const char *fam)
{
	struct check c;
	int rc;

	memset(&c, 0, sizeof c);
	c.p = cg_plugin_get(spec, 1);
	cg_buf_init(&c.canon);
	cg_buf_init(&c.first_bad);
	rc = cg_rs_enumerate(c.p, fam, on_position, &c);
	ok(rc == CG_OK && c.bad == 0 && c.components > 0,
	    "%s family %s: %zu positions, %zu options, %zu components, "
	    "%zu measuring no less than their position%s%s", spec, fam,
	    c.positions, c.options, c.components, c.bad,
	    c.bad ? ", first: " : "", cg_buf_str(&c.first_bad));
	cg_buf_free(&c.canon);
	cg_buf_free(&c.first_bad);
}

/* The measure of a position given as text, or -1. */
static long long
measure(const char *spec, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf pos;
	long long m = -1;
	uint64_t v;

	cg_buf_init(&pos);
	if (cg_rs_parse(p, text, strlen(text), &pos) == CG_OK &&
	    cg_rs_measure(p, pos.data, pos.len, &v) == CG_OK)
		m = (long long)v;
	cg_buf_free(&pos);
	return m;
}

int
main(void)
{
	/* by hand */
	is_int(measure("amazons", "x..|.#o"), 3, "amazons: empty squares");
	is_int(measure("clobber", "xo|.x"), 3, "clobber: stones");
	is_int(measure("chomp", "3x4"), 12, "chomp: squares");
	is_int(measure("chomp", "4,2,1"), 7, "chomp: squares of a diagram");
	/* 2x3: 5 cuts to unit squares; 1x1: none */
	is_int(measure("cutcake", "2x3+1x1"), 5, "cutcake: cuts left");
	/* (2*3 - 1) + (2*4 - 1) */
	is_int(measure("octal:0.77", "3+4"), 12, "octal: 2n - 1 per heap");
	is_int(measure("subtraction:1,2", "5"), 9, "subtraction: 2n - 1");
	/* nothing frozen in "t.f": the toad has 2 squares ahead, the frog
	 * 2 behind it */
	is_int(measure("toads", "t.f"), 4, "toads: t.f");
	/* "ttff" is frozen whole: nothing counts */
	is_int(measure("toads", "ttff"), 0, "toads: frozen wall");
	/* "tt.ff": nothing frozen (the toad on 2 can slide); toads on 1 and
	 * 2 have 4 and 3 squares ahead, frogs on 4 and 5 have 3 and 4 */
	is_int(measure("toads", "tt.ff"), 14, "toads: tt.ff");
	/* "ttfft.": ttff frozen; the toad on 5 has square 6 ahead */
	is_int(measure("toads", "ttfft."), 1, "toads: frozen run skipped");

	/* the promise, on every position of small families */
	family("amazons", "3x3");
	family("amazons", "4x2");
	family("domineering", "8");
	family("cram", "8");
	family("clobber", "7");
	family("toads", "9");
	family("chomp", "4x4");
	family("cutcake", "5x5");
	family("octal:0.77", "20");
	family("octal:4!.0", "20");
	family("octal:0.[3]", "12");
	family("subtraction:1,2,3", "20");
	family("subtraction:1,3,5/2,4", "20");
	cg_plugin_unload_all();
	return tap_done();
}
