/* report.c - a knowledge base written out as a document, and measured:
 * value entropy, lookup latency, the statistics cg-kb stats prints (see
 * report.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/bytemap.h"
#include "base/util.h"
#include "format/doc.h"
#include "kb/report.h"


struct dumper {
	struct cg_plugin *rs;
	struct cg_kbfile *f;
	uint64_t id;
	struct cg_buf b, t;
	const struct cg_kb_meta *m;
	const char *path;
	FILE *out;
};

static int
dump_entry(void *ctx, const struct cg_kbentry *e)
{
	struct dumper *d = ctx;
	const unsigned char *key = e->key;
	size_t len = e->len;
	uint32_t k;

	d->id++;
	d->b.len = 0;
	d->t.len = 0;
	if (cg_rs_print(d->rs, key, len, &d->t) < 0)
		cg_die(CG_EXIT_DATA, "%s: entry %llu: %s", d->path,
		    (unsigned long long)d->id, cg_rs_errmsg(d->rs));
	cg_buf_addf(&d->b, "N\t%llu\t", (unsigned long long)d->id);
	cg_escape(&d->b, cg_buf_str(&d->t));
	cg_buf_addc(&d->b, '\n');
	for (k = 0; k < d->m->nkinds; k++)
		if (e->ref[k] != CG_KB_NOVALUE) {
			cg_buf_addf(&d->b, "A\t%llu\t%s\t",
			    (unsigned long long)d->id, d->m->kinds[k]);
			cg_escape(&d->b, cg_kbfile_text(d->f, k, e->ref[k]));
			cg_buf_addc(&d->b, '\n');
		}
	fwrite(d->b.data, 1, d->b.len, d->out);
	cg_check_write(d->out, "standard output");
	return 0;
}

void
cg_kb_dump(struct cg_kbfile *base, FILE *out)
{
	struct dumper d;
	char err[1024], spec[512];
	uint64_t i;

	memset(&d, 0, sizeof d);
	d.path = cg_kbfile_path(base);
	d.f = base;
	d.out = out;
	d.m = cg_kbfile_meta(base);
	d.rs = cg_plugin_get(cg_kb_meta_spec(d.m, spec, sizeof spec),
	    CG_EXIT_DATA);
	cg_buf_init(&d.b);
	cg_buf_init(&d.t);
	fprintf(out, "cgt\t1\n# knowledge base: %llu entries",
	    (unsigned long long)d.m->count);
	if (*d.m->family)
		fprintf(out, ", family %s", d.m->family);
	fprintf(out, "\nruleset\t%s\n", spec);
	if (cg_kbfile_each(base, 1, dump_entry, &d, err, sizeof err) != 0)
		cg_die(CG_EXIT_DATA, "%s", err);
	for (i = 1; i <= d.id; i++)
		fprintf(out, "root\t%llu\n", (unsigned long long)i);
	fprintf(out, "end\n");
	cg_check_write(out, "standard output");
	cg_buf_free(&d.b);
	cg_buf_free(&d.t);
}


struct stat_ctx {
	uint64_t *freq[CG_KB_MAXKINDS];    /* by reference */
	uint64_t absent[CG_KB_MAXKINDS];
	uint32_t nkinds;
	int keys;
	uint64_t seen, nsample;
	unsigned char **sample;           /* keys, or slots (8 bytes) */
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
stat_entry(void *ctx, const struct cg_kbentry *e)
{
	struct stat_ctx *c = ctx;
	uint32_t k;

	for (k = 0; k < c->nkinds; k++) {
		if (e->ref[k] == CG_KB_NOVALUE)
			c->absent[k]++;
		else
			c->freq[k][e->ref[k]]++;
	}
	/* reservoir sample of entries for timing */
	if (c->nsample > 0) {
		uint64_t j = c->seen < c->nsample ? c->seen :
		    rnd(&c->rng) % (c->seen + 1);

		if (j < c->nsample) {
			size_t len = c->keys ? e->len : sizeof e->slot;

			free(c->sample[j]);
			c->sample[j] = cg_xmalloc(len ? len : 1);
			memcpy(c->sample[j], c->keys ? (const void *)e->key :
			    (const void *)&e->slot, len);
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

void
cg_kb_measure(struct cg_kbfile *base, unsigned long ntime,
    struct cg_kb_report *r)
{
	const struct cg_kb_meta *m = cg_kbfile_meta(base);
	struct stat_ctx c;
	char err[1024], spec[512];
	uint64_t n = m->count, i, j;
	uint32_t k;
	int ranked = *m->index_family != '\0';

	memset(r, 0, sizeof *r);
	memset(&c, 0, sizeof c);
	c.nkinds = m->nkinds;
	c.rng = 0x9e3779b97f4a7c15ull;
	c.nsample = ntime;
	c.keys = !ranked;
	if (ntime > 0) {
		c.sample = cg_xcalloc(ntime, sizeof *c.sample);
		c.samplelen = cg_xcalloc(ntime, sizeof *c.samplelen);
	}
	for (k = 0; k < m->nkinds; k++)
		c.freq[k] = cg_xcalloc(cg_kbfile_nrefs(base, k) + 1,
		    sizeof *c.freq[k]);
	if (cg_kbfile_each(base, c.keys, stat_entry, &c, err, sizeof err) != 0)
		cg_die(CG_EXIT_DATA, "%s", err);
	cg_kbfile_stats(base, &r->file);
	for (k = 0; k < m->nkinds; k++) {
		uint64_t nr = cg_kbfile_nrefs(base, k), used = 0;
		double h = 0;

		for (j = 0; j < nr; j++) {
			double p = (double)c.freq[k][j] / n;

			if (c.freq[k][j] == 0)
				continue;
			used++;
			h -= p * log2(p);
		}
		if (c.absent[k] > 0) {
			double p = (double)c.absent[k] / n;

			h -= p * log2(p);
		}
		r->distinct[k] = used;
		r->absent[k] = c.absent[k];
		r->entropy[k] = h;
		r->total_entropy += h;
	}
	if (ntime > 0 && n > 0) {
		uint64_t ns = c.nsample < n ? c.nsample : n;
		struct cg_kbfile *f = cg_kbfile_open(cg_kbfile_path(base), err,
		    sizeof err);
		int kind = cg_kb_meta_kind(m, "outcome");
		struct cg_buf key;
		unsigned char **keys = cg_xcalloc(ns, sizeof *keys);
		size_t *lens = cg_xcalloc(ns, sizeof *lens);
		double t0, t1;

		if (f == NULL)
			cg_die(CG_EXIT_DATA, "%s", err);
		if (kind < 0)
			kind = 0;
		/* the keys of a base of slots, from the slots sampled */
		cg_buf_init(&key);
		for (i = 0; i < ns; i++) {
			if (!ranked) {
				keys[i] = c.sample[i];
				lens[i] = c.samplelen[i];
				continue;
			}
			{
				struct cg_plugin *rs = cg_plugin_get(
				    cg_kb_meta_spec(m, spec, sizeof spec),
				    CG_EXIT_DATA);
				uint64_t slot;

				memcpy(&slot, c.sample[i], sizeof slot);
				key.len = 0;
				if (cg_rs_unrank(rs, m->index_family, slot,
				    &key) < 0)
					cg_die(CG_EXIT_DATA, "%s: slot %llu holds "
					    "no position", cg_kbfile_path(base),
					    (unsigned long long)slot);
				keys[i] = cg_xmalloc(key.len ? key.len : 1);
				memcpy(keys[i], key.data, key.len);
				lens[i] = key.len;
			}
		}
		cg_buf_free(&key);
		t0 = now();
		for (i = 0; i < ns; i++)
			(void)cg_kbfile_ref(f, keys[i], lens[i], (uint32_t)kind);
		t1 = now();
		r->lookup_random_us = (t1 - t0) * 1e6 / ns;
		t0 = now();
		for (i = 0; i < ns; i++)  /* the same key again */
			(void)cg_kbfile_ref(f, keys[0], lens[0], (uint32_t)kind);
		t1 = now();
		r->lookup_cached_us = (t1 - t0) * 1e6 / ns;
		r->lookup_kind = m->kinds[kind];
		r->timed = 1;
		cg_kbfile_close(f);
		for (i = 0; ranked && i < ns; i++)
			free(keys[i]);
		free(keys);
		free(lens);
	}
	for (i = 0; i < c.nsample; i++)
		free(c.sample[i]);
	free(c.sample);
	free(c.samplelen);
	for (k = 0; k < m->nkinds; k++)
		free(c.freq[k]);
}

void
cg_kb_stats(struct cg_kbfile *base, unsigned long ntime, FILE *out)
{
	const struct cg_kb_meta *m = cg_kbfile_meta(base);
	struct cg_kb_report r;
	char spec[512];
	uint64_t n = m->count, dict = 0;
	uint32_t k;

	cg_kb_measure(base, ntime, &r);
	fprintf(out, "file\t%s\nformat\t%d\nruleset\t%s\n"
	    "ruleset-version\t%s\n", cg_kbfile_path(base), CG_KB_FORMAT,
	    cg_kb_meta_spec(m, spec, sizeof spec), m->plugin_version);
	fprintf(out, "family\t%s\nshard\t%u/%u\nkinds\t", m->family,
	    m->shard_k, m->shard_n);
	for (k = 0; k < m->nkinds; k++)
		fprintf(out, "%s%s", k ? "," : "", m->kinds[k]);
	fprintf(out, "\nentries\t%llu\n", (unsigned long long)n);
	if (*m->index_family)
		fprintf(out, "index\tslots of family %s\nslots\t%llu\n"
		    "slots-per-entry\t%.3f\n", m->index_family,
		    (unsigned long long)m->slots,
		    n ? (double)m->slots / (double)n : 0.0);
	else
		fprintf(out, "index\tkeys\n");
	fprintf(out, "blocks\t%llu\nblock-entries\t%u\n",
	    (unsigned long long)r.file.nblocks, m->block_members);
	for (k = 0; k < m->nkinds; k++)
		dict += r.file.dict_size[k] + r.file.column_size[k];
	fprintf(out, "file-bytes\t%llu\nheader-bytes\t%llu\n"
	    "index-bytes\t%llu\ncode-bytes\t%llu\ndictionary-bytes\t%llu\n"
	    "data-bytes\t%llu\n",
	    (unsigned long long)r.file.file_size,
	    (unsigned long long)r.file.header_size,
	    (unsigned long long)r.file.index_size,
	    (unsigned long long)r.file.code_size, (unsigned long long)dict,
	    (unsigned long long)r.file.data_size);
	if (n > 0)
		fprintf(out, "bytes-per-position\t%.3f\n"
		    "bits-per-position\t%.3f\n", (double)r.file.file_size / n,
		    8.0 * r.file.file_size / n);
	for (k = 0; k < m->nkinds; k++) {
		const char *kn = m->kinds[k];

		fprintf(out, "%s-distinct\t%llu\n%s-absent\t%llu\n"
		    "%s-entropy-bits\t%.3f\n", kn,
		    (unsigned long long)r.distinct[k], kn,
		    (unsigned long long)r.absent[k], kn, r.entropy[k]);
		if (r.file.column_of[k] >= 0)
			fprintf(out, "%s-stored\tcolumn on %s, %llu bytes\n",
			    kn, m->kinds[r.file.column_of[k]],
			    (unsigned long long)r.file.column_size[k]);
		else
			fprintf(out, "%s-stored\tper entry\n", kn);
		fprintf(out, "%s-dictionary\t%s, %llu %s, %llu bytes\n", kn,
		    cg_kbfile_games(base, k) ? "games" : "text",
		    (unsigned long long)r.file.dict_records[k],
		    cg_kbfile_games(base, k) ? "records" : "values",
		    (unsigned long long)r.file.dict_size[k]);
	}
	fprintf(out, "value-entropy-bits\t%.3f\n", r.total_entropy);
	if (r.timed)
		fprintf(out, "lookup-kind\t%s\nlookup-random-us\t%.3f\n"
		    "lookup-cached-us\t%.3f\n", r.lookup_kind,
		    r.lookup_random_us, r.lookup_cached_us);
	cg_check_write(out, "standard output");
}
