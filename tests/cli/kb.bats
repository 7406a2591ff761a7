#!/usr/bin/env bats
# cg-kb-build and cg-kb: knowledge bases (cgkb(5)).
#
# Most tests store values given as annotations in documents, so they test
# the file machinery whatever the engines do.  Nim values are derived by
# hand from Bouton's theorem: the nim value of heaps a+b+... is the XOR
# of the sizes, and a position is P exactly when that XOR is 0 (else N).
# Tests that need the engines (cg-canon, cg-outcome) skip when those are
# not built.
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

# Every nim position reachable from $1, annotated with outcome and nimber
# by Bouton's theorem (awk XORs the heap sizes of each N record).
nim_doc() {
	cg-parse -r nim "$1" | cg-options -a | awk -F'\t' '
	function xor(a, b,   r, bit) {
		r = 0; bit = 1
		while (a > 0 || b > 0) {
			if ((a % 2) != (b % 2)) r += bit
			a = int(a / 2); b = int(b / 2); bit *= 2
		}
		return r
	}
	{ print }
	$1 == "N" {
		n = split($3, h, "+"); x = 0
		for (i = 1; i <= n; i++) x = xor(x, h[i] + 0)
		printf "A\t%s\toutcome\t%s\nA\t%s\tnimber\t%d\n", $2, (x ? "N" : "P"), $2, x
	}'
}

need_engine() {
	[ -x "$CG_BUILD/bin/$1" ] || skip "$1 not built"
}

flip_byte() { # file offset
	local c
	c=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $(( c ^ 32 )))" |
	    dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

@test "cg-kb-build and cg-kb: --help, --version" {
	run cg cg-kb-build --help
	assert_success
	assert_output --partial "usage: cg-kb-build"
	run cg cg-kb-build --version
	assert_success
	assert_output --partial "cgtools"
	run cg cg-kb --help
	assert_success
	assert_output --partial "usage: cg-kb lookup"
}

@test "bad options and usage errors exit 2" {
	run cg cg-kb-build --bogus
	[ "$status" -eq 2 ]
	run cg cg-kb-build -r nim      # no -o
	[ "$status" -eq 2 ]
	run cg cg-kb-build -o x --shard 3/2 -r nim
	[ "$status" -eq 2 ]
	assert_output --partial "--shard"
	run cg cg-kb-build -o x --shard 0/2 -r nim
	[ "$status" -eq 2 ]
	run cg cg-kb-build -o x -k canon,canon -r nim
	[ "$status" -eq 2 ]
	run cg cg-kb frobnicate x
	[ "$status" -eq 2 ]
	run cg cg-kb lookup
	[ "$status" -eq 2 ]
	run cg cg-kb stats -t x
	[ "$status" -eq 2 ]
}

@test "missing files and malformed input exit 1 with file:line" {
	run cg cg-kb-build -o "$T/b" "$T/nope"
	[ "$status" -eq 1 ]
	assert_output --partial "nope"
	run cg cg-kb lookup "$T/nope"
	[ "$status" -eq 1 ]
	assert_output --partial "$T/nope"
	printf 'cgt\t1\nruleset\tnim\nN\t1\t3\nQ\t1\nend\n' > "$T/bad.cgt"
	run cg cg-kb-build -o "$T/b" "$T/bad.cgt"
	[ "$status" -eq 1 ]
	assert_output --partial "bad.cgt:4:"
	[ ! -e "$T/b" ]
}

@test "a base from annotated documents gives the annotated values back" {
	nim_doc 2+3 > "$T/d"
	cg cg-kb-build -a -k outcome,nimber -o "$T/nim.cgkb" "$T/d"
	run cg cg-kb lookup -t -r nim "$T/nim.cgkb" <<<$'2+3\n3+2\n1+1\n0\n3'
	assert_success
	assert_output "$(printf '2+3\tN\t1\n3+2\tN\t1\n1+1\tP\t0\n0\tP\t0\n3\tN\t3')"
	# a document in, the document out with annotations added
	cg-parse -r nim 1+2 | cg cg-kb lookup -k nimber "$T/nim.cgkb" > "$T/out"
	grep -q "^A	1	nimber	3$" "$T/out"
}

