/* cg-play - play a position against the knowledge base and engines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kb/kb.h"
#include "kb/kbmove.h"
#include "host/plugin.h"
#include "base/tool.h"
#include "base/util.h"

static const char usage[] =
    "-r NAME[:PARAMS] [-y left|right] [-f left|right] [-K BASE] [-P DIR]\n"
    "               POSITION";
static const char help[] =
    "Play POSITION against the computer under normal play (who cannot move\n"
    "loses).  The board is shown before each move; type a move in the\n"
    "ruleset's notation (for Amazons FROM-TO/ARROW, e.g. a1-b2/a1), or:\n"
    "  ?        list your legal moves\n"
    "  hint     your best moves, with the outcome (and canonical form, when\n"
    "           a base has it) of the positions they lead to\n"
    "  quit     stop\n"
    "An illegal move is refused with the reason and asked for again.  The\n"
    "computer plays a best move: one after which it wins, found in the bases\n"
    "(-K) or, for positions no base holds, computed by the engines.\n"
    "\n"
    "  -r NAME[:PARAMS]  the ruleset (required)\n"
    "  -y, --you SIDE    the side you play: left (default) or right\n"
    "  -f, --first SIDE  who moves first: left (default) or right\n"
    "  -K BASE           use this knowledge base (repeatable)\n"
    "  -P DIR            also search DIR for ruleset plugins\n"
    "  -h, --help        show this help\n"
    "      --version     show the version\n";

static const char *const side_name[2] = { "Left", "Right" };

static int
parse_side(const char *s)
{
	if (strcmp(s, "left") == 0 || strcmp(s, "l") == 0 ||
	    strcmp(s, "L") == 0)
		return CG_LEFT;
	if (strcmp(s, "right") == 0 || strcmp(s, "r") == 0 ||
	    strcmp(s, "R") == 0)
		return CG_RIGHT;
	cg_usage(usage);
}

/* The board: grids ("row|row|...") one row per line with coordinates
 * (columns a, b, ... from the left, rows numbered from the bottom). */
static void
show(struct cg_plugin *rs, const unsigned char *pos, size_t len)
{
	struct cg_buf t;
	const char *s, *e;
	int rows = 1, r, c, cols = 0;

	cg_buf_init(&t);
	if (cg_rs_print(rs, pos, len, &t) < 0)
		cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
		    cg_rs_errmsg(rs));
	s = cg_buf_str(&t);
	if (strchr(s, '|') == NULL || strchr(s, ' ') != NULL) {
		printf("\n  %s\n\n", s);
	} else {
		for (e = s; *e; e++)
			rows += *e == '|';
		putchar('\n');
		for (r = rows; r >= 1; r--) {
			e = s + strcspn(s, "|");
			printf("%3d  ", r);
			for (c = 0; s + c < e; c++)
				printf("%c ", s[c]);
			if (c > cols)
				cols = c;
			putchar('\n');
			s = *e ? e + 1 : e;
		}
		printf("     ");
		for (c = 0; c < cols; c++)
			printf("%c ", 'a' + c);
		printf("\n\n");
	}
	cg_buf_free(&t);
}

