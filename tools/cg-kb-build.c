/* cg-kb-build - build, merge and verify knowledge bases (cgkb(5)). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/bytemap.h"
#include "values/canon.h"
#include "values/notation.h"
#include "kb/kb.h"
#include "kb/kbmove.h"
#include "format/doc.h"
#include "kb/kbfile.h"
#include "kb/kbvalue.h"
#include "base/tool.h"
#include "base/util.h"

static const char usage[] =
    "[-anv] [-k KINDS] [-r NAME[:PARAMS]] [--family TEXT] [--shard K/N]\n"
    "           -o FILE [-K BASE] [-P DIR] [file ...]\n"
    "       cg-kb-build --merge -o FILE [-v] BASE ...\n"
    "       cg-kb-build --verify [-P DIR] [-v] BASE";
static const char help[] =
    "Build a knowledge base (cgkb(5)) of solved positions: every position of a\n"
    "family the ruleset enumerates (--family), or the roots of the input\n"
    "documents, stored once per symmetry class with the chosen value kinds.\n"
    "Values come from the documents' annotations (A ID KIND VALUE) when present,\n"
    "otherwise from the engines (cg-canon, cg-outcome).\n"
    "\n"
    "  -k, --kinds LIST     value kinds, comma-separated (default canon,outcome):\n"
    "                       canon, outcome, nimber, misere, misere-nimber, genus,\n"
    "                       or a cg-canon -p property\n"
    "  -r NAME[:PARAMS]     the ruleset (bare positions in the input)\n"
    "      --family TEXT    enumerate this family of positions (needs -r)\n"
    "      --shard K/N      build only shard K of N (K from 1)\n"
    "  -a, --all-nodes      take every node of the documents, not just roots\n"
    "  -o, --output FILE    the base to write (atomically; - for stdout)\n"
    "      --checkpoint F   resume file (default FILE.ckpt)\n"
    "      --block-size N   uncompressed bytes per block (default 4096)\n"
    "      --games          store canonical forms as a DAG of games: a smaller\n"
    "                       file that takes longer to open\n"
    "      --batch N        positions per engine run and checkpoint (default 20000)\n"
    "  -n, --dry-run        print the number of positions (of this shard) and stop\n"
    "      --engine-only    every value from the engines (default for a whole\n"
    "                       family: canonical forms bottom-up from the options')\n"
    "  -K BASE              let the engines use BASE while computing\n"
    "      --merge          join shards (or whole bases) into FILE\n"
    "      --verify         check BASE: checksums, order, canonical keys, and\n"
    "                       every entry re-derived from its children\n"
    "  -P DIR               also search DIR for ruleset plugins\n"
    "  -v, --verbose        progress and figures on standard error\n"
    "  -h, --help           show this help\n"
    "      --version        show the version\n";

enum {
	OPT_FAMILY = CG_OPT_TOOL_BASE, OPT_SHARD, OPT_MERGE, OPT_VERIFY,
	OPT_BLOCK, OPT_BATCH, OPT_CKPT, OPT_ENGINE, OPT_GAMES
};

static int verbose, all_nodes, dry_run, engine_only, games;
static unsigned long batch = 20000;

/* ------------------------------------------------------------- helpers */

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
hex(struct cg_buf *b, const unsigned char *key, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		cg_buf_addf(b, "%02x", key[i]);
}

static int
unhexdigit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* A key as the position's text when the plugin can print it. */
static const char *
describe(struct cg_plugin *rs, const unsigned char *key, size_t len,
    struct cg_buf *b)
{
	b->len = 0;
	if (rs != NULL && cg_rs_print(rs, key, len, b) == 0)
		return cg_buf_str(b);
	b->len = 0;
	cg_buf_addstr(b, "key ");
	hex(b, key, len);
	return cg_buf_str(b);
}

static void
meta_for(struct cg_kb_meta *m, struct cg_plugin *rs)
{
	free(m->ruleset);
	free(m->params);
	free(m->plugin_version);
	m->ruleset = cg_xstrdup(rs->name);
	m->params = cg_xstrdup(rs->params ? rs->params : "");
	m->plugin_version = cg_xstrdup(rs->rs->version ? rs->rs->version : "");
}

static void
write_base(const struct cg_kbset *s, struct cg_kb_meta *m, const char *out)
{
	char err[1024];
	struct stat st;

	int is_stdout = strcmp(out, "-") == 0;

	if (is_stdout)
		out = "standard output";
	if (is_stdout || (stat(out, &st) == 0 && !S_ISREG(st.st_mode))) {
		/* a device or pipe: write in place, through a temporary
		 * base in TMPDIR that is copied */
		char tmpl[] = "/tmp/cgkbXXXXXX";
		int fd = mkstemp(tmpl), in, o;
		char buf[65536];
		ssize_t r;

		if (fd < 0)
			cg_die(CG_EXIT_DATA, "temporary file: %s", strerror(errno));
		close(fd);
		if (cg_kbset_write(s, m, tmpl, err, sizeof err) < 0) {
			unlink(tmpl);
			cg_die(CG_EXIT_DATA, "%s", err);
		}
		in = open(tmpl, O_RDONLY);
		o = is_stdout ? dup(STDOUT_FILENO) : open(out, O_WRONLY);
		if (in < 0 || o < 0) {
			unlink(tmpl);
			cg_die(CG_EXIT_DATA, "%s: %s", out, strerror(errno));
		}
		while ((r = read(in, buf, sizeof buf)) > 0) {
			char *p = buf;

			while (r > 0) {
				ssize_t w = write(o, p, (size_t)r);

				if (w < 0) {
					unlink(tmpl);
					cg_die(CG_EXIT_DATA, "%s: %s", out,
					    strerror(errno));
				}
				p += w;
				r -= w;
			}
		}
		close(in);
		unlink(tmpl);
		if (close(o) < 0)
			cg_die(CG_EXIT_DATA, "%s: %s", out, strerror(errno));
		return;
	}
	if (cg_kbset_write(s, m, out, err, sizeof err) < 0)
		cg_die(CG_EXIT_DATA, "%s", err);
}

/* --------------------------------------------------------------- build */

struct build {
	struct cg_plugin *rs;
	struct cg_kb_meta meta;
	struct cg_kbset *set;
	unsigned char *done;      /* entry * nkinds: value known or tried */
	size_t donecap;
	struct cg_buf canon, text;
	size_t seen;              /* positions offered (before dedup) */
};

static void
mark_done(struct build *b, uint64_t e, uint32_t k)
{
	size_t need = (size_t)(e + 1) * b->meta.nkinds;

	if (need > b->donecap) {
		size_t ncap = b->donecap ? b->donecap * 2 : 4096;

		while (ncap < need)
			ncap *= 2;
		b->done = cg_xrealloc(b->done, ncap);
		memset(b->done + b->donecap, 0, ncap - b->donecap);
		b->donecap = ncap;
	}
	b->done[e * b->meta.nkinds + k] = 1;
}

static int
is_done(const struct build *b, uint64_t e, uint32_t k)
{
	size_t i = (size_t)e * b->meta.nkinds + k;

	return i < b->donecap && b->done[i];
}

