/* cg-play - play a position against the knowledge base and engines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kb/kb.h"
#include "kb/kbmove.h"
#include "host/plugin.h"
#include "play/play.h"
#include "solve/loopy.h"
#include "base/tool.h"
#include "base/util.h"

static const char usage[] =
    "-r NAME[:PARAMS] [-y left|right] [-f left|right] [-K BASE] [-P DIR]\n"
    "               POSITION";
static const char help[] =
    "Play POSITION against the computer under normal play (who cannot move\n"
    "loses), or to the result a game won on the board declares, in any\n"
    "ruleset; in a loopy one, a position that comes back a third time with\n"
    "the same player to move is a draw.  The position is shown before each move (a\n"
    "board as a grid with coordinates; a sum with its components).  Type a\n"
    "move as\n"
    "  #N       the Nth move of the list ? shows\n"
    "  NAME     its name in the ruleset's notation (Nim 1:2, Amazons\n"
    "           a1-b2/a1), where the ruleset names moves\n"
    "  POSITION the position it leads to (or an equivalent: a mirror image)\n"
    "or one of\n"
    "  ?        list your moves, numbered, with the positions they lead to\n"
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
static char *line;        /* the person's last line */
static size_t line_cap;

static int
parse_side(const char *s)
{
	if (strcmp(s, "left") == 0 || strcmp(s, "l") == 0 ||
	    strcmp(s, "L") == 0)
		return CG_LEFT;
	if (strcmp(s, "right") == 0 || strcmp(s, "r") == 0 ||
	    strcmp(s, "R") == 0)
		return CG_RIGHT;
	cg_die(CG_EXIT_USAGE, "bad side '%s' (want left or right)", s);
}

static void
die_rs(struct cg_plugin *rs)
{
	cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name, cg_rs_errmsg(rs));
}

static void
show(struct cg_plugin *rs, const unsigned char *pos, size_t len)
{
	struct cg_buf t;

	cg_buf_init(&t);
	cg_play_show(rs, pos, len, "  ", &t);
	printf("\n%s\n", cg_buf_str(&t));
	cg_buf_free(&t);
}

/* "#N  NAME  leads to POSITION", columns as wide as the widest number
 * and name of the list (no name column when no move has a name). */
static void
print_move(struct cg_plugin *rs, const struct cg_kbmove *m, size_t n,
    size_t i, struct cg_buf *t)
{
	int nw = 1, mw = 0, w;
	size_t k;
	char num[24];

	for (k = n; k >= 10; k /= 10)
		nw++;
	for (k = 0; k < n; k++)
		if (m[k].move != NULL && (w = (int)strlen(m[k].move)) > mw)
			mw = w;
	t->len = 0;
	if (cg_rs_print(rs, m[i].child, m[i].len, t) < 0)
		die_rs(rs);
	snprintf(num, sizeof num, "#%zu", i + 1);
	printf("  %-*s  ", nw + 1, num);
	if (mw > 0)
		printf("%-*s  ", mw, m[i].move ? m[i].move : "");
	printf("leads to %s", cg_buf_str(t));
}

/* Every move of side (best_only: the best ones with their values). */
static void
list_moves(struct cg_plugin *rs, const unsigned char *pos, size_t len,
    int side, int best_only)
{
	static const char *const kinds[] = { "outcome" };
	struct cg_kbmove *m;
	struct cg_buf t;
	size_t n, i;

	n = cg_kb_moves(rs, pos, len, (enum cg_side)side,
	    best_only ? kinds : NULL, 0, &m);
	if (n == 0)
		printf("  (no move)\n");
	cg_buf_init(&t);
	for (i = 0; i < n; i++) {
		char *v;

		if (best_only && !m[i].best)
			continue;
		print_move(rs, m, n, i, &t);
		if (!best_only) {
			putchar('\n');
			continue;
		}
		/* the canonical form when a base has it */
		v = cg_kb_lookup(rs, m[i].child, m[i].len, "canon");
		printf(", %s: %s%s%s%s\n", m[i].outcome ? m[i].outcome : "?",
		    m[i].wins ? "you win" : m[i].draws ? "a draw with best "
		    "play" : "you lose against best play",
		    v ? " (value " : "", v ? v : "", v ? ")" : "");
		free(v);
	}
	cg_buf_free(&t);
	cg_kb_moves_free(m, n, 0);
}

/* The computer's move: the first best one.  Returns 0 when it cannot
 * move. */
