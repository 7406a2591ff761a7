/* kbread.c - reading a cgkb(5) base (see kbfile.h and cgkb(5)).
 *
 * Opening maps the file and checks the header, the index and the small
 * tables (codes, the dictionaries' tables, columns); a block is checked
 * against its checksum when it is first read, a block of games records
 * likewise.  What a lookup decodes lives on its own stack or in caches
 * published atomically, so lookups run from several threads at once.
 * Every count and length read from the file is checked against the
 * bytes that hold it before anything is allocated for it. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/util.h"
#include "base/varint.h"
#include "kb/huff.h"
#include "kb/kbfile.h"
#include "kb/kbfmt.h"
#include "kb/kbgames.h"
#include "values/notation.h"

/* deflate expands at most 1032 times */
#define MAX_INFLATE(c) ((uint64_t)(c) * 1032 + 1024)
/* printed values are kept in chunks of this many refs */
#define PRINTED_CHUNK 4096

struct tblock {
	char *text;
	uint32_t *off;
	uint32_t n;
};

struct rkind {
	struct kb_kind d;
	uint64_t nsym, nrefs;
	struct cg_huff_dec code;          /* stored per entry */
	struct kb_games *games;           /* a games dictionary */
	const unsigned char *text;        /* a text dictionary's section */
	uint64_t textlen, textnb;
	uint64_t *tfirst;                 /* each block's first value */
	_Atomic(struct tblock *) *tcache;
	/* games: printed values, by ref, in chunks made when first used
	 * (a base of millions of values is opened to print one) */
	_Atomic(_Atomic(char *) *) *printed;
	const unsigned char *col;         /* a column */
	unsigned colw;
	uint64_t dict_bytes, col_bytes, code_bytes;
};

struct cg_kbfile {
	char *path;
	unsigned char *map;
	size_t size;
	struct cg_kb_meta meta;
	int ranked;
	struct rkind k[CG_KB_MAXKINDS];
	const unsigned char *index, *heap, *blocks;
	uint64_t nblocks, heaplen, blockslen;
	struct cg_huff_dec run, gap;
	uint64_t code_bytes;
	_Atomic uint64_t *verified;       /* per block */
	uint64_t header_size, index_size;
	struct cg_plugin *rs;             /* ranks keys (a base of slots) */
	pthread_mutex_t bindlock;
};

static int
keycmp(const unsigned char *a, size_t al, const unsigned char *b, size_t bl)
{
	int c = al && bl ? memcmp(a, b, al < bl ? al : bl) : 0;

	if (c != 0)
		return c;
	return al < bl ? -1 : al > bl;
}

const struct cg_kb_meta *
cg_kbfile_meta(const struct cg_kbfile *f)
{
	return &f->meta;
}

const char *
cg_kbfile_path(const struct cg_kbfile *f)
{
	return f->path;
}

int
cg_kbfile_games(const struct cg_kbfile *f, uint32_t k)
{
	return k < f->meta.nkinds && f->k[k].games != NULL;
}

uint64_t
cg_kbfile_nrefs(const struct cg_kbfile *f, uint32_t k)
{
	return k < f->meta.nkinds ? f->k[k].nrefs : 0;
}

/* ---------------------------------------------------------------- open */

/* A header string: text without control bytes. */
static char *
get_str(struct cg_rd *r)
{
	size_t n = (size_t)cg_get_le(r, 2), i;
	const unsigned char *p = cg_get_bytes(r, n);

	if (p == NULL)
		return cg_xstrdup("");
	for (i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] == 0x7f)
			r->bad = 1;
	return cg_xstrndup((const char *)p, n);
}

/* A base of format 1: what rebuilds it. */
static void
refuse_v1(const unsigned char *map, size_t size, const char *path, char *err,
    size_t errlen)
{
	struct cg_rd r;
	char *s[4], *kinds[CG_KB_MAXKINDS];
	uint32_t nk, i;
	struct cg_buf cmd;

	cg_rd_init(&r, map, size);
	cg_get_bytes(&r, 40);
	nk = (uint32_t)cg_get_le(&r, 4);
	if (nk > CG_KB_MAXKINDS)
		nk = 0;
	for (i = 0; i < 4; i++)
		s[i] = get_str(&r);
	for (i = 0; i < nk; i++)
		kinds[i] = get_str(&r);
	cg_buf_init(&cmd);
	cg_buf_addf(&cmd, "cg-kb-build -r %s%s%s", s[0], *s[1] ? ":" : "",
	    s[1]);
	if (*s[3])
		cg_buf_addf(&cmd, " --family '%s'", s[3]);
	for (i = 0; i < nk; i++)
		cg_buf_addf(&cmd, "%s%s", i ? "," : " -k ", kinds[i]);
	cg_buf_addf(&cmd, " -o %s", path);
	snprintf(err, errlen, "%s: a base of format 1, which this version "
	    "no longer reads: rebuild it (%s%s)", path, cg_buf_str(&cmd),
	    *s[3] ? "" : ", from the documents it was built from");
	for (i = 0; i < 4; i++)
		free(s[i]);
	for (i = 0; i < nk; i++)
		free(kinds[i]);
	cg_buf_free(&cmd);
}

