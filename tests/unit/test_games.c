/*
 * test_games.c - the hooks of the strip, heap and graph rulesets that no
 * tool prints directly: canonical(), decompose(), synch_options(),
 * decided_value() and the cg.heap-rules extension.  Plugins are found in
 * the build's own plugin directory.  Every expected value is derived by
 * hand in the comment next to it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/ruleset.h"
#include "host/plugin.h"
#include "tap.h"

static struct cg_buf outb;

/* Parse text with ruleset spec, apply canonical(), print the result. */
static const char *
canon(const char *spec, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf pos, can;

	cg_buf_init(&pos);
	cg_buf_init(&can);
	cg_buf_free(&outb);
	cg_buf_init(&outb);
	if (cg_rs_parse(p, text, strlen(text), &pos) < 0 ||
	    cg_rs_canonical(p, pos.data, pos.len, &can) < 0 ||
	    cg_rs_print(p, can.data, can.len, &outb) < 0)
		cg_buf_addstr(&outb, "ERROR");
	cg_buf_free(&pos);
	cg_buf_free(&can);
	return cg_buf_str(&outb);
}

struct dec {
	struct cg_plugin *p;
	struct cg_buf *out;
};

static int
dec_emit(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct dec *d = ctx;

	(void)move;
	if (d->out->len)
		cg_buf_addstr(d->out, " + ");
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
	struct dec d = { p, &outb };

	cg_buf_init(&pos);
	cg_buf_free(&outb);
	cg_buf_init(&outb);
	if (cg_rs_parse(p, text, strlen(text), &pos) < 0 ||
	    cg_rs_decompose(p, pos.data, pos.len, dec_emit, &d) < 0)
		cg_buf_addstr(&outb, "ERROR");
	cg_buf_free(&pos);
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
	struct dec d = { p, &outb };

	cg_buf_init(&pos);
	cg_buf_free(&outb);
	cg_buf_init(&outb);
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
	cg_buf_free(&outb);
	cg_buf_init(&outb);
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
test_cutcake(void)
{
	/* 2x2: Left's only cut is after column 1, Right's after row 1;
	 * made together they leave four 1x1 pieces. */
	is_str(joint("cutcake", "2x2"), "0,0:1x1+1x1+1x1+1x1",
	    "cutcake joint cut of one piece");
	/* 1x2+2x1: Left can only cut the first piece (1x1+1x1), Right only
	 * the second (1x1+1x1); independent. */
	is_str(joint("cutcake", "1x2+2x1"), "0,0:1x1+1x1+1x1+1x1",
	    "cutcake joint cuts of two pieces");
	/* 2x3+1x2: Left moves 0,1 cut piece 1 after column 1,2; move 2
	 * cuts piece 2.  Right's one move cuts piece 1 after row 1. */
	is_str(joint("cutcake", "2x3+1x2"),
	    "0,0:1x1+1x2+1x1+1x2+1x2; 1,0:1x2+1x1+1x2+1x1+1x2; "
	    "2,0:1x3+1x3+1x1+1x1", "cutcake joint matrix order");
	/* only one side can move: no joint options */
	is_str(joint("cutcake", "1x5"), "", "cutcake decided has no joints");
	/* decided values: 1x5 Left alone cuts 4 times; 1x3+1x2: 2+1;
	 * 4x1+2x1: Right 3+1 = -4; 1x1: nobody, 0. */
	is_str(decided("cutcake", "1x5"), "4/1", "cutcake decided left");
	is_str(decided("cutcake", "1x3+1x2+1x1"), "3/1", "cutcake decided sum");
	is_str(decided("cutcake", "4x1+2x1"), "-4/1", "cutcake decided right");
	is_str(decided("cutcake", "1x1"), "0/1", "cutcake decided nobody");
	is_str(decided("cutcake", "2x2"), "ERROR", "cutcake undecided refused");
	/* canonical: 1x1 pieces go, the rest sorted (rows, then columns,
	 * descending) */
	is_str(canon("cutcake", "1x1+2x3+1x1+3x1+2x5"), "3x1+2x5+2x3",
	    "cutcake canonical sorts");
	is_str(canon("cutcake", "1x1+1x1"), "1x1", "cutcake canonical empty");
	is_str(decomp("cutcake", "1x1+2x3+1x2"), "2x3 + 1x2",
	    "cutcake decomposes into pieces");
}

/* Nim values of single heaps 0..n of a heap ruleset, by mex over the
 * options the plugin gives (children's heaps XOR-ed). */
struct seq {
	unsigned *g;
	size_t n;
	int err;
};

static int
seq_emit(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct seq *q = ctx;
	unsigned x = 0;
	size_t i;
	uint32_t h;

	(void)move;
	for (i = 0; i + 4 <= len; i += 4) {
		h = (uint32_t)pos[i] | (uint32_t)pos[i + 1] << 8 |
		    (uint32_t)pos[i + 2] << 16 | (uint32_t)pos[i + 3] << 24;
		if (h >= q->n) {
			q->err = 1;
			return 1;
		}
		x ^= q->g[h];
	}
	/* record x in the mex set kept after g[q->n] */
	if (x < 4096)
		q->g[q->n + 1 + x] = 1;
	return 0;
}

static unsigned *
nim_values(const char *spec, size_t upto)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	unsigned *g = calloc(upto + 1 + 4097, sizeof *g);
	struct seq q = { g, 0, 0 };
	struct cg_buf pos;
	char text[32];
	size_t n, x;

	cg_buf_init(&pos);
	for (n = 0; n <= upto; n++) {
		pos.len = 0;
		snprintf(text, sizeof text, "%zu", n);
		q.n = n;
		memset(g + n + 1, 0, 4097 * sizeof *g);
		if (cg_rs_parse(p, text, strlen(text), &pos) < 0 ||
		    cg_rs_options(p, pos.data, pos.len, CG_LEFT, seq_emit,
		    &q) < 0 || q.err) {
			free(g);
			cg_buf_free(&pos);
			return NULL;
		}
		for (x = 0; g[n + 1 + x]; x++)
			;
		g[n] = (unsigned)x;
	}
	cg_buf_free(&pos);
	return g;
}

