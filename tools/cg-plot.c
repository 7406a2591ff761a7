/* cg-plot - draw the thermographs of documents as one SVG chart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/doc.h"
#include "plot/thermoplot.h"
#include "base/tool.h"
#include "base/util.h"

static const char usage[] = "[-z] [-P DIR] [file ...]";
static const char help[] =
    "Draw every thermograph annotation of the input documents (as\n"
    "cg-canon -p thermograph writes them) on one chart, as CGSuite draws\n"
    "thermographs, and write it as SVG on standard output: values across\n"
    "(Left's side on the left), temperatures upwards, each mast with a hook,\n"
    "the mean and the temperature marked, several thermographs in turn in\n"
    "black, blue, red and green, with a legend.\n"
    "\n"
    "  -z, --subzero     draw the walls down to temperature -1 (default: down\n"
    "                    to 0, with a short tail)\n"
    "  -P DIR            also search DIR for ruleset plugins\n"
    "  -h, --help        show this help\n"
    "      --version     show the version\n";

/* A thermograph's label: the position (or #ID), and the canonical form
 * when the document has it and it says something the text does not. */
static void
label(const struct cg_doc *d, uint32_t i, struct cg_buf *out)
{
	const struct cg_node *n = &d->node[i];
	const char *canon = cg_doc_annotation(d, i, "canon");

	if (n->text != NULL)
		cg_buf_addstr(out, n->text);
	else
		cg_buf_addf(out, "#%llu", (unsigned long long)n->id);
	if (canon != NULL && (n->text == NULL || strcmp(canon, n->text) != 0))
		cg_buf_addf(out, " = %s", canon);
}

static void
add(struct cg_tplot *p, const struct cg_doc *d, uint32_t i)
{
	const char *tg = cg_doc_annotation(d, i, "thermograph");
	struct cg_buf l, err;

	if (tg == NULL)
		return;
	cg_buf_init(&l);
	cg_buf_init(&err);
	label(d, i, &l);
	if (cg_tplot_add(p, tg, cg_buf_str(&l), &err) < 0)
		cg_die_at(d->file, d->node[i].line, "bad thermograph '%s': %s",
		    tg, cg_buf_str(&err));
	cg_buf_free(&l);
	cg_buf_free(&err);
}

/* The roots first, in their order, then any other annotated node. */
static void
each(struct cg_doc *d, void *arg)
{
	unsigned char *is_root = cg_xcalloc(d->n + 1, 1);
	uint32_t i;

	for (i = 0; i < d->nroot; i++) {
		if (!is_root[d->root[i]])
			add(arg, d, d->root[i]);
		is_root[d->root[i]] = 1;
	}
	for (i = 0; i < d->n; i++)
		if (!is_root[i])
			add(arg, d, i);
	free(is_root);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, CG_OPT_VERSION },
		{ "subzero", no_argument, NULL, 'z' },
		{ NULL, 0, NULL, 0 },
	};
	struct cg_tplot *p;
	struct cg_buf svg;
	int c, subzero = 0;

	cg_tool_init(argc, argv);
	while ((c = getopt_long(argc, argv, "hP:z", longopts, NULL)) != -1) {
		switch (c) {
		case 'z': subzero = 1; break;
		case 'P': cg_plugin_add_dir(optarg); break;
		case 'h': cg_help(usage, help);
		case CG_OPT_VERSION: cg_version();
		default: cg_usage(usage);
		}
	}
	p = cg_tplot_new();
	cg_each_document(argc - optind, argv + optind, NULL, each, p);
	if (cg_tplot_count(p) == 0)
		cg_die(CG_EXIT_DATA, "no thermograph in the input (cg-canon -p "
		    "thermograph writes them)");
	cg_buf_init(&svg);
	cg_tplot_svg(p, subzero, &svg);
	fwrite(svg.data, 1, svg.len, stdout);
	cg_buf_free(&svg);
	cg_tplot_free(p);
	cg_plugin_unload_all();
	cg_close_stdout();
	return 0;
}
