#!/usr/bin/env bats
# Knowledge bases of loopy families (cg-kb-build(1), cgkb(5)): one
# retrograde analysis of a family closed under moves, its outcome classes
# with draws and remoteness.  Expected values come from the brute forces
# of tests/cli/loopy/ (strips.py, foxgeese.py: the rules written out in
# Python and solved by iteration to a fixed point, never cgtools' code)
# and from counts derived by hand in the comments.
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

# The entries of base $1 as "position<TAB>outcome<TAB>remoteness" lines,
# sorted.
entries() {
	cg-kb dump "$1" | awk -F'\t' '
	    $1 == "N" { p = $3 }
	    $1 == "A" && $3 == "outcome" { o[p] = $4 }
	    $1 == "A" && $3 == "remoteness" { r[p] = $4 }
	    END { for (p in o) print p "\t" o[p] "\t" r[p] }' | sort
}

@test "kb-loopy: every Backsliding strip of 7 squares is what the brute force says" {
	run cg cg-kb-build -r backsliding --family 7 -o "$T/b7.cgkb"
	assert_success
	entries "$T/b7.cgkb" > "$T/got"
	# 3^7 strips of 7 squares; a move keeps the strip's length, so the
	# family is closed and the base holds exactly them
	[ "$(wc -l < "$T/got")" -eq 2187 ]
	python3 "$CG_ROOT/tests/cli/loopy/strips.py" backsliding \
	    $(cut -f1 "$T/got") | sort > "$T/want"
	run diff "$T/got" "$T/want"
	assert_success
	# the classes only loopy games have are among them
	for c in D PHat PCheck NHat NCheck; do
		grep -q "	$c	" "$T/want" || { echo "no $c"; return 1; }
	done
	run cg cg-kb stats "$T/b7.cgkb"
	assert_line "kinds	outcome,remoteness"
	assert_line "family	7"
	assert_line "entries	2187"
}

@test "kb-loopy: a family of strips with at most T toads and F frogs" {
	# strips of 9 squares with at most 2 toads and 1 frog: choose the
	# squares of t toads and f frogs, 9!/(t! f! (9-t-f)!), summed over
	# t = 0..2, f = 0..1: 1 + 9 + 36 + 9 + 72 + 252 = 379
	run cg cg-kb-build -n -r backsliding --family 9:2:1
	assert_success
	assert_output 379
	run cg cg-kb-build -r backsliding --family 9:2:1 -o "$T/b.cgkb"
	assert_success
	entries "$T/b.cgkb" > "$T/got"
	[ "$(wc -l < "$T/got")" -eq 379 ]
	! grep -q 't.*t.*t\|f.*f' "$T/got"
	python3 "$CG_ROOT/tests/cli/loopy/strips.py" backsliding \
	    $(cut -f1 "$T/got") | sort > "$T/want"
	run diff "$T/got" "$T/want"
	assert_success
}

@test "kb-loopy: Fox and Geese families are what the brute force says" {
	# 4x4: 8 dark squares, two geese and the fox on them: C(8,2) * 6 =
	# 168; 5x5: 13 dark squares, C(13,2) * 11 = 858
	for f in 4x4:2:168 5x5:2:858; do
		fam=${f%:*}
		run cg cg-kb-build -r foxgeese --family "$fam" -o "$T/f.cgkb"
		assert_success
		entries "$T/f.cgkb" > "$T/got"
		[ "$(wc -l < "$T/got")" -eq "${f##*:}" ]
		python3 "$CG_ROOT/tests/cli/loopy/foxgeese.py" \
		    $(cut -f1 "$T/got") | sort > "$T/want"
		run diff "$T/got" "$T/want"
		assert_success
	done
}

