/* solvedb.c - .spr solving databases: reading, merging, atomic saving. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/lineread.h"
#include "solve/solvedb.h"
#include "base/util.h"

static const char *const headers[] = {
	"[Positions+Nimber]",
	"[WinLoss_Misere:Losing_Position]",
};

static int
header_kind(const char *line)
{
	if (strcmp(line, headers[0]) == 0)
		return CG_DB_NIMBER;
	if (strcmp(line, headers[1]) == 0)
		return CG_DB_MISERE;
	return -1;
}

/* Parse text as one position, or else (a sum written by
 * cg_solver_print_sum for a ruleset without a sum notation) as positions
 * separated by '+'.  The positions are concatenated in pos; bounds[i] is
 * the end of part i. */
static int
parse_parts(struct cg_plugin *rs, const char *text, struct cg_buf *pos,
    size_t **bounds, size_t *nparts)
{
	const char *p, *q;
	size_t n = 0;
	struct cg_error first;

	pos->len = 0;
	*nparts = 0;
	if (cg_rs_parse(rs, text, strlen(text), pos) >= 0) {
		*bounds = cg_xreallocarray(*bounds, 1, sizeof **bounds);
		(*bounds)[0] = pos->len;
		*nparts = 1;
		return 0;
	}
	first = rs->err;
	if (strchr(text, '+') == NULL)
		return -1;
	pos->len = 0;
	for (p = text;; p = q + 1) {
		q = strchr(p, '+');
		if (q == NULL)
			q = p + strlen(p);
		if (cg_rs_parse(rs, p, (size_t)(q - p), pos) < 0) {
			rs->err = first;
			return -1;
		}
		if ((n & (n - 1)) == 0)   /* doubling at powers of two */
			*bounds = cg_xreallocarray(*bounds, n ? 2 * n : 1,
			    sizeof **bounds);
		(*bounds)[n++] = pos->len;
		if (*q == 0)
			break;
	}
	*nparts = n;
	return 0;
}

int
cg_solvedb_read(const char *path, struct cg_plugin *rs,
    enum cg_solvedb_kind kind, int missing_ok,
    int (*fn)(void *, const unsigned char *, const size_t *, size_t, long,
    const char *, unsigned long, char *, size_t), void *ctx, char *err,
    size_t errlen)
{
	int fd = open(path, O_RDONLY);
	struct cg_lines *in;
	struct stat st;
	size_t *bounds = NULL, nparts, n;
	char *line;
	unsigned long lineno = 0;
	struct cg_buf pos;
	int rc = 0, hk, r;

	if (fd < 0) {
		if (errno == ENOENT && missing_ok)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path, strerror(EISDIR));
		close(fd);
		return -1;
	}
	/* lines bounded, NUL bytes refused (a NUL would cut a position
	 * short without a word), gzip read as the other text formats are */
	in = cg_lines_open(fd, path);
	cg_buf_init(&pos);
	while ((r = cg_lines_next(in, &line, &n)) > 0) {
		char *sp, *text, *end;
		long value = -1;

		lineno = cg_lines_number(in);
		if (cg_lines_unterminated(in)) {
			snprintf(err, errlen, "%s:%lu: truncated line (no newline "
			    "at the end of the file)", path, lineno);
			rc = -1;
			break;
		}
		if (lineno == 1) {
			hk = header_kind(line);
			if (hk < 0) {
				snprintf(err, errlen, "%s:1: bad header '%s' "
				    "(expected '%s')", path, cg_quote(line, n),
				    headers[kind]);
				rc = -1;
				break;
			}
			if (hk != (int)kind) {
				snprintf(err, errlen, "%s:1: database holds %s, "
				    "not %s", path, hk == CG_DB_NIMBER ?
				    "nimbers" : "misere losing positions",
				    kind == CG_DB_NIMBER ? "nimbers" :
				    "misere losing positions");
				rc = -1;
				break;
			}
			continue;
		}
		if (n == 0)
			continue;
		text = line;
		sp = strrchr(line, ' ');
		if (kind == CG_DB_NIMBER) {
			if (sp == NULL) {
				snprintf(err, errlen, "%s:%lu: expected "
				    "'position nimber'", path, lineno);
				rc = -1;
				break;
			}
			*sp = 0;
			errno = 0;
			value = strtol(sp + 1, &end, 10);
			if (end == sp + 1 || *end != 0 || value < 0 ||
			    errno != 0 || value > 0x7fffffff) {
				snprintf(err, errlen, "%s:%lu: bad nimber '%s'",
				    path, lineno, cg_quote_str(sp + 1));
				rc = -1;
				break;
			}
		} else if (sp != NULL) {
			/* "position value" accepted too; the value is ignored */
			*sp = 0;
		}
		if (parse_parts(rs, text, &pos, &bounds, &nparts) < 0) {
			snprintf(err, errlen, "%s:%lu: position '%s' is not "
			    "a '%s' position: %s", path, lineno,
			    cg_quote_str(text), rs->spec, cg_rs_errmsg(rs));
			rc = -1;
			break;
		}
		if (fn(ctx, pos.data, bounds, nparts, value, text, lineno, err,
		    errlen)) {
			rc = -1;
			break;
		}
	}
	if (r < 0) {
		snprintf(err, errlen, "%s:%lu: %s", path, cg_lines_number(in),
		    cg_lines_error(in));
		rc = -1;
	}
	if (rc == 0 && lineno == 0) {
		snprintf(err, errlen, "%s:1: empty file (no header)", path);
		rc = -1;
	}
	free(bounds);
	cg_buf_free(&pos);
	cg_lines_close(in);
	return rc;
}

