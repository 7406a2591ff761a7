/* lineread.c - bounded lines from plain or gzip input (see lineread.h).
 *
 * zlib's gzread() is not used: it ignores whatever follows the last gzip
 * member, so a damaged or appended file would be taken for a shorter one.
 * Here inflate() runs member by member and anything after a member must be
 * another member. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "format/lineread.h"
#include "base/util.h"

#define CHUNK (1 << 16)

struct cg_lines {
	int fd;
	char *name;
	int mode;                  /* -1 undecided, 0 plain, 1 gzip */
	z_stream zs;
	int zinit, member_done;
	unsigned char raw[CHUNK];  /* bytes read from fd */
	size_t rawpos, rawlen;
	int raweof;
	unsigned char out[CHUNK];  /* inflated bytes */
	const unsigned char *dp;   /* decoded bytes not yet consumed */
	size_t dn;
	char *buf;                 /* the current line */
	size_t cap;
	unsigned long lineno;
	int unterminated, failed, eof;
	char err[256];
};

struct cg_lines *
cg_lines_open(int fd, const char *name)
{
	struct cg_lines *l = cg_xcalloc(1, sizeof *l);

	l->fd = fd;
	l->name = cg_xstrdup(name);
	l->mode = -1;
	l->cap = 256;
	l->buf = cg_xmalloc(l->cap);
	l->buf[0] = '\0';
	return l;
}

void
cg_lines_close(struct cg_lines *l)
{
	if (l == NULL)
		return;
	if (l->zinit)
		inflateEnd(&l->zs);
	if (l->fd >= 0)
		close(l->fd);
	free(l->buf);
	free(l->name);
	free(l);
}

static int __attribute__((format(printf, 2, 3)))
fail(struct cg_lines *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->err, sizeof l->err, fmt, ap);
	va_end(ap);
	l->failed = 1;
	l->lineno++;   /* the error is in the line being read */
	return -1;
}

/* Read more raw bytes after the unconsumed ones (moved to the front);
 * the count read, 0 at end of file, -1 on error. */
static ssize_t
read_raw(struct cg_lines *l)
{
	ssize_t n;

	if (l->raweof)
		return 0;
	if (l->rawpos > 0) {
		memmove(l->raw, l->raw + l->rawpos, l->rawlen - l->rawpos);
		l->rawlen -= l->rawpos;
		l->rawpos = 0;
	}
	if (l->rawlen == sizeof l->raw)
		return 1;   /* full: the caller has enough to go on */
	do
		n = read(l->fd, l->raw + l->rawlen, sizeof l->raw - l->rawlen);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return fail(l, "read error: %s", strerror(errno));
	if (n == 0)
		l->raweof = 1;
	l->rawlen += (size_t)n;
	return n;
}

/* Plain or gzip?  Decided by the first two bytes (the gzip magic). */
static int
decide(struct cg_lines *l)
{
	ssize_t n;

	while (l->rawlen - l->rawpos < 2 && !l->raweof)
		if ((n = read_raw(l)) < 0)
			return -1;
	l->mode = l->rawlen - l->rawpos >= 2 && l->raw[l->rawpos] == 0x1f &&
	    l->raw[l->rawpos + 1] == 0x8b;
	if (l->mode == 1) {
		memset(&l->zs, 0, sizeof l->zs);
		if (inflateInit2(&l->zs, 16 + MAX_WBITS) != Z_OK)
			cg_die(CG_EXIT_DATA, "%s: cannot start decompression",
			    l->name);
		l->zinit = 1;
	}
	return 0;
}

