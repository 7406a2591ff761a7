/* tap.h - a tiny TAP producer for libcore unit tests (run by prove).
 *
 *	int main(void) {
 *		ok(1 + 1 == 2, "addition");
 *		is_str(s, "x", "printed form");
 *		return tap_done();
 *	}
 */
#ifndef CG_TAP_H
#define CG_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, ...)                                          \
	do {                                                            \
		long long g_ = (long long)(got), w_ = (long long)(want); \
		if (!ok(g_ == w_, __VA_ARGS__))                         \
			printf("#   got %lld, want %lld\n", g_, w_);    \
	} while (0)
#define is_str(got, want, ...)                                          \
	do {                                                            \
		const char *g_ = (got), *w_ = (want);                   \
		if (!ok(g_ != NULL && strcmp(g_, w_) == 0, __VA_ARGS__)) \
			printf("#   got '%s', want '%s'\n",             \
			    g_ ? g_ : "(null)", w_);                    \
	} while (0)

static int __attribute__((format(printf, 4, 5), unused))
tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %d - ", pass ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!pass) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	return pass;
}

static int __attribute__((unused))
tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
