/* quotient_pres.c - the text of a misere quotient (see quotient.h):
 * generators, normal forms, relations and the P-portion.
 *
 * Generators are the values of the heaps that lie outside the submonoid
 * of the smaller heaps' values, less those that the others generate (the
 * earliest first), named a, b, ... in heap order.  An
 * element's normal form is its least monomial in degree-lexicographic
 * order (more of an earlier generator first), found breadth-first over
 * monomials whose exponents never go back to an earlier generator; the
 * relations are the minimal monomials that are not normal, each equal to
 * its normal form: a complete rewriting system, so the presentation
 * names the monoid without a search. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/watch.h"
#include "host/plugin.h"
#include "solve/quotient.h"

struct cg_quot_pres {
	const struct cg_quot *q;
	uint32_t nq, ngen, *gen_heap, *gen_elem;
	uint32_t *nf;           /* exponents of element x: nf[x * ngen ..] */
	uint32_t *order;        /* the elements in normal-form order */
	struct cg_buf rel;      /* the relations, " | r1, r2" */
};

static void
monomial(const struct cg_quot_pres *p, const uint32_t *e, struct cg_buf *out)
{
	uint32_t i;
	int any = 0;

	for (i = 0; i < p->ngen; i++) {
		if (e[i] == 0)
			continue;
		if (i < 26)
			cg_buf_addc(out, 'a' + (int)i);
		else
			cg_buf_addf(out, "g%u", i + 1);
		if (e[i] > 1)
			cg_buf_addf(out, "^%u", e[i]);
		any = 1;
	}
	if (!any)
		cg_buf_addc(out, '1');
}

static uint32_t
eval(const struct cg_quot_pres *p, const uint32_t *e)
{
	uint32_t y = 0, a, b;

	for (a = 0; a < p->ngen; a++)
		for (b = 0; b < e[a]; b++)
			y = cg_quot_mul(p->q, y, p->gen_elem[a]);
	return y;
}

static void
generators(struct cg_quot_pres *p)
{
	uint32_t *in, *el, ne = 1, h, i, k;

	in = cg_xcalloc(p->nq, sizeof *in);
	el = cg_xreallocarray(NULL, p->nq, sizeof *el);
	p->gen_heap = cg_xreallocarray(NULL, p->nq, sizeof *p->gen_heap);
	p->gen_elem = cg_xreallocarray(NULL, p->nq, sizeof *p->gen_elem);
	el[0] = 0;
	in[0] = 1;
	for (h = 1; h <= cg_quot_heaps(p->q); h++) {
		uint32_t a = cg_quot_phi(p->q, h);

		if (in[a])
			continue;
		p->gen_heap[p->ngen] = h;
		p->gen_elem[p->ngen++] = a;
		for (i = 0; i < ne; i++)
			for (k = 0; k < p->ngen; k++) {
				uint32_t x = cg_quot_mul(p->q, el[i],
				    p->gen_elem[k]);

				if (!in[x]) {
					in[x] = 1;
					el[ne++] = x;
				}
			}
	}
	/* keep a least set: a generator in the submonoid of the others
	 * goes, the earliest first */
	for (k = 0; k < p->ngen; k++) {
		memset(in, 0, p->nq * sizeof *in);
		el[0] = 0;
		in[0] = 1;
		ne = 1;
		for (i = 0; i < ne; i++)
			for (h = 0; h < p->ngen; h++) {
				uint32_t x;

				if (h == k)
					continue;
				x = cg_quot_mul(p->q, el[i], p->gen_elem[h]);
				if (!in[x]) {
					in[x] = 1;
					el[ne++] = x;
				}
			}
		if (!in[p->gen_elem[k]])
			continue;
		memmove(p->gen_elem + k, p->gen_elem + k + 1,
		    (p->ngen - k - 1) * sizeof *p->gen_elem);
		memmove(p->gen_heap + k, p->gen_heap + k + 1,
		    (p->ngen - k - 1) * sizeof *p->gen_heap);
		p->ngen--;
		k--;
	}
	free(in);
	free(el);
}

