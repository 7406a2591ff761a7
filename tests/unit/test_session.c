/* test_session.c - a session of the search engines (solve/session.c):
 * the value kinds; one solver per ruleset; every kind's value against the
 * published heap-game rows of tests/vectors/impartial.tsv (outcomes
 * derived from them: P exactly when the nim value is 0); knowledge-base
 * answers (a fake base written here, whose lies show where they are
 * used); the options of a root with their values; -D databases, saved,
 * loaded and checked; and the fatal errors (in a child process).  Plugins
 * come from the build's plugin directory; the vectors are read from the
 * source tree (run from the top directory, as make check does).  Values
 * not from the vectors are derived by hand in the comment next to them. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "solve/session.h"
#include "tap.h"

static struct cg_buf out;

/* The value of kind for a position given as text, as a string. */
static const char *
val(struct cg_session *se, const char *spec, enum cg_kind kind,
    const char *text)
{
	struct cg_plugin *rs = cg_plugin_get(spec, 1);
	struct cg_solver *s = cg_session_solver(se, rs);
	struct cg_buf pos;
	uint32_t *ids;
	size_t n;

	cg_buf_init(&pos);
	out.len = 0;
	if (cg_rs_parse(rs, text, strlen(text), &pos) < 0)
		abort();
	n = cg_solver_components(s, pos.data, pos.len, &ids);
	if (cg_session_value(se, s, kind, ids, n, &out, "t", 1) < 0)
		cg_buf_addstr(&out, "STOPPED");
	free(ids);
	cg_buf_free(&pos);
	return cg_buf_str(&out);
}

/* The kinds' names read back; a nim value, misere or not, and the genus
 * need an impartial game, outcomes do not. */
static void
test_kinds(void)
{
	static const char *const names[] = { "outcome", "misere", "nimber",
	    "misere-nimber", "genus" };
	enum cg_kind k;
	int i, good = cg_kind_parse("nimbers", &k) < 0;

	for (i = 0; i < 5; i++)
		good &= strcmp(cg_kind_name((enum cg_kind)i), names[i]) == 0 &&
		    cg_kind_parse(names[i], &k) == 0 && k == (enum cg_kind)i &&
		    cg_kind_impartial(k) == (i >= 2);
	ok(good, "the five kinds: names, parsing, which are impartial");
}

/* Every nimber, misere-nimber and genus row of impartial.tsv, through
 * one session; from each nim value also the outcome (P exactly when it
 * is 0, normal or misere play).  One check per kind. */
static void
test_vectors(struct cg_session *se)
{
	FILE *f = fopen("tests/vectors/impartial.tsv", "r");
	char line[4096], *rs, *pos, *prop, *want, *save;
	int rows[5] = { 0 }, bad[5] = { 0 }, i;
	enum cg_kind k;

	if (f == NULL) {
		ok(0, "open tests/vectors/impartial.tsv (run from the top "
		    "directory)");
		return;
	}
	while (fgets(line, sizeof line, f) != NULL) {
		rs = strtok_r(line, "\t", &save);
		pos = strtok_r(NULL, "\t", &save);
		prop = strtok_r(NULL, "\t", &save);
		want = strtok_r(NULL, "\t\n", &save);
		if (line[0] == '#' || want == NULL ||
		    cg_kind_parse(prop, &k) < 0 || !cg_kind_impartial(k))
			continue;
		rows[k]++;
		if (strcmp(val(se, rs, k, pos), want) != 0) {
			printf("# %s %s %s: got %s, want %s\n", rs, pos, prop,
			    cg_buf_str(&out), want);
			bad[k]++;
		}
		if (k == CG_KIND_GENUS)
			continue;
		k = k == CG_KIND_NIMBER ? CG_KIND_OUTCOME : CG_KIND_MISERE;
		rows[k]++;
		if (strcmp(val(se, rs, k, pos), strcmp(want, "0") ? "N" :
		    "P") != 0) {
			printf("# %s %s %s: got %s, nim value %s\n", rs, pos,
			    cg_kind_name(k), cg_buf_str(&out), want);
			bad[k]++;
		}
	}
	fclose(f);
	for (i = 0; i < 5; i++)
		ok(rows[i] >= 40 && bad[i] == 0, "%s: %d published rows%s",
		    cg_kind_name((enum cg_kind)i), rows[i], i < 2 ?
		    " (from the nim values)" : "");
}

