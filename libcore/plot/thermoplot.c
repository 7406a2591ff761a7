/* thermoplot.c - thermographs as SVG (see thermoplot.h).
 *
 * Values are exact (GMP rationals) until they become pixels, so that tick
 * labels print as the thermograph does ("7/4") and equal values are found
 * equal. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>

#include "base/util.h"
#include "plot/svg.h"
#include "plot/thermoplot.h"
#include "values/rational.h"

enum {
	PLOT_W = 480, PLOT_H = 320,  /* the view, in pixels */
	MARGIN_L = 40, MARGIN_R = 40, MARGIN_T = 40,
	TAIL = 12,                   /* the walls' tails below 0 */
	HOOK = 5,                    /* the mast's hook */
	TICK_MAJOR = 12, TICK_MINOR = 6,
	MAX_SLOPE = 64
};

/* CGSuite's four, then more so that a fifth is not black again */
static const char *const colour[] = { "black", "blue", "red", "#00b200",
    "#e07000", "#8000a0", "#008080", "#804000" };

/* A wall: critical temperatures t[0] > t[1] > ... > t[n-1], the value
 * v[i] at t[i], and slopes dv/dt: s[0] above t[0] (0: the mast), s[i] on
 * [t[i], t[i-1]], s[n] below t[n-1]. */
struct wall {
	size_t n;
	mpq_t *t, *v;
	long *s;
};

struct thermograph {
	char *label;
	mpq_t mast, temp;
	struct wall w[2];          /* left, right */
};

struct cg_tplot {
	struct thermograph *g;
	size_t n, cap;
};

/* ------------------------------------------------------------------ */
/* reading "Thermograph(m,[t..],[s..],m,[t..],[s..])"                  */

struct reader {
	const char *s;
	struct cg_buf *err;
};

static void
skip_space(struct reader *r)
{
	while (isspace((unsigned char)*r->s))
		r->s++;
}

static int
expect(struct reader *r, char c)
{
	skip_space(r);
	if (*r->s != c) {
		cg_buf_addf(r->err, "expected '%c' at '%.12s'", c, r->s);
		return -1;
	}
	r->s++;
	return 0;
}

static int
read_q(struct reader *r, mpq_t q)
{
	char tmp[256];
	size_t n;

	skip_space(r);
	n = strspn(r->s, "-0123456789/");
	if (n == 0 || n >= sizeof tmp) {
		cg_buf_addf(r->err, "expected a number at '%.12s'", r->s);
		return -1;
	}
	memcpy(tmp, r->s, n);
	tmp[n] = '\0';
	if (cg_q_parse(q, tmp) < 0) {
		cg_buf_addf(r->err, "bad number '%s'", tmp);
		return -1;
	}
	r->s += n;
	return 0;
}

/* "[a,b,...]" of rationals (q non-NULL) or of slopes. */
static int
read_list(struct reader *r, mpq_t **q, long **sl, size_t *n)
{
	size_t cap = 0;

	*n = 0;
	if (expect(r, '[') < 0)
		return -1;
	skip_space(r);
	if (*r->s == ']') {
		r->s++;
		return 0;
	}
	for (;;) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 4;
			if (q)
				*q = cg_xreallocarray(*q, cap, sizeof **q);
			else
				*sl = cg_xreallocarray(*sl, cap, sizeof **sl);
		}
		if (q) {
			mpq_init((*q)[*n]);
			(*n)++;
			if (read_q(r, (*q)[*n - 1]) < 0)
				return -1;
		} else {
			char *end;

			skip_space(r);
			errno = 0;
			(*sl)[*n] = strtol(r->s, &end, 10);
			if (end == r->s || errno != 0 ||
			    labs((*sl)[*n]) > MAX_SLOPE) {
				cg_buf_addf(r->err, "bad slope at '%.12s'",
				    r->s);
				return -1;
			}
			r->s = end;
			(*n)++;
		}
		skip_space(r);
		if (*r->s == ']') {
			r->s++;
			return 0;
		}
		if (expect(r, ',') < 0)
			return -1;
	}
}

static void
wall_free(struct wall *w)
{
	size_t i;

	for (i = 0; i < w->n; i++) {
		mpq_clear(w->t[i]);
		if (w->v)
			mpq_clear(w->v[i]);
	}
	free(w->t);
	free(w->v);
	free(w->s);
	memset(w, 0, sizeof *w);
}

