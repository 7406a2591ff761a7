#!/usr/bin/env bats
# Misere canonical forms in CGSuite's notation (cg-canon -m) and CGSuite's
# misere literals (cg-parse -r game), against CGSuite's published tests.
load common

# cg-canon -m -t on game literals: the columns after the position
forms() {
	local props=$1
	shift
	cg cg-parse -r game "$@" | cg cg-canon -m -t -p "$props" | cut -f2-
}

@test "misere forms: CGSuite's table of misere canonical games" {
	# Expected: CGSuite's MisereCanonicalGameTestCase.scala (lib/core/
	# src/test/scala/org/cgsuite/lang/ in the public cgsuite repository):
	# input, printed form, genus, birthday, mate, outcome
	run forms canon,genus,birthday,mate,outcome '*[0]' '*[1]' '*[2]' \
	    '*[[2]]' '*[[[2]]]' '*[2]+*[2]' '*[[*[2]+*[[2]]]]' '*[[2],0]' \
	    '*[[2],1]' '*[[*[4]+*[2]]]' '*[[[2]],[[2],1]]' \
	    '*[[[2]],[[[2],0],0,1]]' \
	    '*[*[[2],1]+*[1],[[2],*[[2]]+*[1],[[2],0]]]' \
	    '*[[[2],2,0],[[2],3],1]'
	assert_success
	assert_output "$(printf '%s\n' \
	    '*[0]	0	0	*[1]	N' \
	    '*[1]	1	1	*[0]	P' \
	    '*[2]	2	2	*[2]	N' \
	    '*[2#]	0^0	3	*[2#]	P' \
	    '*[2##]	1^1	4	*[2##]	N' \
	    '*[2[2]]	0^0	4	*[2[2]]	P' \
	    '*[2[#2#]]	0^0	6	*[2[#2#]]	P' \
	    '*[2#0]	1^2	4	*[2#1]	N' \
	    '*[2#1]	2^1420	4	*[2#0]	N' \
	    '*[4[2#]]	0^0	7	*[4[2#]]	P' \
	    '*[(2#1)2##]	0^0	5	*[(2#0)2##]	P' \
	    '*[((2#0)10)2##]	0^0	6	*[((2#1)10)2##]	P' \
	    '*[((2#0)2[#1]2#)(2#1)[1]]	0^120	6	*[((2#1)2[#1]2#)(2#0)[1]]	N' \
	    '*[(2#20)2[#1]1]	0^2	5	*[(2#21)2[#1]0]	N')"
	# CGSuite's misere tutorial (help/docs/tutorials/advanced-topics/
	# misere-theory.cgsh): *[42] is the form whose options are *[4] and
	# *[2]; EvalTest.scala: *[3] is *[3]
	run forms canon '*[4,2]' '*[3]'
	assert_success
	assert_output "$(printf '%s\n' '*[42]' '*[3]')"
	# the same table's Options, in CGSuite's order
	run forms options '*[[*[2]+*[[2]]]]' '*[[[2],2,0],[[2],3],1]' '*[2]+*[2]'
	assert_success
	assert_output "$(printf '%s\n' '[*[2[#2]]]' '[*[1],*[2[#1]],*[2#20]]' \
	    '[*[2],*[3]]')"
}

@test "misere forms: CGSuite's phyla, parts and partitions" {
	# Expected: the same CGSuite table (IsTame, IsRestive, IsRestless,
	# IsHalfTame, IsGenerallyTame, IsGenerallyRestive, IsTameable,
	# IsExtraverted, IsEven, IsPrime, Parts, Partitions)
	run forms tame,restive,restless,half-tame,generally-tame,generally-restive,tameable,extraverted,even,prime,parts,partitions \
	    '*[[2],0]' '*[[2],1]' '*[[*[4]+*[2]]]' '*[[2]]'
	assert_success
	assert_output "$(printf '%s\n' \
	    'false	true	false	true	false	true	false	false	true	true	[]	[[*[2#0]]]' \
	    'false	false	true	false	false	false	false	false	true	true	[]	[[*[2#1]]]' \
	    'true	false	false	false	true	false	true	false	true	false	[*[2],*[4[2#-2]],*[4],*[4[2#-4]]]	[[*[2],*[4[2#-2]]],[*[4],*[4[2#-4]]]]' \
	    'true	false	false	false	true	false	true	true	true	false	[*[2],*[2[#-2]]]	[[*[2],*[2[#-2]]]]')"
}

