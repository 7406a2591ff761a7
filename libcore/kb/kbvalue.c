/* kbvalue.c - value kinds computed in process (see kbvalue.h).  The
 * graph and the session live between calls, so positions met once are
 * known the next time (best moves ask for many siblings). */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/watch.h"
#include "graph/graph.h"
#include "kb/kb.h"
#include "kb/kbvalue.h"
#include "solve/canonical.h"
#include "solve/session.h"
#include "values/canonprop.h"
#include "values/notation.h"

static struct cg_graph *graph;
static struct cg_session *session;
static int use_kb;

int
cg_kbv_kind_ok(const char *kind, struct cg_plugin *rs, char *why,
    size_t len)
{
	enum cg_kind k;

	/* a search kind first: "nimber" is also cg-canon's predicate */
	if (cg_kind_parse(kind, &k) < 0) {
		if (strcmp(kind, "canon") == 0 || cg_canon_property_known(kind))
			return 1;
		snprintf(why, len, "unknown value kind '%s' (canon, outcome, "
		    "nimber, misere, misere-nimber, genus, or a cg-canon "
		    "property)", kind);
		return 0;
	}
	if (rs != NULL && cg_kind_impartial(k) && !rs->impartial) {
		snprintf(why, len, "value kind '%s' needs an impartial ruleset, "
		    "and '%s' is partizan", kind, rs->spec);
		return 0;
	}
	return 1;
}

int
cg_kbv_from_canon(const char *kind, cg_game g, struct cg_buf *out)
{
	uint64_t nim;

	if (strcmp(kind, "canon") == 0) {
		cg_canon_print(g, out);
		return 1;
	}
	if (strcmp(kind, "outcome") == 0) {
		cg_buf_addc(out, cg_canon_outcome(g));
		return 1;
	}
	if (strcmp(kind, "nimber") == 0) {
		if (!cg_canon_is_nimber(g) ||
		    !cg_canon_nus_parts(g, NULL, NULL, &nim))
			return 0;
		cg_buf_addf(out, "%llu", (unsigned long long)nim);
		return 1;
	}
	if (cg_canon_property_known(kind)) {
		cg_canon_property(g, kind, out);
		return 1;
	}
	return 0;
}

void
cg_kbv_use_base(const char *path)
{
	cg_kb_add(path);
	use_kb = 1;
}

static void
stopped(void)
{
	cg_die(cg_stop_status(), "%s", cg_stop_reason());
}

static char *
value(struct cg_plugin *rs, const char *kind, enum cg_kind k, int search,
    const unsigned char *pos, size_t len)
{
	struct cg_buf out;
	struct cg_sum sum;

	cg_buf_init(&out);
	if (search) {
		struct cg_solver *s = cg_session_solver(session, rs);
		uint32_t *ids;
		size_t n = cg_solver_components(s, pos, len, &ids);

		if (cg_session_value(session, s, k, ids, n, &out, NULL, 0) < 0)
			stopped();
		free(ids);
	} else {
		struct cg_canon_eval ev;
		cg_game g;

		memset(&ev, 0, sizeof ev);
		ev.interrupt = &cg_stop;
		if (use_kb)
			ev.known = cg_kb_canon;
		cg_sum_init(&sum);
		cg_graph_position(graph, rs, pos, len, &sum);
		g = cg_canonical_sum(graph, sum.v, sum.n, &ev);
		cg_sum_free(&sum);
		if (g == CG_NO_GAME)
			stopped();
		cg_kbv_from_canon(kind, g, &out);
	}
	{
		char *text = cg_xstrdup(cg_buf_str(&out));

		cg_buf_free(&out);
		return text;
	}
}

void
cg_kbv_compute(struct cg_plugin *rs, const char *kind, size_t n,
    const unsigned char *const *pos, const size_t *len, char **out)
{
	enum cg_kind k = CG_KIND_OUTCOME;
	int search = cg_kind_parse(kind, &k) == 0;
	size_t i;
	char why[256];

	if (!cg_kbv_kind_ok(kind, rs, why, sizeof why))
		cg_die(CG_EXIT_DATA, "%s", why);
	if (graph == NULL)
		graph = cg_graph_new();
	if (session == NULL) {
		struct cg_session_options o;

		memset(&o, 0, sizeof o);
		if (use_kb)
			o.known = cg_kb_known;
		session = cg_session_new(&o);
	}
	for (i = 0; i < n; i++)
		out[i] = value(rs, kind, k, search, pos[i], len[i]);
}

void
cg_kbv_done(void)
{
	cg_session_free(session);
	cg_graph_free(graph);
	session = NULL;
	graph = NULL;
}
