/* kbmove.c - moves with their resulting values (see kbmove.h). */
#include <stdlib.h>
#include <string.h>

#include "values/canon.h"
#include "values/notation.h"
#include "kb/kb.h"
#include "kb/kbmove.h"
#include "kb/kbvalue.h"
#include "base/util.h"
#include "base/watch.h"
#include "solve/loopy.h"
#include "solve/result.h"
#include "solve/retro.h"

static size_t n_base, n_computed;

struct collect {
	struct cg_kbmove *m;
	size_t n, cap;
};

static int
on_option(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct collect *c = ctx;
	struct cg_kbmove *m;

	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->m = cg_xreallocarray(c->m, c->cap, sizeof *c->m);
	}
	m = &c->m[c->n++];
	memset(m, 0, sizeof *m);
	m->move = move ? cg_xstrdup(move) : NULL;
	m->child = cg_xmalloc(len ? len : 1);
	if (len > 0)
		memcpy(m->child, pos, len);
	m->len = len;
	return 0;
}

struct comps {
	struct cg_buf bytes;      /* the components, concatenated */
	size_t *off, n, cap;
};

static int
on_component(void *ctx, const unsigned char *pos, size_t len,
    const char *move)
{
	struct comps *c = ctx;

	(void)move;
	if (c->n + 2 > c->cap) {
		c->cap = c->cap ? c->cap * 2 : 8;
		c->off = cg_xreallocarray(c->off, c->cap, sizeof *c->off);
	}
	if (c->n == 0)
		c->off[0] = 0;
	cg_buf_add(&c->bytes, pos, len);
	c->off[++c->n] = c->bytes.len;
	return 0;
}

/* One component's value from the bases (malloc'ed) or NULL. */
static char *
find1(struct cg_plugin *rs, const unsigned char *pos, size_t len,
    const char *kind, struct cg_buf *canon)
{
	struct cg_buf v;
	char *r = NULL;

	cg_buf_init(&v);
	canon->len = 0;
	if (cg_rs_canonical(rs, pos, len, canon) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
		    cg_rs_errmsg(rs));
	if (cg_kb_find(rs, canon->data, canon->len, kind, &v))
		r = cg_xstrdup(cg_buf_str(&v));
	cg_buf_free(&v);
	return r;
}

/* The sum of the components' canonical forms, or CG_NO_GAME. */
static cg_game
canon_sum(struct cg_plugin *rs, struct comps *c, struct cg_buf *canon)
{
	cg_game sum = cg_canon_zero(), g;
	char msg[256];
	size_t i, col;

	for (i = 0; i < c->n; i++) {
		char *v;

		/* a base of games gives the form itself, not its print */
		canon->len = 0;
		if (cg_rs_canonical(rs, c->bytes.data + c->off[i],
		    c->off[i + 1] - c->off[i], canon) < 0)
			cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
			    cg_rs_errmsg(rs));
		g = cg_kb_find_game(rs, canon->data, canon->len);
		if (g != CG_NO_GAME) {
			sum = cg_canon_add(sum, g);
			continue;
		}
		v = find1(rs, c->bytes.data + c->off[i],
		    c->off[i + 1] - c->off[i], "canon", canon);
		if (v == NULL || cg_canon_parse(v, strlen(v), &g, msg,
		    sizeof msg, &col) < 0) {
			free(v);
			return CG_NO_GAME;
		}
		free(v);
		sum = cg_canon_add(sum, g);
	}
	return sum;
}

/*
 * Look a position up: its canonical form; else its components (a sum is
 * combined at query time: canonical forms added, outcome from the sum of
 * canonical forms, nim values XORed); a position without components has
 * no move for anyone and is 0.  Returns a malloc'ed value or NULL.
 */
