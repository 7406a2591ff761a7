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
 * (fuzz_ckpt.c does the same for the build checkpoints.)
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cg_kbfile *volatile f;
	struct cg_kbfile_stats st;
	struct visit v;
	char path[64], err[512];
	int fd = memfd_create("fuzz.cgkb", 0);

	if (fd < 0 || (size > 0 && write(fd, data, size) != (ssize_t)size))
		abort();
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
