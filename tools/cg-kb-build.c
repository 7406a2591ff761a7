/* cg-kb-build - build, merge and verify knowledge bases (cgkb(5)). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/jobs.h"
#include "base/tool.h"
#include "base/util.h"
#include "base/watch.h"
#include "kb/build.h"
#include "kb/kb.h"
#include "kb/kbfile.h"
#include "kb/loopybuild.h"

static const char usage[] =
    "[-anv] [-k KINDS] [-r NAME[:PARAMS]] [--family TEXT] [--shard K/N]\n"
    "           [--measure M[-M]] [--jobs N] [--max-memory MB] -o FILE\n"
    "           [-K BASE] [-P DIR] [file ...]\n"
    "       cg-kb-build --merge -o FILE [-v] BASE ...\n"
    "       cg-kb-build --verify [-P DIR] [-v] BASE";
static const char help[] =
    "Build a knowledge base (cgkb(5)) of solved positions: every position of a\n"
    "family the ruleset enumerates (--family), or the roots of the input\n"
    "documents, stored once per symmetry class with the chosen value kinds.\n"
    "Values come from the documents' annotations (A ID KIND VALUE) when present,\n"
    "otherwise from the engines, in this process and on every core.\n"
    "\n"
    "  -k, --kinds LIST     value kinds, comma-separated (default canon,outcome):\n"
    "                       canon, outcome, nimber, misere, misere-nimber, genus,\n"
    "                       or a cg-canon -p property; loopy rulesets:\n"
    "                       outcome, remoteness (the default), nimber\n"
    "  -r NAME[:PARAMS]     the ruleset (bare positions in the input)\n"
    "      --family TEXT    enumerate this family of positions (needs -r);\n"
    "                       a loopy ruleset's is solved whole, closed under\n"
    "                       moves, by retrograde analysis\n"
    "      --shard K/N      build only shard K of N (K from 1)\n"
    "      --measure M[-M]  only positions whose measure (what every move\n"
    "                       decreases) lies in this range: build in waves\n"
    "                       (not for a loopy ruleset)\n"
    "      --jobs N         worker threads (default: every core)\n"
    "      --max-memory MB  stop, saving the checkpoint, past MB resident\n"
    "                       (default: 7/8 of the machine; 0: no limit)\n"
    "      --progress       progress and figures on standard error (-v)\n"
    "  -a, --all-nodes      take every node of the documents, not just roots\n"
    "  -o, --output FILE    the base to write (atomically; - for stdout)\n"
    "      --checkpoint F   resume file (default FILE.ckpt)\n"
    "      --block-size N   uncompressed bytes per block (default 4096)\n"
    "      --text           store canonical forms as text (default: as a DAG\n"
    "                       of games, far smaller; --games says so too)\n"
    "      --batch N        positions per round between checkpoints\n"
    "                       (default 20000)\n"
    "  -n, --dry-run        print the number of positions (of this shard) and stop\n"
    "      --engine-only    outcome and nimber by search, even when the\n"
    "                       canonical forms are built\n"
    "  -K BASE              let the engines use BASE while computing\n"
    "      --merge          join shards (or whole bases) into FILE\n"
    "      --verify         check BASE: checksums, order, canonical keys, and\n"
    "                       every entry re-derived from its children\n"
    "  -P DIR               also search DIR for ruleset plugins\n"
    "  -v, --verbose        progress and figures on standard error\n"
    "  -h, --help           show this help\n"
    "      --version        show the version\n";

enum {
	OPT_FAMILY = CG_OPT_TOOL_BASE, OPT_SHARD, OPT_MERGE, OPT_VERIFY,
	OPT_BLOCK, OPT_BATCH, OPT_CKPT, OPT_ENGINE, OPT_GAMES, OPT_JOBS,
	OPT_MEASURE, OPT_MAXMEM, OPT_TEXT
};

static void
parse_shard(const char *arg, uint32_t *k, uint32_t *n)
{
	unsigned long a, c;
	char *e;

	errno = 0;
	a = strtoul(arg, &e, 10);
	if (e == arg || *e != '/' || *arg == '-')
		goto bad;
	c = strtoul(e + 1, &e, 10);
	if (*e != '\0' || errno || a < 1 || c < 1 || a > c || c > 1000000)
		goto bad;
	*k = (uint32_t)a;
	*n = (uint32_t)c;
	return;
bad:
	cg_die(CG_EXIT_USAGE, "bad argument '%s' for --shard (want K/N, "
	    "1 <= K <= N <= 1000000)", arg);
}

/* M or LO-HI */
static void
parse_measure(const char *arg, struct cg_kb_build_options *o)
{
	char *e;

	errno = 0;
	o->measure_lo = strtoull(arg, &e, 10);
	o->measure_hi = o->measure_lo;
	if (e != arg && *e == '-' && e[1] >= '0' && e[1] <= '9')
		o->measure_hi = strtoull(e + 1, &e, 10);
	if (*arg < '0' || *arg > '9' || *e != '\0' || errno ||
	    o->measure_hi < o->measure_lo)
		cg_die(CG_EXIT_USAGE, "bad argument '%s' for --measure (want M "
		    "or LO-HI, 0 <= LO <= HI <= %llu)", arg, ULLONG_MAX);
	o->measured = 1;
}

