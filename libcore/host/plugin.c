/* plugin.c - find ruleset plugins on the plugin path and load them. */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgx/movecounts.h"
#include "cg/rank.h"
#include "cgx/searchorder.h"
#include "cg/conjugate.h"
#include "cg/result.h"
#include "host/plugin.h"
#include "base/jobs.h"
#include "base/util.h"

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

/*
 * The plugin directory found next to the program: <exe dir>/../plugins in
 * a build tree, or <exe dir>/../lib/cg/plugins where it is installed (so an
 * installed tool finds its plugins whatever PREFIX it was compiled with,
 * and under a DESTDIR staging directory too).  NULL when neither exists.
 */
static const char *
build_plugin_dir(void)
{
	static const char *const rel[] = { "../plugins", "../lib/cg/plugins" };
	static char dir[PATH_MAX];
	static int done;
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;
	struct stat st;
	size_t i;

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
	for (i = 0; i < sizeof rel / sizeof rel[0]; i++)
		if ((size_t)snprintf(dir, sizeof dir, "%s/%s", exe, rel[i]) <
		    sizeof dir && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
			return dir;
	dir[0] = '\0';
	return NULL;
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
	int so_only;           /* look for NAME.so only (the interpreter) */
	int rules;             /* found NAME.cgr (a rules file) */
	int clash;             /* both NAME.so and NAME.cgr in one directory */
	char found[PATH_MAX];  /* the file, when found */
	char dir[PATH_MAX];    /* its directory */
};

static int
exists(char *buf, size_t size, const char *dir, const char *name,
    const char *suffix)
{
	int n = snprintf(buf, size, "%s/%s%s", dir, name, suffix);

	return n > 0 && (size_t)n < size && access(buf, F_OK) == 0;
}

/* The first directory with NAME.so or NAME.cgr wins; both in one
 * directory is a clash (found then names the directory). */
static int
find_in(const char *dir, void *arg)
{
	struct find *f = arg;
	char other[PATH_MAX];
	int so = exists(f->found, sizeof f->found, dir, f->name, ".so");

	f->rules = f->clash = 0;
	snprintf(f->dir, sizeof f->dir, "%s", dir);
	if (f->so_only)
		return so;
	if (exists(other, sizeof other, dir, f->name, CG_RULES_SUFFIX)) {
		if (so) {
			f->clash = 1;
			snprintf(f->found, sizeof f->found, "%s", dir);
		} else {
			memcpy(f->found, other, sizeof other);
			f->rules = 1;
		}
		return 1;
	}
	return so;
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

/* Where the ruleset being loaded was named (a document's file and line),
 * for messages; NULL when it came from the command line. */
static const char *where_file;
static unsigned long where_line;

void
cg_plugin_where(const char *file, unsigned long line)
{
	where_file = file;
	where_line = line;
}

static void __attribute__((format(printf, 2, 3), noreturn))
pdie(int status, const char *fmt, ...)
{
	char msg[PATH_MAX + 1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (where_file != NULL) {
		const char *file = where_file;

		where_file = NULL;   /* the next load may come from elsewhere */
		cg_die_at(file, where_line, "%s", msg);
	}
	cg_die(status, "%s", msg);
}

/* Does descriptor rs have this optional field? */
#define DESC_HAS(rs, field)                                             \
	((rs)->struct_size >= offsetof(struct cg_ruleset, field) +        \
	    sizeof((rs)->field) && (rs)->field != NULL)

/* The checks every ruleset descriptor passes, from a plugin or made by an
 * interpreter: 0, or -1 with the reason in why. */
static int
check_desc(const struct cg_ruleset *rs, const char *path, char *why,
    size_t whylen)
{
	size_t need;

	if (rs->abi_version != CG_ABI_VERSION) {
		snprintf(why, whylen, "%s: ruleset built for ABI version %u, "
		    "host has %u", path, rs->abi_version, CG_ABI_VERSION);
		return -1;
	}
	need = offsetof(struct cg_ruleset, options) + sizeof rs->options;
	if (rs->struct_size < need) {
		snprintf(why, whylen, "%s: ruleset descriptor too short (%u "
		    "bytes, need %zu)", path, rs->struct_size, need);
		return -1;
	}
	if (rs->name == NULL || !valid_name(rs->name) || rs->parse == NULL ||
	    rs->print == NULL || rs->options == NULL) {
		snprintf(why, whylen, "%s: ruleset descriptor lacks a valid "
		    "name, parse, print or options", path);
		return -1;
	}
	return 0;
}

/* A rules interpreter (it serves rules files, is no ruleset itself)? */
static int
is_interpreter(const struct cg_ruleset *rs)
{
	return rs->abi_version == CG_ABI_VERSION && rs->name != NULL &&
	    rs->struct_size >= offsetof(struct cg_ruleset, flags) +
	    sizeof rs->flags && (rs->flags & CG_INTERPRETER);
}

/*
 * dlopen path and check its descriptor.  On failure return NULL with a
 * one-line reason in why (which names the file).
 */
/*
 * The capability flags say what the optional hooks provide, so tools can
 * list what a ruleset can do (cg-parse -l) without calling it: a flag
 * without its hook, or a hook without its flag, is a plugin bug caught
 * when it loads rather than in the middle of a computation.
 */
static int
flags_agree(const struct cg_ruleset *rs, char *why, size_t whylen)
{
	static const struct {
		uint64_t flag;
		const char *name, *hooks;
		size_t o1, o2;
	} need[] = {
		{ CG_SYMMETRY, "CG_SYMMETRY", "canonical()",
		    offsetof(struct cg_ruleset, canonical),
		    offsetof(struct cg_ruleset, canonical) },
		{ CG_DECOMPOSES, "CG_DECOMPOSES", "decompose()",
		    offsetof(struct cg_ruleset, decompose),
		    offsetof(struct cg_ruleset, decompose) },
		{ CG_SYNCHRONIZED, "CG_SYNCHRONIZED",
		    "synch_options() and decided_value()",
		    offsetof(struct cg_ruleset, synch_options),
		    offsetof(struct cg_ruleset, decided_value) },
		{ CG_ENUMERATES, "CG_ENUMERATES", "enumerate()",
		    offsetof(struct cg_ruleset, enumerate),
		    offsetof(struct cg_ruleset, enumerate) },
	};
	size_t i;

	for (i = 0; i < sizeof need / sizeof need[0]; i++) {
		int has = 1, flag = (rs->flags & need[i].flag) != 0;
		size_t o;

		for (o = need[i].o1; ; o = need[i].o2) {
			const void *p = NULL;

			if (rs->struct_size >= o + sizeof(void (*)(void)))
				memcpy(&p, (const char *)rs + o, sizeof p);
			has &= p != NULL;
			if (o == need[i].o2)
				break;
		}
		if (flag != has) {
			snprintf(why, whylen, "ruleset '%s': %s %s", rs->name ?
			    rs->name : "?", flag ? need[i].name : need[i].hooks,
			    flag ? "set without its hook" :
			    "given without the flag that says so");
			return 0;
		}
	}
	return 1;
}

static int init_state(const struct cg_ruleset *, const char *, void **,
    struct cg_error *);

/* Does rs offer extension name with no parameters?  Asked of a state
 * made for the question, as a loaded plugin would be asked. */
static int
offers(const struct cg_ruleset *rs, const char *name)
{
	struct cg_error err;
	struct cg_context cx;
	int has_init, has;

	if (!DESC_HAS(rs, extension))
		return 0;
	memset(&err, 0, sizeof err);
	cx.host = cg_host();
	cx.state = NULL;
	cx.err = &err;
	has_init = rs->init != NULL || DESC_HAS(rs, init_desc);
	if (has_init && init_state(rs, NULL, &cx.state, &err) < 0)
		return 0;
	has = rs->extension(&cx, name) != NULL;
	if (has_init && rs->fini != NULL)
		rs->fini(cg_host(), cx.state);
	return has;
}

/* A cg.result extension the host can use. */
static int
result_ok(const struct cg_result_rules *x)
{
	if (!CG_RESULT_RULES_HAS(x, payoff) || x->result == NULL)
		return 0;
	switch (x->stuck) {
	case CG_RESULT_MOVER_LOSES:
	case CG_RESULT_MOVER_WINS:
	case CG_RESULT_DRAW:
		return 1;
	case CG_RESULT_PAYOFF:
		return x->payoff != NULL;
	default:
		return 0;
	}
}

void
cg_rs_refuse_result(struct cg_plugin *p, const char *file,
    unsigned long line, const char *why)
{
	if (p != NULL && p->result != NULL)
		cg_die_at(file, line, "ruleset '%s' is won, drawn or scored on "
		    "the board (%s): %s", p->name, CG_EXT_RESULT, why);
}

int
cg_rs_loopy(const struct cg_plugin *p)
{
	return p != NULL && (p->rs->flags & CG_LOOPY) != 0;
}

void
cg_rs_refuse_loopy(struct cg_plugin *p, const char *file,
    unsigned long line, const char *why)
{
	if (!cg_rs_loopy(p))
		return;
	if (file != NULL)
		cg_die_at(file, line, "ruleset '%s' is loopy (its moves can "
		    "come back to a position, so a game may never end): %s",
		    p->name, why);
	cg_die(CG_EXIT_DATA, "ruleset '%s' is loopy (its moves can come back "
	    "to a position, so a game may never end): %s", p->name, why);
}

void
cg_rs_capabilities(const struct cg_ruleset *rs, struct cg_buf *out)
{
	static const struct {
		uint64_t flag;
		const char *name;
	} caps[] = {
		{ CG_IMPARTIAL, "impartial" }, { CG_SYMMETRY, "symmetry" },
		{ CG_DECOMPOSES, "decomposes" },
		{ CG_SYNCHRONIZED, "synchronized" },
		{ CG_ENUMERATES, "enumerates" }, { CG_BOARD, "board" },
		{ CG_LOOPY, "loopy" },
	};
	size_t i, start = out->len;

	for (i = 0; i < sizeof caps / sizeof caps[0]; i++)
		if (rs->flags & caps[i].flag)
			cg_buf_addf(out, "%s%s", out->len > start ? "," : "",
			    caps[i].name);
	if (rs->struct_size >= offsetof(struct cg_ruleset, measure) +
	    sizeof rs->measure && rs->measure != NULL)
		cg_buf_addf(out, "%smeasure", out->len > start ? "," : "");
	if (offers(rs, CG_EXT_RANK))
		cg_buf_addf(out, "%srank", out->len > start ? "," : "");
	if (offers(rs, CG_EXT_RESULT))
		cg_buf_addf(out, "%sresult", out->len > start ? "," : "");
	if (out->len == start)
		cg_buf_addc(out, '-');
}

static const struct cg_ruleset *
open_plugin(const char *path, void **dlp, char *why, size_t whylen)
{
	const struct cg_ruleset *rs;
	cg_entry_fn entry;
	void *dl, *sym;
	const char *e;

	*dlp = NULL;
	dlerror();
	dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (dl == NULL) {
		e = dlerror();
		/* dlerror() usually starts with the path already */
		if (e != NULL && strncmp(e, path, strlen(path)) == 0)
			snprintf(why, whylen, "%s", e);
		else
			snprintf(why, whylen, "%s: %s", path,
			    e ? e : "cannot load");
		return NULL;
	}
	sym = dlsym(dl, CG_ENTRY_SYMBOL);
	if (sym == NULL) {
		snprintf(why, whylen, "%s: not a cgtools ruleset (no '%s' "
		    "symbol)", path, CG_ENTRY_SYMBOL);
		goto fail;
	}
	memcpy(&entry, &sym, sizeof entry);
	rs = entry(CG_ABI_VERSION, cg_host());
	if (rs == NULL) {
		snprintf(why, whylen, "%s: ruleset refuses host ABI version %u",
		    path, CG_ABI_VERSION);
		goto fail;
	}
	if (is_interpreter(rs)) {
		if (!valid_name(rs->name) || !DESC_HAS(rs, load) ||
		    !DESC_HAS(rs, unload)) {
			snprintf(why, whylen, "%s: rules interpreter descriptor "
			    "lacks a valid name, load or unload", path);
			goto fail;
		}
	} else if (check_desc(rs, path, why, whylen) < 0) {
		goto fail;
	}
	if (!flags_agree(rs, why, whylen)) {
		char tail[512];

		snprintf(tail, sizeof tail, "%s", why);
		snprintf(why, whylen, "%s: %s", path, tail);
		goto fail;
	}
	*dlp = dl;
	return rs;
fail:
	dlclose(dl);
	return NULL;
}

/* fini() the workers' states and free them (before the descriptor and
 * its code may go). */
static void
fini_workers(struct cg_plugin *p)
{
	size_t k;

	if (p->worker == NULL)
		return;
	for (k = 1; k < CG_MAX_JOBS; k++) {
		struct cg_plugin_worker *w = atomic_load(&p->worker[k]);

		if (w == NULL)
			continue;
		if (p->inited && p->rs->fini != NULL)
			p->rs->fini(cg_host(), w->cx.state);
		free(w);
	}
	free(p->worker);
	p->worker = NULL;
}

static void
free_plugin(struct cg_plugin *p)
{
	fini_workers(p);
	free(p->spec);
	free(p->name);
	free(p->params);
	free(p->path);
	free(p);
}

/* Read a rules file whole (at most CG_RULES_MAX_BYTES): malloc'd text,
 * or NULL with the reason in why. */
static char *
read_rules(const char *path, size_t *len, char *why, size_t whylen)
{
	FILE *fp = fopen(path, "rb");
	char *text;
	size_t n;

	if (fp == NULL) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	text = cg_xmalloc(CG_RULES_MAX_BYTES + 1);
	n = fread(text, 1, CG_RULES_MAX_BYTES + 1, fp);
	if (ferror(fp) || n > CG_RULES_MAX_BYTES) {
		snprintf(why, whylen, ferror(fp) ? "%s: read error" :
		    "%s: rules file larger than %u bytes", path,
		    CG_RULES_MAX_BYTES);
		fclose(fp);
		free(text);
		return NULL;
	}
	fclose(fp);
	*len = n;
	return text;
}

/*
 * The ruleset written in the rules file path, made by the interpreter
 * found on the plugin path: *interp and *dlp get the interpreter and its
 * handle (unload through them).  NULL with the reason in why, which for
 * a mistake in the file is "FILE:LINE: message".
 */
static const struct cg_ruleset *
open_rules(const char *path, const char *name, void **dlp,
    const struct cg_ruleset **interp, char *why, size_t whylen)
{
	const struct cg_ruleset *ip, *rs;
	struct cg_error err = { 0, 0, 0, "" };
	struct find f = { CG_RULES_INTERPRETER, 1, 0, 0, "", "" };
	char *text;
	size_t len;

	*dlp = NULL;
	if (!each_dir(find_in, &f)) {
		snprintf(why, whylen, "%s: no rules interpreter %s.so on the "
		    "plugin path (searched %s)", path, CG_RULES_INTERPRETER,
		    cg_plugin_path());
		return NULL;
	}
	ip = open_plugin(f.found, dlp, why, whylen);
	if (ip == NULL)
		return NULL;
	if (!is_interpreter(ip)) {
		snprintf(why, whylen, "%s: not a rules interpreter", f.found);
		goto fail;
	}
	text = read_rules(path, &len, why, whylen);
	if (text == NULL)
		goto fail;
	rs = ip->load(cg_host(), name, path, text, len, &err);
	free(text);
	if (rs == NULL) {
		if (err.line > 0)
			snprintf(why, whylen, "%s:%lu: %s", path, err.line,
			    err.set ? err.msg : "bad rules file");
		else
			snprintf(why, whylen, "%s: %s", path,
			    err.set ? err.msg : "bad rules file");
		goto fail;
	}
	if (check_desc(rs, path, why, whylen) < 0 ||
	    !flags_agree(rs, why, whylen)) {
		ip->unload(cg_host(), rs);
		goto fail;
	}
	*interp = ip;
	return rs;
fail:
	dlclose(*dlp);
	*dlp = NULL;
	return NULL;
}

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && strcmp(s + n - m, suffix) == 0;
}

static void
close_ruleset(const struct cg_ruleset *rs, const struct cg_ruleset *interp,
    void *dl)
{
	if (interp != NULL)
		interp->unload(cg_host(), rs);
	dlclose(dl);
}

/* init(), or init_desc() for a ruleset made by an interpreter. */
static int
init_state(const struct cg_ruleset *rs, const char *params, void **state,
    struct cg_error *err)
{
	if (DESC_HAS(rs, init_desc))
		return rs->init_desc(rs, cg_host(), params, state, err);
	return rs->init(cg_host(), params, state, err);
}

/* Load and initialise; on an error nothing stays allocated or loaded (so
 * a caller that survives the error through cg_exit_hook can go on). */
static struct cg_plugin *
load(const char *path, const char *name, const char *params, int param_status)
{
	struct cg_plugin *p;
	const struct cg_ruleset *rs, *interp = NULL;
	char why[PATH_MAX + 1024];
	void *dl;
	int has_init;

	if (has_suffix(path, CG_RULES_SUFFIX)) {
		rs = open_rules(path, name, &dl, &interp, why, sizeof why);
		if (rs == NULL)
			pdie(CG_EXIT_DATA, "%s", why);
	} else {
		rs = open_plugin(path, &dl, why, sizeof why);
		if (rs == NULL)
			pdie(CG_EXIT_DATA, "cannot load ruleset '%s': %s",
			    name ? name : path, why);
		if (is_interpreter(rs)) {
			snprintf(why, sizeof why, "%s: '%s' reads rules files "
			    "(NAME%s) and is not a ruleset itself", path,
			    rs->name, CG_RULES_SUFFIX);
			dlclose(dl);
			pdie(CG_EXIT_DATA, "%s", why);
		}
	}
	if (name != NULL && strcmp(rs->name, name) != 0) {
		snprintf(why, sizeof why, "%s: ruleset calls itself '%s', "
		    "not '%s'", path, rs->name, name);
		close_ruleset(rs, interp, dl);
		pdie(CG_EXIT_DATA, "%s", why);
	}
	has_init = rs->init != NULL || DESC_HAS(rs, init_desc);
	if (!has_init && params != NULL && *params != '\0') {
		snprintf(why, sizeof why, "ruleset '%s' takes no parameters "
		    "('%s')", rs->name, cg_quote_str(params));
		close_ruleset(rs, interp, dl);
		pdie(param_status, "%s", why);
	}

	p = cg_xcalloc(1, sizeof *p);
	p->rs = rs;
	p->dl = dl;
	p->interp = interp;
	p->path = cg_xstrdup(path);
	p->name = cg_xstrdup(rs->name);
	p->params = params ? cg_xstrdup(params) : NULL;
	if (params != NULL) {
		struct cg_buf b;

		cg_buf_init(&b);
		cg_buf_addf(&b, "%s:%s", rs->name, params);
		p->spec = cg_xstrdup(cg_buf_str(&b));
		cg_buf_free(&b);
	} else {
		p->spec = cg_xstrdup(rs->name);
	}
	p->cx.host = cg_host();
	p->cx.err = &p->err;
	if (has_init) {
		void *state = NULL;
		int r = init_state(rs, params, &state, &p->err);

		if (r < 0) {
			if (params != NULL)
				snprintf(why, sizeof why, "ruleset '%s': bad "
				    "parameters '%s': %s", rs->name,
				    cg_quote_str(params),
				    p->err.set ? p->err.msg : "refused");
			else
				snprintf(why, sizeof why, "ruleset '%s': %s",
				    rs->name, p->err.set ? p->err.msg :
				    "cannot initialise");
			free_plugin(p);
			close_ruleset(rs, interp, dl);
			pdie(param_status, "%s", why);
		}
		p->cx.state = state;
		p->inited = 1;
	}
	p->move_counts = cg_rs_extension(p, CG_EXT_MOVE_COUNTS);
	p->search_order = cg_rs_extension(p, CG_EXT_SEARCH_ORDER);
	p->rank = cg_rs_extension(p, CG_EXT_RANK);
	p->conjugate = cg_rs_extension(p, CG_EXT_CONJUGATE);
	p->result = cg_rs_extension(p, CG_EXT_RESULT);
	if (p->result != NULL && !result_ok(p->result))
		pdie(CG_EXIT_DATA, "ruleset '%s': %s without result(), or with "
		    "a bad 'stuck' (or CG_RESULT_PAYOFF without payoff())",
		    rs->name, CG_EXT_RESULT);
	p->impartial = (rs->flags & CG_IMPARTIAL) != 0 ||
	    cg_rs_extension(p, CG_EXT_IMPARTIAL) != NULL;
	p->next = loaded;
	loaded = p;
	return p;
}

#define MAX_NAME 255

struct list_state {
	char **names;
	size_t n, cap;
};

static int
list_dir(const char *dir, void *arg)
{
	struct list_state *ls = arg;
	struct dirent *de;
	DIR *dp = opendir(dir);
	size_t len;

	if (dp == NULL)
		return 0;
	while ((de = readdir(dp)) != NULL) {
		len = strlen(de->d_name);
		if (has_suffix(de->d_name, ".so"))
			len -= 3;
		else if (has_suffix(de->d_name, CG_RULES_SUFFIX))
			len -= strlen(CG_RULES_SUFFIX);
		else
			continue;
		if (ls->n == ls->cap) {
			ls->cap = ls->cap ? ls->cap * 2 : 16;
			ls->names = cg_xreallocarray(ls->names, ls->cap,
			    sizeof *ls->names);
		}
		ls->names[ls->n++] = cg_xstrndup(de->d_name, len);
	}
	closedir(dp);
	return 0;
}


/* Edits (insertions, deletions, substitutions) from a to b, at most 255
 * characters each. */
static unsigned
edit_distance(const char *a, const char *b)
{
	unsigned d[MAX_NAME + 2], prev, t;
	size_t i, j, la = strlen(a), lb = strlen(b);

	if (la > MAX_NAME || lb > MAX_NAME)
		return UINT_MAX;
	for (j = 0; j <= lb; j++)
		d[j] = (unsigned)j;
	for (i = 1; i <= la; i++) {
		prev = d[0];
		d[0] = (unsigned)i;
		for (j = 1; j <= lb; j++) {
			t = d[j];
			d[j] = prev + (a[i - 1] != b[j - 1]);
			if (d[j - 1] + 1 < d[j])
				d[j] = d[j - 1] + 1;
			if (t + 1 < d[j])
				d[j] = t + 1;
			prev = t;
		}
	}
	return d[lb];
}

/* The ruleset on the path closest to a name that is not there, when
 * it is a likely typo (a third of the name's letters at most); a static
 * buffer, or NULL. */
static char *
nearest_name(const char *name)
{
	static char best[MAX_NAME + 1];
	struct list_state ls = { NULL, 0, 0 };
	unsigned bd = UINT_MAX, dd;
	size_t i;

	each_dir(list_dir, &ls);
	for (i = 0; i < ls.n; i++) {
		dd = edit_distance(name, ls.names[i]);
		if (dd < bd || (dd == bd && strcmp(ls.names[i], best) < 0)) {
			bd = dd;
			snprintf(best, sizeof best, "%s", ls.names[i]);
		}
		free(ls.names[i]);
	}
	free(ls.names);
	return bd != UINT_MAX && bd > 0 && bd <= (strlen(name) + 2) / 3 ?
	    best : NULL;
}

/*
 * A ruleset found ahead of one cgtools ships (in the directory next to
 * the program, or the installed one) hides it: a rules file or plugin of
 * the user's replaces, say, the built-in nim.  Said once per name and
 * process on standard error, unless CG_OVERRIDES (names separated by
 * ':' or ',', or '*') says it is meant.
 */
struct hidden {
	const char *name;
	struct stat first;     /* the directory of the file that is used */
	int passed;            /* the search went past that directory */
	char found[PATH_MAX];  /* the hidden file, in one of cgtools' own */
};

static int
same_dir(const char *a, const struct stat *sb)
{
	struct stat sa;

	return stat(a, &sa) == 0 && sa.st_dev == sb->st_dev &&
	    sa.st_ino == sb->st_ino;
}

static int
own_dir(const char *dir)
{
	const char *b = build_plugin_dir();
	struct stat st;

	if (stat(dir, &st) != 0)
		return 0;
	return (b != NULL && same_dir(b, &st)) || same_dir(CG_PLUGINDIR, &st);
}

static int
find_hidden(const char *dir, void *arg)
{
	struct hidden *h = arg;

	if (!h->passed) {
		h->passed = same_dir(dir, &h->first);
		return 0;
	}
	if (same_dir(dir, &h->first) || !own_dir(dir))
		return 0;
	return exists(h->found, sizeof h->found, dir, h->name, ".so") ||
	    exists(h->found, sizeof h->found, dir, h->name, CG_RULES_SUFFIX);
}

static int
overridden(const char *name)
{
	const char *env = getenv("CG_OVERRIDES"), *p;
	size_t n = strlen(name);

	if (env == NULL)
		return 0;
	for (p = env; *p; p += strcspn(p, ":,"), p += *p != '\0') {
		size_t len = strcspn(p, ":,");

		if ((len == 1 && *p == '*') || (len == n &&
		    strncmp(p, name, n) == 0))
			return 1;
	}
	return 0;
}

static void
note_hidden(const struct find *f)
{
	static char **noted;
	static size_t nnoted;
	struct hidden h;
	size_t i;

	if (overridden(f->name) || own_dir(f->dir))
		return;
	for (i = 0; i < nnoted; i++)
		if (strcmp(noted[i], f->name) == 0)
			return;
	memset(&h, 0, sizeof h);
	h.name = f->name;
	if (stat(f->dir, &h.first) != 0 || !each_dir(find_hidden, &h))
		return;
	noted = cg_xreallocarray(noted, nnoted + 1, sizeof *noted);
	noted[nnoted++] = cg_xstrdup(f->name);
	cg_warn("note: %s %s hides %s %s (export CG_OVERRIDES=%s if that is "
	    "meant)", f->rules ? "rules file" : "plugin", f->found,
	    strcmp(h.found + strlen(h.found) - 3, ".so") == 0 ? "plugin" :
	    "rules file", h.found, f->name);
}

struct cg_plugin *
cg_plugin_get(const char *spec, int param_status)
{
	const char *colon = strchr(spec, ':');
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
	char name[MAX_NAME + 1];
	struct cg_plugin *p;
	struct find f;

	for (p = loaded; p != NULL; p = p->next)
		if (strcmp(p->spec, spec) == 0)
			return p;
	memcpy(name, spec, n <= MAX_NAME ? n : MAX_NAME);
	name[n <= MAX_NAME ? n : MAX_NAME] = '\0';
	if (n > MAX_NAME || !valid_name(name))
		pdie(param_status, "bad ruleset name '%s' (names are made of "
		    "a-z, 0-9, '_' and '-')", cg_quote(spec, n));
	memset(&f, 0, sizeof f);
	f.name = name;
	if (!each_dir(find_in, &f)) {
		char *near = nearest_name(name);

		pdie(CG_EXIT_DATA, "unknown ruleset '%s'%s%s%s (searched %s; "
		    "a directory given to another tool with -P is not: export "
		    "CG_PLUGIN_PATH=DIR for a whole pipeline)", name,
		    near ? ": did you mean '" : "", near ? near : "",
		    near ? "'?" : "", cg_plugin_path());
	}
	if (f.clash)
		pdie(CG_EXIT_DATA, "%s: both %s.so and %s%s: ruleset '%s' is "
		    "ambiguous (remove one)", f.found, name, name,
		    CG_RULES_SUFFIX, name);
	note_hidden(&f);
	return load(f.found, name, colon ? colon + 1 : NULL, param_status);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
cg_plugin_list(void (*fn)(const char *name, const char *path,
    const struct cg_ruleset *rs, const char *why, void *arg), void *arg)
{
	struct list_state ls = { NULL, 0, 0 };
	const struct cg_ruleset *rs, *interp;
	struct find f;
	size_t i;
	char why[PATH_MAX + 1024];
	void *dl;
	int bad = 0;

	each_dir(list_dir, &ls);
	if (ls.n > 0)
		qsort(ls.names, ls.n, sizeof *ls.names, cmp_str);
	for (i = 0; i < ls.n; i++) {
		if ((i > 0 && strcmp(ls.names[i], ls.names[i - 1]) == 0) ||
		    !valid_name(ls.names[i]))
			continue;
		/* the file a search by name would pick */
		memset(&f, 0, sizeof f);
		f.name = ls.names[i];
		if (!each_dir(find_in, &f))
			continue;
		interp = NULL;
		if (f.clash) {
			snprintf(why, sizeof why, "%s: both %s.so and %s%s: "
			    "ruleset '%s' is ambiguous (remove one)", f.found,
			    f.name, f.name, CG_RULES_SUFFIX, f.name);
			rs = NULL;
		} else if (f.rules) {
			rs = open_rules(f.found, f.name, &dl, &interp, why,
			    sizeof why);
		} else {
			rs = open_plugin(f.found, &dl, why, sizeof why);
			if (rs != NULL && is_interpreter(rs)) {
				dlclose(dl);  /* serves rules files: not listed */
				continue;
			}
		}
		if (rs != NULL && strcmp(rs->name, ls.names[i]) != 0) {
			snprintf(why, sizeof why, "%s: ruleset calls itself "
			    "'%s', not '%s'", f.found, rs->name, ls.names[i]);
			close_ruleset(rs, interp, dl);
			rs = NULL;
		}
		bad |= rs == NULL;
		if (rs != NULL)
			note_hidden(&f);
		fn(ls.names[i], f.found, rs, rs ? NULL : why, arg);
		if (rs != NULL)
			close_ruleset(rs, interp, dl);
	}
	for (i = 0; i < ls.n; i++)
		free(ls.names[i]);
	free(ls.names);
	return bad ? -1 : 0;
}

struct cg_plugin *
cg_plugin_load_file(const char *path, const char *params, int param_status)
{
	return load(path, NULL, params, param_status);
}

void
cg_plugin_unload_all(void)
{
	struct cg_plugin *p, *next;
	size_t i;

	for (p = loaded; p != NULL; p = next) {
		next = p->next;
		if (p->inited && p->rs->fini != NULL)
			p->rs->fini(cg_host(), p->cx.state);
		fini_workers(p);
		if (p->interp != NULL)
			p->interp->unload(cg_host(), p->rs);
#if !defined(__SANITIZE_ADDRESS__)
		/* Keep the code mapped under ASan so leak reports can name
		 * plugin frames. */
		dlclose(p->dl);
#endif
		free_plugin(p);
	}
	loaded = NULL;
	for (i = 0; i < n_extra_dirs; i++)
		free(extra_dirs[i]);
	free(extra_dirs);
	extra_dirs = NULL;
	n_extra_dirs = 0;
	cg_buf_free(&path_text);
}

/* ---- hook wrappers */

static pthread_mutex_t worker_lock = PTHREAD_MUTEX_INITIALIZER;

/* A state for worker k (> 0): init() with the plugin's parameters, which
 * succeeded once already in the main thread. */
static struct cg_plugin_worker *
new_worker(struct cg_plugin *p, unsigned k)
{
	struct cg_plugin_worker *w;

	pthread_mutex_lock(&worker_lock);
	if (p->worker == NULL)
		p->worker = cg_xcalloc(CG_MAX_JOBS, sizeof *p->worker);
	w = atomic_load(&p->worker[k]);
	if (w == NULL) {
		w = cg_xcalloc(1, sizeof *w);
		w->cx.host = cg_host();
		w->cx.err = &w->err;
		if (p->inited && init_state(p->rs, p->params, &w->cx.state,
		    &w->err) < 0)
			cg_die(CG_EXIT_DATA, "ruleset '%s': cannot initialise "
			    "a worker: %s", p->name, w->err.msg);
		atomic_store(&p->worker[k], w);
	}
	pthread_mutex_unlock(&worker_lock);
	return w;
}

struct cg_context *
cg_rs_context(struct cg_plugin *p)
{
	struct cg_plugin_worker *w;

	if (cg_worker == 0)
		return &p->cx;
	if (p->worker != NULL && (w = atomic_load_explicit(
	    &p->worker[cg_worker], memory_order_acquire)) != NULL)
		return &w->cx;
	return &new_worker(p, cg_worker)->cx;
}

/* The context of this worker, its error sink cleared. */
static struct cg_context *
clear(struct cg_plugin *p)
{
	struct cg_context *cx = cg_rs_context(p);

	cx->err->set = 0;
	cx->err->column = 0;
	cx->err->line = 0;
	cx->err->msg[0] = '\0';
	return cx;
}

static int
fail(struct cg_context *cx, int r, const char *what)
{
	struct cg_error *err = cx->err;

	if (r < 0 && !err->set) {
		snprintf(err->msg, sizeof err->msg, "%s", r == CG_ENOMEM ?
		    "out of memory" : r == CG_ELIMIT ? "position too large" :
		    r == CG_EUNSUPPORTED ? "not supported by this ruleset" :
		    what);
		err->set = 1;
	}
	return r;
}

const char *
cg_rs_errmsg(struct cg_plugin *p)
{
	static _Thread_local char text[600];
	const struct cg_error *err = cg_rs_context(p)->err;

	if (err->column > 0)
		snprintf(text, sizeof text, "column %zu: %s", err->column,
		    err->msg);
	else
		snprintf(text, sizeof text, "%s", err->msg);
	return text;
}

const void *
cg_rs_extension(struct cg_plugin *p, const char *name)
{
	if (!CG_HAS_HOOK(p, extension))
		return NULL;
	return p->rs->extension(cg_rs_context(p), name);
}

int
cg_rs_parse(struct cg_plugin *p, const char *text, size_t len,
    struct cg_buf *out)
{
	struct cg_context *cx = clear(p);

	return fail(cx, p->rs->parse(cx, text, len, out), "bad position");
}

int
cg_rs_print(struct cg_plugin *p, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	struct cg_context *cx = clear(p);

	return fail(cx, p->rs->print(cx, pos, len, out),
	    "cannot print position");
}

int
cg_rs_options(struct cg_plugin *p, const unsigned char *pos, size_t len,
    enum cg_side side, cg_emit_fn emit, void *ctx)
{
	struct cg_context *cx = clear(p);

	return fail(cx, p->rs->options(cx, pos, len, side, emit, ctx),
	    "cannot generate options");
}

int
cg_rs_search_options(struct cg_plugin *p, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	const struct cg_search_order *so = p->search_order;
	struct cg_context *cx;

	if (so == NULL || so->struct_size < offsetof(struct cg_search_order,
	    options) + sizeof so->options || so->options == NULL)
		return cg_rs_options(p, pos, len, side, emit, ctx);
	cx = clear(p);
	return fail(cx, so->options(cx, pos, len, side, emit, ctx),
	    "cannot generate options");
}

int
cg_rs_canonical(struct cg_plugin *p, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	struct cg_context *cx = clear(p);

	if (!CG_HAS_HOOK(p, canonical)) {
		cg_buf_add(out, pos, len);
		return CG_OK;
	}
	return fail(cx, p->rs->canonical(cx, pos, len, out),
	    "cannot canonicalise position");
}

int
cg_rs_decompose(struct cg_plugin *p, const unsigned char *pos, size_t len,
    cg_emit_fn emit, void *ctx)
{
	struct cg_context *cx = clear(p);

	if (!CG_HAS_HOOK(p, decompose))
		return emit(ctx, pos, len, NULL) ? CG_STOP : CG_OK;
	return fail(cx, p->rs->decompose(cx, pos, len, emit, ctx),
	    "cannot decompose position");
}

int
cg_rs_synch_options(struct cg_plugin *p, const unsigned char *pos,
    size_t len, cg_emit_joint_fn emit, void *ctx)
{
	struct cg_context *cx = clear(p);

	if (!CG_HAS_HOOK(p, synch_options))
		return fail(cx, CG_EUNSUPPORTED, "");
	return fail(cx, p->rs->synch_options(cx, pos, len, emit, ctx),
	    "cannot generate joint options");
}

int
cg_rs_decided_value(struct cg_plugin *p, const unsigned char *pos,
    size_t len, int64_t *num, int64_t *den)
{
	struct cg_context *cx = clear(p);

	if (!CG_HAS_HOOK(p, decided_value))
		return fail(cx, CG_EUNSUPPORTED, "");
	return fail(cx, p->rs->decided_value(cx, pos, len, num, den),
	    "cannot value decided position");
}

int
cg_rs_enumerate(struct cg_plugin *p, const char *family, cg_emit_fn emit,
    void *ctx)
{
	struct cg_context *cx = clear(p);

	if (!CG_HAS_HOOK(p, enumerate))
		return fail(cx, CG_EUNSUPPORTED, "");
	return fail(cx, p->rs->enumerate(cx, family, emit, ctx),
	    "cannot enumerate family");
}

int
cg_rs_order_key(struct cg_plugin *p, const unsigned char *pos, size_t len,
    int64_t *key)
{
	struct cg_context *cx = clear(p);

	if (!CG_HAS_HOOK(p, order_key)) {
		*key = 0;
		return CG_OK;
	}
	return fail(cx, p->rs->order_key(cx, pos, len, key),
	    "cannot order position");
}

int
cg_rs_measure(struct cg_plugin *p, const unsigned char *pos, size_t len,
    uint64_t *m)
{
	struct cg_context *cx = clear(p);

	if (!CG_HAS_HOOK(p, measure))
		return CG_EUNSUPPORTED;
	return fail(cx, p->rs->measure(cx, pos, len, m),
	    "cannot measure position");
}

int
cg_rs_result(struct cg_plugin *p, const unsigned char *pos, size_t len,
    int *res, int64_t *payoff)
{
	struct cg_context *cx = clear(p);
	int r;

	if (p->result == NULL)
		return CG_EUNSUPPORTED;
	r = p->result->result(cx, pos, len, res, payoff);
	if (r >= 0 && (*res < CG_RESULT_NONE || *res > CG_RESULT_PAYOFF ||
	    (*res == CG_RESULT_PAYOFF && p->result->payoff == NULL))) {
		r = cx->host->error(cx->err, 0, "%s: result() gave %d, not a "
		    "result", CG_EXT_RESULT, *res);
	}
	return fail(cx, r, "cannot tell whether the game is over");
}

int
cg_rs_payoff(struct cg_plugin *p, const unsigned char *pos, size_t len,
    int64_t *payoff)
{
	struct cg_context *cx = clear(p);

	if (p->result == NULL || p->result->payoff == NULL)
		return CG_EUNSUPPORTED;
	return fail(cx, p->result->payoff(cx, pos, len, payoff),
	    "cannot count the payoff");
}

int
cg_rs_move_counts(struct cg_plugin *p, const unsigned char *pos, size_t len,
    struct cg_move_bounds *b)
{
	const struct cg_move_counts *mc = p->move_counts;
	struct cg_context *cx;
	int r, s;

	if (mc == NULL || mc->struct_size < offsetof(struct cg_move_counts,
	    counts) + sizeof mc->counts || mc->counts == NULL)
		return CG_EUNSUPPORTED;
	memset(b, 0, sizeof *b);
	cx = clear(p);
	r = mc->counts(cx, pos, len, b, sizeof *b);
	for (s = 0; r == CG_OK && s < 2; s++)
		if (b->safe[s] > b->sure[s] || b->sure[s] > b->most[s] ||
		    ((b->flags & CG_BOUNDS_ROOM) && b->sure[s] > b->room[s]) ||
		    ((b->flags & CG_BOUNDS_FIRST) && b->first[s] <
		    b->sure[s]) || ((b->flags & CG_BOUNDS_FIRST_ROOM) &&
		    b->first_sure[s] < b->sure[s]))
			return CG_EUNSUPPORTED;   /* inconsistent: not used */
	return fail(cx, r, "cannot count moves");
}

/* Does the plugin's cg.rank extension have this hook? */
#define RANK_HAS(rk, field)                                              \
	((rk) != NULL && (rk)->struct_size >= offsetof(struct cg_rank,    \
	    field) + sizeof((rk)->field) && (rk)->field != NULL)

int
cg_rs_slots(struct cg_plugin *p, const char *family, uint64_t *n)
{
	struct cg_context *cx = clear(p);

	if (!RANK_HAS(p->rank, slots))
		return fail(cx, CG_EUNSUPPORTED, "");
	return fail(cx, p->rank->slots(cx, family, n),
	    "cannot count the slots of the family");
}

int
cg_rs_conjugate(struct cg_plugin *p, const unsigned char *pos, size_t len,
    struct cg_buf *out)
{
	struct cg_context *cx = clear(p);
	const struct cg_conjugate *x = p->conjugate;

	if (x == NULL || x->struct_size < offsetof(struct cg_conjugate,
	    conjugate) + sizeof x->conjugate || x->conjugate == NULL)
		return fail(cx, CG_EUNSUPPORTED, "");
	return fail(cx, x->conjugate(cx, pos, len, out),
	    "cannot exchange the players' roles");
}

int
cg_rs_rank(struct cg_plugin *p, const char *family, const unsigned char *pos,
    size_t len, uint64_t *r)
{
	struct cg_context *cx = clear(p);
	int rc;

	if (!RANK_HAS(p->rank, rank))
		return fail(cx, CG_EUNSUPPORTED, "");
	rc = p->rank->rank(cx, family, pos, len, r);
	if (rc == CG_EUNSUPPORTED && !cx->err->set) {
		snprintf(cx->err->msg, sizeof cx->err->msg, "the position "
		    "has no slot in the index of family '%s'",
		    cg_quote_str(family ? family : ""));
		cx->err->set = 1;
	}
	return fail(cx, rc, "cannot rank position");
}

int
cg_rs_unrank(struct cg_plugin *p, const char *family, uint64_t r,
    struct cg_buf *out)
{
	struct cg_context *cx = clear(p);
	int rc;

	if (!RANK_HAS(p->rank, unrank))
		return fail(cx, CG_EUNSUPPORTED, "");
	rc = p->rank->unrank(cx, family, r, out);
	if (rc == CG_EUNSUPPORTED && !cx->err->set) {
		snprintf(cx->err->msg, sizeof cx->err->msg, "no position has "
		    "slot %llu in the index of family '%s'",
		    (unsigned long long)r, cg_quote_str(family ? family : ""));
		cx->err->set = 1;
	}
	return fail(cx, rc, "cannot unrank slot");
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
	struct cg_context *cx = clear(p);
	int r;

	if (CG_HAS_HOOK(p, move_parse))
		return fail(cx, p->rs->move_parse(cx, pos, len, side, text,
		    child), "not a legal move");
	r = cg_rs_options(p, pos, len, side, match_move, &m);
	if (r < 0)
		return r;
	if (!m.found) {
		cx = clear(p);
		snprintf(cx->err->msg, sizeof cx->err->msg,
		    "'%s' is not a legal move for %s", cg_quote_str(text),
		    side == CG_LEFT ? "Left" : "Right");
		cx->err->set = 1;
		return CG_EPARSE;
	}
	return CG_OK;
}