struct loadctx {
	struct cg_solver *s;
	enum cg_solvedb_kind kind;
	struct cg_solvedb_extra *extra;
	const char *path;
};

static void
extra_add(struct cg_solvedb_extra *x, const char *text, long value)
{
	char buf[32];
	size_t len;

	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 16;
		x->lines = cg_xreallocarray(x->lines, x->cap, sizeof *x->lines);
	}
	snprintf(buf, sizeof buf, " %ld", value);
	len = strlen(text) + strlen(buf) + 1;
	x->lines[x->n] = cg_xmalloc(len);
	snprintf(x->lines[x->n], len, "%s%s", text, buf);
	x->n++;
}

static int
load_entry(void *ctx, const unsigned char *pos, const size_t *bounds,
    size_t nparts, long value, const char *text, unsigned long line,
    char *err, size_t errlen)
{
	struct loadctx *lc = ctx;
	uint32_t *ids = NULL, *part;
	size_t n = 0, i, k, start = 0;
	int rc = 0;

	for (i = 0; i < nparts; i++) {
		/* an empty position has no bytes at all (pos NULL) */
		k = cg_solver_components(lc->s, pos ? pos + start : pos,
		    bounds[i] - start, &part);
		ids = cg_xreallocarray(ids, n + k + 1, sizeof *ids);
		memcpy(ids + n, part, k * sizeof *ids);
		n += k;
		free(part);
		start = bounds[i];
	}

	if (lc->kind == CG_DB_MISERE) {
		if (cg_solver_set_misere_loss(lc->s, ids, n) < 0) {
			snprintf(err, errlen, "%s:%lu: position '%s' is a "
			    "misere loss here but a win in an earlier database",
			    lc->path, line, cg_quote_str(text));
			rc = -1;
		}
	} else if (n == 1) {
		int64_t old = cg_solver_known_nimber(lc->s, ids[0]);

		if (cg_solver_set_nimber(lc->s, ids[0], (uint32_t)value) < 0) {
			snprintf(err, errlen, "%s:%lu: position '%s' has "
			    "nimber %ld here but %lld in an earlier database",
			    lc->path, line, cg_quote_str(text), value,
			    (long long)old);
			rc = -1;
		}
	} else if (n == 0) {
		if (value != 0) {
			snprintf(err, errlen, "%s:%lu: the empty position '%s' "
			    "cannot have nimber %ld", lc->path, line,
			    cg_quote_str(text), value);
			rc = -1;
		}
	} else if (lc->extra != NULL) {
		extra_add(lc->extra, text, value);
	}
	free(ids);
	return rc;
}

int
cg_solvedb_load(const char *path, struct cg_solver *s,
    enum cg_solvedb_kind kind, int missing_ok,
    struct cg_solvedb_extra *extra, char *err, size_t errlen)
{
	struct loadctx lc = { s, kind, extra, path };