static char *
lookup(struct cg_plugin *rs, const unsigned char *pos, size_t len,
    const char *kind, struct cg_buf *canon)
{
	struct comps c;
	struct cg_buf out;
	char *r;
	size_t i;

	r = find1(rs, pos, len, kind, canon);
	/* a loopy position's value is its own: it is no sum of parts a
	 * base holds, and one without moves is no 0 */
	if (r != NULL || cg_rs_loopy(rs))
		return r;
	memset(&c, 0, sizeof c);
	cg_buf_init(&c.bytes);
	cg_buf_init(&out);
	if (cg_rs_decompose(rs, pos, len, on_component, &c) < 0)
		goto done;
	if (c.n == 0) {
		if (strcmp(kind, "canon") == 0 || strcmp(kind, "nimber") == 0)
			r = cg_xstrdup("0");
		else if (strcmp(kind, "outcome") == 0)
			r = cg_xstrdup("P");
		else if (strcmp(kind, "misere") == 0)
			r = cg_xstrdup("N");
		goto done;
	}
	if (c.n == 1) {
		if (c.off[1] != len || memcmp(c.bytes.data, pos, len) != 0)
			r = find1(rs, c.bytes.data, c.off[1], kind, canon);
		goto done;
	}
	if (strcmp(kind, "nimber") == 0) {
		unsigned long long x = 0;

		for (i = 0; i < c.n; i++) {
			char *v = find1(rs, c.bytes.data + c.off[i],
			    c.off[i + 1] - c.off[i], kind, canon);

			if (v == NULL)
				goto done;
			x ^= strtoull(v, NULL, 10);
			free(v);
		}
		cg_buf_addf(&out, "%llu", x);
		r = cg_xstrdup(cg_buf_str(&out));
	} else if (strcmp(kind, "canon") == 0 || strcmp(kind, "outcome") == 0) {
		cg_game g = canon_sum(rs, &c, canon);

		if (g == CG_NO_GAME)
			goto done;
		if (strcmp(kind, "canon") == 0)
			cg_canon_print(g, &out);
		else
			cg_buf_addc(&out, cg_canon_outcome(g));
		r = cg_xstrdup(cg_buf_str(&out));
	}
done:
	cg_buf_free(&c.bytes);
	cg_buf_free(&out);
	free(c.off);
	return r;
}

cg_game
cg_kb_lookup_game(struct cg_plugin *rs, const unsigned char *pos,
    size_t len)
{
	struct comps c;
	struct cg_buf canon;
	cg_game g;

	cg_buf_init(&canon);
	if (cg_rs_canonical(rs, pos, len, &canon) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
		    cg_rs_errmsg(rs));
	g = cg_kb_find_game(rs, canon.data, canon.len);
	if (g == CG_NO_GAME) {
		memset(&c, 0, sizeof c);
		cg_buf_init(&c.bytes);
		if (cg_rs_decompose(rs, pos, len, on_component, &c) < 0)
			cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
			    cg_rs_errmsg(rs));
		if (c.n == 0)
			g = cg_canon_zero();
		else if (c.n > 1 || c.off[1] != len ||
		    memcmp(c.bytes.data, pos, len) != 0)
			g = canon_sum(rs, &c, &canon);
		cg_buf_free(&c.bytes);
		free(c.off);
	}
	cg_buf_free(&canon);
	return g;
}

char *
cg_kb_lookup(struct cg_plugin *rs, const unsigned char *pos, size_t len,
    const char *kind)
{
	struct cg_buf canon;
	char *r;

	cg_buf_init(&canon);
	r = lookup(rs, pos, len, kind, &canon);
	cg_buf_free(&canon);
	return r;
}

