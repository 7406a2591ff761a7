/* svg.c - SVG output (see svg.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot/svg.h"

void
cg_svg_num(struct cg_buf *out, double v)
{
	char s[64];
	size_t n;

	/* round to 1/1000 first, so that -0.0004 prints as 0 */
	v = round(v * 1000) / 1000;
	if (v == 0)
		v = 0;
	snprintf(s, sizeof s, "%.3f", v);
	n = strlen(s);
	while (n > 0 && s[n - 1] == '0')
		n--;
	if (n > 0 && s[n - 1] == '.')
		n--;
	cg_buf_add(out, s, n);
}

void
cg_svg_escape(struct cg_buf *out, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': cg_buf_addstr(out, "&amp;"); break;
		case '<': cg_buf_addstr(out, "&lt;"); break;
		case '>': cg_buf_addstr(out, "&gt;"); break;
		case '"': cg_buf_addstr(out, "&quot;"); break;
		default: cg_buf_addc(out, *s);
		}
}

static void
attr(struct cg_buf *out, const char *name, double v)
{
	cg_buf_addf(out, " %s=\"", name);
	cg_svg_num(out, v);
	cg_buf_addc(out, '"');
}

void
cg_svg_begin(struct cg_buf *out, double width, double height,
    const char *title)
{
	cg_buf_addstr(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\"");
	attr(out, "width", width);
	attr(out, "height", height);
	cg_buf_addstr(out, " viewBox=\"0 0 ");
	cg_svg_num(out, width);
	cg_buf_addc(out, ' ');
	cg_svg_num(out, height);
	cg_buf_addstr(out, "\" font-family=\"sans-serif\" font-size=\"12\">\n"
	    "<title>");
	cg_svg_escape(out, title);
	cg_buf_addstr(out, "</title>\n<rect class=\"background\" width=\"100%\" "
	    "height=\"100%\" fill=\"white\"/>\n");
}

void
cg_svg_end(struct cg_buf *out)
{
	cg_buf_addstr(out, "</svg>\n");
}

void
cg_svg_line(struct cg_buf *out, const char *cls, double x1, double y1,
    double x2, double y2, const char *extra)
{
	cg_buf_addf(out, "<line class=\"%s\"", cls);
	attr(out, "x1", x1);
	attr(out, "y1", y1);
	attr(out, "x2", x2);
	attr(out, "y2", y2);
	cg_buf_addf(out, "%s%s/>\n", *extra ? " " : "", extra);
}

void
cg_svg_polyline(struct cg_buf *out, const char *cls, const double *xy,
    size_t n, const char *extra)
{
	size_t i;

	cg_buf_addf(out, "<polyline class=\"%s\" points=\"", cls);
	for (i = 0; i < n; i++) {
		if (i)
			cg_buf_addc(out, ' ');
		cg_svg_num(out, xy[2 * i]);
		cg_buf_addc(out, ',');
		cg_svg_num(out, xy[2 * i + 1]);
	}
	cg_buf_addf(out, "\"%s%s/>\n", *extra ? " " : "", extra);
}

void
cg_svg_text(struct cg_buf *out, const char *cls, double x, double y,
    const char *anchor, const char *text)
{
	cg_buf_addf(out, "<text class=\"%s\"", cls);
	attr(out, "x", x);
	attr(out, "y", y);
	cg_buf_addf(out, " text-anchor=\"%s\" fill=\"black\" stroke=\"none\">", anchor);
	cg_svg_escape(out, text);
	cg_buf_addstr(out, "</text>\n");
}
