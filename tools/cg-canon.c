/* cg-canon - canonical forms and their properties, CGSuite's notation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "base/bytemap.h"
#include "values/canon.h"
#include "values/notation.h"
#include "values/canonprop.h"
#include "format/doc.h"
#include "kb/kb.h"
#include "values/thermo.h"
#include "base/tool.h"
#include "base/util.h"

static const char usage[] =
    "[-t] [-p LIST] [-c GAME] [-K FILE] [--stats] [-r NAME[:PARAMS]] "
    "[-P DIR] [file ...]";
static const char help[] =
    "Compute the canonical form of each root, written in CGSuite's notation,\n"
    "and optionally its properties.  Positions are expanded through their\n"
    "ruleset plugin (with a transposition table and decomposition into\n"
    "components); trees in the document are evaluated bottom-up.\n"
    "\n"
    "  -t                one line per root: position, then each value\n"
    "  -p LIST           properties, comma separated (default canon):\n"
    "                    canon outcome birthday lstop rstop mean temp\n"
    "                    thermograph atomic rcf incentives and the\n"
    "                    predicates number integer nimber nus infinitesimal\n"
    "                    numberish switch uptimal zero\n"
    "  -c GAME           compare each root with the game literal GAME: a\n"
    "                    column (or annotation cmp) with ==, <, > or <>\n"
    "                    (confused); repeatable\n"
    "  -K FILE           look positions up in this knowledge base first\n"
    "      --stats       print store statistics on standard error\n"
    "  -r NAME[:PARAMS]  read bare positions of this ruleset\n"
    "  -P DIR            also search DIR for ruleset plugins\n"
    "  -h, --help        show this help\n"
    "      --version     show the version\n";

enum { OPT_STATS = CG_OPT_TOOL_BASE };

static int tsv, stats;
static char **props;
static size_t nprops;
static char **cmps;
static cg_game *cmpgame;
static size_t ncmps;
static int use_kb;
static size_t positions_done;

/* ------------------------------------------------------------ positions
 * Transposition table: (plugin pointer, canonical bytes) -> value + 1;
 * IN_PROGRESS marks a position on the evaluation stack (a repetition
 * means the game is not short). */
#define IN_PROGRESS UINT64_MAX

static struct cg_bytemap *tt;

struct frame {
	uint64_t entry;          /* tt entry */
	struct cg_plugin *rs;
	unsigned char *pos;      /* canonical bytes */
	size_t len;
	int sum;                 /* children are components */
	uint64_t *child;         /* tt entries */
	size_t nchild, capchild, nl, next;
};

struct collect {
	struct cg_plugin *rs;
	struct frame *f;
	int ncomp;               /* components seen */
	int self;                /* the only component so far is f->pos */
	struct cg_buf first;     /* the first component, held back */
};

static struct cg_buf keybuf, canonbuf;

/* The tt entry of a position (created if new). */
static uint64_t
tt_entry(struct cg_plugin *rs, const unsigned char *pos, size_t len)
{
	int isnew;

	canonbuf.len = 0;
	if (cg_rs_canonical(rs, pos, len, &canonbuf) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
		    cg_rs_errmsg(rs));
	keybuf.len = 0;
	cg_buf_add(&keybuf, &rs, sizeof rs);
	cg_buf_add(&keybuf, canonbuf.data, canonbuf.len);
	if (tt == NULL)
		tt = cg_bytemap_new();
	return cg_bytemap_intern(tt, keybuf.data, keybuf.len, &isnew);
}

static void
frame_push_child(struct frame *f, uint64_t e)
{
	if (f->nchild == f->capchild) {
		f->capchild = f->capchild ? f->capchild * 2 : 8;
		f->child = cg_xreallocarray(f->child, f->capchild,
		    sizeof *f->child);
	}
	f->child[f->nchild++] = e;
}