/* One wall after its mast value; fills in the values at the critical
 * temperatures. */
static int
read_wall(struct reader *r, struct wall *w, const mpq_t mast)
{
	size_t ns = 0, i;
	mpq_t d;

	if (expect(r, ',') < 0 || read_list(r, &w->t, NULL, &w->n) < 0 ||
	    expect(r, ',') < 0 || read_list(r, NULL, &w->s, &ns) < 0)
		return -1;
	if (ns != w->n + 1) {
		cg_buf_addf(r->err, "%zu slopes for %zu critical temperatures "
		    "(one more is needed)", ns, w->n);
		return -1;
	}
	if (w->s[0] != 0) {
		cg_buf_addstr(r->err, "the mast is not vertical (first slope "
		    "not 0)");
		return -1;
	}
	for (i = 1; i < w->n; i++)
		if (mpq_cmp(w->t[i], w->t[i - 1]) >= 0) {
			cg_buf_addstr(r->err, "critical temperatures not "
			    "decreasing");
			return -1;
		}
	w->v = cg_xreallocarray(NULL, w->n + 1, sizeof *w->v);
	mpq_init(d);
	for (i = 0; i < w->n; i++) {
		mpq_init(w->v[i]);
		if (i == 0) {
			mpq_set(w->v[0], mast);
			continue;
		}
		/* v[i] = v[i-1] + s[i] (t[i] - t[i-1]) */
		mpq_sub(d, w->t[i], w->t[i - 1]);
		mpz_mul_si(mpq_numref(d), mpq_numref(d), w->s[i]);
		mpq_canonicalize(d);
		mpq_add(w->v[i], w->v[i - 1], d);
	}
	mpq_clear(d);
	return 0;
}

/* The value of w at t. */
static void
wall_value(const struct wall *w, const mpq_t mast, const mpq_t t, mpq_t out)
{
	size_t i = 0;
	mpq_t d;

	while (i < w->n && mpq_cmp(w->t[i], t) > 0)
		i++;
	if (i == 0) {
		mpq_set(out, mast);
		return;
	}
	mpq_init(d);
	mpq_sub(d, t, w->t[i - 1]);
	mpz_mul_si(mpq_numref(d), mpq_numref(d), w->s[i]);
	mpq_canonicalize(d);
	mpq_add(out, w->v[i - 1], d);
	mpq_clear(d);
}

/* The slope of w just below t. */
static long
wall_slope_below(const struct wall *w, const mpq_t t)
{
	size_t i = 0;

	while (i < w->n && mpq_cmp(w->t[i], t) >= 0)
		i++;
	return w->s[i];
}

struct cg_tplot *
cg_tplot_new(void)
{
	return cg_xcalloc(1, sizeof(struct cg_tplot));
}

static void
thermograph_free(struct thermograph *g)
{
	free(g->label);
	mpq_clear(g->mast);
	mpq_clear(g->temp);
	wall_free(&g->w[0]);
	wall_free(&g->w[1]);
}

void
cg_tplot_free(struct cg_tplot *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->n; i++)
		thermograph_free(&p->g[i]);
	free(p->g);
	free(p);
}

size_t
cg_tplot_count(const struct cg_tplot *p)
{
	return p->n;
}

int
cg_tplot_add(struct cg_tplot *p, const char *text, const char *label,
    struct cg_buf *err)
{
	struct reader r = { text, err };
	struct thermograph g;
	mpq_t mast2;
	int s, ok = 0;

	memset(&g, 0, sizeof g);
	mpq_init(g.mast);
	mpq_init(g.temp);
	mpq_init(mast2);
	skip_space(&r);
	if (strncmp(r.s, "Thermograph", 11) != 0) {
		cg_buf_addstr(err, "not a thermograph (expected "
		    "'Thermograph(')");
		goto done;
	}
	r.s += 11;
	if (expect(&r, '(') < 0 || read_q(&r, g.mast) < 0 ||
	    read_wall(&r, &g.w[0], g.mast) < 0 || expect(&r, ',') < 0 ||
	    read_q(&r, mast2) < 0 || read_wall(&r, &g.w[1], mast2) < 0 ||
	    expect(&r, ')') < 0)
		goto done;
	skip_space(&r);
	if (*r.s != '\0') {
		cg_buf_addf(err, "text after the thermograph: '%.12s'", r.s);
		goto done;
	}
	if (!mpq_equal(g.mast, mast2)) {
		cg_buf_addstr(err, "the two walls have different masts");
		goto done;
	}
	/* the temperature: where the walls leave the mast (-1 for an
	 * integer, whose walls never do) */
	mpq_set_si(g.temp, -1, 1);
	for (s = 0; s < 2; s++)
		if (g.w[s].n > 0 && mpq_cmp(g.w[s].t[0], g.temp) > 0)
			mpq_set(g.temp, g.w[s].t[0]);
	g.label = cg_xstrdup(label);
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 4;
		p->g = cg_xreallocarray(p->g, p->cap, sizeof *p->g);
	}
	p->g[p->n++] = g;
	ok = 1;
