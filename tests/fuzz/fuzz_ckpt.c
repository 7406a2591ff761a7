/*
 * fuzz_ckpt.c - libFuzzer target for the checkpoint reader (values/ckpt.h),
 * structure-aware: a checkpoint's records carry a chained CRC that random
 * bytes never get right, so the input describes records and this target
 * writes them as a checkpoint, CRCs and all.  Input: records, each a type
 * byte, a 16-bit little-endian length and that many payload bytes (the
 * last one cut short is written cut short: the torn tail of a killed
 * build).  The file gets the build's 'H' record first unless the input's
 * first byte is '!' (then the input's own records come first).  The file
 * is opened for the build "fuzz": every value is handed to a callback,
 * then it is closed.  Damage is an expected outcome; crashes, leaks and
 * unbounded allocations are findings.  Data errors that exit come back
 * through cg_exit_hook.
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "values/ckpt.h"
#include "base/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char magic[8] = { 'C', 'G', 'K', 'B', 'C', 'K', 'P', '2' };
static const char header[] = "fuzz";
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
	cg_setprogname("fuzz_ckpt");
	cg_exit_hook = exit_hook;
	return 0;
}

static uint32_t
record(FILE *fp, uint32_t prev, int type, const unsigned char *p,
    uint32_t len, int torn)
{
	unsigned char hdr[5];
	uLong c = prev;

	hdr[0] = (unsigned char)type;
	memcpy(hdr + 1, &len, 4);
	c = crc32(c, hdr, 5);
	if (len > 0)
		c = crc32(c, p, len);
	fwrite(hdr, 1, 5, fp);
	if (torn) {
		fwrite(p, 1, len / 2, fp);
		return (uint32_t)c;
	}
	fwrite(p, 1, len, fp);
	fwrite(&c, 1, 4, fp);   /* the reader reads it as a host uint32_t */
	return (uint32_t)c;
}

static int
on_value(void *ctx, const unsigned char *key, size_t len, uint32_t kind,
    cg_game g, const char *text, char *err, size_t errlen)
{
	size_t *n = ctx;

	(void)key;
	(void)len;
	(void)kind;
	(void)err;
	(void)errlen;
	if (g == CG_NO_GAME && text == NULL)
		abort();   /* a value is a game or a text */
	(*n)++;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cg_ckpt *volatile c;
	char path[] = "/tmp/fuzz_ckpt.XXXXXX", err[512];
	size_t i = 0, loaded, n = 0;
	uint32_t crc, len;
	int fd = mkstemp(path);
	FILE *fp;

	if (fd < 0 || (fp = fdopen(fd, "wb")) == NULL)
		abort();
	fwrite(magic, 1, sizeof magic, fp);
	crc = (uint32_t)crc32(0, (const unsigned char *)magic, sizeof magic);
	if (size > 0 && data[0] == '!')
		i = 1;
	else
		crc = record(fp, crc, 'H', (const unsigned char *)header,
		    sizeof header - 1, 0);
	while (i + 3 <= size) {
		int type = data[i];

		len = (uint32_t)data[i + 1] | (uint32_t)data[i + 2] << 8;
		i += 3;
		if (len > size - i) {
			crc = record(fp, crc, type, data + i,
			    (uint32_t)(size - i), 1);
			break;
		}
		crc = record(fp, crc, type, data + i, len, 0);
		i += len;
	}
	fclose(fp);
	c = NULL;
	if (setjmp(on_error) == 0) {
		c = cg_ckpt_open(path, header, on_value, &n, &loaded, err,
		    sizeof err);
		if (c != NULL && loaded != n)
			abort();
	}
	if (c != NULL)
		cg_ckpt_close(c, 1);
	c = NULL;
	unlink(path);
	return 0;
}
