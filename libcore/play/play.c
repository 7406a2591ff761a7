/* play.c - moves typed by a person, positions shown (see play.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytemap.h"
#include "base/util.h"
#include "cg/result.h"
#include "play/play.h"
#include "plot/board.h"

static const char *const side_name[2] = { "Left", "Right" };

static void
die_rs(struct cg_plugin *rs)
{
	cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name, cg_rs_errmsg(rs));
}

/* The move reaching child: the same bytes, else the same canonical
 * representative: an equivalent); -1 when none does. */
static long
find_child(struct cg_plugin *rs, const struct cg_kbmove *m, size_t n,
    const unsigned char *child, size_t clen)
{
	struct cg_buf want, got;
	long r = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (m[i].len == clen && memcmp(m[i].child, child, clen) == 0)
			return (long)i;
	cg_buf_init(&want);
	cg_buf_init(&got);
	if (cg_rs_canonical(rs, child, clen, &want) < 0)
		die_rs(rs);
	for (i = 0; i < n && r < 0; i++) {
		got.len = 0;
		if (cg_rs_canonical(rs, m[i].child, m[i].len, &got) < 0)
			die_rs(rs);
		if (got.len == want.len && memcmp(got.data, want.data,
		    got.len) == 0)
			r = (long)i;
	}
	cg_buf_free(&want);
	cg_buf_free(&got);
	return r;
}

/* Can moves be given by name here? */
static int
names_moves(const struct cg_plugin *rs, const struct cg_kbmove *m, size_t n)
{
	size_t i;

	if (CG_HAS_HOOK(rs, move_parse))
		return 1;
	for (i = 0; i < n; i++)
		if (m[i].move != NULL)
			return 1;
	return 0;
}

/* "#N": the Nth move, or -1 with the reason. */
static long
by_number(const char *text, size_t n, enum cg_side side, struct cg_buf *why)
{
	char *end;
	unsigned long k;

	errno = 0;
	k = strtoul(text + 1, &end, 10);
	if (text[1] < '0' || text[1] > '9' || *end != '\0' || errno != 0) {
		cg_buf_addf(why, "'%s': a move number is # and digits, "
		    "as in #1", text);
		return -1;
	}
	if (k == 0 || k > n) {
		cg_buf_addf(why, "no move %s: %s has %zu move%s (#1 to #%zu)",
		    text, side_name[side], n, n == 1 ? "" : "s", n);
		return -1;
	}
	return (long)k - 1;
}

long
cg_play_choose(struct cg_plugin *rs, const unsigned char *pos, size_t len,
    enum cg_side side, const struct cg_kbmove *m, size_t n,
    const char *text, struct cg_buf *why)
{
	struct cg_buf child, name_err;
	long r;

	if (text[0] == '#')
		return by_number(text, n, side, why);
	cg_buf_init(&child);
	cg_buf_init(&name_err);
	if (cg_rs_move_parse(rs, pos, len, side, text, &child) == CG_OK) {
		r = find_child(rs, m, n, child.data, child.len);
		if (r < 0)
			cg_buf_addf(why, "ruleset '%s' reads '%s' as a move "
			    "that none of %s's options makes", rs->name, text,
			    side_name[side]);
		goto done;
	}
	cg_buf_addstr(&name_err, cg_rs_errmsg(rs));
	/* not a move name: perhaps the position a move leads to */
	child.len = 0;
	if (cg_rs_parse(rs, text, strlen(text), &child) < 0) {
		/* the message of the notation a person was likely using */
		if (names_moves(rs, m, n))
			cg_buf_addstr(why, cg_buf_str(&name_err));
		else
			cg_buf_addf(why, "neither #N nor a %s position: %s",
			    rs->name, cg_rs_errmsg(rs));
		r = -1;
		goto done;
	}
	r = find_child(rs, m, n, child.data, child.len);
	if (r < 0)
		cg_buf_addf(why, "no move of %s leads to '%s' (nor is it a "
		    "move's name)", side_name[side], text);
	else if (m[r].len != child.len || memcmp(m[r].child, child.data,
	    child.len) != 0)
		cg_buf_addf(why, "taken as #%ld%s%s, which leads to an "
		    "equivalent of '%s'", r + 1, m[r].move ? " " : "",
		    m[r].move ? m[r].move : "", text);
done:
	cg_buf_free(&child);
	cg_buf_free(&name_err);
	return r;
}

struct parts {
	struct cg_plugin *rs;
	struct cg_buf text;       /* "A + B + ..." */
	size_t n;
};

static int
on_part(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct parts *p = ctx;

	(void)move;
	if (p->n++ > 0)
		cg_buf_addstr(&p->text, " + ");
	if (cg_rs_print(p->rs, pos, len, &p->text) < 0)
		die_rs(p->rs);
	return 0;
}

