/* test_kbfile.c - the cgkb(5) writer and reader on synthetic entries:
 * round trips, lookups across blocks, byte-identical output whatever the
 * insertion order or sharding, conflicts, and corruption detection. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kb/kbfile.h"
#include "tap.h"

#define N 5000

/* Entry i: key "k" + decimal i (so keys of many lengths and shared
 * prefixes), kind 0 value "v(i mod 37)", kind 1 value "w(i mod 3)" except
 * every seventh entry, which has no kind-1 value. */
static void
entry(int i, char *key, size_t *klen, char *v0, char *v1, const char **vals)
{
	*klen = (size_t)sprintf(key, "k%d", i);
	sprintf(v0, "v%d", i % 37);
	sprintf(v1, "w%d", i % 3);
	vals[0] = v0;
	vals[1] = i % 7 == 0 ? NULL : v1;
}

static void
meta(struct cg_kb_meta *m, uint32_t k, uint32_t n)
{
	cg_kb_meta_init(m);
	m->ruleset = strdup("test");
	m->params = strdup("p=1");
	m->plugin_version = strdup("1.0");
	m->family = strdup("synthetic");
	cg_kb_meta_set_kinds(m, "canon,outcome");
	m->shard_k = k;
	m->shard_n = n;
	m->block_size = 1024;
}

static char *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	if (fp == NULL)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	*len = fread(buf, 1, (size_t)n, fp);
	fclose(fp);
	return buf;
}

static void
spit(const char *path, const char *data, size_t len)
{
	FILE *fp = fopen(path, "wb");

	fwrite(data, 1, len, fp);
	fclose(fp);
}

static int
write_set(struct cg_kbset *s, struct cg_kb_meta *m, const char *path,
    char *err, size_t errlen)
{
	struct cg_kb_source *src = cg_kbset_source(s, m, NULL, err, errlen);
	int rc;

	if (src == NULL)
		return -1;
	rc = cg_kbfile_write(src, m, path, err, errlen);
	cg_kbset_source_free(src);
	return rc;
}

static int
build(const char *path, int reverse, uint32_t shard_k, uint32_t shard_n)
{
	struct cg_kbset *s = cg_kbset_new(2);
	struct cg_kb_meta m;
	char key[32], v0[16], v1[16], err[256];
	const char *vals[2], *old;
	size_t klen;
	int i, j, rc;

	meta(&m, shard_k, shard_n);
	for (j = 0; j < N; j++) {
		i = reverse ? N - 1 - j : j;
		entry(i, key, &klen, v0, v1, vals);
		if (shard_n > 1 && cg_kb_shard_of((unsigned char *)key, klen,
		    shard_n) != shard_k)
			continue;
		cg_kbset_add(s, (unsigned char *)key, klen, vals, &old);
	}
	rc = write_set(s, &m, path, err, sizeof err);
	if (rc < 0)
		printf("# %s\n", err);
	cg_kbset_free(s);
	cg_kb_meta_free(&m);
	return rc;
}

struct count {
	int n, bad;
	struct cg_kbset *into;
	struct cg_kbfile *f;
};

static int
visit(void *ctx, const struct cg_kbentry *e)
{
	struct count *c = ctx;
	const char *old, *v[2];
	uint32_t k;

	c->n++;
	for (k = 0; k < 2; k++)
		v[k] = e->ref[k] == CG_KB_NOVALUE ? NULL :
		    cg_kbfile_text(c->f, k, e->ref[k]);
	if (cg_kbset_add(c->into, e->key, e->len, v, &old) >= 0)
		c->bad++;
	return 0;
}