/* Add one position (with known values, or NULLs); file/line for errors. */
static void
add_position(struct build *b, const unsigned char *pos, size_t len,
    const char *const *values, const char *file, unsigned long line)
{
	const char *old;
	int64_t e;
	int k;
	uint32_t i;

	b->seen++;
	b->canon.len = 0;
	if (cg_rs_canonical(b->rs, pos, len, &b->canon) < 0)
		cg_die_at(file, line, "ruleset '%s': %s", b->rs->name,
		    cg_rs_errmsg(b->rs));
	if (b->meta.shard_n > 1 && cg_kb_shard_of(b->canon.data, b->canon.len,
	    b->meta.shard_n) != b->meta.shard_k)
		return;
	k = cg_kbset_add(b->set, b->canon.data, b->canon.len, values, &old);
	if (k >= 0)
		cg_die_at(file, line, "conflicting %s values for '%s': '%s' "
		    "and '%s'", b->meta.kinds[k], describe(b->rs, pos, len,
		    &b->text), old, values[k]);
	e = cg_kbset_find(b->set, b->canon.data, b->canon.len);
	for (i = 0; i < b->meta.nkinds; i++)
		if (values[i] != NULL)
			mark_done(b, (uint64_t)e, i);
}

static int
on_family(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	static const char *none[CG_KB_MAXKINDS];
	struct build *b = ctx;

	(void)move;
	add_position(b, pos, len, none, NULL, 0);
	if (verbose && b->seen % 1000000 == 0)
		fprintf(stderr, "%s: %zu positions enumerated, %zu classes\n",
		    cg_progname, b->seen, cg_kbset_count(b->set));
	return 0;
}

static void
on_document(struct cg_doc *d, void *arg)
{
	struct build *b = arg;
	const char *vals[CG_KB_MAXKINDS];
	uint32_t i, k, x;

	for (i = 0; i < (all_nodes ? d->n : d->nroot); i++) {
		struct cg_node *n;

		x = all_nodes ? i : d->root[i];
		n = &d->node[x];
		if (n->rs == NULL || n->pos == NULL) {
			if (all_nodes)
				continue;
			cg_die_at(d->file, n->line, "root %llu has no position",
			    (unsigned long long)n->id);
		}
		if (b->rs == NULL) {
			b->rs = n->rs;
			meta_for(&b->meta, b->rs);
		} else if (n->rs != b->rs && strcmp(n->rs->spec, b->rs->spec) != 0) {
			cg_die_at(d->file, n->line, "position of ruleset '%s' in "
			    "a base of '%s'", n->rs->spec, b->rs->spec);
		}
		for (k = 0; k < b->meta.nkinds; k++)
			vals[k] = cg_doc_annotation(d, x, b->meta.kinds[k]);
		add_position(b, n->pos, n->poslen, vals, d->file, n->line);
	}
}

/* The checkpoint: a text file of computed values, appended per batch.
 *   cgkb-checkpoint 1 <TAB> spec <TAB> version <TAB> family <TAB> kinds <TAB> K/N
 *   V <TAB> hexkey <TAB> kind index <TAB> value (percent-escaped; empty =
 *   the engine gave none)
 * A killed build leaves it behind; the next run with the same arguments
 * loads it and computes only what is missing. */
static void
ckpt_header(struct build *b, struct cg_buf *h)
{
	uint32_t k;

	cg_buf_addf(h, "cgkb-checkpoint\t1\t%s\t%s\t", b->rs->spec,
	    b->meta.plugin_version);
	cg_escape(h, b->meta.family);
	cg_buf_addc(h, '\t');
	for (k = 0; k < b->meta.nkinds; k++)
		cg_buf_addf(h, "%s%s", k ? "," : "", b->meta.kinds[k]);
	cg_buf_addf(h, "\t%u/%u\n", b->meta.shard_k, b->meta.shard_n);
}

static size_t
ckpt_load(struct build *b, const char *path)
{
	FILE *fp = fopen(path, "r");
	struct cg_buf h, key;
	char *line = NULL;
	size_t cap = 0, loaded = 0;
	ssize_t n;
	unsigned long lineno = 0;

	if (fp == NULL) {
		if (errno == ENOENT)
			return 0;
		cg_die(CG_EXIT_DATA, "%s: %s", path, strerror(errno));
	}
	cg_buf_init(&h);
	cg_buf_init(&key);
	ckpt_header(b, &h);
	while ((n = getline(&line, &cap, fp)) > 0) {
		char *f[4], *p = line;
		const char *vals[CG_KB_MAXKINDS] = { 0 };
		unsigned long k;
		int64_t e;
		int i, nf = 0;

		lineno++;
		if (line[n - 1] != '\n')
			break; /* torn last line of a killed build */
		if (lineno == 1) {
			if (strcmp(line, cg_buf_str(&h)) != 0)
				cg_die_at(path, 1, "checkpoint of another build "
				    "(remove it to start afresh)");
			continue;
		}
		line[n - 1] = '\0';
		for (i = 0; i < 4; i++) {
			f[nf++] = p;
			p = strchr(p, '\t');
			if (p == NULL)
				break;
			*p++ = '\0';
		}
		if (nf != 4 || strcmp(f[0], "V") != 0 || strlen(f[1]) % 2)
			cg_die_at(path, lineno, "malformed checkpoint record");
		key.len = 0;
		for (p = f[1]; *p; p += 2) {
			int hi = unhexdigit(p[0]), lo = unhexdigit(p[1]);

			if (hi < 0 || lo < 0)
				cg_die_at(path, lineno, "malformed checkpoint key");
			cg_buf_addc(&key, hi * 16 + lo);
		}
		k = strtoul(f[2], NULL, 10);
		if (k >= b->meta.nkinds)
			cg_die_at(path, lineno, "malformed checkpoint kind");
		e = cg_kbset_find(b->set, key.data, key.len);
		if (e < 0)
			continue; /* not part of this build */
		if (*f[3] != '\0') {
			const char *old;
			char *v = f[3], *o = v;

			for (p = v; *p; p++) {
				if (*p == '%' && unhexdigit(p[1] | 0x20) >= 0 &&
				    unhexdigit(p[2] | 0x20) >= 0) {
					*o++ = (char)(unhexdigit(p[1] | 0x20) * 16 +
					    unhexdigit(p[2] | 0x20));
					p += 2;
				} else {
					*o++ = *p;
				}
			}
			*o = '\0';
			vals[k] = v;
			if (cg_kbset_add(b->set, key.data, key.len, vals, &old) >= 0)
				cg_die_at(path, lineno, "checkpoint value '%s' "
				    "disagrees with '%s' for '%s'", v, old,
				    describe(b->rs, key.data, key.len, &b->text));
		}
		mark_done(b, (uint64_t)e, (uint32_t)k);
		loaded++;
	}
	free(line);
	fclose(fp);
	cg_buf_free(&h);
	cg_buf_free(&key);
	return loaded;
}

static void
ckpt_append(int fd, const char *path, const struct cg_buf *data)
{
	const unsigned char *p = data->data;
	size_t n = data->len;

	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			cg_die(CG_EXIT_DATA, "%s: %s", path, strerror(errno));
		}
		p += w;
		n -= (size_t)w;
	}
	if (fdatasync(fd) < 0)
		cg_die(CG_EXIT_DATA, "%s: %s", path, strerror(errno));
}

/* Values that follow from a canonical form, computed here: the outcome
 * class, and the nim value of a nimber.  malloc'ed, or NULL. */
static char *
from_canon(const char *kind, const char *canon)
{
	cg_game g;
	char msg[256], buf[32];
	size_t col;
	struct cg_dyadic x;
	int64_t up;
	uint64_t nim;

	if (canon == NULL || cg_canon_parse(canon, strlen(canon), &g, msg,
	    sizeof msg, &col) < 0)
		return NULL;
	if (strcmp(kind, "outcome") == 0) {
		buf[0] = (char)cg_canon_outcome(g);
		buf[1] = '\0';
		return cg_xstrdup(buf);
	}
	if (strcmp(kind, "nimber") == 0 && cg_canon_is_nimber(g) &&
	    cg_canon_nus_parts(g, &x, &up, &nim)) {
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)nim);
		return cg_xstrdup(buf);
	}
	return NULL;
}