static int
on_child(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct collect *c = ctx;

	(void)move;
	frame_push_child(c->f, tt_entry(c->rs, pos, len));
	return 0;
}

/* Components: a position that is its own only component (the usual case)
 * needs no canonical key of its own again, so the first component is held
 * back until a second one shows up. */
static int
on_component(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	struct collect *c = ctx;

	(void)move;
	if (c->ncomp++ == 0) {
		c->self = len == c->f->len && memcmp(pos, c->f->pos, len) == 0;
		c->first.len = 0;
		cg_buf_add(&c->first, pos, len);
		return 0;
	}
	if (c->ncomp == 2)
		frame_push_child(c->f, tt_entry(c->rs, c->first.data,
		    c->first.len));
	frame_push_child(c->f, tt_entry(c->rs, pos, len));
	return 0;
}

static struct cg_buf compbuf;

/* Direct values: the game ruleset's literals, knowledge bases. */
static int
direct_value(struct cg_plugin *rs, const unsigned char *pos, size_t len,
    const char *file, unsigned long line, cg_game *out)
{
	char msg[256];
	size_t col;

	if (strcmp(rs->rs->name, "game") == 0) {
		if (cg_canon_parse((const char *)pos, len, out, msg, sizeof msg,
		    &col) < 0)
			cg_die_at(file, line, "game literal: column %zu: %s", col,
			    msg);
		return 1;
	}
	if (use_kb) {
		struct cg_buf v;
		int hit;

		cg_buf_init(&v);
		canonbuf.len = 0;
		if (cg_rs_canonical(rs, pos, len, &canonbuf) < 0)
			cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
			    cg_rs_errmsg(rs));
		hit = cg_kb_find(rs, canonbuf.data, canonbuf.len, "canon", &v);
		if (hit && cg_canon_parse((const char *)v.data, v.len, out, msg,
		    sizeof msg, &col) < 0)
			cg_die_at(file, line, "knowledge base value '%s': %s",
			    cg_buf_str(&v), msg);
		cg_buf_free(&v);
		return hit;
	}
	return 0;
}

