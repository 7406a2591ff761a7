/* cg-kb - query a knowledge base: look positions up, best moves with the
 * values they lead to, dump a base as a document, statistics. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/bytemap.h"
#include "format/doc.h"
#include "kb/kb.h"
#include "kb/kbfile.h"
#include "kb/kbmove.h"
#include "base/tool.h"
#include "base/util.h"

static const char usage[] =
    "lookup [-t] [-k KINDS] [-r NAME[:PARAMS]] [-P DIR] BASE [file ...]\n"
    "       cg-kb best [-a] [-s left|right] [-k KINDS] [-r NAME[:PARAMS]] "
    "[-P DIR] BASE [file ...]\n"
    "       cg-kb dump [-P DIR] BASE\n"
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
    "  stats    header fields, sizes, bits per position, value entropy\n"
    "\n"
    "  -k LIST           value kinds to show (default: all the base holds)\n"
    "  -t                tab-separated output (lookup)\n"
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

/* ----------------------------------------------------------------- dump */

struct dumper {
	struct cg_plugin *rs;
	uint64_t id;
	struct cg_buf b, t;
	const struct cg_kb_meta *m;
};

static int
dump_entry(void *ctx, const unsigned char *key, size_t len,
    const char *const *vals)
{
	struct dumper *d = ctx;
	uint32_t k;

	d->id++;
	d->b.len = 0;
	d->t.len = 0;
	if (cg_rs_print(d->rs, key, len, &d->t) < 0)
		cg_die(CG_EXIT_DATA, "%s: entry %llu: %s", base_path,
		    (unsigned long long)d->id, cg_rs_errmsg(d->rs));
	cg_buf_addf(&d->b, "N\t%llu\t", (unsigned long long)d->id);
	cg_escape(&d->b, cg_buf_str(&d->t));
	cg_buf_addc(&d->b, '\n');
	for (k = 0; k < d->m->nkinds; k++)
		if (vals[k] != NULL) {
			cg_buf_addf(&d->b, "A\t%llu\t%s\t",
			    (unsigned long long)d->id, d->m->kinds[k]);
			cg_escape(&d->b, vals[k]);
			cg_buf_addc(&d->b, '\n');
		}
	fwrite(d->b.data, 1, d->b.len, stdout);
	cg_check_write(stdout, "standard output");
	return 0;
}

static void
dump(void)
{
	struct dumper d;
	char err[1024], spec[512];
	uint64_t i;

	memset(&d, 0, sizeof d);
	d.m = cg_kbfile_meta(base);
	d.rs = cg_plugin_get(cg_kb_meta_spec(d.m, spec, sizeof spec),
	    CG_EXIT_DATA);
	cg_buf_init(&d.b);
	cg_buf_init(&d.t);
	printf("cgt\t1\n# knowledge base: %llu entries",
	    (unsigned long long)d.m->count);
	if (*d.m->family)
		printf(", family %s", d.m->family);
	printf("\nruleset\t%s\n", spec);
	if (cg_kbfile_each(base, dump_entry, &d, err, sizeof err) != 0)
		cg_die(CG_EXIT_DATA, "%s", err);
	for (i = 1; i <= d.id; i++)
		printf("root\t%llu\n", (unsigned long long)i);
	printf("end\n");
	cg_check_write(stdout, "standard output");
	cg_buf_free(&d.b);
	cg_buf_free(&d.t);
}

/* ---------------------------------------------------------------- stats */