static void
compute_missing(struct build *b, const char *ckpt)
{
	size_t n = cg_kbset_count(b->set), i, j, nb, computed = 0, todo = 0;
	const unsigned char **pos = cg_xmalloc(batch * sizeof *pos);
	size_t *len = cg_xmalloc(batch * sizeof *len);
	uint64_t *ent = cg_xmalloc(batch * sizeof *ent);
	char **out = cg_xcalloc(batch, sizeof *out);
	struct cg_buf rec;
	int fd = -1;
	uint32_t k, ki, order[CG_KB_MAXKINDS];
	int canon = cg_kb_meta_kind(&b->meta, "canon");
	double t0 = now();

	cg_buf_init(&rec);
	for (k = 0; k < b->meta.nkinds; k++)
		for (i = 0; i < n; i++)
			if (!is_done(b, i, k))
				todo++;
	/* canonical forms first: other kinds may follow from them */
	ki = 0;
	if (canon >= 0)
		order[ki++] = (uint32_t)canon;
	for (k = 0; k < b->meta.nkinds; k++)
		if ((int)k != canon)
			order[ki++] = k;
	for (ki = 0; ki < b->meta.nkinds; ki++) {
		k = order[ki];
		i = 0;
		for (;;) {
			nb = 0;
			for (; i < n && nb < batch; i++)
				if (!is_done(b, i, k)) {
					ent[nb] = i;
					pos[nb] = cg_kbset_key(b->set, i, &len[nb]);
					nb++;
				}
			if (nb == 0)
				break;
			{
				/* derive what the canonical forms give, send the
				 * rest to the engine */
				size_t ne = 0, *eidx = cg_xmalloc(nb * sizeof *eidx);
				const unsigned char **ep = cg_xmalloc(nb * sizeof *ep);
				size_t *el = cg_xmalloc(nb * sizeof *el);
				char **eo = cg_xcalloc(nb, sizeof *eo);

				for (j = 0; j < nb; j++) {
					out[j] = canon < 0 ? NULL : from_canon(
					    b->meta.kinds[k], cg_kbset_value(b->set,
					    ent[j], (uint32_t)canon));
					if (out[j] == NULL) {
						eidx[ne] = j;
						ep[ne] = pos[j];
						el[ne++] = len[j];
					}
				}
				if (ne > 0)
					cg_kbv_compute(b->rs, b->meta.kinds[k], ne, ep,
					    el, eo);
				for (j = 0; j < ne; j++)
					out[eidx[j]] = eo[j];
				free(eidx);
				free(ep);
				free(el);
				free(eo);
			}
			rec.len = 0;
			if (fd < 0 && ckpt != NULL) {
				struct stat st;

				fd = open(ckpt, O_WRONLY | O_CREAT | O_APPEND, 0666);
				if (fd < 0)
					cg_die(CG_EXIT_DATA, "%s: %s", ckpt,
					    strerror(errno));
				if (fstat(fd, &st) == 0 && st.st_size == 0)
					ckpt_header(b, &rec);
			}
			for (j = 0; j < nb; j++) {
				const char *vals[CG_KB_MAXKINDS] = { 0 }, *old;

				vals[k] = out[j];
				if (out[j] != NULL && cg_kbset_add(b->set, pos[j],
				    len[j], vals, &old) >= 0)
					cg_die(CG_EXIT_DATA, "engine value '%s' "
					    "disagrees with '%s' for '%s'", out[j],
					    old, describe(b->rs, pos[j], len[j],
					    &b->text));
				mark_done(b, ent[j], k);
				cg_buf_addstr(&rec, "V\t");
				hex(&rec, pos[j], len[j]);
				cg_buf_addf(&rec, "\t%u\t", k);
				if (out[j] != NULL)
					cg_escape(&rec, out[j]);
				cg_buf_addc(&rec, '\n');
				free(out[j]);
				out[j] = NULL;
			}
			if (fd >= 0)
				ckpt_append(fd, ckpt, &rec);
			computed += nb;
			if (verbose)
				fprintf(stderr, "%s: computed %zu of %zu values "
				    "(%.0f/s)\n", cg_progname, computed, todo,
				    computed / (now() - t0 + 1e-9));
		}
	}
	if (fd >= 0 && close(fd) < 0)
		cg_die(CG_EXIT_DATA, "%s: %s", ckpt, strerror(errno));
	free(pos);
	free(len);
	free(ent);
	free(out);
	cg_buf_free(&rec);
}

/*
 * Bottom-up canonical forms: a position's canonical form is {its Left
 * options | its Right options} canonicalised by the canon store, an option
 * the sum of its components, and a component a position of the base being
 * built (computed first, depth-first) or, when the base does not hold it,
 * computed by the engine in one batch beforehand.  Each position is
 * expanded once, so no subposition is searched twice.
 */
struct bu {
	struct build *b;
	uint32_t canon;          /* the canon kind's index */
	int outcome;             /* the outcome kind's index, or -1 */
	cg_game *game;           /* per entry: canonical form, CG_NO_GAME */
	unsigned char *blocked;  /* per entry: waits for a foreign component */
	struct cg_kbset *foreign; /* components outside the base: canon */
	struct cg_buf comp, canonb, text;
	size_t *coff, ncomp, compcap;
	int collecting;          /* first pass: only find foreign components */
};

static int
bu_component(void *ctx, const unsigned char *pos, size_t len, const char *m)
{
	struct bu *u = ctx;

	(void)m;
	u->canonb.len = 0;
	if (cg_rs_canonical(u->b->rs, pos, len, &u->canonb) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", u->b->rs->name,
		    cg_rs_errmsg(u->b->rs));
	if (u->ncomp + 2 > u->compcap) {
		u->compcap = u->compcap ? u->compcap * 2 : 64;
		u->coff = cg_xreallocarray(u->coff, u->compcap, sizeof *u->coff);
	}
	if (u->ncomp == 0)
		u->coff[0] = u->comp.len;
	cg_buf_add(&u->comp, u->canonb.data, u->canonb.len);
	u->coff[++u->ncomp] = u->comp.len;
	return 0;
}

/* Options of one entry: per option, its components (canonical keys). */
struct bu_opts {
	struct bu *u;
	size_t *first;           /* option i: components first[i]..first[i+1] */
	size_t nopt, cap, nleft;
};

static int
bu_option(void *ctx, const unsigned char *pos, size_t len, const char *m)
{
	struct bu_opts *o = ctx;

	(void)m;
	if (o->nopt + 2 > o->cap) {
		o->cap = o->cap ? o->cap * 2 : 64;
		o->first = cg_xreallocarray(o->first, o->cap, sizeof *o->first);
	}
	o->first[o->nopt] = o->u->ncomp;
	if (cg_rs_decompose(o->u->b->rs, pos, len, bu_component, o->u) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", o->u->b->rs->name,
		    cg_rs_errmsg(o->u->b->rs));
	o->nopt++;
	o->first[o->nopt] = o->u->ncomp;
	return 0;
}

static void
bu_expand(struct bu *u, uint64_t e, struct bu_opts *o)
{
	size_t len;
	const unsigned char *key = cg_kbset_key(u->b->set, e, &len);
	int s;

	u->comp.len = 0;
	u->ncomp = 0;
	o->nopt = 0;
	for (s = 0; s < 2; s++) {
		if (cg_rs_options(u->b->rs, key, len, (enum cg_side)s, bu_option,
		    o) < 0)
			cg_die(CG_EXIT_DATA, "ruleset '%s': %s", u->b->rs->name,
			    cg_rs_errmsg(u->b->rs));
		if (s == 0)
			o->nleft = o->nopt;
	}
}