int
main(void)
{
	char dir[] = "/tmp/cgkbtestXXXXXX", a[128], b[128], sh[4][128], m[128];
	char err[512], key[32], v0[16], v1[16];
	const char *vals[2], *got, *old;
	struct cg_kbfile *f;
	struct cg_kbset *s;
	struct cg_kb_meta mm;
	size_t klen, alen, blen;
	char *da, *db;
	int i, fails, k;

	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(a, sizeof a, "%s/a.cgkb", dir);
	snprintf(b, sizeof b, "%s/b.cgkb", dir);
	snprintf(m, sizeof m, "%s/m.cgkb", dir);

	ok(build(a, 0, 1, 1) == 0, "write a base of %d entries", N);
	ok(build(b, 1, 1, 1) == 0, "write it again, entries in reverse order");
	da = slurp(a, &alen);
	db = slurp(b, &blen);
	ok(alen == blen && memcmp(da, db, alen) == 0,
	    "insertion order does not change a byte");
	free(db);

	f = cg_kbfile_open(a, err, sizeof err);
	ok(f != NULL, "open: %s", f ? "ok" : err);
	if (f == NULL)
		return tap_done();
	is_int(cg_kbfile_meta(f)->count, N, "count in header");
	is_str(cg_kbfile_meta(f)->ruleset, "test", "ruleset name");
	is_str(cg_kbfile_meta(f)->params, "p=1", "parameters");
	is_str(cg_kbfile_meta(f)->kinds[1], "outcome", "second kind");
	{
		struct cg_kbfile_stats st;

		cg_kbfile_stats(f, &st);
		ok(st.nblocks > 5, "several blocks (%llu)",
		    (unsigned long long)st.nblocks);
		is_int(st.nvalues[0], 37, "37 distinct kind-0 values");
		is_int(st.file_size, alen, "file size");
	}
	fails = 0;
	for (i = 0; i < N; i++) {
		entry(i, key, &klen, v0, v1, vals);
		got = cg_kbfile_get(f, (unsigned char *)key, klen, 0);
		if (got == NULL || strcmp(got, v0) != 0)
			fails++;
		got = cg_kbfile_get(f, (unsigned char *)key, klen, 1);
		if (vals[1] == NULL ? got != NULL :
		    (got == NULL || strcmp(got, v1) != 0))
			fails++;
	}
	is_int(fails, 0, "every entry found with its values");
	ok(cg_kbfile_get(f, (unsigned char *)"k", 1, 0) == NULL,
	    "a key before the first is absent");
	ok(cg_kbfile_get(f, (unsigned char *)"k5000", 5, 0) == NULL,
	    "a missing key between entries is absent");
	ok(cg_kbfile_get(f, (unsigned char *)"z", 1, 0) == NULL,
	    "a key after the last is absent");
	ok(cg_kbfile_get(f, (unsigned char *)"", 0, 0) == NULL,
	    "the empty key is absent");
	{
		struct count c = { 0, 0, cg_kbset_new(2), f };

		ok(cg_kbfile_each(f, 1, visit, &c, err, sizeof err) == 0,
		    "iterate every entry in key order");
		is_int(c.n, N, "entries visited");
		is_int(c.bad, 0, "no duplicate seen");
		cg_kbset_free(c.into);
	}
	cg_kbfile_close(f);

	/* shards: union of shard files == the single-run base */
	s = cg_kbset_new(2);
	for (k = 0; k < 3; k++) {
		snprintf(sh[k], sizeof sh[k], "%s/s%d.cgkb", dir, k + 1);
		build(sh[k], k == 1, (uint32_t)k + 1, 3);
		f = cg_kbfile_open(sh[k], err, sizeof err);
		if (f == NULL)
			continue;
		{
			struct count c = { 0, 0, s, f };

			cg_kbfile_each(f, 1, visit, &c, err, sizeof err);
			ok(c.n > N / 5 && c.n < N / 2, "shard %d holds %d entries",
			    k + 1, c.n);
		}
		cg_kbfile_close(f);
	}
	meta(&mm, 1, 1);
	ok(write_set(s, &mm, m, err, sizeof err) == 0, "write the union");
	cg_kb_meta_free(&mm);
	cg_kbset_free(s);
	db = slurp(m, &blen);
	ok(alen == blen && memcmp(da, db, alen) == 0,
	    "three shards merged equal the single-run base byte for byte");
	free(db);

	/* conflicts */
	s = cg_kbset_new(2);
	vals[0] = "1";
	vals[1] = NULL;
	is_int(cg_kbset_add(s, (unsigned char *)"x", 1, vals, &old), -1,
	    "add an entry");
	vals[0] = "1";
	vals[1] = "L";
	is_int(cg_kbset_add(s, (unsigned char *)"x", 1, vals, &old), -1,
	    "fill in a missing value");
	vals[0] = "2";
	is_int(cg_kbset_add(s, (unsigned char *)"x", 1, vals, &old), 0,
	    "a different value is a conflict in kind 0");
	is_str(old, "1", "the conflict names the stored value");
	is_str(cg_kbset_value(s, 0, 1), "L", "filled-in value kept");
	cg_kbset_free(s);

	/* corruption: flip one byte anywhere, the open or the check of
	 * every block must fail */
	fails = 0;
	for (i = 0; (size_t)i < alen; i += (i < 400 ? 1 : 37)) {
		da[i] ^= 0x20;
		spit(b, da, alen);
		da[i] ^= 0x20;
		f = cg_kbfile_open(b, err, sizeof err);
		if (f != NULL && cg_kbfile_check(f, err, sizeof err) == 0) {
			fails++;
			printf("# flip at %d not detected\n", i);
		}
		cg_kbfile_close(f);
	}
	is_int(fails, 0, "every flipped byte is caught");
	spit(b, da, alen - 10);
	f = cg_kbfile_open(b, err, sizeof err);
	ok(f == NULL && strstr(err, "truncated") != NULL,
	    "a truncated base is refused: %s", err);
	spit(b, da, 30);
	f = cg_kbfile_open(b, err, sizeof err);
	ok(f == NULL && strstr(err, "truncated") != NULL,
	    "a very short base is refused: %s", err);
	spit(b, "cgt\t1\n", 6);
	f = cg_kbfile_open(b, err, sizeof err);
	ok(f == NULL, "a text file is refused: %s", err);
	/* a failed write leaves the old file alone */
	ok(build("/nonexistent-dir/x.cgkb", 0, 1, 1) < 0,
	    "writing into a missing directory fails");
	free(da);

	/* empty base */
	s = cg_kbset_new(1);
	cg_kb_meta_init(&mm);
	mm.ruleset = strdup("test");
	mm.params = strdup("");
	mm.plugin_version = strdup("1");
	mm.family = strdup("");
	cg_kb_meta_set_kinds(&mm, "outcome");
	ok(write_set(s, &mm, b, err, sizeof err) == 0, "write an empty base");
	f = cg_kbfile_open(b, err, sizeof err);
	ok(f != NULL && cg_kbfile_get(f, (unsigned char *)"a", 1, 0) == NULL,
	    "an empty base opens and finds nothing");
	cg_kbfile_close(f);
	cg_kb_meta_free(&mm);
	cg_kbset_free(s);

	/* canonical forms: stored as games, printed back identically; a
	 * value that is not a canonical form keeps the text encoding */
	{
		static const char *const canon[] = { "0", "*", "1/2", "+-1",
		    "{1|*}", "^*", "{2|0}", "+-{1,{2|0}}", "-3/4", "*2",
		    "{1,{2|0}|-1/4}", "v" };
		const size_t nc = sizeof canon / sizeof canon[0];
		size_t enc;

		for (enc = 0; enc < 2; enc++) {
			char keyb[8];
			size_t j;
			int bad = 0;

			s = cg_kbset_new(1);
			cg_kb_meta_init(&mm);
			mm.ruleset = strdup("test");
			mm.params = strdup("");
			mm.plugin_version = strdup("1");
			mm.family = strdup("");
			cg_kb_meta_set_kinds(&mm, "canon");
			mm.games = 1;
			for (j = 0; j < nc; j++) {
				vals[0] = canon[j];
				snprintf(keyb, sizeof keyb, "g%02zu", j);
				cg_kbset_add(s, (unsigned char *)keyb, 3, vals, &old);
			}
			if (enc == 1) {
				vals[0] = "not a game";
				cg_kbset_add(s, (unsigned char *)"zzz", 3, vals, &old);
			}
			ok(write_set(s, &mm, b, err, sizeof err) == 0,
			    "write canonical forms (%s)", enc ? "text: one is not" : "games");
			f = cg_kbfile_open(b, err, sizeof err);
			ok(f != NULL, "open: %s", f ? "ok" : err);
			for (j = 0; f != NULL && j < nc; j++) {
				snprintf(keyb, sizeof keyb, "g%02zu", j);
				got = cg_kbfile_get(f, (unsigned char *)keyb, 3, 0);
				if (got == NULL || strcmp(got, canon[j]) != 0) {
					printf("# %s: got %s\n", canon[j],
					    got ? got : "(null)");
					bad++;
				}
			}
			is_int(bad, 0, "every canonical form comes back as written");
			cg_kbfile_close(f);
			cg_kb_meta_free(&mm);
			cg_kbset_free(s);
		}
	}

	/* kinds lists */
	cg_kb_meta_init(&mm);
	ok(cg_kb_meta_set_kinds(&mm, "canon,canon") < 0, "repeated kind refused");
	ok(cg_kb_meta_set_kinds(&mm, "canon,") < 0, "empty kind refused");
	ok(cg_kb_meta_set_kinds(&mm, "Canon") < 0, "upper case refused");
	ok(cg_kb_meta_set_kinds(&mm, "canon,outcome,nimber") == 0 &&
	    mm.nkinds == 3, "three kinds");
	cg_kb_meta_free(&mm);

	for (k = 0; k < 3; k++)
		unlink(sh[k]);
	unlink(a);
	unlink(b);
	unlink(m);
	rmdir(dir);
	return tap_done();
}