@test "misere forms: positions of rulesets, as CGSuite prints them" {
	# Expected: CGSuite's GameGridTest.scala ("Misere Cram") and
	# GameHeapTest.scala (GrundysGame(22).MisereCanonicalForm)
	run sh -c 'cg-parse -r cram ".........|##.######" | cg-canon -m -t'
	assert_success
	assert_output '.........|##.######	*[2[2]321]'
	run sh -c "cg-parse -r 'octal:4!.0' 22 | cg-canon -m -t"
	assert_success
	assert_output '22	*[(((2[2]21)[2](2[2]21)20)(2[2]21)3)((2[2]21)[2](2[2]21)20)(2[2]21)[1]2[2]1]'
}

@test "misere forms: nim heaps, and the genus of the published vectors" {
	# a misere nim heap is its own form, *n (ONAG ch. 12); heaps from 10
	# on are written &n; as CGSuite's MisereCanonicalGameOps writes them
	run sh -c "cg-parse -r nim 3 10 | cg-canon -m -t"
	assert_success
	assert_output "$(printf '3\t*[3]\n10\t*[&10;]')"
	# the genus as a property of the form: every genus of the vectors
	# (CGSuite's GameHeapTest.scala, Winning Ways; sources in the file)
	check_vectors impartial.tsv '.*' genus -- cg cg-canon -m -t -p genus
}

@test "misere forms: misere literals read and print back" {
	run cg cg-parse -r game '*[ 4 , 2 ]' '*[[2],0]' '*[2]+*[2]' '*[]' \
	    '*[[*[4]+*[2]]]' '*[(1),*2]'
	assert_success
	assert_output "$(printf '%s\n' 'cgt	1' 'ruleset	game' \
	    'N	1	*[4,2]' 'N	2	*[[2],0]' 'N	3	*[2]+*[2]' 'N	4	*[]' \
	    'N	5	*[[*[4]+*[2]]]' 'N	6	*[(1),2]' 'root	1' 'root	2' \
	    'root	3' 'root	4' 'root	5' 'root	6' 'end')"
	# the options of *[[2],0] are *[[2]] and 0, for both players
	run sh -c "cg-parse -r game '*[[2],0]' | cg-options -t"
	assert_output '*[[2],0]	*[[2]], 0	*[[2]], 0'
	# in normal play *[[2],0] = {{*2},0} = {0,0} = *
	run sh -c "cg-parse -r game '*[[2],0]' | cg-canon -t"
	assert_output '*[[2],0]	*'
	for bad in '*[2' '*[2,]' '*[x]' '*[2 3]'; do
		run cg cg-parse -r game "$bad"
		assert_failure 1
		assert_output --partial "bad game position '$bad': column"
	done
}

@test "misere forms: partizan positions and bad options are errors" {
	run sh -c "cg-parse -r game '{1|*}' '*[2]' | cg-canon -m -t"
	assert_failure 1
	assert_output --partial "position '{1|*}': no misere canonical form: Left and Right have different options in '{1|*}' (a partizan game)"
	assert_output --partial "$(printf '*[2]\t*[2]')"
	run sh -c "cg-parse -r game '*[(1),2]' | cg-canon -m"
	assert_failure 1
	assert_output --partial "in '1' (a partizan game)"
	run sh -c "cg-parse -r domineering '..|..' | cg-canon -m"
	assert_failure 1
	# a tree of a document: checked node by node the same way
	run sh -c "cg-parse -r domineering '..|..' | cg-options -a | cg-canon -m -t"
	assert_failure 1
	assert_output --partial "no misere canonical form"
	# the same form from the plugin and from the expanded tree (ONAG
	# ch. 12: {*} = 0, and every option of 2x2 Cram is *, so it is {*})
	run sh -c "cg-parse -r cram '..|..' | cg-options -a | cg-canon -m -t"
	assert_success
	assert_output "$(printf '..|..\t*[0]')"
	run sh -c "cg-parse -r octal:0.77 5 | cg-options -a | cg-canon -m -t"
	assert_output "$(printf '5\t*[2[2]321]')"
	run sh -c "cg-parse -r nim 3 | cg-canon -m -p thermograph"
	assert_failure 2
	assert_output --partial "unknown misere property 'thermograph'"
	run sh -c "cg-parse -r nim 3 | cg-canon -m -c 0"
	assert_failure 2
}