static unsigned
bitlen(uint64_t v)
{
	return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

/* The text dictionary's table: its blocks, their sizes and values. */
static int
open_text(struct cg_kbfile *f, struct rkind *k, const struct kb_section *s)
{
	struct cg_rd r;
	uint64_t n, nb, b, prev = 0, off, clen, ulen, cnt, first = 0;
	const unsigned char *t;

	cg_rd_init(&r, f->map + s->off, s->checked);
	n = cg_get_le(&r, 8);
	nb = cg_get_le(&r, 8);
	if (r.bad || n != k->d.nvalues || nb > n || nb > cg_rd_left(&r) / 24 ||
	    cg_rd_left(&r) != 24 * nb || s->checked != 16 + 24 * nb ||
	    (n > 0 && nb == 0))
		return -1;
	t = r.p;
	k->tfirst = cg_xmalloc((nb + 1) * sizeof *k->tfirst);
	for (b = 0; b < nb; b++) {
		off = cg_load_le(t + 24 * b, 8);
		clen = cg_load_le(t + 24 * b + 8, 4);
		ulen = cg_load_le(t + 24 * b + 12, 4);
		cnt = cg_load_le(t + 24 * b + 20, 4);
		/* the format's bounds: a block of values up to KB_TEXT_BLOCK
		 * bytes, or of one value up to KB_PRINT_MAX */
		if ((b > 0 && off < prev) || off > s->len - s->checked ||
		    clen > s->len - s->checked - off || clen == 0 ||
		    cnt == 0 || cnt > KB_TEXTS_PER_BLOCK || cnt > ulen ||
		    ulen > (cnt == 1 ? KB_PRINT_MAX : KB_TEXT_BLOCK +
		    KB_PRINT_MAX) || ulen > MAX_INFLATE(clen) ||
		    cnt > n - first)
			return -1;
		k->tfirst[b] = first;
		first += cnt;
		prev = off + clen;
	}
	if (first != n)
		return -1;
	k->tfirst[nb] = n;
	k->text = f->map + s->off;
	k->textlen = s->len;
	k->textnb = nb;
	k->tcache = cg_xcalloc(nb ? nb : 1, sizeof *k->tcache);
	return 0;
}

static int
open_kinds(struct cg_kbfile *f, const struct kb_section *sec, uint32_t nsec,
    char *err, size_t errlen)
{
	uint32_t kk, i;
	struct cg_rd r;

	for (kk = 0; kk < f->meta.nkinds; kk++) {
		struct rkind *k = &f->k[kk];
		int code = 0, dict = 0, col = 0;

		k->nsym = k->d.nvalues + (k->d.absent != UINT64_MAX);
		k->nrefs = (k->d.dict == DICT_GAMES ? 2 : 1) * k->d.nvalues;
		if (k->d.dict > DICT_GAMES || k->d.store > STORE_COLUMN ||
		    (k->d.stride != 0 && k->d.stride != KB_STRIDE) ||
		    k->d.nvalues > f->size * 8 ||
		    (k->d.absent != UINT64_MAX && k->d.absent > k->d.nvalues))
			goto bad;
		if (k->d.store == STORE_COLUMN && (k->d.base >=
		    f->meta.nkinds || k->d.base == kk))
			goto bad;
		for (i = 0; i < nsec; i++) {
			const struct kb_section *s = &sec[i];

			if (s->kind != kk)
				continue;
			if (s->type == SEC_CODE && k->d.store == STORE_ENTRY &&
			    !code) {
				cg_rd_init(&r, f->map + s->off, s->len);
				if (cg_huff_get_counts(&r, &k->code, k->nsym) < 0 ||
				    k->code.n != k->nsym || cg_rd_left(&r) != 0)
					goto bad;
				k->code_bytes = s->len;
				code = 1;
			} else if (s->type == SEC_GAMES &&
			    k->d.dict == DICT_GAMES && !dict) {
				k->games = kb_games_open(f->map + s->off, s->len,
				    s->checked, f->path, err, errlen);
				if (k->games == NULL)
					return -1;
				if (kb_games_nvalues(k->games) != k->d.nvalues)
					goto bad;
				k->printed = cg_xcalloc(k->nrefs / PRINTED_CHUNK
				    + 1, sizeof *k->printed);
				k->dict_bytes = s->len;
				dict = 1;
			} else if (s->type == SEC_TEXT && k->d.dict == DICT_TEXT &&
			    !dict) {
				if (open_text(f, k, s) < 0)
					goto bad;
				k->dict_bytes = s->len;
				dict = 1;
			} else if (s->type == SEC_COLUMN &&
			    k->d.store == STORE_COLUMN && !col) {
				k->col = f->map + s->off;
				k->col_bytes = s->len;
				col = 1;
			} else {
				goto bad;
			}
		}
		if (!dict || code != (k->d.store == STORE_ENTRY) ||
		    col != (k->d.store == STORE_COLUMN))
			goto bad;
	}
	/* columns: on a kind stored per entry, a field per value of it */
	for (kk = 0; kk < f->meta.nkinds; kk++) {
		struct rkind *k = &f->k[kk];

		if (k->d.store != STORE_COLUMN)
			continue;
		if (f->k[k->d.base].d.store != STORE_ENTRY)
			goto bad;
		k->colw = bitlen(k->nrefs);
		if (k->colw == 0)
			k->colw = 1;
		if (k->col_bytes < (f->k[k->d.base].nrefs * k->colw + 7) / 8 + 8)
			goto bad;
	}
	return 0;
bad:
	snprintf(err, errlen, "%s: malformed knowledge base (value kind "
	    "'%s')", f->path, f->meta.kinds[kk < f->meta.nkinds ? kk : 0]);
	return -1;
}

/* The index: a first slot or key and an offset per block, in order. */
static int
open_index(struct cg_kbfile *f, const struct kb_section *s)
{
	struct cg_rd r;
	uint64_t b, prevoff = 0, prevrank = 0, first, off;
	const unsigned char *pk = NULL, *k;
	size_t pl = 0, kl;

	cg_rd_init(&r, f->map + s->off, s->len);
	f->nblocks = cg_get_le(&r, 8);
	if (r.bad || f->nblocks > cg_rd_left(&r) / 16 ||
	    (f->nblocks == 0) != (f->meta.count == 0) ||
	    f->nblocks > f->meta.count)
		return -1;
	f->index = r.p;
	f->heap = r.p + 16 * f->nblocks;
	f->heaplen = s->len - 8 - 16 * f->nblocks;
	if (f->ranked && f->heaplen != 0)
		return -1;
	for (b = 0; b < f->nblocks; b++) {
		first = cg_load_le(f->index + 16 * b, 8);
		off = cg_load_le(f->index + 16 * b + 8, 8);
		/* a block holds a count, a checksum and a stream or more */
		if ((b == 0 && off != 0) || (b > 0 && off < prevoff + 6) ||
		    off + 6 > f->blockslen)
			return -1;
		prevoff = off;
		if (f->ranked) {
			if ((b > 0 && first <= prevrank) || (f->meta.slots > 0 &&
			    first >= f->meta.slots))
				return -1;
			prevrank = first;
			continue;
		}
		if (first > f->heaplen || f->heaplen - first < 2)
			return -1;
		kl = (size_t)cg_load_le(f->heap + first, 2);
		if (kl > f->heaplen - first - 2)
			return -1;
		k = f->heap + first + 2;
		if (b > 0 && keycmp(pk, pl, k, kl) >= 0)
			return -1;
		pk = k;
		pl = kl;
	}
	return 0;
}

struct cg_kbfile *
cg_kbfile_open(const char *path, char *err, size_t errlen)
{
	struct cg_kbfile *f;
	struct kb_section sec[KB_MAXSECTIONS];
	struct stat st;
	struct cg_rd r;
	uint32_t version, hsize, nsec, i, kk, flags;
	uint64_t at;
	int fd, have_index = 0, have_blocks = 0, have_mcode = 0;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		close(fd);
		return NULL;
	}
	if ((size_t)st.st_size < 16) {
		snprintf(err, errlen, "%s: %s", path, st.st_size > 0 ?
		    "truncated knowledge base (or not one)" :
		    "empty file, not a knowledge base");
		close(fd);
		return NULL;
	}
	f = cg_xcalloc(1, sizeof *f);
	pthread_mutex_init(&f->bindlock, NULL);
	cg_kb_meta_init(&f->meta);
	f->path = cg_xstrdup(path);
	f->size = (size_t)st.st_size;
	f->map = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f->map == MAP_FAILED) {
		f->map = NULL;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (memcmp(f->map, cg_kb_magic, sizeof cg_kb_magic) != 0) {
		snprintf(err, errlen, "%s: not a knowledge base (bad magic)",
		    path);
		goto fail;
	}
	cg_rd_init(&r, f->map + 8, f->size - 8);
	version = (uint32_t)cg_get_le(&r, 4);
	if (version == 1) {
		refuse_v1(f->map, f->size, path, err, errlen);
		goto fail;
	}
	if (version != CG_KB_FORMAT) {
		snprintf(err, errlen, "%s: unsupported format version %u "
		    "(this program reads %u)", path, version, CG_KB_FORMAT);
		goto fail;
	}
	hsize = (uint32_t)cg_get_le(&r, 4);
	if (hsize < 64 || hsize > f->size) {
		snprintf(err, errlen, "%s: truncated knowledge base "
		    "(header of %u bytes, file of %zu)", path, hsize, f->size);
		goto fail;
	}
	if (kb_crc(f->map, hsize - 4) != cg_load_le(f->map + hsize - 4, 4)) {
		snprintf(err, errlen, "%s: header checksum mismatch "
		    "(corrupt knowledge base)", path);
		goto fail;
	}
	f->header_size = hsize;
	cg_rd_init(&r, f->map + 16, hsize - 20);
	f->meta.count = cg_get_le(&r, 8);
	f->meta.slots = cg_get_le(&r, 8);
	f->meta.shard_k = (uint32_t)cg_get_le(&r, 4);
	f->meta.shard_n = (uint32_t)cg_get_le(&r, 4);
	flags = (uint32_t)cg_get_le(&r, 4);
	f->meta.block_members = (uint32_t)cg_get_le(&r, 4);
	f->meta.block_size = (uint32_t)cg_get_le(&r, 4);
	f->meta.nkinds = (uint32_t)cg_get_le(&r, 4);
	nsec = (uint32_t)cg_get_le(&r, 4);
	f->ranked = (flags & KB_RANKED) != 0;
	if (r.bad || f->meta.nkinds > CG_KB_MAXKINDS || nsec > KB_MAXSECTIONS ||
	    f->meta.shard_n == 0 || f->meta.shard_k == 0 ||
	    f->meta.shard_k > f->meta.shard_n || (flags & ~KB_RANKED) ||
	    f->meta.count > 8 * (uint64_t)f->size || f->meta.block_members == 0 ||
	    f->meta.block_members > KB_MAX_MEMBERS || f->meta.block_size == 0 ||
	    f->meta.block_size > KB_MAX_BLOCK_BYTES) {
		f->meta.nkinds = 0;    /* no kind's name read, none to free */
		goto malformed;
	}
	free(f->meta.ruleset);
	f->meta.ruleset = get_str(&r);
	f->meta.params = get_str(&r);
	f->meta.plugin_version = get_str(&r);
	f->meta.family = get_str(&r);
	f->meta.index_family = get_str(&r);
	for (kk = 0; kk < f->meta.nkinds; kk++)
		f->meta.kinds[kk] = get_str(&r);
	if (f->ranked != (*f->meta.index_family != '\0') ||
	    (!f->ranked && f->meta.slots != 0))
		goto malformed;
	for (kk = 0; kk < f->meta.nkinds; kk++) {
		struct kb_kind *d = &f->k[kk].d;

		d->dict = (uint8_t)cg_get_le(&r, 1);
		d->store = (uint8_t)cg_get_le(&r, 1);
		d->base = (uint16_t)cg_get_le(&r, 2);
		d->stride = (uint32_t)cg_get_le(&r, 4);
		d->nvalues = cg_get_le(&r, 8);
		d->absent = cg_get_le(&r, 8);
		if (d->dict == DICT_GAMES && strcmp(f->meta.kinds[kk],
		    "canon") == 0)
			f->meta.games = 1;
	}
	/* the sections tile the file after the header, in order */
	at = hsize;
	for (i = 0; i < nsec; i++) {
		struct kb_section *s = &sec[i];

		s->type = (uint32_t)cg_get_le(&r, 4);
		s->kind = (uint32_t)cg_get_le(&r, 4);
		s->off = cg_get_le(&r, 8);
		s->len = cg_get_le(&r, 8);
		s->checked = cg_get_le(&r, 8);
		s->crc = (uint32_t)cg_get_le(&r, 4);
		if (r.bad || s->off != at || s->checked > s->len)
			goto malformed;
		if (s->len > f->size - at) {
			snprintf(err, errlen, "%s: truncated knowledge base",
			    path);
			goto fail;
		}
		at += s->len;
	}
	if (r.bad || cg_rd_left(&r) != 0)
		goto malformed;
	if (at != f->size) {
		snprintf(err, errlen, "%s: %s", path, at > f->size ?
		    "truncated knowledge base" : "trailing garbage");
		goto fail;
	}
	for (i = 0; i < nsec; i++) {
		if (sec[i].type != SEC_BLOCKS && kb_crc(f->map + sec[i].off,
		    sec[i].checked) != sec[i].crc) {
			snprintf(err, errlen, "%s: section %u checksum mismatch "
			    "(corrupt knowledge base)", path, i + 1);
			goto fail;
		}
		if (sec[i].type == SEC_BLOCKS) {
			if (have_blocks++ || sec[i].checked != 0 ||
			    sec[i].kind != KB_NOKIND)
				goto malformed;
			f->blocks = f->map + sec[i].off;
			f->blockslen = sec[i].len;
		}
	}
	for (i = 0; i < nsec; i++) {
		if (sec[i].kind == KB_NOKIND && sec[i].type == SEC_CODE) {
			cg_rd_init(&r, f->map + sec[i].off, sec[i].len);
			if (!f->ranked || have_mcode++ ||
			    cg_huff_get_lengths(&r, &f->run, CG_NUM_CLASSES) < 0 ||
			    cg_huff_get_lengths(&r, &f->gap, CG_NUM_CLASSES) < 0 ||
			    cg_rd_left(&r) != 0)
				goto malformed;
			f->code_bytes = sec[i].len;
		} else if (sec[i].type == SEC_INDEX) {
			if (have_index++ || !have_blocks ||
			    sec[i].kind != KB_NOKIND ||
			    open_index(f, &sec[i]) < 0)
				goto badindex;
			f->index_size = sec[i].len;
		} else if ((sec[i].type == SEC_BLOCKS) !=
		    (sec[i].kind == KB_NOKIND) || (sec[i].kind != KB_NOKIND &&
		    sec[i].kind >= f->meta.nkinds)) {
			goto malformed;
		}
	}
	if (!have_index || have_mcode != f->ranked)
		goto malformed;
	if (open_kinds(f, sec, nsec, err, errlen) < 0)
		goto fail;
	f->verified = cg_xcalloc(f->nblocks / 64 + 1, sizeof *f->verified);
	return f;
badindex:
	snprintf(err, errlen, "%s: malformed knowledge base index (blocks "
	    "out of order, duplicated or of impossible sizes)", path);
	goto fail;
malformed:
	snprintf(err, errlen, "%s: malformed knowledge base header", path);
fail:
	cg_kbfile_close(f);
	return NULL;
}