static char
digit36(unsigned v)
{
	return v < 10 ? (char)('0' + v) : v < 36 ? (char)('A' + v - 10) : '?';
}

/*
 * Every nimber, sequence and sequence-prefix(period) row of the published
 * vectors (tests/vectors/impartial.tsv, read from the source tree: run
 * from the top directory as make check does) for the octal and
 * subtraction rulesets, recomputed by mex from the plugin's options.
 * Prefix(period) rows are checked on the prefix and two periods.
 */
static void
test_heap_vectors(void)
{
	FILE *f = fopen("tests/vectors/impartial.tsv", "r");
	char line[4096], *rs, *pos, *prop, *want, *save;
	int rows = 0, bad = 0;

	if (f == NULL) {
		ok(0, "open tests/vectors/impartial.tsv (run from the top "
		    "directory)");
		return;
	}
	while (fgets(line, sizeof line, f) != NULL) {
		char got[2048];
		unsigned *g;
		size_t n, a = 0, b = 0, k, w = 0;

		if (line[0] == '#')
			continue;
		rs = strtok_r(line, "\t", &save);
		pos = strtok_r(NULL, "\t", &save);
		prop = strtok_r(NULL, "\t", &save);
		want = strtok_r(NULL, "\t\n", &save);
		if (rs == NULL || pos == NULL || prop == NULL || want == NULL)
			continue;
		if (strncmp(rs, "octal:", 6) != 0 &&
		    strncmp(rs, "subtraction:", 12) != 0)
			continue;
		if (strcmp(prop, "nimber") == 0) {
			n = strtoul(pos, NULL, 10);
			g = nim_values(rs, n);
			snprintf(got, sizeof got, "%u", g ? g[n] : 9999);
		} else if (strcmp(prop, "sequence") == 0 &&
		    sscanf(pos, "heaps %zu..%zu", &a, &b) == 2) {
			g = nim_values(rs, b);
			for (k = a; g && k <= b && w + 8 < sizeof got; k++)
				w += (size_t)snprintf(got + w, sizeof got - w,
				    "%s%u", k > a ? "," : "", g[k]);
			got[w] = '\0';
		} else if (strcmp(prop, "sequence-prefix(period)") == 0) {
			char *open = strchr(want, '('), *close = strchr(want, ')');
			size_t pre, per;
			char exp[2048];

			if (open == NULL || close == NULL)
				continue;
			pre = (size_t)(open - want);
			per = (size_t)(close - open - 1);
			n = pre + 2 * per;
			if (n + 1 >= sizeof got)
				continue;
			g = nim_values(rs, n);
			for (k = 0; g && k < n; k++)
				got[k] = digit36(g[k]);
			got[g ? n : 0] = '\0';
			memcpy(exp, want, pre);
			memcpy(exp + pre, open + 1, per);
			memcpy(exp + pre + per, open + 1, per);
			exp[n] = '\0';
			if (strcmp(got, exp) != 0) {
				printf("# %s: got %s\n#  want %s\n", rs, got,
				    exp);
				bad++;
			}
			rows++;
			free(g);
			continue;
		} else
			continue;
		if (strcmp(got, want) != 0) {
			printf("# %s %s %s: got %s, want %s\n", rs, pos, prop,
			    got, want);
			bad++;
		}
		rows++;
		free(g);
	}
	fclose(f);
	printf("# %d heap vector rows checked\n", rows);
	ok(rows > 100 && bad == 0, "published nim values of octal and "
	    "subtraction games (%d rows, %d wrong)", rows, bad);
}