static void
walk(struct cg_quot_pres *p)
{
	uint32_t ng = p->ngen, w = ng ? ng : 1, *found, *lev, *elem, *m;
	uint32_t nl = 1, head, no = 0, k, j, x;
	int first = 1;

	found = cg_xcalloc(p->nq, sizeof *found);
	lev = cg_xcalloc((size_t)p->nq * w, sizeof *lev);
	elem = cg_xreallocarray(NULL, p->nq, sizeof *elem);
	m = cg_xcalloc(w, sizeof *m);
	elem[0] = 0;
	found[0] = 1;
	p->order[no++] = 0;
	for (head = 0; head < nl; head++) {
		const uint32_t *cur = lev + (size_t)head * w;
		uint32_t maxg = 0;

		for (k = 0; k < ng; k++)
			if (cur[k])
				maxg = k;
		for (k = maxg; k < ng; k++) {
			int minimal = 1;

			memcpy(m, cur, ng * sizeof *m);
			m[k]++;
			x = cg_quot_mul(p->q, elem[head], p->gen_elem[k]);
			if (!found[x]) {
				found[x] = 1;
				memcpy(lev + (size_t)nl * w, m, ng * sizeof *m);
				memcpy(p->nf + (size_t)x * w, m, ng * sizeof *m);
				elem[nl++] = x;
				p->order[no++] = x;
				continue;
			}
			/* a relation when every divisor m / g_j is normal */
			for (j = 0; j < ng && minimal; j++) {
				if (m[j] == 0)
					continue;
				m[j]--;
				if (memcmp(p->nf + (size_t)eval(p, m) * w, m,
				    ng * sizeof *m) != 0)
					minimal = 0;
				m[j]++;
			}
			if (!minimal)
				continue;
			cg_buf_addstr(&p->rel, first ? " | " : ", ");
			first = 0;
			monomial(p, m, &p->rel);
			cg_buf_addc(&p->rel, '=');
			monomial(p, p->nf + (size_t)x * w, &p->rel);
		}
	}
	free(m);
	free(elem);
	free(lev);
	free(found);
}

struct cg_quot_pres *
cg_quot_pres_new(const struct cg_quot *q)
{
	struct cg_quot_pres *p = cg_xcalloc(1, sizeof *p);

	p->q = q;
	p->nq = cg_quot_order(q);
	cg_buf_init(&p->rel);
	generators(p);
	p->nf = cg_xcalloc((size_t)p->nq * (p->ngen ? p->ngen : 1),
	    sizeof *p->nf);
	p->order = cg_xreallocarray(NULL, p->nq, sizeof *p->order);
	walk(p);
	return p;
}

void
cg_quot_pres_free(struct cg_quot_pres *p)
{
	if (p == NULL)
		return;
	free(p->gen_heap);
	free(p->gen_elem);
	free(p->nf);
	free(p->order);
	cg_buf_free(&p->rel);
	free(p);
}

void
cg_quot_presentation(const struct cg_quot_pres *p, struct cg_buf *out)
{
	uint32_t i;

	cg_buf_addc(out, '<');
	for (i = 0; i < p->ngen; i++) {
		if (i)
			cg_buf_addc(out, ',');
		if (i < 26)
			cg_buf_addc(out, 'a' + (int)i);
		else
			cg_buf_addf(out, "g%u", i + 1);
	}
	cg_buf_add(out, p->rel.data, p->rel.len);
	cg_buf_addc(out, '>');
}

uint32_t
cg_quot_generators(const struct cg_quot_pres *p, const uint32_t **heaps)
{
	*heaps = p->gen_heap;
	return p->ngen;
}

void
cg_quot_element(const struct cg_quot_pres *p, uint32_t x, struct cg_buf *out)
{
	monomial(p, p->nf + (size_t)x * (p->ngen ? p->ngen : 1), out);
}

void
cg_quot_pportion(const struct cg_quot_pres *p, struct cg_buf *out)
{
	uint32_t i;
	int first = 1;

	for (i = 0; i < p->nq; i++) {
		if (!cg_quot_is_p(p->q, p->order[i]))
			continue;
		if (!first)
			cg_buf_addstr(out, ", ");
		first = 0;
		cg_quot_element(p, p->order[i], out);
	}
}