static cg_game
parse_game(const char *v, struct build *b, const unsigned char *key,
    size_t len, struct cg_buf *text)
{
	cg_game g;
	char msg[256];
	size_t col;

	if (cg_canon_parse(v, strlen(v), &g, msg, sizeof msg, &col) < 0)
		cg_die(CG_EXIT_DATA, "value '%s' of '%s' is not a canonical "
		    "form: %s", v, describe(b->rs, key, len, text), msg);
	return g;
}

/* The canonical form of component i of the current expansion, or
 * CG_NO_GAME with *need set to its entry when that is still to do. */
static cg_game
bu_comp_game(struct bu *u, size_t i, int64_t *need)
{
	const unsigned char *c = u->comp.data + u->coff[i];
	size_t cl = u->coff[i + 1] - u->coff[i];
	int64_t e = cg_kbset_find(u->b->set, c, cl);
	const char *v;

	*need = -1;
	if (e >= 0) {
		if (u->game[e] != CG_NO_GAME)
			return u->game[e];
		if (u->blocked[e]) {
			*need = -2;
			return CG_NO_GAME;
		}
		v = cg_kbset_value(u->b->set, (uint64_t)e, u->canon);
		if (v != NULL)
			return u->game[e] = parse_game(v, u->b, c, cl, &u->text);
		*need = e;
		return CG_NO_GAME;
	}
	e = cg_kbset_find(u->foreign, c, cl);
	if (e < 0 || (v = cg_kbset_value(u->foreign, (uint64_t)e, 0)) == NULL) {
		const char *none[1] = { NULL }, *old;

		/* outside the base: the engine computes it after this pass */
		if (e < 0)
			cg_kbset_add(u->foreign, c, cl, none, &old);
		*need = -2;
		return CG_NO_GAME;
	}
	return parse_game(v, u->b, c, cl, &u->text);
}

static void
bottom_up(struct build *b, const char *ckpt)
{
	struct bu u;
	struct bu_opts o;
	size_t n = cg_kbset_count(b->set), i, j, sp = 0, spcap = 0, done = 0;
	size_t flushed = 0;
	uint64_t *stack = NULL;
	cg_game *opt = NULL;
	size_t optcap = 0;
	struct cg_buf rec;
	int fd = -1;
	double t0 = now();

	memset(&u, 0, sizeof u);
	memset(&o, 0, sizeof o);
	o.u = &u;
	u.b = b;
	u.canon = (uint32_t)cg_kb_meta_kind(&b->meta, "canon");
	u.outcome = cg_kb_meta_kind(&b->meta, "outcome");
	u.game = cg_xmalloc((n ? n : 1) * sizeof *u.game);
	for (i = 0; i < n; i++)
		u.game[i] = CG_NO_GAME;
	u.foreign = cg_kbset_new(1);
	cg_buf_init(&u.comp);
	cg_buf_init(&u.canonb);
	cg_buf_init(&u.text);
	cg_buf_init(&rec);

	u.blocked = cg_xcalloc(n ? n : 1, 1);
round:
	for (i = 0; i < n; i++) {
		if (is_done(b, i, u.canon))
			continue;
		/* depth first: an entry is finished when all the components
		 * of its options are */
		sp = 0;
		if (spcap == 0) {
			spcap = 256;
			stack = cg_xmalloc(spcap * sizeof *stack);
		}
		stack[sp++] = i;
		while (sp > 0) {
			uint64_t e = stack[sp - 1];
			int64_t need = -1;
			size_t k;

			if (is_done(b, e, u.canon)) {
				sp--;
				continue;
			}
			bu_expand(&u, e, &o);
			if (optcap < o.nopt + 1) {
				optcap = o.nopt + 1;
				opt = cg_xreallocarray(opt, optcap, sizeof *opt);
			}
			{
				size_t pushed = 0;
				int blocked = 0;

				for (j = 0; j < o.nopt; j++) {
					cg_game sum = cg_canon_zero(), g;

					for (k = o.first[j]; k < o.first[j + 1]; k++) {
						g = bu_comp_game(&u, k, &need);
						if (g == CG_NO_GAME && need == -2) {
							blocked = 1;
							continue;
						}
						if (g == CG_NO_GAME) {
							/* all missing ones at once, so
							 * e is expanded again only once */
							if (sp == spcap) {
								spcap *= 2;
								stack = cg_xreallocarray(
								    stack, spcap,
								    sizeof *stack);
							}
							stack[sp++] = (uint64_t)need;
							pushed++;
							continue;
						}
						sum = cg_canon_add(sum, g);
					}
					opt[j] = sum;
				}
				if (blocked) {
					/* finished after the engine's batch */
					u.blocked[e] = 1;
					sp--;
					continue;
				}
				if (pushed > 0)
					continue;
			}
			{
				const char *vals[CG_KB_MAXKINDS] = { 0 }, *old;
				size_t klen;
				const unsigned char *key;

				u.game[e] = cg_canon_make(opt, o.nleft,
				    opt + o.nleft, o.nopt - o.nleft);
				u.text.len = 0;
				cg_canon_print(u.game[e], &u.text);
				vals[u.canon] = cg_buf_str(&u.text);
				key = cg_kbset_key(b->set, e, &klen);
				if (cg_kbset_add(b->set, key, klen, vals, &old) >= 0)
					cg_die(CG_EXIT_DATA, "derived value '%s' "
					    "disagrees with '%s'", vals[u.canon], old);
				mark_done(b, e, u.canon);
				cg_buf_addstr(&rec, "V\t");
				hex(&rec, key, klen);
				cg_buf_addf(&rec, "\t%u\t", u.canon);
				cg_escape(&rec, vals[u.canon]);
				cg_buf_addc(&rec, '\n');
				if (u.outcome >= 0 && !is_done(b, e,
				    (uint32_t)u.outcome)) {
					char oc[2] = { (char)cg_canon_outcome(
					    u.game[e]), '\0' };

					vals[u.canon] = NULL;
					vals[u.outcome] = oc;
					if (cg_kbset_add(b->set, key, klen, vals,
					    &old) >= 0)
						cg_die(CG_EXIT_DATA, "derived outcome "
						    "'%s' disagrees with '%s'", oc, old);
					mark_done(b, e, (uint32_t)u.outcome);
					cg_buf_addstr(&rec, "V\t");
					hex(&rec, key, klen);
					cg_buf_addf(&rec, "\t%d\t%s\n", u.outcome, oc);
				}
				done++;
			}
			sp--;
			if (done - flushed >= batch) {
				if (ckpt != NULL) {
					if (fd < 0) {
						struct cg_buf h;
						struct stat st;

						fd = open(ckpt, O_WRONLY | O_CREAT |
						    O_APPEND, 0666);
						if (fd < 0)
							cg_die(CG_EXIT_DATA, "%s: %s",
							    ckpt, strerror(errno));
						cg_buf_init(&h);
						if (fstat(fd, &st) == 0 &&
						    st.st_size == 0) {
							ckpt_header(b, &h);
							ckpt_append(fd, ckpt, &h);
						}
						cg_buf_free(&h);
					}
					ckpt_append(fd, ckpt, &rec);
				}
				rec.len = 0;
				flushed = done;
				if (verbose)
					fprintf(stderr, "%s: derived %zu canonical "
					    "forms (%.0f/s)\n", cg_progname, done,
					    done / (now() - t0 + 1e-9));
			}
		}
	}
	{
		/* components outside the base: one engine batch, another round */
		size_t nf = cg_kbset_count(u.foreign), nmiss = 0;
		const unsigned char **pos;
		size_t *len, *which;
		char **out;
		const char *old;

		pos = cg_xmalloc((nf ? nf : 1) * sizeof *pos);
		len = cg_xmalloc((nf ? nf : 1) * sizeof *len);
		which = cg_xmalloc((nf ? nf : 1) * sizeof *which);
		for (i = 0; i < nf; i++)
			if (cg_kbset_value(u.foreign, i, 0) == NULL) {
				pos[nmiss] = cg_kbset_key(u.foreign, i, &len[nmiss]);
				which[nmiss++] = i;
			}
		if (nmiss > 0) {
			if (verbose)
				fprintf(stderr, "%s: %zu components outside the "
				    "base go to the engine\n", cg_progname, nmiss);
			out = cg_xcalloc(nmiss, sizeof *out);
			cg_kbv_compute(b->rs, "canon", nmiss, pos, len, out);
			for (i = 0; i < nmiss; i++) {
				const char *vals[1] = { out[i] };

				if (out[i] == NULL)
					cg_die(CG_EXIT_DATA, "no canonical form for "
					    "'%s'", describe(b->rs, pos[i], len[i],
					    &u.text));
				cg_kbset_add(u.foreign, pos[i], len[i], vals, &old);
				free(out[i]);
			}
			free(out);
		}
		free(pos);
		free(len);
		free(which);
		if (nmiss > 0) {
			memset(u.blocked, 0, n ? n : 1);
			goto round;
		}
	}
	if (ckpt != NULL && rec.len > 0) {
		if (fd < 0) {
			struct cg_buf h;
			struct stat st;

			fd = open(ckpt, O_WRONLY | O_CREAT | O_APPEND, 0666);
			if (fd < 0)
				cg_die(CG_EXIT_DATA, "%s: %s", ckpt,
				    strerror(errno));
			cg_buf_init(&h);
			if (fstat(fd, &st) == 0 && st.st_size == 0) {
				ckpt_header(b, &h);
				ckpt_append(fd, ckpt, &h);
			}
			cg_buf_free(&h);
		}
		ckpt_append(fd, ckpt, &rec);
	}
	if (fd >= 0 && close(fd) < 0)
		cg_die(CG_EXIT_DATA, "%s: %s", ckpt, strerror(errno));
	if (verbose)
		fprintf(stderr, "%s: derived %zu canonical forms bottom-up in "
		    "%.2f s\n", cg_progname, done, now() - t0);
	free(stack);
	free(opt);
	free(o.first);
	free(u.coff);
	free(u.game);
	free(u.blocked);
	cg_kbset_free(u.foreign);
	cg_buf_free(&u.comp);
	cg_buf_free(&u.canonb);
	cg_buf_free(&u.text);
	cg_buf_free(&rec);
}

