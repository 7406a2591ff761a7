/*
 * hstring.c - an example cgtools ruleset, built outside the tree:
 * Blue-Red Hackenbush strings.
 *
 * A position is a string of edges from the ground up, each 'L' (blue,
 * Left's) or 'R' (red, Right's): "LLR" is two blue edges with a red one on
 * top.  A player removes one of their own edges, and every edge above it
 * falls.  "0" is the empty string.  The bytes of a position are its
 * letters, so parse and print are almost copies.
 *
 * Parameter: max=N, the longest string accepted (default 64), to show how
 * init() turns parameters into state.
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

static int
hs_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	const struct state *st = cx->state;
	size_t i;

	if (len == 1 && text[0] == '0')
		return CG_OK;                   /* the empty string */
	if (len == 0)
		return cx->host->error(cx->err, 1, "empty position (write 0)");
	if (len > st->max)
		return cx->host->error(cx->err, st->max + 1,
		    "string longer than max=%zu", st->max);
	for (i = 0; i < len; i++)
		if (text[i] != 'L' && text[i] != 'R')
			return cx->host->error(cx->err, i + 1,
			    "expected 'L' or 'R', found '%c'", text[i]);
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

/* Removing edge i (0-based) leaves the i edges below it. */
static int
hs_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	int mine = side == CG_LEFT ? 'L' : 'R';
	char move[24];
	size_t i;

	(void)cx;
	for (i = 0; i < len; i++) {
		if (pos[i] != mine)
			continue;
		snprintf(move, sizeof move, "%zu", i + 1);  /* edge height */
		if (emit(ctx, pos, i, move))
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
	.flags = 0,
	.init = hs_init,
	.fini = hs_fini,
	.parse = hs_parse,
	.print = hs_print,
	.options = hs_options,
};

CG_RULESET_ENTRY(hstring, hstring)
