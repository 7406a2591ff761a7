/* plugin.c - find ruleset plugins on the plugin path and load them. */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plugin.h"
#include "util.h"

static char **extra_dirs;
static size_t n_extra_dirs;
static struct cg_plugin *loaded;
static struct cg_buf path_text;

void
cg_plugin_add_dir(const char *dir)
{
	extra_dirs = cg_xreallocarray(extra_dirs, n_extra_dirs + 1,
	    sizeof *extra_dirs);
	extra_dirs[n_extra_dirs++] = cg_xstrdup(dir);
}

/* The directory of an uninstalled build's plugins: <exe dir>/../plugins. */
static const char *
build_plugin_dir(void)
{
	static char dir[PATH_MAX];
	static int done;
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;
	struct stat st;

	if (done)
		return dir[0] ? dir : NULL;
	done = 1;
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash == NULL)
		return NULL;
	*slash = '\0';
	if ((size_t)snprintf(dir, sizeof dir, "%s/../plugins", exe) >= sizeof dir ||
	    stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		dir[0] = '\0';
		return NULL;
	}
	return dir;
}

/* Call fn on each directory of the search path until it returns non-zero. */
static int
each_dir(int (*fn)(const char *dir, void *arg), void *arg)
{
	const char *env = getenv("CG_PLUGIN_PATH");
	const char *d;
	size_t i;
	int r;

	if (env != NULL && *env != '\0') {
		char *copy = cg_xstrdup(env), *s = copy, *tok;

		while ((tok = strsep(&s, ":")) != NULL) {
			if (*tok == '\0')
				continue;
			if ((r = fn(tok, arg)) != 0) {
				free(copy);
				return r;
			}
		}
		free(copy);
	}
	for (i = 0; i < n_extra_dirs; i++)
		if ((r = fn(extra_dirs[i], arg)) != 0)
			return r;
	if ((d = build_plugin_dir()) != NULL && (r = fn(d, arg)) != 0)
		return r;
	return fn(CG_PLUGINDIR, arg);
}

static int
append_dir(const char *dir, void *arg)
{
	struct cg_buf *b = arg;

	if (b->len)
		cg_buf_addc(b, ':');
	cg_buf_addstr(b, dir);
	return 0;
}

const char *
cg_plugin_path(void)
{
	path_text.len = 0;
	each_dir(append_dir, &path_text);
	return cg_buf_str(&path_text);
}

struct find {
	const char *name;
	char *found;
};

static int
find_in(const char *dir, void *arg)
{
	struct find *f = arg;
	struct cg_buf b;

	cg_buf_init(&b);
	cg_buf_addf(&b, "%s/%s.so", dir, f->name);
	if (access(cg_buf_str(&b), F_OK) == 0) {
		f->found = (char *)b.data;
		return 1;
	}
	cg_buf_free(&b);
	return 0;
}

static int
valid_name(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		    *s == '_' || *s == '-'))
			return 0;
	return 1;
}

