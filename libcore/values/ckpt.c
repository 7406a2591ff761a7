/* ckpt.c - knowledge-base build checkpoints (see ckpt.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/buf.h"
#include "base/bytemap.h"
#include "base/util.h"
#include "base/varint.h"
#include "values/ckpt.h"

static const char magic[8] = { 'C', 'G', 'K', 'B', 'C', 'K', 'P', '2' };

struct cg_ckpt {
	char *path;
	char *header;
	int fd;
	int rewrite;             /* the next flush writes the file afresh */
	uint64_t bytes;          /* in the file */
	uint32_t crc;            /* of the last record written or read */
	struct cg_buf queue;     /* records not yet written */
	uint32_t qcrc;           /* the chain over the queue */
	uint64_t *num;           /* by game id: game number + 1 */
	size_t numcap;
	uint64_t ngames;
	struct cg_buf rec;       /* scratch payload */
	struct { cg_game *v; size_t n, cap; } stack;  /* games to write */
};

/* ------------------------------------------------------------ records */

static uint32_t
chain(uint32_t prev, int type, const unsigned char *p, uint32_t len)
{
	unsigned char hdr[5];
	uLong c = prev;

	hdr[0] = (unsigned char)type;
	memcpy(hdr + 1, &len, 4);
	c = crc32(c, hdr, 5);
	if (len > 0)
		c = crc32(c, p, len);
	return (uint32_t)c;
}

/* Queue a record with the payload in c->rec. */
static void
queue(struct cg_ckpt *c, int type)
{
	uint32_t len = (uint32_t)c->rec.len;

	if (c->rec.len > CG_CKPT_MAX_RECORD)
		cg_die(CG_EXIT_DATA, "checkpoint record of %zu bytes: too long",
		    c->rec.len);
	c->qcrc = chain(c->qcrc, type, c->rec.data, len);
	cg_buf_addc(&c->queue, type);
	cg_buf_add(&c->queue, &len, 4);
	cg_buf_add(&c->queue, c->rec.data, len);
	cg_buf_add(&c->queue, &c->qcrc, 4);
}

static uint64_t
game_number(struct cg_ckpt *c, cg_game g)
{
	return (size_t)g < c->numcap ? c->num[g] : 0;
}

static void
set_number(struct cg_ckpt *c, cg_game g, uint64_t n)
{
	c->num = cg_xgrow_zero(c->num, &c->numcap, g, sizeof *c->num);
	c->num[g] = n + 1;
}

static void
push(struct cg_ckpt *c, cg_game g)
{
	if (c->stack.n == c->stack.cap) {
		c->stack.cap = c->stack.cap ? 2 * c->stack.cap : 64;
		c->stack.v = cg_xreallocarray(c->stack.v, c->stack.cap,
		    sizeof *c->stack.v);
	}
	c->stack.v[c->stack.n++] = g;
}

/* Queue 'G' records for g and the games it is made of that the file does
 * not hold yet, options first (an explicit stack: games may be deep). */
static uint64_t
queue_game(struct cg_ckpt *c, cg_game g0)
{
	c->stack.n = 0;
	push(c, g0);
	while (c->stack.n > 0) {
		cg_game g = c->stack.v[c->stack.n - 1];
		struct cg_dyadic x;
		int64_t up;
		uint64_t nim, me;
		const cg_game *o[2];
		size_t n[2], i;
		int s, missing = 0;

		if (game_number(c, g) != 0) {
			c->stack.n--;
			continue;
		}
		c->rec.len = 0;
		if (cg_canon_nus_parts(g, &x, &up, &nim) &&
		    cg_dyadic_is_big(x)) {
			uint64_t wd[CG_DYADIC_MAX_WORDS];
			size_t nw, k;
			long e;
			int neg;

			nw = cg_dyadic_export(x, wd, &e, &neg);
			cg_put_varint(&c->rec, 2);
			cg_put_varint(&c->rec, (uint64_t)neg);
			cg_put_varint(&c->rec, (uint64_t)e);
			cg_put_varint(&c->rec, nw);
			for (k = 0; k < nw; k++)
				cg_put_varint(&c->rec, wd[k]);
			cg_put_zigzag(&c->rec, up);
			cg_put_varint(&c->rec, nim);
		} else if (cg_canon_nus_parts(g, &x, &up, &nim)) {
			cg_put_varint(&c->rec, 0);
			cg_put_zigzag(&c->rec, x.num);
			cg_put_varint(&c->rec, (uint64_t)x.exp);
			cg_put_zigzag(&c->rec, up);
			cg_put_varint(&c->rec, nim);
		} else {
			for (s = 0; s < 2; s++) {
				o[s] = cg_canon_options(g, (enum cg_side)s, &n[s]);
				for (i = 0; i < n[s]; i++)
					if (game_number(c, o[s][i]) == 0) {
						push(c, o[s][i]);
						missing = 1;
					}
			}
			if (missing)
				continue;
			me = c->ngames;
			cg_put_varint(&c->rec, 1);
			cg_put_varint(&c->rec, n[0]);
			cg_put_varint(&c->rec, n[1]);
			for (s = 0; s < 2; s++)
				for (i = 0; i < n[s]; i++)
					cg_put_varint(&c->rec, me -
					    (game_number(c, o[s][i]) - 1));
		}
		queue(c, 'G');
		set_number(c, g, c->ngames++);
		c->stack.n--;
	}
	return game_number(c, g0) - 1;
}

