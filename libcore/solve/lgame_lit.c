/* lgame_lit.c - loopy game literals read into a graph (lgame.h).
 *
 * The grammar extends the game literals of include/cg/gamelit.h with
 * CGSuite's words for loopy games:
 *
 *   literal := sum
 *   sum     := term { ('+' | '-' | '+-') term }
 *   term    := '-' term | '+-' term | primary [ glued ]
 *   primary := '(' sum ')' | [ LABEL [':'] ] '{' lists '}'
 *   lists   := list { SLASHES list }
 *            | 'pass' | LABEL | 'on' | 'off' | 'dud' | 'over' | 'under'
 *            | '^[on]' | '^<on>' | 'v[on]' | 'v<on>' | ATOM
 *   list    := [ sum { ',' sum } ]
 *
 * where ATOM is a short game as the `game' ruleset writes it (1/2, *3,
 * ^, v2*, ^<2>, ^[4], ...); slashes nest as in short games ({1||0|-1}
 * is {1|{0|-1}}: the longest run splits, each side with more than one
 * list is a game of its own); `pass' is a move to the innermost game
 * being written, a label names its brace for the options inside it, and
 * a glued word (1over, ^[on]*, -1/2under) is added to what it follows,
 * as CGSuite prints such values.  A sum or a negative must be of a
 * complete game: it may not hold `pass' or a label of a brace still
 * open around it (their graph would be infinite).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "solve/lgame.h"
#include "solve/lgame_int.h"
#include "values/notation.h"

#define NONE UINT32_MAX
/* The latest birthday of a short game written in a loopy literal. */
#define SHORT_BIRTHDAY 1024
/* The most nodes of a sum's graph in a literal. */
#define SUM_NODES (1u << 20)

struct scope {
	const char *name;        /* NULL: an unlabelled brace */
	size_t len;
	uint32_t node;
	uint32_t pass;           /* what `pass' stands for until built */
};

struct p {
	const char *s;
	size_t len, i;
	struct cg_lgame *g;
	char *msg;
	size_t msgsize, col;
	int err;
	struct scope *sc;
	size_t nsc, capsc;
	int depth;
};

static uint32_t sum(struct p *p);

static uint32_t
fail(struct p *p, size_t at, const char *what)
{
	if (!p->err) {
		snprintf(p->msg, p->msgsize, "%s", what);
		p->col = at + 1;
		p->err = 1;
	}
	return NONE;
}

static void
blanks(struct p *p)
{
	while (p->i < p->len && isspace((unsigned char)p->s[p->i]))
		p->i++;
}

static int
at(const struct p *p, const char *w)
{
	size_t n = strlen(w);

	return p->len - p->i >= n && memcmp(p->s + p->i, w, n) == 0;
}

static int
upon_word(const struct p *p)
{
	return at(p, "^[on]") || at(p, "^<on>") || at(p, "v[on]") ||
	    at(p, "v<on>");
}

static int
ident_start(int c)
{
	return isalpha(c) || c == '_';
}

static size_t
ident_len(const struct p *p)
{
	size_t n = 0;

	if (p->i < p->len && ident_start((unsigned char)p->s[p->i]))
		while (p->i + n < p->len && (isalnum((unsigned char)
		    p->s[p->i + n]) || p->s[p->i + n] == '_'))
			n++;
	return n;
}

/* A word of down signs: v, vv, v3 (an atom, not a label). */
static int
is_down(const char *s, size_t n)
{
	size_t k = 0;

	while (k < n && s[k] == 'v')
		k++;
	if (k == 0)
		return 0;
	if (k == n)
		return 1;
	if (k > 1)
		return 0;
	while (k < n && isdigit((unsigned char)s[k]))
		k++;
	return k == n;
}

/* Is any node under x a brace still open (being written)? */
static int
open_under(const struct p *p, uint32_t x)
{
	uint32_t n, *q = lg_reach(p->g, x, &n), i;
	size_t k;
	int found = 0;

	for (i = 0; i < n && !found; i++)
		for (k = 0; k < p->nsc; k++)
			if (p->sc[k].node == q[i] || p->sc[k].pass == q[i])
				found = 1;
	free(q);
	return found;
}

static uint32_t
closed(struct p *p, uint32_t x, size_t where)
{
	if (x != NONE && open_under(p, x))
		return fail(p, where, "a sum or a negative of a game that "
		    "holds pass or the label of a brace around it");
	return x;
}

