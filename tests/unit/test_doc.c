/*
 * test_doc.c - libcore's cgt reader and writer (doc.h), without the tools:
 * building a document in memory, the exact bytes written (children before
 * parents, escaping), reading back, concatenation, gzip, bare positions,
 * fatal errors (caught through cg_exit_hook), version 2 with cycles.
 * Expected texts are written out by hand from cgt(5).
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "format/doc.h"
#include "tap.h"
#include "base/util.h"

static jmp_buf jump;
static int died;

static void
hook(int status)
{
	died = status;
	longjmp(jump, 1);
}

static int
memfile(const char *text)
{
	int fd = memfd_create("test", 0);
	size_t len = strlen(text);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		abort();
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static char *
written(const struct cg_doc *d)
{
	char *text = NULL;
	size_t len;
	FILE *fp = open_memstream(&text, &len);

	cg_doc_write(fp, d);
	fclose(fp);
	return text;
}

/* Read text as documents; return the status of a fatal error, or 0. */
static int
read_fails(const char *text)
{
	struct cg_reader *volatile r;
	struct cg_doc *d;

	died = 0;
	r = cg_reader_open_fd(memfile(text), "t", NULL);
	if (setjmp(jump) == 0)
		while ((d = cg_reader_next(r)) != NULL)
			cg_doc_free(d);
	cg_reader_close(r);   /* also frees a half-read document */
	return died;
}

