/*
 * test_grid.c - the hooks of the grid rulesets (domineering, cram,
 * clobber, amazons) that no tool prints directly: canonical(),
 * decompose(), synch_options(), decided_value(), enumerate(),
 * move_parse(), order_key().  Plugins are found in the build's own plugin
 * directory.  Every expected value is derived by hand in the comment next
 * to it.
 */
#include <stdlib.h>
#include <string.h>

#include "cg/ruleset.h"
#include "plugin.h"
#include "tap.h"

static struct cg_buf outb;

static void
reset(void)
{
	cg_buf_free(&outb);
	cg_buf_init(&outb);
}

/* Parse text, apply canonical(), print the result. */
static const char *
canon(const char *spec, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf pos, can, again;

	cg_buf_init(&pos);
	cg_buf_init(&can);
	cg_buf_init(&again);
	reset();
	if (cg_rs_parse(p, text, strlen(text), &pos) < 0 ||
	    cg_rs_canonical(p, pos.data, pos.len, &can) < 0 ||
	    cg_rs_print(p, can.data, can.len, &outb) < 0)
		cg_buf_addstr(&outb, "ERROR");
	/* canonical() must be idempotent */
	else if (cg_rs_canonical(p, can.data, can.len, &again) < 0 ||
	    again.len != can.len || memcmp(again.data, can.data, can.len))
		cg_buf_addstr(&outb, " NOT IDEMPOTENT");
	cg_buf_free(&pos);
	cg_buf_free(&can);
	cg_buf_free(&again);
	return cg_buf_str(&outb);
}

struct dec {
	struct cg_plugin *p;
	struct cg_buf *out;
	const char *sep;
	size_t count;
};

static int
dec_emit(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct dec *d = ctx;

	(void)move;
	d->count++;
	if (d->sep == NULL)
		return 0;
	if (d->out->len)
		cg_buf_addstr(d->out, d->sep);
	if (cg_rs_print(d->p, pos, len, d->out) < 0)
		cg_buf_addstr(d->out, "ERROR");
	return 0;
}

/* Parse text, decompose, print the components joined by " + ". */
static const char *
decomp(const char *spec, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf pos;
	struct dec d = { p, &outb, " + ", 0 };

	cg_buf_init(&pos);
	reset();
	if (cg_rs_parse(p, text, strlen(text), &pos) < 0 ||
	    cg_rs_decompose(p, pos.data, pos.len, dec_emit, &d) < 0)
		cg_buf_addstr(&outb, "ERROR");
	cg_buf_free(&pos);
	return cg_buf_str(&outb);
}

/* Enumerate a family: the positions joined by sep, or their count. */
static const char *
family(const char *spec, const char *fam, const char *sep)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct dec d = { p, &outb, sep, 0 };

	reset();
	if (cg_rs_enumerate(p, fam, dec_emit, &d) < 0)
		cg_buf_addstr(&outb, "ERROR");
	else if (sep == NULL)
		cg_buf_addf(&outb, "%zu", d.count);
	return cg_buf_str(&outb);
}

static int
joint_emit(void *ctx, size_t i, size_t j, const unsigned char *pos,
    size_t len)
{
	struct dec *d = ctx;

	if (d->out->len)
		cg_buf_addstr(d->out, "; ");
	cg_buf_addf(d->out, "%zu,%zu:", i, j);
	if (cg_rs_print(d->p, pos, len, d->out) < 0)
		cg_buf_addstr(d->out, "ERROR");
	return 0;
}

/* Joint options as "i,j:child; ..." */
static const char *
joint(const char *spec, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf pos;
	struct dec d = { p, &outb, NULL, 0 };

	cg_buf_init(&pos);
	reset();
	if (cg_rs_parse(p, text, strlen(text), &pos) < 0 ||
	    cg_rs_synch_options(p, pos.data, pos.len, joint_emit, &d) < 0)
		cg_buf_addstr(&outb, "ERROR");
	cg_buf_free(&pos);
	return cg_buf_str(&outb);
}

/* decided_value as "num/den", or "ERROR". */
static const char *
decided(const char *spec, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf pos;
	int64_t num, den;

	cg_buf_init(&pos);
	reset();
	if (cg_rs_parse(p, text, strlen(text), &pos) < 0 ||
	    cg_rs_decided_value(p, pos.data, pos.len, &num, &den) < 0)
		cg_buf_addstr(&outb, "ERROR");
	else
		cg_buf_addf(&outb, "%lld/%lld", (long long)num,
		    (long long)den);
	cg_buf_free(&pos);
	return cg_buf_str(&outb);
}

