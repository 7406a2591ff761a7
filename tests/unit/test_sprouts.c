/* test_sprouts.c - the sprouts plugin's hooks called directly (the
 * plugin is loaded from the build like any tool loads it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/plugin.h"
#include "tap.h"

static struct cg_plugin *rs, *rs2;

/* text -> bytes; NULL on a parse error */
static struct cg_buf *
parse(struct cg_plugin *p, const char *text, struct cg_buf *b)
{
	cg_buf_init(b);
	if (cg_rs_parse(p, text, strlen(text), b) < 0)
		return NULL;
	return b;
}

/* the printed canonical form of text (static buffer) */
static const char *
canon(struct cg_plugin *p, const char *text)
{
	static char res[4096];
	struct cg_buf pos, out, txt;

	if (parse(p, text, &pos) == NULL)
		return "(parse error)";
	cg_buf_init(&out);
	cg_buf_init(&txt);
	if (cg_rs_canonical(p, pos.data, pos.len, &out) < 0 ||
	    cg_rs_print(p, out.data, out.len, &txt) < 0)
		snprintf(res, sizeof res, "(error)");
	else
		snprintf(res, sizeof res, "%s", cg_buf_str(&txt));
	cg_buf_free(&pos);
	cg_buf_free(&out);
	cg_buf_free(&txt);
	return res;
}

static int
count_emit(void *ctx, const unsigned char *pos, size_t len, const char *m)
{
	(void)pos;
	(void)len;
	(void)m;
	++*(int *)ctx;
	return 0;
}

static int
stop_emit(void *ctx, const unsigned char *pos, size_t len, const char *m)
{
	(void)pos;
	(void)len;
	(void)m;
	++*(int *)ctx;
	return 1;
}

static int
noptions(const char *text)
{
	struct cg_buf pos;
	int n = 0;

	if (parse(rs, text, &pos) == NULL)
		return -1;
	if (cg_rs_options(rs, pos.data, pos.len, CG_LEFT, count_emit, &n) < 0)
		n = -1;
	cg_buf_free(&pos);
	return n;
}

static int64_t
key(const char *text)
{
	struct cg_buf pos;
	int64_t k = -1;

	if (parse(rs, text, &pos) != NULL)
		cg_rs_order_key(rs, pos.data, pos.len, &k);
	cg_buf_free(&pos);
	return k;
}

int
main(void)
{
	static const char *const forms[] = {
		"0*5", "0.1a1a+0*2", "1aa.AB|AB+0.aaABC|0.1ab1bcDca.ACB|D",
		"2abcAcba|BC.DE.A|BC|DE", "IS|HY|aIjkYHkjSa2", "CH|2.MCPIQG|MGQIPH",
		"0*3.AB|CD|ABCD", "1A|abBbaA|BCD|CD",
	};
	struct cg_buf pos, out;
	size_t i;
	int n;

	rs = cg_plugin_get("sprouts", 1);
	rs2 = cg_plugin_get("sprouts:0", 1); /* a second instance, own memo */
	ok(rs != NULL && rs2 != NULL && rs != rs2, "two instances loaded");
	ok(rs->rs->flags & CG_IMPARTIAL, "impartial");

	/* Glop's manual example, as drawn and as reduced by hand, has the
	 * canonical form SPOTS prints for it (research notes 1.4) */
	is_str(canon(rs, "1aa.AB|AB+0.aaABC|0.1ab1bcDca.ACB|D"),
	    "0.1ab1bc2ca.ABC|0.2ACB+12.AB|AB", "manual example, raw");
	is_str(canon(rs, "12.AB|AB+0.2ABC|0.1ab1bc2ca.ACB"),
	    "0.1ab1bc2ca.ABC|0.2ACB+12.AB|AB", "manual example, reduced");
	/* the manual's "2AB|AB" for "2.AB|AB": a region of 3 lives is one
	 * boundary; letters renamed and boundaries rotated */
	is_str(canon(rs, "2.AB|AB"), "2AB|AB", "3-life region merged");
	is_str(canon(rs, "BA2|AB"), "2AB|AB", "renamed and rotated");
	is_str(canon(rs, "2"), "!", "a dead region vanishes");
	is_str(canon(rs, "0+2+AB|AB"), "0+AB|AB", "dead land dropped, sorted");

	/* idempotent: the canonical form is its own canonical form, also
	 * for an instance that has not seen it (no memo) */
	for (i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		char c1[4096];

		snprintf(c1, sizeof c1, "%s", canon(rs, forms[i]));
		is_str(canon(rs2, c1), c1, "idempotent: %s", forms[i]);
	}

	/* options: hand counts (see tests/cli/sprouts.bats) */
	is_int(noptions("0"), 1, "one spot: one move");
	is_int(noptions("AB|AB"), 1, "AB|AB: one move");
	is_int(noptions("0*2"), 2, "two spots: two moves");
	is_int(noptions("0*3"), 3, "three spots: three moves");
	is_int(noptions("1a1a"), 3, "1a1a: three moves");
	is_int(noptions("2"), 0, "a dead position");
	is_int(noptions("!"), 0, "the empty position");
	/* the visitor can stop the enumeration */
	parse(rs, "0*5", &pos);
	n = 0;
	is_int(cg_rs_options(rs, pos.data, pos.len, CG_LEFT, stop_emit, &n),
	    CG_STOP, "stopped");
	is_int(n, 1, "after one option");
	/* lands are the components */
	n = 0;
	cg_buf_free(&pos);
	parse(rs, "0*3+0+1a1a", &pos);
	cg_rs_decompose(rs, pos.data, pos.len, count_emit, &n);
	is_int(n, 3, "three lands, three components");
	cg_buf_free(&pos);

	/* search keys: fewer lives first; keys of lands add up */
	ok(key("0") < key("0*2"), "0 before 0*2");
	ok(key("AB|AB") < key("0"), "AB|AB before 0");

	/* parse errors carry the column */
	ok(parse(rs, "0.1a1a|0..0", &pos) == NULL && rs->err.column == 10,
	    "empty boundary at column 10");
	cg_buf_free(&pos);
	ok(parse(rs, "0.ABC|AB", &pos) == NULL && rs->err.column == 5,
	    "lone letter at column 5");
	cg_buf_free(&pos);
	/* parse(print(p)) == p for the shorthand */
	parse(rs, "0.0.0.0.0.0.0.0.0.0.0.0", &pos);
	cg_buf_init(&out);
	cg_rs_print(rs, pos.data, pos.len, &out);
	is_str(cg_buf_str(&out), "0*12", "twelve spots print as 0*12");
	cg_buf_free(&pos);
	cg_buf_free(&out);

	cg_plugin_unload_all();
	return tap_done();
}