static const struct cg_heap_rules *
rules(const char *spec)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);

	if (!CG_HAS_HOOK(p, extension))
		return NULL;
	return p->rs->extension(&p->cx, CG_EXT_HEAP_RULES);
}

static const void *
impartial_ext(const char *spec)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);

	return p->rs->extension(&p->cx, CG_EXT_IMPARTIAL);
}

static void
test_heap_rules(void)
{
	const struct cg_heap_rules *r;

	/* 0.77: D1 = D2 = 7 = take all (1), leave one heap (2), leave two
	 * (4); nothing above 2. */
	r = rules("octal:0.77");
	ok(r && r->max_take == 2 && r->mask[0] == 0 && r->mask[1] == 7 &&
	    r->mask[2] == 7 && r->tail_mask == 0 && r->flags[1] == 0,
	    "heap rules of 0.77");
	/* 4!.0: D0 = 4 (split into two) with '!': unequal heaps. */
	r = rules("octal:4!.0");
	ok(r && r->max_take == 1 && r->mask[0] == 4 &&
	    r->flags[0] == CG_HEAP_UNEQUAL && r->mask[1] == 0,
	    "heap rules of 4!.0");
	/* 0.[3]: Nim, every take may leave 0 or 1 heap: tail 3. */
	r = rules("octal:0.[3]");
	ok(r && r->max_take == 0 && r->tail_mask == 3, "heap rules of 0.[3]");
	/* 0.1[37]: a period of two digits does not fit the data. */
	ok(rules("octal:0.1[37]") == NULL, "no heap rules for long periods");
	/* 0.7?: '?' (not all equal) has no flag. */
	ok(rules("octal:0.7?") == NULL, "no heap rules for '?'");
	/* subtraction 2,3,7: takes 2, 3, 7 leave 0 or 1 heap. */
	r = rules("subtraction:2,3,7");
	ok(r && r->max_take == 7 && r->mask[2] == 3 && r->mask[3] == 3 &&
	    r->mask[7] == 3 && r->mask[1] == 0 && r->mask[4] == 0 &&
	    r->tail_mask == 0, "heap rules of subtraction:2,3,7");
	ok(rules("subtraction:1,3/2") == NULL, "partizan: no heap rules");
	ok(impartial_ext("subtraction:3,1/1,3") != NULL,
	    "equal sets are impartial");
	ok(impartial_ext("subtraction:1,3/2") == NULL,
	    "different sets are partizan");
	ok(impartial_ext("octal:0.77") != NULL, "octal is impartial");
	/* canonical: heaps without moves dropped.  In 0.07 a heap of 1
	 * has none (D1 = 0; D2 = 7 needs two counters). */
	is_str(canon("octal:0.07", "1+5+1+3"), "5+3", "octal canonical");
	is_str(canon("octal:0.07", "1+1"), "0", "octal canonical empty");
	is_str(decomp("octal:0.07", "1+5+1+3"), "5 + 3", "octal decompose");
	/* subtraction 2/3: heaps of 1 are dead for both. */
	is_str(canon("subtraction:2/3", "1+2+7"), "7+2",
	    "subtraction canonical");
}