static uint32_t
short_node(struct p *p, const char *text, size_t n, size_t where)
{
	char msg[200], full[260];
	size_t col;
	cg_game v;

	if (cg_canon_parse(text, n, &v, msg, sizeof msg, &col) < 0) {
		snprintf(full, sizeof full, "%s", msg);
		return fail(p, where + (col > 0 ? col - 1 : 0), full);
	}
	/* a short game's graph has a node per birthday at least (an
	 * integer n is a chain of n nodes) */
	if (cg_canon_birthday(v) > SHORT_BIRTHDAY) {
		snprintf(full, sizeof full, "a short game born on day %llu: "
		    "past %d, too large for a loopy game's graph",
		    (unsigned long long)cg_canon_birthday(v), SHORT_BIRTHDAY);
		return fail(p, where, full);
	}
	return cg_lgame_short(p->g, v);
}

/* A short game written as gamelit's atoms: digits, / . * ^ v < > [ ]. */
static uint32_t
atom_from(struct p *p, size_t s0)
{
	size_t s = p->i;

	while (p->i < p->len && strchr("0123456789./*^v<>[]",
	    p->s[p->i]) != NULL && p->s[p->i] != '\0') {
		if (p->i > s && upon_word(p))
			break;
		p->i++;
	}
	if (p->i == s)
		return fail(p, s, "expected a game");
	return short_node(p, p->s + s0, p->i - s0, s0);
}

static uint32_t
atom(struct p *p)
{
	return atom_from(p, p->i);
}

static uint32_t
upon_node(struct p *p)
{
	struct cg_lgame *g = p->g;
	int down = p->s[p->i] == 'v', th = p->s[p->i + 1] == '<';
	uint32_t u = cg_lgame_node(g), r;

	p->i += 5;
	/* upon = {pass | *} (CGSuite's definition; Winning Ways, vol. 2,
	 * ch. 11: upon = {upon | *}) */
	cg_lgame_edge(g, u, CG_LEFT, u);
	cg_lgame_edge(g, u, CG_RIGHT, cg_lgame_short(g, cg_canon_nus(
	    cg_dyadic_make(0, 0), 0, 1)));
	if (th) {
		/* uponth = {0 | -upon + *} (CGSuite) */
		r = cg_lgame_sum(g, cg_lgame_neg(g, u), cg_lgame_short(g,
		    cg_canon_nus(cg_dyadic_make(0, 0), 0, 1)));
		u = cg_lgame_node(g);
		cg_lgame_edge(g, u, CG_LEFT, cg_lgame_short(g,
		    cg_canon_zero()));
		cg_lgame_edge(g, u, CG_RIGHT, r);
	}
	return down ? cg_lgame_neg(g, u) : u;
}

/* The keywords of loopy games; NONE (no error) if w is not one. */
static uint32_t
keyword(struct p *p, const char *w, size_t n)
{
	struct cg_lgame *g = p->g;
	uint32_t x;

#define IS(k) (n == strlen(k) && memcmp(w, k, n) == 0)
	if (!IS("on") && !IS("off") && !IS("dud") && !IS("over") &&
	    !IS("under"))
		return NONE;
	x = cg_lgame_node(g);
	/* on = {pass|}, off = {|pass}, dud = {pass|pass}, over = {0|pass},
	 * under = {pass|0}: Winning Ways, vol. 2, ch. 11; Siegel, ch. VI */
	if (IS("on") || IS("dud") || IS("under"))
		cg_lgame_edge(g, x, CG_LEFT, x);
	if (IS("off") || IS("dud") || IS("over"))
		cg_lgame_edge(g, x, CG_RIGHT, x);
	if (IS("over"))
		cg_lgame_edge(g, x, CG_LEFT, cg_lgame_short(g,
		    cg_canon_zero()));
	if (IS("under"))
		cg_lgame_edge(g, x, CG_RIGHT, cg_lgame_short(g,
		    cg_canon_zero()));
#undef IS
	return x;
}

/* The option lists of a brace and the slash runs between them. */
struct lists {
	uint32_t **o;
	size_t *n, nl;
	int *sep;               /* sep[i]: slashes between list i and i + 1 */
};

/* Node x gets lists lo .. hi as its options: the longest slash run
 * splits Left from Right; a side of more than one list is a game of its
 * own.  `pass' (ph) in a list is a move to the game that list is of. */