static void
list_moves(struct cg_plugin *rs, const unsigned char *pos, size_t len,
    int side, int best_only)
{
	static const char *const kinds[] = { "outcome" };
	struct cg_kbmove *m;
	struct cg_buf t;
	size_t n, i;
	int col = 0;

	if (!best_only) {
		/* names only: no values needed */
		n = cg_kb_moves(rs, pos, len, (enum cg_side)side, NULL, 0, &m);
		for (i = 0; i < n; i++) {
			printf("%s%s", col ? "  " : "  ",
			    m[i].move ? m[i].move : "?");
			if (++col == 6) {
				putchar('\n');
				col = 0;
			}
		}
		if (col)
			putchar('\n');
		cg_kb_moves_free(m, n, 0);
		return;
	}
	n = cg_kb_moves(rs, pos, len, (enum cg_side)side, kinds, 0, &m);
	cg_buf_init(&t);
	for (i = 0; i < n; i++) {
		char *v;

		if (!m[i].best)
			continue;
		t.len = 0;
		if (cg_rs_print(rs, m[i].child, m[i].len, &t) < 0)
			cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
			    cg_rs_errmsg(rs));
		/* the canonical form when a base has it */
		v = cg_kb_lookup(rs, m[i].child, m[i].len, "canon");
		printf("  %s  leads to %s, %s%s%s%s\n",
		    m[i].move ? m[i].move : "?", cg_buf_str(&t),
		    m[i].outcome ? m[i].outcome : "?",
		    v ? " (value " : "", v ? v : "", v ? ")" : "");
		free(v);
	}
	cg_buf_free(&t);
	cg_kb_moves_free(m, n, 0);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, CG_OPT_VERSION },
		{ "you", required_argument, NULL, 'y' },
		{ "first", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const nokinds[1] = { "outcome" };
	const char *spec = NULL;
	struct cg_plugin *rs;
	struct cg_buf pos, child;
	char *line = NULL;
	size_t cap = 0;
	ssize_t ll;
	int c, you = CG_LEFT, turn = CG_LEFT;

	cg_tool_init(argc, argv);
	while ((c = getopt_long(argc, argv, "f:hK:P:r:y:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'f': turn = parse_side(optarg); break;
		case 'y': you = parse_side(optarg); break;
		case 'K': cg_kb_add(optarg); break;
		case 'r': spec = optarg; break;
		case 'P': cg_plugin_add_dir(optarg); break;
		case 'h': cg_help(usage, help);
		case CG_OPT_VERSION: cg_version();
		default: cg_usage(usage);
		}
	}
	if (spec == NULL || argc - optind != 1)
		cg_usage(usage);
	rs = cg_plugin_get(spec, CG_EXIT_USAGE);
	cg_buf_init(&pos);
	cg_buf_init(&child);
	if (cg_rs_parse(rs, argv[optind], strlen(argv[optind]), &pos) < 0)
		cg_die(CG_EXIT_DATA, "position '%s': %s", argv[optind],
		    cg_rs_errmsg(rs));
	printf("You play %s; %s moves first.  Type ? for your moves, hint, "
	    "or quit.\n", side_name[you], side_name[turn]);
	for (;;) {
		struct cg_kbmove *m;
		size_t n, i;

		show(rs, pos.data, pos.len);
		n = cg_kb_moves(rs, pos.data, pos.len, (enum cg_side)turn,
		    turn == you ? NULL : nokinds, 0, &m);
		if (n == 0) {
			printf("%s cannot move: %s wins%s.\n", side_name[turn],
			    side_name[!turn], (!turn) == you ? " (you)" :
			    " (the computer)");
			cg_kb_moves_free(m, n, 0);
			break;
		}
		if (turn != you) {
			for (i = 0; i < n && !m[i].best; i++)
				;
			printf("%s (computer) plays %s%s\n", side_name[turn],
			    m[i].move ? m[i].move : "?", m[i].wins ?
			    "" : "  (every move loses)");
			pos.len = 0;
			cg_buf_add(&pos, m[i].child, m[i].len);
			cg_kb_moves_free(m, n, 0);
			turn = !turn;
			continue;
		}
		cg_kb_moves_free(m, n, 0);
		for (;;) {
			printf("%s to move> ", side_name[turn]);
			fflush(stdout);
			ll = getline(&line, &cap, stdin);
			if (ll < 0) {
				printf("\n");
				goto done;
			}
			while (ll > 0 && (line[ll - 1] == '\n' ||
			    line[ll - 1] == '\r' || line[ll - 1] == ' '))
				line[--ll] = '\0';
			if (!isatty(0))  /* a transcript shows what was read */
				printf("%s\n", line);
			if (ll == 0)
				continue;
			if (strcmp(line, "quit") == 0 || strcmp(line, "q") == 0)
				goto done;
			if (strcmp(line, "?") == 0 || strcmp(line, "moves") == 0) {
				list_moves(rs, pos.data, pos.len, turn, 0);
				continue;
			}
			if (strcmp(line, "hint") == 0) {
				list_moves(rs, pos.data, pos.len, turn, 1);
				continue;
			}
			child.len = 0;
			if (cg_rs_move_parse(rs, pos.data, pos.len,
			    (enum cg_side)turn, line, &child) < 0) {
				printf("illegal move '%s': %s\n", line,
				    cg_rs_errmsg(rs));
				continue;
			}
			break;
		}
		pos.len = 0;
		cg_buf_add(&pos, child.data, child.len);
		turn = !turn;
	}
done:
	free(line);
	cg_buf_free(&pos);
	cg_buf_free(&child);
	cg_kb_close_all();
	cg_plugin_unload_all();
	cg_close_stdout();
	return 0;
}