void
cg_kbfile_close(struct cg_kbfile *f)
{
	uint32_t kk;
	uint64_t i;

	if (f == NULL)
		return;
	for (kk = 0; kk < CG_KB_MAXKINDS; kk++) {
		struct rkind *k = &f->k[kk];

		cg_huff_dec_free(&k->code);
		kb_games_free(k->games);
		for (i = 0; k->tcache && i < k->textnb; i++) {
			struct tblock *t = atomic_load(&k->tcache[i]);

			if (t) {
				free(t->off);
				free(t->text);
				free(t);
			}
		}
		free((void *)k->tcache);
		free(k->tfirst);
		for (i = 0; k->printed && i <= k->nrefs / PRINTED_CHUNK; i++) {
			_Atomic(char *) *c = atomic_load(&k->printed[i]);
			size_t j;

			for (j = 0; c && j < PRINTED_CHUNK; j++)
				free(atomic_load(&c[j]));
			free((void *)c);
		}
		free((void *)k->printed);
	}
	cg_huff_dec_free(&f->run);
	cg_huff_dec_free(&f->gap);
	if (f->map)
		munmap(f->map, f->size);
	free((void *)f->verified);
	pthread_mutex_destroy(&f->bindlock);
	free(f->path);
	cg_kb_meta_free(&f->meta);
	free(f);
}