static void
parse_shard(const char *arg, uint32_t *k, uint32_t *n)
{
	unsigned long a, c;
	char *e;

	errno = 0;
	a = strtoul(arg, &e, 10);
	if (e == arg || *e != '/' || *arg == '-')
		goto bad;
	c = strtoul(e + 1, &e, 10);
	if (*e != '\0' || errno || a < 1 || c < 1 || a > c || c > 1000000)
		goto bad;
	*k = (uint32_t)a;
	*n = (uint32_t)c;
	return;
bad:
	fprintf(stderr, "%s: bad argument '%s' for --shard (want K/N, "
	    "1 <= K <= N)\n", cg_progname, arg);
	exit(CG_EXIT_USAGE);
}

static void
report(const char *path, double secs)
{
	char err[1024];
	struct cg_kbfile *f;
	struct cg_kbfile_stats st;
	uint64_t n;

	if (strcmp(path, "-") == 0)
		return;
	f = cg_kbfile_open(path, err, sizeof err);
	if (f == NULL)
		cg_die(CG_EXIT_DATA, "%s", err);
	cg_kbfile_stats(f, &st);
	n = cg_kbfile_meta(f)->count;
	fprintf(stderr, "%s: %s: %llu positions in %.2f s (%.0f/s), %llu bytes, "
	    "%.2f bits per position\n", cg_progname, path,
	    (unsigned long long)n, secs, n / (secs + 1e-9),
	    (unsigned long long)st.file_size,
	    n ? 8.0 * (double)st.file_size / (double)n : 0.0);
	cg_kbfile_close(f);
}

/* ---------------------------------------------------------------- merge */

struct merge_visit {
	struct cg_kbset *s;
	const struct cg_kb_meta *mi;
	const unsigned char *ckey;
	size_t clen;
	int kind, wrong_shard;
	const char *old, *new;
	struct cg_buf keep;       /* copies of the key and values at a stop */
};

static int
merge_entry(void *ctx, const unsigned char *key, size_t len,
    const char *const *vals)
{
	struct merge_visit *v = ctx;
	int k;

	if (v->mi->shard_n > 1 && cg_kb_shard_of(key, len, v->mi->shard_n) !=
	    v->mi->shard_k) {
		v->wrong_shard = 1;
		k = -1;
	} else {
		k = cg_kbset_add(v->s, key, len, vals, &v->old);
		if (k < 0)
			return 0;
	}
	v->kind = k;
	v->new = k >= 0 ? vals[k] : NULL;
	cg_buf_add(&v->keep, key, len);
	v->ckey = v->keep.data;
	v->clen = len;
	return 1;
}

static struct cg_plugin *
plugin_for(const struct cg_kb_meta *m)
{
	char spec[512];

	return cg_plugin_get(cg_kb_meta_spec(m, spec, sizeof spec),
	    CG_EXIT_DATA);
}

static void
merge(int argc, char **argv, const char *out)
{
	struct cg_kbfile **f = cg_xcalloc((size_t)argc, sizeof *f);
	const struct cg_kb_meta *m0;
	struct cg_kb_meta m;
	struct cg_kbset *set;
	struct cg_buf text;
	char err[1024], why[512];
	unsigned char *have;
	int i, whole, missing;
	double t0 = now();

	for (i = 0; i < argc; i++) {
		f[i] = cg_kbfile_open(argv[i], err, sizeof err);
		if (f[i] == NULL)
			cg_die(CG_EXIT_DATA, "%s", err);
	}
	m0 = cg_kbfile_meta(f[0]);
	whole = m0->shard_n == 1;
	have = cg_xcalloc(m0->shard_n + 1, 1);
	for (i = 0; i < argc; i++) {
		const struct cg_kb_meta *mi = cg_kbfile_meta(f[i]);

		if (!cg_kb_meta_same_base(m0, mi, why, sizeof why) &&
		    !(whole && mi->shard_n == 1 && strncmp(why, "family", 6) == 0))
			cg_die(CG_EXIT_DATA, "%s: not part of the same base as "
			    "%s: %s", argv[i], argv[0], why);
		if (whole)
			continue;
		if (have[mi->shard_k]) {
			free(have);   /* nothing is left for leak checkers */
			cg_die(CG_EXIT_DATA, "%s: duplicate shard %u of %u",
			    argv[i], mi->shard_k, mi->shard_n);
		}
		have[mi->shard_k] = 1;
	}
	missing = 0;
	if (!whole)
		for (i = (int)m0->shard_n; i >= 1; i--)
			if (!have[i])
				missing = i;
	free(have);
	if (missing)
		cg_die(CG_EXIT_DATA, "missing shard %d of %u", missing,
		    m0->shard_n);
	cg_kb_meta_copy(&m, m0);
	m.shard_k = m.shard_n = 1;
	m.games = m0->games || games;
	for (i = 1; i < argc; i++)
		if (strcmp(cg_kbfile_meta(f[i])->family, m.family) != 0) {
			free(m.family);
			m.family = cg_xstrdup("");
		}
	set = cg_kbset_new(m.nkinds);
	cg_buf_init(&text);
	for (i = 0; i < argc; i++) {
		struct merge_visit v;
		int rc;

		memset(&v, 0, sizeof v);
		v.s = set;
		v.mi = cg_kbfile_meta(f[i]);
		cg_buf_init(&v.keep);
		rc = cg_kbfile_each(f[i], merge_entry, &v, err, sizeof err);
		if (rc < 0)
			cg_die(CG_EXIT_DATA, "%s", err);
		if (rc > 0) {
			struct cg_plugin *rs = plugin_for(v.mi);

			if (v.wrong_shard)
				cg_die(CG_EXIT_DATA, "%s: '%s' does not belong in "
				    "shard %u of %u", argv[i], describe(rs,
				    v.ckey, v.clen, &text), v.mi->shard_k,
				    v.mi->shard_n);
			cg_die(CG_EXIT_DATA, "%s: conflicting %s values for "
			    "'%s': '%s' and '%s'", argv[i], v.mi->kinds[v.kind],
			    describe(rs, v.ckey, v.clen, &text), v.old, v.new);
		}
		cg_buf_free(&v.keep);
	}
	write_base(set, &m, out);
	if (verbose)
		report(out, now() - t0);
	cg_kbset_free(set);
	cg_kb_meta_free(&m);
	cg_buf_free(&text);
	for (i = 0; i < argc; i++)
		cg_kbfile_close(f[i]);
	free(f);
}