#define NO_BASE "its positions have no values a base stores"

static void
on_document(struct cg_doc *d, void *arg)
{
	cg_doc_refuse_results(d, NO_BASE);
	cg_kb_builder_document(arg, d);
}

/* FILE.ckpt beside a regular output file, unless one was named. */
static char *
checkpoint_for(const char *out, const char *named)
{
	struct stat st;
	char *c;

	if (named != NULL)
		return cg_xstrdup(named);
	if (strcmp(out, "-") == 0 || (stat(out, &st) == 0 &&
	    !S_ISREG(st.st_mode)))
		return NULL;
	c = cg_xmalloc(strlen(out) + 6);
	sprintf(c, "%s.ckpt", out);
	return c;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, CG_OPT_VERSION },
		{ "kinds", required_argument, NULL, 'k' },
		{ "family", required_argument, NULL, OPT_FAMILY },
		{ "shard", required_argument, NULL, OPT_SHARD },
		{ "measure", required_argument, NULL, OPT_MEASURE },
		{ "all-nodes", no_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "checkpoint", required_argument, NULL, OPT_CKPT },
		{ "block-size", required_argument, NULL, OPT_BLOCK },
		{ "batch", required_argument, NULL, OPT_BATCH },
		{ "jobs", required_argument, NULL, OPT_JOBS },
		{ "max-memory", required_argument, NULL, OPT_MAXMEM },
		{ "merge", no_argument, NULL, OPT_MERGE },
		{ "verify", no_argument, NULL, OPT_VERIFY },
		{ "verbose", no_argument, NULL, 'v' },
		{ "progress", no_argument, NULL, 'v' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "engine-only", no_argument, NULL, OPT_ENGINE },
		{ "games", no_argument, NULL, OPT_GAMES },
		{ "text", no_argument, NULL, OPT_TEXT },
		{ NULL, 0, NULL, 0 },
	};
	struct cg_kb_build_options o;
	struct cg_kb_builder *b;
	const char *spec = NULL, *out = NULL, *ckpt_named = NULL;
	char *ckpt;
	unsigned long block;
	int c, do_merge = 0, do_verify = 0, dry_run = 0;
	double t0;

	cg_tool_init(argc, argv);
	memset(&o, 0, sizeof o);
	o.shard_k = o.shard_n = 1;
	o.batch = 20000;
	o.jobs = cg_jobs_default();
	while ((c = getopt_long(argc, argv, "ahk:K:no:P:r:v", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'a': o.all_nodes = 1; break;
		case 'k': o.kinds = optarg; break;
		case 'K': cg_kb_add(optarg); o.use_kb = 1; break;
		case 'o': out = optarg; break;
		case 'r': spec = optarg; break;
		case 'v': o.progress = 1; break;
		case 'n': dry_run = 1; break;
		case OPT_FAMILY: o.family = optarg; break;
		case OPT_SHARD: parse_shard(optarg, &o.shard_k, &o.shard_n); break;
		case OPT_MEASURE: parse_measure(optarg, &o); break;
		case OPT_CKPT: ckpt_named = optarg; break;
		case OPT_ENGINE: o.search_only = 1; break;
		case OPT_GAMES: o.text = 0; break;
		case OPT_TEXT: o.text = 1; break;
		case OPT_JOBS: o.jobs = cg_jobs_parse(optarg); break;
		case OPT_MAXMEM:
			cg_watch_memory(cg_parse_count(optarg, "--max-memory",
			    0, CG_MEMORY_MB_MAX));
			break;
		case OPT_BLOCK:
			block = cg_parse_count(optarg, "--block-size", 64,
			    1ul << 26);
			o.block_size = (uint32_t)block;
			break;
		case OPT_BATCH:
			o.batch = cg_parse_count(optarg, "--batch", 1,
			    ULONG_MAX);
			break;
		case OPT_MERGE: do_merge = 1; break;
		case OPT_VERIFY: do_verify = 1; break;
		case 'P': cg_plugin_add_dir(optarg); break;
		case 'h': cg_help(usage, help);
		case CG_OPT_VERSION: cg_version();
		default: cg_usage(usage);
		}
	}
	cg_watch_memory_default();
	argc -= optind;
	argv += optind;
	cg_watch_signals();
	if (do_merge && do_verify)
		cg_die(CG_EXIT_USAGE, "--merge and --verify do not go together");
	if (do_verify) {
		if (argc != 1 || out || o.family || spec || o.kinds)
			cg_die(CG_EXIT_USAGE, "--verify takes one base and no "
			    "-o, --family, -r or -k");
		cg_kb_verify(argv[0], o.batch, o.progress);
		goto done;
	}
	if (out == NULL && !(dry_run && !do_merge))
		cg_die(CG_EXIT_USAGE, "no output: name the base to write with "
		    "-o FILE");
	if (do_merge) {
		if (argc < 1 || o.family || spec || o.kinds || o.shard_n > 1)
			cg_die(CG_EXIT_USAGE, "--merge takes bases to join and "
			    "-o, not --family, -r, -k or --shard");
		cg_kb_merge(argc, argv, out, !o.text, o.progress);
		goto done;
	}
	if (o.family != NULL && (spec == NULL || argc > 0))
		cg_die(CG_EXIT_USAGE, "--family needs -r NAME and no input "
		    "files");
	if (o.use_kb && spec != NULL)
		cg_kb_expect(cg_plugin_get(spec, CG_EXIT_USAGE));
	t0 = cg_elapsed();
	if (spec != NULL) {
		cg_rs_refuse_result(cg_plugin_get(spec, CG_EXIT_USAGE), NULL, 0,
		    NO_BASE);
		if (cg_rs_loopy(cg_plugin_get(spec, CG_EXIT_USAGE))) {
			/* one retrograde analysis of a family */
			cg_kb_loopy_build(&o, cg_plugin_get(spec,
			    CG_EXIT_USAGE), out, dry_run);
			if (o.progress && !dry_run && strcmp(out, "-") != 0)
				cg_kb_report(out, cg_elapsed() - t0);
			goto done;
		}
	}
	b = cg_kb_builder_new(&o, spec ? cg_plugin_get(spec, CG_EXIT_USAGE) :
	    NULL);
	if (o.family != NULL)
		cg_kb_builder_family(b);
	else
		cg_each_document(argc, argv, spec, on_document, b);
	if (o.progress)
		fprintf(stderr, "%s: %zu positions, %zu up to symmetry%s\n",
		    cg_progname, cg_kb_builder_seen(b), cg_kb_builder_count(b),
		    o.shard_n > 1 ? " in this shard" : "");
	if (dry_run) {
		printf("%zu\n", cg_kb_builder_count(b));
		cg_check_write(stdout, "standard output");
		fflush(stdout);
		if (o.family != NULL)
			cg_kb_builder_estimate(b, getenv("CG_ESTIMATE_BUDGET") ?
			    atof(getenv("CG_ESTIMATE_BUDGET")) : 5.0);
		cg_kb_builder_free(b);
		goto done;
	}
	ckpt = checkpoint_for(out, ckpt_named);
	cg_kb_builder_compute(b, ckpt);
	cg_kb_builder_write(b, out);
	if (o.progress)
		cg_kb_report(out, cg_elapsed() - t0);
	free(ckpt);
	cg_kb_builder_free(b);
done:
	if (o.use_kb)
		cg_kb_close_all();
	cg_plugin_unload_all();
	cg_close_stdout();
	return 0;
}
