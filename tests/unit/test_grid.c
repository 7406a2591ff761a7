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

#include "cgx/bitsearch.h"
#include "cg/conjugate.h"
#include "cgx/movecounts.h"
#include "cg/ruleset.h"
#include "host/plugin.h"
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

/* Parse text, apply the cg.conjugate extension, print the result. */
static const char *
conjugated(const char *spec, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	const struct cg_conjugate *x = cg_rs_extension(p, CG_EXT_CONJUGATE);
	struct cg_buf pos, out;

	cg_buf_init(&pos);
	cg_buf_init(&out);
	reset();
	if (x == NULL || cg_rs_parse(p, text, strlen(text), &pos) < 0 ||
	    x->conjugate(cg_rs_context(p), pos.data, pos.len, &out) != CG_OK ||
	    cg_rs_print(p, out.data, out.len, &outb) < 0)
		cg_buf_addstr(&outb, "ERROR");
	cg_buf_free(&pos);
	cg_buf_free(&out);
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

/* order_key as a number, or -1 for an error. */
static long long
okey(const char *spec, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf pos;
	int64_t key = -1;

	cg_buf_init(&pos);
	if (cg_rs_parse(p, text, strlen(text), &pos) < 0 ||
	    cg_rs_order_key(p, pos.data, pos.len, &key) < 0)
		key = -1;
	cg_buf_free(&pos);
	return (long long)key;
}

/* move_parse: the child printed, or "ERROR: message". */
static const char *
mparse(const char *spec, const char *text, enum cg_side side,
    const char *move)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf pos, child;

	cg_buf_init(&pos);
	cg_buf_init(&child);
	reset();
	if (cg_rs_parse(p, text, strlen(text), &pos) < 0)
		cg_buf_addstr(&outb, "BAD POSITION");
	else if (cg_rs_move_parse(p, pos.data, pos.len, side, move,
	    &child) < 0)
		cg_buf_addf(&outb, "ERROR: %s", cg_rs_errmsg(p));
	else if (cg_rs_print(p, child.data, child.len, &outb) < 0)
		cg_buf_addstr(&outb, "ERROR");
	cg_buf_free(&pos);
	cg_buf_free(&child);
	return cg_buf_str(&outb);
}

struct rt {
	struct cg_plugin *p;
	const unsigned char *pos;
	size_t len;
	enum cg_side side;
	size_t count, bad;
};

static int
rt_emit(void *ctx, const unsigned char *child, size_t len, const char *move)
{
	struct rt *t = ctx;
	struct cg_buf back;

	cg_buf_init(&back);
	t->count++;
	if (move == NULL || cg_rs_move_parse(t->p, t->pos, t->len, t->side,
	    move, &back) < 0 || back.len != len ||
	    memcmp(back.data, child, len) != 0)
		t->bad++;
	cg_buf_free(&back);
	return 0;
}

/* Every option's move name, read back by move_parse, gives the option:
 * returns "COUNT ok" or "BAD of COUNT". */