static void
test_chomp(void)
{
	/* 3x1 (three rows of one) is the transpose of 1x3: fewer rows */
	is_str(canon("chomp", "1,1,1"), "1x3", "chomp canonical transposes");
	is_str(canon("chomp", "1x3"), "1x3", "chomp canonical keeps");
	/* [3,1] has transpose [2,1,1]: keep [3,1] (two rows) */
	is_str(canon("chomp", "2,1,1"), "3,1", "chomp canonical diagram");
	/* [2,1] is self-conjugate; [3,1,1] vs its transpose [3,1,1] */
	is_str(canon("chomp", "2,1"), "2,1", "chomp self-transpose");
	/* equal row counts: [3,2,2] has transpose [3,3,1]; the smaller
	 * list comes first at the second row: 2 < 3 */
	is_str(canon("chomp", "3,3,1"), "3,2,2", "chomp canonical tie");
	is_str(canon("chomp", "3,2,2"), "3,2,2", "chomp canonical tie kept");
}

/* Parse text, print, parse again: the bytes and the printed text must
 * agree; canonical() applied twice gives the same bytes. */
static int
graph_roundtrip(const char *spec, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf a, b, t1, t2, c1, c2;
	int good;

	cg_buf_init(&a);
	cg_buf_init(&b);
	cg_buf_init(&t1);
	cg_buf_init(&t2);
	cg_buf_init(&c1);
	cg_buf_init(&c2);
	good = cg_rs_parse(p, text, strlen(text), &a) == 0 &&
	    cg_rs_print(p, a.data, a.len, &t1) == 0 &&
	    cg_rs_parse(p, (char *)t1.data, t1.len, &b) == 0 &&
	    cg_rs_print(p, b.data, b.len, &t2) == 0 &&
	    a.len == b.len && memcmp(a.data, b.data, a.len) == 0 &&
	    t1.len == t2.len && memcmp(t1.data, t2.data, t1.len) == 0 &&
	    cg_rs_canonical(p, a.data, a.len, &c1) == 0 &&
	    cg_rs_canonical(p, c1.data, c1.len, &c2) == 0 &&
	    c1.len == c2.len && memcmp(c1.data, c2.data, c1.len) == 0;
	if (!good)
		printf("# round trip failed: %s -> %s\n", text,
		    cg_buf_str(&t1));
	cg_buf_free(&a);
	cg_buf_free(&b);
	cg_buf_free(&t1);
	cg_buf_free(&t2);
	cg_buf_free(&c1);
	cg_buf_free(&c2);
	return good;
}

static void
test_graphs(void)
{
	char text[8192];
	unsigned seed = 12345;
	int trial, n, i, j, w, bad = 0;

	/* random graphs written as named vertices and edges between names */
	for (trial = 0; trial < 300; trial++) {
		seed = seed * 1103515245u + 12345u;
		n = 1 + (int)(seed >> 16) % 14;
		w = 0;
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			w += snprintf(text + w, sizeof text - (size_t)w,
			    "%s%c:{v%d}", i ? "+" : "", ".LR"[(seed >> 16) % 3],
			    i);
		}
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				seed = seed * 1103515245u + 12345u;
				if ((seed >> 16) % 4 == 0)
					w += snprintf(text + w,
					    sizeof text - (size_t)w,
					    "+:{v%d}-:{v%d}", i, j);
			}
		bad += !graph_roundtrip(trial % 2 ? "col" : "snort", text);
	}
	ok(bad == 0, "300 random graphs: parse(print(p)) == p, canonical "
	    "idempotent");
	/* a path read from either end, a cycle from any vertex: one class */
	{
		char *x = strdup(canon("col", ".-L-.-R"));

		is_str(canon("col", "R-.-L-."), x, "col canon mirror path");
		free(x);
		x = strdup(canon("snort", ":A-L-.-R-:A"));
		is_str(canon("snort", "L:A-.-R-.-:A"), x,
		    "snort canon rotated cycle");
		free(x);
	}
	/* components sorted, each at its least numbering */
	is_str(decomp("col", "L-R+.+.-.-."), "L-R + . + .-.-.",
	    "col components");
	/* CGSuite's tree syntax: trunk of 2 edges, branches of 1, 2, 3 */
	{
		char *x = strdup(canon("col", "--(-;--;---)"));

		is_str(canon("col", "--(---;-;--)"), x, "col tree canon");
		free(x);
	}
}