/* --------------------------------------------------------------- verify */

struct verifier {
	struct cg_kbfile *f;
	const struct cg_kb_meta *m;
	struct cg_plugin *rs;
	struct cg_kbset *entries;   /* every key of the base, in order */
	struct cg_kbset *extra;     /* children outside the base: values */
	struct cg_buf canon, text, text2;
	const char *path;
	size_t errors;
};

static int
verify_entry(void *ctx, const unsigned char *key, size_t len,
    const char *const *vals)
{
	struct verifier *v = ctx;
	const char *none[CG_KB_MAXKINDS] = { 0 }, *old;

	(void)vals;
	if (v->m->shard_n > 1 && cg_kb_shard_of(key, len, v->m->shard_n) !=
	    v->m->shard_k)
		cg_die(CG_EXIT_DATA, "%s: '%s' does not belong in shard %u of %u",
		    v->path, describe(v->rs, key, len, &v->text), v->m->shard_k,
		    v->m->shard_n);
	v->canon.len = 0;
	if (cg_rs_canonical(v->rs, key, len, &v->canon) < 0)
		cg_die(CG_EXIT_DATA, "%s: key %s: %s", v->path,
		    describe(v->rs, key, len, &v->text), cg_rs_errmsg(v->rs));
	if (v->canon.len != len || memcmp(v->canon.data, key, len) != 0)
		cg_die(CG_EXIT_DATA, "%s: key of '%s' is not canonical", v->path,
		    describe(v->rs, key, len, &v->text));
	cg_kbset_add(v->entries, key, len, none, &old);
	return 0;
}

/* Collect the canonical children of one side into a list. */
struct kids {
	struct cg_plugin *rs;
	struct cg_buf keys;        /* concatenated */
	size_t *off, n, cap;
	struct cg_buf canon;
};

static int
on_child(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct kids *k = ctx;

	(void)move;
	k->canon.len = 0;
	if (cg_rs_canonical(k->rs, pos, len, &k->canon) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", k->rs->name,
		    cg_rs_errmsg(k->rs));
	if (k->n + 2 > k->cap) {
		k->cap = k->cap ? k->cap * 2 : 64;
		k->off = cg_xreallocarray(k->off, k->cap, sizeof *k->off);
	}
	if (k->n == 0)
		k->off[0] = 0;
	cg_buf_add(&k->keys, k->canon.data, k->canon.len);
	k->off[++k->n] = k->keys.len;
	return 0;
}

static void
children(struct kids *k, const unsigned char *pos, size_t len,
    enum cg_side side)
{
	k->keys.len = 0;
	k->n = 0;
	if (cg_rs_options(k->rs, pos, len, side, on_child, k) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", k->rs->name,
		    cg_rs_errmsg(k->rs));
}

/* A child's value: from the base (its key, or its components combined),
 * else computed by the engines before the derivation pass; malloc'ed. */
static char *
child_value(struct verifier *v, const unsigned char *key, size_t len,
    uint32_t kind)
{
	char *r;
	int64_t e;
	const char *x;

	if (v->m->shard_n == 1) {
		r = cg_kb_lookup(v->rs, key, len, v->m->kinds[kind]);
		if (r != NULL)
			return r;
	} else {
		/* a shard: only its own entries, by key */
		x = cg_kbfile_get(v->f, key, len, kind);
		if (x != NULL)
			return cg_xstrdup(x);
	}
	e = cg_kbset_find(v->extra, key, len);
	x = e < 0 ? NULL : cg_kbset_value(v->extra, (uint64_t)e, kind);
	return x ? cg_xstrdup(x) : NULL;
}

static int
derivable(const char *kind)
{
	return strcmp(kind, "outcome") == 0 || strcmp(kind, "nimber") == 0 ||
	    strcmp(kind, "misere") == 0 || strcmp(kind, "canon") == 0;
}

/* Value of an entry from its children's values (NULL if one is unknown),
 * into out. */
static const char *
derive(struct verifier *v, struct kids kid[2], uint32_t kind,
    struct cg_buf *out)
{
	const char *name = v->m->kinds[kind];
	int win[2] = { 0, 0 }, s;
	size_t i;
	char *c;

	out->len = 0;
	if (strcmp(name, "canon") == 0) {
		cg_game *g[2];
		char msg[256];
		size_t col;

		for (s = 0; s < 2; s++) {
			g[s] = cg_xmalloc((kid[s].n ? kid[s].n : 1) * sizeof *g[s]);
			for (i = 0; i < kid[s].n; i++) {
				c = child_value(v, kid[s].keys.data + kid[s].off[i],
				    kid[s].off[i + 1] - kid[s].off[i], kind);
				if (c == NULL || cg_canon_parse(c, strlen(c),
				    &g[s][i], msg, sizeof msg, &col) < 0) {
					free(c);
					free(g[0]);
					if (s == 1)
						free(g[1]);
					return NULL;
				}
				free(c);
			}
		}
		cg_canon_print(cg_canon_make(g[0], kid[0].n, g[1], kid[1].n), out);
		free(g[0]);
		free(g[1]);
		return cg_buf_str(out);
	}
	if (strcmp(name, "nimber") == 0) {
		unsigned char seen[4096];
		unsigned long g;

		memset(seen, 0, sizeof seen);
		for (s = 0; s < 2; s++)
			for (i = 0; i < kid[s].n; i++) {
				c = child_value(v, kid[s].keys.data + kid[s].off[i],
				    kid[s].off[i + 1] - kid[s].off[i], kind);
				if (c == NULL)
					return NULL;
				g = strtoul(c, NULL, 10);
				free(c);
				if (g < sizeof seen)
					seen[g] = 1;
			}
		for (g = 0; seen[g]; g++)
			;
		cg_buf_addf(out, "%lu", g);
		return cg_buf_str(out);
	}
	/* outcome classes: the mover wins by moving to a position the other
	 * player loses moving first (normal play); in misere play having no
	 * move wins too */
	for (s = 0; s < 2; s++) {
		const char *good = s == CG_LEFT ? "LP" : "RP";

		if (kid[s].n == 0 && strcmp(name, "misere") == 0)
			win[s] = 1;
		for (i = 0; i < kid[s].n; i++) {
			c = child_value(v, kid[s].keys.data + kid[s].off[i],
			    kid[s].off[i + 1] - kid[s].off[i], kind);
			if (c == NULL)
				return NULL;
			if (c[0] != '\0' && c[1] == '\0' && strchr(good, c[0]))
				win[s] = 1;
			free(c);
		}
	}
	cg_buf_addstr(out, win[0] ? (win[1] ? "N" : "L") : (win[1] ? "R" : "P"));
	return cg_buf_str(out);
}