@test "positions equal up to symmetry share one entry" {
	# Amazons: x.. and ..x are mirror images, as are x#|.o and #x|o.
	printf 'cgt\t1\nruleset\tamazons\nN\t1\tx..\nA\t1\tcanon\tv1\nN\t2\tx#|.o\nA\t2\tcanon\tv2\nroot\t1\nroot\t2\nend\n' > "$T/d"
	cg cg-kb-build -k canon -o "$T/a.cgkb" "$T/d"
	run cg cg-kb lookup -t -r amazons "$T/a.cgkb" <<<$'..x\n#x|o.\n.o|x#'
	assert_success
	assert_output "$(printf '..x\tv1\n#x|o.\tv2\n.o|x#\tv2')"
	run cg cg-kb stats "$T/a.cgkb"
	assert_line "entries	2"
}

@test "a missing position is reported and exits 1" {
	nim_doc 2 > "$T/d"
	cg cg-kb-build -a -k outcome -o "$T/b" "$T/d"
	run cg cg-kb lookup -t -r nim "$T/b" <<<$'2\n7'
	[ "$status" -eq 1 ]
	assert_line "2	N"
	assert_line --partial "1 values not in the base"
}

@test "the file depends only on the set of entries" {
	nim_doc 3+3 > "$T/d"
	cg cg-kb-build -a -k outcome,nimber -o "$T/a" "$T/d"
	# the dump lists the entries in key order, not in the order of the
	# document: a base built from it is the same file
	cg cg-kb dump "$T/a" > "$T/dump"
	cg cg-kb-build -k outcome,nimber -o "$T/b" "$T/dump"
	cmp "$T/a" "$T/b"
	# -o - writes standard output, to a file or a pipe
	cg cg-kb-build -k outcome,nimber -o - "$T/dump" > "$T/c"
	cmp "$T/a" "$T/c"
	cg cg-kb-build -k outcome,nimber -o - "$T/dump" | cmp - "$T/a"
	cg cg-kb dump "$T/b" | cmp - "$T/dump"
}

@test "shards merged are byte-identical to the single-run base" {
	nim_doc 4+4+3 > "$T/d"
	cg cg-kb-build -a -k outcome,nimber --block-size 256 -o "$T/all" "$T/d"
	for k in 1 2 3; do
		cg cg-kb-build -a -k outcome,nimber --block-size 256 \
		    --shard $k/3 -o "$T/s$k" "$T/d"
	done
	n1=$(cg cg-kb stats "$T/s1" | awk '$1=="entries"{print $2}')
	n2=$(cg cg-kb stats "$T/s2" | awk '$1=="entries"{print $2}')
	n3=$(cg cg-kb stats "$T/s3" | awk '$1=="entries"{print $2}')
	nall=$(cg cg-kb stats "$T/all" | awk '$1=="entries"{print $2}')
	[ $((n1 + n2 + n3)) -eq "$nall" ]
	[ "$n1" -gt 0 ] && [ "$n2" -gt 0 ] && [ "$n3" -gt 0 ]
	cg cg-kb-build --merge -o "$T/m" "$T/s3" "$T/s1" "$T/s2"
	cmp "$T/all" "$T/m"
}

@test "merge refuses a missing, duplicate or foreign shard" {
	nim_doc 3+3 > "$T/d"
	for k in 1 2 3; do
		cg cg-kb-build -a -k outcome --shard $k/3 -o "$T/s$k" "$T/d"
	done
	cg cg-kb-build -a -k nimber --shard 3/3 -o "$T/n3" "$T/d"
	echo x > "$T/old"
	run cg cg-kb-build --merge -o "$T/old" "$T/s1" "$T/s2"
	[ "$status" -eq 1 ]
	assert_output --partial "missing shard 3 of 3"
	run cg cg-kb-build --merge -o "$T/old" "$T/s1" "$T/s2" "$T/s2"
	[ "$status" -eq 1 ]
	assert_output --partial "duplicate shard 2 of 3"
	run cg cg-kb-build --merge -o "$T/old" "$T/s1" "$T/s2" "$T/n3"
	[ "$status" -eq 1 ]
	assert_output --partial "value kinds differ"
	[ "$(cat "$T/old")" = x ]
	# a shard is not a base for lookups
	run cg cg-kb lookup -t -r nim "$T/s1" <<<'3'
	[ "$status" -eq 1 ]
	assert_output --partial "shard 1 of 3"
}