struct stat_ctx {
	struct cg_bytemap *freq[CG_KB_MAXKINDS];
	uint64_t absent[CG_KB_MAXKINDS];
	uint32_t nkinds;
	uint64_t seen, nsample;
	unsigned char **sample;
	size_t *samplelen;
	uint64_t rng;
};

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int
stat_entry(void *ctx, const unsigned char *key, size_t len,
    const char *const *vals)
{
	struct stat_ctx *c = ctx;
	uint32_t k;
	uint64_t slot;
	int isnew;

	for (k = 0; k < c->nkinds; k++) {
		if (vals[k] == NULL) {
			c->absent[k]++;
			continue;
		}
		slot = cg_bytemap_intern(c->freq[k], vals[k], strlen(vals[k]),
		    &isnew);
		(*cg_bytemap_value(c->freq[k], slot))++;
	}
	/* reservoir sample of keys for timing */
	if (c->nsample > 0) {
		uint64_t j = c->seen < c->nsample ? c->seen :
		    rnd(&c->rng) % (c->seen + 1);

		if (j < c->nsample) {
			free(c->sample[j]);
			c->sample[j] = cg_xmalloc(len ? len : 1);
			if (len > 0)
				memcpy(c->sample[j], key, len);
			c->samplelen[j] = len;
		}
	}
	c->seen++;
	return 0;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
stats(unsigned long ntime)
{
	const struct cg_kb_meta *m = cg_kbfile_meta(base);
	struct cg_kbfile_stats st;
	struct stat_ctx c;
	char err[1024], spec[512];
	double total_h = 0;
	uint64_t n = m->count, i;
	uint32_t k;

	memset(&c, 0, sizeof c);
	c.nkinds = m->nkinds;
	c.rng = 0x9e3779b97f4a7c15ull;
	c.nsample = ntime;
	if (ntime > 0) {
		c.sample = cg_xcalloc(ntime, sizeof *c.sample);
		c.samplelen = cg_xcalloc(ntime, sizeof *c.samplelen);
	}
	for (k = 0; k < m->nkinds; k++)
		c.freq[k] = cg_bytemap_new();
	if (cg_kbfile_each(base, stat_entry, &c, err, sizeof err) != 0)
		cg_die(CG_EXIT_DATA, "%s", err);
	cg_kbfile_stats(base, &st);
	printf("file\t%s\n", base_path);
	printf("format\t%d\n", CG_KB_FORMAT);
	printf("ruleset\t%s\n", cg_kb_meta_spec(m, spec, sizeof spec));
	printf("ruleset-version\t%s\n", m->plugin_version);
	printf("family\t%s\n", m->family);
	printf("shard\t%u/%u\n", m->shard_k, m->shard_n);
	printf("kinds\t");
	for (k = 0; k < m->nkinds; k++)
		printf("%s%s", k ? "," : "", m->kinds[k]);
	printf("\nentries\t%llu\n", (unsigned long long)n);
	printf("blocks\t%u\n", st.nblocks);
	printf("block-size\t%u\n", m->block_size);
	printf("file-bytes\t%llu\n", (unsigned long long)st.file_size);
	printf("header-bytes\t%llu\n", (unsigned long long)st.header_size);
	printf("dictionary-bytes\t%llu\n", (unsigned long long)st.dict_size);
	printf("data-bytes\t%llu\n", (unsigned long long)st.data_size);
	printf("raw-bytes\t%llu\n", (unsigned long long)st.raw_size);
	if (n > 0) {
		printf("bytes-per-position\t%.3f\n", (double)st.file_size / n);
		printf("bits-per-position\t%.3f\n", 8.0 * st.file_size / n);
	}
	for (k = 0; k < m->nkinds; k++) {
		size_t nv = cg_bytemap_count(c.freq[k]), j;
		double h = 0;

		for (j = 0; j < nv; j++) {
			double p = (double)*cg_bytemap_value(c.freq[k], j) / n;

			h -= p * log2(p);
		}
		if (c.absent[k] > 0) {
			double p = (double)c.absent[k] / n;

			h -= p * log2(p);
		}
		total_h += h;
		printf("%s-distinct\t%zu\n", m->kinds[k], nv);
		printf("%s-absent\t%llu\n", m->kinds[k],
		    (unsigned long long)c.absent[k]);
		printf("%s-entropy-bits\t%.3f\n", m->kinds[k], h);
	}
	printf("value-entropy-bits\t%.3f\n", total_h);
	if (ntime > 0 && n > 0) {
		uint64_t ns = c.nsample < n ? c.nsample : n;
		double t0, t1;
		struct cg_kbfile *f = cg_kbfile_open(base_path, err, sizeof err);

		if (f == NULL)
			cg_die(CG_EXIT_DATA, "%s", err);
		t0 = now();
		for (i = 0; i < ns; i++)
			(void)cg_kbfile_get(f, c.sample[i], c.samplelen[i], 0);
		t1 = now();
		printf("lookup-random-us\t%.2f\n", (t1 - t0) * 1e6 / ns);
		t0 = now();
		for (i = 0; i < ns; i++)  /* the same key: block cached */
			(void)cg_kbfile_get(f, c.sample[0], c.samplelen[0], 0);
		t1 = now();
		printf("lookup-cached-us\t%.3f\n", (t1 - t0) * 1e6 / ns);
		cg_kbfile_close(f);
	}
	cg_check_write(stdout, "standard output");
	for (i = 0; i < c.nsample; i++)
		free(c.sample[i]);
	free(c.sample);
	free(c.samplelen);
	for (k = 0; k < m->nkinds; k++)
		cg_bytemap_free(c.freq[k]);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, CG_OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd, *spec = NULL, *klist = NULL;
	unsigned long ntime = 0;
	int c;

	cg_tool_init(argc, argv);
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0))
		cg_help(usage, help);
	if (argc >= 2 && strcmp(argv[1], "--version") == 0)
		cg_version();
	if (argc < 2 || argv[1][0] == '-')
		cg_usage(usage);
	cmd = argv[1];
	if (strcmp(cmd, "lookup") != 0 && strcmp(cmd, "best") != 0 &&
	    strcmp(cmd, "dump") != 0 && strcmp(cmd, "stats") != 0) {
		fprintf(stderr, "%s: unknown command '%s'\n", cg_progname, cmd);
		cg_usage(usage);
	}
	argc--;
	argv++;
	while ((c = getopt_long(argc, argv, "ahk:P:r:s:tT:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'a': all_moves = 1; break;
		case 'k': klist = optarg; break;
		case 't': tsv = 1; break;
		case 'T': ntime = cg_parse_count(optarg, "-T"); break;
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
	if (argc < 1)
		cg_usage(usage);
	if ((strcmp(cmd, "dump") == 0 || strcmp(cmd, "stats") == 0) &&
	    (argc != 1 || spec || klist || tsv || all_moves || sides != 3))
		cg_usage(usage);
	if (ntime && strcmp(cmd, "stats") != 0)
		cg_usage(usage);
	open_base(argv[0]);
	if (strcmp(cmd, "dump") == 0) {
		dump();
	} else if (strcmp(cmd, "stats") == 0) {
		stats(ntime);
	} else {
		set_kinds(klist);
		cg_each_document(argc - 1, argv + 1, spec,
		    strcmp(cmd, "best") == 0 ? do_best : do_lookup, NULL);
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
