/*
 * fuzz_kbfile.c - libFuzzer target for the cgkb(5) reader.
 *
 * The input is written to a memory file and opened as a knowledge base.
 * When it opens, every entry is visited (decoding every block), each key
 * visited is looked up again and must give the values the visit gave, and
 * the statistics are read.  A base that does not open, or a block that
 * does not decode, is an expected outcome; a crash, a leak, a wrong lookup
 * or an allocation beyond what the file can hold is a finding (run with
 * -malloc_limit_mb / -rss_limit_mb).  Data errors that exit (a block that
 * does not decode during a lookup) come back through cg_exit_hook.
 *
 * Checksums would stop nearly every mutation at the header, so the target
 * first makes them right (fix_checksums): the header's CRC, and the
 * dictionary's and every block's wherever their records and bytes lie
 * inside the input.  What the reader then meets is a file that lies
 * without damage, as a crafted one does.  (fuzz_ckpt.c does the same for
 * the build checkpoints.)
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

struct visit {
	struct cg_kbfile *f;
	int n;
};

static int
check_entry(void *ctx, const unsigned char *key, size_t len,
    const char *const *values)
{
	struct visit *v = ctx;
	const struct cg_kb_meta *m = cg_kbfile_meta(v->f);
	uint32_t k;

	/* lookups of the first entries (each lookup may decode a block) */
	if (v->n++ >= 64)
		return 0;
	for (k = 0; k < m->nkinds; k++) {
		const char *got = cg_kbfile_get(v->f, key, len, k);

		if ((got == NULL) != (values[k] == NULL) ||
		    (got != NULL && strcmp(got, values[k]) != 0)) {
			fprintf(stderr, "lookup of a visited key gives another "
			    "value\n");
			abort();
		}
	}
	return 0;
}

static uint32_t
rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
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
crc_of(const unsigned char *p, size_t n)
{
	return (uint32_t)crc32(crc32(0L, Z_NULL, 0), p, (uInt)n);
}

/* Set every checksum the layout of cgkb(5) says where it is, as far as
 * the (fuzzed) sizes and counts allow. */
static void
fix_checksums(unsigned char *d, size_t size)
{
	size_t hsize, p = 44, end, off, clen, i, n;
	uint32_t nkinds, nblocks, k;

	if (size < 48)
		return;
	hsize = rd32(d + 12);
	if (hsize < 48 || hsize > size)
		return;
	end = hsize - 4;
	nblocks = rd32(d + 24);
	nkinds = rd32(d + 40);
	for (k = 0; k < 4 + (nkinds < 8 ? nkinds : 8) && p + 2 <= end; k++)
		p += 2 + ((size_t)d[p] | (size_t)d[p + 1] << 8);
	off = hsize;
	if (p + 12 <= end) {
		clen = rd32(d + p);
		if (off + clen <= size)
			wr32(d + p + 8, crc_of(d + off, clen));
		off += clen;
		p += 12;
	}
	for (i = 0; i < nblocks && p + 18 <= end; i++) {
		clen = rd32(d + p);
		if (off <= size && clen <= size - off)
			wr32(d + p + 12, crc_of(d + off, clen));
		off += clen;
		n = (size_t)d[p + 16] | (size_t)d[p + 17] << 8;
		p += 18 + n;
	}
	wr32(d + end, crc_of(d, end));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cg_kbfile *volatile f;
	struct cg_kbfile_stats st;
	struct visit v;
	char path[64], err[512];
	int fd = memfd_create("fuzz.cgkb", 0);
	unsigned char *copy = malloc(size ? size : 1);

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
	if (setjmp(on_error) == 0) {
		f = cg_kbfile_open(path, err, sizeof err);
		if (f != NULL) {
			cg_kbfile_stats(f, &st);
			v.f = f;
			v.n = 0;
			(void)cg_kbfile_each(f, check_entry, &v, err,
			    sizeof err);
		}
	}
	cg_kbfile_close(f);
	f = NULL;
	close(fd);
	return 0;
}