/* A fake knowledge base: every question is noted; it answers (wrongly,
 * so that its answers show) nim value 3 for cram's row of four, and the
 * canonical form 1 for clobber's "ox" (which is *). */
static char asked[4096];

static int
known(void *ctx, struct cg_plugin *rs, const unsigned char *key, size_t len,
    const char *kind, struct cg_buf *o)
{
	struct cg_buf t;
	const char *v = NULL;

	(void)ctx;
	cg_buf_init(&t);
	cg_rs_print(rs, key, len, &t);
	if (strlen(asked) + t.len + 64 < sizeof asked)
		sprintf(asked + strlen(asked), "%s%s %s %s", asked[0] ? "; " :
		    "", rs->name, kind, cg_buf_str(&t));
	if (strcmp(rs->name, "cram") == 0 && strcmp(kind, "nimber") == 0 &&
	    strcmp(cg_buf_str(&t), "....") == 0)
		v = "3";
	if (strcmp(rs->name, "clobber") == 0 && strcmp(kind, "canon") == 0 &&
	    strcmp(cg_buf_str(&t), "ox") == 0)
		v = "1";
	if (v != NULL)
		cg_buf_addstr(o, v);
	cg_buf_free(&t);
	return v != NULL;
}

static void
test_known(void)
{
	struct cg_session_options o;
	struct cg_session *se;
	struct cg_plugin *cram = cg_plugin_get("cram", 1);
	struct cg_buf pos;

	memset(&o, 0, sizeof o);
	o.known = known;
	se = cg_session_new(&o);
	/* the row of four is worth *2 (Dawson's Kayles, OEIS A002187);
	 * the base says 3, and the session takes its word */
	is_str(val(se, "cram", CG_KIND_NIMBER, "...."), "3",
	    "a nim value from the knowledge base is used");
	/* "....#..": the row of four and a row of two (*1): 3 xor 1 */
	is_str(val(se, "cram", CG_KIND_NIMBER, "....#.."), "2",
	    "and it is added to the others' in a sum");
	ok(strstr(asked, "cram nimber ....") != NULL &&
	    strstr(asked, "cram canon") == NULL,
	    "an impartial ruleset's components are asked their nim value "
	    "only (%s)", asked);
	/* clobber "xo.ox": two dominoes of opposite stones; in each
	 * either player takes the other's stone and leaves a lone stone:
	 * {0|0} = *, and * + * = 0, P.  With the base's 1 for each: 2, L */
	asked[0] = '\0';
	is_str(val(se, "clobber", CG_KIND_OUTCOME, "xo.ox"), "L",
	    "a partizan component's form from the base is used");
	ok(strstr(asked, "clobber canon ox") != NULL,
	    "a partizan ruleset's components are asked their form");

	/* whole roots: the canonical key, the kind's name */
	cg_buf_init(&pos);
	cg_rs_parse(cram, "#....", 5, &pos);
	asked[0] = '\0';
	out.len = 0;
	ok(cg_session_kb_value(se, CG_KIND_NIMBER, cram, pos.data, pos.len,
	    &out) == 1 && strcmp(cg_buf_str(&out), "3") == 0 &&
	    strcmp(asked, "cram nimber ....") == 0,
	    "a root's value straight from the base, by its canonical key");
	asked[0] = '\0';
	ok(cg_session_kb_value(se, CG_KIND_MISERE_NIMBER, cram, pos.data,
	    pos.len, &out) == 0 && cg_session_kb_value(se, CG_KIND_GENUS,
	    cram, pos.data, pos.len, &out) == 0 && asked[0] == '\0',
	    "misere nim values and genera are not asked of the base");
	ok(cg_session_kb_value(se, CG_KIND_OUTCOME, cram, NULL, 0, &out) == 0,
	    "nor a root without a position");
	cg_session_free(se);
	o.check = 1;
	se = cg_session_new(&o);
	ok(cg_session_kb_value(se, CG_KIND_NIMBER, cram, pos.data, pos.len,
	    &out) == 0, "in check mode no root is taken from the base");
	cg_session_free(se);
	o.check = 0;
	o.known = NULL;
	se = cg_session_new(&o);
	ok(cg_session_kb_value(se, CG_KIND_NIMBER, cram, pos.data, pos.len,
	    &out) == 0, "without a base, no root is known");
	is_str(val(se, "cram", CG_KIND_NIMBER, "...."), "2",
	    "without it the row of four is *2");
	is_str(val(se, "clobber", CG_KIND_OUTCOME, "xo.ox"), "P",
	    "and clobber's \"xo.ox\" is P");
	cg_session_free(se);
	cg_buf_free(&pos);
}