/* Value of a position, iteratively (explicit stack). */
static cg_game
eval_position(struct cg_plugin *rs, const unsigned char *pos0, size_t len0,
    const char *file, unsigned long line)
{
	struct frame *st = NULL;
	size_t n = 0, cap = 0;
	uint64_t root, *val;
	const unsigned char *k;
	size_t klen;
	cg_game g;

	root = tt_entry(rs, pos0, len0);
	val = cg_bytemap_value(tt, root);
	if (*val != 0 && *val != IN_PROGRESS)
		return (cg_game)(*val - 1);
	if (direct_value(rs, pos0, len0, file, line, &g)) {
		*cg_bytemap_value(tt, root) = (uint64_t)g + 1;
		return g;
	}
#define PUSH(e) do {							\
		uint64_t e_ = (e); /* read before st moves */		\
		if (n == cap) {						\
			cap = cap ? cap * 2 : 64;			\
			st = cg_xreallocarray(st, cap, sizeof *st);	\
		}							\
		memset(&st[n], 0, sizeof st[n]);			\
		st[n].entry = e_;					\
		st[n].next = (size_t)-1;				\
		n++;							\
	} while (0)
	PUSH(root);
	while (n > 0) {
		struct frame *f = &st[n - 1];

		if (f->next == (size_t)-1) {
			/* first visit: expand */
			struct collect c;
			struct cg_decomp { size_t count; } dc;
			int s;

			(void)dc;
			*cg_bytemap_value(tt, f->entry) = IN_PROGRESS;
			k = cg_bytemap_key(tt, f->entry, &klen);
			f->rs = rs;
			f->len = klen - sizeof rs;
			f->pos = cg_xmalloc(f->len ? f->len : 1);
			memcpy(f->pos, k + sizeof rs, f->len);
			memset(&c, 0, sizeof c);
			c.rs = rs;
			c.f = f;
			c.first = compbuf;
			if (CG_HAS_HOOK(rs, decompose)) {
				if (cg_rs_decompose(rs, f->pos, f->len,
				    on_component, &c) < 0)
					cg_die_at(file, line, "ruleset '%s': %s",
					    rs->name, cg_rs_errmsg(rs));
				f = &st[n - 1];
				if (c.ncomp == 1 && !c.self)
					frame_push_child(f, tt_entry(rs,
					    c.first.data, c.first.len));
				if (c.ncomp == 1 && f->nchild == 1 &&
				    f->child[0] == f->entry)
					f->nchild = 0;
				else if (!(c.ncomp == 1 && c.self))
					f->sum = 1;
			}
			compbuf = c.first;
			if (!f->sum) {
				for (s = 0; s < 2; s++) {
					if (cg_rs_options(rs, f->pos, f->len,
					    (enum cg_side)s, on_child, &c) < 0)
						cg_die_at(file, line,
						    "ruleset '%s': %s", rs->name,
						    cg_rs_errmsg(rs));
					f = &st[n - 1];
					if (s == 0)
						f->nl = f->nchild;
				}
			}
			f->next = 0;
		}
		/* descend into the next unknown child */
		while (f->next < f->nchild) {
			uint64_t e = f->child[f->next];
			uint64_t v = *cg_bytemap_value(tt, e);

			if (v == IN_PROGRESS) {
				struct cg_buf t;

				cg_buf_init(&t);
				k = cg_bytemap_key(tt, e, &klen);
				if (cg_rs_print(rs, k + sizeof rs, klen - sizeof rs,
				    &t) < 0)
					cg_buf_addstr(&t, "?");
				cg_die_at(file, line, "position '%s' repeats: not a "
				    "short game", cg_buf_str(&t));
			}
			if (v != 0) {
				f->next++;
				continue;
			}
			k = cg_bytemap_key(tt, e, &klen);
			{
				unsigned char *p = cg_xmalloc(klen);

				memcpy(p, k, klen);
				if (direct_value(rs, p + sizeof rs,
				    klen - sizeof rs, file, line, &g)) {
					*cg_bytemap_value(tt, e) = (uint64_t)g + 1;
					free(p);
					f->next++;
					continue;
				}
				free(p);
			}
			break;
		}
		if (f->next < f->nchild) {
			PUSH(f->child[f->next]);
			continue;
		}
		/* all children known */
		{
			size_t i;
			cg_game *v = cg_xreallocarray(NULL, f->nchild ? f->nchild : 1,
			    sizeof *v);

			for (i = 0; i < f->nchild; i++)
				v[i] = (cg_game)(*cg_bytemap_value(tt,
				    f->child[i]) - 1);
			if (f->sum) {
				g = cg_canon_zero();
				for (i = 0; i < f->nchild; i++)
					g = cg_canon_add(g, v[i]);
			} else {
				g = cg_canon_make(v, f->nl, v + f->nl,
				    f->nchild - f->nl);
			}
			free(v);
			*cg_bytemap_value(tt, f->entry) = (uint64_t)g + 1;
			positions_done++;
			free(f->child);
			free(f->pos);
			n--;
		}
	}
	free(st);
	return (cg_game)(*cg_bytemap_value(tt, root) - 1);
#undef PUSH
}

/* ------------------------------------------------------------ documents */

