#!/usr/bin/env bats
# The plugin ABI seen from outside: the example ruleset in examples/ruleset
# built out of tree with cc and loaded through CG_PLUGIN_PATH, and broken
# plugins that must each give one clear line and exit 1 (2 for bad
# parameters typed on the command line).
load common

PLUGIN_FLAGS="-std=c17 -fPIC -shared -fvisibility=hidden -Wl,-z,defs"

setup() {
	T=$(mktemp -d)
	cc $PLUGIN_FLAGS -I"$CG_ROOT/include" -o "$T/hstring.so" \
	    "$CG_ROOT/examples/ruleset/hstring.c"
}

teardown() {
	rm -rf "$T"
}

# build_broken NAME C-SOURCE: compile a plugin NAME.so into $T/broken
build_broken() {
	mkdir -p "$T/broken"
	printf '%s\n' "$2" > "$T/broken/$1.c"
	cc $PLUGIN_FLAGS -I"$CG_ROOT/include" -o "$T/broken/$1.so" "$T/broken/$1.c"
}

# A descriptor whose fields the tests vary: abi_version, struct_size.
descriptor() {
	cat <<EOF2
#include <cg/ruleset.h>
static int p(const struct cg_context *c, const char *t, size_t n, struct cg_buf *o) { return 0; }
static int q(const struct cg_context *c, const unsigned char *s, size_t n, struct cg_buf *o) { return 0; }
static int r(const struct cg_context *c, const unsigned char *s, size_t n, enum cg_side d, cg_emit_fn e, void *x) { return 0; }
static const struct cg_ruleset rs = { .abi_version = $2, .struct_size = $3,
  .name = "$1", .summary = "broken", .parse = p, .print = q, .options = r };
__attribute__((visibility("default"))) const struct cg_ruleset *
cg_ruleset_entry(uint32_t abi, const struct cg_host *h) { return &rs; }
EOF2
}

# one_line_error STATUS: the last run failed with STATUS and one line
one_line_error() {
	[ "$status" -eq "$1" ] || { echo "status $status, want $1: $output"; return 1; }
	[ "${#lines[@]}" -eq 1 ] || { echo "want one line: $output"; return 1; }
}

@test "the example ruleset builds out of tree and cg-parse uses it" {
	CG_PLUGIN_PATH=$T run cg cg-parse -r hstring LLR
	assert_success
	assert_output "$(printf 'cgt\t1\nruleset\thstring\nN\t1\tLLR\nroot\t1\nend')"
}

@test "the example ruleset works in cg-options without rebuilding anything" {
	# LLR: Left removes edge 1 (all falls: 0) or edge 2 (leaves L);
	# Right removes edge 3 (leaves LL).  RL: Left leaves R, Right leaves 0.
	export CG_PLUGIN_PATH=$T
	run sh -c 'cg-parse -r hstring LLR RL | cg-options -t'
	assert_success
	assert_output "$(printf 'LLR\t0, L\tLL\nRL\tR\t0')"
}

@test "the example's whole tree reads back byte for byte" {
	export CG_PLUGIN_PATH=$T
	cg-parse -r hstring LRLRL | cg-options -a > "$T/a.cgt"
	cg-options -a "$T/a.cgt" > "$T/b.cgt"
	cmp "$T/a.cgt" "$T/b.cgt"
	# 6 distinct strings: the 5 prefixes of LRLRL and 0
	[ "$(grep -c '^N' "$T/a.cgt")" -eq 6 ]
}

@test "the example's Makefile builds it" {
	cp "$CG_ROOT/examples/ruleset/hstring.c" "$CG_ROOT/examples/ruleset/Makefile" "$T/"
	rm -f "$T/hstring.so"
	# a clean make: not the flags of a make check that runs this test
	run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$T" CG_CFLAGS="-I$CG_ROOT/include"
	assert_success
	[ -f "$T/hstring.so" ]
}

