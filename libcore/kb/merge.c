/* merge.c - joining shards or waves into a base (see kb/build.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/watch.h"
#include "kb/build.h"
#include "kb/kb.h"
#include "kb/kbfile.h"
#include "kb/kbmove.h"
#include "kb/kbvalue.h"
#include "values/notation.h"

static struct cg_plugin *
plugin_for(const struct cg_kb_meta *m)
{
	char spec[512];

	return cg_plugin_get(cg_kb_meta_spec(m, spec, sizeof spec),
	    CG_EXIT_DATA);
}

void
cg_kb_report(const char *path, double secs)
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


struct merge_visit {
	struct cg_kbset *s;
	struct cg_kbfile *f;
	const struct cg_kb_meta *mi;
	const unsigned char *ckey;
	size_t clen;
	int kind, wrong_shard;
	const char *old, *new;
	struct cg_buf keep;       /* copies of the key and values at a stop */
};

static int
merge_entry(void *ctx, const struct cg_kbentry *e)
{
	struct merge_visit *v = ctx;
	uint64_t entry;
	uint32_t k, id;

	v->kind = -1;
	if (v->mi->shard_n > 1 && cg_kb_shard_of(e->key, e->len,
	    v->mi->shard_n) != v->mi->shard_k) {
		v->wrong_shard = 1;
		goto stop;
	}
	entry = cg_kbset_entry(v->s, e->key, e->len);
	for (k = 0; k < v->mi->nkinds; k++) {
		if (e->ref[k] == CG_KB_NOVALUE)
			continue;
		if (cg_kbfile_games(v->f, k))
			id = cg_kbset_game_id(v->s, k, cg_kbfile_game(v->f, k,
			    e->ref[k]));
		else
			id = cg_kbset_value_id(v->s, k, cg_kbfile_text(v->f, k,
			    e->ref[k]));
		if (cg_kbset_set(v->s, entry, k, id, &v->old) < 0) {
			v->kind = (int)k;
			v->new = cg_kbfile_text(v->f, k, e->ref[k]);
			goto stop;
		}
	}
	return 0;
stop:
	cg_buf_add(&v->keep, e->key, e->len);
	v->ckey = v->keep.data;
	v->clen = e->len;
	return 1;
}

/* "FAMILY measure=LO-HI" into its parts; 0 when there is no range. */
static int
measure_range(const char *fam, size_t *baselen, unsigned long long *lo,
    unsigned long long *hi)
{
	const char *p = strstr(fam, " measure=");
	char *e;

	if (p == NULL)
		return 0;
	*baselen = (size_t)(p - fam);
	*lo = strtoull(p + 9, &e, 10);
	if (*e != '-')
		return 0;
	*hi = strtoull(e + 1, &e, 10);
	return *e == '\0';
}

/*
 * The family of a merge: the inputs' when they agree; when they are waves
 * of one family (FAMILY measure=LO-HI) whose ranges meet or overlap,
 * FAMILY with the union of the ranges; else none ("").
 */
static char *
merged_family(struct cg_kbfile **f, int n)
{
	const char *f0 = cg_kbfile_meta(f[0])->family;
	unsigned long long lo, hi, l, h, *r = cg_xmalloc(2 * n * sizeof *r);
	size_t base0, base;
	int i, j, same = 1, waves = 1;
	char buf[64];
	struct cg_buf out;

	for (i = 1; i < n; i++)
		same &= strcmp(cg_kbfile_meta(f[i])->family, f0) == 0;
	if (same) {
		free(r);
		return cg_xstrdup(f0);
	}
	waves = measure_range(f0, &base0, &r[0], &r[1]);
	for (i = 1; i < n && waves; i++) {
		const char *fi = cg_kbfile_meta(f[i])->family;

		waves = measure_range(fi, &base, &r[2 * i], &r[2 * i + 1]) &&
		    base == base0 && memcmp(fi, f0, base) == 0;
	}
	/* the ranges, sorted by low end, must leave no gap */
	for (i = 0; i < n && waves; i++)
		for (j = i + 1; j < n; j++)
			if (r[2 * j] < r[2 * i]) {
				l = r[2 * i], h = r[2 * i + 1];
				r[2 * i] = r[2 * j], r[2 * i + 1] = r[2 * j + 1];
				r[2 * j] = l, r[2 * j + 1] = h;
			}
	lo = r[0];
	hi = r[1];
	for (i = 1; i < n && waves; i++) {
		if (r[2 * i] > hi + 1)
			waves = 0;
		else if (r[2 * i + 1] > hi)
			hi = r[2 * i + 1];
	}
	free(r);
	if (!waves)
		return cg_xstrdup("");
	cg_buf_init(&out);
	cg_buf_add(&out, f0, base0);
	snprintf(buf, sizeof buf, " measure=%llu-%llu", lo, hi);
	cg_buf_addstr(&out, buf);
	{
		char *s = cg_xstrdup(cg_buf_str(&out));

		cg_buf_free(&out);
		return s;
	}
}

void
cg_kb_merge(int argc, char **argv, const char *out, int games, int verbose)
{
	struct cg_kbfile **f = cg_xcalloc((size_t)argc, sizeof *f);
	const struct cg_kb_meta *m0;
	struct cg_kb_meta m;
	struct cg_kbset *set;
	struct cg_buf text;
	char err[1024], why[512];
	unsigned char *have;
	int i, whole, missing;
	double t0 = cg_elapsed();

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
	{
		char *fam = merged_family(f, argc);

		free(m.family);
		m.family = fam;
	}
	set = cg_kbset_new(m.nkinds);
	for (i = 0; i < (int)m.nkinds; i++)
		if (m.games && strcmp(m.kinds[i], "canon") == 0)
			cg_kbset_use_games(set, (uint32_t)i);
	cg_buf_init(&text);
	for (i = 0; i < argc; i++) {
		struct merge_visit v;
		int rc;

		memset(&v, 0, sizeof v);
		v.s = set;
		v.f = f[i];
		v.mi = cg_kbfile_meta(f[i]);
		cg_buf_init(&v.keep);
		rc = cg_kbfile_each(f[i], 1, merge_entry, &v, err, sizeof err);
		if (rc < 0)
			cg_die(CG_EXIT_DATA, "%s", err);
		if (rc > 0) {
			struct cg_plugin *rs = plugin_for(v.mi);

			if (v.wrong_shard)
				cg_die(CG_EXIT_DATA, "%s: '%s' does not belong in "
				    "shard %u of %u", argv[i], cg_kb_describe(rs,
				    v.ckey, v.clen, &text), v.mi->shard_k,
				    v.mi->shard_n);
			cg_die(CG_EXIT_DATA, "%s: conflicting %s values for "
			    "'%s': '%s' and '%s'", argv[i], v.mi->kinds[v.kind],
			    cg_kb_describe(rs, v.ckey, v.clen, &text), v.old,
			    v.new);
		}
		cg_buf_free(&v.keep);
	}
	cg_kb_write_to(set, &m, *m.index_family ? plugin_for(&m) : NULL, out);
	if (verbose)
		cg_kb_report(out, cg_elapsed() - t0);
	cg_kbset_free(set);
	cg_kb_meta_free(&m);
	cg_buf_free(&text);
	for (i = 0; i < argc; i++)
		cg_kbfile_close(f[i]);
	free(f);
}
