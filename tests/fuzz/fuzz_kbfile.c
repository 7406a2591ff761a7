/*
 * fuzz_kbfile.c - libFuzzer target for the cgkb(5) reader (format 2).
 *
 * The input is written to a memory file and opened as a knowledge base.
 * When it opens: its statistics are read; every block, games block and
 * text block is checked (cg_kbfile_check); every entry is visited
 * (cg_kbfile_each: keys are not made for a base indexed by slots, whose
 * ruleset this target does not load); for a base of keys, the first 64
 * keys visited are looked up again once the visit has gone through, and
 * must give the references the visit gave; and the first 64 references
 * of every kind are asked for as text, which for a kind stored as games
 * decodes records and makes games from them.  A base that does not open,
 * or a block that does not decode, is an expected outcome; a crash, a
 * leak, a wrong lookup or an allocation beyond what the file can hold is
 * a finding (run with -malloc_limit_mb / -rss_limit_mb).  Data errors
 * that exit (a block that does not decode during a lookup, a game too
 * large) come back through cg_exit_hook.
 *
 * Checksums would stop nearly every mutation at the header, so the target
 * first makes them right (fix_checksums) wherever the (fuzzed) layout
 * puts them: each entry block's trailing CRC (walking the index), each
 * games block's CRC in its block table, each text block's CRC in its
 * record, each section's CRC of its checked bytes, and the header's CRC.
 * What the reader then meets is a file that lies without damage, as a
 * crafted one does.  (fuzz_ckpt.c does the same for the build
 * checkpoints.)
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "kb/kbfile.h"
#include "base/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static jmp_buf on_error;

static void
exit_hook(int status)
{
	(void)status;
	longjmp(on_error, 1);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	cg_setprogname("fuzz_kbfile");
	cg_exit_hook = exit_hook;
	return 0;
}

/* ---------------------------------------------------------- checksums */

/* cgkb(5) section types and sizes (kb/kbfmt.h, not included: the target
 * sees the format as a writer of files would) */
enum { SEC_INDEX = 1, SEC_BLOCKS = 2, SEC_TEXT = 4, SEC_GAMES = 5 };
#define HEADER_FIXED 60
#define KIND_BYTES 24
#define SECTION_BYTES 36
#define MAX_SECTIONS 64
#define MAX_KINDS 8

static uint64_t
rd(const unsigned char *p, unsigned n)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void
wr32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static uint32_t
crc_of(const unsigned char *p, uint64_t n)
{
	return (uint32_t)crc32(crc32(0L, Z_NULL, 0), p, (uInt)n);
}