static struct cg_plugin *
load(const char *path, const char *name, const char *params, const char *spec,
    int param_status)
{
	struct cg_plugin *p;
	const struct cg_ruleset *rs;
	cg_entry_fn entry;
	void *dl, *sym;
	size_t need;

	dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (dl == NULL)
		cg_die(CG_EXIT_DATA, "cannot load ruleset '%s': %s", name,
		    dlerror());
	sym = dlsym(dl, CG_ENTRY_SYMBOL);
	if (sym == NULL)
		cg_die(CG_EXIT_DATA, "%s: not a cgtools ruleset (no %s symbol)",
		    path, CG_ENTRY_SYMBOL);
	memcpy(&entry, &sym, sizeof entry);
	rs = entry(CG_ABI_VERSION, cg_host());
	if (rs == NULL)
		cg_die(CG_EXIT_DATA, "%s: ruleset refuses host ABI version %u",
		    path, CG_ABI_VERSION);
	if (rs->abi_version != CG_ABI_VERSION)
		cg_die(CG_EXIT_DATA,
		    "%s: ruleset built for ABI version %u, host has %u", path,
		    rs->abi_version, CG_ABI_VERSION);
	need = offsetof(struct cg_ruleset, options) + sizeof rs->options;
	if (rs->struct_size < need)
		cg_die(CG_EXIT_DATA,
		    "%s: ruleset descriptor too short (%u bytes, need %zu)", path,
		    rs->struct_size, need);
	if (rs->name == NULL || rs->parse == NULL || rs->print == NULL ||
	    rs->options == NULL)
		cg_die(CG_EXIT_DATA,
		    "%s: ruleset descriptor lacks name, parse, print or options",
		    path);
	if (name != NULL && strcmp(rs->name, name) != 0)
		cg_die(CG_EXIT_DATA, "%s: ruleset calls itself '%s', not '%s'",
		    path, rs->name, name);

	p = cg_xcalloc(1, sizeof *p);
	p->rs = rs;
	p->dl = dl;
	p->path = cg_xstrdup(path);
	p->name = cg_xstrdup(rs->name);
	p->params = params ? cg_xstrdup(params) : NULL;
	p->spec = cg_xstrdup(spec);
	p->cx.host = cg_host();
	p->cx.err = &p->err;
	if (rs->init != NULL) {
		void *state = NULL;
		int r = rs->init(cg_host(), params, &state, &p->err);

		if (r < 0 && params != NULL)
			cg_die(param_status, "ruleset '%s': bad parameters '%s': %s",
			    rs->name, params, p->err.set ? p->err.msg : "refused");
		if (r < 0)
			cg_die(param_status, "ruleset '%s': %s", rs->name,
			    p->err.set ? p->err.msg : "cannot initialise");
		p->cx.state = state;
	} else if (params != NULL && *params != '\0') {
		cg_die(param_status, "ruleset '%s' takes no parameters ('%s')",
		    rs->name, params);
	}
	p->next = loaded;
	loaded = p;
	return p;
}

struct cg_plugin *
cg_plugin_get(const char *spec, int param_status)
{
	struct cg_plugin *p;
	const char *colon;
	char *name, *params = NULL;
	struct find f;

	for (p = loaded; p != NULL; p = p->next)
		if (strcmp(p->spec, spec) == 0)
			return p;
	colon = strchr(spec, ':');
	name = colon ? cg_xstrndup(spec, (size_t)(colon - spec)) :
	    cg_xstrdup(spec);
	if (colon)
		params = cg_xstrdup(colon + 1);
	if (!valid_name(name))
		cg_die(param_status, "bad ruleset name '%s'", name);
	f.name = name;
	f.found = NULL;
	if (!each_dir(find_in, &f))
		cg_die(CG_EXIT_DATA, "unknown ruleset '%s' (searched %s)", name,
		    cg_plugin_path());
	p = load(f.found, name, params, spec, param_status);
	free(f.found);
	free(name);
	free(params);
	return p;
}

struct cg_plugin *
cg_plugin_load_file(const char *path, const char *params, int param_status)
{
	return load(path, NULL, params, path, param_status);
}

void
cg_plugin_unload_all(void)
{
	struct cg_plugin *p, *next;

	for (p = loaded; p != NULL; p = next) {
		next = p->next;
		if (p->rs->init != NULL && p->rs->fini != NULL)
			p->rs->fini(cg_host(), p->cx.state);
#if !defined(__SANITIZE_ADDRESS__)
		/* Keep the code mapped under ASan so leak reports can name
		 * plugin frames. */
		dlclose(p->dl);
#endif
		free(p->spec);
		free(p->name);
		free(p->params);
		free(p->path);
		free(p);
	}
	loaded = NULL;
	free(extra_dirs);
	extra_dirs = NULL;
	n_extra_dirs = 0;
	cg_buf_free(&path_text);
}

/* ---- hook wrappers */

static void
clear(struct cg_plugin *p)
{
	p->err.set = 0;
	p->err.column = 0;
	p->err.msg[0] = '\0';
}

static int
fail(struct cg_plugin *p, int r, const char *what)
{
	if (r < 0 && !p->err.set) {
		snprintf(p->err.msg, sizeof p->err.msg, "%s", r == CG_ENOMEM ?
		    "out of memory" : r == CG_ELIMIT ? "position too large" :
		    r == CG_EUNSUPPORTED ? "not supported by this ruleset" :
		    what);
		p->err.set = 1;
	}
	return r;
}

const char *
cg_rs_errmsg(struct cg_plugin *p)
{
	static char text[600];

	if (p->err.column > 0)
		snprintf(text, sizeof text, "column %zu: %s", p->err.column,
		    p->err.msg);
	else
		snprintf(text, sizeof text, "%s", p->err.msg);
	return text;
}

