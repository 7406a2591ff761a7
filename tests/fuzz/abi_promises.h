/*
 * abi_promises.h - the ABI checks fuzz_position.c and fuzz_rules.c share:
 * reporting a broken promise, and print/parse round trips.  Included by
 * each target (static functions: no build rule of its own).
 */
#ifndef FUZZ_ABI_PROMISES_H
#define FUZZ_ABI_PROMISES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/ruleset.h"
#include "host/plugin.h"

/* Where the target keeps the ruleset under test (read at each call: the
 * rules target loads a new one per input), its context and error, and
 * the name a finding is reported under (NULL: the ruleset's own). */
struct promises {
	const struct cg_ruleset *const *rs;
	struct cg_context *cx;
	struct cg_error *err;
	const char *name;
};

/* A broken promise: report it with the position's bytes and abort (a
 * finding for the fuzzer). */
static void
promise_broken(const struct promises *p, const char *what,
    const unsigned char *pos, size_t len)
{
	size_t i;

	fprintf(stderr, "%s: %s (position bytes:", p->name != NULL ?
	    p->name : (*p->rs)->name, what);
	for (i = 0; i < len; i++)
		fprintf(stderr, " %02x", pos[i]);
	fprintf(stderr, ")\n");
	abort();
}

/* Does the ruleset's descriptor reach past field (off, size), and is the
 * hook there set? */
static int
promise_has(const struct promises *p, size_t off, size_t size,
    const void *fn)
{
	return (*p->rs)->struct_size >= off + size && fn != NULL;
}

/* print pos, parse the text: it must give pos again, on one line. */
static void
promise_print(const struct promises *p, const unsigned char *pos, size_t len,
    const char *what)
{
	struct cg_buf text, back;
	char msg[1024];

	cg_buf_init(&text);
	cg_buf_init(&back);
	p->err->set = 0;
	if ((*p->rs)->print(p->cx, pos, len, &text) < 0) {
		snprintf(msg, sizeof msg, "%s does not print: %s", what,
		    p->err->msg);
		promise_broken(p, msg, pos, len);
	}
	if (memchr(text.data, '\n', text.len) != NULL ||
	    memchr(text.data, '\0', text.len) != NULL) {
		snprintf(msg, sizeof msg, "%s prints with a newline or NUL",
		    what);
		promise_broken(p, msg, pos, len);
	}
	p->err->set = 0;
	if ((*p->rs)->parse(p->cx, (const char *)text.data, text.len,
	    &back) < 0) {
		snprintf(msg, sizeof msg, "%s printed as '%.300s' does not "
		    "parse: %s", what, cg_buf_str(&text), p->err->msg);
		promise_broken(p, msg, pos, len);
	}
	if (back.len != len || (len && memcmp(back.data, pos, len) != 0)) {
		snprintf(msg, sizeof msg, "%s printed as '%.300s' parses to "
		    "another position", what, cg_buf_str(&text));
		promise_broken(p, msg, pos, len);
	}
	cg_buf_free(&text);
	cg_buf_free(&back);
}

#endif
