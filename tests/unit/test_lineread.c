/*
 * test_lineread.c - the bounded line reader (lineread.h) and the quoting
 * of bad input in messages (cg_quote, cg_sanitize_msg in util.h).  Inputs
 * are built here byte by byte; expected texts are written out by hand.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "format/lineread.h"
#include "tap.h"
#include "base/util.h"

static int
memfile(const void *data, size_t len)
{
	int fd = memfd_create("test", 0);

	if (fd < 0 || (len && write(fd, data, len) != (ssize_t)len))
		abort();
	lseek(fd, 0, SEEK_SET);
	return fd;
}

/* gzip member of text appended to out (at *len) */
static void
gzip_member(unsigned char *out, size_t *len, const char *text)
{
	z_stream zs;

	memset(&zs, 0, sizeof zs);
	if (deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	zs.next_in = (unsigned char *)(uintptr_t)text;
	zs.avail_in = (uInt)strlen(text);
	zs.next_out = out + *len;
	zs.avail_out = 4096;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
		abort();
	*len += 4096 - zs.avail_out;
	deflateEnd(&zs);
}

/* All lines of data joined by '|', then "!" and the error, if any. */
static const char *
lines_of(const void *data, size_t len)
{
	static char out[4096];
	struct cg_lines *l = cg_lines_open(memfile(data, len), "t");
	char *line;
	size_t n;
	int r;

	out[0] = '\0';
	while ((r = cg_lines_next(l, &line, &n)) > 0) {
		if (out[0])
			strcat(out, "|");
		strcat(out, line);
		if (cg_lines_unterminated(l))
			strcat(out, "(no LF)");
	}
	if (r < 0)
		sprintf(out + strlen(out), "!%lu: %s", cg_lines_number(l),
		    cg_lines_error(l));
	cg_lines_close(l);
	return out;
}

int
main(void)
{
	unsigned char gz[16384];
	char msg[32], big[200];
	size_t n = 0;

	/* the limit is read once, from the environment */
	setenv("CG_MAX_LINE", "100", 1);
	is_int(cg_max_line(), 100, "CG_MAX_LINE sets the line limit");

	/* quoting */
	is_str(cg_quote_str("abc"), "abc", "quote: ASCII as is");
	is_str(cg_quote_str("a\x01z\x7f"), "a\\x01z\\x7f", "quote: controls");
	is_str(cg_quote_str("a\\b"), "a\\\\b", "quote: a backslash doubled");
	is_str(cg_quote_str("\xe2\x82\xac!"), "\xe2\x82\xac!",
	    "quote: a whole UTF-8 character kept (U+20AC)");
	is_str(cg_quote_str("\xe2\x82"), "\\xe2\\x82",
	    "quote: half a character as bytes");
	is_str(cg_quote_str("\xc0\x80"), "\\xc0\\x80",
	    "quote: an overlong form is not UTF-8");
	is_str(cg_quote_str("\xed\xa0\x80"), "\\xed\\xa0\\x80",
	    "quote: a surrogate is not UTF-8");
	is_str(cg_quote_str("\xc2\x85"), "\\xc2\\x85",
	    "quote: a C1 control (U+0085) as bytes");
	is_str(cg_quote("a\0b", 3), "a\\x00b", "quote: NUL inside a length");
	memset(big, 'x', 63);
	strcpy(big + 63, "\xc3\xa9yz");     /* 63 x, e-acute, y, z */
	{
		char want[80];

		memset(want, 'x', 63);
		strcpy(want + 63, "...");
		is_str(cg_quote_str(big), want,
		    "quote: 64 bytes at most, cut before a whole character");
	}
	memset(big, 'x', 64);
	big[64] = '\0';
	ok(strcmp(cg_quote_str(big), big) == 0, "quote: exactly 64 bytes kept");

	/* sanitizing a message in place */
	strcpy(msg, "found '\x01' and '\xe2\x82\xac'");
	cg_sanitize_msg(msg, sizeof msg);
	is_str(msg, "found '\\x01' and '\xe2\x82\xac'",
	    "sanitize: control escaped, character kept");
	strcpy(msg, "cut in a character: \xe2\x82");
	cg_sanitize_msg(msg, 24);
	is_str(msg, "cut in a character: ", "sanitize: never half a character");

	/* plain lines */
	is_str(lines_of("a\nb\r\n\nc\r\r\n", 10), "a|b||c",
	    "lines: LF, CRLF, empty, trailing CRs");
	is_str(lines_of("a\nlast", 6), "a|last(no LF)",
	    "lines: a last line without LF counts");
	is_str(lines_of("", 0), "", "lines: empty input");
	is_str(lines_of("a\nb\0c\n", 6), "a!2: NUL byte in input",
	    "lines: a NUL byte, with its line");
	memset(big, '7', 101);
	big[101] = '\n';
	is_str(lines_of(big, 102),
	    "!1: line longer than 100 bytes (the limit; set CG_MAX_LINE to "
	    "raise it)", "lines: past the limit");
	memset(big, '7', 100);
	big[100] = '\n';
	ok(strlen(lines_of(big, 101)) == 100, "lines: exactly the limit");

	/* gzip */
	gzip_member(gz, &n, "one\ntwo\n");
	is_str(lines_of(gz, n), "one|two", "gzip: read transparently");
	gzip_member(gz, &n, "three");
	is_str(lines_of(gz, n), "one|two|three(no LF)",
	    "gzip: members one after another are one stream");
	memcpy(gz + n, "junk", 4);
	/* the line the bad bytes end is never given: it is not whole */
	is_str(lines_of(gz, n + 4), "one|two!3: bytes after the end of the "
	    "gzip data (not another gzip member)",
	    "gzip: bytes after the last member are an error");
	is_str(lines_of(gz, n - 5), "one|two!3: read error: unexpected end of "
	    "file", "gzip: a truncated member");
	gz[0] = 0x1f;
	is_str(lines_of(gz, 1), "\x1f(no LF)",
	    "lines: one byte of the gzip magic is text");
	return tap_done();
}