/* Does text spell the components: the same but for the spaces? */
static int
same_but_spaces(const char *a, const char *b)
{
	for (;;) {
		while (*a == ' ')
			a++;
		while (*b == ' ')
			b++;
		if (*a != *b)
			return 0;
		if (*a == '\0')
			return 1;
		a++;
		b++;
	}
}

void
cg_play_show(struct cg_plugin *rs, const unsigned char *pos, size_t len,
    const char *indent, struct cg_buf *out)
{
	struct cg_buf t;
	struct parts p;

	cg_buf_init(&t);
	if (cg_rs_print(rs, pos, len, &t) < 0)
		die_rs(rs);
	if (cg_board_is(rs))
		cg_board_draw(cg_buf_str(&t), indent, out);
	else
		cg_buf_addf(out, "%s%s\n", indent, cg_buf_str(&t));
	p.rs = rs;
	p.n = 0;
	cg_buf_init(&p.text);
	if (cg_rs_decompose(rs, pos, len, on_part, &p) < 0)
		die_rs(rs);
	if (p.n >= 2 && !same_but_spaces(cg_buf_str(&p.text),
	    cg_buf_str(&t)))
		cg_buf_addf(out, "%ssum of %zu components: %s\n", indent, p.n,
		    cg_buf_str(&p.text));
	cg_buf_free(&p.text);
	cg_buf_free(&t);
}

static int
count_one(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	(void)pos;
	(void)len;
	(void)move;
	*(int *)ctx = 1;
	return 1;   /* one is enough */
}

/* The end of a game worth v to Left (the sign says who wins). */
static int
verdict(int64_t v, struct cg_buf *out)
{
	if (v == 0) {
		cg_buf_addstr(out, "a draw");
		return 2;
	}
	cg_buf_addf(out, "%s wins", side_name[v < 0]);
	return v < 0;
}

int
cg_play_over(struct cg_plugin *rs, const unsigned char *pos, size_t len,
    enum cg_side side, struct cg_buf *out)
{
	int64_t pay = 0;
	int res = CG_RESULT_NONE, can = 0;
	uint32_t stuck = CG_RESULT_MOVER_LOSES;

	if (rs->result != NULL) {
		stuck = rs->result->stuck;
		if (cg_rs_result(rs, pos, len, &res, &pay) < 0)
			die_rs(rs);
	}
	if (res != CG_RESULT_NONE) {
		cg_buf_addstr(out, "the game is over: ");
		if (res == CG_RESULT_PAYOFF) {
			cg_buf_addf(out, "Left scores %lld, ", (long long)pay);
			return verdict(pay, out);
		}
		return verdict(res == CG_RESULT_LEFT ? 1 : res ==
		    CG_RESULT_RIGHT ? -1 : 0, out);
	}
	if (cg_rs_options(rs, pos, len, side, count_one, &can) < 0)
		die_rs(rs);
	if (can)
		return -1;
	cg_buf_addf(out, "%s cannot move: ", side_name[side]);
	switch (stuck) {
	case CG_RESULT_MOVER_WINS:
		return verdict(side == CG_LEFT ? 1 : -1, out);
	case CG_RESULT_DRAW:
		return verdict(0, out);
	case CG_RESULT_PAYOFF:
		if (cg_rs_payoff(rs, pos, len, &pay) < 0)
			die_rs(rs);
		cg_buf_addf(out, "Left scores %lld, ", (long long)pay);
		return verdict(pay, out);
	default:
		return verdict(side == CG_LEFT ? -1 : 1, out);
	}
}

/* ---- repetitions */

struct cg_play_history {
	struct cg_bytemap *seen;   /* canonical bytes and the side -> count */
	struct cg_buf key;
};

struct cg_play_history *
cg_play_history_new(void)
{
	struct cg_play_history *h = cg_xcalloc(1, sizeof *h);

	h->seen = cg_bytemap_new();
	cg_buf_init(&h->key);
	return h;
}

int
cg_play_repeat(struct cg_play_history *h, struct cg_plugin *rs,
    const unsigned char *pos, size_t len, enum cg_side side,
    struct cg_buf *out)
{
	uint64_t *count;
	int isnew;

	h->key.len = 0;
	/* the side first, so a key is never a prefix of another's bytes */
	cg_buf_addc(&h->key, side == CG_LEFT ? 'L' : 'R');
	if (cg_rs_canonical(rs, pos, len, &h->key) < 0)
		die_rs(rs);
	count = cg_bytemap_value(h->seen, cg_bytemap_intern(h->seen,
	    h->key.data, h->key.len, &isnew));
	if (++*count == 2)
		cg_buf_addf(out, "This position has come back with %s to move "
		    "(a third time is a draw).\n", side_name[side]);
	if (*count < 3)
		return 0;
	cg_buf_addf(out, "This position has come back a third time with %s "
	    "to move: a draw.\n", side_name[side]);
	return 1;
}

void
cg_play_history_free(struct cg_play_history *h)
{
	if (h == NULL)
		return;
	cg_bytemap_free(h->seen);
	cg_buf_free(&h->key);
	free(h);
}