int
cg_kbfile_bind(struct cg_kbfile *f, struct cg_plugin *rs, char *err,
    size_t errlen)
{
	const char *params = rs->params ? rs->params : "";
	const char *version = rs->rs->version ? rs->rs->version : "";
	char spec[512];
	uint64_t slots;

	if (strcmp(f->meta.ruleset, rs->name) != 0 ||
	    strcmp(f->meta.params, params) != 0) {
		snprintf(err, errlen, "%s: base is for '%s', not '%s'", f->path,
		    cg_quote_str(cg_kb_meta_spec(&f->meta, spec, sizeof spec)),
		    rs->spec);
		return -1;
	}
	if (strcmp(f->meta.plugin_version, version) != 0) {
		snprintf(err, errlen, "%s: base was built with ruleset '%s' "
		    "version %s, the plugin is version %s", f->path,
		    f->meta.ruleset, cg_quote_str(f->meta.plugin_version),
		    version);
		return -1;
	}
	if (f->ranked && (cg_rs_slots(rs, f->meta.index_family, &slots) < 0 ||
	    slots != f->meta.slots)) {
		snprintf(err, errlen, "%s: the ruleset's index of family '%s' is "
		    "not the one the base was built with", f->path,
		    f->meta.index_family);
		return -1;
	}
	pthread_mutex_lock(&f->bindlock);
	f->rs = rs;
	pthread_mutex_unlock(&f->bindlock);
	return 0;
}

/* The plugin that ranks keys: bound, or loaded by the base's name. */
static struct cg_plugin *
ranker(struct cg_kbfile *f)
{
	struct cg_plugin *rs;
	char err[1024], spec[512];

	pthread_mutex_lock(&f->bindlock);
	rs = f->rs;
	pthread_mutex_unlock(&f->bindlock);
	if (rs != NULL)
		return rs;
	rs = cg_plugin_get(cg_kb_meta_spec(&f->meta, spec, sizeof spec),
	    CG_EXIT_DATA);
	if (cg_kbfile_bind(f, rs, err, sizeof err) < 0)
		cg_die(CG_EXIT_DATA, "%s", err);
	return rs;
}

/* -------------------------------------------------------------- blocks */

/* One block, parsed: its streams located. */
struct bview {
	uint64_t b, n;
	const unsigned char *mem;          /* membership, or keys */
	uint64_t memlen, keyulen;
	const unsigned char *stream[CG_KB_MAXKINDS];
	uint64_t slen[CG_KB_MAXKINDS];
	uint64_t mark[CG_KB_MAXKINDS][KB_MAX_MEMBERS / KB_STRIDE];
};

