/* util.c - error reporting, checked allocation, checked output. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/util.h"

#define HUGE_MIN ((size_t)4 << 20)  /* bytes: below, no huge pages */

const char *cg_progname = "cg";
void (*cg_exit_hook)(int status);
static int errors_reported;

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
cg_error_at(const char *file, unsigned long line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(file, line, fmt, ap);
	va_end(ap);
	errors_reported = 1;
}

int
cg_errors_reported(void)
{
	return errors_reported;
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

/* Large tables are probed at random: ask for huge pages (transparent
 * huge pages in madvise mode) so the probes miss the TLB less.  A hint:
 * its failure changes nothing. */
static void *
huge(void *p, size_t n)
{
	uintptr_t a, b;

	if (n < HUGE_MIN)
		return p;
	a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	b = ((uintptr_t)p + n) & ~(uintptr_t)4095;
	if (b > a)
		(void)madvise((void *)a, b - a, MADV_HUGEPAGE);
	return p;
}

void *
cg_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		nomem(n);
	return huge(p, n);
}

void *
cg_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		nomem(n * size);
	return huge(p, n * size);
}

void *
cg_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		nomem(n);
	return huge(q, n);
}

void *
cg_xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > (size_t)-1 / size)
		cg_die(CG_EXIT_DATA, "out of memory (array of %zu x %zu)", n, size);
	return cg_xrealloc(p, n * size);
}

void *
cg_xgrow_zero(void *p, size_t *cap, size_t i, size_t size)
{
	size_t old = *cap;

	if (i < old)
		return p;
	*cap = i + 1 > 2 * old ? i + 1 : 2 * old;
	p = cg_xreallocarray(p, *cap, size);
	memset((char *)p + old * size, 0, (*cap - old) * size);
	return p;
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

/* Length of the valid UTF-8 character at s[0..n) that is not a control
 * (U+0080..U+009F), or 0. */
static size_t
utf8_char(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t c;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (n < len)
		return 0;
	c = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF, C1 controls */
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff || c < 0xa0)
		return 0;
	return len;
}

const char *
cg_quote(const char *s, size_t len)
{
	static _Thread_local char slot[CG_QUOTE_SLOTS][4 * CG_QUOTE_MAX + 4];
	static _Thread_local unsigned next;
	const unsigned char *u = (const unsigned char *)s;
	char *out = slot[next++ % CG_QUOTE_SLOTS], *w = out;
	size_t i = 0, n;

	while (i < len) {
		n = u[i] >= 0x80 ? utf8_char(u + i, len - i) : 1;
		if (i + (n ? n : 1) > CG_QUOTE_MAX)
			break;
		if (n > 1) {
			memcpy(w, u + i, n);
			w += n;
			i += n;
			continue;
		}
		if (u[i] == '\\') {
			*w++ = '\\';
			*w++ = '\\';
		} else if (u[i] >= 0x20 && u[i] < 0x7f) {
			*w++ = (char)u[i];
		} else {
			w += sprintf(w, "\\x%02x", u[i]);
		}
		i++;
	}
	if (i < len)
		w += sprintf(w, "...");
	*w = '\0';
	return out;
}

const char *
cg_quote_str(const char *s)
{
	return cg_quote(s, strlen(s));
}

void
cg_sanitize_msg(char *msg, size_t size)
{
	const unsigned char *u = (const unsigned char *)msg;
	size_t len = strnlen(msg, size), i = 0, w = 0, n, need;
	char *out = cg_xmalloc(size ? size : 1);

	if (size == 0) {
		free(out);
		return;
	}
	while (i < len) {
		n = u[i] >= 0x80 ? utf8_char(u + i, len - i) : 1;
		if (n > 1) {
			need = n;
		} else if (u[i] == '\t' || (u[i] >= 0x20 && u[i] < 0x7f)) {
			need = 1;
		} else {
			need = 4;
			n = 1;
		}
		if (w + need >= size)
			break;
		if (need == 4)
			snprintf(out + w, 5, "\\x%02x", u[i]);
		else
			memcpy(out + w, u + i, n);
		w += need;
		i += n;
	}
	out[w] = '\0';
	memcpy(msg, out, w + 1);
	free(out);
}

size_t
cg_max_line(void)
{
	static size_t limit;
	const char *env;
	char *end;
	unsigned long long v;

	if (limit != 0)
		return limit;
	limit = CG_MAX_LINE_DEFAULT;
	env = getenv("CG_MAX_LINE");
	if (env == NULL || *env == '\0')
		return limit;
	errno = 0;
	v = strtoull(env, &end, 10);
	if (*end == 'k' || *end == 'K')
		v = v > ULLONG_MAX >> 10 ? ULLONG_MAX : v << 10, end++;
	else if (*end == 'M')
		v = v > ULLONG_MAX >> 20 ? ULLONG_MAX : v << 20, end++;
	else if (*end == 'G')
		v = v > ULLONG_MAX >> 30 ? ULLONG_MAX : v << 30, end++;
	if (*env < '0' || *env > '9' || errno != 0 || *end != '\0' ||
	    v == 0 || v > SIZE_MAX / 2)
		cg_die(CG_EXIT_USAGE, "bad CG_MAX_LINE '%s' (a number of bytes, "
		    "optionally followed by k, M or G)", cg_quote_str(env));
	limit = (size_t)v;
	return limit;
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
	if (errors_reported)
		exit(CG_EXIT_DATA);
}