/* cg_session_children's calls, written out sorted. */
static char kids[64][96];
static int nkids;

static void
child(void *ctx, int side, const char *move, const char *text,
    const char *value)
{
	(void)ctx;
	snprintf(kids[nkids++], sizeof kids[0], "%c %s %s %s",
	    side ? 'R' : 'L', move, text, value);
}

static int
cmp_kid(const void *a, const void *b)
{
	return strcmp(a, b);
}

static const char *
children(struct cg_session *se, struct cg_solver *s, enum cg_kind kind,
    struct cg_doc *d, uint32_t x)
{
	const struct cg_node *nd = &d->node[x];
	uint32_t *ids;
	size_t n = nd->expanded ? cg_solver_node(s, x, &ids) :
	    cg_solver_components(s, nd->pos, nd->poslen, &ids);
	int i;

	nkids = 0;
	out.len = 0;
	if (cg_session_children(se, s, kind, d, x, ids, n, child, NULL) < 0)
		cg_buf_addstr(&out, "STOPPED");
	qsort(kids, (size_t)nkids, sizeof kids[0], cmp_kid);
	for (i = 0; i < nkids; i++)
		cg_buf_addf(&out, "%s%s", i ? "; " : "", kids[i]);
	free(ids);
	return cg_buf_str(&out);
}

