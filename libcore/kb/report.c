/* report.c - a knowledge base written out as a document, and measured:
 * value entropy, lookup latency (see report.h). */
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
	uint64_t id;
	struct cg_buf b, t;
	const struct cg_kb_meta *m;
	const char *path;
	FILE *out;
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
		cg_die(CG_EXIT_DATA, "%s: entry %llu: %s", d->path,
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
	if (cg_kbfile_each(base, dump_entry, &d, err, sizeof err) != 0)
		cg_die(CG_EXIT_DATA, "%s", err);
	for (i = 1; i <= d.id; i++)
		fprintf(out, "root\t%llu\n", (unsigned long long)i);
	fprintf(out, "end\n");
	cg_check_write(out, "standard output");
	cg_buf_free(&d.b);
	cg_buf_free(&d.t);
}


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

void
cg_kb_measure(struct cg_kbfile *base, unsigned long ntime,
    struct cg_kb_report *r)
{
	const struct cg_kb_meta *m = cg_kbfile_meta(base);
	struct stat_ctx c;
	char err[1024];
	uint64_t n = m->count, i;
	uint32_t k;

	memset(r, 0, sizeof *r);
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
	cg_kbfile_stats(base, &r->file);
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
		r->distinct[k] = nv;
		r->absent[k] = c.absent[k];
		r->entropy[k] = h;
		r->total_entropy += h;
	}
	if (ntime > 0 && n > 0) {
		uint64_t ns = c.nsample < n ? c.nsample : n;
		double t0, t1;
		struct cg_kbfile *f = cg_kbfile_open(cg_kbfile_path(base), err,
		    sizeof err);

		if (f == NULL)
			cg_die(CG_EXIT_DATA, "%s", err);
		t0 = now();
		for (i = 0; i < ns; i++)
			(void)cg_kbfile_get(f, c.sample[i], c.samplelen[i], 0);
		t1 = now();
		r->lookup_random_us = (t1 - t0) * 1e6 / ns;
		t0 = now();
		for (i = 0; i < ns; i++)  /* the same key: block cached */
			(void)cg_kbfile_get(f, c.sample[0], c.samplelen[0], 0);
		t1 = now();
		r->lookup_cached_us = (t1 - t0) * 1e6 / ns;
		r->timed = 1;
		cg_kbfile_close(f);
	}
	for (i = 0; i < c.nsample; i++)
		free(c.sample[i]);
	free(c.sample);
	free(c.samplelen);
	for (k = 0; k < m->nkinds; k++)
		cg_bytemap_free(c.freq[k]);
}