/* Inflate more bytes into out: the count, 0 at the end, -1 on error. */
static int
fill_gzip(struct cg_lines *l)
{
	ssize_t n;
	size_t got;
	int ret;

	for (;;) {
		if (l->member_done) {
			/* only another member may follow a member */
			while (l->rawlen - l->rawpos < 2 && !l->raweof)
				if ((n = read_raw(l)) < 0)
					return -1;
			if (l->rawlen == l->rawpos)
				return 0;
			if (l->rawlen - l->rawpos < 2 ||
			    l->raw[l->rawpos] != 0x1f ||
			    l->raw[l->rawpos + 1] != 0x8b)
				return fail(l, "bytes after the end of the gzip "
				    "data (not another gzip member)");
			inflateReset(&l->zs);
			l->member_done = 0;
		}
		if (l->rawpos == l->rawlen && !l->raweof &&
		    read_raw(l) < 0)
			return -1;
		l->zs.next_in = l->raw + l->rawpos;
		l->zs.avail_in = (uInt)(l->rawlen - l->rawpos);
		l->zs.next_out = l->out;
		l->zs.avail_out = sizeof l->out;
		ret = inflate(&l->zs, Z_NO_FLUSH);
		l->rawpos = l->rawlen - l->zs.avail_in;
		got = sizeof l->out - l->zs.avail_out;
		if (ret == Z_STREAM_END)
			l->member_done = 1;
		else if (ret == Z_MEM_ERROR)
			cg_die(CG_EXIT_DATA, "%s: out of memory decompressing",
			    l->name);
		else if (ret != Z_OK && ret != Z_BUF_ERROR)
			return fail(l, "read error: invalid compressed data (%s)",
			    l->zs.msg ? l->zs.msg : "corrupt");
		else if (got == 0 && l->rawpos == l->rawlen && l->raweof)
			return fail(l, "read error: unexpected end of file");
		if (got > 0) {
			l->dp = l->out;
			l->dn = got;
			return 1;
		}
	}
}

/* Make decoded bytes available in dp/dn: 1, 0 at the end, -1. */
static int
fill(struct cg_lines *l)
{
	ssize_t n;

	if (l->mode < 0 && decide(l) < 0)
		return -1;
	if (l->mode == 1)
		return fill_gzip(l);
	if (l->rawpos == l->rawlen) {
		l->rawpos = l->rawlen = 0;
		if ((n = read_raw(l)) <= 0)
			return (int)n;
	}
	l->dp = l->raw + l->rawpos;
	l->dn = l->rawlen - l->rawpos;
	l->rawpos = l->rawlen;
	return 1;
}

int
cg_lines_next(struct cg_lines *l, char **line, size_t *len)
{
	const unsigned char *nl;
	size_t n = 0, chunk, max = cg_max_line();
	int r;

	if (l->failed)
		return -1;
	if (l->eof)
		return 0;
	l->unterminated = 0;
	for (;;) {
		if (l->dn == 0) {
			if ((r = fill(l)) < 0)
				return -1;
			if (r == 0) {
				l->eof = 1;
				if (n == 0)
					return 0;
				l->unterminated = 1;
				break;
			}
		}
		nl = memchr(l->dp, '\n', l->dn);
		chunk = nl ? (size_t)(nl - l->dp) : l->dn;
		if (memchr(l->dp, '\0', chunk) != NULL)
			return fail(l, "NUL byte in input");
		if (chunk > max - n)
			return fail(l, "line longer than %zu bytes (the limit; "
			    "set CG_MAX_LINE to raise it)", max);
		if (n + chunk + 1 > l->cap) {
			while (n + chunk + 1 > l->cap)
				l->cap *= 2;
			l->buf = cg_xrealloc(l->buf, l->cap);
		}
		memcpy(l->buf + n, l->dp, chunk);
		n += chunk;
		l->dp += chunk + (nl != NULL);
		l->dn -= chunk + (nl != NULL);
		if (nl != NULL)
			break;
	}
	l->lineno++;
	while (n > 0 && l->buf[n - 1] == '\r')
		n--;
	l->buf[n] = '\0';
	*line = l->buf;
	*len = n;
	return 1;
}

unsigned long
cg_lines_number(const struct cg_lines *l)
{
	return l->lineno;
}

int
cg_lines_unterminated(const struct cg_lines *l)
{
	return l->unterminated;
}

const char *
cg_lines_error(const struct cg_lines *l)
{
	return l->err;
}

const char *
cg_lines_name(const struct cg_lines *l)
{
	return l->name;
}
