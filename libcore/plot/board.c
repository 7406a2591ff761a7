/* board.c - boards drawn as grids (see board.h). */
#include <string.h>

#include "plot/board.h"

int
cg_board_is(const struct cg_plugin *rs)
{
	return rs != NULL && (rs->rs->flags & CG_BOARD) != 0;
}

int
cg_board_shape(const char *text, size_t *rows, size_t *cols)
{
	size_t r = 0, w;
	const char *s = text;

	*cols = 0;
	for (;;) {
		w = strcspn(s, "|");
		if (w == 0 || (r > 0 && w != *cols))
			return -1;
		*cols = w;
		r++;
		if (s[w] == '\0')
			break;
		s += w + 1;
	}
	*rows = r;
	return 0;
}

void
cg_board_column(struct cg_buf *out, size_t c)
{
	char tmp[16];
	size_t k = 0, v = c + 1;

	/* bijective base 26, as the rulesets name squares */
	while (v > 0 && k < sizeof tmp) {
		v--;
		tmp[k++] = (char)('a' + v % 26);
		v /= 26;
	}
	while (k > 0)
		cg_buf_addc(out, tmp[--k]);
}

/* Width of the widest column name and of the widest row number. */
static void
label_widths(size_t rows, size_t cols, int *cw, int *rw)
{
	struct cg_buf t;

	cg_buf_init(&t);
	cg_board_column(&t, cols - 1);
	*cw = (int)t.len;
	cg_buf_free(&t);
	*rw = 1;
	for (; rows >= 10; rows /= 10)
		(*rw)++;
}

void
cg_board_draw(const char *text, const char *indent, struct cg_buf *out)
{
	size_t rows, cols, r, c;
	int cw, rw;
	struct cg_buf name;

	if (cg_board_shape(text, &rows, &cols) < 0) {
		cg_buf_addf(out, "%s%s\n", indent, text);
		return;
	}
	label_widths(rows, cols, &cw, &rw);
	for (r = 0; r < rows; r++) {
		cg_buf_addf(out, "%s%*zu ", indent, rw, rows - r);
		for (c = 0; c < cols; c++)
			cg_buf_addf(out, " %*c", cw, text[r * (cols + 1) + c]);
		cg_buf_addc(out, '\n');
	}
	cg_buf_init(&name);
	cg_buf_addf(out, "%s%*s ", indent, rw, "");
	for (c = 0; c < cols; c++) {
		name.len = 0;
		cg_board_column(&name, c);
		cg_buf_addf(out, " %*s", cw, cg_buf_str(&name));
	}
	cg_buf_addc(out, '\n');
	cg_buf_free(&name);
}
