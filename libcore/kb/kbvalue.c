/* kbvalue.c - values through the engine tools (see kbvalue.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "format/doc.h"
#include "kb/kbvalue.h"
#include "base/util.h"

static char **bases;
static size_t nbases;

void
cg_kbv_use_base(const char *path)
{
	bases = cg_xreallocarray(bases, nbases + 1, sizeof *bases);
	bases[nbases++] = cg_xstrdup(path);
}

static const struct {
	const char *kind, *tool, *args;
} engines[] = {
	{ "canon", "cg-canon", "-t" },
	{ "outcome", "cg-outcome", "-t" },
	{ "nimber", "cg-outcome", "-t -n" },
	{ "misere", "cg-outcome", "-t -m" },
	{ "misere-nimber", "cg-outcome", "-t -m -n" },
	{ "genus", "cg-outcome", "-t -g" },
};

/* tool and extra arguments for kind (other kinds are cg-canon -p KIND) */
static void
engine(const char *kind, const char **tool, char *args, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof engines / sizeof engines[0]; i++)
		if (strcmp(engines[i].kind, kind) == 0) {
			*tool = engines[i].tool;
			snprintf(args, len, "%s", engines[i].args);
			return;
		}
	*tool = "cg-canon";
	snprintf(args, len, "-t -p %s", kind);
}

const char *
cg_kbv_command(const char *kind, char *buf, size_t len)
{
	const char *tool;
	char args[128];

	engine(kind, &tool, args, sizeof args);
	snprintf(buf, len, "%s %s", tool, args);
	return buf;
}

static void
shquote(struct cg_buf *b, const char *s)
{
	cg_buf_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			cg_buf_addstr(b, "'\\''");
		else
			cg_buf_addc(b, *s);
	}
	cg_buf_addc(b, '\'');
}

/* The engine tool next to the running program, else the bare name. */
static void
tool_path(const char *tool, struct cg_buf *out)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash != NULL) {
			struct cg_buf p;

			slash[1] = '\0';
			cg_buf_init(&p);
			cg_buf_addf(&p, "%s%s", exe, tool);
			if (access(cg_buf_str(&p), X_OK) == 0) {
				cg_buf_addstr(out, cg_buf_str(&p));
				cg_buf_free(&p);
				return;
			}
			cg_buf_free(&p);
		}
	}
	{
		/* on PATH? */
		const char *path = getenv("PATH"), *p, *e;
		struct cg_buf c;

		cg_buf_init(&c);
		for (p = path ? path : ""; *p; p = *e ? e + 1 : e) {
			e = p + strcspn(p, ":");
			c.len = 0;
			cg_buf_addf(&c, "%.*s/%s", (int)(e - p), p, tool);
			if (e > p && access(cg_buf_str(&c), X_OK) == 0) {
				cg_buf_free(&c);
				cg_buf_addstr(out, tool);
				return;
			}
		}
		cg_buf_free(&c);
	}
	cg_die(CG_EXIT_DATA, "%s not found (it computes the values; build it "
	    "or put it on PATH)", tool);
}

