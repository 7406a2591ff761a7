/* kb.c - knowledge-base lookups for the analysis tools (-K FILE).
 *
 * Every added base is mapped and fully checked when added (cgkb(5)
 * checksums).  A lookup searches the bases whose ruleset name and
 * parameters equal those of the plugin; a base for the same ruleset with
 * other parameters or another ruleset version is an error, since its keys
 * would mean other positions. */
#include <stdlib.h>
#include <string.h>

#include <pthread.h>

#include "kb/kb.h"
#include "values/notation.h"
#include "kb/kbfile.h"
#include "base/util.h"

static struct cg_kbfile **bases;
static size_t nbases;

/* Per plugin: which bases apply (resolved on first use). */
struct binding {
	struct cg_plugin *rs;
	size_t n;
	size_t *which;
};
static struct binding *bind;
static size_t nbind;

void
cg_kb_add(const char *path)
{
	char err[1024];
	struct cg_kbfile *f = cg_kbfile_open(path, err, sizeof err);

	if (f == NULL)
		cg_die(CG_EXIT_DATA, "%s", err);
	bases = cg_xreallocarray(bases, nbases + 1, sizeof *bases);
	bases[nbases++] = f;
}

static struct binding *
binding_for(struct cg_plugin *rs)
{
	struct binding *b;
	const char *params = rs->params ? rs->params : "";
	const char *version = rs->rs->version ? rs->rs->version : "";
	size_t i;

	for (i = 0; i < nbind; i++)
		if (bind[i].rs == rs)
			return &bind[i];
	bind = cg_xreallocarray(bind, nbind + 1, sizeof *bind);
	b = &bind[nbind++];
	b->rs = rs;
	b->n = 0;
	b->which = cg_xmalloc((nbases ? nbases : 1) * sizeof *b->which);
	for (i = 0; i < nbases; i++) {
		const struct cg_kb_meta *m = cg_kbfile_meta(bases[i]);
		char spec[256];

		if (strcmp(m->ruleset, rs->name) != 0)
			continue;
		if (strcmp(m->params, params) != 0)
			cg_die(CG_EXIT_DATA, "%s: base is for '%s', not '%s'",
			    cg_kbfile_path(bases[i]), cg_quote_str(
			    cg_kb_meta_spec(m, spec, sizeof spec)), rs->spec);
		if (strcmp(m->plugin_version, version) != 0)
			cg_die(CG_EXIT_DATA, "%s: base was built with ruleset "
			    "'%s' version %s, the plugin is version %s",
			    cg_kbfile_path(bases[i]), m->ruleset,
			    cg_quote_str(m->plugin_version), version);
		if (m->shard_n != 1)
			cg_die(CG_EXIT_DATA, "%s: shard %u of %u, not a whole "
			    "base (merge the shards with cg-kb-build --merge)",
			    cg_kbfile_path(bases[i]), m->shard_k, m->shard_n);
		b->which[b->n++] = i;
	}
	return b;
}

/* Bases decode blocks into caches of their own: one reader at a time. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int
find_locked(struct cg_plugin *rs, const unsigned char *pos, size_t len,
    const char *kind, struct cg_buf *out)
{
	struct binding *b;
	size_t i;

	b = binding_for(rs);
	for (i = 0; i < b->n; i++) {
		struct cg_kbfile *f = bases[b->which[i]];
		int k = cg_kb_meta_kind(cg_kbfile_meta(f), kind);
		const char *v;

		if (k < 0)
			continue;
		v = cg_kbfile_get(f, pos, len, (uint32_t)k);
		if (v != NULL) {
			cg_buf_addstr(out, v);
			return 1;
		}
	}
	return 0;
}

int
cg_kb_find(struct cg_plugin *rs, const unsigned char *pos, size_t len,
    const char *kind, struct cg_buf *out)
{
	int hit;

	if (nbases == 0)
		return 0;
	pthread_mutex_lock(&lock);
	hit = find_locked(rs, pos, len, kind, out);
	pthread_mutex_unlock(&lock);
	return hit;
}

int
cg_kb_known(void *ctx, struct cg_plugin *rs, const unsigned char *pos,
    size_t len, const char *kind, struct cg_buf *out)
{
	(void)ctx;
	return cg_kb_find(rs, pos, len, kind, out);
}

cg_game
cg_kb_canon(void *ctx, struct cg_graph *g, cg_vertex v)
{
	struct cg_plugin *rs = cg_graph_ruleset(g, v);
	const unsigned char *key;
	struct cg_buf text;
	size_t len;
	cg_game value = CG_NO_GAME;

	(void)ctx;
	if (rs == NULL || nbases == 0)
		return CG_NO_GAME;
	key = cg_graph_key(g, v, &len);
	cg_buf_init(&text);
	if (cg_kb_find(rs, key, len, "canon", &text))
		value = cg_canon_value((const char *)text.data, text.len,
		    "knowledge base value");
	cg_buf_free(&text);
	return value;
}

void
cg_kb_close_all(void)
{
	size_t i;

	for (i = 0; i < nbases; i++)
		cg_kbfile_close(bases[i]);
	for (i = 0; i < nbind; i++)
		free(bind[i].which);
	free(bases);
	free(bind);
	bases = NULL;
	bind = NULL;
	nbases = nbind = 0;
}
