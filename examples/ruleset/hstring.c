/*
 * hstring.c - an example cgtools ruleset, built outside the tree:
 * Blue-Red Hackenbush strings.
 *
 * A position is a string of edges from the ground up, each 'L' (blue,
 * Left's) or 'R' (red, Right's): "LLR" is two blue edges with a red one on
 * top.  A player removes one of their own edges, and every edge above it
 * falls.  "0" is the empty string.
 *
 * Sums: strings side by side are written joined by '+', "LLR+RL", the
 * convention of cg-ruleset(3) (the host writes a sum of components that
 * way too, and parse() reads it back); decompose() hands the host the
 * strings one by one, so each is solved once.  The bytes of a position
 * are its text, strings joined by '+', so parse and print are almost
 * copies.
 *
 * Parameter: max=N, the longest string of a sum accepted (default 64), to
 * show how init() turns parameters into state.
 *
 * Build, from this directory of the source tree (nothing installed):
 *     cc -I../../include -fPIC -shared -fvisibility=hidden \
 *         -Wl,-z,defs -o hstring.so hstring.c
 * or against an installed suite: $(pkg-config --cflags cgtools) instead
 * of -I../../include.
 * Use:    export CG_PLUGIN_PATH=$PWD   (every tool of a pipe loads it)
 *         cg-parse -r hstring LLR | cg-options -t
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cg/ruleset.h>

struct state {
	size_t max;
};

static int
hs_init(const struct cg_host *host, const char *params, void **state,
    struct cg_error *err)
{
	struct state *st;
	unsigned long max = 64;
	char *end;

	if (params != NULL) {
		if (strncmp(params, "max=", 4) != 0)
			return host->error(err, 0, "expected max=N, not '%s'",
			    params);
		max = strtoul(params + 4, &end, 10);
		if (end == params + 4 || *end != '\0' || max == 0 ||
		    max > 4096)
			return host->error(err, 0, "max must be 1 to 4096");
	}
	st = host->alloc(sizeof *st);
	if (st == NULL)
		return CG_ENOMEM;
	st->max = max;
	*state = st;
	return CG_OK;
}

static void
hs_fini(const struct cg_host *host, void *state)
{
	host->free(state);
}

/* Strings of 'L' and 'R' joined by '+'; "0" for no string. */
static int
hs_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	const struct state *st = cx->state;
	size_t i, start = 0;

	if (len == 1 && text[0] == '0')
		return CG_OK;                   /* the empty string */
	if (len == 0)
		return cx->host->error(cx->err, 1, "empty position (write 0)");
	for (i = 0; i <= len; i++) {
		if (i == len || text[i] == '+') {
			if (i == start)
				return cx->host->error(cx->err, i + 1,
				    "expected a string of 'L' and 'R' %s",
				    i == len ? "after '+'" : "before '+'");
			start = i + 1;
		} else if (text[i] != 'L' && text[i] != 'R') {
			return cx->host->error(cx->err, i + 1,
			    "expected 'L', 'R' or '+', found '%c'", text[i]);
		} else if (i - start >= st->max) {
			return cx->host->error(cx->err, i + 1,
			    "string longer than max=%zu", st->max);
		}
	}
	return cx->host->buf_put(out, text, len);
}

static int
hs_print(const struct cg_context *cx, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	if (len == 0)
		return cx->host->buf_putc(out, '0');
	return cx->host->buf_put(out, pos, len);
}

/*
 * Removing edge i of a string leaves the edges below it; a string left
 * with none goes, with its '+'.  A move is named by the edge's height,
 * "2", and in a sum by the string's number too, "2:1" (the first edge of
 * the second string).
 */
static int
hs_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	int mine = side == CG_LEFT ? 'L' : 'R';
	int sum = len > 0 && memchr(pos, '+', len) != NULL;
	char move[48];
	unsigned char *child;
	size_t a, b, i, k, n;
	int rc = CG_OK;

	if ((child = cx->host->alloc(len + 1)) == NULL)
		return CG_ENOMEM;
	for (a = 0, k = 1; a < len && rc == CG_OK; a = b + 1, k++) {
		/* the string [a, b) */
		for (b = a; b < len && pos[b] != '+'; b++)
			;
		for (i = a; i < b; i++) {
			size_t keep, rest;

			if (pos[i] != mine)
				continue;
			/* what is kept before the cut, and after the string */
			if (i > a) {
				keep = i;
				rest = b;
			} else if (a > 0) {
				keep = a - 1;   /* the '+' before it goes too */
				rest = b;
			} else {
				keep = 0;       /* the '+' after it goes too */
				rest = b < len ? b + 1 : len;
			}
			memcpy(child, pos, keep);
			memcpy(child + keep, pos + rest, len - rest);
			n = keep + len - rest;
			if (sum)
				snprintf(move, sizeof move, "%zu:%zu", k,
				    i - a + 1);
			else
				snprintf(move, sizeof move, "%zu", i - a + 1);
			if (emit(ctx, child, n, move)) {
				rc = CG_STOP;
				break;
			}
		}
	}
	cx->host->free(child);
	return rc;
}

/* The strings of a sum, one by one. */
static int
hs_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	size_t a, b;

	(void)cx;
	for (a = 0; a < len; a = b + 1) {
		for (b = a; b < len && pos[b] != '+'; b++)
			;
		if (emit(ctx, pos + a, b - a, NULL))
			return CG_STOP;
	}
	return CG_OK;
}

static const struct cg_ruleset hstring = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "hstring",
	.version = "1.0",
	.summary = "Blue-Red Hackenbush strings (an example ruleset)",
	.params_help = "max=N: the longest string accepted (default 64)",
	.flags = CG_DECOMPOSES,
	.init = hs_init,
	.fini = hs_fini,
	.parse = hs_parse,
	.print = hs_print,
	.options = hs_options,
	.decompose = hs_decompose,
};

CG_RULESET_ENTRY(hstring, hstring)
