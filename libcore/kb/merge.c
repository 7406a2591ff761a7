/* merge.c - joining shards into a base, and checking a base: every
 * entry re-derived from its children's values (see kb/build.h). */
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

static const char *
describe(struct cg_plugin *rs, const unsigned char *key, size_t len,
    struct cg_buf *b)
{
	size_t i;

	b->len = 0;
	if (rs != NULL && cg_rs_print(rs, key, len, b) == 0)
		return cg_buf_str(b);
	b->len = 0;
	cg_buf_addstr(b, "key ");
	for (i = 0; i < len; i++)
		cg_buf_addf(b, "%02x", key[i]);
	return cg_buf_str(b);
}

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
				    "shard %u of %u", argv[i], describe(rs,
				    v.ckey, v.clen, &text), v.mi->shard_k,
				    v.mi->shard_n);
			cg_die(CG_EXIT_DATA, "%s: conflicting %s values for "
			    "'%s': '%s' and '%s'", argv[i], v.mi->kinds[v.kind],
			    describe(rs, v.ckey, v.clen, &text), v.old, v.new);
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
verify_entry(void *ctx, const struct cg_kbentry *e)
{
	struct verifier *v = ctx;
	const char *none[CG_KB_MAXKINDS] = { 0 }, *old;
	const unsigned char *key = e->key;
	size_t len = e->len;

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

void
cg_kb_verify(const char *path, size_t batch, int verbose)
{
	struct verifier v;
	struct kids kid[2];
	char err[1024];
	struct cg_buf dbuf;
	size_t n, i, j, nb, s;
	uint32_t k;
	double t0 = cg_elapsed();
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
	if (cg_kbfile_each(v.f, 1, verify_entry, &v, err, sizeof err) != 0)
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
		    cg_progname, path, n, cg_elapsed() - t0);
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
	cg_kbv_done();
}

