/* cg-parse - validate positions and write them as roots of a document. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/doc.h"
#include "base/tool.h"
#include "base/util.h"
#include "solve/lgame.h"
#include "values/notation.h"

static const char usage[] =
    "-r NAME[:PARAMS] [-P DIR] [POSITION ...]\n"
    "       cg-parse -l | -L [-P DIR]";
static const char help[] =
    "Parse positions of a ruleset (from the arguments, or one per line from\n"
    "standard input) and write them as the roots of a cgt document.  A loopy\n"
    "game literal of the game ruleset (pass, labels, on, off, over, under,\n"
    "dud, ^[on], ^<on>) is written as its graph, with cycles (cgt version 2).\n"
    "\n"
    "  -r NAME[:PARAMS]  the ruleset, with its parameters\n"
    "  -P DIR            also search DIR for ruleset plugins\n"
    "  -l                list the rulesets found on the plugin path (name,\n"
    "                    TAB, summary)\n"
    "  -L                the same with what each can do between them\n"
    "                    (impartial, symmetry, decomposes, synchronized,\n"
    "                    enumerates, board, measure, rank, result)\n"
    "  -h, --help        show this help\n"
    "      --version     show the version\n";

/* Some literal of the game ruleset is loopy: then every literal is
 * written as its graph, so that the document's graph is complete. */
static int loopy;

/* A game literal as its graph, written as abstract nodes, with cycles
 * for a loopy literal (a version-2 document). */
static void
add_loopy(struct cg_doc *d, const char *text, const char *where,
    unsigned long line)
{
	struct cg_lgame g;
	uint32_t x;
	char msg[256];
	size_t col;
	cg_game s;
	int bad;

	cg_lgame_init(&g);
	if (cg_lgame_looks_loopy(text, strlen(text)))
		bad = cg_lgame_parse(&g, text, strlen(text), &x, msg,
		    sizeof msg, &col) < 0;
	else if ((bad = cg_canon_parse(text, strlen(text), &s, msg,
	    sizeof msg, &col) < 0) == 0)
		x = cg_lgame_short(&g, s);
	if (bad)
		cg_error_at(where, line, "bad game position '%s': column %zu: "
		    "%s", cg_quote_str(text), col, msg);
	else
		cg_doc_add_root(d, cg_lgame_to_doc(&g, x, d, text));
	cg_lgame_free(&g);
}

static void
add_position(struct cg_doc *d, struct cg_plugin *rs, const char *text,
    const char *where, unsigned long line)
{
	struct cg_buf pos, printed, again;
	size_t len = strlen(text);
	uint32_t i;

	if (loopy) {
		add_loopy(d, text, where, line);
		return;
	}
	cg_buf_init(&pos);
	cg_buf_init(&printed);
	cg_buf_init(&again);
	if (cg_rs_parse(rs, text, len, &pos) < 0) {
		/* this position only: the others go on, the exit status is 1 */
		cg_error_at(where, line, "bad %s position '%s': %s", rs->name,
		    cg_quote_str(text), cg_rs_errmsg(rs));
		cg_buf_free(&pos);
		return;
	}
	if (cg_rs_print(rs, pos.data, pos.len, &printed) < 0)
		cg_die_at(where, line, "ruleset '%s': %s", rs->name,
		    cg_rs_errmsg(rs));
	/* The document carries the printed form, so it must read back as the
	 * same position: catch a ruleset that breaks parse(print(p)) == p. */
	if (cg_rs_parse(rs, (const char *)printed.data, printed.len,
	    &again) < 0 || again.len != pos.len ||
	    (pos.len > 0 && memcmp(again.data, pos.data, pos.len) != 0))
		cg_die_at(where, line, "ruleset '%s' prints position '%s' as "
		    "'%s', which does not read back as the same position "
		    "(a ruleset bug)", rs->name, cg_quote_str(text),
		    cg_quote_str(cg_buf_str(&printed)));
	i = cg_doc_add_node(d, rs, pos.data, pos.len, cg_buf_str(&printed));
	d->node[i].line = line;
	cg_doc_add_root(d, i);
	cg_buf_free(&pos);
	cg_buf_free(&printed);
	cg_buf_free(&again);
}

static void
list_one(const char *name, const char *path, const struct cg_ruleset *rs,
    const char *why, void *arg)
{
	(void)path;
	if (rs == NULL) {
		cg_warn("%s", why);
		return;
	}
	if (arg != NULL) {
		struct cg_buf caps;

		cg_buf_init(&caps);
		cg_rs_capabilities(rs, &caps);
		printf("%s\t%s\t%s\n", name, cg_buf_str(&caps),
		    rs->summary ? rs->summary : "");
		cg_buf_free(&caps);
	} else {
		printf("%s\t%s\n", name, rs->summary ? rs->summary : "");
	}
	cg_check_write(stdout, "standard output");
}

/* Positions one per line on standard input, read as every tool reads
 * bare positions (comments, blanks, line limit, gzip); a bad line is
 * reported and skipped. */
static void
read_positions(struct cg_doc *d, struct cg_plugin *rs, const char *spec)
{
	/* game literals are read here, loopy ones by lgame.h */
	struct cg_reader *r = strcmp(rs->name, "game") == 0 ?
	    cg_reader_open_lines("-") : cg_reader_open_bare("-", spec);
	struct cg_doc *in = cg_reader_next(r);
	uint32_t i;

	for (i = 0; in != NULL && i < in->nroot; i++) {
		const char *t = in->node[in->root[i]].text;

		loopy |= strcmp(rs->name, "game") == 0 &&
		    cg_lgame_looks_loopy(t, strlen(t));
	}
	for (i = 0; in != NULL && i < in->nroot; i++) {
		const struct cg_node *x = &in->node[in->root[i]];

		add_position(d, rs, x->text, "-", x->line);
	}
	cg_doc_free(in);
	cg_reader_close(r);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, CG_OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	const char *spec = NULL;
	struct cg_plugin *rs;
	struct cg_doc *d;
	int c, list = 0, caps = 0;

	cg_tool_init(argc, argv);
	while ((c = getopt_long(argc, argv, "hLlP:r:", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': spec = optarg; break;
		case 'P': cg_plugin_add_dir(optarg); break;
		case 'l': list = 1; break;
		case 'L': list = caps = 1; break;
		case 'h': cg_help(usage, help);
		case CG_OPT_VERSION: cg_version();
		default: cg_usage(usage);
		}
	}
	argc -= optind;
	argv += optind;
	if (list) {
		int bad;

		if (argc > 0 || spec != NULL)
			cg_usage(usage);
		bad = cg_plugin_list(list_one, caps ? &caps : NULL);
		cg_plugin_unload_all();
		cg_close_stdout();
		return bad ? CG_EXIT_DATA : CG_EXIT_OK;
	}
	if (spec == NULL)
		cg_usage(usage);
	rs = cg_plugin_get(spec, CG_EXIT_USAGE);
	d = cg_doc_new();
	if (argc > 0) {
		int i;
		char where[32];

		for (i = 0; i < argc; i++)
			loopy |= strcmp(rs->name, "game") == 0 &&
			    cg_lgame_looks_loopy(argv[i], strlen(argv[i]));
		for (i = 0; i < argc; i++) {
			snprintf(where, sizeof where, "argument %d", i + 1);
			add_position(d, rs, argv[i], where, 0);
		}
	} else {
		read_positions(d, rs, spec);
	}
	cg_doc_write(stdout, d);
	cg_doc_free(d);
	cg_plugin_unload_all();
	cg_close_stdout();
	return 0;
}