static uint32_t
build(struct p *p, const struct lists *l, size_t lo, size_t hi, uint32_t x,
    uint32_t ph, size_t where)
{
	size_t i, k = lo, ties = 0, j;
	int s;

	for (i = lo; i < hi; i++) {
		if (l->sep[i] > l->sep[k]) {
			k = i;
			ties = 0;
		} else if (i != k && l->sep[i] == l->sep[k]) {
			ties++;
		}
	}
	if (ties > 0)
		return fail(p, where, "slashes of one length side by side: "
		    "which one splits is not clear");
	for (s = 0; s < 2; s++) {
		size_t a = s == CG_LEFT ? lo : k + 1, b = s == CG_LEFT ? k : hi;

		if (a == b) {
			for (j = 0; j < l->n[a]; j++)
				cg_lgame_edge(p->g, x, s, l->o[a][j] == ph ?
				    x : l->o[a][j]);
		} else {
			uint32_t y = build(p, l, a, b, cg_lgame_node(p->g),
			    ph, where);

			if (y == NONE)
				return NONE;
			cg_lgame_edge(p->g, x, s, y);
		}
	}
	return x;
}

static void
lists_free(struct lists *l)
{
	size_t i;

	for (i = 0; i < l->nl; i++)
		free(l->o[i]);
	free(l->o);
	free(l->n);
	free(l->sep);
}

static uint32_t
brace(struct p *p, const char *name, size_t nlen)
{
	uint32_t x = cg_lgame_node(p->g), ph = cg_lgame_node(p->g), o;
	struct lists l = { NULL, NULL, 0, NULL };
	size_t start = p->i;

	if (p->depth++ > 1000)
		return fail(p, p->i, "braces nested too deeply");
	if (p->nsc == p->capsc) {
		p->capsc = p->capsc ? 2 * p->capsc : 8;
		p->sc = cg_xreallocarray(p->sc, p->capsc, sizeof *p->sc);
	}
	p->sc[p->nsc].name = name;
	p->sc[p->nsc].len = nlen;
	p->sc[p->nsc].node = x;
	p->sc[p->nsc].pass = ph;
	p->nsc++;
	p->i++;         /* '{' */
	for (;;) {
		if (l.nl == 0 || p->s[p->i - 1] == '|') {
			/* a new list */
			l.o = cg_xreallocarray(l.o, l.nl + 1, sizeof *l.o);
			l.n = cg_xreallocarray(l.n, l.nl + 1, sizeof *l.n);
			l.sep = cg_xreallocarray(l.sep, l.nl + 1,
			    sizeof *l.sep);
			l.o[l.nl] = NULL;
			l.n[l.nl] = 0;
			l.sep[l.nl] = 0;
			l.nl++;
		}
		blanks(p);
		if (p->i < p->len && p->s[p->i] == '|') {
			int run = 0;

			while (p->i < p->len && p->s[p->i] == '|') {
				run++;
				p->i++;
			}
			l.sep[l.nl - 1] = run;
			continue;
		}
		if (p->i < p->len && p->s[p->i] == '}')
			break;
		if (p->i >= p->len) {
			lists_free(&l);
			return fail(p, p->i, "missing '}'");
		}
		o = sum(p);
		if (o == NONE) {
			lists_free(&l);
			return NONE;
		}
		l.o[l.nl - 1] = cg_xreallocarray(l.o[l.nl - 1],
		    l.n[l.nl - 1] + 1, sizeof **l.o);
		l.o[l.nl - 1][l.n[l.nl - 1]++] = o;
		blanks(p);
		if (p->i < p->len && p->s[p->i] == ',') {
			p->i++;         /* the list goes on */
			continue;
		}
		if (p->i < p->len && (p->s[p->i] == '|' || p->s[p->i] == '}'))
			continue;
		lists_free(&l);
		return fail(p, p->i, "expected ',', '|' or '}'");
	}
	if (l.nl < 2) {
		lists_free(&l);
		return fail(p, p->i, "a brace needs '|' between Left's and "
		    "Right's options");
	}
	p->i++;         /* '}' */
	p->nsc--;
	p->depth--;
	x = build(p, &l, 0, l.nl - 1, x, ph, start);
	lists_free(&l);
	return x;
}