done:
	mpq_clear(mast2);
	if (!ok)
		thermograph_free(&g);
	return ok ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* the view                                                            */

struct view {
	mpq_t bot, top, left, right;   /* exact, before growing to fill */
	double b, t, l, r, s;          /* the view filling the chart */
	int subzero;
};

static double
px_x(const struct view *v, double val)
{
	return MARGIN_L + (v->l - val) * v->s;
}

static double
px_y(const struct view *v, double t)
{
	return MARGIN_T + (v->t - t) * v->s;
}

static void
view_make(const struct cg_tplot *p, int subzero, struct view *v)
{
	mpq_t c, val;
	size_t i, j;
	int s, first = 1;
	double w, h, sx, sy;

	mpq_inits(v->bot, v->top, v->left, v->right, c, val, NULL);
	v->subzero = subzero;
	mpq_set_si(v->bot, subzero ? -1 : 0, 1);
	/* top: 4/3 of the largest temperature, at least 0 */
	for (i = 0; i < p->n; i++)
		for (s = 0; s < 2; s++) {
			if (p->g[i].w[s].n == 0)
				continue;
			mpq_set_ui(c, 4, 3);
			mpq_mul(c, c, p->g[i].w[s].t[0]);
			if (mpq_cmp(c, v->top) > 0)
				mpq_set(v->top, c);
		}
	if (subzero) {
		mpq_set_ui(c, 1, 3);
		mpq_add(v->top, v->top, c);
	}
	if (mpq_sgn(v->top) == 0)
		mpq_set_ui(v->top, 1, 1);
	/* sideways: every wall value at a critical point or at the bottom */
	for (i = 0; i < p->n; i++)
		for (s = 0; s < 2; s++) {
			const struct wall *wl = &p->g[i].w[s];

			for (j = 0; j <= wl->n; j++) {
				if (j < wl->n && mpq_cmp(wl->t[j], v->bot) > 0)
					mpq_set(c, wl->t[j]);
				else
					mpq_set(c, v->bot);
				wall_value(wl, p->g[i].mast, c, val);
				if (first || mpq_cmp(val, v->left) > 0)
					mpq_set(v->left, val);
				if (first || mpq_cmp(val, v->right) < 0)
					mpq_set(v->right, val);
				first = 0;
			}
		}
	v->b = mpq_get_d(v->bot);
	v->t = mpq_get_d(v->top);
	v->l = mpq_get_d(v->left);
	v->r = mpq_get_d(v->right);
	w = v->l - v->r;
	h = v->t - v->b;
	sy = PLOT_H / h;
	sx = w > 0 ? PLOT_W / w : sy;
	v->s = sx < sy ? sx : sy;
	if (v->s >= 1)
		v->s = floor(v->s);
	/* grow to fill the chart: sideways evenly, upwards */
	v->l += (PLOT_W / v->s - w) / 2;
	v->r -= (PLOT_W / v->s - w) / 2;
	v->t += PLOT_H / v->s - h;
	mpq_clears(c, val, NULL);
}

static void
view_free(struct view *v)
{
	mpq_clears(v->bot, v->top, v->left, v->right, NULL);
}

/* ------------------------------------------------------------------ */
/* ticks                                                               */

struct tick {
	double at;                 /* pixel along the axis */
	char *label;               /* NULL: no label */
	int major;
};

struct ticks {
	struct tick *k;
	size_t n, cap;
	mpq_t *seen;               /* values ticked already */
	size_t nseen;
};