static void
test_domineering(void)
{
	const char *d = "domineering", *s;

	/* Only the mirrors and the half turn: of ".#|..", "#.|..",
	 * "..|.#", "..|#." (the four images) the smallest as bytes, '#'
	 * (35) sorting before '.' (46), is "#.|..". */
	is_str(canon(d, ".#|.."), "#.|..", "domineering L tromino");
	/* no transposition: a row and a column stay different */
	is_str(canon(d, "..."), "...", "domineering row kept");
	is_str(canon(d, ".|.|."), ".|.|.", "domineering column kept");
	/* cropping: the filled column goes */
	is_str(canon(d, "#..|#.."), "..|..", "domineering crop");
	/* single cells are dropped: only the bottom pair is left */
	is_str(canon(d, ".#.|###|..#"), "..", "domineering drops singles");
	/* two regions: ".|." (2 rows, 1 col) sorts before "..|.." (2x2);
	 * laid out with a filled column between them */
	is_str(canon(d, "..#.|..#."), ".#..|.#..", "domineering two regions");
	is_str(canon(d, "..|..|##|..|.."), "..#..|..#..",
	    "domineering equal regions side by side");
	/* nothing left to play */
	is_str(canon(d, "#|#"), "#", "domineering no region");
	is_str(canon(d, ".#|#."), "#", "domineering two single cells");

	/* components in reading order of their first cell */
	is_str(decomp(d, "..#.|..#."), "..|.. + .|.", "domineering split");
	is_str(decomp(d, ".#.|###|..#"), "..", "domineering split singles");
	is_str(decomp(d, "#"), "", "domineering split nothing");
	/* the region's bounding box is the whole board */
	is_str(decomp(d, "#.|..|#."), "#.|..|#.", "domineering one region");

	/* "..|..": Left's dominoes are column a then column b, Right's the
	 * top row then the bottom row.  Joint (i,j) fills both:
	 * (0,0) col a + top: (0,0),(1,0),(0,1) -> "##|#."
	 * (0,1) col a + bottom: (0,0),(1,0),(1,1) -> "#.|##"
	 * (1,0) col b + top: (0,1),(1,1),(0,0) -> "##|.#"
	 * (1,1) col b + bottom: (0,1),(1,1),(1,0) -> ".#|##" */
	is_str(joint(d, "..|.."), "0,0:##|#.; 0,1:#.|##; 1,0:##|.#; 1,1:.#|##",
	    "domineering joint options 2x2");
	/* Right cannot move in ".|.": no joint options */
	is_str(joint(d, ".|."), "", "domineering no joint options");
	/* "...|..." Left: columns a, b, c; Right: top-left (0), top-right
	 * (1), bottom-left (3), bottom-right (4); (1,2): col b + bottom-left
	 * fills (0,1),(1,1),(1,0): ".#.|##." */
	s = strstr(joint(d, "...|..."), "1,2:");
	is_str(s ? s : "", "1,2:.#.|##.; 1,3:.#.|.##; "
	    "2,0:###|..#; 2,1:.##|..#; 2,2:..#|###; 2,3:..#|.##",
	    "domineering joint options 2x3");

	/* decided values: floor(run/2) summed over runs */
	is_str(decided(d, ".."), "-1/1", "domineering decided row of 2");
	is_str(decided(d, ".|.|.|."), "2/1", "domineering decided column of 4");
	is_str(decided(d, ".|.|."), "1/1", "domineering decided column of 3");
	/* columns a and c have runs of 3 (1 each); no horizontal pair */
	is_str(decided(d, ".#.|.#.|.#."), "2/1", "domineering decided two runs");
	/* column b is a run of 3: Left can move, and so can Right */
	is_str(decided(d, ".....|#.#..|....."), "ERROR",
	    "domineering not decided");
	/* rows of 5, and 1 + 3: Right alone places 2 + 1 */
	is_str(decided(d, ".....|#####|.#..."), "-3/1",
	    "domineering decided rows");
	is_str(decided(d, "#"), "0/1", "domineering decided nothing");

	/* Polyominoes up to the 4 orientation-preserving symmetries:
	 * size 2: 2 (the two dominoes); size 3: I row, I column, one class
	 * of the 4 L orientations = 3; size 4: I (2), O (1), T (2: up/down,
	 * left/right), S/Z (2: horizontal, vertical), L/J (8 free of
	 * symmetry, orbits of 4: 2) = 9. */
	is_str(family(d, "2", NULL), "2", "domineering family 2");
	is_str(family(d, "3", NULL), "5", "domineering family 3");
	is_str(family(d, "4", NULL), "14", "domineering family 4");
	is_str(family(d, "3", " "), ".. .|. ... #.|.. .|.|.",
	    "domineering family 3 members");
	is_str(family(d, "0", NULL), "ERROR", "domineering bad family");
	is_str(family(d, "4x3", NULL), "ERROR", "domineering bad family text");
}

int
main(void)
{
	cg_buf_init(&outb);
	test_domineering();
	cg_buf_free(&outb);
	cg_plugin_unload_all();
	return tap_done();
}