static void
block_bounds(const struct cg_kbfile *f, uint64_t b, uint64_t *off,
    uint64_t *end)
{
	*off = cg_load_le(f->index + 16 * b + 8, 8);
	*end = b + 1 < f->nblocks ? cg_load_le(f->index + 16 * (b + 1) + 8,
	    8) : f->blockslen;
}

/* Parse block b into v: 0, or -1 when it is damaged or malformed. */
static int
parse_block(struct cg_kbfile *f, uint64_t b, struct bview *v)
{
	uint64_t off, end, m, nm;
	uint32_t kk;
	struct cg_rd r;

	block_bounds(f, b, &off, &end);
	if (!(atomic_load_explicit(&f->verified[b / 64],
	    memory_order_acquire) >> (b % 64) & 1)) {
		if (kb_crc(f->blocks + off, end - off - 4) !=
		    cg_load_le(f->blocks + end - 4, 4))
			return -1;
		atomic_fetch_or(&f->verified[b / 64], (uint64_t)1 << (b % 64));
	}
	cg_rd_init(&r, f->blocks + off, end - off - 4);
	v->b = b;
	v->n = cg_get_varint(&r);
	if (r.bad || v->n == 0 || v->n > KB_MAX_MEMBERS)
		return -1;
	if (f->ranked) {
		v->memlen = cg_get_varint(&r);
		v->keyulen = 0;
	} else {
		v->memlen = cg_get_varint(&r);
		v->keyulen = cg_get_varint(&r);
		/* the writer ends a block at the key that passes the header's
		 * block size (or after one key): front-coded, its keys take
		 * that many bytes and two varints of 3 bytes each a key */
		if (v->keyulen > MAX_INFLATE(v->memlen) || v->keyulen >
		    (uint64_t)(f->meta.block_size > KB_MAX_KEY ?
		    f->meta.block_size : KB_MAX_KEY) + 6 * v->n)
			return -1;
	}
	if (r.bad || (v->mem = cg_get_bytes(&r, v->memlen)) == NULL)
		return -1;
	for (kk = 0; kk < f->meta.nkinds; kk++) {
		const struct rkind *k = &f->k[kk];

		if (k->d.store != STORE_ENTRY)
			continue;
		v->slen[kk] = cg_get_varint(&r);
		nm = k->d.stride ? (v->n - 1) / k->d.stride : 0;
		for (m = 0; m < nm; m++) {
			v->mark[kk][m] = cg_get_varint(&r);
			if (v->mark[kk][m] > 8 * v->slen[kk] ||
			    (m > 0 && v->mark[kk][m] < v->mark[kk][m - 1]))
				return -1;
		}
		if (r.bad || (v->stream[kk] = cg_get_bytes(&r,
		    v->slen[kk])) == NULL)
			return -1;
	}
	return r.bad || cg_rd_left(&r) != 0 ? -1 : 0;
}

static void
damaged(const struct cg_kbfile *f, uint64_t b)
{
	cg_die(CG_EXIT_DATA, "%s: block %llu is damaged or malformed", f->path,
	    (unsigned long long)b + 1);
}

/* The member of v at slot r: its index in the block, or -1. */
static int64_t
member_at(struct cg_kbfile *f, const struct bview *v, uint64_t first,
    uint64_t r)
{
	struct cg_bitr br;
	uint64_t pos = first, idx = 0, run, gap;
	int bad = 0;

	cg_bitr_init(&br, v->mem, v->memlen);
	for (;;) {
		run = cg_num_get(&br, &f->run, &bad);
		if (bad || run >= v->n - idx)
			damaged(f, v->b);
		run++;
		if (r < pos + run)
			return (int64_t)(idx + (r - pos));
		idx += run;
		pos += run;
		if (idx == v->n)
			return -1;
		gap = cg_num_get(&br, &f->gap, &bad);
		if (bad || gap > UINT64_MAX - pos - 2)
			damaged(f, v->b);
		pos += gap + 1;
		if (r < pos)
			return -1;
	}
}

/* Decode one symbol of kind k (and its sign): the reference, or
 * CG_KB_NOVALUE; *bad on malformed bits. */
static uint64_t
get_ref(const struct rkind *k, struct cg_bitr *br, int *bad)
{
	uint32_t s = cg_huff_get(br, &k->code);
	uint64_t v;

	if (s == UINT32_MAX || s >= k->nsym) {
		*bad = 1;
		return CG_KB_NOVALUE;
	}
	if (s == k->d.absent)
		return CG_KB_NOVALUE;
	v = s < k->d.absent ? s : s - 1;
	if (k->games == NULL)
		return v;
	if (kb_games_selfneg(k->games, v))
		return 2 * v;
	return 2 * v + cg_bitr_get(br, 1);
}

/* The bits r has taken from the stream that starts at p. */
static uint64_t
bitpos(const struct cg_bitr *r, const unsigned char *p)
{
	return (uint64_t)(r->p - p) * 8 + r->pad - r->n;
}

/* The reference of column kind kk for the reference ref of the kind it
 * is on (one the base holds); *bad for a field out of range. */
static uint64_t
column_ref(const struct cg_kbfile *f, uint32_t kk, uint64_t ref, int *bad)
{
	const struct rkind *k = &f->k[kk];
	uint64_t field, bit;

	if (ref == CG_KB_NOVALUE)
		return CG_KB_NOVALUE;
	bit = ref * k->colw;
	field = cg_load_le(k->col + bit / 8, 8);
	field = __builtin_bswap64(field) << (bit % 8) >> (64 - k->colw);
	if (field == 0)
		return CG_KB_NOVALUE;
	if (field - 1 >= k->nrefs) {
		*bad = 1;
		return CG_KB_NOVALUE;
	}
	return field - 1;
}

