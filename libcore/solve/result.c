/*
 * result.c - minimax over the positions of a game that ends in a result
 * (cg/result.h).  A position with a player to move is a node, keyed by
 * its canonical bytes and that player; its result is:
 *   - the ruleset's result() when the position is over;
 *   - else, when the player has no move, what the ruleset's 'stuck'
 *     says (the mover loses, wins, draws, or scores the payoff);
 *   - else the best of its children for the mover: Left takes the
 *     largest result, Right the smallest.
 * A child that gives the mover the best result there is (a win) ends the
 * search of its siblings; every other result is exact, so the table
 * holds exact results only and never a bound.  The search runs on an
 * explicit stack (depth grows with the game's length), the children of
 * the nodes on it on a second one.  A node met again while it is on the
 * stack is a cycle: the ruleset broke its promise that every game ends.
 */
#include <stdlib.h>
#include <string.h>

#include "base/bytemap.h"
#include "base/util.h"
#include "base/watch.h"
#include "cg/result.h"
#include "format/doc.h"
#include "solve/result.h"

enum { NODE_NEW, NODE_OPEN, NODE_DONE };

struct frame {
	uint64_t e;        /* its entry */
	int side, opened;
	size_t k0, k1, next; /* its children: kid[k0 .. k1), next to try */
	int64_t best;
};

struct cg_result_solver {
	struct cg_plugin *rs;
	struct cg_bytemap *map;   /* canonical bytes + side -> entry */
	unsigned char *state;     /* NODE_* per entry */
	size_t cap;
	struct frame *stk;
	size_t nstk, capstk;
	uint64_t *kid;
	size_t nkid, capkid;
	struct cg_buf opts;       /* options collected: bytes */
	size_t *off;              /* their offsets, nopt + 1 */
	size_t nopt, capoff;
	struct cg_buf key;
	struct cg_result_solver *next;
};

static struct cg_result_solver *solvers;

struct cg_result_solver *
cg_result_solver(struct cg_plugin *rs)
{
	struct cg_result_solver *s;

	for (s = solvers; s != NULL; s = s->next)
		if (s->rs == rs)
			return s;
	s = cg_xcalloc(1, sizeof *s);
	s->rs = rs;
	s->map = cg_bytemap_new();
	cg_buf_init(&s->opts);
	cg_buf_init(&s->key);
	s->next = solvers;
	solvers = s;
	return s;
}

void
cg_result_free_all(void)
{
	struct cg_result_solver *s, *n;

	for (s = solvers; s != NULL; s = n) {
		n = s->next;
		cg_bytemap_free(s->map);
		free(s->state);
		free(s->stk);
		free(s->kid);
		free(s->off);
		cg_buf_free(&s->opts);
		cg_buf_free(&s->key);
		free(s);
	}
	solvers = NULL;
}

uint64_t
cg_result_positions(struct cg_result_solver *s)
{
	return cg_bytemap_count(s->map);
}

int
cg_result_payoffs(const struct cg_plugin *rs)
{
	return rs->result != NULL && rs->result->payoff != NULL;
}

static void
die_rs(struct cg_plugin *rs)
{
	cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name, cg_rs_errmsg(rs));
}

/* The entry of pos (not yet canonical) with side to move. */
static uint64_t
entry(struct cg_result_solver *s, const unsigned char *pos, size_t len,
    int side)
{
	uint64_t e;
	int isnew;

	s->key.len = 0;
	if (cg_rs_canonical(s->rs, pos, len, &s->key) < 0)
		die_rs(s->rs);
	cg_buf_addc(&s->key, side);
	e = cg_bytemap_intern(s->map, s->key.data, s->key.len, &isnew);
	if (isnew) {
		s->state = cg_xgrow_zero(s->state, &s->cap, e, 1);
		*cg_bytemap_value(s->map, e) = 0;
	}
	return e;
}

