/*
 * entry.c - the rules interpreter (rules.so).  It is no ruleset itself:
 * its descriptor has the flag CG_INTERPRETER and a load() hook, which
 * the host calls with the text of a rules file NAME.cgr found on the
 * plugin path.  load() compiles the file (read.c) and returns a
 * descriptor of its own for ruleset NAME: the file's name, summary and
 * flags, and the hooks of its board kind.  init_desc() makes a state
 * pointing at the compiled file; the state's scratch is private, the
 * compiled file shared and never written (see rules.h).
 *
 * The ruleset's version is the file's 'version' followed by '/' and a
 * hash of its text, so a knowledge base built with one text of a rules
 * file is refused with another.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

struct rfile {
	struct cg_ruleset rs;  /* first: what the host is given */
	struct rules r;
	char name[256];
	char file[1024];
	char version[96];
	char params_help[300];
};

int
state_child(const struct cg_context *cx, size_t n)
{
	struct rstate *st = cx->state;
	unsigned char *p;

	if (n <= st->childcap)
		return CG_OK;
	p = cx->host->realloc(st->child, n);
	if (p == NULL)
		return CG_ENOMEM;
	st->child = p;
	st->childcap = n;
	return CG_OK;
}

static void
rules_fini(const struct cg_host *h, void *state)
{
	struct rstate *st = state;

	if (st == NULL)
		return;
	heap_params_free(h, st);
	grid_memo_free(h, st->memo);
	grid_seen_free(h, st->seen);
	grid_frozen_cache_free(h, st->fzcache);
	h->free(st->endpos);
	h->free(st->child);
	h->free(st);
}

static int
rules_init(const struct cg_ruleset *self, const struct cg_host *h,
    const char *params, void **state, struct cg_error *err)
{
	const struct rfile *rf = (const struct rfile *)(const void *)self;
	struct rstate *st;
	int rc;

	if (rf->r.kind != BOARD_HEAPS && params != NULL && *params != '\0')
		return h->error(err, 0, "ruleset '%s' takes no parameters",
		    rf->name);
	st = h->alloc(sizeof *st);
	if (st == NULL)
		return CG_ENOMEM;
	memset(st, 0, sizeof *st);
	st->r = &rf->r;
	runs_init(st);
	if (rf->r.kind == BOARD_HEAPS &&
	    (rc = heap_params(h, &rf->r, params, st, err)) < 0) {
		rules_fini(h, st);
		return rc < 0 && rc != CG_ENOMEM ? CG_EPARAM : rc;
	}
	*state = st;
	return CG_OK;
}

/* A heap game's measure, checked once at load time: its sign always,
 * its moves when no parameter gives amounts (else at init). */
static int
heap_check_load(const struct cg_host *h, const struct rules *r,
    struct cg_error *err)
{
	struct rstate st;
	struct cg_context cx = { h, &st, err };
	int rc;

	memset(&st, 0, sizeof st);
	st.r = r;
	if (r->nparam > 0) {
		/* parameters unknown yet: only the sign of the measure */
		struct rules sign = *r;

		sign.nrule = 0;
		return measure_check_heaps(&cx, &sign, &st);
	}
	rc = measure_check_heaps(&cx, r, &st);
	return rc;
}