@test "merge of whole bases refuses conflicting entries, naming the position" {
	printf 'cgt\t1\nruleset\tnim\nN\t1\t1+2\nA\t1\tnimber\t3\nroot\t1\nend\n' > "$T/a.cgt"
	printf 'cgt\t1\nruleset\tnim\nN\t1\t2+1\nA\t1\tnimber\t0\nroot\t1\nend\n' > "$T/b.cgt"
	printf 'cgt\t1\nruleset\tnim\nN\t1\t4\nA\t1\tnimber\t4\nroot\t1\nend\n' > "$T/c.cgt"
	cg cg-kb-build -k nimber -o "$T/a" "$T/a.cgt"
	cg cg-kb-build -k nimber -o "$T/b" "$T/b.cgt"
	cg cg-kb-build -k nimber -o "$T/c" "$T/c.cgt"
	run cg cg-kb-build --merge -o "$T/m" "$T/a" "$T/b"
	[ "$status" -eq 1 ]
	assert_output --partial "conflicting nimber values for '2+1': '3' and '0'"
	[ ! -e "$T/m" ]
	cg cg-kb-build --merge -o "$T/m" "$T/a" "$T/c"
	run cg cg-kb lookup -t -r nim "$T/m" <<<$'1+2\n4'
	assert_output "$(printf '1+2\t3\n4\t4')"
	# the same position twice with different values in one build
	cat "$T/a.cgt" "$T/b.cgt" > "$T/ab.cgt"
	run cg cg-kb-build -k nimber -o "$T/m" "$T/ab.cgt"
	[ "$status" -eq 1 ]
	assert_output --partial "conflicting nimber values for '2+1'"
}

@test "a corrupted or truncated base is refused by its checksums" {
	nim_doc 5+5 > "$T/d"
	cg cg-kb-build -a -k outcome,nimber -o "$T/b" "$T/d"
	size=$(stat -c %s "$T/b")
	for off in 3 20 60 $((size / 2)) $((size - 3)); do
		cp "$T/b" "$T/c"
		flip_byte "$T/c" "$off"
		! cmp -s "$T/b" "$T/c"
		run cg cg-kb lookup -t -r nim "$T/c" <<<'3'
		[ "$status" -eq 1 ]
		[[ "$output" == *"$T/c"* ]]
		run cg cg-kb-build --verify "$T/c"
		[ "$status" -eq 1 ]
	done
	head -c $((size - 1)) "$T/b" > "$T/t"
	run cg cg-kb lookup -t -r nim "$T/t" <<<'3'
	[ "$status" -eq 1 ]
	assert_output --partial "truncated"
	: > "$T/e"
	run cg cg-kb stats "$T/e"
	[ "$status" -eq 1 ]
	assert_output --partial "not a knowledge base"
	run cg cg-kb stats "$T/d"
	[ "$status" -eq 1 ]
	assert_output --partial "bad magic"
}

@test "a base for another ruleset or parameters is refused" {
	nim_doc 2 > "$T/d"
	cg cg-kb-build -a -k outcome -o "$T/b" "$T/d"
	run cg cg-kb lookup -t -r amazons "$T/b" <<<'x.o'
	[ "$status" -eq 1 ]
	assert_output --partial "base is for 'nim', not 'amazons'"
	printf 'cgt\t1\nruleset\tsubtraction:1,2\nN\t1\t3\nA\t1\tnimber\t0\nroot\t1\nend\n' > "$T/s.cgt"
	cg cg-kb-build -k nimber -o "$T/s" "$T/s.cgt"
	run cg cg-kb lookup -t -r subtraction:1,2,3 "$T/s" <<<'3'
	[ "$status" -eq 1 ]
	assert_output --partial "base is for 'subtraction:1,2', not 'subtraction:1,2,3'"
}