/* Fill slot(m) for every move: bases first, then one engine run. */
static void
values(struct cg_plugin *rs, struct cg_kbmove *m, size_t n, const char *kind,
    size_t slot)
{
	const unsigned char **pos = cg_xmalloc((n ? n : 1) * sizeof *pos);
	size_t *len = cg_xmalloc((n ? n : 1) * sizeof *len), *idx;
	char **out, **dst;
	struct cg_buf canon;
	size_t i, nm = 0;

	idx = cg_xmalloc((n ? n : 1) * sizeof *idx);
	cg_buf_init(&canon);
	for (i = 0; i < n; i++) {
		dst = slot == (size_t)-1 ? &m[i].outcome : &m[i].value[slot];
		*dst = lookup(rs, m[i].child, m[i].len, kind, &canon);
		if (*dst != NULL) {
			n_base++;
			continue;
		}
		m[i].from_base = 0;
		pos[nm] = m[i].child;
		len[nm] = m[i].len;
		idx[nm++] = i;
	}
	if (nm > 0) {
		out = cg_xcalloc(nm, sizeof *out);
		cg_kbv_compute(rs, kind, nm, pos, len, out);
		for (i = 0; i < nm; i++) {
			dst = slot == (size_t)-1 ? &m[idx[i]].outcome :
			    &m[idx[i]].value[slot];
			*dst = out[i];
		}
		n_computed += nm;
		free(out);
	}
	cg_buf_free(&canon);
	free(pos);
	free(len);
	free(idx);
}

/* A game that ends in a result: each child's minimax result with the
 * other player to move; the best moves reach the mover's best. */
static void
result_moves(struct cg_plugin *rs, enum cg_side side, struct cg_kbmove *m,
    size_t n, const char *const *kinds, size_t nkinds)
{
	struct cg_result_solver *s = cg_result_solver(rs);
	int64_t *v = cg_xmalloc((n ? n : 1) * sizeof *v), best = 0, w;
	size_t i, k;

	for (i = 0; i < n; i++) {
		if (cg_result_solve(s, m[i].child, m[i].len, !side, &v[i]) < 0
		    || cg_result_solve(s, m[i].child, m[i].len, side, &w) < 0)
			cg_die(cg_stop_status(), "%s", cg_stop_reason());
		m[i].outcome = cg_xstrdup(side == CG_LEFT ?
		    cg_result_class(w, v[i]) : cg_result_class(v[i], w));
		for (k = 0; k < nkinds; k++)
			if (strcmp(kinds[k], "outcome") == 0)
				m[i].value[k] = cg_xstrdup(m[i].outcome);
		m[i].wins = side == CG_LEFT ? v[i] > 0 : v[i] < 0;
		m[i].draws = v[i] == 0;
		m[i].from_base = 0;
		if (i == 0 || (side == CG_LEFT ? v[i] > best : v[i] < best))
			best = v[i];
	}
	for (i = 0; i < n; i++)
		m[i].best = v[i] == best;
	free(v);
}

/* A loopy game: each child solved by retrograde analysis with the other
 * player to move.  The best moves win soonest; with no win, those that
 * draw; with neither, those that lose last.  The quickest win is the one
 * to take: a winning move that does not bring the end nearer could be
 * answered until the game came round again. */
/* The remoteness of a child, as cg-outcome --remoteness writes it. */
static char *
remoteness(struct cg_loopy_game *g, const struct cg_kbmove *m)
{
	struct cg_buf t;
	uint32_t rem;
	char *r;
	int s, res;

	cg_buf_init(&t);
	for (s = 0; s < 2; s++) {
		cg_loopy_game_value(g, m->child, m->len, (enum cg_side)s, &res,
		    &rem, NULL);
		if (s)
			cg_buf_addc(&t, ' ');
		if (res == CG_RETRO_DRAW)
			cg_buf_addc(&t, 'd');
		else
			cg_buf_addf(&t, "%c%lu", res == CG_RETRO_WIN ? 'w' : 'l',
			    (unsigned long)rem);
	}
	r = cg_xstrdup(cg_buf_str(&t));
	cg_buf_free(&t);
	return r;
}