@test "misere forms: random sums' outcomes follow from the forms" {
	# Each sum's form is the sum of its heaps' forms (the misere table
	# adds them); its outcome (P when G- = 0) must be the outcome that
	# cg-outcome -m finds by searching the whole sum.  Kayles, Dawson's
	# Kayles and Grundy's game, 30 sums of 2-4 heaps of 1-12, and sums
	# of CGSuite literals.
	local code sums
	for code in 0.77 0.07 '4!.0'; do
		sums=$(awk -v seed="$RANDOM" 'BEGIN { srand(seed);
		    for (i = 0; i < 10; i++) { n = 2 + int(rand() * 3); s = "";
		    for (j = 0; j < n; j++) s = s (j ? "+" : "") (1 + int(rand() * 12));
		    print s } }')
		run sh -c "cg-parse -r 'octal:$code' $sums | cg-canon -m -t -p outcome"
		assert_success
		forms=$output
		run sh -c "cg-parse -r 'octal:$code' $sums | cg-outcome -m -t"
		assert_success
		assert_equal "$output" "$forms"
	done
	lits="*[[2],0]+*[[2],1] *[[2],0]+*[[2],0] *[2]+*[2]+*[1] *[[[2]],[[2],1]]+*[3] *[[2],1]+*[[2],1]+*[1] *[[[2],2,0],[[2],3],1]+*[[2]]"
	run sh -c "cg-parse -r game $lits | cg-canon -m -t -p outcome"
	forms=$output
	run sh -c "cg-parse -r game $lits | cg-outcome -m -t"
	assert_equal "$output" "$forms"
}

@test "misere forms: a loopy game is an error, not a hang" {
	# An out-of-tree impartial ruleset whose two positions a and b move
	# to each other: play never ends, so there is no misere form
	command -v cc >/dev/null || skip "no cc"
	mkdir -p "$BATS_TEST_TMPDIR/p"
	cat > "$BATS_TEST_TMPDIR/p/swing.c" <<'EOF2'
#include <cg/ruleset.h>
static int
parse(const struct cg_context *c, const char *t, size_t n, struct cg_buf *o)
{
	if (n != 1 || (t[0] != 'a' && t[0] != 'b'))
		return CG_EPARSE;
	return c->host->buf_put(o, t, 1) < 0 ? CG_ENOMEM : CG_OK;
}
static int
print(const struct cg_context *c, const unsigned char *s, size_t n,
    struct cg_buf *o)
{
	return c->host->buf_put(o, s, n) < 0 ? CG_ENOMEM : CG_OK;
}
static int
options(const struct cg_context *c, const unsigned char *s, size_t n,
    enum cg_side d, cg_emit_fn e, void *x)
{
	unsigned char to = s[0] == 'a' ? 'b' : 'a';
	(void)c; (void)n; (void)d;
	return e(x, &to, 1, NULL) ? CG_STOP : CG_OK;
}
static const struct cg_ruleset rs = { .abi_version = CG_ABI_VERSION,
  .struct_size = sizeof rs, .name = "swing", .summary = "a <-> b",
  .flags = CG_IMPARTIAL, .parse = parse, .print = print,
  .options = options };
__attribute__((visibility("default"))) const struct cg_ruleset *
cg_ruleset_entry(uint32_t abi, const struct cg_host *h)
{
	(void)abi; (void)h;
	return &rs;
}
EOF2
	cc -std=c17 -fPIC -shared -fvisibility=hidden -I"$CG_ROOT/include" \
	    -o "$BATS_TEST_TMPDIR/p/swing.so" "$BATS_TEST_TMPDIR/p/swing.c"
	export CG_PLUGIN_PATH=$BATS_TEST_TMPDIR/p
	run sh -c "cg-parse -r swing a | timeout 60 cg-canon -m -t"
	assert_failure 1
	assert_output --partial "position 'a': no misere canonical form: the position 'a' comes back in play (a loopy game)"
}