static int
computer_moves(struct cg_plugin *rs, struct cg_buf *pos, int turn)
{
	static const char *const kinds[1] = { "outcome" };
	struct cg_kbmove *m;
	struct cg_buf t;
	size_t n, i;

	n = cg_kb_moves(rs, pos->data, pos->len, (enum cg_side)turn, kinds, 0,
	    &m);
	if (n == 0)
		return 0;
	for (i = 0; i < n && !m[i].best; i++)
		;
	cg_buf_init(&t);
	if (cg_rs_print(rs, m[i].child, m[i].len, &t) < 0)
		die_rs(rs);
	if (m[i].move != NULL)
		printf("%s (computer) plays %s", side_name[turn], m[i].move);
	else
		printf("%s (computer) plays #%zu, to %s", side_name[turn],
		    i + 1, cg_buf_str(&t));
	printf("%s\n", m[i].wins ? "" : m[i].draws ? "  (a draw with best "
	    "play)" : "  (every move loses)");
	pos->len = 0;
	cg_buf_add(pos, m[i].child, m[i].len);
	cg_buf_free(&t);
	cg_kb_moves_free(m, n, 0);
	return 1;
}

/* Read the person's move into pos.  Returns 0 at quit or end of input. */
static int
person_moves(struct cg_plugin *rs, struct cg_buf *pos, int turn)
{
	struct cg_kbmove *m;
	struct cg_buf why;
	ssize_t ll;
	size_t n;
	long k = -1;

	n = cg_kb_moves(rs, pos->data, pos->len, (enum cg_side)turn, NULL, 0,
	    &m);
	cg_buf_init(&why);
	while (k < 0) {
		printf("%s to move> ", side_name[turn]);
		fflush(stdout);
		ll = getline(&line, &line_cap, stdin);
		if (ll < 0) {
			printf("\n");
			break;
		}
		while (ll > 0 && (line[ll - 1] == '\n' ||
		    line[ll - 1] == '\r' || line[ll - 1] == ' '))
			line[--ll] = '\0';
		if (!isatty(0))  /* a transcript shows what was read */
			printf("%s\n", line);
		if (ll == 0)
			continue;
		if (strcmp(line, "quit") == 0 || strcmp(line, "q") == 0)
			break;
		if (strcmp(line, "?") == 0 || strcmp(line, "moves") == 0) {
			list_moves(rs, pos->data, pos->len, turn, 0);
			continue;
		}
		if (strcmp(line, "hint") == 0) {
			list_moves(rs, pos->data, pos->len, turn, 1);
			continue;
		}
		why.len = 0;
		k = cg_play_choose(rs, pos->data, pos->len, (enum cg_side)turn,
		    m, n, line, &why);
		if (k < 0)
			printf("illegal move '%s': %s\n", line, cg_buf_str(&why));
		else if (why.len > 0)
			printf("(%s)\n", cg_buf_str(&why));
	}
	if (k >= 0) {
		pos->len = 0;
		cg_buf_add(pos, m[k].child, m[k].len);
	}
	cg_buf_free(&why);
	cg_kb_moves_free(m, n, 0);
	return k >= 0;
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
	const char *spec = NULL;
	struct cg_plugin *rs;
	struct cg_buf pos, end;
	struct cg_play_history *hist = cg_play_history_new();
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
	if (spec == NULL)
		cg_die(CG_EXIT_USAGE, "no ruleset: name it with -r NAME (cg-parse "
		    "-l lists them)");
	if (argc - optind != 1)
		cg_die(CG_EXIT_USAGE, "want one position to play from, got %d",
		    argc - optind);
	rs = cg_plugin_get(spec, CG_EXIT_USAGE);
	/* a bad base is reported before the game starts, not at the first
	 * lookup (perhaps moves into it) */
	cg_kb_check(rs);
	cg_buf_init(&pos);
	cg_buf_init(&end);
	if (cg_rs_parse(rs, argv[optind], strlen(argv[optind]), &pos) < 0)
		cg_die(CG_EXIT_DATA, "position '%s': %s", argv[optind],
		    cg_rs_errmsg(rs));
	printf("You play %s; %s moves first.\nType a move (a name, #N or the "
	    "position it leads to), ?, hint or quit.\n", side_name[you],
	    side_name[turn]);
	for (;;) {
		show(rs, pos.data, pos.len);
		end.len = 0;
		c = cg_play_repeat(hist, rs, pos.data, pos.len, turn, &end);
		printf("%s", cg_buf_str(&end));
		if (c)
			break;
		end.len = 0;
		if ((c = cg_play_over(rs, pos.data, pos.len, turn, &end)) >= 0) {
			printf("%s%s.\n", cg_buf_str(&end), c == you ? " (you)" :
			    c == 2 ? "" : " (the computer)");
			break;
		}
		if (turn == you ? !person_moves(rs, &pos, turn) :
		    !computer_moves(rs, &pos, turn))
			break;
		turn = !turn;
	}
	cg_buf_free(&pos);
	cg_buf_free(&end);
	cg_play_history_free(hist);
	cg_loopy_free_all();
	free(line);
	cg_kb_close_all();
	cg_plugin_unload_all();
	cg_close_stdout();
	return 0;
}
