/* util.c - error reporting, checked allocation, checked output. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char *cg_progname = "cg";
void (*cg_exit_hook)(int status);

static void __attribute__((noreturn))
die_exit(int status)
{
	if (cg_exit_hook != NULL)
		cg_exit_hook(status);
	exit(status);
}

void
cg_setprogname(const char *argv0)
{
	const char *slash;

	if (argv0 == NULL)
		return;
	slash = strrchr(argv0, '/');
	cg_progname = slash ? slash + 1 : argv0;
}

static void
vmessage(const char *file, unsigned long line, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", cg_progname);
	if (file != NULL) {
		if (line > 0)
			fprintf(stderr, "%s:%lu: ", file, line);
		else
			fprintf(stderr, "%s: ", file);
	}
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
cg_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(NULL, 0, fmt, ap);
	va_end(ap);
	die_exit(status);
}

void
cg_die_at(const char *file, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(file, line, fmt, ap);
	va_end(ap);
	die_exit(CG_EXIT_DATA);
}

void
cg_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(NULL, 0, fmt, ap);
	va_end(ap);
}

static void
nomem(size_t n)
{
	cg_die(CG_EXIT_DATA, "out of memory (allocating %zu bytes)", n);
}

void *
cg_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		nomem(n);
	return p;
}

void *
cg_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		nomem(n * size);
	return p;
}

void *
cg_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		nomem(n);
	return q;
}

void *
cg_xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > (size_t)-1 / size)
		cg_die(CG_EXIT_DATA, "out of memory (array of %zu x %zu)", n, size);
	return cg_xrealloc(p, n * size);
}

char *
cg_xstrdup(const char *s)
{
	return cg_xstrndup(s, strlen(s));
}

char *
cg_xstrndup(const char *s, size_t n)
{
	char *p = cg_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void
cg_check_write(FILE *fp, const char *name)
{
	if (ferror(fp))
		cg_die(CG_EXIT_DATA, "%s: write error: %s", name,
		    strerror(errno ? errno : EIO));
}

void
cg_close_stdout(void)
{
	int err = 0;

	if (fflush(stdout) != 0 || ferror(stdout))
		err = errno ? errno : EIO;
	if (fclose(stdout) != 0 && err == 0)
		err = errno ? errno : EIO;
	if (err != 0) {
		fprintf(stderr, "%s: standard output: %s\n", cg_progname,
		    strerror(err));
		exit(CG_EXIT_DATA);
	}
}