static void
verify(const char *path)
{
	struct verifier v;
	struct kids kid[2];
	char err[1024];
	struct cg_buf dbuf;
	size_t n, i, j, nb, s;
	uint32_t k;
	double t0 = now();
	const char *version;

	memset(&v, 0, sizeof v);
	v.path = path;
	v.f = cg_kbfile_open(path, err, sizeof err);
	if (v.f == NULL)
		cg_die(CG_EXIT_DATA, "%s", err);
	v.m = cg_kbfile_meta(v.f);
	v.rs = plugin_for(v.m);
	version = v.rs->rs->version ? v.rs->rs->version : "";
	if (strcmp(version, v.m->plugin_version) != 0)
		cg_die(CG_EXIT_DATA, "%s: base was built with ruleset '%s' "
		    "version %s, the plugin is version %s", path, v.m->ruleset,
		    v.m->plugin_version, version);
	if (v.m->shard_n == 1)
		cg_kb_add(path);  /* children found through their components */
	v.entries = cg_kbset_new(1);
	v.extra = cg_kbset_new(v.m->nkinds);
	cg_buf_init(&v.canon);
	cg_buf_init(&v.text);
	cg_buf_init(&v.text2);
	cg_buf_init(&dbuf);
	/* structure: order, count, shard membership, canonical keys */
	if (cg_kbfile_each(v.f, verify_entry, &v, err, sizeof err) != 0)
		cg_die(CG_EXIT_DATA, "%s", err);
	n = cg_kbset_count(v.entries);
	if (verbose)
		fprintf(stderr, "%s: %s: structure sound, %zu entries\n",
		    cg_progname, path, n);
	memset(kid, 0, sizeof kid);
	for (s = 0; s < 2; s++) {
		kid[s].rs = v.rs;
		cg_buf_init(&kid[s].keys);
		cg_buf_init(&kid[s].canon);
	}
	/* children outside the base get their values from the engines */
	{
		struct cg_kbset *need = cg_kbset_new(1);
		const char *none[CG_KB_MAXKINDS] = { 0 }, *old;
		size_t nn;

		for (i = 0; i < n; i++) {
			size_t len;
			const unsigned char *key = cg_kbset_key(v.entries, i, &len);

			for (s = 0; s < 2; s++) {
				children(&kid[s], key, len, (enum cg_side)s);
				for (j = 0; j < kid[s].n; j++) {
					const unsigned char *c = kid[s].keys.data +
					    kid[s].off[j];
					size_t cl = kid[s].off[j + 1] - kid[s].off[j];

					if (cg_kbset_find(v.entries, c, cl) >= 0 ||
					    cg_kbset_find(need, c, cl) >= 0)
						continue;
					for (k = 0; k < v.m->nkinds; k++) {
						char *x;

						if (!derivable(v.m->kinds[k]))
							continue;
						x = child_value(&v, c, cl, k);
						if (x == NULL)
							break;
						free(x);
					}
					if (k < v.m->nkinds)
						cg_kbset_add(need, c, cl, none, &old);
				}
			}
		}
		nn = cg_kbset_count(need);
		if (verbose && nn > 0)
			fprintf(stderr, "%s: computing %zu children outside the "
			    "base\n", cg_progname, nn);
		for (k = 0; k < v.m->nkinds && nn > 0; k++) {
			const unsigned char **pos;
			size_t *len;
			char **out;

			if (!derivable(v.m->kinds[k]))
				continue;
			pos = cg_xmalloc(nn * sizeof *pos);
			len = cg_xmalloc(nn * sizeof *len);
			out = cg_xcalloc(nn, sizeof *out);
			for (i = 0; i < nn; i++)
				pos[i] = cg_kbset_key(need, i, &len[i]);
			cg_kbv_compute(v.rs, v.m->kinds[k], nn, pos, len, out);
			for (i = 0; i < nn; i++) {
				const char *vals[CG_KB_MAXKINDS] = { 0 };

				vals[k] = out[i];
				cg_kbset_add(v.extra, pos[i], len[i], vals, &old);
				free(out[i]);
			}
			free(pos);
			free(len);
			free(out);
		}
		cg_kbset_free(need);
	}
	/* derivable kinds: each entry from its children */
	for (i = 0; i < n; i++) {
		size_t len;
		const unsigned char *key = cg_kbset_key(v.entries, i, &len);

		for (s = 0; s < 2; s++)
			children(&kid[s], key, len, (enum cg_side)s);
		for (k = 0; k < v.m->nkinds; k++) {
			const char *stored, *got;

			if (!derivable(v.m->kinds[k]))
				continue;
			stored = cg_kbfile_get(v.f, key, len, k);
			if (stored == NULL)
				continue;
			got = derive(&v, kid, k, &dbuf);
			if (got == NULL)
				cg_die(CG_EXIT_DATA, "%s: cannot re-derive %s of "
				    "'%s': a child has no value", path,
				    v.m->kinds[k], describe(v.rs, key, len, &v.text));
			if (strcmp(got, stored) != 0)
				cg_die(CG_EXIT_DATA, "%s: %s of '%s' is '%s', but "
				    "its options give '%s'", path, v.m->kinds[k],
				    describe(v.rs, key, len, &v.text), stored, got);
		}
	}
	/* other kinds: recomputed by the engine, entry by entry */
	for (k = 0; k < v.m->nkinds; k++) {
		const unsigned char **pos;
		size_t *len;
		char **out;

		if (derivable(v.m->kinds[k]))
			continue;
		pos = cg_xmalloc(batch * sizeof *pos);
		len = cg_xmalloc(batch * sizeof *len);
		out = cg_xcalloc(batch, sizeof *out);
		for (i = 0; i < n; i += nb) {
			nb = n - i < batch ? n - i : batch;
			for (j = 0; j < nb; j++)
				pos[j] = cg_kbset_key(v.entries, i + j, &len[j]);
			cg_kbv_compute(v.rs, v.m->kinds[k], nb, pos, len, out);
			for (j = 0; j < nb; j++) {
				const char *stored = cg_kbfile_get(v.f, pos[j],
				    len[j], k);

				if (stored != NULL && (out[j] == NULL ||
				    strcmp(stored, out[j]) != 0))
					cg_die(CG_EXIT_DATA, "%s: %s of '%s' is '%s', "
					    "but the engine gives '%s'", path,
					    v.m->kinds[k], describe(v.rs, pos[j],
					    len[j], &v.text), stored,
					    out[j] ? out[j] : "nothing");
				free(out[j]);
				out[j] = NULL;
			}
		}
		free(pos);
		free(len);
		free(out);
	}
	if (verbose)
		fprintf(stderr, "%s: %s: sound (%zu entries, %.2f s)\n",
		    cg_progname, path, n, now() - t0);
	for (s = 0; s < 2; s++) {
		cg_buf_free(&kid[s].keys);
		cg_buf_free(&kid[s].canon);
		free(kid[s].off);
	}
	cg_kbset_free(v.entries);
	cg_kbset_free(v.extra);
	cg_buf_free(&v.canon);
	cg_buf_free(&v.text);
	cg_buf_free(&v.text2);
	cg_buf_free(&dbuf);
	cg_kbfile_close(v.f);
	cg_kb_close_all();
}