static int
collect(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct cg_result_solver *s = ctx;

	(void)move;
	cg_buf_add(&s->opts, pos, len);
	s->nopt++;
	if (s->nopt + 1 > s->capoff) {
		s->capoff = 2 * s->nopt + 8;
		s->off = cg_xreallocarray(s->off, s->capoff, sizeof *s->off);
	}
	s->off[s->nopt] = s->opts.len;
	return 0;
}

/* A result clamped into the payoffs' range. */
static int64_t
payoff_value(int64_t p)
{
	if (p == CG_RESULT_LEFT_WINS)
		return p - 1;
	if (p == CG_RESULT_RIGHT_WINS)
		return p + 1;
	return p;
}

/* The result of a position that is over (res from result(), pay its
 * payoff) or, stuck set, of a stuck player's (res the ruleset's stuck). */
static int64_t
end_value(struct cg_result_solver *s, const unsigned char *pos, size_t len,
    int res, int64_t pay, int side, int stuck)
{
	int64_t win = side == CG_LEFT ? CG_RESULT_LEFT_WINS :
	    CG_RESULT_RIGHT_WINS;
	int64_t loss = side == CG_LEFT ? CG_RESULT_RIGHT_WINS :
	    CG_RESULT_LEFT_WINS;

	switch (res) {
	case CG_RESULT_LEFT:
		return CG_RESULT_LEFT_WINS;
	case CG_RESULT_RIGHT:
		return CG_RESULT_RIGHT_WINS;
	case CG_RESULT_DRAW:
		return 0;
	case CG_RESULT_MOVER_WINS:
		return win;
	case CG_RESULT_MOVER_LOSES:
		return loss;
	default:
		if (stuck && cg_rs_payoff(s->rs, pos, len, &pay) < 0)
			die_rs(s->rs);
		return payoff_value(pay);
	}
}

/* Open node e: its result at once (1, in *v) or its children pushed. */
static int
open_node(struct cg_result_solver *s, uint64_t e, int side, int64_t *v)
{
	size_t klen, len, i;
	/* (keys never move, even while children are interned) */
	const unsigned char *pos = cg_bytemap_key(s->map, e, &klen);
	int64_t pay = 0;
	int res;

	len = klen - 1;
	if (cg_rs_result(s->rs, pos, len, &res, &pay) < 0)
		die_rs(s->rs);
	if (res != CG_RESULT_NONE) {
		*v = end_value(s, pos, len, res, pay, side, 0);
		return 1;
	}
	s->opts.len = 0;
	s->nopt = 0;
	if (s->capoff == 0) {
		s->capoff = 16;
		s->off = cg_xreallocarray(s->off, s->capoff, sizeof *s->off);
	}
	s->off[0] = 0;
	if (cg_rs_options(s->rs, pos, len, (enum cg_side)side, collect, s) < 0)
		die_rs(s->rs);
	if (s->nopt == 0) {
		*v = end_value(s, pos, len, (int)s->rs->result->stuck, 0, side,
		    1);
		return 1;
	}
	for (i = 0; i < s->nopt; i++) {
		uint64_t c = entry(s, s->opts.data + s->off[i],
		    s->off[i + 1] - s->off[i], !side);

		if (s->nkid == s->capkid) {
			s->capkid = 2 * s->capkid + 64;
			s->kid = cg_xreallocarray(s->kid, s->capkid,
			    sizeof *s->kid);
		}
		s->kid[s->nkid++] = c;
	}
	return 0;
}

static void
push(struct cg_result_solver *s, uint64_t e, int side)
{
	struct frame *f;

	if (s->nstk == s->capstk) {
		s->capstk = 2 * s->capstk + 64;
		s->stk = cg_xreallocarray(s->stk, s->capstk, sizeof *s->stk);
	}
	f = &s->stk[s->nstk++];
	f->e = e;
	f->side = side;
	f->opened = 0;
	f->k0 = f->k1 = f->next = s->nkid;
	f->best = side == CG_LEFT ? CG_RESULT_RIGHT_WINS :
	    CG_RESULT_LEFT_WINS;
	s->state[e] = NODE_OPEN;
}

