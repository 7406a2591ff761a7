/*
 * measure.c - every move must strictly decrease the file's measure, a
 * sum of non-negative terms, so that no game is infinite.
 *
 * Lines (grids and strips).  A rule applied along direction d changes
 * the cells of one line.  Write m_i = [after_i in S] - [before_i in S]
 * for the i-th cell of a match and a term with cell set S.  A counting
 * term changes by coef * sum m_i; a distance term (the cell's distance
 * to the edge in direction D) by coef * sum m_i * (A - i * p), where A is
 * the distance of the match's first cell and p = +1, 0 or -1 as d goes
 * towards D, across it, or away from it.  So for fixed characters and
 * repetition counts the change is an affine function of the A's:
 *     f = beta + sum_D alpha_D * A_D,   A_D >= Amin_D
 * (A_D is exact when the pattern ends at the edge in direction D, or
 * starts at the edge in the direction opposite D).  The
 * reader tries every way the pattern's classes can match (the changed
 * cells only: an unchanged cell has m = 0) and each group repeated its
 * least number of times and once more:
 *   - some free alpha_D > 0, or f >= 0 at the smallest A: the measure
 *     does not decrease: a load error with the example;
 *   - one more repetition of a group raises the worst f: a load error
 *     (enough repetitions reach f >= 0);
 *   - otherwise f < 0 everywhere: proved, nothing to do during play.
 * The proof needs f to be affine in the repetition counts, which holds
 * unless a repeated element changes a cell counted by a distance term;
 * such rules (and those with too many cases to try) are checked move by
 * move instead: the first move that does not decrease the measure stops
 * the solve with an error naming the rule's line.
 *
 * Graphs.  A rule recolours one vertex and rewrites each neighbour; the
 * neighbours' part can be repeated any number of times, so it must not
 * increase the measure, and the vertex's part must decrease it.
 *
 * Heaps.  With a = coef of 'counters' and b = coef of 'heaps' a heap of
 * n weighs a*n + b (never negative: a >= 0 and a + b >= 0); taking k and
 * leaving j heaps changes the measure by -a*k + b*(j - 1).  Amounts can
 * come with the parameters, so this is checked when they are known.
 */
#include <stdio.h>
#include <string.h>

#include "rules.h"

#define MAX_CASES 20000
#define MAX_KCOMBOS 64

/* projection of direction d on the axis of edge direction D (n e s w) */
static int
proj(int d, int D)
{
	switch (D) {
	case D_E: return dir_dc[d];
	case D_W: return -dir_dc[d];
	case D_N: return -dir_dr[d];
	default: return dir_dr[d];
	}
}

/* One expanded match: the element of each cell, in order. */
struct line {
	int elem[MAX_MATCH];
	int n;
	int edge_end;          /* the pattern ends at the edge */
	int edge_lead;         /* the pattern starts at the edge */
	int choice[MAX_MATCH]; /* the character before, for changed cells */
};

static int
edge_alone(const struct elem *x)
{
	return x->edge && x->match.bits[0] == 0 && x->match.bits[1] == 0 &&
	    x->match.bits[2] == 0 && x->match.bits[3] == 0;
}

/* The cells of a match with groups repeated k[] times; 0 when no line
 * has such a match (the edge alone between cells).  An element that may
 * be the edge at either end of the match is left out: it is never
 * changed, and the cells' distances are measured from the first cell. */
static int
expand(const struct rule *ru, const int *k, struct line *ln)
{
	int all[MAX_MATCH], na = 0, i = 0, rep, j;

	while (i < ru->ne) {
		int g = ru->gof[i];

		if (g >= 0) {
			for (rep = 0; rep < k[g]; rep++)
				for (j = 0; j < ru->g[g].count &&
				    na < MAX_MATCH; j++)
					all[na++] = ru->g[g].first + j;
			i += ru->g[g].count;
			continue;
		}
		if (na < MAX_MATCH)
			all[na++] = i;
		i++;
	}
	ln->n = 0;
	ln->edge_lead = ln->edge_end = 0;
	for (j = 0; j < na; j++) {
		const struct elem *x = &ru->e[all[j]];

		if (x->edge && (j == 0 || j == na - 1)) {
			if (edge_alone(x))
				*(j == 0 ? &ln->edge_lead : &ln->edge_end) = 1;
			continue;
		}
		if (edge_alone(x))
			return 0;
		ln->elem[ln->n++] = all[j];
	}
	return 1;
}