@test "kb-loopy: a lookup, and cg-outcome -K, equal cg-outcome's own solve" {
	cg-kb-build -r backsliding --family 7 -o "$T/b.cgkb"
	printf '%s\n' t..f..t ttt.fff tt.t.ff .t.f.t. fff.ttt ....... > "$T/pos"
	cg-outcome -t --remoteness -r backsliding "$T/pos" > "$T/want"
	run bash -c "cg-kb lookup -t -r backsliding '$T/b.cgkb' '$T/pos' | diff - '$T/want'"
	assert_success
	# answered from the base: nothing is explored
	run bash -c "cg-outcome -t --remoteness -v -K '$T/b.cgkb' -r backsliding '$T/pos' 2> '$T/err' | diff - '$T/want'"
	assert_success
	grep -q '^cg-outcome: 0 positions, 0 moves explored' "$T/err"
	run bash -c "cg-outcome -t -K '$T/b.cgkb' -r backsliding '$T/pos' | diff - <(cut -f1,2 '$T/want')"
	assert_success
	# a strip the base does not hold is explored as without -K
	run bash -c "echo t.f | cg-outcome -t --remoteness -K '$T/b.cgkb' -r backsliding"
	assert_success
	assert_output "t.f	P	l4 l4"
	# the same for Fox and Geese
	cg-kb-build -r foxgeese --family 5x5:2 -o "$T/f.cgkb"
	printf '%s\n' 'x.x..|.....|..o..|.....|.....' 'x...x|.....|.....|.....|o....' > "$T/fpos"
	want=$(cg-outcome -t --remoteness -r foxgeese "$T/fpos")
	run cg-kb lookup -t -r foxgeese "$T/f.cgkb" "$T/fpos"
	assert_success
	assert_output "$want"
	run cg-outcome -t --remoteness -K "$T/f.cgkb" -r foxgeese "$T/fpos"
	assert_output "$want"
}

@test "kb-loopy: the base is the same bytes built twice, and --verify finds it sound" {
	cg-kb-build -r foxgeese --family 4x4:3 -o "$T/a.cgkb"
	cg-kb-build -r foxgeese --family 4x4:3 -o "$T/b.cgkb"
	cmp "$T/a.cgkb" "$T/b.cgkb"
	# three geese and the fox on the 8 dark squares of 4x4: C(8,3) * 5
	run cg cg-kb-build --verify -v "$T/a.cgkb"
	assert_success
	assert_output --partial "sound (280 entries, closed under moves"
}

@test "kb-loopy: --measure, --shard, documents and short kinds are refused" {
	run cg cg-kb-build -r backsliding --family 5 --measure 3 -o "$T/x.cgkb"
	assert_failure 2
	assert_output --partial "ruleset 'backsliding' is loopy: --measure builds in waves of a measure every move decreases, and a loopy ruleset has none; its base is one retrograde analysis of a family closed under moves (--family)"
	run cg cg-kb-build -r backsliding --family 5 --shard 1/2 -o "$T/x.cgkb"
	assert_failure 2
	assert_output --partial "not built in shards"
	run bash -c "echo t.f | cg-kb-build -r backsliding -o '$T/x.cgkb'"
	assert_failure 2
	assert_output --partial "built from a family closed under moves (--family), not from positions"
	run cg cg-kb-build -r backsliding --family 5 -k canon -o "$T/x.cgkb"
	assert_failure 2
	assert_output --partial "kind 'canon' is not one a base of loopy ruleset 'backsliding' holds"
	run cg cg-kb-build -r backsliding --family 5 -k nimber -o "$T/x.cgkb"
	assert_failure 2
	assert_output --partial "nimber needs an impartial ruleset"
	run cg cg-kb-build -r backsliding --family 17 -o "$T/x.cgkb"
	assert_failure 1
	assert_output "cg-kb-build: family '17': expected a strip length N, 1..16, or N:T:F, N up to 32 squares with at most T toads and F frogs"
	run cg cg-kb-build -r foxgeese --family 4x4:8 -o "$T/x.cgkb"
	assert_failure 1
	assert_output "cg-kb-build: family '4x4:8': 8 geese and the fox need 9 dark squares, the board has 8"
	[ ! -e "$T/x.cgkb" ]
}

@test "kb-loopy: a corrupted or cut base is refused with its name" {
	cg-kb-build -r backsliding --family 6 -o "$T/b.cgkb"
	size=$(stat -c %s "$T/b.cgkb")
	cp "$T/b.cgkb" "$T/bad.cgkb"
	# one byte of the data, past the header and index, changed
	printf '\xff' | dd of="$T/bad.cgkb" bs=1 seek=$((size - 30)) conv=notrunc 2> /dev/null
	head -c $((size - 7)) "$T/b.cgkb" > "$T/cut.cgkb"
	for f in bad cut; do
		run cg cg-kb lookup -t -r backsliding "$T/$f.cgkb" <<< 't.f'
		assert_failure 1
		assert_output --regexp "^cg-kb: $T/$f.cgkb: .*(corrupt|truncated)"
		run bash -c "echo t.f | cg-outcome -t -K '$T/$f.cgkb' -r backsliding"
		assert_failure 1
		assert_output --regexp "^cg-outcome: $T/$f.cgkb: "
		run cg cg-kb-build --verify "$T/$f.cgkb"
		assert_failure 1
		assert_output --regexp "^cg-kb-build: $T/$f.cgkb: "
	done
}