void
cg_ckpt_game(struct cg_ckpt *c, const unsigned char *key, size_t len,
    uint32_t kind, cg_game g)
{
	uint64_t n = queue_game(c, g);

	c->rec.len = 0;
	cg_put_varint(&c->rec, kind);
	cg_put_varint(&c->rec, len);
	cg_buf_add(&c->rec, key, len);
	cg_put_varint(&c->rec, 0);
	cg_put_varint(&c->rec, n);
	queue(c, 'V');
}

void
cg_ckpt_text(struct cg_ckpt *c, const unsigned char *key, size_t len,
    uint32_t kind, const char *text)
{
	size_t tl = strlen(text);

	c->rec.len = 0;
	cg_put_varint(&c->rec, kind);
	cg_put_varint(&c->rec, len);
	cg_buf_add(&c->rec, key, len);
	cg_put_varint(&c->rec, 1);
	cg_put_varint(&c->rec, tl);
	cg_buf_add(&c->rec, text, tl);
	queue(c, 'V');
}

static int
write_all(int fd, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

uint64_t
cg_ckpt_size(const struct cg_ckpt *c)
{
	return (c->fd < 0 || c->rewrite ? sizeof magic : c->bytes) +
	    c->queue.len;
}

void
cg_ckpt_restart(struct cg_ckpt *c)
{
	c->queue.len = 0;
	c->qcrc = (uint32_t)crc32(0, (const unsigned char *)magic,
	    sizeof magic);
	/* 'G' records number games afresh */
	if (c->num != NULL)
		memset(c->num, 0, c->numcap * sizeof *c->num);
	c->ngames = 0;
	c->rec.len = 0;
	cg_buf_addstr(&c->rec, c->header);
	queue(c, 'H');
	c->rewrite = 1;
}

/* Write the file afresh beside the old one and rename it over it. */
static int
rewrite(struct cg_ckpt *c, char *err, size_t errlen)
{
	struct cg_buf tmp, dir;
	const char *slash;
	int fd, dfd;

	cg_buf_init(&tmp);
	cg_buf_addf(&tmp, "%s.tmp", c->path);
	fd = open(cg_buf_str(&tmp), O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd < 0 || write_all(fd, (const unsigned char *)magic,
	    sizeof magic) < 0 || write_all(fd, c->queue.data,
	    c->queue.len) < 0 || fdatasync(fd) < 0 ||
	    rename(cg_buf_str(&tmp), c->path) < 0) {
		snprintf(err, errlen, "%s: %s", cg_buf_str(&tmp),
		    strerror(errno));
		if (fd >= 0)
			close(fd);
		(void)unlink(cg_buf_str(&tmp));
		cg_buf_free(&tmp);
		return -1;
	}
	cg_buf_free(&tmp);
	/* the rename made durable too */
	cg_buf_init(&dir);
	slash = strrchr(c->path, '/');
	if (slash == NULL)
		cg_buf_addstr(&dir, ".");
	else
		cg_buf_add(&dir, c->path, slash > c->path ?
		    (size_t)(slash - c->path) : 1);
	if ((dfd = open(cg_buf_str(&dir), O_RDONLY | O_DIRECTORY)) >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
	cg_buf_free(&dir);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = fd;   /* opened for writing at its end */
	c->bytes = sizeof magic + c->queue.len;
	c->crc = c->qcrc;
	c->queue.len = 0;
	c->rewrite = 0;
	return 0;
}

int
cg_ckpt_flush(struct cg_ckpt *c, char *err, size_t errlen)
{
	if (c->rewrite)
		return rewrite(c, err, errlen);
	if (c->queue.len == 0)
		return 0;
	if (c->fd < 0) {
		c->fd = open(c->path, O_WRONLY | O_CREAT | O_APPEND, 0666);
		if (c->fd < 0 || write_all(c->fd, (const unsigned char *)magic,
		    sizeof magic) < 0)
			goto fail;
		c->bytes = sizeof magic;
	}
	if (write_all(c->fd, c->queue.data, c->queue.len) < 0 ||
	    fdatasync(c->fd) < 0)
		goto fail;
	c->bytes += c->queue.len;
	c->crc = c->qcrc;
	c->queue.len = 0;
	return 0;
fail:
	snprintf(err, errlen, "%s: %s", c->path, strerror(errno));
	return -1;
}

/* ------------------------------------------------------------ loading */

struct loader {
	struct cg_ckpt *c;
	cg_game *games;          /* by number */
	size_t cap;
	cg_ckpt_value_fn fn;
	void *ctx;
	size_t loaded;
	/* construction steps: CG_CANON_MAX_STEPS plus 1024 a byte of game
	 * records, for the whole file (canon.h) */
	uint64_t earned, spent;
};

struct make_args {
	const cg_game *opt;
	size_t nl, nr;
	cg_game g;
};

static void
make_game(void *arg)
{
	struct make_args *a = arg;

	a->g = cg_canon_make(a->opt, a->nl, a->opt + a->nl, a->nr);
}

static int
load_game(struct loader *l, struct cg_rd *r)
{
	uint64_t form, nl, nr, i, d, me = l->c->ngames, steps;
	cg_game *opt, g;

	l->earned += (uint64_t)(r->end - r->p) << 10;
	form = cg_get_varint(r);

	if (form == 0) {
		int64_t num = cg_get_zigzag(r), up;
		uint64_t exp = cg_get_varint(r), nim;

		up = cg_get_zigzag(r);
		nim = cg_get_varint(r);
		if (r->bad || exp > 62 || up > CG_CANON_MAX_UP ||
		    up < -CG_CANON_MAX_UP || nim > CG_CANON_MAX_NIM)
			return -1;
		g = cg_canon_nus(cg_dyadic_make(num, (int)exp), up, nim);
	} else if (form == 2) {
		/* a number past 64 bits: sign, exponent, words */
		uint64_t wd[CG_DYADIC_MAX_WORDS], neg, exp, nw, nim;
		struct cg_dyadic x;
		int64_t up;

		neg = cg_get_varint(r);
		exp = cg_get_varint(r);
		nw = cg_get_varint(r);
		if (r->bad || neg > 1 || nw > CG_DYADIC_MAX_WORDS)
			return -1;
		for (i = 0; i < nw; i++)
			wd[i] = cg_get_varint(r);
		up = cg_get_zigzag(r);
		nim = cg_get_varint(r);
		if (r->bad || up > CG_CANON_MAX_UP || up < -CG_CANON_MAX_UP ||
		    nim > CG_CANON_MAX_NIM ||
		    cg_dyadic_import(wd, (size_t)nw, exp, (int)neg, &x) < 0)
			return -1;
		g = cg_canon_nus(x, up, nim);
	} else if (form == 1) {
		nl = cg_get_varint(r);
		nr = cg_get_varint(r);
		if (r->bad || nl > (uint64_t)(r->end - r->p) ||
		    nr > (uint64_t)(r->end - r->p) - nl)
			return -1;
		opt = cg_xmalloc((size_t)(nl + nr + 1) * sizeof *opt);
		for (i = 0; i < nl + nr; i++) {
			d = cg_get_varint(r);
			if (r->bad || d == 0 || d > me) {
				free(opt);
				return -1;
			}
			opt[i] = l->games[me - d];
		}
		/* made anew, not trusted: canonical by construction; the
		 * store's limits are a damaged record here, not an exit */
		{
			struct make_args a = { opt, (size_t)nl, (size_t)nr,
			    CG_NO_GAME };
			char msg[256];

			steps = CG_CANON_MAX_STEPS + l->earned - l->spent;
			if (cg_canon_catch_bounded(make_game, &a, msg, sizeof msg,
			    &steps) < 0) {
				free(opt);
				return -1;
			}
			l->spent = CG_CANON_MAX_STEPS + l->earned - steps;
			g = a.g;
		}
		free(opt);
	} else {
		return -1;
	}
	if (r->p != r->end)
		return -1;
	if (me == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4096;
		l->games = cg_xreallocarray(l->games, l->cap, sizeof *l->games);
	}
	l->games[me] = g;
	set_number(l->c, g, me);
	l->c->ngames++;
	return 0;
}

static int
load_value(struct loader *l, struct cg_rd *r, char *err, size_t errlen)
{
	uint64_t kind = cg_get_varint(r), klen = cg_get_varint(r), tag, n;
	const unsigned char *key;
	char *text;
	int rc;

	if (r->bad || klen > (uint64_t)(r->end - r->p) || kind > 64)
		return -1;
	key = r->p;
	r->p += klen;
	tag = cg_get_varint(r);
	if (r->bad)
		return -1;
	if (tag == 0) {
		n = cg_get_varint(r);
		if (r->bad || n >= l->c->ngames || r->p != r->end)
			return -1;
		rc = l->fn(l->ctx, key, (size_t)klen, (uint32_t)kind,
		    l->games[n], NULL, err, errlen);
	} else if (tag == 1) {
		n = cg_get_varint(r);
		if (r->bad || n != (uint64_t)(r->end - r->p))
			return -1;
		text = cg_xstrndup((const char *)r->p, (size_t)n);
		if (strlen(text) != n) {
			free(text);
			return -1;
		}
		rc = l->fn(l->ctx, key, (size_t)klen, (uint32_t)kind,
		    CG_NO_GAME, text, err, errlen);
		free(text);
	} else {
		return -1;
	}
	l->loaded++;
	return rc ? 1 : 0;
}

struct cg_ckpt *
cg_ckpt_open(const char *path, const char *header, cg_ckpt_value_fn fn,
    void *ctx, size_t *loaded, char *err, size_t errlen)
{
	struct cg_ckpt *c = cg_xcalloc(1, sizeof *c);
	struct loader l;
	FILE *fp;
	unsigned char hdr[5], *payload = NULL;
	char m[sizeof magic];
	uint32_t len, crc, want;
	off_t good = sizeof magic;
	int type, first = 1, rc;

	c->path = cg_xstrdup(path);
	c->header = cg_xstrdup(header);
	c->fd = -1;
	cg_buf_init(&c->queue);
	cg_buf_init(&c->rec);
	c->crc = (uint32_t)crc32(0, (const unsigned char *)magic,
	    sizeof magic);
	memset(&l, 0, sizeof l);
	l.c = c;
	l.fn = fn;
	l.ctx = ctx;
	*loaded = 0;
	fp = fopen(path, "rb");
	if (fp == NULL) {
		if (errno != ENOENT) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto fail;
		}
		goto fresh;
	}
	if (fread(m, 1, sizeof m, fp) != sizeof m ||
	    memcmp(m, magic, sizeof m) != 0) {
		snprintf(err, errlen, "%s: not a cgtools checkpoint of this "
		    "version (remove it to start afresh)", path);
		fclose(fp);
		goto fail;
	}
	for (;;) {
		struct cg_rd r;

		if (fread(hdr, 1, 5, fp) != 5)
			break;
		type = hdr[0];
		memcpy(&len, hdr + 1, 4);
		if (len > CG_CKPT_MAX_RECORD)
			goto damaged;
		payload = cg_xrealloc(payload, len ? len : 1);
		if (fread(payload, 1, len, fp) != len ||
		    fread(&crc, 1, 4, fp) != 4)
			break;   /* cut short by a kill: dropped */
		want = chain(c->crc, type, payload, len);
		if (crc != want)
			goto damaged;
		c->crc = crc;
		r.p = payload;
		r.end = payload + len;
		r.bad = 0;
		if (first) {
			first = 0;
			if (type != 'H' || len != strlen(header) ||
			    memcmp(payload, header, len) != 0) {
				snprintf(err, errlen, "%s: checkpoint of another "
				    "build (remove it to start afresh)", path);
				fclose(fp);
				goto fail;
			}
		} else if (type == 'G') {
			if (load_game(&l, &r) < 0)
				goto damaged;
		} else if (type == 'V') {
			rc = load_value(&l, &r, err, errlen);
			if (rc < 0)
				goto damaged;
			if (rc > 0) {
				fclose(fp);
				goto fail;
			}
		} else {
			goto damaged;
		}
		good = ftello(fp);
	}
	fclose(fp);
	/* drop a torn tail so appends continue the chain */
	if (truncate(path, good) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	c->fd = open(path, O_WRONLY | O_APPEND);
	if (c->fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	c->bytes = (uint64_t)good;
	c->qcrc = c->crc;
	if (first)
		goto header;
	*loaded = l.loaded;
	free(payload);
	free(l.games);
	return c;
fresh:
	c->qcrc = c->crc;
header:
	c->rec.len = 0;
	cg_buf_addstr(&c->rec, header);
	queue(c, 'H');
	*loaded = l.loaded;
	free(payload);
	free(l.games);
	return c;
damaged:
	snprintf(err, errlen, "%s: damaged at byte %lld (a record fails its "
	    "checksum or does not decode; remove it to start afresh)", path,
	    (long long)good);
	fclose(fp);
fail:
	free(payload);
	free(l.games);
	cg_ckpt_close(c, 0);
	return NULL;
}

void
cg_ckpt_close(struct cg_ckpt *c, int remove)
{
	if (c == NULL)
		return;
	if (c->fd >= 0)
		close(c->fd);
	if (remove)
		(void)unlink(c->path);
	free(c->path);
	free(c->header);
	free(c->num);
	cg_buf_free(&c->queue);
	cg_buf_free(&c->rec);
	free(c->stack.v);
	free(c);
}