/* the opposite of an orthogonal direction, -1 for the others */
static int
back(int d)
{
	return d < 4 ? (d + 2) % 4 : -1;
}

/* The worst (largest) change over the A's for the line with its
 * choices; *grows when it is unbounded (a free alpha > 0). */
static long
change(const struct rules *r, const struct rule *ru, int d,
    const struct line *ln, int *grows)
{
	long alpha[4] = { 0, 0, 0, 0 }, beta = 0, f, amin;
	int t, i, D, have[4] = { 0, 0, 0, 0 };

	for (t = 0; t < r->nterm; t++) {
		const struct term *tm = &r->term[t];

		for (i = 0; i < ln->n; i++) {
			const struct elem *x = &ru->e[ln->elem[i]];
			int m;

			if (x->write < 0)
				continue;
			m = cs_has(&tm->set, (unsigned char)x->write) -
			    cs_has(&tm->set, (unsigned char)ln->choice[i]);
			if (m == 0)
				continue;
			if (tm->dir < 0) {
				beta += tm->coef * m;
			} else {
				alpha[tm->dir] += tm->coef * m;
				have[tm->dir] = 1;
				beta -= tm->coef * m * i * proj(d, tm->dir);
			}
		}
	}
	f = beta;
	*grows = 0;
	for (D = 0; D < 4; D++) {
		if (!have[D])
			continue;
		if (ln->edge_end && d == D) {
			f += alpha[D] * ln->n;   /* exact: the last cell is at
						  * distance 1 from the edge */
			continue;
		}
		if (ln->edge_lead && back(d) == D) {
			f += alpha[D];   /* exact: the first cell is at
					  * distance 1 from the edge */
			continue;
		}
		if (alpha[D] > 0)
			*grows = 1;
		amin = 1;
		for (i = 0; i < ln->n; i++)
			if (1 + (long)i * proj(d, D) > amin)
				amin = 1 + (long)i * proj(d, D);
		f += alpha[D] * amin;
	}
	return f;
}

/* Write the example "before' -> 'after" of a line into buf. */
static void
example(const struct rule *ru, const struct line *ln, char *buf, size_t cap)
{
	char a[MAX_MATCH + 3], b[MAX_MATCH + 3];
	int i, c, o = ln->edge_lead;

	if (o)
		a[0] = b[0] = '|';
	for (i = 0; i < ln->n && i < MAX_MATCH; i++) {
		const struct elem *x = &ru->e[ln->elem[i]];

		if (x->write >= 0) {
			a[o + i] = (char)ln->choice[i];
			b[o + i] = (char)x->write;
			continue;
		}
		for (c = 1; c < 256 && !cs_has(&x->match, (unsigned char)c);
		    c++)
			;
		a[o + i] = b[o + i] = (char)(c < 256 ? c : '?');
	}
	i += o;
	if (ln->edge_end)
		a[i] = b[i] = '|', i++;
	a[i] = b[i] = '\0';
	snprintf(buf, cap, "'%s' becoming '%s'", a, b);
}

struct search {
	const struct rules *r;
	const struct rule *ru;
	int d;
	struct line ln;
	long worst;            /* largest change seen */
	long cases;
	int grows, found;      /* found: a change >= 0 */
	char ex[2 * MAX_MATCH + 40];
};

/* Every choice of characters for the changed cells from cell i on. */
static void
choices(struct search *s, int i)
{
	const struct elem *x;
	long f;
	int c, grows;

	if (s->found || s->cases > MAX_CASES)
		return;
	while (i < s->ln.n && s->ru->e[s->ln.elem[i]].write < 0)
		i++;
	if (i == s->ln.n) {
		s->cases++;
		f = change(s->r, s->ru, s->d, &s->ln, &grows);
		if (f > s->worst)
			s->worst = f;
		if (grows || f >= 0) {
			s->grows = grows;
			s->found = 1;
			s->worst = f;
			example(s->ru, &s->ln, s->ex, sizeof s->ex);
		}
		return;
	}
	x = &s->ru->e[s->ln.elem[i]];
	for (c = 1; c < 256; c++)
		if (cs_has(&x->match, (unsigned char)c)) {
			s->ln.choice[i] = c;
			choices(s, i + 1);
		}
}