static void
loopy_moves(struct cg_plugin *rs, enum cg_side side, struct cg_kbmove *m,
    size_t n, const char *const *kinds, size_t nkinds)
{
	struct cg_loopy_game *g = cg_loopy_game(rs);
	int *res = cg_xmalloc((n ? n : 1) * sizeof *res), want;
	uint32_t *rem = cg_xmalloc((n ? n : 1) * sizeof *rem), r = 0;
	const char *cls;
	size_t i, k;

	/* results are the opponent's, to move in the child */
	want = CG_RETRO_WIN;
	for (i = 0; i < n; i++) {
		cg_loopy_game_value(g, m[i].child, m[i].len,
		    side == CG_LEFT ? CG_RIGHT : CG_LEFT, &res[i], &rem[i],
		    &cls);
		m[i].outcome = cg_xstrdup(cls);
		for (k = 0; k < nkinds; k++)
			if (strcmp(kinds[k], "outcome") == 0)
				m[i].value[k] = cg_xstrdup(cls);
			else if (strcmp(kinds[k], "remoteness") == 0)
				m[i].value[k] = remoteness(g, &m[i]);
		m[i].wins = res[i] == CG_RETRO_LOSS;
		m[i].draws = res[i] == CG_RETRO_DRAW;
		m[i].from_base = 0;
		if (res[i] < want || (res[i] == want && (want ==
		    CG_RETRO_LOSS ? rem[i] < r : rem[i] > r))) {
			want = res[i];
			r = rem[i];
		}
	}
	for (i = 0; i < n; i++)
		m[i].best = res[i] == want && (want == CG_RETRO_DRAW ||
		    rem[i] == r);
	free(res);
	free(rem);
}

size_t
cg_kb_moves(struct cg_plugin *rs, const unsigned char *pos, size_t len,
    enum cg_side side, const char *const *kinds, size_t nkinds,
    struct cg_kbmove **out)
{
	struct collect c = { NULL, 0, 0 };
	size_t i, k, nwin = 0;
	const char *good = side == CG_LEFT ? "LP" : "RP";

	if (cg_rs_options(rs, pos, len, side, on_option, &c) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
		    cg_rs_errmsg(rs));
	for (i = 0; i < c.n; i++) {
		c.m[i].value = cg_xcalloc(nkinds ? nkinds : 1, sizeof (char *));
		c.m[i].from_base = 1;
	}
	if (kinds == NULL) {
		/* names and children only */
		*out = c.m;
		return c.n;
	}
	if (cg_rs_loopy(rs)) {
		loopy_moves(rs, side, c.m, c.n, kinds, nkinds);
		*out = c.m;
		return c.n;
	}
	if (rs->result != NULL) {
		result_moves(rs, side, c.m, c.n, kinds, nkinds);
		*out = c.m;
		return c.n;
	}
	values(rs, c.m, c.n, "outcome", (size_t)-1);
	for (k = 0; k < nkinds; k++) {
		if (strcmp(kinds[k], "outcome") == 0) {
			for (i = 0; i < c.n; i++)
				c.m[i].value[k] = c.m[i].outcome ?
				    cg_xstrdup(c.m[i].outcome) : NULL;
			continue;
		}
		values(rs, c.m, c.n, kinds[k], k);
	}
	for (i = 0; i < c.n; i++) {
		const char *o = c.m[i].outcome;

		c.m[i].wins = o != NULL && o[0] != '\0' && o[1] == '\0' &&
		    strchr(good, o[0]) != NULL;
		nwin += c.m[i].wins;
	}
	for (i = 0; i < c.n; i++)
		c.m[i].best = nwin == 0 || c.m[i].wins;
	*out = c.m;
	return c.n;
}

void
cg_kb_moves_free(struct cg_kbmove *m, size_t n, size_t nkinds)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		free(m[i].move);
		free(m[i].child);
		free(m[i].outcome);
		for (k = 0; k < nkinds; k++)
			free(m[i].value[k]);
		free(m[i].value);
	}
	free(m);
}

void
cg_kb_moves_counts(size_t *from_base, size_t *computed)
{
	*from_base = n_base;
	*computed = n_computed;
}
