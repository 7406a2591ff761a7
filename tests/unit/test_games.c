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

static int
joint_emit(void *ctx, size_t i, size_t j, const unsigned char *pos,
    size_t len)
{
	struct dec *d = ctx;

	if (d->out->len)
		cg_buf_addstr(d->out, "; ");
	cg_buf_addf(d->out, "%zu,%zu:", i, j);
	if (cg_rs_print(d->p, pos, len, d->out) < 0)
		cg_buf_addstr(d->out, "ERROR");
	return 0;
}

/* Joint options as "i,j:child; ..." */
static const char *
joint(const char *spec, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf pos;
	struct dec d = { p, &outb };

	cg_buf_init(&pos);
	cg_buf_free(&outb);
	cg_buf_init(&outb);
	if (cg_rs_parse(p, text, strlen(text), &pos) < 0 ||
	    cg_rs_synch_options(p, pos.data, pos.len, joint_emit, &d) < 0)
		cg_buf_addstr(&outb, "ERROR");
	cg_buf_free(&pos);
	return cg_buf_str(&outb);
}

/* decided_value as "num/den", or "ERROR". */
static const char *
decided(const char *spec, const char *text)
{
	struct cg_plugin *p = cg_plugin_get(spec, 1);
	struct cg_buf pos;
	int64_t num, den;

	cg_buf_init(&pos);
	cg_buf_free(&outb);
	cg_buf_init(&outb);
	if (cg_rs_parse(p, text, strlen(text), &pos) < 0 ||
	    cg_rs_decided_value(p, pos.data, pos.len, &num, &den) < 0)
		cg_buf_addstr(&outb, "ERROR");
	else
		cg_buf_addf(&outb, "%lld/%lld", (long long)num,
		    (long long)den);
	cg_buf_free(&pos);
	return cg_buf_str(&outb);
}

static void
test_cutcake(void)
{
	/* 2x2: Left's only cut is after column 1, Right's after row 1;
	 * made together they leave four 1x1 pieces. */
	is_str(joint("cutcake", "2x2"), "0,0:1x1+1x1+1x1+1x1",
	    "cutcake joint cut of one piece");
	/* 1x2+2x1: Left can only cut the first piece (1x1+1x1), Right only
	 * the second (1x1+1x1); independent. */
	is_str(joint("cutcake", "1x2+2x1"), "0,0:1x1+1x1+1x1+1x1",
	    "cutcake joint cuts of two pieces");
	/* 2x3+1x2: Left moves 0,1 cut piece 1 after column 1,2; move 2
	 * cuts piece 2.  Right's one move cuts piece 1 after row 1. */
	is_str(joint("cutcake", "2x3+1x2"),
	    "0,0:1x1+1x2+1x1+1x2+1x2; 1,0:1x2+1x1+1x2+1x1+1x2; "
	    "2,0:1x3+1x3+1x1+1x1", "cutcake joint matrix order");
	/* only one side can move: no joint options */
	is_str(joint("cutcake", "1x5"), "", "cutcake decided has no joints");
	/* decided values: 1x5 Left alone cuts 4 times; 1x3+1x2: 2+1;
	 * 4x1+2x1: Right 3+1 = -4; 1x1: nobody, 0. */
	is_str(decided("cutcake", "1x5"), "4/1", "cutcake decided left");
	is_str(decided("cutcake", "1x3+1x2+1x1"), "3/1", "cutcake decided sum");
	is_str(decided("cutcake", "4x1+2x1"), "-4/1", "cutcake decided right");
	is_str(decided("cutcake", "1x1"), "0/1", "cutcake decided nobody");
	is_str(decided("cutcake", "2x2"), "ERROR", "cutcake undecided refused");
	/* canonical: 1x1 pieces go, the rest sorted (rows, then columns,
	 * descending) */
	is_str(canon("cutcake", "1x1+2x3+1x1+3x1+2x5"), "3x1+2x5+2x3",
	    "cutcake canonical sorts");
	is_str(canon("cutcake", "1x1+1x1"), "1x1", "cutcake canonical empty");
	is_str(decomp("cutcake", "1x1+2x3+1x2"), "2x3 + 1x2",
	    "cutcake decomposes into pieces");
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
	test_cutcake();
	cg_buf_free(&outb);
	cg_plugin_unload_all();
	return tap_done();
}