static int
count_emit(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct dec *d = ctx;

	(void)move;
	if (d->out->len)
		cg_buf_addstr(d->out, " ");
	if (cg_rs_print(d->p, pos, len, d->out) < 0)
		cg_buf_addstr(d->out, "ERROR");
	return 0;
}

/* enumerate(family), printed positions joined by spaces */
static const char *
family(const char *spec, const char *fam)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct dec d = { p, &outb };

	cg_buf_free(&outb);
	cg_buf_init(&outb);
	if (cg_rs_enumerate(p, fam, count_emit, &d) < 0)
		cg_buf_addstr(&outb, "ERROR");
	return cg_buf_str(&outb);
}

static void
test_families(void)
{
	/* toads "2": the 9 strips of two squares, '.' < 'f' < 't' */
	is_str(family("toads", "2"), ".. .f .t f. ff ft t. tf tt",
	    "toads family 2");
	/* cutcake "2x2": pieces 1x1 1x2 2x1 2x2 */
	is_str(family("cutcake", "2x2"), "1x1 1x2 2x1 2x2",
	    "cutcake family 2x2");
	/* chomp "2x2": C(4,2) - 1 = 5 diagrams */
	is_str(family("chomp", "2x2"), "1x1 2x1 1x2 2,1 2x2",
	    "chomp family 2x2");
	is_str(family("octal:0.77", "3"), "1 2 3", "octal family 3");
	is_str(family("subtraction:1/2", "2"), "1 2", "subtraction family 2");
	is_str(family("chomp", "3"), "ERROR", "chomp bad family");
	is_str(family("toads", "0"), "ERROR", "toads bad family");
}

static void
test_toads(void)
{
	/* "ttff" is frozen whatever surrounds it: each creature faces a
	 * square that stays occupied and cannot jump its own kind or two
	 * creatures.  So t.ttff.f = t. + .f, and the frozen ends go. */
	is_str(decomp("toads", "t.ttff.f"), "t. + .f", "toads wall splits");
	is_str(canon("toads", "t.ttff.f"), "t.ttff.f", "toads canon keeps wall");
	/* ft..tf: the leading f (nothing left of it) is frozen; the last
	 * f is not (it can jump the t at 5 into square 4), so only the
	 * front goes. */
	is_str(decomp("toads", "ft..tf"), "t..tf", "toads frozen end stripped");
	/* ft..t: now the last t is frozen (edge) too. */
	is_str(decomp("toads", "ft..t"), "t..", "toads frozen ends stripped");
	/* tff: t blocked by two frogs, frogs blocked by the t and the
	 * edge: all frozen, nothing left. */
	is_str(decomp("toads", "tff"), "", "toads all frozen");
	is_str(canon("toads", "tff"), ".", "toads canon of dead strip");
	/* t.f: nothing frozen (the toad can slide). */
	is_str(decomp("toads", "t.f"), "t.f", "toads live strip");
	/* tf.t: t at 1 can jump f?  t(0) f(1) .(2): yes, so nothing at
	 * the left is frozen; the last t is frozen (edge) and stripped. */
	is_str(decomp("toads", "tf.t"), "tf.", "toads trailing toad");
	/* A single frozen f between live parts can be jumped: no split.
	 * t.f.ff: f(2) may slide; the last "ff" are not frozen because
	 * f(4) can slide into 3.  Keep whole. */
	is_str(decomp("toads", "t.f.ff"), "t.f.ff", "toads no false split");
	/* long frozen run replaced by ttff: ..tttfff.. -> t at 2 blocked
	 * by t, t at 4 faces f(5) with f(6) beyond: frozen; likewise the
	 * frogs; the ends ".." are separate segments of empty squares. */
	is_str(canon("toads", "t.tttfff.f"), "t.ttff.f", "toads wall normalised");
	is_str(canon("toads", "t.ttff.f"), "t.ttff.f",
	    "toads canon idempotent on walls");
}

int
main(void)
{
	cg_buf_init(&outb);
	test_toads();
	test_cutcake();
	test_heap_vectors();
	test_heap_rules();
	test_chomp();
	test_graphs();
	test_families();
	cg_buf_free(&outb);
	cg_plugin_unload_all();
	return tap_done();
}