static void
test_children(void)
{
	struct cg_session_options o;
	struct cg_session *se;
	struct cg_plugin *dom = cg_plugin_get("domineering", 1),
	    *nim = cg_plugin_get("nim", 1);
	struct cg_doc *d = cg_doc_new(), *t = cg_doc_new();
	struct cg_buf pos;
	struct cg_solver *s;
	uint32_t r6, r3, z, a, b;

	/* the session's --search reaches its solvers */
	memset(&o, 0, sizeof o);
	if (cg_search_parse("bits", &o.search) < 0)
		abort();
	se = cg_session_new(&o);
	s = cg_session_solver(se, dom);
	ok(cg_session_solver(se, dom) == s && cg_session_solver(se, nim) !=
	    s && cg_solver_plugin(s) == dom,
	    "one solver per ruleset, kept for the session");
	cg_buf_init(&pos);
	cg_rs_parse(dom, "...|...", 7, &pos);
	r6 = cg_doc_add_node(d, dom, pos.data, pos.len, NULL);
	pos.len = 0;
	cg_rs_parse(nim, "3", 1, &pos);
	r3 = cg_doc_add_node(d, nim, pos.data, pos.len, NULL);
	cg_buf_free(&pos);
	/* "...|...": Left in column a or c leaves the 2x2 board, {1|-1}:
	 * N; in column b two columns of two, 1 + 1 = 2: L.  Right's four
	 * dominoes leave "...|##." and its images: Left can only move to
	 * "..", -1; Right to ".|." (1) or to two single cells (0); so
	 * {-1|0} = -1/2: R.  Names: lower or left cell first, row 1 at the
	 * bottom; texts: the plugin's, uncropped */
	is_str(children(se, s, CG_KIND_OUTCOME, d, r6), "L a1-a2 #..|#.. N; "
	    "L b1-b2 .#.|.#. L; L c1-c2 ..#|..# N; R a1-b1 ...|##. R; "
	    "R a2-b2 ##.|... R; R b1-c1 ...|.## R; R b2-c2 .##|... R",
	    "the options of \"...|...\" with their "
	    "outcomes, Left's and Right's");
	ok(cg_solver_bits_peak(s) > 0, "found by the bit search, as the "
	    "session was asked");
	/* a heap of 3: to 0, 1 or 2, worth *0, *1, *2; impartial, so one
	 * side only */
	is_str(children(se, cg_session_solver(se, nim), CG_KIND_NIMBER, d,
	    r3), "L 1:0 0 0; L 1:1 1 1; L 1:2 2 2",
	    "the options of nim heap 3 with their nim values, once");

	/* a tree: z = { | } = 0, a = { z | } = 1, b = { a, z | a };
	 * b's options: a (L), z (P) for Left, a (L) for Right; document
	 * names, "-" for none, the children's labels */
	z = cg_doc_add_node(t, NULL, NULL, 0, "z");
	a = cg_doc_add_node(t, NULL, NULL, 0, "a");
	b = cg_doc_add_node(t, NULL, NULL, 0, "b");
	cg_doc_add_option(t, a, CG_LEFT, z, NULL);
	cg_doc_add_option(t, b, CG_LEFT, a, "ba");
	cg_doc_add_option(t, b, CG_LEFT, z, NULL);
	cg_doc_add_option(t, b, CG_RIGHT, a, "rb");
	t->node[z].expanded = t->node[a].expanded = t->node[b].expanded = 1;
	is_str(children(se, cg_session_doc_solver(se, t), CG_KIND_OUTCOME, t,
	    b), "L - z P; L ba a L; R rb a L",
	    "the options of a document node with their outcomes");
	cg_session_free(se);
	cg_doc_free(d);
	cg_doc_free(t);
}

static char tmpdir[] = "/tmp/test_session.XXXXXX", text[8192];

/* Write a file; read one into text[], up to its first line with one
 * set: a message then prints on one TAP line. */
static void
write_file(const char *path, const char *t)
{
	FILE *f = fopen(path, "w");

	fputs(t, f);
	fclose(f);
}

static char *
read_file(const char *path, int one_line)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;

	text[n] = '\0';
	if (f)
		fclose(f);
	if (one_line)
		text[strcspn(text, "\n")] = '\0';
	return text;
}

/* cg_session_check's count; its report's first line in text[]. */
static size_t
check(struct cg_session *se)
{
	char path[64];
	int fd, saved = dup(2);
	size_t n;

	snprintf(path, sizeof path, "%s/stderr", tmpdir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, 2);
	n = cg_session_check(se);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	read_file(path, 1);
	unlink(path);
	return n;
}