static uint32_t
fnv1a(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

/* "left/right: set/set" and what defaults to what. */
static void
params_help(const struct rules *r, char *s, size_t cap)
{
	static const char *const type[] = { "set", "number", "code" };
	size_t w = 0;
	int i;

	for (i = 0; i < r->nparam && w < cap; i++)
		w += (size_t)snprintf(s + w, cap - w, "%s%s", i ? "/" : "",
		    r->param[i].name);
	for (i = 0; i < r->nparam && w < cap; i++) {
		const struct param *p = &r->param[i];

		w += (size_t)snprintf(s + w, cap - w, "%s%s a %s", i ? "; " :
		    ": ", p->name, type[p->type]);
		if (w < cap && p->dflt >= 0)
			w += (size_t)snprintf(s + w, cap - w, " (default: "
			    "%s)", r->param[p->dflt].name);
		else if (w < cap && p->dflt_text != NULL)
			w += (size_t)snprintf(s + w, cap - w, " (default "
			    "%s)", p->dflt_text);
	}
}

static void
set_hooks(struct rfile *rf)
{
	struct cg_ruleset *rs = &rf->rs;
	const struct rules *r = &rf->r;

	switch (r->kind) {
	case BOARD_GRAPH:
		rs->parse = graph_hooks_parse;
		rs->print = graph_hooks_print;
		rs->options = graph_hooks_options;
		rs->canonical = graph_hooks_canonical;
		rs->decompose = graph_hooks_decompose;
		rs->measure = graph_hooks_measure;
		rs->flags |= CG_SYMMETRY | CG_DECOMPOSES;
		break;
	case BOARD_HEAPS:
		rs->parse = heap_hooks_parse;
		rs->print = heap_hooks_print;
		rs->options = heap_hooks_options;
		rs->canonical = heap_hooks_canonical;
		rs->decompose = heap_hooks_decompose;
		rs->extension = heap_hooks_extension;
		rs->measure = heap_hooks_measure;
		rs->flags |= CG_SYMMETRY | CG_DECOMPOSES;
		if (r->family) {
			rs->enumerate = heap_hooks_enumerate;
			rs->flags |= CG_ENUMERATES;
		}
		break;
	default:
		rs->parse = grid_hooks_parse;
		rs->print = grid_hooks_print;
		rs->options = grid_hooks_options;
		if (r->frozen) {
			rs->canonical = grid_hooks_frozen_canonical;
			rs->flags |= CG_SYMMETRY;
		} else if (r->wall >= 0 || r->nsym > 1) {
			rs->canonical = grid_hooks_canonical;
			rs->flags |= CG_SYMMETRY;
		}
		if (r->wall >= 0) {
			rs->decompose = grid_hooks_decompose;
			rs->flags |= CG_DECOMPOSES;
		} else if (r->frozen) {
			rs->decompose = grid_hooks_frozen_decompose;
			rs->flags |= CG_DECOMPOSES;
		}
		if (r->family) {
			rs->enumerate = grid_hooks_enumerate;
			rs->flags |= CG_ENUMERATES;
		}
		if (r->loopy) {
			/* no measure, no order by it; and no synchronized
			 * value, which is a short game's */
			rs->flags |= CG_LOOPY;
			if (r->kind == BOARD_GRID)
				rs->flags |= CG_BOARD;
			break;
		}
		rs->order_key = grid_hooks_order_key;
		rs->measure = grid_hooks_measure;
		if (r->kind == BOARD_GRID)
			rs->flags |= CG_BOARD;
		if (r->result) {
			/* won, drawn or scored: no synchronized value */
			rs->extension = ends_extension;
			break;
		}
		if (r->runs.ok)
			rs->extension = runs_hooks_extension;
		rs->synch_options = grid_hooks_synch;
		rs->decided_value = grid_hooks_decided;
		rs->flags |= CG_SYNCHRONIZED;
		break;
	}
	if (r->impartial)
		rs->flags |= CG_IMPARTIAL;
}

static const struct cg_ruleset *
rules_load(const struct cg_host *h, const char *name, const char *file,
    const char *text, size_t len, struct cg_error *err)
{
	struct rfile *rf;
	struct cg_ruleset *rs;

	if (strlen(name) >= sizeof rf->name) {
		rules_error(h, err, 0, "ruleset name too long");
		return NULL;
	}
	rf = h->alloc(sizeof *rf);
	if (rf == NULL) {
		rules_error(h, err, 0, "out of memory");
		return NULL;
	}
	memset(rf, 0, sizeof *rf);
	snprintf(rf->name, sizeof rf->name, "%s", name);
	snprintf(rf->file, sizeof rf->file, "%s", file ? file : name);
	if (rules_read(h, rf->file, text, len, &rf->r, err) < 0) {
		rules_free(h, &rf->r);
		h->free(rf);
		return NULL;
	}
	if (rf->r.kind == BOARD_HEAPS && heap_check_load(h, &rf->r, err) < 0) {
		rules_free(h, &rf->r);
		h->free(rf);
		return NULL;
	}
	runs_derive(&rf->r);
	snprintf(rf->version, sizeof rf->version, "%s/%08x", rf->r.version,
	    fnv1a(text, len));
	params_help(&rf->r, rf->params_help, sizeof rf->params_help);
	rs = &rf->rs;
	rs->abi_version = CG_ABI_VERSION;
	rs->struct_size = sizeof *rs;
	rs->name = rf->name;
	rs->version = rf->version;
	rs->summary = rf->r.summary;
	rs->params_help = rf->r.nparam ? rf->params_help : NULL;
	rs->init_desc = rules_init;
	rs->fini = rules_fini;
	set_hooks(rf);
	return rs;
}

static void
rules_unload(const struct cg_host *h, const struct cg_ruleset *rs)
{
	struct rfile *rf = (struct rfile *)(void *)(uintptr_t)rs;

	if (rf == NULL)
		return;
	rules_free(h, &rf->r);
	h->free(rf);
}

static const struct cg_ruleset interpreter = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_ruleset),
	.name = "rules",
	.version = "1.0",
	.summary = "the interpreter of rules files (NAME.cgr, see cgr(5))",
	.flags = CG_INTERPRETER,
	.load = rules_load,
	.unload = rules_unload,
};

CG_RULESET_ENTRY(rules, interpreter)