/* The reference of kind kk for member idx of v. */
static uint64_t
value_at(struct cg_kbfile *f, const struct bview *v, uint32_t kk,
    uint64_t idx)
{
	const struct rkind *k = &f->k[kk];
	struct cg_bitr br;
	uint64_t ref, i = 0;
	int bad = 0;

	if (k->d.store == STORE_COLUMN) {
		ref = column_ref(f, kk, value_at(f, v, k->d.base, idx), &bad);
		if (bad)
			damaged(f, v->b);
		return ref;
	}
	cg_bitr_init(&br, v->stream[kk], v->slen[kk]);
	if (k->d.stride && idx >= k->d.stride) {
		uint64_t m = idx / k->d.stride - 1, at = v->mark[kk][m];

		cg_bitr_init(&br, v->stream[kk] + at / 8, v->slen[kk] - at / 8);
		cg_bitr_get(&br, (unsigned)(at % 8));
		i = (m + 1) * k->d.stride;
	}
	for (; i < idx; i++)
		get_ref(k, &br, &bad);
	ref = get_ref(k, &br, &bad);
	if (bad || cg_bitr_overrun(&br) || (ref != CG_KB_NOVALUE &&
	    ref >= k->nrefs))
		damaged(f, v->b);
	return ref;
}

/* The last block whose first slot is <= r, or -1. */
static int64_t
block_of_slot(const struct cg_kbfile *f, uint64_t r)
{
	uint64_t lo = 0, hi = f->nblocks, mid;

	if (f->nblocks == 0 || cg_load_le(f->index, 8) > r)
		return -1;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (cg_load_le(f->index + 16 * mid, 8) <= r)
			lo = mid;
		else
			hi = mid;
	}
	return (int64_t)lo;
}

static const unsigned char *
first_key(const struct cg_kbfile *f, uint64_t b, size_t *len)
{
	uint64_t at = cg_load_le(f->index + 16 * b, 8);

	*len = (size_t)cg_load_le(f->heap + at, 2);
	return f->heap + at + 2;
}

static int64_t
block_of_key(const struct cg_kbfile *f, const unsigned char *key, size_t len)
{
	uint64_t lo = 0, hi = f->nblocks, mid;
	const unsigned char *k;
	size_t kl;

	if (f->nblocks == 0)
		return -1;
	k = first_key(f, 0, &kl);
	if (keycmp(k, kl, key, len) > 0)
		return -1;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		k = first_key(f, mid, &kl);
		if (keycmp(k, kl, key, len) <= 0)
			lo = mid;
		else
			hi = mid;
	}
	return (int64_t)lo;
}

/* Walk the keys of a block: each in turn in *key (a buffer of
 * KB_MAX_KEY bytes).  Returns the keys' bytes inflated or NULL. */
static unsigned char *
inflate_keys(const struct cg_kbfile *f, const struct bview *v)
{
	unsigned char *raw = cg_xmalloc(v->keyulen ? v->keyulen : 1);
	uLongf ulen = (uLongf)v->keyulen;

	if (uncompress(raw, &ulen, v->mem, (uLong)v->memlen) != Z_OK ||
	    ulen != v->keyulen) {
		free(raw);
		return NULL;
	}
	return raw;
}

struct keywalk {
	struct cg_rd r;
	unsigned char *key;       /* KB_MAX_KEY bytes */
	size_t len;
};

/* The next key of the walk: 0, or -1 when malformed. */
static int
next_key(struct keywalk *w, int first)
{
	uint64_t shared = cg_get_varint(&w->r), rest = cg_get_varint(&w->r);
	const unsigned char *p;

	if (w->r.bad || shared > w->len || (first && shared != 0) ||
	    rest > KB_MAX_KEY - shared || (p = cg_get_bytes(&w->r,
	    rest)) == NULL)
		return -1;
	memcpy(w->key + shared, p, rest);
	w->len = shared + rest;
	return 0;
}

/* Is the walk's key block b's first key in the index?  (Lookups find
 * blocks by the index's keys: a block must begin with its own.) */
static int
first_is(const struct cg_kbfile *f, uint64_t b, const struct keywalk *w)
{
	size_t kl;
	const unsigned char *k = first_key(f, b, &kl);

	return keycmp(k, kl, w->key, w->len) == 0;
}

/* The block and member index of key: 1, or 0 when absent. */
static int
locate(struct cg_kbfile *f, const unsigned char *key, size_t len,
    struct bview *v, uint64_t *idx)
{
	int64_t b, i;

	if (f->ranked) {
		struct cg_plugin *rs = ranker(f);
		uint64_t r;

		if (cg_rs_rank(rs, f->meta.index_family, key, len, &r) < 0)
			return 0;
		if ((b = block_of_slot(f, r)) < 0)
			return 0;
		if (parse_block(f, (uint64_t)b, v) < 0)
			damaged(f, (uint64_t)b);
		i = member_at(f, v, cg_load_le(f->index + 16 * b, 8), r);
		if (i < 0)
			return 0;
		*idx = (uint64_t)i;
		return 1;
	}
	if ((b = block_of_key(f, key, len)) < 0)
		return 0;
	if (parse_block(f, (uint64_t)b, v) < 0)
		damaged(f, (uint64_t)b);
	{
		unsigned char *raw = inflate_keys(f, v);
		struct keywalk w;
		uint64_t j;
		int c = 1;

		if (raw == NULL)
			damaged(f, (uint64_t)b);
		cg_rd_init(&w.r, raw, v->keyulen);
		w.key = cg_xmalloc(KB_MAX_KEY);
		w.len = 0;
		for (j = 0; j < v->n; j++) {
			if (next_key(&w, j == 0) < 0 || (j == 0 &&
			    !first_is(f, (uint64_t)b, &w))) {
				free(raw);
				free(w.key);
				damaged(f, (uint64_t)b);
			}
			c = keycmp(w.key, w.len, key, len);
			if (c >= 0)
				break;
		}
		free(raw);
		free(w.key);
		if (c != 0)
			return 0;
		*idx = j;
		return 1;
	}
}

uint64_t
cg_kbfile_ref(struct cg_kbfile *f, const unsigned char *key, size_t len,
    uint32_t k)
{
	struct bview *v;
	uint64_t idx, ref = CG_KB_NOVALUE;

	if (k >= f->meta.nkinds)
		return CG_KB_NOVALUE;
	v = cg_xmalloc(sizeof *v);
	if (locate(f, key, len, v, &idx))
		ref = value_at(f, v, k, idx);
	free(v);
	return ref;
}

