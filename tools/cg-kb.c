/* cg-kb - query a knowledge base: look positions up, best moves with the
 * values they lead to, dump a base as a document, select its positions
 * by their values and count them, statistics. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/tool.h"
#include "base/util.h"
#include "format/doc.h"
#include "kb/kb.h"
#include "kb/kbfile.h"
#include "kb/kbmove.h"
#include "kb/report.h"
#include "kb/select.h"

static const char usage[] =
    "lookup [-t] [-k KINDS] [-r NAME[:PARAMS]] [-P DIR] BASE [file ...]\n"
    "       cg-kb best [-a] [-s left|right] [-k KINDS] [-r NAME[:PARAMS]] "
    "[-P DIR] BASE [file ...]\n"
    "       cg-kb dump [-P DIR] BASE\n"
    "       cg-kb select [-t] [-k KINDS] [-P DIR] EXPR BASE\n"
    "       cg-kb count [-t] [-e EXPR] [-P DIR] KIND BASE\n"
    "       cg-kb stats [-T N] BASE";
static const char help[] =
    "Query a knowledge base built by cg-kb-build (cgkb(5)).\n"
    "\n"
    "  lookup   annotate each root of the input with its values from BASE\n"
    "           (-t: one line per root, position and values)\n"
    "  best     the best moves of each root: one line per move,\n"
    "           position, side (L or R), move, resulting position, and the\n"
    "           resulting position's values; children no base holds are\n"
    "           computed by the engines\n"
    "  dump     write BASE as a cgt document (one root per entry)\n"
    "  select   the positions of BASE whose values satisfy EXPR, such as\n"
    "           'temp>=2', 'canon==*3', 'infinitesimal and not zero'\n"
    "           (-t: one line per position, position and values)\n"
    "  count    how many positions hold each value of KIND, most first\n"
    "  stats    header fields, sizes, bits per position, value entropy\n"
    "\n"
    "  -k LIST           value kinds to show (default: all the base holds)\n"
    "  -t                tab-separated output (lookup, select)\n"
    "  -e EXPR           count only the positions that satisfy EXPR (count)\n"
    "  -a                every move, with a last column '*' on the best (best)\n"
    "  -s SIDE           only moves of left or right (best)\n"
    "  -T N              also time N lookups of random entries (stats)\n"
    "  -r NAME[:PARAMS]  read bare positions of this ruleset\n"
    "  -P DIR            also search DIR for ruleset plugins\n"
    "  -h, --help        show this help\n"
    "      --version     show the version\n";

static struct cg_kbfile *base;
static const char *base_path;
static const char *kinds[CG_KB_MAXKINDS];
static size_t nkinds;
static int tsv, all_moves, sides = 3;
static unsigned long misses;

static void
open_base(const char *path)
{
	char err[1024];

	base_path = path;
	base = cg_kbfile_open(path, err, sizeof err);
	if (base == NULL)
		cg_die(CG_EXIT_DATA, "%s", err);
	cg_kb_add(path);
}

static void
set_kinds(const char *list)
{
	const struct cg_kb_meta *m = cg_kbfile_meta(base);
	struct cg_kb_meta tmp;
	uint32_t k;

	if (list == NULL) {
		for (k = 0; k < m->nkinds; k++)
			kinds[k] = m->kinds[k];
		nkinds = m->nkinds;
		return;
	}
	cg_kb_meta_init(&tmp);
	if (cg_kb_meta_set_kinds(&tmp, list) < 0) {
		fprintf(stderr, "%s: bad value kinds '%s'\n", cg_progname, list);
		exit(CG_EXIT_USAGE);
	}
	for (k = 0; k < tmp.nkinds; k++) {
		int i = cg_kb_meta_kind(m, tmp.kinds[k]);

		if (i < 0)
			cg_die(CG_EXIT_DATA, "%s: base holds no '%s' values",
			    base_path, tmp.kinds[k]);
		kinds[nkinds++] = m->kinds[i];
	}
	cg_kb_meta_free(&tmp);
}

/* The node's ruleset must be the base's. */
static void
check_ruleset(const struct cg_doc *d, const struct cg_node *n)
{
	const struct cg_kb_meta *m = cg_kbfile_meta(base);
	char spec[512];

	if (n->rs == NULL || n->pos == NULL)
		cg_die_at(d->file, n->line, "root %llu has no position",
		    (unsigned long long)n->id);
	if (strcmp(n->rs->name, m->ruleset) != 0 ||
	    strcmp(n->rs->params ? n->rs->params : "", m->params) != 0)
		cg_die(CG_EXIT_DATA, "%s: base is for '%s', not '%s'", base_path,
		    cg_kb_meta_spec(m, spec, sizeof spec), n->rs->spec);
}

static void
do_lookup(struct cg_doc *d, void *arg)
{
	const char *vals[CG_KB_MAXKINDS];
	char *got[CG_KB_MAXKINDS];
	uint32_t i;
	size_t k;

	(void)arg;
	for (i = 0; i < d->nroot; i++) {
		struct cg_node *n = &d->node[d->root[i]];

		check_ruleset(d, n);
		for (k = 0; k < nkinds; k++) {
			got[k] = cg_kb_lookup(n->rs, n->pos, n->poslen, kinds[k]);
			vals[k] = got[k];
			if (got[k] == NULL)
				misses++;
			else if (!tsv)
				cg_doc_annotate(d, d->root[i], kinds[k], got[k]);
		}
		if (tsv)
			cg_tsv_row(stdout, d, d->root[i], vals, nkinds);
		for (k = 0; k < nkinds; k++)
			free(got[k]);
	}
	if (!tsv)
		cg_doc_write(stdout, d);
}