	return cg_solvedb_read(path, cg_solver_plugin(s), kind,
	    missing_ok, load_entry, &lc, err, errlen);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
cg_solvedb_write_lines(const char *path, enum cg_solvedb_kind kind,
    char **lines, size_t n, char *err, size_t errlen)
{
	char *dircopy = cg_xstrdup(path), *dir = dirname(dircopy);
	size_t tlen = strlen(path) + 16;
	char *tmp = cg_xmalloc(tlen);
	int fd, dfd;
	FILE *fp;
	size_t i;

	if (n > 1)
		qsort(lines, n, sizeof *lines, cmp_str);
	snprintf(tmp, tlen, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot create a temporary file: %s",
		    path, strerror(errno));
		free(tmp);
		free(dircopy);
		return -1;
	}
	fchmod(fd, 0644);
	fp = fdopen(fd, "w");
	if (fp == NULL) {
		close(fd);
		goto fail;
	}
	fprintf(fp, "%s\n", headers[kind]);
	for (i = 0; i < n; i++)
		fprintf(fp, "%s\n", lines[i]);
	if (fflush(fp) != 0 || ferror(fp) || fsync(fileno(fp)) != 0) {
		fclose(fp);
		goto fail;
	}
	if (fclose(fp) != 0)
		goto fail;
	if (rename(tmp, path) != 0)
		goto fail;
	dfd = open(dir, O_RDONLY);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	free(tmp);
	free(dircopy);
	return 0;
fail:
	snprintf(err, errlen, "%s: cannot save the database: %s", path,
	    strerror(errno));
	unlink(tmp);
	free(tmp);
	free(dircopy);
	return -1;
}

struct savectx {
	struct cg_solver *s;
	char **lines;
	size_t n, cap;
};

static void
add_line(struct savectx *sc, char *line)
{
	if (sc->n == sc->cap) {
		sc->cap = sc->cap ? 2 * sc->cap : 1024;
		sc->lines = cg_xreallocarray(sc->lines, sc->cap,
		    sizeof *sc->lines);
	}
	sc->lines[sc->n++] = line;
}

static void
save_loss(void *ctx, const uint32_t *ids, size_t n)
{
	struct savectx *sc = ctx;
	struct cg_buf b;

	cg_buf_init(&b);
	cg_solver_print_sum(sc->s, ids, n, &b);
	add_line(sc, cg_xstrdup(cg_buf_str(&b)));
	cg_buf_free(&b);
}

long
cg_solvedb_save(const char *path, struct cg_solver *s,
    enum cg_solvedb_kind kind, const struct cg_solvedb_extra *extra,
    char *err, size_t errlen)
{
	struct savectx sc = { s, NULL, 0, 0 };
	size_t i, nc;
	struct cg_buf b;
	long count;
	int rc;

	cg_buf_init(&b);
	if (kind == CG_DB_NIMBER) {
		nc = cg_solver_ncomponents(s);
		for (i = 0; i < nc; i++) {
			int64_t v = cg_solver_known_nimber(s, (uint32_t)i);
			uint32_t id = (uint32_t)i;

			if (v < 0)
				continue;
			b.len = 0;
			cg_solver_print_sum(s, &id, 1, &b);
			cg_buf_addf(&b, " %lld", (long long)v);
			add_line(&sc, cg_xstrdup(cg_buf_str(&b)));
		}
	} else {
		cg_solver_each_misere_loss(s, save_loss, &sc);
	}
	if (extra != NULL)
		for (i = 0; i < extra->n; i++)
			add_line(&sc, cg_xstrdup(extra->lines[i]));
	cg_buf_free(&b);
	/* duplicates (the same sum found twice) are written once */
	if (sc.n > 1)
		qsort(sc.lines, sc.n, sizeof *sc.lines, cmp_str);
	{
		size_t j = 0;

		for (i = 0; i < sc.n; i++) {
			if (j > 0 && strcmp(sc.lines[j - 1], sc.lines[i]) == 0) {
				free(sc.lines[i]);
				continue;
			}
			sc.lines[j++] = sc.lines[i];
		}
		sc.n = j;
	}
	rc = cg_solvedb_write_lines(path, kind, sc.lines, sc.n, err, errlen);
	count = rc < 0 ? -1 : (long)sc.n;
	for (i = 0; i < sc.n; i++)
		free(sc.lines[i]);
	free(sc.lines);
	return count;
}

void
cg_solvedb_extra_free(struct cg_solvedb_extra *x)
{
	size_t i;

	for (i = 0; i < x->n; i++)
		free(x->lines[i]);
	free(x->lines);
	x->lines = NULL;
	x->n = x->cap = 0;
}