static void
tick_add(struct ticks *tk, double at, const char *label, int major)
{
	if (tk->n == tk->cap) {
		tk->cap = tk->cap ? tk->cap * 2 : 16;
		tk->k = cg_xreallocarray(tk->k, tk->cap, sizeof *tk->k);
	}
	tk->k[tk->n].at = at;
	tk->k[tk->n].label = label ? cg_xstrdup(label) : NULL;
	tk->k[tk->n].major = major;
	tk->n++;
}

/* A tick at the exact value q, unless one is there already. */
static void
tick_q(struct ticks *tk, const mpq_t q, double at, int major)
{
	struct cg_buf b;
	size_t i;

	for (i = 0; i < tk->nseen; i++)
		if (mpq_equal(tk->seen[i], q))
			return;
	tk->seen = cg_xreallocarray(tk->seen, tk->nseen + 1,
	    sizeof *tk->seen);
	mpq_init(tk->seen[tk->nseen]);
	mpq_set(tk->seen[tk->nseen++], q);
	cg_buf_init(&b);
	cg_q_print(&b, q);
	tick_add(tk, at, cg_buf_str(&b), major);
	cg_buf_free(&b);
}

static void
ticks_free(struct ticks *tk)
{
	size_t i;

	for (i = 0; i < tk->n; i++)
		free(tk->k[i].label);
	for (i = 0; i < tk->nseen; i++)
		mpq_clear(tk->seen[i]);
	free(tk->k);
	free(tk->seen);
}

/* Whole-number ticks from lo to hi, at least 16 pixels apart. */
static void
tick_whole(struct ticks *tk, double lo, double hi, double scale,
    double (*px)(const struct view *, double), const struct view *v)
{
	long step = (long)ceil(16 / scale), k;
	mpq_t q;

	if (step < 1)
		step = 1;
	mpq_init(q);
	for (k = (long)ceil(lo / step) * step; k <= hi; k += step) {
		mpq_set_si(q, k, 1);
		tick_q(tk, q, px(v, (double)k), 0);
	}
	mpq_clear(q);
}

/* The value and the temperature ticks: means and temperatures first (they
 * keep their labels when labels would collide), then critical values and
 * temperatures, then whole numbers. */
static void
ticks_make(const struct cg_tplot *p, const struct view *v,
    struct ticks *val, struct ticks *temp)
{
	mpq_t q;
	size_t i, j;
	int s;

	mpq_init(q);
	for (i = 0; i < p->n; i++) {
		tick_q(val, p->g[i].mast, px_x(v, mpq_get_d(p->g[i].mast)), 1);
		if (mpq_cmp(p->g[i].temp, v->bot) >= 0)
			tick_q(temp, p->g[i].temp,
			    px_y(v, mpq_get_d(p->g[i].temp)), 1);
	}
	for (i = 0; i < p->n; i++)
		for (s = 0; s < 2; s++) {
			const struct wall *wl = &p->g[i].w[s];

			for (j = 0; j < wl->n; j++)
				if (mpq_cmp(wl->t[j], v->bot) >= 0) {
					tick_q(val, wl->v[j],
					    px_x(v, mpq_get_d(wl->v[j])), 1);
					tick_q(temp, wl->t[j],
					    px_y(v, mpq_get_d(wl->t[j])), 1);
				}
			wall_value(wl, p->g[i].mast, v->bot, q);
			tick_q(val, q, px_x(v, mpq_get_d(q)), 1);
		}
	mpq_clear(q);
	tick_whole(val, v->r, v->l, v->s, px_x, v);
	tick_whole(temp, v->b, v->t, v->s, px_y, v);
}

/* Does [lo, hi] overlap a taken interval (with 4 pixels to spare)? */
static int
taken(double *iv, size_t n, double lo, double hi)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (lo < iv[2 * i + 1] + 4 && hi > iv[2 * i] - 4)
			return 1;
	return 0;
}

/* Label width estimate for 12-pixel sans-serif digits. */
static double
text_width(const char *s)
{
	return 7.0 * (double)strlen(s);
}