/* ----------------------------------------------------------------- main */

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, CG_OPT_VERSION },
		{ "kinds", required_argument, NULL, 'k' },
		{ "family", required_argument, NULL, OPT_FAMILY },
		{ "shard", required_argument, NULL, OPT_SHARD },
		{ "all-nodes", no_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "checkpoint", required_argument, NULL, OPT_CKPT },
		{ "block-size", required_argument, NULL, OPT_BLOCK },
		{ "batch", required_argument, NULL, OPT_BATCH },
		{ "merge", no_argument, NULL, OPT_MERGE },
		{ "verify", no_argument, NULL, OPT_VERIFY },
		{ "verbose", no_argument, NULL, 'v' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "engine-only", no_argument, NULL, OPT_ENGINE },
		{ "games", no_argument, NULL, OPT_GAMES },
		{ NULL, 0, NULL, 0 },
	};
	const char *spec = NULL, *family = NULL, *out = NULL, *kinds = NULL;
	char *ckpt = NULL;
	uint32_t shard_k = 1, shard_n = 1;
	unsigned long block = CG_KB_BLOCK_DEFAULT;
	int c, do_merge = 0, do_verify = 0;
	struct build b;
	double t0;

	cg_tool_init(argc, argv);
	while ((c = getopt_long(argc, argv, "ahk:K:no:P:r:v", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'a': all_nodes = 1; break;
		case 'k': kinds = optarg; break;
		case 'K': cg_kbv_use_base(optarg); break;
		case 'o': out = optarg; break;
		case 'r': spec = optarg; break;
		case 'v': verbose = 1; break;
		case 'n': dry_run = 1; break;
		case OPT_FAMILY: family = optarg; break;
		case OPT_SHARD: parse_shard(optarg, &shard_k, &shard_n); break;
		case OPT_CKPT: ckpt = optarg; break;
		case OPT_ENGINE: engine_only = 1; break;
		case OPT_GAMES: games = 1; break;
		case OPT_BLOCK:
			block = cg_parse_count(optarg, "--block-size");
			if (block < 64 || block > (1ul << 26))
				cg_usage(usage);
			break;
		case OPT_BATCH:
			batch = cg_parse_count(optarg, "--batch");
			if (batch == 0)
				cg_usage(usage);
			break;
		case OPT_MERGE: do_merge = 1; break;
		case OPT_VERIFY: do_verify = 1; break;
		case 'P': cg_plugin_add_dir(optarg); break;
		case 'h': cg_help(usage, help);
		case CG_OPT_VERSION: cg_version();
		default: cg_usage(usage);
		}
	}
	argc -= optind;
	argv += optind;
	if (do_merge + do_verify > 1)
		cg_usage(usage);
	if (do_verify) {
		if (argc != 1 || out || family || spec || kinds)
			cg_usage(usage);
		verify(argv[0]);
		cg_plugin_unload_all();
		cg_close_stdout();
		return 0;
	}
	if (out == NULL && !(dry_run && !do_merge))
		cg_usage(usage);
	if (do_merge) {
		if (argc < 1 || family || spec || kinds || shard_n > 1)
			cg_usage(usage);
		merge(argc, argv, out);
		cg_plugin_unload_all();
		cg_close_stdout();
		return 0;
	}
	if (family != NULL && (spec == NULL || argc > 0))
		cg_usage(usage);

	t0 = now();
	memset(&b, 0, sizeof b);
	cg_kb_meta_init(&b.meta);
	if (cg_kb_meta_set_kinds(&b.meta, kinds ? kinds : "canon,outcome") < 0) {
		fprintf(stderr, "%s: bad value kinds '%s'\n", cg_progname, kinds);
		exit(CG_EXIT_USAGE);
	}
	b.meta.family = cg_xstrdup(family ? family : "");
	b.meta.shard_k = shard_k;
	b.meta.shard_n = shard_n;
	b.meta.block_size = (uint32_t)block;
	b.meta.games = games;
	b.set = cg_kbset_new(b.meta.nkinds);
	cg_buf_init(&b.canon);
	cg_buf_init(&b.text);
	if (family != NULL) {
		int rc;

		b.rs = cg_plugin_get(spec, CG_EXIT_USAGE);
		meta_for(&b.meta, b.rs);
		if (!CG_HAS_HOOK(b.rs, enumerate))
			cg_die(CG_EXIT_DATA, "ruleset '%s' cannot enumerate "
			    "families", b.rs->name);
		rc = cg_rs_enumerate(b.rs, family, on_family, &b);
		if (rc < 0)
			cg_die(CG_EXIT_DATA, "family '%s': %s", family,
			    cg_rs_errmsg(b.rs));
	} else {
		if (spec != NULL) {
			b.rs = cg_plugin_get(spec, CG_EXIT_USAGE);
			meta_for(&b.meta, b.rs);
		}
		cg_each_document(argc, argv, spec, on_document, &b);
		if (b.rs == NULL)
			cg_die(CG_EXIT_DATA, "no positions in the input");
	}
	if (verbose)
		fprintf(stderr, "%s: %zu positions, %zu up to symmetry%s\n",
		    cg_progname, b.seen, cg_kbset_count(b.set),
		    shard_n > 1 ? " in this shard" : "");
	if (dry_run) {
		printf("%zu\n", cg_kbset_count(b.set));
		cg_check_write(stdout, "standard output");
		cg_kbset_free(b.set);
		cg_kb_meta_free(&b.meta);
		free(b.done);
		cg_buf_free(&b.canon);
		cg_buf_free(&b.text);
		cg_plugin_unload_all();
		cg_close_stdout();
		return 0;
	}
	{
		struct stat st;
		int regular = strcmp(out, "-") != 0 &&
		    (stat(out, &st) < 0 || S_ISREG(st.st_mode));

		if (ckpt == NULL && regular) {
			ckpt = cg_xmalloc(strlen(out) + 6);
			sprintf(ckpt, "%s.ckpt", out);
		} else if (ckpt != NULL) {
			ckpt = cg_xstrdup(ckpt);
		}
		if (ckpt != NULL) {
			size_t got = ckpt_load(&b, ckpt);

			if (verbose && got > 0)
				fprintf(stderr, "%s: resumed %zu values from %s\n",
				    cg_progname, got, ckpt);
		}
	}
	/* a whole family is closed under taking the options' components, so
	 * its canonical forms can be built bottom-up; a shard or a document
	 * would send most components to the engine anyway */
	if (!engine_only && family != NULL && shard_n == 1 &&
	    cg_kb_meta_kind(&b.meta, "canon") >= 0)
		bottom_up(&b, ckpt);
	compute_missing(&b, ckpt);
	write_base(b.set, &b.meta, out);
	if (ckpt != NULL && unlink(ckpt) < 0 && errno != ENOENT)
		cg_die(CG_EXIT_DATA, "%s: %s", ckpt, strerror(errno));
	if (verbose)
		report(out, now() - t0);
	free(ckpt);
	free(b.done);
	cg_buf_free(&b.canon);
	cg_buf_free(&b.text);
	cg_kbset_free(b.set);
	cg_kb_meta_free(&b.meta);
	cg_plugin_unload_all();
	cg_close_stdout();
	return 0;
}