int
main(void)
{
	struct cg_doc *d, *e;
	struct cg_reader *r;
	struct cg_buf b;
	uint32_t top, mid, leaf;
	char *text;
	FILE *err;

	cg_setprogname("test_doc");
	cg_exit_hook = hook;
	/* the fatal messages are not under test here */
	err = freopen("/dev/null", "w", stderr);
	(void)err;

	/* escaping */
	cg_buf_init(&b);
	cg_escape(&b, "a%b\tc\nd\re f");
	is_str(cg_buf_str(&b), "a%25b%09c%0Ad%0De f", "escaping of %%, TAB, LF, CR");
	cg_buf_free(&b);

	/* a document built parent first is written children first */
	d = cg_doc_new();
	top = cg_doc_add_node(d, NULL, NULL, 0, "top\tnode");
	mid = cg_doc_add_node(d, NULL, NULL, 0, NULL);
	leaf = cg_doc_add_node(d, NULL, NULL, 0, "100%");
	cg_doc_add_option(d, top, CG_LEFT, mid, "m1");
	cg_doc_add_option(d, top, CG_RIGHT, leaf, NULL);
	cg_doc_add_option(d, mid, CG_LEFT, leaf, NULL);
	cg_doc_add_joint(d, top, 0, 0, leaf);
	d->node[top].expanded = 1;
	cg_doc_annotate(d, top, "canon", "old");
	cg_doc_annotate(d, top, "note", "a\tb");
	cg_doc_annotate(d, top, "canon", "{1|0}");
	cg_doc_add_root(d, top);
	is_int(d->node[top].id, 1, "ids are given from 1");
	is_int(d->node[leaf].id, 3, "in order of addition");
	is_str(cg_doc_annotation(d, top, "canon"), "{1|0}",
	    "annotating a key again replaces its value");
	ok(cg_doc_annotation(d, top, "nimber") == NULL, "absent annotation");
	is_int(cg_doc_find(d, 2), mid, "find by id");
	is_int(cg_doc_find(d, 9), -1, "find an absent id");
	text = written(d);
	is_str(text,
	    "cgt\t1\n"
	    "ruleset\t\n"
	    "N\t3\t100%25\n"
	    "N\t2\n"
	    "L\t2\t3\n"
	    "N\t1\ttop%09node\n"
	    "L\t1\t2\tm1\n"
	    "R\t1\t3\n"
	    "J\t1\t0\t0\t3\n"
	    "E\t1\n"
	    "A\t1\tcanon\t{1|0}\n"
	    "A\t1\tnote\ta%09b\n"
	    "root\t1\n"
	    "end\n", "written children first, escaped, annotations in order");

	cg_buf_init(&b);
	cg_doc_root_label(d, top, &b);
	cg_doc_root_label(d, mid, &b);
	is_str(cg_buf_str(&b), "top%09node#2", "root labels: escaped text or #ID");
	cg_buf_free(&b);

	/* read back: the same structure, and the same bytes again */
	r = cg_reader_open_fd(memfile(text), "mem", NULL);
	e = cg_reader_next(r);
	ok(e != NULL, "reads back");
	is_int(e->n, 3, "three nodes");
	is_int(e->nroot, 1, "one root");
	is_int(e->node[e->root[0]].id, 1, "root is node 1");
	is_str(e->node[e->root[0]].text, "top\tnode", "text unescaped");
	is_int(e->node[e->root[0]].nopt[CG_LEFT], 1, "one Left option");
	is_str(e->node[e->root[0]].opt[CG_LEFT][0].move, "m1", "move name");
	is_int(e->node[e->node[e->root[0]].opt[CG_LEFT][0].child].id, 2,
	    "Left option is node 2");
	is_int(e->node[e->root[0]].njoint, 1, "one joint option");
	ok(e->node[e->root[0]].expanded, "E record read");
	ok(!e->node[cg_doc_find(e, 2)].expanded, "no E, not expanded");
	ok(e->node[cg_doc_find(e, 2)].text == NULL, "abstract node has no text");
	ok(e->node[cg_doc_find(e, 2)].rs == NULL, "nor a ruleset");
	is_int(e->node[cg_doc_find(e, 3)].line, 3, "nodes know their line");
	is_str(e->node[cg_doc_find(e, 3)].text, "100%", "a label");
	ok(e->node[cg_doc_find(e, 3)].pos == NULL, "is not a position");
	is_str(cg_doc_annotation(e, e->root[0], "note"), "a\tb",
	    "annotation unescaped");
	{
		char *again = written(e);

		is_str(again, text, "written again byte for byte");
		free(again);
	}
	ok(cg_reader_next(r) == NULL, "then end of input");
	ok(cg_reader_next(r) == NULL, "and stays there");
	cg_doc_free(e);
	cg_reader_close(r);

	/* concatenation */
	{
		char *two = malloc(2 * strlen(text) + 1);
		int n = 0;

		strcpy(two, text);
		strcat(two, text);
		r = cg_reader_open_fd(memfile(two), "two", NULL);
		while ((e = cg_reader_next(r)) != NULL) {
			n++;
			cg_doc_free(e);
		}
		is_int(n, 2, "concatenated documents are two documents");
		cg_reader_close(r);
		free(two);
	}

	/* gzip */
	{
		char path[] = "/tmp/test_doc_XXXXXX";
		int fd = mkstemp(path);
		gzFile gz = gzdopen(fd, "wb");

		gzputs(gz, text);
		gzclose(gz);
		r = cg_reader_open(path, NULL);
		e = cg_reader_next(r);
		ok(e != NULL && e->n == 3, "gzip input is read");
		cg_doc_free(e);
		cg_reader_close(r);
		unlink(path);
	}
	free(text);
	cg_doc_free(d);

	/* bare positions of a ruleset (nim from the build's plugins) */
	r = cg_reader_open_fd(memfile("# heaps\n3 4\n\n 2\n"), "bare", "nim");
	e = cg_reader_next(r);
	ok(e != NULL && e->nroot == 2, "bare lines are roots");
	if (e != NULL && e->nroot == 2) {
		is_str(e->node[e->root[0]].text, "3 4", "text kept as typed");
		is_int(e->node[e->root[0]].poslen, 8, "parsed by the plugin");
		is_int(e->node[e->root[1]].line, 4, "line of the second");
	}
	cg_doc_free(e);
	ok(cg_reader_next(r) == NULL, "bare input is one document");
	cg_reader_close(r);

	/* fatal errors: exit status 1, half-read documents freed */
	is_int(read_fails("cgt\t1\nN\t1\nQ\nend\n"), 1, "unknown record");
	is_int(read_fails("cgt\t1\nN\t1\n"), 1, "no end record");
	is_int(read_fails("cgt\t1\nN\t1\nN\t2\nL\t1\t2\nend\n"), 1,
	    "parent before child");
	is_int(read_fails("cgt\t3\nend\n"), 1, "version 3");
	is_int(read_fails("cgt\t1\nN\t1\nA\t1\tk\t%4\nend\n"), 1, "bad escape");
	is_int(read_fails("cgt\t1\nruleset\tnim\nN\t1\tz\nend\n"), 1,
	    "bad position");
	is_int(read_fails("cgt\t1\nend\ncgt\t1\nend\n"), 0,
	    "two good documents");
	is_int(read_fails(""), 0, "empty input");

	/* node ids are bounded so they never wrap */
	d = cg_doc_new();
	r = cg_reader_open_fd(memfile("cgt\t1\nN\t9223372036854775807\nend\n"),
	    "max", NULL);
	e = cg_reader_next(r);
	died = 0;
	if (setjmp(jump) == 0)
		cg_doc_add_node(e, NULL, NULL, 0, NULL);
	is_int(died, 1, "adding a node after the largest id fails");
	cg_doc_free(e);
	cg_reader_close(r);
	cg_doc_free(d);

	/* version 2: a cycle a -> b -> a is kept, marked where it closes,
	 * and written back as version 2, every N record first */
	r = cg_reader_open_fd(memfile("cgt\t2\nruleset\t\nN\t1\ta\n"
	    "N\t2\tb\nL\t1\t2\nR\t2\t1\tback\nroot\t1\nend\n"), "v2", NULL);
	e = cg_reader_next(r);
	ok(e != NULL && e->cyclic, "a version-2 cycle is read and marked");
	is_int(e->cycle_line, 6, "where the cycle closes: line 6");
	is_int(e->node[e->cycle_node].id, 2, "leaving node 2");
	text = written(e);
	is_str(text, "cgt\t2\nruleset\t\nN\t1\ta\nN\t2\tb\nL\t1\t2\n"
	    "R\t2\t1\tback\nroot\t1\nend\n", "a cycle is written as version 2");
	free(text);
	died = 0;
	if (setjmp(jump) == 0)
		cg_doc_refuse_cycles(e);
	is_int(died, 1, "refusing a cycle is a data error");
	cg_doc_free(e);
	cg_reader_close(r);
	/* version 2 without a cycle, parents first: children first once
	 * read, and written as version 1 */
	r = cg_reader_open_fd(memfile("cgt\t2\nN\t1\nN\t2\nN\t3\n"
	    "L\t1\t2\nR\t2\t3\nroot\t1\nend\n"), "v2", NULL);
	e = cg_reader_next(r);
	ok(e != NULL && !e->cyclic, "no cycle: not marked");
	is_int(e->node[0].id, 3, "put in order: the leaf first");
	is_int(e->node[e->root[0]].id, 1, "the root follows its node");
	is_int(cg_doc_find(e, 2), 1, "ids follow their nodes");
	text = written(e);
	is_str(text, "cgt\t1\nN\t3\nN\t2\nR\t2\t3\nN\t1\nL\t1\t2\n"
	    "root\t1\nend\n", "an acyclic version-2 document is written as "
	    "version 1");
	free(text);
	cg_doc_free(e);
	cg_reader_close(r);
	/* a self loop, and the limits of version 1 and of joint options */
	is_int(read_fails("cgt\t2\nN\t1\nL\t1\t1\nend\n"), 0,
	    "version 2: a self loop");
	is_int(read_fails("cgt\t1\nN\t1\nL\t1\t1\nend\n"), 1,
	    "version 1 refuses a self loop");
	is_int(read_fails("cgt\t2\nN\t1\nL\t1\t1\nR\t1\t1\n"
	    "J\t1\t0\t0\t1\nend\n"), 1,
	    "joint options still lead to nodes defined before");
	is_int(read_fails("cgt\t3\nend\n"), 1, "version 3 is refused");

	cg_plugin_unload_all();
	return tap_done();
}