static void
draw_ticks(struct cg_buf *out, const struct ticks *tk, int vertical,
    double axis)
{
	double *iv = cg_xreallocarray(NULL, tk->n + 1, 2 * sizeof *iv);
	size_t i, niv = 0;

	for (i = 0; i < tk->n; i++) {
		double e = tk->k[i].major ? TICK_MAJOR : TICK_MINOR;
		const char *cls = tk->k[i].major ? "tick major" : "tick";

		if (vertical)
			cg_svg_line(out, cls, axis - e, tk->k[i].at, axis + e,
			    tk->k[i].at, "");
		else
			cg_svg_line(out, cls, tk->k[i].at, axis - e,
			    tk->k[i].at, axis + e, "");
	}
	for (i = 0; i < tk->n; i++) {
		const char *l = tk->k[i].label;
		double lo, hi;

		if (l == NULL || (vertical && strcmp(l, "0") == 0))
			continue;  /* the value axis crosses at 0 */
		if (vertical) {
			lo = tk->k[i].at - 6;
			hi = tk->k[i].at + 6;
		} else {
			lo = tk->k[i].at - text_width(l) / 2;
			hi = tk->k[i].at + text_width(l) / 2;
		}
		if (taken(iv, niv, lo, hi))
			continue;
		iv[2 * niv] = lo;
		iv[2 * niv + 1] = hi;
		niv++;
		if (vertical)
			cg_svg_text(out, "temperature-label",
			    axis + TICK_MAJOR + 3, tk->k[i].at + 4, "start", l);
		else
			cg_svg_text(out, "value-label", tk->k[i].at,
			    axis + TICK_MAJOR + 14, "middle", l);
	}
	free(iv);
}

/* ------------------------------------------------------------------ */
/* drawing                                                             */

/* Points of one wall: from the top of the view down its critical points
 * to the bottom, then the tail. */
static size_t
wall_points(const struct thermograph *g, const struct wall *w,
    const struct view *v, double dx, double *xy)
{
	size_t n = 0, j;
	mpq_t q;

	mpq_init(q);
	xy[n++] = px_x(v, mpq_get_d(g->mast)) + dx;
	xy[n++] = px_y(v, v->t);
	for (j = 0; j < w->n; j++)
		if (mpq_cmp(w->t[j], v->bot) > 0) {
			xy[n++] = px_x(v, mpq_get_d(w->v[j])) + dx;
			xy[n++] = px_y(v, mpq_get_d(w->t[j]));
		}
	wall_value(w, g->mast, v->bot, q);
	xy[n++] = px_x(v, mpq_get_d(q)) + dx;
	xy[n++] = px_y(v, v->b);
	if (!v->subzero) {
		/* below 0 the wall goes on with its slope there */
		xy[n] = xy[n - 2] + (double)wall_slope_below(w, v->bot) * TAIL;
		xy[n + 1] = xy[n - 1] + TAIL;
		n += 2;
	}
	mpq_clear(q);
	return n / 2;
}

/* CGSuite's displacement of the i-th thermograph: 0, -2, 2, -4, 4, ... */
static double
displacement(size_t i)
{
	double m = (double)(2 * ((i + 1) / 2));

	return i % 2 == 0 ? m : -m;
}

static void
draw_thermograph(struct cg_buf *out, const struct thermograph *g, size_t i,
    const struct view *v, double taxis, double vaxis)
{
	const char *c = colour[i % (sizeof colour / sizeof *colour)];
	double dx = displacement(i), mx, my, *xy;
	char extra[96];
	int s;

	cg_buf_addf(out, "<g class=\"thermograph\" stroke=\"%s\" fill=\"none\" "
	    "stroke-width=\"1.5\">\n<title>", c);
	cg_svg_escape(out, g->label);
	cg_buf_addstr(out, "</title>\n");
	mx = px_x(v, mpq_get_d(g->mast)) + dx;
	my = px_y(v, mpq_get_d(g->temp));
	if (mpq_cmp(g->temp, v->bot) >= 0) {
		/* the mean and the temperature: guides to both axes */
		cg_svg_line(out, "mean-guide", mx, my, mx, vaxis,
		    "stroke-width=\"0.75\" stroke-dasharray=\"4 3\"");
		cg_svg_line(out, "temperature-guide", mx, my, taxis, my,
		    "stroke-width=\"0.75\" stroke-dasharray=\"4 3\"");
	}
	for (s = 0; s < 2; s++) {
		size_t n;

		xy = cg_xreallocarray(NULL, g->w[s].n + 4, 2 * sizeof *xy);
		n = wall_points(g, &g->w[s], v, dx, xy);
		cg_svg_polyline(out, s == 0 ? "left-wall" : "right-wall", xy,
		    n, "");
		free(xy);
	}
	/* the hook: the mast goes on upwards for ever */
	{
		double hook[6] = { mx - HOOK, MARGIN_T + HOOK, mx, MARGIN_T,
		    mx + HOOK, MARGIN_T + HOOK };

		cg_svg_polyline(out, "hook", hook, 3, "");
	}
	if (mpq_cmp(g->temp, v->bot) >= 0) {
		snprintf(extra, sizeof extra, "r=\"3\" fill=\"%s\"", c);
		cg_buf_addstr(out, "<circle class=\"mean-temperature\"");
		cg_buf_addstr(out, " cx=\"");
		cg_svg_num(out, mx);
		cg_buf_addstr(out, "\" cy=\"");
		cg_svg_num(out, my);
		cg_buf_addf(out, "\" %s/>\n", extra);
	}
	cg_buf_addstr(out, "</g>\n");
}