/* Does a repeated element change a cell a distance term counts? */
static int
affine(const struct rules *r, const struct rule *ru)
{
	int i, t, c;

	for (i = 0; i < ru->ne; i++) {
		const struct elem *x = &ru->e[i];

		if (ru->gof[i] < 0 || x->write < 0)
			continue;
		for (t = 0; t < r->nterm; t++) {
			if (r->term[t].dir < 0)
				continue;
			for (c = 1; c < 256; c++)
				if (cs_has(&x->match, (unsigned char)c) &&
				    cs_has(&r->term[t].set,
				    (unsigned char)c) !=
				    cs_has(&r->term[t].set,
				    (unsigned char)x->write))
					return 0;
		}
	}
	return 1;
}

/* The worst change with groups repeated k[] times; 1 with s->ex set when
 * a change >= 0 was found; -1 when there were too many cases. */
static int
worst_at(struct search *s, const int *k, long *worst)
{
	s->worst = -(1L << 40);
	if (!expand(s->ru, k, &s->ln)) {
		*worst = s->worst;     /* no line has this match */
		return 0;
	}
	s->found = 0;
	s->cases = 0;
	choices(s, 0);
	if (s->found)
		return 1;
	if (s->cases > MAX_CASES)
		return -1;
	*worst = s->worst;
	return 0;
}

/* 0 proved, 1 needs the run-time check, or a load error. */
static int
check_rule_dir(const struct cg_host *h, const struct rules *r,
    struct rule *ru, int d, struct cg_error *err)
{
	struct search *s;
	int k[MAX_ELEMS], combo, g, rc = 0, v;
	long base, more;

	if (!affine(r, ru) || ru->ng > 6)
		return 1;
	s = h->alloc(sizeof *s);
	if (s == NULL)
		return CG_ENOMEM;
	memset(s, 0, sizeof *s);
	s->r = r;
	s->ru = ru;
	s->d = d;
	for (combo = 0; combo < (1 << ru->ng) && rc == 0; combo++) {
		for (g = 0; g < ru->ng; g++)
			k[g] = ru->g[g].min + (combo >> g & 1);
		v = worst_at(s, k, &base);
		if (v < 0) {
			rc = 1;
			break;
		}
		if (v > 0) {
			char by[80];

			if (s->grows)
				snprintf(by, sizeof by, "raises it, the more the "
				    "farther from the edge");
			else if (s->worst == 0)
				snprintf(by, sizeof by, "leaves it as it is");
			else
				snprintf(by, sizeof by, "raises it by %ld",
				    s->worst);
			rc = rules_error(h, err, ru->line, "this rule does not "
			    "always decrease the measure (line %lu): along %s, "
			    "%s %s", r->measure_line, dir_name[d], s->ex, by);
			break;
		}
		/* one more repetition of each group must not raise it */
		for (g = 0; g < ru->ng && rc == 0; g++) {
			if (combo >> g & 1)
				continue;
			k[g]++;
			v = worst_at(s, k, &more);
			k[g]--;
			if (v < 0)
				rc = 1;
			else if (v > 0 || more > base)
				rc = rules_error(h, err, ru->line, "this rule "
				    "does not always decrease the measure (line "
				    "%lu): along %s, each repetition of its "
				    "group adds to it", r->measure_line,
				    dir_name[d]);
		}
	}
	h->free(s);
	return rc;
}

int
measure_check_lines(const struct cg_host *h, struct rules *r,
    struct cg_error *err)
{
	int i, j, rc;

	for (i = 0; i < r->nrule; i++) {
		struct rule *ru = &r->rule[i];

		for (j = 0; j < ru->ndirs; j++) {
			rc = check_rule_dir(h, r, ru, ru->dirs[j], err);
			if (rc < 0)
				return rc;
			if (rc > 0)
				ru->check = 1;
		}
		r->runtime_check |= ru->check;
	}
	return CG_OK;
}

/* coef * ([after in S] - [before in S]) summed over the terms; 0 is a
 * vertex that goes. */
static long
tint_change(const struct rules *r, int before, int after)
{
	long f = 0;
	int t;

	for (t = 0; t < r->nterm; t++)
		f += r->term[t].coef *
		    ((after != 0 && cs_has(&r->term[t].set,
		    (unsigned char)after)) -
		    (before != 0 && cs_has(&r->term[t].set,
		    (unsigned char)before)));
	return f;
}

int
measure_check_graph(const struct cg_host *h, struct rules *r,
    struct cg_error *err)
{
	int i, c;
	const char *p;