static void
eval_document(struct cg_doc *d, cg_game *value)
{
	/* 0 unseen, 1 on stack, 2 done */
	unsigned char *state = cg_xcalloc(d->n ? d->n : 1, 1);
	uint32_t *stack = NULL, *pos = NULL;
	size_t n = 0, cap = 0;
	uint32_t r, x, c;
	int s;

	for (r = 0; r < d->nroot; r++) {
		if (state[d->root[r]] == 2)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			stack = cg_xreallocarray(stack, cap, sizeof *stack);
			pos = cg_xreallocarray(pos, cap, sizeof *pos);
		}
		stack[n] = d->root[r];
		pos[n] = 0;
		n++;
		state[d->root[r]] = 1;
		while (n > 0) {
			struct cg_node *nd;
			uint32_t tot;

			x = stack[n - 1];
			nd = &d->node[x];
			if (!nd->expanded && nd->rs != NULL && nd->pos != NULL) {
				value[x] = eval_position(nd->rs, nd->pos,
				    nd->poslen, d->file, nd->line);
				state[x] = 2;
				n--;
				continue;
			}
			if (!nd->expanded && nd->rs != NULL && nd->text != NULL &&
			    nd->nopt[0] + nd->nopt[1] == 0)
				cg_die_at(d->file, nd->line, "node %llu has no "
				    "position bytes", (unsigned long long)nd->id);
			tot = nd->nopt[0] + nd->nopt[1];
			if (pos[n - 1] < tot) {
				uint32_t i = pos[n - 1]++;

				c = i < nd->nopt[0] ? nd->opt[0][i].child :
				    nd->opt[1][i - nd->nopt[0]].child;
				if (state[c] == 2)
					continue;
				if (state[c] == 1)
					cg_die_at(d->file, d->node[c].line,
					    "node %llu is its own follower: not a "
					    "short game",
					    (unsigned long long)d->node[c].id);
				if (n == cap) {
					cap = cap * 2;
					stack = cg_xreallocarray(stack, cap,
					    sizeof *stack);
					pos = cg_xreallocarray(pos, cap, sizeof *pos);
				}
				stack[n] = c;
				pos[n] = 0;
				n++;
				state[c] = 1;
				continue;
			}
			{
				cg_game *v = cg_xreallocarray(NULL, tot ? tot : 1,
				    sizeof *v);
				uint32_t i;

				for (s = 0; s < 2; s++)
					for (i = 0; i < nd->nopt[s]; i++)
						v[(s ? nd->nopt[0] : 0) + i] =
						    value[nd->opt[s][i].child];
				value[x] = cg_canon_make(v, nd->nopt[0],
				    v + nd->nopt[0], nd->nopt[1]);
				free(v);
			}
			state[x] = 2;
			n--;
		}
	}
	free(state);
	free(stack);
	free(pos);
}

/* ------------------------------------------------------------ output */

static void
each(struct cg_doc *d, void *arg)
{
	cg_game *value = cg_xcalloc(d->n ? d->n : 1, sizeof *value);
	size_t nv = nprops + ncmps, i, j;
	struct cg_buf *b = cg_xcalloc(nv ? nv : 1, sizeof *b);
	const char **vals = cg_xcalloc(nv ? nv : 1, sizeof *vals);
	uint32_t r;

	(void)arg;
	eval_document(d, value);
	for (r = 0; r < d->nroot; r++) {
		cg_game g = value[d->root[r]];

		for (i = 0; i < nv; i++) {
			b[i].len = 0;
			if (i < nprops) {
				cg_canon_property(g, props[i], &b[i]);
			} else {
				static const char *rel[] = { "==", ">", "<>" };
				int c = cg_canon_compare(g, cmpgame[i - nprops]);

				cg_buf_addstr(&b[i], c < 0 ? "<" : rel[c]);
			}
			vals[i] = cg_buf_str(&b[i]);
		}
		if (tsv) {
			cg_tsv_row(stdout, d, d->root[r], vals, nv);
		} else {
			for (i = 0; i < nv; i++) {
				char key[300];

				if (i < nprops)
					snprintf(key, sizeof key, "%s", props[i]);
				else
					snprintf(key, sizeof key, "cmp %s",
					    cmps[i - nprops]);
				for (j = 0; key[j]; j++)
					if (key[j] == '\t' || key[j] == '\n')
						key[j] = ' ';
				cg_doc_annotate(d, d->root[r], key, vals[i]);
			}
		}
	}
	if (!tsv)
		cg_doc_write(stdout, d);
	for (i = 0; i < nv; i++)
		cg_buf_free(&b[i]);
	free(b);
	free(vals);
	free(value);
}