/* -------------------------------------------------------------- values */

static struct tblock *
text_block_get(struct cg_kbfile *f, struct rkind *k, uint64_t b, char *err,
    size_t errlen)
{
	struct tblock *t = atomic_load_explicit(&k->tcache[b],
	    memory_order_acquire), *none = NULL;
	const unsigned char *e = k->text + 16 + 24 * b;
	uint64_t off = cg_load_le(e, 8), clen = cg_load_le(e + 8, 4);
	uint64_t ulen = cg_load_le(e + 12, 4), i, at;
	uint64_t want = k->tfirst[b + 1] - k->tfirst[b];
	const unsigned char *src = k->text + 16 + 24 * k->textnb + off;
	uLongf got = (uLongf)ulen;

	if (t != NULL)
		return t;
	if (kb_crc(src, clen) != cg_load_le(e + 16, 4))
		goto bad;
	t = cg_xcalloc(1, sizeof *t);
	t->text = cg_xmalloc(ulen);
	t->off = cg_xmalloc(want * sizeof *t->off);
	if (uncompress((unsigned char *)t->text, &got, src, (uLong)clen) !=
	    Z_OK || got != ulen || t->text[ulen - 1] != '\0')
		goto badt;
	for (i = 0, at = 0; i < want; i++) {
		if (at >= ulen)
			goto badt;
		t->off[i] = (uint32_t)at;
		at += strlen(t->text + at) + 1;
	}
	if (at != ulen)
		goto badt;
	t->n = (uint32_t)want;
	if (!atomic_compare_exchange_strong(&k->tcache[b], &none, t)) {
		free(t->off);
		free(t->text);
		free(t);
		t = none;
	}
	return t;
badt:
	free(t->off);
	free(t->text);
	free(t);
bad:
	snprintf(err, errlen, "%s: text dictionary block %llu is damaged or "
	    "malformed", f->path, (unsigned long long)b + 1);
	return NULL;
}

static struct tblock *
text_block(struct cg_kbfile *f, struct rkind *k, uint64_t b)
{
	char err[1024];
	struct tblock *t = text_block_get(f, k, b, err, sizeof err);

	if (t == NULL)
		cg_die(CG_EXIT_DATA, "%s", err);
	return t;
}

cg_game
cg_kbfile_game(struct cg_kbfile *f, uint32_t k, uint64_t ref)
{
	char err[1024];
	cg_game g;

	if (k >= f->meta.nkinds || f->k[k].games == NULL ||
	    ref >= f->k[k].nrefs)
		return CG_NO_GAME;
	g = kb_games_get(f->k[k].games, ref, err, sizeof err);
	if (g == CG_NO_GAME)
		cg_die(CG_EXIT_DATA, "%s", err);
	/* whoever asked prints it, or walks it as the printer would */
	if (kb_games_print_bound(f->k[k].games, ref) > KB_PRINT_MAX)
		cg_die(CG_EXIT_DATA, "%s: a value of kind '%s' could print to "
		    "more than %llu MB", f->path, f->meta.kinds[k],
		    (unsigned long long)(KB_PRINT_MAX >> 20));
	return g;
}


/* Where ref's printed value is kept, its chunk made if need be. */
static _Atomic(char *) *
printed_slot(struct rkind *k, uint64_t ref)
{
	_Atomic(char *) *c, *none = NULL;

	c = atomic_load_explicit(&k->printed[ref / PRINTED_CHUNK],
	    memory_order_acquire);
	if (c == NULL) {
		c = cg_xcalloc(PRINTED_CHUNK, sizeof *c);
		if (!atomic_compare_exchange_strong(
		    &k->printed[ref / PRINTED_CHUNK], &none, c)) {
			free((void *)c);
			c = none;
		}
	}
	return &c[ref % PRINTED_CHUNK];
}

const char *
cg_kbfile_text(struct cg_kbfile *f, uint32_t kk, uint64_t ref)
{
	struct rkind *k;
	_Atomic(char *) *slot;
	char *s, *none = NULL;
	struct cg_buf b;
	cg_game g;

	if (kk >= f->meta.nkinds || ref >= f->k[kk].nrefs)
		return NULL;
	k = &f->k[kk];
	if (k->games == NULL) {
		uint64_t lo = 0, hi = k->textnb, mid;
		struct tblock *t;

		/* the last block whose first value is <= ref */
		while (hi - lo > 1) {
			mid = lo + (hi - lo) / 2;
			if (k->tfirst[mid] <= ref)
				lo = mid;
			else
				hi = mid;
		}
		t = text_block(f, k, lo);
		return t->text + t->off[ref - k->tfirst[lo]];
	}
	slot = printed_slot(k, ref);
	s = atomic_load_explicit(slot, memory_order_acquire);
	if (s != NULL)
		return s;
	g = cg_kbfile_game(f, kk, ref);
	cg_buf_init(&b);
	cg_canon_print(g, &b);
	s = (char *)cg_buf_str(&b);
	if (!atomic_compare_exchange_strong(slot, &none, s)) {
		free(s);
		s = none;
	}
	return s;
}

const char *
cg_kbfile_get(struct cg_kbfile *f, const unsigned char *key, size_t len,
    uint32_t k)
{
	uint64_t ref = cg_kbfile_ref(f, key, len, k);

	return ref == CG_KB_NOVALUE ? NULL : cg_kbfile_text(f, k, ref);
}

/* ------------------------------------------------------------- visiting */