static void
do_best(struct cg_doc *d, void *arg)
{
	struct cg_buf line, text;
	uint32_t i;
	int s;
	size_t j, k, n;

	(void)arg;
	cg_buf_init(&line);
	cg_buf_init(&text);
	for (i = 0; i < d->nroot; i++) {
		struct cg_node *n0 = &d->node[d->root[i]];

		check_ruleset(d, n0);
		for (s = 0; s < 2; s++) {
			struct cg_kbmove *m;

			if (!(sides & (1 << s)))
				continue;
			n = cg_kb_moves(n0->rs, n0->pos, n0->poslen,
			    (enum cg_side)s, kinds, nkinds, &m);
			for (j = 0; j < n; j++) {
				if (!m[j].best && !all_moves)
					continue;
				line.len = 0;
				cg_doc_root_label(d, d->root[i], &line);
				cg_buf_addf(&line, "\t%c\t", "LR"[s]);
				cg_escape(&line, m[j].move ? m[j].move : "");
				cg_buf_addc(&line, '\t');
				text.len = 0;
				if (cg_rs_print(n0->rs, m[j].child, m[j].len,
				    &text) < 0)
					cg_die(CG_EXIT_DATA, "ruleset '%s': %s",
					    n0->rs->name, cg_rs_errmsg(n0->rs));
				cg_escape(&line, cg_buf_str(&text));
				for (k = 0; k < nkinds; k++) {
					cg_buf_addc(&line, '\t');
					if (m[j].value[k])
						cg_escape(&line, m[j].value[k]);
				}
				if (all_moves)
					cg_buf_addstr(&line, m[j].best ? "\t*" : "\t");
				cg_buf_addc(&line, '\n');
				fwrite(line.data, 1, line.len, stdout);
				cg_check_write(stdout, "standard output");
			}
			if (n == 0) {
				line.len = 0;
				cg_doc_root_label(d, d->root[i], &line);
				cg_buf_addf(&line, "\t%c\t(no move)\n", "LR"[s]);
				fwrite(line.data, 1, line.len, stdout);
				cg_check_write(stdout, "standard output");
			}
			cg_kb_moves_free(m, n, nkinds);
		}
	}
	cg_buf_free(&line);
	cg_buf_free(&text);
}

#define IS(name) (strcmp(cmd, name) == 0)

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, CG_OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd, *spec = NULL, *klist = NULL, *where = NULL;
	unsigned long ntime = 0;
	int c, mining;

	cg_tool_init(argc, argv);
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0))
		cg_help(usage, help);
	if (argc >= 2 && strcmp(argv[1], "--version") == 0)
		cg_version();
	if (argc < 2 || argv[1][0] == '-')
		cg_usage(usage);
	cmd = argv[1];
	mining = IS("select") || IS("count");
	if (!IS("lookup") && !IS("best") && !IS("dump") && !IS("stats") &&
	    !mining) {
		fprintf(stderr, "%s: unknown command '%s'\n", cg_progname, cmd);
		cg_usage(usage);
	}
	argc--;
	argv++;
	/* getopt names argv[0] in its messages: "cg-kb lookup" */
	{
		static char name[64];

		snprintf(name, sizeof name, "%s %s", cg_progname, cmd);
		argv[0] = name;
	}
	while ((c = getopt_long(argc, argv, "ae:hk:P:r:s:tT:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'a': all_moves = 1; break;
		case 'e': where = optarg; break;
		case 'k': klist = optarg; break;
		case 't': tsv = 1; break;
		case 'T': ntime = cg_parse_count(optarg, "-T", 0, ULONG_MAX); break;
		case 's':
			if (strcmp(optarg, "left") == 0)
				sides = 1;
			else if (strcmp(optarg, "right") == 0)
				sides = 2;
			else
				cg_usage(usage);
			break;
		case 'r': spec = optarg; break;
		case 'P': cg_plugin_add_dir(optarg); break;
		case 'h': cg_help(usage, help);
		case CG_OPT_VERSION: cg_version();
		default: cg_usage(usage);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 + mining || (ntime && !IS("stats")) ||
	    (where && !IS("count")) || (klist && IS("count")))
		cg_usage(usage);
	if ((IS("dump") || IS("stats") || mining) && (argc != 1 + mining ||
	    spec || all_moves || sides != 3 || ((klist || tsv) && !mining)))
		cg_usage(usage);
	open_base(argv[mining]);
	if (IS("dump"))
		cg_kb_dump(base, stdout);
	else if (IS("stats"))
		cg_kb_stats(base, ntime, stdout);
	else if (IS("select"))
		cg_kb_select(base, argv[0], klist, tsv, stdout);
	else if (IS("count"))
		cg_kb_count(base, argv[0], where, stdout);
	else {
		set_kinds(klist);
		/* a loopy ruleset's positions are looked up, and best
		 * moves solved by retrograde analysis (kbmove.h) */
		cg_each_document_flags(argc - 1, argv + 1, spec, CG_EACH_LOOPY,
		    IS("best") ? do_best : do_lookup, NULL);
	}
	cg_kbfile_close(base);
	cg_kb_close_all();
	cg_plugin_unload_all();
	cg_close_stdout();
	if (misses > 0) {
		fprintf(stderr, "%s: %lu values not in the base\n", cg_progname,
		    misses);
		return CG_EXIT_DATA;
	}
	return 0;
}