/* The code of a ruleset spec: its parameters ("0.07" of "octal:0.07"),
 * else its name. */
static const char *
code_of(const char *spec)
{
	const char *c = strchr(spec, ':');

	return c != NULL && c[1] != '\0' ? c + 1 : spec;
}

void
cg_quot_print_ruleset(FILE *out, const char *spec, unsigned long n,
    uint32_t limit, int tsv, int progress)
{
	struct cg_plugin *pl = cg_plugin_get(spec, CG_EXIT_USAGE);
	const struct cg_heap_rules *r = NULL;
	struct cg_quot *q;
	struct cg_quot_pres *p;
	struct cg_buf b;
	const char *why = "rules it cannot use";
	char msg[256];
	uint32_t h, n0, per, x, i;
	const uint32_t *gh;

	if (CG_HAS_HOOK(pl, extension))
		r = cg_rs_extension(pl, CG_EXT_HEAP_RULES);
	if (r == NULL)
		cg_die(CG_EXIT_DATA, "ruleset '%s' is not a heap game (no %s)",
		    spec, CG_EXT_HEAP_RULES);
	if ((q = cg_quot_new(r, &why)) == NULL)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", spec, why);
	if (progress)
		cg_quot_progress(q, stderr);
	cg_quot_limit(q, limit);
	if (cg_quot_extend(q, (uint32_t)n, msg, sizeof msg) < 0)
		cg_die(cg_stop ? cg_stop_status() : CG_EXIT_DATA,
		    "ruleset '%s': misere quotient: %s; the quotient of heaps "
		    "up to %u has order %u", spec, msg, cg_quot_heaps(q),
		    cg_quot_order(q));
	p = cg_quot_pres_new(q);
	cg_buf_init(&b);
	if (tsv) {
		cg_buf_addf(&b, "%s\t%u\t%u\t", code_of(spec), cg_quot_order(q),
		    cg_quot_pcount(q));
		cg_quot_presentation(p, &b);
		cg_buf_addc(&b, '\t');
		cg_quot_pportion(p, &b);
		fprintf(out, "%s\n", cg_buf_str(&b));
		goto done;
	}
	fprintf(out, "quotient\t%s, heaps 1..%lu\n", code_of(spec), n);
	fprintf(out, "order\t%u\n", cg_quot_order(q));
	fprintf(out, "P-positions\t%u\n", cg_quot_pcount(q));
	cg_quot_presentation(p, &b);
	fprintf(out, "presentation\t%s\n", cg_buf_str(&b));
	b.len = 0;
	cg_quot_pportion(p, &b);
	fprintf(out, "P-portion\t{%s}\n", cg_buf_str(&b));
	b.len = 0;
	for (i = 0; i < cg_quot_generators(p, &gh); i++)
		cg_buf_addf(&b, "%s%c=%u", i ? " " : "", i < 26 ? 'a' + (int)i :
		    '?', gh[i]);
	fprintf(out, "generators\t%s\n", cg_buf_str(&b));
	b.len = 0;
	for (h = 1; h <= n; h++) {
		x = cg_quot_phi(q, h);
		cg_buf_addf(&b, "%s%u:", h > 1 ? " " : "", h);
		cg_quot_element(p, x, &b);
	}
	fprintf(out, "pretending\t%s\n", cg_buf_str(&b));
	if (cg_quot_last_growth(q) == 0)
		fprintf(out, "growth\tnone: every heap is the identity\n");
	else
		fprintf(out, "growth\tlast at heap %u\n",
		    cg_quot_last_growth(q));
	if (cg_quot_period(q, &n0, &per))
		fprintf(out, "periodic\tPhi(h + %u) = Phi(h) for h >= %u, "
		    "proven: the quotient of the whole game\n", per, n0);
	else
		fprintf(out, "periodic\tnot proven by heap %lu\n", n);
done:
	cg_buf_free(&b);
	cg_quot_pres_free(p);
	cg_quot_free(q);
}
