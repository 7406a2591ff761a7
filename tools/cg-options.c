/* cg-options - expand roots into their options, to a depth or completely. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytemap.h"
#include "format/doc.h"
#include "plot/dot.h"
#include "base/tool.h"
#include "base/util.h"

static const char usage[] =
    "[-a | -d N] [-j] [-t | --dot] [-r NAME[:PARAMS]] [-P DIR] [file ...]";
static const char help[] =
    "Expand each root of the input documents into its Left and Right options\n"
    "and write the document again with the new nodes (a DAG: transpositions,\n"
    "and positions equal up to the ruleset's symmetries, are one node).\n"
    "\n"
    "  -d N              expand to depth N (default 1)\n"
    "  -a                expand the whole game tree\n"
    "  -j                also write joint (synchronized) options\n"
    "  -t                one line per root: position, Left options, Right\n"
    "                    options (options separated by \", \")\n"
    "      --dot         write a Graphviz picture instead of a document:\n"
    "                    boards as grids, Left's moves blue, Right's red,\n"
    "                    moves of either player (impartial) black\n"
    "  -r NAME[:PARAMS]  read bare positions of this ruleset\n"
    "  -P DIR            also search DIR for ruleset plugins\n"
    "  -h, --help        show this help\n"
    "      --version     show the version\n";

enum { OPT_DOT = CG_OPT_TOOL_BASE };

static unsigned long max_depth = 1;
static int joint, tsv, dot;

struct expander {
	struct cg_doc *d;
	struct cg_bytemap *seen;  /* (ruleset, canonical bytes) -> node + 1 */
	struct cg_buf key, canon;
	uint32_t *queue;
	unsigned long *depth;
	size_t qhead, qtail, qcap;
	unsigned char *done;      /* per node: taken from the queue */
	size_t ndone;
	uint32_t parent;
	enum cg_side side;
	unsigned long cur_depth;
	/* joint-option state */
	size_t ji, jj;
};

static void
push(struct expander *e, uint32_t node, unsigned long depth)
{
	if (node < e->ndone && e->done[node])
		return;
	if (e->qtail == e->qcap) {
		e->qcap = e->qcap ? e->qcap * 2 : 256;
		e->queue = cg_xreallocarray(e->queue, e->qcap, sizeof *e->queue);
		e->depth = cg_xreallocarray(e->depth, e->qcap, sizeof *e->depth);
	}
	e->queue[e->qtail] = node;
	e->depth[e->qtail] = depth;
	e->qtail++;
}

/* The node for a position: an existing one equal up to symmetry, or new. */
static uint32_t
intern(struct expander *e, struct cg_plugin *rs, const unsigned char *pos,
    size_t len)
{
	uint64_t entry, *val;
	int isnew;
	uint32_t node;

	e->canon.len = 0;
	if (cg_rs_canonical(rs, pos, len, &e->canon) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
		    cg_rs_errmsg(rs));
	e->key.len = 0;
	cg_buf_add(&e->key, &rs, sizeof rs);
	cg_buf_add(&e->key, e->canon.data, e->canon.len);
	entry = cg_bytemap_intern(e->seen, e->key.data, e->key.len, &isnew);
	val = cg_bytemap_value(e->seen, entry);
	if (!isnew) {
		/* reached again, perhaps by a shorter path than before */
		node = (uint32_t)(*val - 1);
		push(e, node, e->cur_depth + 1);
		return node;
	}
	node = cg_doc_add_node(e->d, rs, pos, len, NULL);
	*val = (uint64_t)node + 1;
	push(e, node, e->cur_depth + 1);
	return node;
}

static int
on_option(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct expander *e = ctx;
	struct cg_plugin *rs = e->d->node[e->parent].rs;
	uint32_t child = intern(e, rs, pos, len);

	cg_doc_add_option(e->d, e->parent, e->side, child, move);
	return 0;
}

static int
on_joint(void *ctx, size_t i, size_t j, const unsigned char *pos, size_t len)
{
	struct expander *e = ctx;
	struct cg_plugin *rs = e->d->node[e->parent].rs;
	uint32_t child = intern(e, rs, pos, len);

	cg_doc_add_joint(e->d, e->parent, (uint32_t)i, (uint32_t)j, child);
	return 0;
}

static void
expand_node(struct expander *e, uint32_t x)
{
	struct cg_node *n = &e->d->node[x];
	struct cg_plugin *rs = n->rs;
	int s;

	if (n->expanded || rs == NULL || n->pos == NULL)
		return;
	/* options listed without an 'E' record are a partial list: the
	 * plugin gives them all again */
	for (s = 0; s < 2; s++) {
		uint32_t k;

		for (k = 0; k < n->nopt[s]; k++)
			free(n->opt[s][k].move);
		n->nopt[s] = 0;
	}
	n->njoint = 0;
	e->parent = x;
	for (s = 0; s < 2; s++) {
		e->side = (enum cg_side)s;
		if (cg_rs_options(rs, e->d->node[x].pos, e->d->node[x].poslen,
		    e->side, on_option, e) < 0)
			cg_die_at(e->d->file, e->d->node[x].line,
			    "ruleset '%s': %s", rs->name, cg_rs_errmsg(rs));
	}
	if (joint && (rs->rs->flags & CG_SYNCHRONIZED) &&
	    e->d->node[x].nopt[0] > 0 && e->d->node[x].nopt[1] > 0 &&
	    cg_rs_synch_options(rs, e->d->node[x].pos,
	    e->d->node[x].poslen, on_joint, e) < 0)
		cg_die_at(e->d->file, e->d->node[x].line, "ruleset '%s': %s",
		    rs->name, cg_rs_errmsg(rs));
	e->d->node[x].expanded = 1;
}

