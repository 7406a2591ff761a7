/*
 * fuzz_rules.c - libFuzzer target for the rules interpreter (cgr(5)),
 * built with the sources of plugins/rules/ compiled in (-DCG_STATIC_PLUGIN).
 *
 * Input: a rules file, then optionally a line "%%" and, one per line, an
 * optional ":PARAMS" line and positions.  The reader must either accept
 * the file or refuse it with a message (and a line within the file); it
 * never crashes, hangs or leaks.  When it accepts, each position the
 * ruleset parses is held to the ABI's promises, as fuzz_position.c does:
 *   - parse(print(p)) == p;
 *   - canonical(canonical(p)) == canonical(p), and it prints and parses;
 *   - every option (the first few hundred) prints and parses back, and
 *     options fail only with a measure the file could not prove;
 *   - every component of decompose() prints and parses back;
 *   - the joint options (and, on small boards, the decided values) of
 *     grids do not crash;
 *   - a game that ends in a result (cg.result) says so of every
 *     position without failing, a position that is over has no options,
 *     and a payoff is counted where the game has one.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/ruleset.h"
#include "cg/result.h"
#include "host/plugin.h"

#include "abi_promises.h"

const struct cg_ruleset *cg_ruleset_entry_rules(uint32_t host_abi,
    const struct cg_host *host);

#define MAX_EMITS 300
#define MAX_POSITIONS 16

static const struct cg_ruleset *interp, *rs;
static struct cg_error err;
static struct cg_context cx;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	interp = cg_ruleset_entry_rules(CG_ABI_VERSION, cg_host());
	if (interp == NULL || !(interp->flags & CG_INTERPRETER)) {
		fprintf(stderr, "fuzz_rules: no interpreter\n");
		abort();
	}
	cx.host = cg_host();
	cx.err = &err;
	return 0;
}

/* The promises of the ruleset under test (abi_promises.h). */
static const struct promises pr = { &rs, &cx, &err, "rules" };
#define fail(what, pos, len) promise_broken(&pr, what, pos, len)
#define check_print(pos, len, what) promise_print(&pr, pos, len, what)
#define HAS(field) promise_has(&pr, \
	offsetof(struct cg_ruleset, field), sizeof rs->field, \
	(const void *)rs->field)


struct emits {
	int n;
	const char *what;
};

static int
on_emit(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct emits *e = ctx;

	if (move != NULL && (strchr(move, '\t') || strchr(move, '\n')))
		fail("move name with a TAB or newline", pos, len);
	check_print(pos, len, e->what);
	return ++e->n >= MAX_EMITS;
}

static int
on_joint(void *ctx, size_t i, size_t j, const unsigned char *pos,
    size_t len)
{
	struct emits *e = ctx;

	(void)i;
	(void)j;
	check_print(pos, len, "joint option");
	return ++e->n >= MAX_EMITS;
}

/* A failure that is the file's fault, not the interpreter's. */
static int
rules_fault(int r)
{
	return r == CG_ELIMIT || (r < 0 && err.set &&
	    strstr(err.msg, "does not decrease the measure") != NULL) ||
	    (r < 0 && err.set && strstr(err.msg, "two characters") != NULL);
}