@test "the example writes sums as cg-ruleset(3) says: strings joined by '+', read back" {
	export CG_PLUGIN_PATH=$T
	# Berlekamp's rule for Hackenbush strings: LLR = 1 + 1/2, RL = -1 +
	# 1/2; by hand, LLR = {0, L | LL} = {0, 1 | 2} = 3/2 and RL = {R | 0}
	# = {-1 | 0} = -1/2, so LLR+RL = 1
	run sh -c 'cg-parse -r hstring LLR+RL | cg-canon -t'
	assert_output "$(printf 'LLR+RL\t1')"
	# a string cut at its first edge goes, with its '+'
	run sh -c 'cg-parse -r hstring LLR+RL | cg-options -t'
	assert_output "$(printf 'LLR+RL\tRL, L+RL, LLR+R\tLL+RL, LLR')"
	# the host writes the options of a stored tree as sums of their
	# components; the ruleset reads every one back, to the same value
	cg-parse -r hstring LLR+RL | cg-options | cg-outcome --children > "$T/c"
	[ "$(wc -l < "$T/c")" -eq 5 ]
	grep -q "$(printf '\tL:1:2\tRL+L\tL$')" "$T/c"
	cut -f3 "$T/c" | cg-parse -r hstring | cg-outcome -t > "$T/back"
	diff <(cut -f3,4 "$T/c") "$T/back"
}

@test "-P DIR finds a plugin too" {
	run cg cg-parse -P "$T" -r hstring RR
	assert_success
	assert_line --index 2 "$(printf 'N\t1\tRR')"
}

@test "CG_PLUGIN_PATH is searched before -P" {
	mkdir "$T/other"
	cp "$CG_BUILD/plugins/nim.so" "$T/other/hstring.so"
	CG_PLUGIN_PATH=$T run cg cg-parse -P "$T/other" -r hstring L
	assert_success
}

@test "cg-parse -l lists the rulesets found, sorted, with summaries" {
	CG_PLUGIN_PATH=$T run cg cg-parse -l
	assert_success
	assert_line "$(printf 'hstring\tBlue-Red Hackenbush strings (an example ruleset)')"
	assert_line "$(printf 'nim\tNim: take any number of counters from one heap')"
	names=$(printf '%s\n' "$output" | cut -f1)
	[ "$names" = "$(printf '%s\n' "$names" | LC_ALL=C sort -u)" ]
}

@test "cg-parse -l reports a broken plugin and fails" {
	echo 'not a plugin' > "$T/junk.so"
	CG_PLUGIN_PATH=$T run cg cg-parse -l
	[ "$status" -eq 1 ]
	assert_line --partial "junk.so"
	assert_line --partial "hstring"
}

@test "bad position text: line, column and the plugin's reason" {
	export CG_PLUGIN_PATH=$T
	run sh -c 'printf "LR\nLXR\n" | cg-parse -r hstring 2>&1 >/dev/null'
	one_line_error 1
	assert_output "cg-parse: -:2: bad hstring position 'LXR': column 2: expected 'L', 'R' or '+', found 'X'"
}

@test "parameters reach init and change the rules" {
	CG_PLUGIN_PATH=$T run sh -c 'cg-parse -r hstring:max=2 LRL 2>&1 >/dev/null'
	one_line_error 1
	assert_output --partial "column 3: string longer than max=2"
	CG_PLUGIN_PATH=$T run cg cg-parse -r hstring:max=3 LRL
	assert_success
	assert_line "$(printf 'ruleset\thstring:max=3')"
}

@test "bad parameters on the command line: exit 2" {
	CG_PLUGIN_PATH=$T run cg cg-parse -r hstring:max=x L
	one_line_error 2
	assert_output "cg-parse: ruleset 'hstring': bad parameters 'max=x': max must be 1 to 4096"
	CG_PLUGIN_PATH=$T run cg cg-options -r hstring:size=3 /dev/stdin <<<"L"
	one_line_error 2
	run cg cg-parse -r nim:3 1
	one_line_error 2
	assert_output "cg-parse: ruleset 'nim' takes no parameters ('3')"
}