/* Breadth first from the roots, so each node gets its least depth. */
static void
expand(struct cg_doc *d)
{
	struct expander e;
	uint32_t i, k, x;
	int s;

	memset(&e, 0, sizeof e);
	e.d = d;
	e.seen = cg_bytemap_new();
	cg_buf_init(&e.key);
	cg_buf_init(&e.canon);
	/* existing nodes take part in transposition merging */
	for (i = 0; i < d->n; i++) {
		struct cg_node *n = &d->node[i];
		uint64_t entry;
		int isnew;

		if (n->rs == NULL || n->pos == NULL)
			continue;
		e.canon.len = 0;
		if (cg_rs_canonical(n->rs, n->pos, n->poslen, &e.canon) < 0)
			cg_die_at(d->file, n->line, "ruleset '%s': %s",
			    n->rs->name, cg_rs_errmsg(n->rs));
		e.key.len = 0;
		cg_buf_add(&e.key, &n->rs, sizeof n->rs);
		cg_buf_add(&e.key, e.canon.data, e.canon.len);
		entry = cg_bytemap_intern(e.seen, e.key.data, e.key.len, &isnew);
		if (isnew)
			*cg_bytemap_value(e.seen, entry) = (uint64_t)i + 1;
	}
	for (i = 0; i < d->nroot; i++)
		push(&e, d->root[i], 0);
	while (e.qhead < e.qtail) {
		x = e.queue[e.qhead];
		e.cur_depth = e.depth[e.qhead];
		e.qhead++;
		/* breadth first: the first visit has the least depth */
		if (x < e.ndone && e.done[x])
			continue;
		if (x >= e.ndone) {
			size_t n = e.ndone ? e.ndone : 64;

			while (n <= x)
				n *= 2;
			e.done = cg_xrealloc(e.done, n);
			memset(e.done + e.ndone, 0, n - e.ndone);
			e.ndone = n;
		}
		e.done[x] = 1;
		if (max_depth != 0 && e.cur_depth >= max_depth)
			continue;
		if (d->node[x].expanded) {
			/* already expanded in the input: walk into it */
			for (s = 0; s < 2; s++)
				for (k = 0; k < d->node[x].nopt[s]; k++)
					push(&e, d->node[x].opt[s][k].child,
					    e.cur_depth + 1);
			continue;
		}
		expand_node(&e, x);
	}
	cg_bytemap_free(e.seen);
	cg_buf_free(&e.key);
	cg_buf_free(&e.canon);
	free(e.queue);
	free(e.depth);
	free(e.done);
}

static void
write_dot(FILE *out, const struct cg_doc *d)
{
	struct cg_buf b;

	cg_buf_init(&b);
	cg_dot_write(&b, d);
	fwrite(b.data, 1, b.len, out);
	cg_buf_free(&b);
	cg_check_write(out, "standard output");
}

static void
write_tsv(FILE *out, const struct cg_doc *d)
{
	struct cg_buf side[2];
	const char *vals[2];
	uint32_t i, k;
	int s;

	for (i = 0; i < d->nroot; i++) {
		const struct cg_node *n = &d->node[d->root[i]];

		for (s = 0; s < 2; s++) {
			cg_buf_init(&side[s]);
			for (k = 0; k < n->nopt[s]; k++) {
				const struct cg_node *c =
				    &d->node[n->opt[s][k].child];

				if (k)
					cg_buf_addstr(&side[s], ", ");
				/* raw text: cg_tsv_row escapes the values */
				if (c->text != NULL)
					cg_buf_addstr(&side[s], c->text);
				else
					cg_buf_addf(&side[s], "#%llu",
					    (unsigned long long)c->id);
			}
			vals[s] = cg_buf_str(&side[s]);
		}
		cg_tsv_row(out, d, d->root[i], vals, 2);
		cg_buf_free(&side[0]);
		cg_buf_free(&side[1]);
	}
}

static void
each(struct cg_doc *d, void *arg)
{
	(void)arg;
	expand(d);
	if (dot)
		write_dot(stdout, d);
	else if (tsv)
		write_tsv(stdout, d);
	else
		cg_doc_write(stdout, d);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, CG_OPT_VERSION },
		{ "dot", no_argument, NULL, OPT_DOT },
		{ NULL, 0, NULL, 0 },
	};
	const char *spec = NULL;
	int c;

	cg_tool_init(argc, argv);
	while ((c = getopt_long(argc, argv, "ad:hjP:r:t", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': max_depth = 0; break;
		case 'd':
			max_depth = cg_parse_count(optarg, "-d");
			if (max_depth == 0)
				cg_usage(usage);
			break;
		case 'j': joint = 1; break;
		case 't': tsv = 1; break;
		case OPT_DOT: dot = 1; break;
		case 'r': spec = optarg; break;
		case 'P': cg_plugin_add_dir(optarg); break;
		case 'h': cg_help(usage, help);
		case CG_OPT_VERSION: cg_version();
		default: cg_usage(usage);
		}
	}
	if (tsv && dot)
		cg_usage(usage);
	cg_each_document(argc - optind, argv + optind, spec, each, NULL);
	cg_plugin_unload_all();
	cg_close_stdout();
	return 0;
}
