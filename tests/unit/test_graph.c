/* test_graph.c - the position graph (graph/graph.c): vertices interned
 * once, by canonical bytes, for plugin positions (domineering, nim, cram,
 * from the build's plugin directory) and for document nodes; each side's
 * options as the ruleset or the document gives them, fresh or replayed
 * from the kept lists; order keys; the per-vertex solver word, canonical
 * form, claim and move counts.  Every expected value is derived by hand
 * in the comment next to it, from the rules and the byte formats the
 * plugins document (plugins/lib/grid.h, plugins/nim.c). */
#include <stdlib.h>
#include <string.h>

#include "cgx/movecounts.h"
#include "format/doc.h"
#include "graph/graph.h"
#include "values/canon.h"
#include "tap.h"

static struct cg_graph *g;
static struct cg_plugin *dom, *nim, *cram;

/* The vertices of a position given as text, appended to sum. */
static size_t
comps(struct cg_plugin *rs, const char *text, struct cg_sum *sum)
{
	struct cg_buf pos;
	size_t n0 = sum->n;

	cg_buf_init(&pos);
	if (cg_rs_parse(rs, text, strlen(text), &pos) < 0)
		abort();
	cg_graph_position(g, rs, pos.data, pos.len, sum);
	cg_buf_free(&pos);
	return sum->n - n0;
}

/* The one vertex of a one-component position (UINT32_MAX otherwise). */
static cg_vertex
vert(struct cg_plugin *rs, const char *text)
{
	struct cg_sum s;
	cg_vertex v;

	cg_sum_init(&s);
	v = comps(rs, text, &s) == 1 ? s.v[0] : UINT32_MAX;
	cg_sum_free(&s);
	return v;
}

/* Options written out: one "name=text+text" per option, the vertices by
 * cg_graph_print, joined by ";" in the order given (sorted with sort). */
struct olist {
	char *item[64];
	size_t n, named;
	int stop_at;            /* stop after this many options (0: never) */
};