int
cg_rs_parse(struct cg_plugin *p, const char *text, size_t len,
    struct cg_buf *out)
{
	clear(p);
	return fail(p, p->rs->parse(&p->cx, text, len, out), "bad position");
}

int
cg_rs_print(struct cg_plugin *p, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	clear(p);
	return fail(p, p->rs->print(&p->cx, pos, len, out),
	    "cannot print position");
}

int
cg_rs_options(struct cg_plugin *p, const unsigned char *pos, size_t len,
    enum cg_side side, cg_emit_fn emit, void *ctx)
{
	clear(p);
	return fail(p, p->rs->options(&p->cx, pos, len, side, emit, ctx),
	    "cannot generate options");
}

int
cg_rs_canonical(struct cg_plugin *p, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	clear(p);
	if (!CG_HAS_HOOK(p, canonical)) {
		cg_buf_add(out, pos, len);
		return CG_OK;
	}
	return fail(p, p->rs->canonical(&p->cx, pos, len, out),
	    "cannot canonicalise position");
}

int
cg_rs_decompose(struct cg_plugin *p, const unsigned char *pos, size_t len,
    cg_emit_fn emit, void *ctx)
{
	clear(p);
	if (!CG_HAS_HOOK(p, decompose))
		return emit(ctx, pos, len, NULL) ? CG_STOP : CG_OK;
	return fail(p, p->rs->decompose(&p->cx, pos, len, emit, ctx),
	    "cannot decompose position");
}

int
cg_rs_synch_options(struct cg_plugin *p, const unsigned char *pos,
    size_t len, cg_emit_joint_fn emit, void *ctx)
{
	clear(p);
	if (!CG_HAS_HOOK(p, synch_options))
		return fail(p, CG_EUNSUPPORTED, "");
	return fail(p, p->rs->synch_options(&p->cx, pos, len, emit, ctx),
	    "cannot generate joint options");
}

int
cg_rs_decided_value(struct cg_plugin *p, const unsigned char *pos,
    size_t len, int64_t *num, int64_t *den)
{
	clear(p);
	if (!CG_HAS_HOOK(p, decided_value))
		return fail(p, CG_EUNSUPPORTED, "");
	return fail(p, p->rs->decided_value(&p->cx, pos, len, num, den),
	    "cannot value decided position");
}

int
cg_rs_enumerate(struct cg_plugin *p, const char *family, cg_emit_fn emit,
    void *ctx)
{
	clear(p);
	if (!CG_HAS_HOOK(p, enumerate))
		return fail(p, CG_EUNSUPPORTED, "");
	return fail(p, p->rs->enumerate(&p->cx, family, emit, ctx),
	    "cannot enumerate family");
}

int
cg_rs_order_key(struct cg_plugin *p, const unsigned char *pos, size_t len,
    int64_t *key)
{
	clear(p);
	if (!CG_HAS_HOOK(p, order_key)) {
		*key = 0;
		return CG_OK;
	}
	return fail(p, p->rs->order_key(&p->cx, pos, len, key),
	    "cannot order position");
}

struct move_match {
	const char *text;
	struct cg_buf *child;
	int found;
};

static int
match_move(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct move_match *m = ctx;

	if (move == NULL || strcmp(move, m->text) != 0)
		return 0;
	cg_buf_add(m->child, pos, len);
	m->found = 1;
	return 1;
}

int
cg_rs_move_parse(struct cg_plugin *p, const unsigned char *pos, size_t len,
    enum cg_side side, const char *text, struct cg_buf *child)
{
	struct move_match m = { text, child, 0 };
	int r;

	clear(p);
	if (CG_HAS_HOOK(p, move_parse))
		return fail(p, p->rs->move_parse(&p->cx, pos, len, side, text,
		    child), "not a legal move");
	r = cg_rs_options(p, pos, len, side, match_move, &m);
	if (r < 0)
		return r;
	if (!m.found) {
		clear(p);
		snprintf(p->err.msg, sizeof p->err.msg,
		    "'%s' is not a legal move for %s", text,
		    side == CG_LEFT ? "Left" : "Right");
		p->err.set = 1;
		return CG_EPARSE;
	}
	return CG_OK;
}