static const char *
names_round_trip(const char *spec, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf pos;
	struct rt t = { p, NULL, 0, CG_LEFT, 0, 0 };

	cg_buf_init(&pos);
	reset();
	if (cg_rs_parse(p, text, strlen(text), &pos) < 0) {
		cg_buf_addstr(&outb, "ERROR");
	} else {
		t.pos = pos.data;
		t.len = pos.len;
		for (t.side = CG_LEFT; ; t.side = CG_RIGHT) {
			cg_rs_options(p, pos.data, pos.len, t.side, rt_emit, &t);
			if (t.side == CG_RIGHT)
				break;
		}
		if (t.bad)
			cg_buf_addf(&outb, "%zu of %zu", t.bad, t.count);
		else
			cg_buf_addf(&outb, "%zu ok", t.count);
	}
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

	/* the conjugate (players exchanged) is the board turned about its
	 * diagonal: row r is column r, by hand */
	is_str(conjugated(d, "..."), ".|.|.", "domineering conjugate of a row");
	is_str(conjugated(d, ".#.|..#"), "..|#.|.#", "domineering conjugate of 2x3");
	is_str(conjugated(d, "#..|...|..#"), "#..|...|..#",
	    "domineering conjugate of a board its own turn");

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

static void
test_cram(void)
{
	const char *c = "cram";

	/* 3 rows x 2 cols: the transposed image (2 x 3) has smaller dims */
	is_str(canon(c, "..|..|.."), "...|...", "cram transposes");
	/* one filled corner of 2x2: the image with # first is smallest */
	is_str(canon(c, ".#|.."), "#.|..", "cram L tromino");
	is_str(canon(c, ".|.|.|."), "....", "cram column to row");
	/* the single cell (2,2) is filled, the 2x2 block is left */
	is_str(canon(c, "..#|..#|##."), "..|..", "cram drops single cells");
	/* two regions sorted by (rows, cols, cells): .. before ... */
	is_str(canon(c, "...#.."), "..#...", "cram sorts regions");
	/* Glop: one row of four */
	is_str(canon(c, "0000*E"), "....", "cram glop row");
	/* Glop sum of two single cells: nothing to play */
	is_str(canon(c, "0*E0*E"), "#", "cram glop sum of singles");
	/* Glop sum: 2x2 and 1x2; ".." (1 x 2) sorts first, then "..|.." */
	is_str(canon(c, "00*00E00*E"), "..#..|###..", "cram glop sum");
	is_str(decomp(c, "..#..."), ".. + ...", "cram split");
	is_str(decomp(c, "00*00E00*E"), "..|.. + ..", "cram split glop sum");
	/* live cells: every empty cell with an empty neighbour */
	is_int(okey(c, "..|.#"), 3, "cram order key L");
	is_int(okey(c, ".#.|#.#"), 0, "cram order key dead");
	/* the top row (4) and the two cells below it (2) */
	is_int(okey(c, "....|#.#."), 6, "cram order key row and stubs");
	/* free polyominoes: 1 domino, 2 trominoes, 5 tetrominoes */
	is_str(family(c, "4", NULL), "8", "cram family 4");
	/* Redelmeier's order: the domino, then I3 (1 x 3 beats 3 x 1) and
	 * the L with its filled cell first */
	is_str(family(c, "3", " "), ".. ... #.|..", "cram family 3 members");
}

static void
test_clobber(void)
{
	const char *k = "clobber";

	/* "xo", "ox" and their transposes: 'o' (111) < 'x' (120) */
	is_str(canon(k, "xo"), "ox", "clobber domino");
	is_str(canon(k, "x.o"), ".", "clobber no contact");
	/* images of "xox|ox." (2 x 3 beats 3 x 2): the half turn
	 * ".xo|xox" starts with '.', the smallest */
	is_str(canon(k, "xox|ox."), ".xo|xox", "clobber half turn");
	is_str(canon(k, "xx.o|...o"), ".", "clobber one-colour groups");
	is_str(decomp(k, "xo.x|...o|ox.."), "xo + x|o + ox", "clobber split");
	is_str(decomp(k, "xx.o"), "", "clobber split one colour");
	/* dominoes: "ox" only; trominoes: I3 has 4 classes (xxo, xox,
	 * oox, oxo), the L 4 (corner x with arms oo or xo, corner o with
	 * arms xx or xo): 1 + 4 + 4 */
	is_str(family(k, "2", " "), "ox", "clobber family 2");
	is_str(family(k, "3", NULL), "9", "clobber family 3");
	is_str(family(k, "17", NULL), "ERROR", "clobber family too big");
}

static void
test_amazons(void)
{
	const char *a = "amazons";

	/* no empty square next to an amazon: nothing to play */
	is_str(canon(a, "x"), "#", "amazons lone amazon");
	is_str(canon(a, "xo"), "#", "amazons blocked pair");
	is_str(canon(a, "x##|#o#"), "#", "amazons blocked diagonal");
	/* ".." (46) sorts before "x" (120): the amazon goes last */
	is_str(canon(a, "x.."), "..x", "amazons row");
	is_str(canon(a, "x.|.."), "..|.x", "amazons corner");
	/* "x." and ".o" are separate regions: minimised to ".x" and ".o",
	 * sorted (".o" first) */
	is_str(canon(a, "x.#.o"), ".o#.x", "amazons two regions");
	/* a ring with the amazon in a corner: the image with the amazon
	 * last (bottom right) is smallest */
	is_str(canon(a, "...|.#.|x.."), "...|.#.|..x", "amazons ring");
	is_str(decomp(a, "x.#.o"), "x. + .o", "amazons split");
	/* (0,0) and (1,1) touch diagonally: one region, without moves */
	is_str(decomp(a, "x#|#o"), "", "amazons split blocked");
	is_str(decomp(a, "x#.|#..|..."), "x#.|#..|...",
	    "amazons diagonal link");
	/* the x is walled in (dropped, its square walled up in the crop of
	 * the next region); regions of one side only are kept */
	is_str(decomp(a, "x#.|##.|..o|###|.o."), "##.|##.|..o + .o.",
	    "amazons one-sided regions kept");

	/* "x..|o..": x on a2, o on a1 */
	is_str(mparse(a, "x..|o..", CG_LEFT, "a2-c2/b1"), "..x|o#.",
	    "amazons move along the top row");
	is_str(mparse(a, "x..|o..", CG_LEFT, "a2-b1/b2"), ".#.|ox.",
	    "amazons diagonal move");
	is_str(mparse(a, "x..|o..", CG_LEFT, "a2-b2/a2"), "#x.|o..",
	    "amazons arrow onto the square left");
	is_str(mparse(a, "x..|o..", CG_RIGHT, "a1-b1/b2"), "x#.|.o.",
	    "amazons Right's move");
	is_str(mparse(a, "x..|o..", CG_LEFT, "a2-a1/a2"),
	    "ERROR: column 4: the way from a2 to a1 is blocked",
	    "amazons move onto an amazon");
	is_str(mparse(a, "x..|o..", CG_LEFT, "a1-b1/b2"),
	    "ERROR: column 1: no Left amazon on a1",
	    "amazons wrong amazon");
	is_str(mparse(a, "x..|o..", CG_LEFT, "a2-c1/c2"),
	    "ERROR: column 4: a2 to c1 is not a queen move (along a row, "
	    "column or diagonal)", "amazons knight move");
	is_str(mparse(a, "x..|o..", CG_LEFT, "a2-b2/a1"),
	    "ERROR: column 7: the arrow's way from b2 to a1 is blocked",
	    "amazons arrow onto an amazon");
	/* c2 to a1: one row down, two columns left */
	is_str(mparse(a, "x..|o..", CG_LEFT, "a2-c2/a1"),
	    "ERROR: column 7: the arrow from c2 to a1 is not a queen move",
	    "amazons arrow off a line");
	is_str(mparse(a, "x..|o..", CG_LEFT, "a2-d2/a1"),
	    "ERROR: column 4: square 'd2' is off the 3x2 board",
	    "amazons off the board");
	is_str(mparse(a, "x..|o..", CG_LEFT, "a2b2"),
	    "ERROR: column 3: expected '-' after the from square",
	    "amazons missing dash");
	is_str(mparse(a, "x..|o..", CG_LEFT, "a2-b2/a2x"),
	    "ERROR: column 9: unexpected text after the move",
	    "amazons trailing text");

	/* move names read back (x..|o..: 12 moves each, see amazons.bats;
	 * the second board's count is only a cross-check of both sides) */
	is_str(names_round_trip(a, "x..|o.."), "24 ok", "amazons names 3x2");
	names_round_trip(a, "x...#|.#..o|.....|#.x..");
	ok(strstr(cg_buf_str(&outb), " ok") != NULL &&
	    atoi(cg_buf_str(&outb)) > 100,
	    "amazons every name of a 5x4 board reads back (%s)",
	    cg_buf_str(&outb));

	/* 1x2: ".x" and ".o" (an amazon next to an empty square) */
	is_str(family(a, "1x2", " "), ".x .o", "amazons family 1x2");
	/* 1x3 adds the full row "...": x alone at an end or the middle (2),
	 * o alone (2), both: ends (x.o), x end + o middle, o end + x
	 * middle (3) = 7; with 1x2: 9 */
	is_str(family(a, "3x1", NULL), "9", "amazons family 3x1");
	is_str(family(a, "1x3", NULL), "9", "amazons family 1x3");
	/* 2x2: 1x2 (2); diagonal pair with one amazon (2); the L tromino:
	 * one amazon on the corner or an arm (2 + 2), two amazons (x
	 * corner, o corner, both arms: 3); the full square: one amazon (2),
	 * two side by side or diagonal (2): 2 + 2 + 7 + 4 = 15 */
	is_str(family(a, "2x2", NULL), "15", "amazons family 2x2");
	is_str(family(a, "6x6", NULL), "ERROR", "amazons family too big");
	is_str(family(a, "4", NULL), "ERROR", "amazons family without x");
}

/*
 * The bit boards (boards of at most 64 cells) against the labelling code
 * (SPEC:reference): for every position of a family and every option of
 * either player, decompose() gives the same components and canonical()
 * the same bytes, for the option as a whole and for each component.
 */
struct modes {
	struct cg_plugin *fast, *ref;
	size_t options, checks, bad;
	struct cg_buf comps[2];     /* components, one after another */
	struct cg_buf canons[2];    /* and their canonical bytes */
};

struct collector {
	struct cg_plugin *p;
	struct cg_buf *comps, *canons;
};

/* A component, and its canonical bytes asked for at once (the way a
 * build asks, while decompose() lends it). */
static int
collect(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct collector *c = ctx;
	uint32_t n = (uint32_t)len;

	(void)move;
	cg_buf_add(c->comps, &n, sizeof n);
	cg_buf_add(c->comps, pos, len);
	if (cg_rs_canonical(c->p, pos, len, c->canons) < 0)
		cg_buf_addstr(c->canons, "ERROR");
	cg_buf_addc(c->canons, '|');
	return 0;
}

/* Equal buffers (memcmp must not see the NULL of an empty one). */
static int
same_bytes(const struct cg_buf *a, const struct cg_buf *b)
{
	return a->len == b->len &&
	    (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* canonical() of pos in both modes: 0 when the bytes agree. */
static int
same_canon(struct modes *m, const unsigned char *pos, size_t len)
{
	struct cg_buf a, b;
	int differ;

	cg_buf_init(&a);
	cg_buf_init(&b);
	m->checks++;
	differ = cg_rs_canonical(m->fast, pos, len, &a) < 0 ||
	    cg_rs_canonical(m->ref, pos, len, &b) < 0 || !same_bytes(&a, &b);
	cg_buf_free(&a);
	cg_buf_free(&b);
	return differ;
}

static int
modes_option(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	struct modes *m = ctx;
	struct collector c0 = { m->fast, &m->comps[0], &m->canons[0] },
	    c1 = { m->ref, &m->comps[1], &m->canons[1] };
	size_t off;
	uint32_t n;

	(void)move;
	m->options++;
	m->comps[0].len = m->comps[1].len = 0;
	m->canons[0].len = m->canons[1].len = 0;
	if (cg_rs_decompose(m->fast, pos, len, collect, &c0) < 0 ||
	    cg_rs_decompose(m->ref, pos, len, collect, &c1) < 0 ||
	    !same_bytes(&m->comps[0], &m->comps[1]) ||
	    !same_bytes(&m->canons[0], &m->canons[1]))
		m->bad++;
	m->bad += same_canon(m, pos, len) != 0;
	for (off = 0; off < m->comps[0].len; off += sizeof n + n) {
		memcpy(&n, m->comps[0].data + off, sizeof n);
		m->bad += same_canon(m, m->comps[0].data + off + sizeof n, n);
	}
	return 0;
}

static int
modes_position(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	struct modes *m = ctx;
	int side;

	(void)move;
	m->bad += same_canon(m, pos, len) != 0;
	for (side = CG_LEFT; side <= CG_RIGHT; side++)
		if (cg_rs_options(m->fast, pos, len, (enum cg_side)side,
		    modes_option, m) < 0)
			m->bad++;
	return 0;
}

static void
bits_against_labels(const char *spec, const char *fam)
{
	struct modes m;
	struct cg_buf refspec;
	int rc;

	memset(&m, 0, sizeof m);
	cg_buf_init(&refspec);
	cg_buf_addf(&refspec, "%s:reference", spec);
	m.fast = cg_plugin_get(spec, 1);
	m.ref = cg_plugin_get(cg_buf_str(&refspec), 1);
	cg_buf_init(&m.comps[0]);
	cg_buf_init(&m.comps[1]);
	cg_buf_init(&m.canons[0]);
	cg_buf_init(&m.canons[1]);
	rc = cg_rs_enumerate(m.fast, fam, modes_position, &m);
	ok(rc == CG_OK && m.bad == 0 && m.options > 1000,
	    "%s family %s: %zu options, %zu canonical forms, %zu differ "
	    "between bit boards and labels", spec, fam, m.options, m.checks,
	    m.bad);
	cg_buf_free(&m.comps[0]);
	cg_buf_free(&m.comps[1]);
	cg_buf_free(&m.canons[0]);
	cg_buf_free(&m.canons[1]);
	cg_buf_free(&refspec);
}

/* One position text: its options and components agree in both modes. */
static int
same_positions(const char *spec, const char *text)
{
	struct modes m;
	struct cg_buf refspec, pos;

	memset(&m, 0, sizeof m);
	cg_buf_init(&refspec);
	cg_buf_init(&pos);
	cg_buf_addf(&refspec, "%s:reference", spec);
	m.fast = cg_plugin_get(spec, 1);
	m.ref = cg_plugin_get(cg_buf_str(&refspec), 1);
	cg_buf_init(&m.comps[0]);
	cg_buf_init(&m.comps[1]);
	cg_buf_init(&m.canons[0]);
	cg_buf_init(&m.canons[1]);
	if (cg_rs_parse(m.fast, text, strlen(text), &pos) < 0)
		m.bad++;
	else
		modes_position(&m, pos.data, pos.len, NULL);
	/* the position itself as an option: its own components */
	modes_option(&m, pos.data, pos.len, NULL);
	cg_buf_free(&m.comps[0]);
	cg_buf_free(&m.comps[1]);
	cg_buf_free(&m.canons[0]);
	cg_buf_free(&m.canons[1]);
	cg_buf_free(&refspec);
	cg_buf_free(&pos);
	return m.bad == 0 && m.options > 1;
}

static void
test_bits(void)
{
	bits_against_labels("amazons", "3x3");
	bits_against_labels("amazons", "4x2");
	bits_against_labels("domineering", "9");
	bits_against_labels("cram", "9");
	bits_against_labels("clobber", "7");
	/* boards of several regions, some dropped, wider than the box of
	 * any family: both ways, one by one */
	ok(same_positions("amazons", "x.#.o|###.#|o.#x.|.#.#.") &&
	    same_positions("domineering", "..#.|#..#|.#..|..#.") &&
	    same_positions("cram", ".#.#.|#...#|.#.#.") &&
	    same_positions("clobber", "xo.ox|.x.o.|oxox."),
	    "bit boards and labels agree on boards of several regions");
}

/* Domineering's move counts of text, as "sure safe most room first
 * first_sure first_room" for Left then Right, or "ERROR". */
static const char *
dom_counts_of(const char *spec, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_move_bounds b;
	struct cg_buf pos;
	int s;

	cg_buf_init(&pos);
	reset();
	if (cg_rs_parse(p, text, strlen(text), &pos) < 0 ||
	    cg_rs_move_counts(p, pos.data, pos.len, &b) < 0)
		cg_buf_addstr(&outb, "ERROR");
	else
		for (s = 0; s < 2; s++)
			cg_buf_addf(&outb, "%s%u %u %u %u %u %u %u",
			    s ? " / " : "", b.sure[s], b.safe[s], b.most[s],
			    b.room[s], b.first[s], b.first_sure[s],
			    b.first_room[s]);
	cg_buf_free(&pos);
	return cg_buf_str(&outb);
}

/* A random board of r x c, fill percent of it filled, into text. */
static void
random_board(uint64_t *seed, int r, int c, int fill, char *text)
{
	size_t n = 0;
	int y, x;

	for (y = 0; y < r; y++) {
		if (y > 0)
			text[n++] = '|';
		for (x = 0; x < c; x++) {
			*seed ^= *seed << 13;
			*seed ^= *seed >> 7;
			*seed ^= *seed << 17;
			text[n++] = (int)(*seed % 100) < fill ? '#' : '.';
		}
	}
	text[n] = '\0';
}

/* The counts on bit lines (boards of at most 64 rows and columns) equal
 * the cell-by-cell ones of "domineering:reference". */
static void
test_counts(void)
{
	static const int dims[][2] = { { 1, 7 }, { 3, 3 }, { 4, 6 },
	    { 6, 6 }, { 7, 8 }, { 8, 8 }, { 9, 11 }, { 12, 12 },
	    { 2, 40 }, { 64, 3 } };
	uint64_t seed = 88172645463325252ull;
	char text[64 * 65 + 1], want[128];
	size_t d, t;
	int bad = 0, tried = 0;

	/* "...." (one row): Right's 4 cells are out of Left's reach
	 * (nothing above or below), so 2 safe dominoes of 2 at most; Left
	 * has no domino; each room is half the 4 empty cells.  Moving
	 * first gains neither anything: Left has no domino, and Right's
	 * reserve covers the row (no cell beside a safe domino, so no safe
	 * option): first_sure is sure, first_room is room. */
	is_str(dom_counts_of("domineering", "...."),
	    "0 0 0 2 0 0 2 / 2 2 2 2 2 2 2",
	    "domineering counts of a 1x4 row");
	/* ".|.|.|.|." (a column of 5): Left's cells are all proof; the run
	 * of 5 gives 2 safe dominoes and leaves its last cell free: no pool
	 * and no domino off the reserve, so first is 2.  The free last cell
	 * is proof, so no safe option: first_sure 2, first_room 2.  Right
	 * has no domino and Left can cover every cell: Right's room is half
	 * of 5. */
	is_str(dom_counts_of("domineering", ".|.|.|.|."),
	    "2 2 2 2 2 2 2 / 0 0 0 2 0 0 2",
	    "domineering counts of a 5x1 column");
	/* "..|..": no cell is proof.  The square is one protective area of
	 * Left's (columns a and b, walled by the board's edge on the left):
	 * alone, it is not in sure (0), and takes nothing from Right.  Moving
	 * first, Left enters it by column b, which leaves column a's cells
	 * with filled cells on both sides: a safe domino, two moves; and the
	 * entry takes the domino of each of Right's two rows: first 0 + 2 +
	 * 2 = 4.  Most 2 (one a column), room half of 4.  For the room
	 * test, the entry gives the two moves (first_sure 2) in the same
	 * room (2).  Right the same by rows. */
	is_str(dom_counts_of("domineering", "..|.."),
	    "0 0 2 2 4 2 2 / 0 0 2 2 4 2 2",
	    "domineering counts of a 2x2 square, moving first");
	/* "......|......": no cell is proof.  Left's protective areas:
	 * columns a-b (walled by the left edge; column c beyond it guards)
	 * and e-f (the right edge; column d guards); c-d has no wall.  A
	 * pair: sure 2, and Right's most falls by 2.  The rest are guard
	 * cells: the pool takes column c (column d lies across from it),
	 * one domino, worth nothing alone; the slots take c and d, across
	 * from each other, by threes: nothing.  Moving first, the pool's
	 * domino (or column d's, free) is one move more: first 3, and,
	 * their cells being Right's to cover, first_sure 3 in room 6 (no
	 * proof cell, no waste).  Right's lines
	 * are the two rows, walled by the top edge, and the areas are
	 * columns a-b, c-d, e-f: one pair, sure 2, Left's most down by 2;
	 * the third, entered first (by the bottom row), gives two moves and
	 * takes a domino from each of columns e and f: first 2 + 4 = 6,
	 * first_sure 2 + 2.  Most 6 - 2 = 4 each, room half of 12. */
	is_str(dom_counts_of("domineering", "......|......"),
	    "2 0 4 6 3 3 6 / 2 0 4 6 6 4 6",
	    "domineering counts of a 2x6 board, protective areas");
	/* "........|#......#": no cell of Left's is proof, and no Left area
	 * (no column beside two of its 2-cell columns is filled at both
	 * rows).  Left's six dominoes (columns b to g) lie next to each
	 * other: the pool takes b, d and f (1 move), the slots all six, each
	 * across from another: by threes, 2 moves, which wins.  Most 6 less
	 * 2 for Right's pair of areas; room half of the 14 empty cells;
	 * nothing free to play first and nothing left over (six by threes
	 * leave none): first 2, first_sure 2 in room 7.
	 * Right: the top edge walls its two rows, so columns b-c, d-e and
	 * f-g are areas: a pair, sure 2, and the third entered first: first
	 * 2 + 4, first_sure 2 + 2.  Its only other cells, the top row's
	 * ends, are proof and apart: safe 0, room half of the 12 others.
	 * Most 4 + 3 = 7, Left having no area. */
	is_str(dom_counts_of("domineering", "........|#......#"),
	    "2 0 4 7 2 2 7 / 2 0 7 6 6 4 6",
	    "domineering counts of a 2x8 board, dominoes by threes");
	/* "#.#|#.#|...": the top two cells of Left's middle column are
	 * proof (filled on both sides): one safe domino, sure 1, most 1.
	 * The bottom middle cell is Right's to cover, in no reserve, and the
	 * bottom corners across from it have the edge beyond: a safe option
	 * that wastes the top cell (the domino shifted down one) and both
	 * corners.  Alone it pairs with nothing, so room is half of all 5
	 * cells, 2; moving first, Left plays it and the room is half of the
	 * 2 left: first_sure 1, first_room 1 (so Left to move wins, 2 > 1;
	 * it does: the shifted domino leaves Right nothing).
	 * Right: the bottom corners are proof (filled above, the edge
	 * below), the bottom middle cell is not: no safe domino; the pool
	 * takes the left corner and the middle, one domino with a proof
	 * cell; most 1, sure 0.  Cells: those two and Left's top two (the
	 * right corner is proof and in no reserve): 4, less the left corner,
	 * which the pool of one leaves to no one when Left breaks it: room 1.
	 * Moving first, Right plays it: first 1, first_sure 1 in room 2. */
	is_str(dom_counts_of("domineering", "#.#|#.#|..."),
	    "1 1 1 2 1 1 1 / 0 0 1 1 1 1 2",
	    "domineering counts of a safe option and a pool's waste");
	for (d = 0; d < sizeof dims / sizeof dims[0]; d++)
		for (t = 0; t < 40; t++) {
			/* 0 to 40 percent filled */
			random_board(&seed, dims[d][0], dims[d][1],
			    (int)(t % 5) * 10, text);
			snprintf(want, sizeof want, "%s",
			    dom_counts_of("domineering:reference", text));
			tried++;
			if (strcmp(dom_counts_of("domineering", text),
			    want) != 0 || strcmp(want, "ERROR") == 0) {
				if (bad++ == 0)
					printf("# counts differ on %s: %s, "
					    "reference %s\n", text,
					    cg_buf_str(&outb), want);
			}
		}
	ok(bad == 0 && tried == 400,
	    "domineering counts on bit lines equal the reference's (%d "
	    "boards)", tried);
}

/* ------------------------------------------- cg.bit-search (domineering) */

struct strs {
	char **v;
	size_t n;
};

static void
strs_add(struct strs *l, const char *x)
{
	l->v = realloc(l->v, (l->n + 1) * sizeof *l->v);
	l->v[l->n++] = strdup(x);
}

static int
cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The list sorted and joined by spaces into outb; the list emptied. */
static const char *
strs_join(struct strs *l)
{
	size_t i;

	if (l->n > 1)
		qsort(l->v, l->n, sizeof *l->v, cmp_strp);
	reset();
	for (i = 0; i < l->n; i++) {
		cg_buf_addf(&outb, "%s%s", i ? " " : "", l->v[i]);
		free(l->v[i]);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
	return cg_buf_str(&outb);
}

struct kids {
	struct cg_plugin *p;
	struct strs l;
};

/* Each child, or component, printed in canonical form. */
static int
kid_emit(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct kids *k = ctx;
	struct cg_buf can, txt;

	(void)move;
	cg_buf_init(&can);
	cg_buf_init(&txt);
	if (cg_rs_canonical(k->p, pos, len, &can) < 0 ||
	    cg_rs_print(k->p, can.data, can.len, &txt) < 0)
		strs_add(&k->l, "ERROR");
	else
		strs_add(&k->l, cg_buf_str(&txt));
	cg_buf_free(&can);
	cg_buf_free(&txt);
	return 0;
}

/* The board text mirrored left-right (flip & 1) and up-down (flip & 2),
 * or turned about its diagonal (flip 4: row y is column y; r == c). */
static void
mirror_board(const char *text, int r, int c, int flip, char *out)
{
	int y, x, sy, sx;
	size_t n = 0;

	for (y = 0; y < r; y++) {
		if (y > 0)
			out[n++] = '|';
		for (x = 0; x < c; x++) {
			sy = flip & 2 ? r - 1 - y : y;
			sx = flip & 1 ? c - 1 - x : x;
			if (flip == 4) {
				sy = x;
				sx = y;
			}
			out[n++] = text[(size_t)sy * (c + 1) + sx];
		}
	}
	out[n] = '\0';
}

/* The host's verdict on one component's bounds with side x to move
 * (cgx/movecounts.h): 1 x wins, 0 x loses, -1 neither. */
static int
bounds_verdict(const struct cg_move_bounds *b, int x)
{
	int y = !x;
	uint64_t rl = cg_bounds_room_lead(b, x);

	if (b->first[x] > b->most[y] || 2 * (uint64_t)b->sure[x] + rl >
	    b->room[x])
		return 1;
	if (b->sure[y] >= b->most[x] || 2 * b->sure[y] + 1 > b->room[y])
		return 0;
	return -1;
}

/*
 * Domineering's cg.bit-search against its other hooks, on random boards
 * of up to 256 squares cut into components: the packed components
 * unpack to a board with the same components; each side's options as
 * masks give the children options() gives on that board; the bounds are
 * the cg.move-counts of that board; and the four mirror images that keep
 * the dominoes' directions have one canonical state, one of theirs.
 */
/* Does key() fail to give the board (its mirrors img[0..3]) and its
 * turned board tr one key, the turned one's with the other side to
 * move?  The key must be the canonical image of one of the two. */
static int
key_differs(const struct cg_bit_search *x, struct cg_context *cx,
    const struct cg_bit_shape *sh, uint64_t img[4][CG_BIT_WORDS],
    const uint64_t *tr)
{
	uint64_t k0[CG_BIT_WORDS], k[CG_BIT_WORDS], c[CG_BIT_WORDS];
	size_t bytes = sh->words * sizeof *k;
	int f, a = x->key(cx, sh, img[0], k0), at, same = 0;

	for (f = 1; f < 4; f++)
		if (x->key(cx, sh, img[f], k) != a || memcmp(k, k0, bytes) != 0)
			return 1;
	at = x->key(cx, sh, tr, k);
	if (memcmp(k, k0, bytes) != 0)
		return 1;
	/* a board whose turned board is one of its mirrors may keep its
	 * own side to move either way */
	for (f = 0; f < 4; f++)
		same |= memcmp(tr, img[f], bytes) == 0;
	if (at == a && !(same && a == 0))
		return 1;
	x->canonical(cx, sh, a ? tr : img[0], c);
	return memcmp(c, k0, bytes) != 0;
}

static void
test_bit_search(void)
{
	static const int dims[][2] = { { 1, 7 }, { 2, 2 }, { 3, 5 },
	    { 6, 6 }, { 7, 8 }, { 8, 8 }, { 9, 9 }, { 9, 11 }, { 16, 16 },
	    { 4, 64 }, { 64, 4 } };
	struct cg_plugin *p = cg_plugin_get("domineering", 1);
	const struct cg_bit_search *x = cg_rs_extension(p, CG_EXT_BIT_SEARCH);
	struct cg_context *cx = cg_rs_context(p);
	uint64_t seed = 0x2545f4914f6cdd1dull, st[CG_BIT_WORDS],
	    img[4][CG_BIT_WORDS], can[4][CG_BIT_WORDS], *masks,
	    child[CG_BIT_WORDS];
	static char want[1 << 20];
	char text[64 * 65 + 1], flip[64 * 65 + 1];
	struct cg_buf pos, back;
	struct cg_bit_shape sh, sh2;
	struct cg_move_bounds b1, b2;
	struct kids k = { p, { NULL, 0 } }, parts = { p, { NULL, 0 } };
	const unsigned char **comp;
	size_t *len, nc, i, w, d, t;
	int side, n, f, bad_pack = 0, bad_opt = 0, bad_bounds = 0,
	    bad_settle = 0, bad_swap = 0, squares = 0,
	    bad_sym = 0, tried = 0, r, c, j, bad_key = 0;

	ok(x != NULL && x->canonical != NULL,
	    "domineering offers cg.bit-search with canonical()");
	if (x == NULL)
		return;
	cg_buf_init(&pos);
	cg_buf_init(&back);
	/* 17 x 16 = 272 squares: more than a state holds */
	memset(text, '.', 16);
	text[16] = '\0';
	for (j = 1; j < 17; j++)
		strcat(strcat(text, "|"), "................");
	pos.len = 0;
	(void)cg_rs_parse(p, text, strlen(text), &pos);
	comp = (const unsigned char **)&pos.data;
	ok(x->pack(cx, comp, &pos.len, 1, &sh, st) == CG_EUNSUPPORTED,
	    "domineering bit-search refuses 17x16 squares");
	masks = malloc(256 * CG_BIT_WORDS * sizeof *masks);
	for (d = 0; d < sizeof dims / sizeof dims[0]; d++)
		for (t = 0; t < 30; t++) {
			r = dims[d][0];
			c = dims[d][1];
			random_board(&seed, r, c, (int)(t % 5) * 10, text);
			pos.len = 0;
			if (cg_rs_parse(p, text, strlen(text), &pos) < 0)
				continue;
			/* its components, canonical */
			(void)cg_rs_decompose(p, pos.data, pos.len, kid_emit,
			    &parts);
			nc = parts.l.n;
			comp = malloc((nc + 1) * sizeof *comp);
			len = malloc((nc + 1) * sizeof *len);
			for (i = 0; i < nc; i++) {
				struct cg_buf *cb = malloc(sizeof *cb);

				cg_buf_init(cb);
				(void)cg_rs_parse(p, parts.l.v[i],
				    strlen(parts.l.v[i]), cb);
				comp[i] = cb->data;
				len[i] = cb->len;
				free(cb);
			}
			snprintf(want, sizeof want, "%s", strs_join(&parts.l));
			if (nc == 0 || x->pack(cx, comp, len, nc, &sh, st) < 0)
				goto next;
			sh.flags |= CG_BIT_FIRST_ROOM;   /* as the host does */
			tried++;
			w = sh.words;
			back.len = 0;
			if (x->unpack(cx, &sh, st, &back) < 0 ||
			    cg_rs_decompose(p, back.data, back.len, kid_emit,
			    &parts) < 0 || strcmp(strs_join(&parts.l), want))
				bad_pack++;
			for (side = 0; side < 2; side++) {
				(void)cg_rs_options(p, back.data, back.len,
				    (enum cg_side)side, kid_emit, &k);
				snprintf(want, sizeof want, "%s",
				    strs_join(&k.l));
				n = x->options(cx, &sh, st, (enum cg_side)side,
				    masks);
				for (j = 0; j < n; j++) {
					struct cg_buf cb;

					for (i = 0; i < w; i++)
						child[i] = st[i] ^
						    masks[(size_t)j * w + i];
					cg_buf_init(&cb);
					(void)x->unpack(cx, &sh, child, &cb);
					(void)kid_emit(&k, cb.data, cb.len, "");
					cg_buf_free(&cb);
				}
				if (n < 0 || (uint32_t)n > sh.max_options ||
				    strcmp(strs_join(&k.l), want) != 0) {
					if (bad_opt++ == 0)
						printf("# options differ on %s "
						    "(side %d)\n", text, side);
				}
			}
			memset(&b1, 0, sizeof b1);
			memset(&b2, 0, sizeof b2);
			x->bounds(cx, &sh, st, &b1);
			/* settle() draws at least the host's verdict from
			 * them (more from its second reserve; the play check
			 * below checks those) */
			for (side = 0; side < 2; side++)
				if (bounds_verdict(&b1, side) >= 0 &&
				    x->settle(cx, &sh, st, (enum cg_side)side) !=
				    bounds_verdict(&b1, side) && bad_settle++ == 0)
					printf("# settle differs on %s (side %d)"
					    "\n", text, side);
			/* the counts without the second reserve (dom_slots):
			 * the same safe and most moves, no more sure ones, and
			 * the same room and first (both ways) where the pool
			 * won */
			if (cg_rs_move_counts(p, back.data, back.len, &b2) < 0)
				bad_bounds++;
			for (side = 0; side < 2; side++)
				if (b1.safe[side] != b2.safe[side] ||
				    b1.most[side] != b2.most[side] ||
				    b1.sure[side] > b2.sure[side] ||
				    (b1.sure[side] == b2.sure[side] &&
				    (b1.room[side] != b2.room[side] ||
				    b1.first[side] != b2.first[side] ||
				    b1.first_sure[side] != b2.first_sure[side] ||
				    b1.first_room[side] != b2.first_room[side])))
					bad_bounds++;
			/* the whole board and its mirrors, packed as one */
			for (f = 0; f < 4; f++) {
				const unsigned char *one;

				mirror_board(text, r, c, f, flip);
				back.len = 0;
				(void)cg_rs_parse(p, flip, strlen(flip), &back);
				one = back.data;
				if (x->pack(cx, &one, &back.len, 1, &sh2,
				    img[f]) < 0)
					break;
				x->canonical(cx, &sh2, img[f], can[f]);
			}
			/* turned about the diagonal, a square board's
			 * players trade places: swap() is that board */
			if (f == 4 && x->swap != NULL) {
				uint64_t sw[CG_BIT_WORDS], tr[CG_BIT_WORDS],
				    again[CG_BIT_WORDS];
				struct cg_bit_shape sh3;
				const unsigned char *one;

				if (r != c)
					bad_swap += x->swap(cx, &sh2, img[0],
					    sw) != 0;
				else {
					mirror_board(text, r, c, 4, flip);
					back.len = 0;
					(void)cg_rs_parse(p, flip, strlen(flip),
					    &back);
					one = back.data;
					squares++;
					if (x->pack(cx, &one, &back.len, 1, &sh3,
					    tr) < 0 || x->swap(cx, &sh2, img[0],
					    sw) != 1 || memcmp(sw, tr, sh2.words *
					    sizeof *sw) != 0 || x->swap(cx, &sh2,
					    sw, again) != 1 || memcmp(again,
					    img[0], sh2.words * sizeof *sw) != 0)
						bad_swap++;
					else if (x->key != NULL)
						bad_key += key_differs(x, cx,
						    &sh2, img, tr);
				}
			}
			if (f < 4)
				bad_sym++;
			else {
				for (f = 1; f < 4; f++)
					if (memcmp(can[f], can[0], sh2.words *
					    sizeof *st) != 0)
						bad_sym++;
				for (f = 0; f < 4 && memcmp(can[0], img[f],
				    sh2.words * sizeof *st) != 0; f++)
					;
				bad_sym += f == 4;
			}
next:
			for (i = 0; i < nc; i++)
				free((void *)comp[i]);
			free(comp);
			free(len);
		}
	ok(bad_pack == 0 && tried > 200, "domineering bit-search states "
	    "unpack to their components (%d boards)", tried);
	ok(bad_opt == 0, "domineering bit-search options are options()'s");
	ok(bad_settle == 0, "domineering bit-search settle gives the host's "
	    "verdict on its bounds where they give one, either side to move");
	ok(bad_bounds == 0, "domineering bit-search bounds are the move counts "
	    "without the second reserve");
	ok(bad_sym == 0, "domineering bit-search: one canonical state for "
	    "the four mirror images");
	ok(x->swap != NULL && bad_swap == 0 && squares >= 100,
	    "domineering bit-search swap() turns a square board about its "
	    "diagonal (%d boards), twice is the board, and refuses other "
	    "shapes", squares);
	ok(x->key != NULL && bad_key == 0, "domineering bit-search key() is "
	    "one for a square board's four mirror images and its turned "
	    "board's, with the side to move traded for the turned");
	free(masks);
	cg_buf_free(&pos);
	cg_buf_free(&back);
}

/*
 * The move counts' verdicts against play: on boards of up to 64 squares
 * with at most MM_EMPTY of them empty (a board is a 64-bit mask of its
 * empty squares), whether the player to move wins, by exhaustive search
 * with a table, must agree with every verdict counts_verdict's rule
 * draws from the counts: the player to move X wins when sure[X] +
 * first[X] - sure[X] > most[Y] or 2 sure[X] + the room lead (2
 * (first_sure[X] - sure[X]) - (first_room[X] - room[X]), when above 0) >
 * room[X], loses when sure[Y] >= most[X] or 2 sure[Y] + 1 > room[Y].
 * This checks the claims behind safe, sure, most, room, first and the
 * room test moving first (protective areas, safe options and the pool's
 * waste among them) against the game itself.  The boards are small ones
 * filled at random, and positions of random play on larger ones, where
 * areas and safe options arise as they do in a search.
 */
#define MM_EMPTY 22
#define MM_SLOTS (1u << 21)
static uint64_t mm_key[MM_SLOTS];     /* empty mask << 1 | side, + 1 */
static signed char mm_val[MM_SLOTS];
static size_t mm_used;
static int mm_rows, mm_cols;

static int
mm_wins(uint64_t empty, int side)
{
	uint64_t key = (empty << 1 | (uint64_t)side) + 1, h;
	int r, c, k, step = side == CG_LEFT ? mm_cols : 1, win = 0;

	h = key * 0x9e3779b97f4a7c15u;
	for (h >>= 43; mm_key[h] != 0; h = (h + 1) & (MM_SLOTS - 1))
		if (mm_key[h] == key)
			return mm_val[h];
	for (r = 0; r < mm_rows && !win; r++)
		for (c = 0; c < mm_cols && !win; c++) {
			k = r * mm_cols + c;
			if ((side == CG_LEFT ? r + 1 >= mm_rows :
			    c + 1 >= mm_cols) || !(empty >> k & 1) ||
			    !(empty >> (k + step) & 1))
				continue;
			win = !mm_wins(empty & ~((uint64_t)1 << k |
			    (uint64_t)1 << (k + step)), !side);
		}
	/* a table half full just stops remembering (the search stays
	 * right, and every probe still meets an empty slot) */
	if (mm_used >= MM_SLOTS / 2)
		return win;
	h = key * 0x9e3779b97f4a7c15u;
	for (h >>= 43; mm_key[h] != 0; h = (h + 1) & (MM_SLOTS - 1))
		;
	mm_key[h] = key;
	mm_val[h] = (signed char)win;
	mm_used++;
	return win;
}

static uint64_t
mm_next(uint64_t *seed)
{
	*seed ^= *seed << 13;
	*seed ^= *seed >> 7;
	*seed ^= *seed << 17;
	return *seed;
}

/* The board's text (rows joined by '|') from its empty mask. */
static void
mm_text(uint64_t empty, char *text)
{
	size_t n = 0;
	int r, c;

	for (r = 0; r < mm_rows; r++) {
		if (r > 0)
			text[n++] = '|';
		for (c = 0; c < mm_cols; c++)
			text[n++] = empty >> (r * mm_cols + c) & 1 ? '.' : '#';
	}
	text[n] = '\0';
}

/* Random dominoes, the two players in turn, until at most MM_EMPTY
 * squares are empty; 0 when a player is stuck before. */
static uint64_t
mm_play_down(uint64_t *seed, uint64_t empty)
{
	int side = (int)(mm_next(seed) % 2), k, n, step, r, c;
	int at[64];

	while (__builtin_popcountll(empty) > MM_EMPTY) {
		step = side == CG_LEFT ? mm_cols : 1;
		for (n = 0, r = 0; r < mm_rows; r++)
			for (c = 0; c < mm_cols; c++) {
				k = r * mm_cols + c;
				if ((side == CG_LEFT ? r + 1 < mm_rows :
				    c + 1 < mm_cols) && (empty >> k & 1) &&
				    (empty >> (k + step) & 1))
					at[n++] = k;
			}
		if (n == 0)
			return 0;
		k = at[mm_next(seed) % (uint64_t)n];
		empty &= ~((uint64_t)1 << k | (uint64_t)1 << (k + step));
		side = !side;
	}
	return empty;
}

static void
test_counts_against_play(void)
{
	static const int dims[][2] = { { 5, 6 }, { 6, 6 }, { 5, 7 },
	    { 4, 8 }, { 6, 7 }, { 7, 7 }, { 6, 8 }, { 8, 8 } };
	struct cg_plugin *p = cg_plugin_get("domineering", 1);
	const struct cg_bit_search *bx = cg_rs_extension(p, CG_EXT_BIT_SEARCH);
	struct cg_context *cx = cg_rs_context(p);
	uint64_t seed = 0x2545f4914f6cdd1dull, empty, st[CG_BIT_WORDS];
	char text[64 * 2 + 8];
	struct cg_buf pos;
	struct cg_move_bounds b;
	struct cg_bit_shape sh;
	const unsigned char *comp;
	int t, x, y, k, win, said, settled = 0, wrong = 0, by_lead = 0,
	    by_settle = 0, wrong_settle = 0, packed, turned_tried = 0,
	    turned_wrong = 0, nopt, kids = 0, kids_said = 0, kids_wrong = 0;
	uint64_t masks[64 * CG_BIT_WORDS];
	signed char kv[64];

	cg_buf_init(&pos);
	for (t = 0; t < 2000; t++) {
		if (t < 600) {
			/* small boards, filled at random */
			mm_rows = 2 + (int)(mm_next(&seed) % 4);
			mm_cols = 2 + (int)(seed / 4 % 4);
			if (mm_rows * mm_cols > 20)
				mm_cols = 20 / mm_rows;
			random_board(&seed, mm_rows, mm_cols, (int)(t % 4) * 10,
			    text);
			for (empty = 0, k = 0; text[k] != '\0'; k++)
				if (text[k] == '.')
					empty |= (uint64_t)1 << (k - k /
					    (mm_cols + 1));
		} else {
			/* positions of random play on larger boards */
			k = (int)(mm_next(&seed) % (sizeof dims /
			    sizeof dims[0]));
			mm_rows = dims[k][0];
			mm_cols = dims[k][1];
			empty = mm_play_down(&seed, mm_rows * mm_cols == 64 ?
			    ~(uint64_t)0 : ((uint64_t)1 << (mm_rows *
			    mm_cols)) - 1);
			if (empty == 0)
				continue;
			mm_text(empty, text);
		}
		pos.len = 0;
		if (cg_rs_parse(p, text, strlen(text), &pos) < 0 ||
		    cg_rs_move_counts(p, pos.data, pos.len, &b) < 0) {
			wrong++;
			continue;
		}
		memset(mm_key, 0, sizeof mm_key);
		mm_used = 0;
		comp = pos.data;
		packed = bx != NULL && bx->pack(cx, &comp, &pos.len, 1, &sh,
		    st) == CG_OK;
		sh.flags |= CG_BIT_FIRST_ROOM;
		for (x = CG_LEFT; x <= CG_RIGHT; x++) {
			y = !x;
			win = mm_wins(empty, x);
			/* the board turned about its diagonal, the other
			 * side to move: the premise of the bit search's
			 * swap() */
			if (mm_rows == mm_cols) {
				uint64_t turned = 0;

				for (k = 0; k < mm_rows * mm_cols; k++)
					if (empty >> k & 1)
						turned |= (uint64_t)1 << (k %
						    mm_cols * mm_cols + k /
						    mm_cols);
				turned_tried++;
				turned_wrong += mm_wins(turned, y) != win;
			}
			/* the bit search's settle, from either reserve */
			k = packed ? bx->settle(cx, &sh, st, (enum cg_side)x) :
			    -1;
			by_settle += k >= 0;
			if (k >= 0 && k != win && wrong_settle++ == 0)
				printf("# %s, %s to move: settle says %s\n",
				    text, x == CG_LEFT ? "Left" : "Right",
				    k ? "wins" : "loses");
			/* children(): each verdict on a child against play */
			nopt = packed && bx->children != NULL ? bx->options(cx,
			    &sh, st, (enum cg_side)x, masks) : 0;
			if (nopt > 0)
				bx->children(cx, &sh, st, (enum cg_side)x, masks,
				    (uint32_t)nopt, kv);
			for (k = 0; k < nopt; k++) {
				kids++;
				if (kv[k] < 0)
					continue;
				kids_said++;
				if (kv[k] != mm_wins(empty ^ masks[k], y) &&
				    kids_wrong++ == 0)
					printf("# %s, %s to move: children says "
					    "option %d %s\n", text, x == CG_LEFT ?
					    "Left" : "Right", k, kv[k] ?
					    "loses" : "wins");
			}
			said = bounds_verdict(&b, x);
			settled += said >= 0;
			by_lead += said == 1 && !(b.first[x] > b.most[y] ||
			    2 * b.sure[x] > b.room[x]);
			if (said >= 0 && said != win && wrong++ == 0)
				printf("# %s, %s to move: counts say %s\n",
				    text, x == CG_LEFT ? "Left" : "Right",
				    said ? "wins" : "loses");
		}
	}
	cg_buf_free(&pos);
	ok(wrong == 0 && settled > 1200 && by_lead > 40, "on 2000 boards the "
	    "counts' verdicts agree with play (%d of 4000 settled, %d by "
	    "the room test moving first, %d wrong)", settled, by_lead, wrong);
	ok(wrong_settle == 0 && by_settle >= settled, "and so do the bit "
	    "search's (%d settled, %d wrong)", by_settle, wrong_settle);
	ok(kids_wrong == 0 && kids_said > 1000, "the bit search's verdicts "
	    "on children from their parent's counts agree with play (%d of "
	    "%d said, %d wrong)", kids_said, kids, kids_wrong);
	ok(turned_wrong == 0 && turned_tried > 300, "a square board's "
	    "outcome with one side to move is its turned board's with the "
	    "other (%d tried)", turned_tried);
}

/*
 * settle() on 9x9 boards, which Domineering builds once more for that
 * shape alone, against the same board with a filled tenth column (a
 * filled line changes no count, and 9x10 takes the general build): the
 * same verdict on 3000 boards filled from 30 to 70 %, either side to
 * move.
 */
static void
test_settle_9x9(void)
{
	struct cg_plugin *p = cg_plugin_get("domineering", 1);
	const struct cg_bit_search *x = cg_rs_extension(p, CG_EXT_BIT_SEARCH);
	struct cg_context *cx = cg_rs_context(p);
	uint64_t seed = 0x9e3779b97f4a7c15ull, st[2][CG_BIT_WORDS];
	char text[9 * 10 + 1], wide[9 * 11 + 1];
	struct cg_buf pos[2];
	struct cg_bit_shape sh[2];
	const unsigned char *comp;
	int t, k, side, v[2], said = 0, differ = 0, ok_pack = 1;
	size_t n, m;

	cg_buf_init(&pos[0]);
	cg_buf_init(&pos[1]);
	for (t = 0; t < 3000 && ok_pack; t++) {
		random_board(&seed, 9, 9, 30 + t % 5 * 10, text);
		for (n = m = 0; text[n] != '\0'; n++) {
			if (text[n] == '|')
				wide[m++] = '#';
			wide[m++] = text[n];
		}
		wide[m++] = '#';
		wide[m] = '\0';
		for (k = 0; k < 2; k++) {
			const char *b = k ? wide : text;

			pos[k].len = 0;
			if (cg_rs_parse(p, b, strlen(b), &pos[k]) < 0) {
				ok_pack = 0;
				break;
			}
			comp = (const unsigned char *)pos[k].data;
			if (x->pack(cx, &comp, &pos[k].len, 1, &sh[k],
			    st[k]) < 0)
				ok_pack = 0;
		}
		for (side = 0; side < 2 && ok_pack; side++) {
			for (k = 0; k < 2; k++)
				v[k] = x->settle(cx, &sh[k], st[k],
				    (enum cg_side)side);
			said += v[0] >= 0;
			if (v[0] != v[1] && differ++ == 0)
				printf("# settle on %s, side %d: %d, with a "
				    "filled column %d\n", text, side, v[0],
				    v[1]);
		}
	}
	ok(ok_pack && differ == 0 && said > 1000, "domineering bit-search "
	    "settle on 9x9 boards is the general build's (%d verdicts of "
	    "6000, %d differ)", said, differ);
	cg_buf_free(&pos[0]);
	cg_buf_free(&pos[1]);
}

int
main(void)
{
	cg_buf_init(&outb);
	test_domineering();
	test_cram();
	test_clobber();
	test_amazons();
	test_bits();
	test_counts();
	test_counts_against_play();
	test_bit_search();
	test_settle_9x9();
	cg_buf_free(&outb);
	cg_plugin_unload_all();
	return tap_done();
}