/* Is [off, off + len) inside [0, size)? */
static int
inside(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

/* A varint of p[*at .. end): its value, or UINT64_MAX when cut short. */
static uint64_t
varint(const unsigned char *p, uint64_t *at, uint64_t end)
{
	uint64_t v = 0;
	int shift;

	for (shift = 0; shift < 64 && *at < end; shift += 7) {
		unsigned char c = p[(*at)++];

		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	return UINT64_MAX;
}

struct sec {
	uint64_t type, off, len, checked;
	unsigned char *desc;          /* its descriptor in the header */
};

/* Each entry block's trailing CRC, the blocks located by the index. */
static void
fix_blocks(unsigned char *d, size_t size, const struct sec *blocks,
    const struct sec *index)
{
	const unsigned char *ix;
	uint64_t nb, b, off, end;

	if (!inside(index->off, index->len, size) ||
	    !inside(blocks->off, blocks->len, size) || index->len < 8)
		return;
	ix = d + index->off;
	nb = rd(ix, 8);
	if (nb > (index->len - 8) / 16)
		nb = (index->len - 8) / 16;
	for (b = 0; b < nb; b++) {
		off = rd(ix + 8 + 16 * b + 8, 8);
		end = b + 1 < nb ? rd(ix + 8 + 16 * (b + 1) + 8, 8) :
		    blocks->len;
		if (off > end || end > blocks->len || end - off < 4)
			continue;
		wr32(d + blocks->off + end - 4, crc_of(d + blocks->off + off,
		    end - off - 4));
	}
}

/* Each text block's CRC in its record. */
static void
fix_text(unsigned char *d, size_t size, const struct sec *s)
{
	unsigned char *t;
	uint64_t nb, b, off, clen, data = s->checked;

	if (!inside(s->off, s->len, size) || s->checked > s->len ||
	    s->checked < 16)
		return;
	t = d + s->off;
	nb = rd(t + 8, 8);
	if (nb > (s->checked - 16) / 24)
		nb = (s->checked - 16) / 24;
	for (b = 0; b < nb; b++) {
		unsigned char *r = t + 16 + 24 * b;

		off = rd(r, 8);
		clen = rd(r + 8, 4);
		if (inside(off, clen, s->len - data))
			wr32(r + 16, crc_of(t + data + off, clen));
	}
}

/* Each games block's CRC in the block table. */
static void
fix_games(unsigned char *d, size_t size, const struct sec *s)
{
	unsigned char *g;
	uint64_t at = 24, nval, nb, b, n, off, end, data = s->checked;
	int k;

	if (!inside(s->off, s->len, size) || s->checked > s->len ||
	    s->checked < 24)
		return;
	g = d + s->off;
	nval = rd(g + 8, 8);
	nb = rd(g + 16, 8);
	for (k = 0; k < 4; k++) {           /* four codes by lengths */
		n = varint(g, &at, data);
		if (n == UINT64_MAX || n > data - at)
			return;
		at += n;
	}
	if (nval > 8 * (data - at))         /* the self-negatives' bitmap */
		return;
	at += (nval + 7) / 8;
	if (at > data)
		return;
	if (nb > (data - at) / 16)
		nb = (data - at) / 16;
	for (b = 0; b < nb; b++) {
		off = rd(g + at + 16 * b, 8);
		end = b + 1 < nb ? rd(g + at + 16 * (b + 1), 8) :
		    s->len - data;
		if (off <= end && end <= s->len - data)
			wr32(g + at + 16 * b + 8, crc_of(g + data + off,
			    end - off));
	}
}

/* Set every checksum the layout of cgkb(5) says where it is, as far as
 * the (fuzzed) sizes, counts and offsets allow. */
static void
fix_checksums(unsigned char *d, size_t size)
{
	struct sec sec[MAX_SECTIONS];
	uint64_t hsize, p = HEADER_FIXED, end, nkinds, nsec, i, k;
	const struct sec *blocks = NULL, *index = NULL;

	if (size < HEADER_FIXED + 4)
		return;
	hsize = rd(d + 12, 4);
	if (hsize < HEADER_FIXED + 4 || hsize > size)
		return;
	end = hsize - 4;
	nkinds = rd(d + 52, 4);
	nsec = rd(d + 56, 4);
	if (nkinds > MAX_KINDS)
		nkinds = MAX_KINDS;
	if (nsec > MAX_SECTIONS)
		nsec = MAX_SECTIONS;
	/* ruleset, parameters, version, family, index family, kinds */
	for (k = 0; k < 5 + nkinds && p + 2 <= end; k++)
		p += 2 + rd(d + p, 2);
	p += KIND_BYTES * nkinds;
	for (i = 0; i < nsec && p <= end && end - p >= SECTION_BYTES; i++) {
		struct sec *s = &sec[i];

		s->desc = d + p;
		s->type = rd(s->desc, 4);
		s->off = rd(s->desc + 8, 8);
		s->len = rd(s->desc + 16, 8);
		s->checked = rd(s->desc + 24, 8);
		if (s->type == SEC_BLOCKS && blocks == NULL)
			blocks = s;
		if (s->type == SEC_INDEX && index == NULL)
			index = s;
		p += SECTION_BYTES;
	}
	nsec = i;
	/* what the sections' checksums cover first */
	if (blocks != NULL && index != NULL)
		fix_blocks(d, size, blocks, index);
	for (i = 0; i < nsec; i++) {
		if (sec[i].type == SEC_TEXT)
			fix_text(d, size, &sec[i]);
		else if (sec[i].type == SEC_GAMES)
			fix_games(d, size, &sec[i]);
	}
	for (i = 0; i < nsec; i++)
		if (sec[i].type != SEC_BLOCKS && inside(sec[i].off,
		    sec[i].checked, size))
			wr32(sec[i].desc + 32, crc_of(d + sec[i].off,
			    sec[i].checked));
	wr32(d + end, crc_of(d, end));
}

/* ------------------------------------------------------------- reading */

#define LOOKUPS 64

struct visit {
	int keys;                     /* a base of keys: remember them */
	uint32_t nkinds;
	uint64_t n;
	unsigned char *key[LOOKUPS];
	size_t len[LOOKUPS];
	uint64_t ref[LOOKUPS][CG_KB_MAXKINDS];
};

static int
visit_entry(void *ctx, const struct cg_kbentry *e)
{
	struct visit *v = ctx;
	uint64_t i = v->n++;

	if (!v->keys || i >= LOOKUPS)
		return 0;
	v->key[i] = malloc(e->len ? e->len : 1);
	if (v->key[i] == NULL)
		abort();
	if (e->len > 0)
		memcpy(v->key[i], e->key, e->len);
	v->len[i] = e->len;
	memcpy(v->ref[i], e->ref, sizeof v->ref[i]);
	return 0;
}

/* The keys visited, looked up again: the same references. */
static void
lookups(struct cg_kbfile *f, const struct visit *v)
{
	uint64_t i, n = v->n < LOOKUPS ? v->n : LOOKUPS;
	uint32_t k;

	for (i = 0; i < n; i++)
		for (k = 0; k < v->nkinds; k++)
			if (cg_kbfile_ref(f, v->key[i], v->len[i], k) !=
			    v->ref[i][k]) {
				fprintf(stderr, "lookup of visited key %llu gives "
				    "another reference of kind %u\n",
				    (unsigned long long)i, k);
				abort();
			}
}

/* The first references of every kind as text: games are made. */
static void
texts(struct cg_kbfile *f, uint32_t nkinds)
{
	uint64_t r, n;
	uint32_t k;

	for (k = 0; k < nkinds; k++) {
		n = cg_kbfile_nrefs(f, k);
		for (r = 0; r < n && r < LOOKUPS; r++)
			(void)cg_kbfile_text(f, k, r);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cg_kbfile *volatile f;
	static struct visit v;
	struct cg_kbfile_stats st;
	char path[64], err[512];
	int fd = memfd_create("fuzz.cgkb", 0);
	unsigned char *copy = malloc(size ? size : 1);
	uint64_t i;

	if (copy == NULL)
		abort();
	if (size > 0)
		memcpy(copy, data, size);
	fix_checksums(copy, size);
	if (fd < 0 || (size > 0 && write(fd, copy, size) != (ssize_t)size))
		abort();
	free(copy);
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	f = NULL;
	memset(&v, 0, sizeof v);
	if (setjmp(on_error) == 0) {
		f = cg_kbfile_open(path, err, sizeof err);
		if (f != NULL) {
			const struct cg_kb_meta *m = cg_kbfile_meta(f);

			cg_kbfile_stats(f, &st);
			(void)cg_kbfile_check(f, err, sizeof err);
			v.keys = *m->index_family == '\0';
			v.nkinds = m->nkinds;
			if (cg_kbfile_each(f, v.keys, visit_entry, &v, err,
			    sizeof err) == 0 && v.keys)
				lookups(f, &v);
			texts(f, m->nkinds);
		}
	}
	for (i = 0; i < LOOKUPS; i++)
		free(v.key[i]);
	cg_kbfile_close(f);
	f = NULL;
	close(fd);
	return 0;
}