@test "a full disk: clear error, the existing base intact" {
	nim_doc 3+2 > "$T/d"
	run cg cg-kb-build -a -k outcome -o /dev/full "$T/d"
	[ "$status" -eq 1 ]
	assert_output --partial "No space left on device"
	cg cg-kb-build -k outcome -a -o "$T/b" "$T/d"
	cp "$T/b" "$T/keep"
	nim_doc 9+9+9 > "$T/big"
	# a file size limit stands in for a full disk
	run sh -c "trap '' XFSZ; ulimit -f 1; exec $CG_BUILD/bin/cg-kb-build -a -k outcome,nimber --block-size 64 -o '$T/b' '$T/big'"
	[ "$status" -eq 1 ]
	assert_output --partial "File too large"
	cmp "$T/b" "$T/keep"
	[ -z "$(ls "$T" | grep tmp)" ]
}

@test "--verify: a sound base passes, a wrong entry is named" {
	nim_doc 3+2+1 > "$T/d"
	cg cg-kb-build -a -k outcome,nimber -o "$T/b" "$T/d"
	run cg cg-kb-build --verify "$T/b"
	assert_success
	# 3+2+1 has nim value 0: say 1 instead
	sed 's/^\(A	1	nimber	\)0$/\11/' "$T/d" > "$T/bad"
	! cmp -s "$T/d" "$T/bad"
	cg cg-kb-build -a -k outcome,nimber -o "$T/c" "$T/bad"
	run cg cg-kb-build --verify "$T/c"
	[ "$status" -eq 1 ]
	assert_output --partial "nimber of '3+2+1' is '1', but its options give '0'"
	sed 's/^\(A	1	outcome	\)P$/\1N/' "$T/d" > "$T/bad"
	cg cg-kb-build -a -k outcome -o "$T/c" "$T/bad"
	run cg cg-kb-build --verify "$T/c"
	[ "$status" -eq 1 ]
	assert_output --partial "outcome of '3+2+1' is 'N', but its options give 'P'"
}

@test "best moves from a base: the moves to P positions" {
	nim_doc 3+2+1 > "$T/d"
	cg cg-kb-build -a -k outcome,nimber -o "$T/b" "$T/d"
	# from 3+1 the only winning move leaves 1 in the first heap (to 1+1);
	# nim names a move HEAP:LEFT, the heap and what remains in it
	run cg cg-kb best -s left -r nim "$T/b" <<<'3+1'
	assert_success
	assert_output "$(printf '3+1\tL\t1:1\t1+1\tP\t0')"
	# from 1+1 every move loses: all are listed
	run cg cg-kb best -s right -k nimber -r nim "$T/b" <<<'1+1'
	assert_output "$(printf '1+1\tR\t1:0\t1\t1\n1+1\tR\t2:0\t1\t1')"
	run cg cg-kb best -a -s left -k nimber -r nim "$T/b" <<<'2'
	assert_output "$(printf '2\tL\t1:0\t0\t0\t*\n2\tL\t1:1\t1\t1\t')"
	run cg cg-kb best -r nim "$T/b" <<<'0'
	assert_output "$(printf '0\tL\t(no move)\n0\tR\t(no move)')"
}

@test "dump writes a document cg-parse reads" {
	nim_doc 2+1 > "$T/d"
	cg cg-kb-build -a -k outcome,nimber -o "$T/b" "$T/d"
	cg cg-kb dump "$T/b" > "$T/dump"
	cg-options -t "$T/dump" > /dev/null
	[ "$(grep -c '^root' "$T/dump")" -eq 5 ]
	grep -q "^A	[0-9]*	nimber	3$" "$T/dump"
}

@test "stats: counts, sizes, bits per position" {
	nim_doc 4+4 > "$T/d"
	cg cg-kb-build -a -k outcome,nimber -o "$T/b" "$T/d"
	run cg cg-kb stats -T 10 "$T/b"
	assert_success
	# 4+4 reaches a+b with 0 <= b <= a <= 4, up to order: 15 positions
	assert_line "entries	15"
	assert_line "ruleset	nim"
	assert_line "kinds	outcome,nimber"
	assert_line "outcome-distinct	2"
	assert_line --partial "bits-per-position	"
	assert_line --partial "lookup-random-us	"
}