@test "bad parameters in a document: exit 1 with file and line" {
	printf 'cgt\t1\n\nruleset\thstring:max=0\nN\t1\tL\nend\n' > "$T/p.cgt"
	CG_PLUGIN_PATH=$T run cg cg-options "$T/p.cgt"
	one_line_error 1
	assert_output "cg-options: $T/p.cgt:3: ruleset 'hstring': bad parameters 'max=0': max must be 1 to 4096"
}

@test "unknown ruleset name" {
	CG_PLUGIN_PATH=$T run cg cg-parse -r nosuch 1
	one_line_error 1
	assert_output --regexp "^cg-parse: unknown ruleset 'nosuch' \(searched $T:.*\)$"
	printf 'cgt\t1\nruleset\tnosuch\nend\n' > "$T/u.cgt"
	run cg cg-options "$T/u.cgt"
	one_line_error 1
	assert_output --partial "cg-options: $T/u.cgt:2: unknown ruleset 'nosuch'"
}

@test "a ruleset name that is not a name" {
	run cg cg-parse -r '../nim' 1
	one_line_error 2
	assert_output --partial "bad ruleset name '../nim'"
}

@test "a file that is not a shared object" {
	mkdir -p "$T/broken"
	echo 'hello' > "$T/broken/text.so"
	CG_PLUGIN_PATH=$T/broken run cg cg-parse -r text 1
	one_line_error 1
	assert_output --regexp "^cg-parse: cannot load ruleset 'text': $T/broken/text.so: .*(ELF|too short).*$"
}

@test "a shared object without the entry symbol" {
	build_broken noentry 'int cg_something(void) { return 1; }'
	CG_PLUGIN_PATH=$T/broken run cg cg-parse -r noentry 1
	one_line_error 1
	assert_output "cg-parse: cannot load ruleset 'noentry': $T/broken/noentry.so: not a cgtools ruleset (no 'cg_ruleset_entry' symbol)"
}

@test "a plugin built for another ABI version" {
	build_broken abi99 "$(descriptor abi99 99 'sizeof(struct cg_ruleset)')"
	CG_PLUGIN_PATH=$T/broken run cg cg-parse -r abi99 1
	one_line_error 1
	assert_output "cg-parse: cannot load ruleset 'abi99': $T/broken/abi99.so: ruleset built for ABI version 99, host has 1"
}

@test "a plugin that refuses the host's ABI version" {
	build_broken refuses '#include <cg/ruleset.h>
__attribute__((visibility("default"))) const struct cg_ruleset *
cg_ruleset_entry(uint32_t abi, const struct cg_host *h) { return 0; }'
	CG_PLUGIN_PATH=$T/broken run cg cg-parse -r refuses 1
	one_line_error 1
	assert_output "cg-parse: cannot load ruleset 'refuses': $T/broken/refuses.so: ruleset refuses host ABI version 1"
}

@test "a descriptor shorter than the required fields" {
	build_broken short "$(descriptor short CG_ABI_VERSION 16)"
	CG_PLUGIN_PATH=$T/broken run cg cg-parse -r short 1
	one_line_error 1
	assert_output --regexp "^cg-parse: cannot load ruleset 'short': $T/broken/short.so: ruleset descriptor too short \(16 bytes, need [0-9]+\)$"
}

@test "a descriptor whose name is not its file's" {
	build_broken alias "$(descriptor other CG_ABI_VERSION 'sizeof(struct cg_ruleset)')"
	CG_PLUGIN_PATH=$T/broken run cg cg-parse -r alias 1
	one_line_error 1
	assert_output "cg-parse: $T/broken/alias.so: ruleset calls itself 'other', not 'alias'"
}

@test "a descriptor without parse" {
	build_broken noparse '#include <cg/ruleset.h>
static const struct cg_ruleset rs = { .abi_version = CG_ABI_VERSION,
  .struct_size = sizeof rs, .name = "noparse" };
CG_RULESET_ENTRY(noparse, rs)'
	CG_PLUGIN_PATH=$T/broken run cg cg-parse -r noparse 1
	one_line_error 1
	assert_output --partial "lacks a valid name, parse, print or options"
}

