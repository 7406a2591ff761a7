/* test_ckpt.c - checkpoints (values/ckpt.h): games written and read back are
 * the same games, numbers past 64 bits included, and a file cut short
 * keeps what was complete. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "values/ckpt.h"
#include "values/canon.h"
#include "values/notation.h"
#include "base/buf.h"
#include "tap.h"

static cg_game
G(const char *s)
{
	char msg[256];
	size_t col;
	cg_game g;

	if (cg_canon_parse(s, strlen(s), &g, msg, sizeof msg, &col) < 0) {
		printf("# cannot parse '%s': %s\n", s, msg);
		exit(1);
	}
	return g;
}

#define NGAMES 5

struct seen {
	cg_game g[NGAMES];
	char text[64];
	int n;
};

static int
on_value(void *ctx, const unsigned char *key, size_t len, uint32_t kind,
    cg_game g, const char *text, char *err, size_t errlen)
{
	struct seen *s = ctx;
	int k = key[0] - 'a';

	(void)len;
	(void)err;
	(void)errlen;
	if (kind == 1 && k >= 0 && k < NGAMES)
		s->g[k] = g;
	if (kind == 2 && text != NULL)
		snprintf(s->text, sizeof s->text, "%s", text);
	s->n++;
	return 0;
}

/* Read the checkpoint in a process of its own, where no big number
 * exists before it is read: print each game, one a line. */
static int
read_back(const char *path)
{
	struct seen s;
	struct cg_ckpt *c;
	char err[256];
	size_t loaded;
	int i;

	memset(&s, 0, sizeof s);
	c = cg_ckpt_open(path, "test\t1", on_value, &s, &loaded, err,
	    sizeof err);
	if (c == NULL)
		return 1;
	for (i = 0; i < NGAMES; i++) {
		struct cg_buf b;

		cg_buf_init(&b);
		cg_canon_print(s.g[i], &b);
		printf("%s\n", cg_buf_str(&b));
		cg_buf_free(&b);
	}
	cg_ckpt_close(c, 0);
	return 0;
}

int
main(int argc, char **argv)
{
	/* 2^63, -2^64 - 1/2^70 + ^ + *, 1/2^63 inside a game, small ones */
	cg_game want[NGAMES];
	char path[] = "/tmp/test_ckpt.XXXXXX", err[256];
	struct cg_ckpt *c;
	struct seen s;
	size_t loaded = 0;
	unsigned char key[2] = { 0, 0 };
	int fd, i;
	/* worked by hand: 2^63; -(2^64 + 1) + 2^-63 + ^* ; {2^-63 | -1/2} */
	static const char *printed[NGAMES] = {
		"9223372036854775808",
		"-170141183460469231740910675752738881535/9223372036854775808^*",
		"{1/9223372036854775808|-1/2}",
		"{3|1}",
		"*5",
	};
	char line[256], cmd[512];
	FILE *p;

	if (argc == 3 && strcmp(argv[1], "read") == 0)
		return read_back(argv[2]);

	want[0] = cg_canon_add(G("4611686018427387904"), G("4611686018427387904"));
	want[1] = cg_canon_add(cg_canon_neg(cg_canon_add(want[0], want[0])),
	    G("{0|1/4611686018427387904}"));
	want[1] = cg_canon_add(cg_canon_add(want[1], G("^*")), cg_canon_neg(
	    G("1")));
	want[2] = G("{{0|1/4611686018427387904}|-1/2}");
	want[3] = G("{3|1}");
	want[4] = G("*5");
	if ((fd = mkstemp(path)) < 0)
		return 1;
	close(fd);
	unlink(path);
	c = cg_ckpt_open(path, "test\t1", on_value, &s, &loaded, err,
	    sizeof err);
	ok(c != NULL && loaded == 0, "a new checkpoint");
	for (i = 0; i < NGAMES; i++) {
		key[0] = (unsigned char)('a' + i);
		cg_ckpt_game(c, key, 1, 1, want[i]);
	}
	cg_ckpt_text(c, (const unsigned char *)"t", 1, 2, "hello");
	ok(cg_ckpt_flush(c, err, sizeof err) == 0, "flushed");
	cg_ckpt_close(c, 0);

	memset(&s, 0, sizeof s);
	for (i = 0; i < NGAMES; i++)
		s.g[i] = CG_NO_GAME;
	c = cg_ckpt_open(path, "test\t1", on_value, &s, &loaded, err,
	    sizeof err);
	ok(c != NULL, "reopened");
	is_int(loaded, NGAMES + 1, "every value loaded");
	for (i = 0; i < NGAMES; i++)
		ok(s.g[i] == want[i], "game %d read back as itself", i);
	is_str(s.text, "hello", "the text value");
	cg_ckpt_close(c, 0);
	snprintf(cmd, sizeof cmd, "'%s' read '%s'", argv[0], path);
	p = popen(cmd, "r");
	for (i = 0; i < NGAMES; i++) {
		if (p == NULL || fgets(line, sizeof line, p) == NULL)
			snprintf(line, sizeof line, "(none)");
		line[strcspn(line, "\n")] = '\0';
		is_str(line, printed[i], "game %d read by another process", i);
	}
	ok(p != NULL && pclose(p) == 0, "that process ends well");
	c = cg_ckpt_open(path, "test\t1", on_value, &s, &loaded, err,
	    sizeof err);
	cg_ckpt_close(c, 1);
	ok(access(path, F_OK) != 0, "removed on close");
	return tap_done();
}
