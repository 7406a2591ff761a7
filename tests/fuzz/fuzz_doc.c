/*
 * fuzz_doc.c - libFuzzer target for the cgt document reader and writer.
 *
 * The input is read as a stream of documents (as bare nim positions when
 * its first byte is odd and it is not a document).  Every document read
 * is written, read back and written again; the two writings must be equal
 * byte for byte (the writer is strict and the reader accepts what it
 * writes).  Fatal data errors are expected: cg_exit_hook turns them into
 * a longjmp back here (a half-read document is freed by cg_reader_close, so
 * leak detection stays on).  Plugins come from CG_PLUGIN_PATH (tests/fuzz/run
 * points it at the fuzz build's plugins).
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "format/doc.h"
#include "base/util.h"

static jmp_buf on_error;
static struct cg_reader *cur;

static void
exit_hook(int status)
{
	(void)status;
	longjmp(on_error, 1);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	cg_setprogname("fuzz_doc");
	cg_exit_hook = exit_hook;
	return 0;
}

/* A memory file holding len bytes of data, positioned at the start. */
static int
memfile(const void *data, size_t len)
{
	int fd = memfd_create("fuzz", 0);

	if (fd < 0) {
		perror("memfd_create");
		abort();
	}
	if (len > 0 && write(fd, data, len) != (ssize_t)len) {
		perror("write");
		abort();
	}
	lseek(fd, 0, SEEK_SET);
	return fd;
}

/* Write d to memory. */
static char *
write_mem(const struct cg_doc *d, size_t *len)
{
	char *text = NULL;
	FILE *fp = open_memstream(&text, len);

	if (fp == NULL)
		abort();
	cg_doc_write(fp, d);
	if (fclose(fp) != 0)
		abort();
	return text;
}

static void
round_trip(const struct cg_doc *d)
{
	char *first, *second;
	size_t n1, n2;
	struct cg_reader *r;
	struct cg_doc *again;

	first = write_mem(d, &n1);
	r = cg_reader_open_fd(memfile(first, n1), "written", NULL);
	again = cg_reader_next(r);   /* an error here is a finding */
	if (again == NULL || cg_reader_next(r) != NULL) {
		fprintf(stderr, "written document does not read back as one "
		    "document:\n%s", first);
		abort();
	}
	second = write_mem(again, &n2);
	if (n1 != n2 || memcmp(first, second, n1) != 0) {
		fprintf(stderr, "not byte-stable:\n%s---\n%s", first, second);
		abort();
	}
	cg_doc_free(again);
	cg_reader_close(r);
	free(first);
	free(second);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cg_doc *volatile d = NULL;
	volatile int ndocs = 0;

	cur = cg_reader_open_fd(memfile(data, size), "fuzz",
	    size > 0 && (data[0] & 1) ? "nim" : NULL);
	if (setjmp(on_error) == 0) {
		while ((d = cg_reader_next(cur)) != NULL && ndocs++ < 16) {
			/* errors inside round_trip are findings */
			cg_exit_hook = NULL;
			round_trip(d);
			cg_exit_hook = exit_hook;
			cg_doc_free(d);
			d = NULL;
		}
	}
	cg_exit_hook = exit_hook;
	cg_doc_free(d);
	cg_reader_close(cur);
	cur = NULL;
	return 0;
}