static int
unhex(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static char *
unescape(const char *s, size_t n)
{
	char *r = cg_xmalloc(n + 1), *o = r;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '%' && i + 2 < n &&
		    unhex(s[i + 1]) >= 0 && unhex(s[i + 2]) >= 0) {
			*o++ = (char)(unhex(s[i + 1]) * 16 + unhex(s[i + 2]));
			i += 2;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return r;
}

void
cg_kbv_compute(struct cg_plugin *rs, const char *kind, size_t n,
    const unsigned char *const *pos, const size_t *len, char **out)
{
	char args[128];
	const char *tool, *dir;
	struct cg_buf text, cmd;
	FILE *fp, *pp;
	char *line = NULL;
	size_t cap = 0, i, got = 0;
	ssize_t ll;
	int fd, status;

	struct cg_buf toolp;

	if (n == 0)
		return;
	engine(kind, &tool, args, sizeof args);
	cg_buf_init(&toolp);
	tool_path(tool, &toolp);
	dir = getenv("TMPDIR");
	cg_buf_init(&text);
	cg_buf_init(&cmd);
	if (dir != NULL && *dir != '\0' && strlen(dir) < 200) {
		cg_buf_addf(&cmd, "%s/cgkbvXXXXXX", dir);
		fd = mkstemp((char *)cg_buf_str(&cmd));
	} else {
		fd = -1;
	}
	if (fd < 0) {
		cmd.len = 0;
		cg_buf_addstr(&cmd, "/tmp/cgkbvXXXXXX");
		fd = mkstemp((char *)cg_buf_str(&cmd));
	}
	if (fd < 0)
		cg_die(CG_EXIT_DATA, "temporary file: %s", strerror(errno));
	{
		char *tpath = cg_xstrdup(cg_buf_str(&cmd));

		fp = fdopen(fd, "w");
		if (fp == NULL)
			cg_die(CG_EXIT_DATA, "%s: %s", tpath, strerror(errno));
		/* a document, not bare lines: a position may start with '#' */
		fprintf(fp, "cgt\t1\nruleset\t%s\n", rs->spec);
		for (i = 0; i < n; i++) {
			text.len = 0;
			cg_buf_addf(&text, "N\t%zu\t", i + 1);
			cmd.len = 0;
			if (cg_rs_print(rs, pos[i], len[i], &cmd) < 0)
				cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
				    cg_rs_errmsg(rs));
			cg_escape(&text, cg_buf_str(&cmd));
			cg_buf_addc(&text, '\n');
			fwrite(text.data, 1, text.len, fp);
		}
		for (i = 0; i < n; i++)
			fprintf(fp, "root\t%zu\n", i + 1);
		fputs("end\n", fp);
		if (fflush(fp) != 0 || ferror(fp) || fclose(fp) != 0) {
			unlink(tpath);
			cg_die(CG_EXIT_DATA, "%s: %s", tpath, strerror(errno));
		}

		cmd.len = 0;
		cg_buf_addstr(&cmd, "CG_PLUGIN_PATH=");
		shquote(&cmd, cg_plugin_path());
		cg_buf_addstr(&cmd, " exec ");
		shquote(&cmd, cg_buf_str(&toolp));
		cg_buf_addf(&cmd, " %s", args);
		for (i = 0; i < nbases; i++) {
			cg_buf_addstr(&cmd, " -K ");
			shquote(&cmd, bases[i]);
		}
		cg_buf_addc(&cmd, ' ');
		shquote(&cmd, tpath);
		fflush(stdout);
		fflush(stderr);
		pp = popen(cg_buf_str(&cmd), "r");
		if (pp == NULL)
			cg_die(CG_EXIT_DATA, "cannot run %s: %s", tool,
			    strerror(errno));
		while ((ll = getline(&line, &cap, pp)) > 0) {
			char *tab;

			if (line[ll - 1] == '\n')
				line[--ll] = '\0';
			if (got >= n)
				continue;
			tab = strchr(line, '\t');
			out[got++] = tab && tab[1] ? unescape(tab + 1,
			    strlen(tab + 1)) : NULL;
		}
		free(line);
		status = pclose(pp);
		unlink(tpath);
		free(tpath);
	}
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			cg_die(CG_EXIT_DATA, "cannot compute '%s': %s not found "
			    "(needed as '%s %s')", kind, tool, tool, args);
		cg_die(CG_EXIT_DATA, "computing '%s' with '%s %s' failed", kind,
		    tool, args);
	}
	if (got != n) {
		text.len = 0;
		cg_rs_print(rs, pos[got], len[got], &text);
		cg_die(CG_EXIT_DATA, "'%s %s' gave %zu values for %zu positions "
		    "(none for '%s')", tool, args, got, n, cg_buf_str(&text));
	}
	cg_buf_free(&text);
	cg_buf_free(&cmd);
	cg_buf_free(&toolp);
}