static void
position(const char *text, size_t len)
{
	struct cg_buf pos, canon, canon2;
	struct emits e;
	const struct cg_result_rules *xr;
	int64_t num, den;
	int r, s;

	cg_buf_init(&pos);
	cg_buf_init(&canon);
	cg_buf_init(&canon2);
	err.set = 0;
	err.column = 0;
	if (rs->parse(&cx, text, len, &pos) < 0) {
		if (!err.set || err.column > len + 1)
			fail("parse error without a message or a column "
			    "beyond the text", (const unsigned char *)text,
			    len);
		goto out;
	}
	check_print(pos.data, pos.len, "position");
	if (HAS(canonical)) {
		if (rs->canonical(&cx, pos.data, pos.len, &canon) < 0)
			fail("canonical fails", pos.data, pos.len);
		if (rs->canonical(&cx, canon.data, canon.len, &canon2) < 0 ||
		    canon2.len != canon.len || (canon.len &&
		    memcmp(canon.data, canon2.data, canon.len) != 0))
			fail("canonical is not idempotent", pos.data, pos.len);
		check_print(canon.data, canon.len, "canonical form");
	}
	for (s = 0; s < 2; s++) {
		e.n = 0;
		e.what = s == 0 ? "Left option" : "Right option";
		err.set = 0;
		r = rs->options(&cx, pos.data, pos.len, (enum cg_side)s,
		    on_emit, &e);
		if (r < 0 && !rules_fault(r))
			fail("options fails", pos.data, pos.len);
		if (r == CG_STOP && e.n < MAX_EMITS)
			fail("options returns CG_STOP unasked", pos.data,
			    pos.len);
	}
	if (HAS(decompose)) {
		e.n = 0;
		e.what = "component";
		r = rs->decompose(&cx, pos.data, pos.len, on_emit, &e);
		if (r < 0 && !rules_fault(r))
			fail("decompose fails", pos.data, pos.len);
	}
	if (HAS(extension) && (xr = rs->extension(&cx, CG_EXT_RESULT)) !=
	    NULL) {
		int res;
		int64_t pay;

		err.set = 0;
		r = xr->result(&cx, pos.data, pos.len, &res, &pay);
		if (r < 0 && !rules_fault(r))
			fail("result fails", pos.data, pos.len);
		for (s = 0; r == CG_OK && res != CG_RESULT_NONE && s < 2; s++) {
			e.n = 0;
			e.what = "option of a position that is over";
			if (rs->options(&cx, pos.data, pos.len, (enum cg_side)s,
			    on_emit, &e) < 0 || e.n > 0)
				fail("a position that is over has options",
				    pos.data, pos.len);
		}
		if (xr->payoff != NULL && xr->payoff(&cx, pos.data, pos.len,
		    &pay) < 0)
			fail("payoff fails", pos.data, pos.len);
	}
	if (HAS(synch_options) && pos.len <= 2 + 36) {
		e.n = 0;
		err.set = 0;
		r = rs->synch_options(&cx, pos.data, pos.len, on_joint, &e);
		if (r < 0 && !rules_fault(r))
			fail("synch_options fails", pos.data, pos.len);
		/* the longest run of one player's moves is a search that
		 * can take exponential time: small boards only */
		err.set = 0;
		r = pos.len <= 2 + 20 ? rs->decided_value(&cx, pos.data,
		    pos.len, &num, &den) : CG_OK;
		if (r < 0 && r != CG_EUNSUPPORTED && !rules_fault(r))
			fail("decided_value fails", pos.data, pos.len);
	}
out:
	cg_buf_free(&pos);
	cg_buf_free(&canon);
	cg_buf_free(&canon2);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *rest = NULL, *p, *nl;
	size_t len = size, lines = 1, i, n = 0;
	char *params = NULL;

	for (i = 0; i + 3 <= size; i++)
		if ((i == 0 || data[i - 1] == '\n') &&
		    memcmp(data + i, "%%\n", 3) == 0) {
			len = i;
			rest = text + i + 3;
			break;
		}
	for (i = 0; i < len; i++)
		lines += data[i] == '\n';
	err.set = 0;
	err.line = 0;
	rs = interp->load(cx.host, "fuzz", "fuzz.cgr", text, len, &err);
	if (rs == NULL) {
		if (!err.set || err.line > lines)
			fail("refused without a message or beyond the last "
			    "line", data, len);
		return 0;
	}
	if (rs->abi_version != CG_ABI_VERSION || rs->parse == NULL ||
	    rs->print == NULL || rs->options == NULL || rs->name == NULL)
		fail("incomplete descriptor", data, len);
	if (rest != NULL && memchr(rest, '\0', size - (size_t)(rest - text)))
		rest = NULL;   /* position texts never hold NUL bytes */
	if (rest != NULL && rest < text + size && *rest == ':') {
		nl = memchr(rest, '\n', size - (size_t)(rest - text));
		i = nl ? (size_t)(nl - rest) - 1 : size - (size_t)(rest -
		    text) - 1;
		params = malloc(i + 1);
		memcpy(params, rest + 1, i);
		params[i] = '\0';
		rest = nl ? nl + 1 : text + size;
	}
	cx.state = NULL;
	err.set = 0;
	if (rs->init_desc(rs, cx.host, params, &cx.state, &err) < 0) {
		if (!err.set)
			fail("init refuses without a message", data, len);
		goto done;
	}
	for (p = rest; p != NULL && p < text + size && n < MAX_POSITIONS;
	    n++) {
		nl = memchr(p, '\n', size - (size_t)(p - text));
		position(p, nl ? (size_t)(nl - p) : size - (size_t)(p - text));
		p = nl ? nl + 1 : NULL;
	}
	rs->fini(cx.host, cx.state);
done:
	free(params);
	interp->unload(cx.host, rs);
	return 0;
}