int
cg_kbfile_each(struct cg_kbfile *f, int keys, cg_kb_visit_fn fn, void *ctx,
    char *err, size_t errlen)
{
	struct bview *v = cg_xmalloc(sizeof *v);
	struct cg_kbentry e;
	struct cg_buf kb;
	struct keywalk w;
	unsigned char *raw = NULL, *prevkey = cg_xmalloc(KB_MAX_KEY);
	size_t prevlen = 0;
	uint64_t b, i, total = 0, slot = 0, prevslot = 0, run = 0, gap;
	struct cg_bitr mr, sr[CG_KB_MAXKINDS];
	struct cg_plugin *rs = NULL;
	uint32_t kk;
	int ret = 0, bad = 0;

	cg_buf_init(&kb);
	w.key = cg_xmalloc(KB_MAX_KEY);
	if (keys && f->ranked)
		rs = ranker(f);
	for (b = 0; b < f->nblocks && ret == 0; b++) {
		if (parse_block(f, b, v) < 0)
			goto damaged;
		if (f->ranked) {
			cg_bitr_init(&mr, v->mem, v->memlen);
			slot = cg_load_le(f->index + 16 * b, 8);
			run = 0;
		} else {
			free(raw);
			if ((raw = inflate_keys(f, v)) == NULL)
				goto damaged;
			cg_rd_init(&w.r, raw, v->keyulen);
			w.len = 0;
		}
		for (kk = 0; kk < f->meta.nkinds; kk++)
			if (f->k[kk].d.store == STORE_ENTRY)
				cg_bitr_init(&sr[kk], v->stream[kk], v->slen[kk]);
		for (i = 0; i < v->n && ret == 0; i++) {
			memset(&e, 0, sizeof e);
			if (f->ranked) {
				if (run == 0) {
					if (i > 0) {
						gap = cg_num_get(&mr, &f->gap, &bad);
						if (gap > UINT64_MAX - slot - 2)
							bad = 1;
						slot += gap + 2;
					}
					run = cg_num_get(&mr, &f->run, &bad) + 1;
					if (bad || run > v->n - i)
						goto damaged;
				} else {
					slot++;
				}
				run--;
				if (total > 0 && slot <= prevslot)
					goto order;
				if (f->meta.slots > 0 && slot >= f->meta.slots)
					goto damaged;
				prevslot = slot;
				e.slot = slot;
				if (keys) {
					kb.len = 0;
					if (cg_rs_unrank(rs, f->meta.index_family,
					    slot, &kb) < 0) {
						snprintf(err, errlen, "%s: slot %llu of "
						    "family '%s' holds no position: "
						    "%s", f->path,
						    (unsigned long long)slot,
						    f->meta.index_family,
						    cg_rs_errmsg(rs));
						ret = -1;
						break;
					}
					e.key = kb.data;
					e.len = kb.len;
				}
			} else {
				if (next_key(&w, i == 0) < 0 || (i == 0 &&
				    !first_is(f, b, &w)))
					goto damaged;
				if (total > 0 && keycmp(prevkey, prevlen, w.key,
				    w.len) >= 0)
					goto order;
				memcpy(prevkey, w.key, w.len);
				prevlen = w.len;
				e.key = w.key;
				e.len = w.len;
			}
			for (kk = 0; kk < f->meta.nkinds; kk++)
				if (f->k[kk].d.store == STORE_ENTRY) {
					uint32_t st = f->k[kk].d.stride;

					/* a lookup starts from the marks */
					if (st && i > 0 && i % st == 0 &&
					    bitpos(&sr[kk], v->stream[kk]) !=
					    v->mark[kk][i / st - 1])
						bad = 1;
					e.ref[kk] = get_ref(&f->k[kk], &sr[kk], &bad);
					if ((e.ref[kk] != CG_KB_NOVALUE &&
					    e.ref[kk] >= f->k[kk].nrefs) ||
					    cg_bitr_overrun(&sr[kk]))
						bad = 1;
				}
			/* columns from the references just read (dying in
			 * value_at would lose this function's buffers) */
			for (kk = 0; kk < f->meta.nkinds && !bad; kk++)
				if (f->k[kk].d.store == STORE_COLUMN)
					e.ref[kk] = column_ref(f, kk,
					    e.ref[f->k[kk].d.base], &bad);
			if (bad)
				goto damaged;
			total++;
			ret = fn(ctx, &e);
		}
		if (ret == 0 && (f->ranked ? run != 0 : cg_rd_left(&w.r) != 0))
			goto damaged;
	}
	if (ret == 0 && total != f->meta.count) {
		snprintf(err, errlen, "%s: %llu entries, header says %llu",
		    f->path, (unsigned long long)total,
		    (unsigned long long)f->meta.count);
		ret = -1;
	}
	goto out;
order:
	snprintf(err, errlen, "%s: block %llu: entries out of order", f->path,
	    (unsigned long long)b + 1);
	ret = -1;
	goto out;
damaged:
	snprintf(err, errlen, "%s: block %llu is damaged or malformed",
	    f->path, (unsigned long long)b + 1);
	ret = -1;
out:
	free(raw);
	free(prevkey);
	free(w.key);
	free(v);
	cg_buf_free(&kb);
	return ret;
}

static int
check_visit(void *ctx, const struct cg_kbentry *e)
{
	(void)ctx;
	(void)e;
	return 0;
}

int
cg_kbfile_check(struct cg_kbfile *f, char *err, size_t errlen)
{
	uint32_t kk;
	uint64_t b;

	if (cg_kbfile_each(f, 0, check_visit, NULL, err, errlen) < 0)
		return -1;
	for (kk = 0; kk < f->meta.nkinds; kk++) {
		struct rkind *k = &f->k[kk];

		if (k->games != NULL && kb_games_check(k->games, err,
		    errlen) < 0)
			return -1;
		for (b = 0; k->games == NULL && b < k->textnb; b++)
			if (text_block_get(f, k, b, err, errlen) == NULL)
				return -1;
	}
	return 0;
}

void
cg_kbfile_stats(const struct cg_kbfile *f, struct cg_kbfile_stats *st)
{
	uint32_t kk;

	memset(st, 0, sizeof *st);
	st->file_size = f->size;
	st->header_size = f->header_size;
	st->index_size = f->index_size;
	st->data_size = f->blockslen;
	st->nblocks = f->nblocks;
	st->code_size = f->code_bytes;
	for (kk = 0; kk < f->meta.nkinds; kk++) {
		const struct rkind *k = &f->k[kk];

		st->code_size += k->code_bytes;
		st->dict_size[kk] = k->dict_bytes;
		st->dict_records[kk] = k->games ?
		    kb_games_nrecords(k->games) : k->d.nvalues;
		st->column_size[kk] = k->col_bytes;
		st->nvalues[kk] = k->d.nvalues;
		st->column_of[kk] = k->d.store == STORE_COLUMN ?
		    (int)k->d.base : -1;
	}
}