/* Node e is solved: v. */
static void
settle(struct cg_result_solver *s, uint64_t e, int64_t v)
{
	*cg_bytemap_value(s->map, e) = (uint64_t)v;
	s->state[e] = NODE_DONE;
}

int
cg_result_solve(struct cg_result_solver *s, const unsigned char *pos,
    size_t len, enum cg_side side, int64_t *v)
{
	uint64_t root = entry(s, pos, len, side);
	int64_t r;

	if (s->state[root] == NODE_DONE) {
		*v = (int64_t)*cg_bytemap_value(s->map, root);
		return 0;
	}
	s->nstk = s->nkid = 0;
	push(s, root, side);
	while (s->nstk > 0) {
		struct frame *f = &s->stk[s->nstk - 1];
		int64_t win = f->side == CG_LEFT ? CG_RESULT_LEFT_WINS :
		    CG_RESULT_RIGHT_WINS;

		if (cg_stop) {
			/* what is on the stack is open, not solved */
			while (s->nstk > 0)
				s->state[s->stk[--s->nstk].e] = NODE_NEW;
			return -1;
		}
		if (!f->opened) {
			size_t k0 = s->nkid;

			if (open_node(s, f->e, f->side, &r)) {
				settle(s, f->e, r);
				s->nstk--;
				continue;
			}
			f = &s->stk[s->nstk - 1];
			f->opened = 1;
			f->k0 = f->next = k0;
			f->k1 = s->nkid;
			cg_progress_tick();
		}
		while (f->next < f->k1 && f->best != win) {
			uint64_t c = s->kid[f->next];

			if (s->state[c] == NODE_OPEN)
				cg_die(CG_EXIT_DATA, "ruleset '%s': a position "
				    "comes back after moves (a cycle), so the "
				    "game need not end", s->rs->name);
			if (s->state[c] == NODE_NEW)
				break;
			r = (int64_t)*cg_bytemap_value(s->map, c);
			if (f->side == CG_LEFT ? r > f->best : r < f->best)
				f->best = r;
			f->next++;
		}
		if (f->next < f->k1 && f->best != win) {
			uint64_t c = s->kid[f->next];

			push(s, c, !f->side);
			continue;
		}
		settle(s, f->e, f->best);
		s->nkid = f->k0;
		s->nstk--;
	}
	*v = (int64_t)*cg_bytemap_value(s->map, root);
	return 0;
}

static int
sign(int64_t v)
{
	return v > 0 ? 1 : v < 0 ? -1 : 0;
}

const char *
cg_result_class(int64_t lv, int64_t rv)
{
	/* [Left first + 1][Right first + 1]: -1 Right wins, 0 a draw, 1
	 * Left wins (CGSuite's OutcomeClass: leftOutcome, rightOutcome) */
	static const char *const cls[3][3] = {
		{ "R", "PCheck", "P" },
		{ "NCheck", "D", "PHat" },
		{ "N", "NHat", "L" },
	};

	return cls[sign(lv) + 1][sign(rv) + 1];
}

void
cg_result_text(int64_t v, struct cg_buf *out)
{
	if (v == CG_RESULT_LEFT_WINS)
		cg_buf_addstr(out, "inf");
	else if (v == CG_RESULT_RIGHT_WINS)
		cg_buf_addstr(out, "-inf");
	else
		cg_buf_addf(out, "%lld", (long long)v);
}

int
cg_result_row(struct cg_plugin *rs, const unsigned char *pos, size_t len,
    struct cg_buf *cls, struct cg_buf *pay)
{
	struct cg_result_solver *s = cg_result_solver(rs);
	int64_t lv, rv;

	if (cg_result_solve(s, pos, len, CG_LEFT, &lv) < 0 ||
	    cg_result_solve(s, pos, len, CG_RIGHT, &rv) < 0)
		return -1;
	cg_buf_addstr(cls, cg_result_class(lv, rv));
	if (cg_result_payoffs(rs)) {
		cg_result_text(lv, pay);
		cg_buf_addc(pay, ' ');
		cg_result_text(rv, pay);
	}
	return 0;
}