static uint32_t
primary(struct p *p)
{
	size_t s, n, k;
	uint32_t x;

	blanks(p);
	s = p->i;
	if (p->i >= p->len)
		return fail(p, p->i, "expected a game");
	if (p->s[p->i] == '(') {
		p->i++;
		x = sum(p);
		blanks(p);
		if (x != NONE && (p->i >= p->len || p->s[p->i] != ')'))
			return fail(p, p->i, "missing ')'");
		p->i++;
		return x;
	}
	if (p->s[p->i] == '{')
		return brace(p, NULL, 0);
	if (upon_word(p))
		return upon_node(p);
	n = ident_len(p);
	if (n == 0 || is_down(p->s + s, n))
		return atom(p);
	p->i += n;
	blanks(p);
	if (p->i < p->len && (p->s[p->i] == '{' || p->s[p->i] == ':')) {
		if (keyword(p, p->s + s, n) != NONE || (n == 4 &&
		    memcmp(p->s + s, "pass", 4) == 0))
			return fail(p, s, "a keyword cannot label a brace");
		if (p->s[p->i] == ':') {
			p->i++;
			blanks(p);
			if (p->i >= p->len || p->s[p->i] != '{')
				return fail(p, p->i, "expected '{' after a "
				    "label");
		}
		return brace(p, p->s + s, n);
	}
	if (n == 4 && memcmp(p->s + s, "pass", 4) == 0) {
		if (p->nsc == 0)
			return fail(p, s, "pass outside braces");
		return p->sc[p->nsc - 1].pass;
	}
	x = keyword(p, p->s + s, n);
	if (x != NONE)
		return x;
	for (k = p->nsc; k-- > 0;)
		if (p->sc[k].name != NULL && p->sc[k].len == n &&
		    memcmp(p->sc[k].name, p->s + s, n) == 0)
			return p->sc[k].node;
	if (n == 1 && p->s[s] == '&')
		return fail(p, s, "expected a game");
	return fail(p, s, "unknown word (not a label of a brace around it "
	    "nor a keyword of loopy games)");
}

/* A word glued to the game before it is added to it: 1over, ^[on]*. */
static uint32_t
glued(struct p *p, uint32_t x, size_t s0)
{
	size_t s = p->i, n;
	uint32_t y;

	while (x != NONE && p->i < p->len) {
		n = ident_len(p);
		if (upon_word(p)) {
			y = upon_node(p);
		} else if ((n == 4 && at(p, "over")) || (n == 5 &&
		    at(p, "under"))) {
			y = keyword(p, p->s + p->i, n);
			p->i += n;
		} else if (p->s[p->i] == '*') {
			y = atom(p);
		} else {
			break;
		}
		x = closed(p, x, s0);
		y = closed(p, y, s);
		if (x == NONE || y == NONE)
			return NONE;
		x = cg_lgame_sum(p->g, x, y);
		s = p->i;
	}
	return x;
}

static uint32_t
term(struct p *p)
{
	size_t s;
	uint32_t x;

	blanks(p);
	s = p->i;
	if (at(p, "+-")) {
		p->i += 2;
		x = closed(p, term(p), s);
		if (x == NONE)
			return NONE;
		/* +-G = {G | -G} */
		{
			uint32_t n = cg_lgame_neg(p->g, x), w =
			    cg_lgame_node(p->g);

			cg_lgame_edge(p->g, w, CG_LEFT, x);
			cg_lgame_edge(p->g, w, CG_RIGHT, n);
			return w;
		}
	}
	if (p->i + 1 < p->len && p->s[p->i] == '-' &&
	    isdigit((unsigned char)p->s[p->i + 1])) {
		/* a negative number, to which a glued word is added */
		p->i++;
		return glued(p, atom_from(p, s), s);
	}
	if (p->i < p->len && p->s[p->i] == '-') {
		p->i++;
		x = closed(p, term(p), s);
		return x == NONE ? NONE : cg_lgame_neg(p->g, x);
	}
	x = primary(p);
	return glued(p, x, s);
}

