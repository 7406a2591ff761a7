/*
 * fuzz_lgame.c - libFuzzer target for the loopy game literal reader
 * (lgame.h: cg_lgame_parse_sided, as cg-parse -r game and cg-canon -c
 * read loopy literals).
 *
 * A literal that reads and is a small stopper (at most 40 nodes) is
 * simplified and printed, and the printed text must read back as a game
 * equal to it (cg-canon(1): what it prints reads back).  A small game
 * that is no stopper has its sides sought (a refusal is fine).  Errors
 * are returned with a column inside the text; crashes, leaks, unbounded
 * allocations and a broken round trip are findings.
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "solve/lgame.h"
#include "solve/lgame_int.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static jmp_buf on_error;

static void
exit_hook(int status)
{
	(void)status;
	longjmp(on_error, 1);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	cg_setprogname("fuzz_lgame");
	cg_exit_hook = exit_hook;
	return 0;
}

/* Nodes under x. */
static uint32_t
size_under(const struct cg_lgame *g, uint32_t x)
{
	uint32_t n;

	free(lg_reach(g, x, &n));
	return n;
}

static void
round_trip(struct cg_lgame *volatile g, uint32_t x)
{
	struct cg_lgame c;
	struct cg_buf b;
	char msg[256];
	size_t col;
	uint32_t y;

	if (cg_lgame_simplify(g, x, &c, msg, sizeof msg) < 0)
		return;
	cg_buf_init(&b);
	cg_lgame_print(&c, &b);
	cg_lgame_free(&c);
	if (cg_lgame_parse(g, cg_buf_str(&b), b.len, &y, msg, sizeof msg,
	    &col) < 0) {
		fprintf(stderr, "printed '%s' does not read back: %s\n",
		    cg_buf_str(&b), msg);
		abort();
	}
	if (cg_lgame_is_stopper(g, y) && cg_lgame_compare(g, x, y) != 0) {
		fprintf(stderr, "printed '%s' reads back as another game\n",
		    cg_buf_str(&b));
		abort();
	}
	cg_buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cg_lgame g;
	char msg[256], *text;
	size_t col;
	uint32_t on, off;

	if (size > 4096)
		return 0;
	text = malloc(size + 1);
	if (text == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	cg_lgame_init(&g);
	if (setjmp(on_error) == 0) {
		if (cg_lgame_parse_sided(&g, text, size, &on, &off, msg,
		    sizeof msg, &col) < 0) {
			if (col > size + 1) {
				fprintf(stderr, "column %zu past the text\n",
				    col);
				abort();
			}
		} else if (on == off && size_under(&g, on) <= 40) {
			if (cg_lgame_is_stopper(&g, on)) {
				round_trip(&g, on);
			} else {
				struct cg_lgame c;

				if (cg_lgame_side(&g, on, 1, &c, msg,
				    sizeof msg) == 0)
					cg_lgame_free(&c);
			}
		}
	}
	cg_lgame_free(&g);
	free(text);
	return 0;
}