static void
add_props(const char *list)
{
	const char *p = list, *e;

	for (;;) {
		e = strchr(p, ',');
		if (e == NULL)
			e = p + strlen(p);
		if (e == p)
			cg_die(CG_EXIT_USAGE, "empty property in '%s'", list);
		props = cg_xreallocarray(props, nprops + 1, sizeof *props);
		props[nprops] = cg_xstrndup(p, (size_t)(e - p));
		if (!cg_canon_property_known(props[nprops]))
			cg_die(CG_EXIT_USAGE, "unknown property '%s'",
			    props[nprops]);
		nprops++;
		if (*e == '\0')
			break;
		p = e + 1;
	}
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, CG_OPT_VERSION },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ NULL, 0, NULL, 0 },
	};
	const char *spec = NULL;
	struct timespec t0, t1;
	size_t i;
	int c;

	cg_tool_init(argc, argv);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	{
		/* the store's recursion is bounded by CG_CANON_MAX_DEPTH
		 * levels; give the main stack room for that many */
		struct rlimit rl;

		if (getrlimit(RLIMIT_STACK, &rl) == 0 &&
		    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < (256u << 20)) {
			rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ||
			    rl.rlim_max > (256u << 20) ? (256u << 20) : rl.rlim_max;
			setrlimit(RLIMIT_STACK, &rl);
		}
	}
	while ((c = getopt_long(argc, argv, "c:hK:P:p:r:t", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 't': tsv = 1; break;
		case 'p': add_props(optarg); break;
		case 'c':
			cmps = cg_xreallocarray(cmps, ncmps + 1, sizeof *cmps);
			cmps[ncmps++] = optarg;
			break;
		case 'K': cg_kb_add(optarg); use_kb = 1; break;
		case OPT_STATS: stats = 1; break;
		case 'r': spec = optarg; break;
		case 'P': cg_plugin_add_dir(optarg); break;
		case 'h': cg_help(usage, help);
		case CG_OPT_VERSION: cg_version();
		default: cg_usage(usage);
		}
	}
	cmpgame = cg_xcalloc(ncmps ? ncmps : 1, sizeof *cmpgame);
	for (i = 0; i < ncmps; i++) {
		char msg[256];
		size_t col;

		if (cg_canon_parse(cmps[i], strlen(cmps[i]), &cmpgame[i], msg,
		    sizeof msg, &col) < 0) {
			fprintf(stderr, "%s: -c '%s': column %zu: %s\n",
			    cg_progname, cmps[i], col, msg);
			exit(CG_EXIT_USAGE);
		}
	}
	if (nprops == 0 && ncmps == 0)
		add_props("canon");
	cg_buf_init(&keybuf);
	cg_buf_init(&canonbuf);
	cg_each_document(argc - optind, argv + optind, spec, each, NULL);
	if (stats) {
		struct rusage ru;

		clock_gettime(CLOCK_MONOTONIC, &t1);
		getrusage(RUSAGE_SELF, &ru);
		fprintf(stderr, "%s: games %zu, store bytes %zu, positions %zu, "
		    "seconds %.3f, peak rss KiB %ld\n", cg_progname,
		    cg_canon_count(), cg_canon_memory(), positions_done,
		    (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, ru.ru_maxrss);
	}
	cg_buf_free(&keybuf);
	cg_buf_free(&canonbuf);
	cg_buf_free(&compbuf);
	if (tt)
		cg_bytemap_free(tt);
	for (i = 0; i < nprops; i++)
		free(props[i]);
	free(props);
	free(cmps);
	free(cmpgame);
	if (use_kb)
		cg_kb_close_all();
	cg_plugin_unload_all();
	cg_close_stdout();
	return 0;
}