static uint32_t
sum(struct p *p)
{
	size_t s;
	uint32_t x, y;
	int neg;

	blanks(p);
	s = p->i;
	x = term(p);
	for (;;) {
		blanks(p);
		if (x == NONE || p->i >= p->len || (p->s[p->i] != '+' &&
		    p->s[p->i] != '-'))
			return x;
		neg = p->s[p->i] == '-';
		if (!at(p, "+-"))
			p->i++;
		y = term(p);
		if (y == NONE)
			return NONE;
		if (neg)
			y = cg_lgame_neg(p->g, closed(p, y, s));
		x = closed(p, x, s);
		y = closed(p, y, s);
		if (x == NONE || y == NONE)
			return NONE;
		{
			/* a sum's graph has a node per pair of nodes */
			uint32_t nx, ny;

			free(lg_reach(p->g, x, &nx));
			free(lg_reach(p->g, y, &ny));
			if ((uint64_t)nx * ny > SUM_NODES) {
				char m[160];

				snprintf(m, sizeof m, "a sum of games of %u and "
				    "%u nodes: more than %u nodes", (unsigned)nx,
				    (unsigned)ny, SUM_NODES);
				return fail(p, s, m);
			}
		}
		x = cg_lgame_sum(p->g, x, y);
	}
}

int
cg_lgame_parse(struct cg_lgame *g, const char *text, size_t len,
    uint32_t *root, char *msg, size_t msgsize, size_t *col)
{
	struct p p;
	uint32_t x;

	memset(&p, 0, sizeof p);
	p.s = text;
	p.len = len;
	p.g = g;
	p.msg = msg;
	p.msgsize = msgsize;
	x = sum(&p);
	blanks(&p);
	if (x != NONE && p.i < p.len) {
		if (p.s[p.i] == '&')
			fail(&p, p.i, "a sided value (A & B) has no one game "
			    "graph, so it cannot be a root of a cgt document");
		else
			fail(&p, p.i, "unexpected character");
		x = NONE;
	}
	free(p.sc);
	if (x == NONE) {
		*col = p.col;
		return -1;
	}
	*root = x;
	return 0;
}

int
cg_lgame_parse_sided(struct cg_lgame *g, const char *text, size_t len,
    uint32_t *on, uint32_t *off, char *msg, size_t msgsize, size_t *col)
{
	size_t i, depth = 0, amp = len;

	for (i = 0; i < len && amp == len; i++) {
		if (text[i] == '{' || text[i] == '(')
			depth++;
		else if ((text[i] == '}' || text[i] == ')') && depth > 0)
			depth--;
		else if (text[i] == '&' && depth == 0)
			amp = i;
	}
	if (amp == len) {
		if (cg_lgame_parse(g, text, len, on, msg, msgsize, col) < 0)
			return -1;
		*off = *on;
		return 0;
	}
	if (cg_lgame_parse(g, text, amp, on, msg, msgsize, col) < 0)
		return -1;
	if (cg_lgame_parse(g, text + amp + 1, len - amp - 1, off, msg,
	    msgsize, col) < 0) {
		*col += amp + 1;
		return -1;
	}
	if (!cg_lgame_is_stopper(g, *on) || !cg_lgame_is_stopper(g, *off)) {
		snprintf(msg, msgsize, "both sides of A & B must be stoppers");
		*col = 1;
		return -1;
	}
	if (cg_lgame_compare(g, *on, *off) < 0 ||
	    cg_lgame_compare(g, *on, *off) == 2) {
		snprintf(msg, msgsize, "A & B needs A >= B (an onside is at "
		    "least its offside)");
		*col = amp + 1;
		return -1;
	}
	return 0;
}

int
cg_lgame_looks_loopy(const char *text, size_t len)
{
	static const char *words[] = { "pass", "on", "off", "over", "under",
	    "dud" };
	size_t i = 0, n, k;

	while (i < len) {
		if (text[i] == '&' || (len - i >= 5 && (memcmp(text + i, "[on]",
		    4) == 0 || memcmp(text + i, "<on>", 4) == 0)))
			return 1;
		if (!ident_start((unsigned char)text[i]) || (i > 0 &&
		    ident_start((unsigned char)text[i - 1]))) {
			i++;
			continue;
		}
		for (n = 0; i + n < len && (isalnum((unsigned char)text[i + n])
		    || text[i + n] == '_'); n++)
			;
		for (k = 0; k < sizeof words / sizeof words[0]; k++)
			if (strlen(words[k]) == n && memcmp(words[k], text + i,
			    n) == 0)
				return 1;
		/* a label before a brace: a{ or a:{ */
		k = i + n;
		while (k < len && text[k] == ' ')
			k++;
		if (k < len && (text[k] == '{' || text[k] == ':') &&
		    !is_down(text + i, n))
			return 1;
		i += n;
	}
	return 0;
}