static void
test_databases(void)
{
	struct cg_session_options o;
	struct cg_session *se;
	char db[64];
	const char *dbs[1] = { db };
	long n;

	memset(&o, 0, sizeof o);
	o.kind = CG_KIND_NIMBER;
	o.db = dbs;
	o.ndb = 1;
	/* a missing first database is an empty one; saved, it holds what
	 * was found: the row of four is *2, the row of two *1 (the row of
	 * four's moves leave a row of two, or two single cells: mex{1,0}) */
	snprintf(db, sizeof db, "%s/new.spr", tmpdir);
	se = cg_session_new(&o);
	is_str(val(se, "cram", CG_KIND_NIMBER, "...."), "2", "cram row of "
	    "four with a new database: *2");
	n = cg_session_save(se);
	ok(n >= 2 && strncmp(read_file(db, 0), "[Positions+Nimber]\n", 19) ==
	    0 && strstr(text, "\n.... 2\n") != NULL &&
	    strstr(text, "\n.. 1\n") != NULL,
	    "saved: %ld entries, the header, .... 2 and .. 1", n);
	cg_session_free(se);
	unlink(db);

	/* a database read in is believed (here a wrong entry) */
	snprintf(db, sizeof db, "%s/lie.spr", tmpdir);
	write_file(db, "[Positions+Nimber]\n.... 3\n");
	se = cg_session_new(&o);
	is_str(val(se, "cram", CG_KIND_NIMBER, "....#.."), "2",
	    "a database's *3 for the row of four is used: 3 xor 1");
	cg_session_free(se);
	/* in check mode it only guides; the wrong entry is named */
	o.check = 1;
	se = cg_session_new(&o);
	is_str(val(se, "cram", CG_KIND_NIMBER, "...."), "2",
	    "check mode finds the row of four's true value");
	is_int(check(se), 1, "one wrong database entry");
	ok(strstr(text, "wrong database entry: '....' has nimber 2, not 3") !=
	    NULL, "named: %s", text);
	is_int(cg_session_save(se), 0, "nothing is saved in check mode");
	cg_session_free(se);
	unlink(db);
	write_file(db, "[Positions+Nimber]\n.... 2\n.. 1\n");
	se = cg_session_new(&o);
	val(se, "cram", CG_KIND_NIMBER, "....");
	is_int(check(se), 0, "a right database checks clean");
	cg_session_free(se);
	unlink(db);
}

/* The fatal errors, each in a child process: its exit status, and its
 * standard error's first line in text[].  1: a nim value of a partizan
 * game.  2: Dawson's Kayles (octal 0.07) turns periodic (period 34)
 * only past heap 50 (Winning Ways), so no period can be proven from the
 * heaps up to 8, the limit set here: heap 100's value is unknown. */
static int
fatal(int which)
{
	struct cg_session_options o;
	char path[64];
	int status, fd;
	pid_t pid;

	snprintf(path, sizeof path, "%s/stderr", tmpdir);
	fflush(stdout);
	if ((pid = fork()) == 0) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 2);
		memset(&o, 0, sizeof o);
		o.heap_limit = 8;
		if (which == 1)
			val(cg_session_new(&o), "domineering", CG_KIND_NIMBER,
			    "..|..");
		else
			val(cg_session_new(&o), "octal:0.07", CG_KIND_NIMBER,
			    "100");
		_exit(0);
	}
	waitpid(pid, &status, 0);
	read_file(path, 1);
	unlink(path);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void
test_fatal(void)
{
	is_int(fatal(1), 1, "a nim value of a partizan game: exit 1");
	is_str(text, "test_session: t:1: -n needs an impartial game",
	    "the message, at file:line");
	is_int(fatal(2), 1, "a heap past the limit with no period known: "
	    "exit 1");
	ok(strncmp(text, "test_session: t:1: nim value of heap 100 unknown",
	    48) == 0, "the heap named at file:line: %s", text);
}

int
main(void)
{
	struct cg_session_options o;
	struct cg_session *se;

	cg_setprogname("test_session");
	if (mkdtemp(tmpdir) == NULL)
		return 1;
	test_kinds();
	memset(&o, 0, sizeof o);
	se = cg_session_new(&o);
	test_vectors(se);
	cg_session_free(se);
	test_known();
	test_children();
	test_databases();
	test_fatal();
	rmdir(tmpdir);
	cg_buf_free(&out);
	cg_plugin_unload_all();
	return tap_done();
}