@test "output errors: > /dev/full fails, | head -n1 is quiet" {
	nim_doc 4+4 > "$T/d"
	cg cg-kb-build -a -k outcome -o "$T/b" "$T/d"
	run sh -c "$CG_BUILD/bin/cg-kb dump '$T/b' > /dev/full"
	[ "$status" -eq 1 ]
	run sh -c "$CG_BUILD/bin/cg-kb stats '$T/b' > /dev/full"
	[ "$status" -eq 1 ]
	run sh -c "$CG_BUILD/bin/cg-kb dump '$T/b' | head -n1"
	assert_success
	assert_output "cgt	1"
}

@test "cg_kb_find through the tools: cg-outcome -K uses the base" {
	need_engine cg-outcome
	"$CG_BUILD/bin/cg-outcome" --help | grep -q -- '-K' || skip "cg-outcome has no -K yet"
	# a base that lies about 1+2 (it is P... no: 1+2 is N; say P)
	printf 'cgt\t1\nruleset\tnim\nN\t1\t1+2\nA\t1\toutcome\tP\nroot\t1\nend\n' > "$T/lie.cgt"
	cg cg-kb-build -k outcome -o "$T/lie" "$T/lie.cgt"
	run sh -c "cg-parse -r nim 2+1 | $CG_BUILD/bin/cg-outcome -t -K '$T/lie'"
	assert_output "$(printf '2+1\tP')"
}

@test "numbers past 64 bits are stored exactly (shape 290) and read by another process" {
	# a blue edges then b red ones: (a - 1) + 2^-b (Berlekamp's rule);
	# 2^62 + 2^62 = 2^63; {0 | 2^-62} = 2^-63 (the simplest number
	# between), so 2(2^63 - 1) + {0 | 2^-62} = 2^64 - 2 + 2^-63
	printf '%s\n' "$(printf 'l%.0s' $(seq 100))$(printf 'r%.0s' $(seq 100))" > "$T/s"
	cg-parse -r hackenbush < "$T/s" | cg cg-options -a > "$T/s.cgt"
	cg cg-kb-build -a -o "$T/h" "$T/s.cgt"
	cg cg-kb-build --verify "$T/h"
	run cg cg-kb lookup -t -r hackenbush "$T/h" "$T/s"
	assert_success
	assert_output "$(cat "$T/s")	$(python3 -c 'print("%d/%d" % (99 * 2**100 + 1, 2**100))')	L"
	printf '%s\n' 4611686018427387904+4611686018427387904 \
	    '9223372036854775807+9223372036854775807+{0|1/4611686018427387904}' > "$T/g"
	cg cg-kb-build -r game -o "$T/gb" "$T/g"
	cg cg-kb-build --verify "$T/gb"
	run cg cg-kb lookup -t -k canon -r game "$T/gb" "$T/g"
	assert_success
	assert_line -n 0 "$(printf '4611686018427387904+4611686018427387904\t9223372036854775808')"
	assert_line -n 1 "$(sed -n 2p "$T/g")	$(python3 -c 'print("%d/%d" % ((2**64 - 2) * 2**63 + 1, 2**63))')"
}

@test "a position whose value is past the store's bounds stops a build, named, and its checkpoint reads back" {
	# ^(2^40) is the largest up multiple the store holds: each summand
	# is fine (and checkpointed), their sum is not
	printf '1\n^1099511627776+^1099511627776\n*\n' > "$T/bad"
	run cg cg-kb-build -r game -o "$T/b" "$T/bad"
	assert_failure 1
	assert_output "cg-kb-build: position '^1099511627776+^1099511627776': up multiple or nimber too large"
	[ ! -e "$T/b" ]
	run cg cg-kb-build -r game -o "$T/b" "$T/bad"
	assert_failure 1
	assert_output "cg-kb-build: position '^1099511627776+^1099511627776': up multiple or nimber too large"
}