static void
draw_legend(struct cg_buf *out, const struct thermograph *g, size_t i,
    double y)
{
	const char *c = colour[i % (sizeof colour / sizeof *colour)];
	struct cg_buf t;
	char extra[64];

	snprintf(extra, sizeof extra, "stroke=\"%s\" stroke-width=\"1.5\"", c);
	cg_svg_line(out, "legend-line", MARGIN_L, y - 4, MARGIN_L + 24, y - 4,
	    extra);
	cg_buf_init(&t);
	cg_buf_addf(&t, "%s   mean ", g->label);
	cg_q_print(&t, g->mast);
	cg_buf_addstr(&t, ", temperature ");
	cg_q_print(&t, g->temp);
	cg_svg_text(out, "legend", MARGIN_L + 32, y, "start", cg_buf_str(&t));
	cg_buf_free(&t);
}

void
cg_tplot_svg(const struct cg_tplot *p, int subzero, struct cg_buf *out)
{
	struct view v;
	struct ticks val, temp;
	double vaxis, taxis, bottom, width, height;
	size_t i;

	memset(&val, 0, sizeof val);
	memset(&temp, 0, sizeof temp);
	view_make(p, subzero, &v);
	ticks_make(p, &v, &val, &temp);
	/* the value axis at temperature 0, the temperature axis at value 0
	 * (or at the chart's edge when 0 is off it) */
	vaxis = px_y(&v, 0);
	taxis = v.l < 0 ? MARGIN_L : v.r > 0 ? MARGIN_L + PLOT_W :
	    px_x(&v, 0);
	bottom = px_y(&v, v.b) + (subzero ? 0 : TAIL);
	width = MARGIN_L + PLOT_W + MARGIN_R;
	height = bottom + 56 + 18 * (double)p->n;
	cg_svg_begin(out, width, height, "Thermographs");
	cg_buf_addstr(out, "<g class=\"axes\" stroke=\"#b0b0b0\">\n");
	cg_svg_line(out, "value-axis", MARGIN_L - 24, vaxis,
	    MARGIN_L + PLOT_W + 24, vaxis, "");
	cg_svg_line(out, "temperature-axis", taxis, MARGIN_T - 16, taxis,
	    bottom, "");
	draw_ticks(out, &val, 0, vaxis);
	draw_ticks(out, &temp, 1, taxis);
	cg_buf_addstr(out, "</g>\n");
	/* the axis' title above it, kept inside the picture */
	cg_svg_text(out, "axis-label", taxis < MARGIN_L + PLOT_W - 8 ? taxis :
	    MARGIN_L + PLOT_W - 8, MARGIN_T - 22, "middle", "temperature");
	cg_svg_text(out, "axis-label", MARGIN_L + PLOT_W / 2, bottom + 32,
	    "middle", "value");
	cg_svg_text(out, "axis-label", MARGIN_L - 24, bottom + 32, "start",
	    "\xe2\x86\x90 Left");
	cg_svg_text(out, "axis-label", MARGIN_L + PLOT_W + 24, bottom + 32,
	    "end", "Right \xe2\x86\x92");
	for (i = 0; i < p->n; i++)
		draw_thermograph(out, &p->g[i], i, &v, taxis, vaxis);
	for (i = 0; i < p->n; i++)
		draw_legend(out, &p->g[i], i, bottom + 56 + 18 * (double)i);
	cg_svg_end(out);
	ticks_free(&val);
	ticks_free(&temp);
	view_free(&v);
}