struct kids {
	struct cg_buf bytes, names;
	size_t *off, *noff;
	size_t n, cap;
};

static int
collect_named(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	struct kids *k = ctx;

	if (k->n + 2 > k->cap) {
		k->cap = 2 * k->cap + 16;
		k->off = cg_xreallocarray(k->off, k->cap, sizeof *k->off);
		k->noff = cg_xreallocarray(k->noff, k->cap, sizeof *k->noff);
	}
	cg_buf_add(&k->bytes, pos, len);
	cg_buf_addstr(&k->names, move != NULL ? move : "");
	cg_buf_addc(&k->names, '\0');
	k->n++;
	k->off[k->n] = k->bytes.len;
	k->noff[k->n] = k->names.len;
	return 0;
}

int
cg_result_children(struct cg_plugin *rs, const unsigned char *pos,
    size_t len, void (*fn)(void *ctx, int side, const char *move,
    const char *child, const char *value), void *ctx)
{
	struct kids k;
	struct cg_buf text, val, pay;
	size_t i;
	int side, rc = 0;
	char num[24];

	memset(&k, 0, sizeof k);
	k.cap = 16;
	k.off = cg_xmalloc(k.cap * sizeof *k.off);
	k.noff = cg_xmalloc(k.cap * sizeof *k.noff);
	cg_buf_init(&k.bytes);
	cg_buf_init(&k.names);
	cg_buf_init(&text);
	cg_buf_init(&val);
	cg_buf_init(&pay);
	for (side = CG_LEFT; side <= CG_RIGHT && rc == 0; side++) {
		k.n = 0;
		k.off[0] = k.noff[0] = 0;
		k.bytes.len = k.names.len = 0;
		if (cg_rs_options(rs, pos, len, (enum cg_side)side,
		    collect_named, &k) < 0)
			die_rs(rs);
		for (i = 0; i < k.n && rc == 0; i++) {
			const unsigned char *c = k.bytes.data + k.off[i];
			size_t clen = k.off[i + 1] - k.off[i];
			const char *move = (const char *)k.names.data +
			    k.noff[i];

			text.len = val.len = pay.len = 0;
			if (cg_rs_print(rs, c, clen, &text) < 0)
				die_rs(rs);
			if ((rc = cg_result_row(rs, c, clen, &val, &pay)) < 0)
				break;
			if (pay.len > 0) {
				cg_buf_addc(&val, ' ');
				cg_buf_add(&val, pay.data, pay.len);
			}
			if (*move == '\0') {
				snprintf(num, sizeof num, "#%zu", i + 1);
				move = num;
			}
			fn(ctx, side, move, cg_buf_str(&text),
			    cg_buf_str(&val));
		}
	}
	cg_buf_free(&k.bytes);
	cg_buf_free(&k.names);
	free(k.off);
	free(k.noff);
	cg_buf_free(&text);
	cg_buf_free(&val);
	cg_buf_free(&pay);
	return rc;
}

int
cg_result_root(struct cg_doc *d, uint32_t x, FILE *tsv)
{
	struct cg_node *n = &d->node[x];
	struct cg_buf cls, pay;
	const char *vals[2];
	int r;

	cg_buf_init(&cls);
	cg_buf_init(&pay);
	if ((r = cg_result_row(n->rs, n->pos, n->poslen, &cls, &pay)) == 0) {
		vals[0] = cg_buf_str(&cls);
		vals[1] = cg_buf_str(&pay);
		if (tsv != NULL) {
			cg_tsv_row(tsv, d, x, vals, pay.len ? 2 : 1);
		} else {
			cg_doc_annotate(d, x, "outcome", vals[0]);
			if (pay.len)
				cg_doc_annotate(d, x, "payoff", vals[1]);
		}
	}
	cg_buf_free(&cls);
	cg_buf_free(&pay);
	return r;
}