	for (i = 0; i < r->nrule; i++) {
		const struct rule *ru = &r->rule[i];

		for (p = r->cells; *p; p++) {
			c = (unsigned char)*p;
			if (tint_change(r, c, ru->nmap[c]) > 0)
				return rules_error(h, err, ru->line, "this rule "
				    "does not always decrease the measure (line "
				    "%lu): each neighbour tinted '%c' adds to "
				    "it", r->measure_line, c);
		}
		for (p = r->cells; *p; p++) {
			c = (unsigned char)*p;
			if (cs_has(&ru->vmatch, (unsigned char)c) &&
			    tint_change(r, c, ru->vwrite) >= 0)
				return rules_error(h, err, ru->line, "this rule "
				    "does not always decrease the measure (line "
				    "%lu): a vertex tinted '%c' without "
				    "neighbours", r->measure_line, c);
		}
	}
	return CG_OK;
}

/* The measure of a board of cells. */
long
measure_cells(const struct rules *r, const unsigned char *cells, int rows,
    int cols)
{
	long total = 0, dist;
	int t, i, j;

	for (i = 0; i < rows; i++)
		for (j = 0; j < cols; j++) {
			unsigned char c = cells[(size_t)i * cols + j];

			for (t = 0; t < r->nterm; t++) {
				const struct term *tm = &r->term[t];

				if (!cs_has(&tm->set, c))
					continue;
				switch (tm->dir) {
				case D_N: dist = i + 1; break;
				case D_S: dist = rows - i; break;
				case D_E: dist = cols - j; break;
				case D_W: dist = j + 1; break;
				default: dist = 1; break;
				}
				total += tm->coef * dist;
			}
		}
	return total;
}

/* The heap measure's coefficients. */
static void
heap_coefs(const struct rules *r, long *a, long *b)
{
	int t;

	*a = *b = 0;
	for (t = 0; t < r->nterm; t++)
		if (r->term[t].what == 0)
			*a += r->term[t].coef;
		else
			*b += r->term[t].coef;
}

/* At load time the host adds the file and line; with parameters (at
 * init) the message carries them. */
static int
heap_fail(const struct cg_context *cx, const struct rules *r,
    const struct rule *ru, uint32_t k, int j)
{
	if (r->nparam == 0)
		return rules_error(cx->host, cx->err, ru->line, "this rule does "
		    "not always decrease the measure (line %lu): taking %u and "
		    "leaving %d heap%s", r->measure_line, k, j,
		    j == 1 ? "" : "s");
	return cx->host->error(cx->err, 0, "%s:%lu: this rule does not "
	    "always decrease the measure (line %lu): taking %u and leaving %d "
	    "heap%s", r->file, ru->line, r->measure_line, k, j,
	    j == 1 ? "" : "s");
}

/* Every move the parameters allow decreases the heap measure. */
int
measure_check_heaps(const struct cg_context *cx, const struct rules *r,
    const struct rstate *st)
{
	long a, b;
	int i, j;
	size_t n, q;

	heap_coefs(r, &a, &b);
	if (a < 0 || a + b < 0)
		return rules_error(cx->host, cx->err, r->measure_line, "the "
		    "measure can be negative (a heap of %s weighs %ld)",
		    a < 0 ? "many counters" : "one counter", a < 0 ? a : a + b);
	for (i = 0; i < r->nrule; i++) {
		const struct rule *ru = &r->rule[i];
		const uint32_t *amt = NULL;
		uint32_t one = 1;

		switch (ru->amt_kind) {
		case AMT_ANY:
			amt = &one;       /* the smallest take is the worst */
			n = 1;
			break;
		case AMT_LIST:
			amt = ru->amt;
			n = ru->namt;
			break;
		default:
			if (st->pcode[ru->amt_param] != NULL) {
				const struct code *c = st->pcode[ru->amt_param];

				for (q = 0; q <= c->n; q++)
					for (j = 0; j <= 4; j++)
						if ((c->digit[q] >> j & 1) &&
						    -a * (long)q + b * (j - 1)
						    >= 0)
							return heap_fail(cx, r,
							    ru, (uint32_t)q,
							    j);
				continue;
			}
			amt = st->pset[ru->amt_param];
			n = st->npset[ru->amt_param];
			break;
		}
		for (q = 0; q < n; q++)
			for (j = 0; j <= 4; j++)
				if ((ru->leave >> j & 1) &&
				    -a * (long)amt[q] + b * (j - 1) >= 0)
					return heap_fail(cx, r, ru, amt[q], j);
	}
	return CG_OK;
}