@test "every extension a plugin answers is declared in a header of include/cg/ (or include/cgx/, the private ones)" {
	cd "$CG_ROOT"
	# extension names are compared through their macros, never as literals
	run grep -rn 'strcmp(name, "' plugins
	assert_failure
	names=$(grep -rhoE 'strcmp\(name, CG_EXT_[A-Z_]+\)' plugins | grep -oE 'CG_EXT_[A-Z_]+' | sort -u)
	[ -n "$names" ]
	for n in $names; do
		grep -qE "^#define $n \"cg\\.[a-z-]+\"" include/cg/*.h include/cgx/*.h || { echo "$n is not declared in include/cg/ or include/cgx/"; return 1; }
	done
	# one header per extension
	[ "$(grep -lE '^#define CG_EXT_' include/cg/*.h include/cgx/*.h | wc -l)" -eq "$(grep -hE '^#define CG_EXT_' include/cg/*.h include/cgx/*.h | wc -l)" ]
}

@test "a capability flag without its hook, or a hook without its flag" {
	# flags say what a ruleset can do (cg-parse -L): they must be true
	build_broken noenum "$(descriptor noenum CG_ABI_VERSION 'sizeof(struct cg_ruleset)' |
	    sed 's/\.summary = "broken",/.summary = "broken", .flags = CG_ENUMERATES,/')"
	CG_PLUGIN_PATH=$T/broken run cg cg-parse -r noenum 1
	one_line_error 1
	assert_output --partial "ruleset 'noenum': CG_ENUMERATES set without its hook"
	build_broken nosym "$(descriptor nosym CG_ABI_VERSION 'sizeof(struct cg_ruleset)' |
	    sed 's/\.options = r };/.options = r, .canonical = q };/')"
	CG_PLUGIN_PATH=$T/broken run cg cg-parse -r nosym 1
	one_line_error 1
	assert_output --partial "ruleset 'nosym': canonical() given without the flag that says so"
}

@test "cg-parse -L lists what each ruleset can do" {
	run cg cg-parse -L
	assert_success
	assert_line --regexp "^amazons	symmetry,decomposes,enumerates,board,measure,rank	Amazons"
	assert_line --regexp "^domineering	symmetry,decomposes,synchronized,enumerates,board,measure,rank	Domineering"
	assert_line --regexp "^cram	impartial,symmetry,decomposes,enumerates,board,measure	Cram"
	assert_line --regexp "^nim	impartial,symmetry,decomposes	Nim"
	assert_line --regexp "^push	synchronized	Push"
}

@test "an unknown ruleset: the nearest name suggested, CG_PLUGIN_PATH named for pipelines" {
	run cg cg-parse -r domineerin x
	[ "$status" -eq 1 ]
	assert_output --partial "unknown ruleset 'domineerin': did you mean 'domineering'?"
	assert_output --partial "export CG_PLUGIN_PATH=DIR for a whole pipeline"
	run cg cg-parse -r qqqqqqq x
	[ "$status" -eq 1 ]
	refute_output --partial "did you mean"
}

@test "cg.impartial is asked: a ruleset impartial for some parameters only is searched as impartial there" {
	# take:same is one heap from which either player takes 1 or 2 (nim
	# values n mod 3, Winning Ways' subtraction game S(1,2)); take:split
	# lets Left take 1 only and Right 2 only, a partizan game.  Neither
	# has the CG_IMPARTIAL flag or heap rules: only cg.impartial says
	# which is impartial.
	build_broken take '#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cg/ruleset.h>
#include <cg/impartial.h>
static int init(const struct cg_host *h, const char *p, void **st, struct cg_error *e) {
	if (p == NULL || (strcmp(p, "same") != 0 && strcmp(p, "split") != 0))
		return h->error(e, 0, "want same or split");
	*st = (void *)(strcmp(p, "same") == 0 ? "s" : "p");
	return CG_OK;
}
static int parse(const struct cg_context *c, const char *t, size_t n, struct cg_buf *o) {
	if (n == 0 || n > 3 || strspn(t, "0123456789") != n)
		return c->host->error(c->err, 1, "want a heap size");
	return c->host->buf_put(o, t, n);
}
static int print(const struct cg_context *c, const unsigned char *s, size_t n, struct cg_buf *o) {
	return c->host->buf_put(o, s, n);
}
static int options(const struct cg_context *c, const unsigned char *s, size_t n, enum cg_side d, cg_emit_fn emit, void *x) {
	char b[8];
	int h = atoi(memcpy(memset(b, 0, sizeof b), s, n)), k, same = *(const char *)c->state == 0x73;
	for (k = 1; k <= 2; k++) {
		if (!same && k != (d == CG_LEFT ? 1 : 2))
			continue;
		if (h >= k) {
			int m = snprintf(b, sizeof b, "%d", h - k);
			if (emit(x, (const unsigned char *)b, (size_t)m, NULL))
				return CG_STOP;
		}
	}
	return CG_OK;
}
static const void *ext(const struct cg_context *c, const char *name) {
	if (strcmp(name, CG_EXT_IMPARTIAL) == 0 && *(const char *)c->state == 0x73)
		return c->state;
	return NULL;
}
static const struct cg_ruleset rs = { .abi_version = CG_ABI_VERSION,
  .struct_size = sizeof rs, .name = "take", .version = "1", .summary = "take 1 or 2",
  .init = init, .parse = parse, .print = print, .options = options, .extension = ext };
CG_RULESET_ENTRY(take, rs)'
	run sh -c "printf '5\n7\n9\n' | cg-outcome -P '$T/broken' -r take:same -n -t"
	assert_success
	assert_output "$(printf '5\t2\n7\t1\n9\t0')"
	run sh -c "printf '5\n' | cg-outcome -P '$T/broken' -r take:split -n -t"
	assert_failure 1
	assert_output --partial "-n needs an impartial game"
	# and a nimber knowledge base is allowed for the one, not the other
	run sh -c "printf '5\n' | cg-kb-build -P '$T/broken' -r take:same -k nimber -o '$T/t.kb'"
	assert_success
	run sh -c "printf '5\n' | cg-kb-build -P '$T/broken' -r take:split -k nimber -o '$T/u.kb'"
	assert_failure 2
}

@test "cg.result: a game won, drawn or scored is solved with the nine outcome classes" {
	# nodes of a hand-made game: l, r, d are over (Left won, Right won,
	# a draw); s is not over and has no moves (what 'stuck' says); every
	# other node has one Left and one Right move (two for k, m):
	#   a: l|l  b: r|r  c: l|r  e: r|l  f: d|d  g: d|l  h: r|d  i: l|d
	#   j: d|r  k: r,d|l,d  m: e|c
	# By hand, (Left moving first, Right moving first): a (L wins, L
	# wins) L; b R; c (L, R) N; e (R, L) P; f D; g (draw, L) PHat; h (R,
	# draw) PCheck; i (L, draw) NHat; j (draw, R) NCheck; k: Left takes
	# d over r, Right d over l: D; m: Left moves to e, where Right to
	# move must go to l: Left wins; Right moves to c, where Left to move
	# goes to l: Left wins: L.
	build_broken race '#include <stdlib.h>
#include <string.h>
#include <cg/ruleset.h>
#include <cg/result.h>
static const char *const L[128] = { ['"'"'a'"'"'] = "l", ['"'"'b'"'"'] = "r", ['"'"'c'"'"'] = "l", ['"'"'e'"'"'] = "r",
  ['"'"'f'"'"'] = "d", ['"'"'g'"'"'] = "d", ['"'"'h'"'"'] = "r", ['"'"'i'"'"'] = "l", ['"'"'j'"'"'] = "d", ['"'"'k'"'"'] = "rd", ['"'"'m'"'"'] = "e" };
static const char *const R[128] = { ['"'"'a'"'"'] = "l", ['"'"'b'"'"'] = "r", ['"'"'c'"'"'] = "r", ['"'"'e'"'"'] = "l",
  ['"'"'f'"'"'] = "d", ['"'"'g'"'"'] = "l", ['"'"'h'"'"'] = "d", ['"'"'i'"'"'] = "d", ['"'"'j'"'"'] = "r", ['"'"'k'"'"'] = "ld", ['"'"'m'"'"'] = "c" };
static int result(const struct cg_context *c, const unsigned char *s, size_t n, int *res, int64_t *pay) {
	*pay = 0;
	*res = s[0] == 0x6c ? CG_RESULT_LEFT : s[0] == 0x72 ? CG_RESULT_RIGHT : s[0] == 0x64 ? CG_RESULT_DRAW : CG_RESULT_NONE;
	return CG_OK;
}
static int payoff(const struct cg_context *c, const unsigned char *s, size_t n, int64_t *pay) { *pay = 5; return CG_OK; }
static int init(const struct cg_host *h, const char *p, void **st, struct cg_error *e) {
	struct cg_result_rules *x = h->alloc(sizeof *x);
	memset(x, 0, sizeof *x);
	x->struct_size = sizeof *x;
	x->result = result;
	x->stuck = p == NULL ? CG_RESULT_DRAW : strcmp(p, "pay") == 0 ? CG_RESULT_PAYOFF : strcmp(p, "lose") == 0 ? CG_RESULT_MOVER_LOSES : 99;
	x->payoff = p != NULL && strcmp(p, "pay") == 0 ? payoff : NULL;
	*st = x;
	return CG_OK;
}
static void fini(const struct cg_host *h, void *st) { h->free(st); }
static int parse(const struct cg_context *c, const char *t, size_t n, struct cg_buf *o) {
	if (n != 1 || strchr("abcdefghijklmrs", t[0]) == NULL)
		return c->host->error(c->err, 1, "want a node");
	return c->host->buf_put(o, t, n);
}
static int print(const struct cg_context *c, const unsigned char *s, size_t n, struct cg_buf *o) {
	return c->host->buf_put(o, s, n);
}
static int options(const struct cg_context *c, const unsigned char *s, size_t n, enum cg_side d, cg_emit_fn emit, void *x) {
	const char *m = (d == CG_LEFT ? L : R)[s[0] & 127];
	for (; m != NULL && *m; m++)
		if (emit(x, (const unsigned char *)m, 1, NULL))
			return CG_STOP;
	return CG_OK;
}
static const void *ext(const struct cg_context *c, const char *name) {
	return strcmp(name, CG_EXT_RESULT) == 0 ? c->state : NULL;
}
static const struct cg_ruleset rs = { .abi_version = CG_ABI_VERSION,
  .struct_size = sizeof rs, .name = "race", .version = "1", .summary = "a hand-made game with results",
  .init = init, .fini = fini, .parse = parse, .print = print, .options = options, .extension = ext };
CG_RULESET_ENTRY(race, rs)'
	run sh -c "printf '%s\n' a b c e f g h i j k m l s | cg-outcome -P '$T/broken' -r race -t"
	assert_success
	assert_output "$(printf '%s\n' 'a	L' 'b	R' 'c	N' 'e	P' 'f	D' 'g	PHat' \
	    'h	PCheck' 'i	NHat' 'j	NCheck' 'k	D' 'm	L' 'l	L' 's	D')"
	# stuck under normal play: s is P; scored: s is worth 5 to Left, and
	# a win by a condition is inf
	run sh -c "printf '%s\n' s | cg-outcome -P '$T/broken' -r race:lose -t"
	assert_output "$(printf 's\tP')"
	run sh -c "printf '%s\n' s g | cg-outcome -P '$T/broken' -r race:pay -t"
	assert_output "$(printf 's\tL\t5 5\ng\tPHat\t0 inf')"
	# the other tools refuse it; a 'stuck' the host does not know is refused
	run sh -c "echo a | cg-canon -P '$T/broken' -r race -t"
	assert_failure 1
	assert_output --partial "ruleset 'race' is won, drawn or scored on the board (cg.result)"
	run cg cg-parse -P "$T/broken" -r race:bad a
	assert_failure 1
	assert_output --partial "ruleset 'race': cg.result without result(), or with a bad 'stuck'"
}