@test "kb-loopy: cg-kb best takes the quickest win, with each option's values" {
	cg-kb-build -r backsliding --family 3 -o "$T/b.cgkb"
	# t.f: Left's one move is the toad's slide to .tf (nothing is behind
	# it), so it is the best; its values come from the brute force
	want=$(python3 "$CG_ROOT/tests/cli/loopy/strips.py" backsliding .tf)
	run cg cg-kb best -a -r backsliding "$T/b.cgkb" <<< 't.f'
	assert_success
	assert_line "t.f	L	1-2	${want}	*"
}

@test "kb-loopy: the memory limit and an interrupt stop a build with the reason" {
	heavy
	# 32 squares with up to three toads and three frogs: millions of
	# strips, far more than 30 MB
	run cg cg-kb-build -r backsliding --family 32:3:3 --max-memory 30 -o "$T/x.cgkb"
	assert_failure 1
	assert_output --regexp "^cg-kb-build: family '32:3:3': memory limit of 30 MB reached after [0-9]+ positions: exploring the whole family needs more$"
	[ ! -e "$T/x.cgkb" ]
	"$CG_BUILD/bin/cg-kb-build" -r backsliding --family 32:3:3 -v \
	    --max-memory 2000 -o "$T/x.cgkb" 2> "$T/err" &
	pid=$!
	for i in $(seq 1 200); do
		grep -q 'positions enumerated' "$T/err" && break
		sleep 0.05
	done
	kill -INT "$pid"
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 130 ] || { cat "$T/err"; return 1; }
	run tail -n 1 "$T/err"
	assert_output "cg-kb-build: interrupted"
	grep -q "^cg-kb-build: family '32:3:3': [0-9]* positions enumerated, [0-9.]* MB resident" "$T/err"
	[ ! -e "$T/x.cgkb" ]
}

@test "kb-loopy: a loopy impartial rules file's family, with generalized Sprague-Grundy values" {
	mkdir "$T/rules"
	# x slides one square either way into an empty square, for both
	# players: strips.py's game 'imp'
	printf '%s\n' 'summary imp: x slides either way' 'board strip' \
	    'cells . x' 'loopy' 'family' 'both x . -> . x  along e w' \
	    > "$T/rules/imp.cgr"
	export CG_PLUGIN_PATH=$T/rules
	run cg cg-kb-build -r imp --family 6 -k outcome,nimber,remoteness -o "$T/i.cgkb"
	assert_success
	cg-kb dump "$T/i.cgkb" | awk -F'\t' '
	    $1 == "N" { p = $3 }
	    $1 == "A" { v[p, $3] = $4; seen[p] = 1 }
	    END { for (p in seen) print p "\t" v[p, "outcome"] "\t" v[p, "nimber"] "\t" v[p, "remoteness"] }' |
	    sort > "$T/got"
	# every strip of 1 to 6 squares of '.' and 'x': 2 + 4 + ... + 64
	[ "$(wc -l < "$T/got")" -eq 126 ]
	python3 "$CG_ROOT/tests/cli/loopy/strips.py" imp $(cut -f1 "$T/got") > "$T/c"
	python3 "$CG_ROOT/tests/cli/loopy/strips.py" imp -n $(cut -f1 "$T/got") > "$T/n"
	paste "$T/c" "$T/n" | awk -F'\t' '{ print $1 "\t" $2 "\t" $5 "\t" $3 }' |
	    sort > "$T/want"
	run diff "$T/got" "$T/want"
	assert_success
	grep -q '	inf' "$T/want"
	# cg-outcome -n -K answers from the base
	printf '%s\n' x.x.x. .xx... > "$T/pos"
	want=$(cg-outcome -t -n -r imp "$T/pos")
	run bash -c "cg-outcome -t -n -v -K '$T/i.cgkb' -r imp '$T/pos' 2> '$T/err'"
	assert_success
	assert_output "$want"
	grep -q '^cg-outcome: 0 positions, 0 moves explored' "$T/err"
	run cg cg-kb-build --verify "$T/i.cgkb"
	assert_success
}