static int
collect(void *ctx, const char *move, const cg_vertex *sum, size_t n)
{
	struct olist *o = ctx;
	struct cg_buf b;
	size_t i;

	cg_buf_init(&b);
	cg_buf_addstr(&b, move ? move : "-");
	cg_buf_addc(&b, '=');
	for (i = 0; i < n; i++) {
		if (i)
			cg_buf_addc(&b, '+');
		cg_graph_print(g, sum[i], &b);
	}
	if (n == 0)
		cg_buf_addstr(&b, "0");
	o->item[o->n++] = strdup(cg_buf_str(&b));
	o->named += move != NULL;
	cg_buf_free(&b);
	return o->stop_at != 0 && (int)o->n >= o->stop_at;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char joined[4096];

static const char *
join(struct olist *o, int sort)
{
	size_t i;

	joined[0] = '\0';
	if (sort)
		qsort(o->item, o->n, sizeof *o->item, cmp_str);
	for (i = 0; i < o->n; i++) {
		if (i)
			strcat(joined, ";");
		strcat(joined, o->item[i]);
		free(o->item[i]);
	}
	return joined;
}

/* cg_graph_options (how 0), cg_graph_expand (1) or cg_graph_all_options
 * (2) of v for side, written out; *named: how many had a name. */
static const char *
options(cg_vertex v, enum cg_side side, int how, int sort, size_t *named)
{
	struct olist o;

	memset(&o, 0, sizeof o);
	if (how == 0)
		cg_graph_options(g, v, side, collect, &o);
	else if (how == 1)
		cg_graph_expand(g, v, side, collect, &o);
	else {
		struct cg_sum out;
		size_t at = 0, k, nopt;

		cg_sum_init(&out);
		nopt = cg_graph_all_options(g, v, side, &out);
		for (k = 0; k < nopt; k++, at += 1 + out.v[at])
			collect(&o, NULL, out.v + at + 1, out.v[at]);
		if (at != out.n)
			o.item[o.n++] = strdup("BAD LENGTH");
		cg_sum_free(&out);
	}
	if (named)
		*named = o.named;
	return join(&o, sort);
}

static void
test_interning(void)
{
	static const unsigned char key22[] = { 2, 2, '.', '.', '.', '.' };
	static const unsigned char key21[] = { 2, 1, '.', '.' };
	cg_vertex sq, tro, col;
	struct cg_sum s;
	size_t len, before;
	const unsigned char *k;
	struct cg_buf b;

	is_int(cg_graph_count(g), 0, "a new graph has no vertices");
	sq = vert(dom, "..|..");
	is_int(cg_graph_count(g), 1, "the 2x2 board is one vertex");
	ok(vert(dom, "..|..") == sq && cg_graph_count(g) == 1,
	    "the same position again is the same vertex");
	/* grid.h bytes: rows, columns, the cells row by row */
	k = cg_graph_key(g, sq, &len);
	ok(len == sizeof key22 && memcmp(k, key22, len) == 0,
	    "its key is the board's bytes: 2, 2, four empty cells");
	ok(cg_graph_ruleset(g, sq) == dom && cg_graph_doc_node(g, sq) == -1,
	    "its ruleset is domineering; it is no document node");
	/* crop: "#..|#.." is the 2x2 board behind a filled column */
	ok(vert(dom, "#..|#..") == sq, "a cropped board is the same vertex");

	/* the four images of the L tromino under the mirrors and the half
	 * turn are one vertex (Domineering's symmetries) */
	tro = vert(dom, ".#|..");
	ok(vert(dom, "#.|..") == tro && vert(dom, "..|.#") == tro &&
	    vert(dom, "..|#.") == tro, "the L tromino's mirror images are "
	    "one vertex");
	/* a transposition swaps the players: a row is not a column */
	ok(vert(dom, "...") != vert(dom, ".|.|."),
	    "a row and a column are different vertices");
	is_int(cg_graph_count(g), 4, "four vertices so far");

	/* cg_graph_find does not make one; cg_graph_vertex does, once */
	is_int(cg_graph_find(g, dom, key21, sizeof key21), -1,
	    "the column of two is not in the graph yet");
	before = cg_graph_count(g);
	col = cg_graph_vertex(g, dom, key21, sizeof key21);
	ok(cg_graph_find(g, dom, key21, sizeof key21) == (int64_t)col &&
	    cg_graph_count(g) == before + 1, "cg_graph_vertex interns it, "
	    "cg_graph_find then finds it");
	ok(vert(dom, ".|.") == col, "and the parsed column is that vertex");

	/* a sum: the column of two and the 2x2 board, separated by a filled
	 * column; nothing at all for a board without two empty neighbours */
	cg_sum_init(&s);
	comps(dom, "..#.|..#.", &s);
	cg_sum_sort(&s);
	ok(s.n == 2 && s.v[0] == (sq < col ? sq : col) &&
	    s.v[1] == (sq < col ? col : sq),
	    "\"..#.|..#.\" is the sum of the 2x2 board and the column");
	s.n = 0;
	is_int(comps(dom, ".#|#.", &s), 0, "two single cells: no component");
	cg_sum_free(&s);

	cg_buf_init(&b);
	cg_graph_print(g, tro, &b);
	/* the smallest image as bytes, '#' (35) before '.' (46) */
	is_str(cg_buf_str(&b), "#.|..", "the tromino prints as its least "
	    "image");
	cg_buf_free(&b);
}

static void
test_options(void)
{
	cg_vertex sq = vert(dom, "..|.."), six = vert(dom, "...|..."),
	    col = vert(dom, ".|."), row = vert(dom, "..");
	size_t named;
	struct olist o;

	/* Left's dominoes are vertical: column a or b, each leaving a
	 * column of two; Right's horizontal: the bottom or the top row,
	 * each leaving a row of two.  Names: lower or left cell first,
	 * rows counted from the bottom */
	is_str(options(sq, CG_LEFT, 1, 1, NULL), "a1-a2=.|.;b1-b2=.|.",
	    "2x2: Left's options");
	is_str(options(sq, CG_RIGHT, 1, 1, NULL), "a1-b1=..;a2-b2=..",
	    "2x2: Right's options");
	/* 2x3: Left in column a or c leaves the 2x2 board; in column b two
	 * columns of two (the same vertex twice).  Right's four dominoes
	 * leave four images of one board, "...|##." and its mirrors, of
	 * which "##.|..." is the least as bytes */
	is_str(options(six, CG_LEFT, 1, 1, NULL),
	    "a1-a2=..|..;b1-b2=.|.+.|.;c1-c2=..|..", "2x3: Left's options");
	is_str(options(six, CG_RIGHT, 1, 1, NULL), "a1-b1=##.|...;"
	    "a2-b2=##.|...;b1-c1=##.|...;b2-c2=##.|...",
	    "2x3: Right's four options are one vertex");
	/* a column of two: Left's one move leaves nothing (the empty sum);
	 * Right has none.  A row of two: the other way round */
	is_str(options(col, CG_LEFT, 1, 0, NULL), "a1-a2=0",
	    "column: Left's one option is the empty sum");
	is_str(options(col, CG_RIGHT, 1, 0, NULL), "", "column: no option "
	    "for Right");
	ok(cg_graph_has_option(g, col, CG_LEFT) &&
	    !cg_graph_has_option(g, col, CG_RIGHT) &&
	    !cg_graph_has_option(g, row, CG_LEFT) &&
	    cg_graph_has_option(g, row, CG_RIGHT),
	    "has_option: column Left only, row Right only");

	/* a callback that returns non-zero stops the list */
	memset(&o, 0, sizeof o);
	o.stop_at = 1;
	ok(cg_graph_expand(g, six, CG_LEFT, collect, &o) == 1 && o.n == 1,
	    "a stop after the first option: one call, 1 returned");
	join(&o, 0);
	memset(&o, 0, sizeof o);
	ok(cg_graph_expand(g, six, CG_LEFT, collect, &o) == 0 && o.n == 3,
	    "a full list returns 0");
	join(&o, 0);

	/* kept lists: the second cg_graph_options keeps the list and
	 * replays it (no names), as every later one; the same options */
	is_str(options(six, CG_RIGHT, 0, 1, &named), "a1-b1=##.|...;"
	    "a2-b2=##.|...;b1-c1=##.|...;b2-c2=##.|...",
	    "cg_graph_options, first time: from the plugin, named");
	is_str(options(six, CG_RIGHT, 0, 1, &named),
	    "-=##.|...;-=##.|...;-=##.|...;-=##.|...",
	    "second time: the same four, replayed without names");
	is_str(options(six, CG_LEFT, 0, 1, &named), "a1-a2=..|..;"
	    "b1-b2=.|.+.|.;c1-c2=..|..", "Left's, first time: named");
	is_str(options(six, CG_LEFT, 0, 1, &named), "-=..|..;-=..|..;-=.|.+.|.",
	    "Left's second time: replayed");
	is_str(options(six, CG_LEFT, 0, 1, &named), "-=..|..;-=..|..;-=.|.+.|.",
	    "and the third: replayed from the kept list");
	is_str(options(six, CG_LEFT, 2, 1, NULL), "-=..|..;-=..|..;-=.|.+.|.",
	    "cg_graph_all_options: the same three, as [n, v...] records");
	is_str(options(sq, CG_RIGHT, 2, 1, NULL), "-=..;-=..",
	    "cg_graph_all_options of the 2x2 board for Right");
	ok(cg_graph_has_option(g, six, CG_RIGHT), "has_option from a kept "
	    "list");
	cg_graph_cache_limit(g, 0);
	options(sq, CG_LEFT, 0, 1, &named);
	options(sq, CG_LEFT, 0, 1, &named);
	is_int(named, 2, "with no cache, every list comes named from the "
	    "plugin");
}

static void
test_nim(void)
{
	cg_vertex h3 = vert(nim, "3"), h5 = vert(nim, "5");
	struct cg_sum s;
	struct cg_buf b;
	cg_vertex sum[2];

	/* a heap of 3 becomes a heap of 0, 1 or 2 (nim.c names a move
	 * "heap:new size"); impartial: Right's list is Left's */
	is_str(options(h3, CG_LEFT, 1, 0, NULL), "1:0=0;1:1=1;1:2=2",
	    "nim heap 3: Left's options in the plugin's order");
	is_str(options(h3, CG_RIGHT, 1, 0, NULL), "1:0=0;1:1=1;1:2=2",
	    "nim heap 3: Right's the same");
	/* "5+3+5": one vertex per heap, the two 5s the same */
	cg_sum_init(&s);
	comps(nim, "5+3+5", &s);
	ok(s.n == 3 && s.v[0] == h5 && s.v[1] == h3 && s.v[2] == h5,
	    "5+3+5 is heap 5, heap 3, heap 5 (unsorted, as given)");
	cg_sum_free(&s);
	cg_buf_init(&b);
	sum[0] = h3;
	sum[1] = h5;
	cg_graph_print_sum(g, nim, sum, 2, &b);
	is_str(cg_buf_str(&b), "3+5", "a nim sum prints joined by +");
	b.len = 0;
	cg_graph_print_sum(g, nim, sum, 0, &b);
	is_str(cg_buf_str(&b), "0", "the empty nim sum prints as 0");
	cg_buf_free(&b);
}

static void
test_values(void)
{
	cg_vertex sq = vert(dom, "..|.."), col = vert(dom, ".|."),
	    h3 = vert(nim, "3"), l3 = vert(cram, "..|.#");
	size_t i, n = cg_graph_count(g), bad = 0;
	struct cg_move_bounds b1, b2;
	cg_game one = cg_canon_integer(1);
	int r;

	/* every vertex made so far (above, and the children interned by
	 * the expansions) starts with a solver word of 0 */
	for (i = 0; i < n; i++)
		bad += *cg_graph_word(g, (cg_vertex)i) != 0;
	ok(bad == 0 && n > 10, "%zu vertices, every word 0", n);
	*cg_graph_word(g, sq) = 0xdeadbeef;
	ok(*cg_graph_word(g, sq) == 0xdeadbeef && *cg_graph_word(g, col) == 0,
	    "a word set is kept, and is that vertex's only");

	ok(cg_graph_canon(g, sq) == CG_NO_GAME, "no canonical form yet");
	cg_graph_set_canon(g, col, one);
	ok(cg_graph_canon(g, col) == one && cg_graph_canon(g, sq) ==
	    CG_NO_GAME, "a canonical form set is kept (the column is 1)");

	is_int(cg_graph_owner(g, sq), -1, "no owner at first");
	ok(cg_graph_claim(g, sq, 3) == 1, "worker 3 claims it");
	ok(cg_graph_claim(g, sq, 5) == 0 && cg_graph_owner(g, sq) == 3,
	    "worker 5 cannot while 3 holds it");
	cg_graph_release(g, sq);
	ok(cg_graph_owner(g, sq) == -1 && cg_graph_claim(g, sq, 5) == 1,
	    "released, then worker 5 claims it");

	/* order keys: domineering has no order_key, so the key's length
	 * (2 + 4 cells); nim neither (one heap: 4 bytes); cram's counts
	 * the empty cells with an empty neighbour (all 3 of the L) */
	is_int(cg_graph_order(g, sq), 6, "order of the 2x2 board: 6 bytes");
	is_int(cg_graph_order(g, h3), 4, "order of a nim heap: 4 bytes");
	is_int(cg_graph_order(g, l3), 3, "order of cram's L tromino: 3");

	/* move counts: nim has none; the column of two gives Left exactly
	 * one move and Right none, so sure[L] <= 1 <= most[L] and
	 * sure[R] = 0; the kept bounds read back the same */
	is_int(cg_graph_counts(g, h3, &b1), 0, "nim has no move counts");
	memset(&b1, 0, sizeof b1);
	memset(&b2, 0, sizeof b2);
	r = cg_graph_counts(g, col, &b1);
	ok(r == 1 && b1.sure[CG_LEFT] <= 1 &&
	    b1.most[CG_LEFT] >= 1 && b1.sure[CG_RIGHT] == 0,
	    "the column's counts: sure %u/%u, most %u/%u", b1.sure[0],
	    b1.sure[1], b1.most[0], b1.most[1]);
	ok(cg_graph_counts(g, col, &b2) == 1 && memcmp(&b1, &b2,
	    sizeof b1) == 0, "asked again: the same bounds from the graph");
}

static int news;

static void
on_new(void *ctx, struct cg_graph *gr, cg_vertex v)
{
	(void)ctx;
	(void)gr;
	(void)v;
	news++;
}

static void
test_document(void)
{
	struct cg_doc *d = cg_doc_new(), *d2 = cg_doc_new();
	struct cg_buf pos, b;
	uint32_t z, a, bn, pn;
	cg_vertex vz, va, vb, vp, sq = vert(dom, "..|..");
	struct cg_sum s;
	size_t before;

	/* z = { | }, a = { z | }, b = { a, z | a }, all expanded; and a
	 * node given only by the position "..|.." of domineering */
	z = cg_doc_add_node(d, NULL, NULL, 0, "z");
	a = cg_doc_add_node(d, NULL, NULL, 0, "a");
	bn = cg_doc_add_node(d, NULL, NULL, 0, "b");
	cg_doc_add_option(d, a, CG_LEFT, z, "az");
	cg_doc_add_option(d, bn, CG_LEFT, a, "ba");
	cg_doc_add_option(d, bn, CG_LEFT, z, NULL);
	cg_doc_add_option(d, bn, CG_RIGHT, a, "rb");
	d->node[z].expanded = d->node[a].expanded = d->node[bn].expanded = 1;
	cg_buf_init(&pos);
	cg_rs_parse(dom, "..|..", 5, &pos);
	pn = cg_doc_add_node(d, dom, pos.data, pos.len, NULL);
	cg_buf_free(&pos);

	cg_graph_use_doc(g, d);
	cg_graph_on_new_vertex(g, on_new, NULL);
	cg_sum_init(&s);
	before = cg_graph_count(g);
	cg_graph_node(g, z, &s);
	cg_graph_node(g, a, &s);
	cg_graph_node(g, bn, &s);
	cg_graph_node(g, bn, &s);
	cg_graph_node(g, pn, &s);
	ok(s.n == 5 && s.v[2] == s.v[3] && s.v[4] == sq,
	    "a node met twice is one vertex; a node given by a position is "
	    "that position's vertex");
	vz = s.v[0], va = s.v[1], vb = s.v[2], vp = s.v[4];
	ok(cg_graph_count(g) == before + 3 && vz != va && va != vb,
	    "three new vertices for the three nodes");
	is_int(news, 0, "the new-vertex callback is for plugin vertices only");
	ok(cg_graph_doc_node(g, vb) == bn && cg_graph_ruleset(g, vb) == NULL &&
	    cg_graph_doc_node(g, vp) == -1, "a node's vertex knows its index "
	    "and has no ruleset");
	ok(*cg_graph_word(g, vz) == 0 && *cg_graph_word(g, vb) == 0,
	    "document vertices' words start at 0");

	/* options from the lists, in their order, with their names */
	is_str(options(vb, CG_LEFT, 1, 0, NULL), "ba=a;-=z",
	    "b's Left options: a (named ba), z (unnamed)");
	is_str(options(vb, CG_RIGHT, 0, 0, NULL), "rb=a", "b's Right option");
	is_str(options(vb, CG_LEFT, 2, 0, NULL), "-=a;-=z",
	    "cg_graph_all_options of a document node");
	is_str(options(vz, CG_LEFT, 0, 0, NULL), "", "z has no options");
	ok(cg_graph_has_option(g, va, CG_LEFT) &&
	    !cg_graph_has_option(g, va, CG_RIGHT),
	    "has_option: a has a Left option only");
	/* order: the number of options, both sides */
	ok(cg_graph_order(g, vz) == 0 && cg_graph_order(g, va) == 1 &&
	    cg_graph_order(g, vb) == 3, "order keys of z, a, b: 0, 1, 3");
	cg_buf_init(&b);
	cg_graph_print(g, vb, &b);
	is_str(cg_buf_str(&b), "b", "a node's vertex prints its label");

	/* another document: the old nodes' vertices are no longer its;
	 * its node 0 is a new vertex; plugin vertices stay */
	cg_doc_add_node(d2, NULL, NULL, 0, "y");
	d2->node[0].expanded = 1;
	cg_graph_use_doc(g, d2);
	s.n = 0;
	cg_graph_node(g, 0, &s);
	ok(s.n == 1 && s.v[0] != vz && cg_graph_doc_node(g, vz) == -1 &&
	    cg_graph_doc_node(g, s.v[0]) == 0,
	    "in a new document node 0 is a new vertex; the old one is none");
	b.len = 0;
	cg_graph_print(g, vz, &b);
	is_str(cg_buf_str(&b), "?", "an old document's vertex prints as ?");
	ok(vert(dom, "..|..") == sq, "plugin vertices stay across documents");
	is_int(news, 0, "no new plugin vertex was made");
	vert(dom, "....|....");
	is_int(news, 1, "a new plugin vertex calls the callback once");
	cg_buf_free(&b);
	cg_sum_free(&s);
	cg_doc_free(d);
	cg_doc_free(d2);
}

int
main(void)
{
	dom = cg_plugin_get("domineering", 1);
	nim = cg_plugin_get("nim", 1);
	cram = cg_plugin_get("cram", 1);
	g = cg_graph_new();
	test_interning();
	test_options();
	test_nim();
	test_values();
	test_document();
	cg_graph_free(g);
	cg_plugin_unload_all();
	return tap_done();
}
