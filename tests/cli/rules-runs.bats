#!/usr/bin/env bats
# Strips of one kind of run are take-and-break games (plugins/rules/runs.c):
# such a rules file exports the heap rules it is, and is valued from the
# nim sequence, as its octal code is.  Expected values: the published rows
# of tests/vectors/impartial.tsv (CGSuite's test suite) for Kayles (0.77)
# and Dawson's Kayles (0.07), a strip of n pins standing for a heap of n;
# for the other digits, the compiled octal plugin, and the same file with
# an unused third cell, which keeps it from being compiled and so is
# searched position by position.
load common

setup() {
	T=$(mktemp -d)
	mkdir "$T/p"
}

teardown() {
	rm -rf "$T"
}

# strip NAME RULE...: a strip of pins x and gaps . with the rules given,
# as NAME.cgr, and as NAME3.cgr with a third cell y that no rule reads
strip() {
	local name=$1 cells
	shift
	for cells in 'x .' 'x . y'; do
		{
			echo "summary  a strip of pins"
			echo "board    strip"
			echo "cells    $cells"
			echo "measure  x"
			echo "components ."
			printf 'both %s\n' "$@"
		} > "$T/p/$name${cells#x .}.cgr"
	done
	mv "$T/p/$name y.cgr" "$T/p/${name}3.cgr"
}

# pins N: a row of N pins
pins() {
	local i s=
	for ((i = 0; i < $1; i++)); do s=${s}x; done
	echo "$s"
}

# published ROWS KIND: "n<TAB>value" of tests/vectors/impartial.tsv
published() {
	awk -F'\t' -v rs="$1" -v k="$2" '$1 == rs && $3 == k {
	    print $2 "\t" $4 }' "$CG_ROOT/tests/vectors/impartial.tsv"
}

# against RULESET KIND OPTS...: each published row of the octal game of
# RULESET's twin through the strip
against() {
	local code=$1 rs=$2 kind=$3 n v got
	shift 3
	while IFS=$'\t' read -r n v; do
		[ "$n" -gt 0 ] || continue
		got=$(pins "$n" | CG_PLUGIN_PATH="$T/p" cg cg-parse -r "$rs" |
		    CG_PLUGIN_PATH="$T/p" cg cg-outcome -t "$@" | cut -f2)
		[ "$got" = "$v" ] || { echo "$rs $n $kind: $got, want $v"; return 1; }
	done < <(published "octal:$code" "$kind")
}

@test "Kayles and Dawson's Kayles as strips give the published nim values, normal and misere" {
	strip kayles 'x -> .' 'x x -> . .'
	strip dawson 'x x -> . .'
	[ "$(published octal:0.77 nimber | wc -l)" -ge 10 ]
	against 0.77 kayles nimber -n
	against 0.77 kayles misere-nimber -m -n
	against 0.07 dawson nimber -n
	against 0.07 dawson misere-nimber -m -n
}

@test "a compiled strip exports its heap rules: its nim sequence is the octal code's" {
	strip dawson 'x x -> . .'
	# Dawson's Kayles, heaps 0..40 (OEIS A002187 shifted by one: Dawson's
	# chess on n columns is Dawson's Kayles on n + 1 pins)
	run env CG_PLUGIN_PATH="$T/p" "$CG_BUILD/bin/cg-outcome" -r dawson --sequence 40
	assert_success
	assert_output "0,0,1,1,2,0,3,1,1,0,3,3,2,2,4,0,5,2,2,3,3,0,1,1,3,0,2,1,1,0,4,5,2,7,4,0,1,1,2,0,3"
	# the third cell keeps the file from being compiled
	run env CG_PLUGIN_PATH="$T/p" "$CG_BUILD/bin/cg-outcome" -r dawson3 --sequence 40
	assert_failure 1
	assert_output --partial "not a heap game"
}

@test "each digit a pattern can say agrees with its octal code and with the search" {
	# rule(s)                 digits     what is left beside the stretch
	strip d7 'x x -> . .' 'x -> .'                              # 0.77
	strip d4 'x x x -> x . x'                                   # 0.4
	strip d6 'x x -> x .'                                       # 0.6
	strip d64 'x x -> . x' 'x x x x -> x . . x'                 # 0.64
	strip d37 'x x x -> . . x' 'x x -> x .' 'x x x -> x . x' 'x x x -> . . .'  # 0.667
	# [.|] beside the stretch: nothing of the run on that side
	strip d137 '[.|] x [.|] -> = . =' '[.|] x x -> = . .  along e w' 'x x x -> . . .'  # 0.137
	strip d3 '[.|] x -> = .'                                    # 0.3
	strip d01 '[.|] x x [.|] -> = . . =' 'x x x -> x . x'       # 0.41
	local s code rows
	rows=$(for n in $(seq 1 40); do pins "$n"; done)
	for s in d7:0.77 d4:0.4 d6:0.6 d64:0.64 d37:0.667 d137:0.137 d3:0.3 d01:0.41; do
		code=${s#*:}
		want=$(seq 1 40 | cg cg-parse -r "octal:$code" | cg cg-canon -t | cut -f2)
		got=$(echo "$rows" | CG_PLUGIN_PATH="$T/p" cg cg-parse -r "${s%%:*}" |
		    CG_PLUGIN_PATH="$T/p" cg cg-canon -t | cut -f2)
		[ "$got" = "$want" ] || { echo "${s%%:*} against $code"; diff <(echo "$want") <(echo "$got"); return 1; }
	done
	# the searched twin, rows 1..14 (its trees grow fast)
	for s in d7 d4 d6 d64 d37 d137 d3 d01; do
		rows=$(for n in $(seq 1 14); do pins "$n"; done)
		want=$(echo "$rows" | CG_PLUGIN_PATH="$T/p" cg cg-parse -r "${s}3" |
		    CG_PLUGIN_PATH="$T/p" cg cg-canon -t | cut -f2)
		got=$(echo "$rows" | CG_PLUGIN_PATH="$T/p" cg cg-parse -r "$s" |
		    CG_PLUGIN_PATH="$T/p" cg cg-canon -t | cut -f2)
		[ "$got" = "$want" ] || { echo "$s against its search"; diff <(echo "$want") <(echo "$got"); return 1; }
	done
}

@test "Dawson's chess as pins (0.137) is compiled: its sequence is the published one" {
	strip dawsonchess '[.|] x [.|] -> = . =' '[.|] x x -> = . .  along e w' 'x x x -> . . .'
	# OEIS A002187, Sprague-Grundy values of Dawson's chess (0.137), n = 0..40
	run env CG_PLUGIN_PATH="$T/p" "$CG_BUILD/bin/cg-outcome" -r dawsonchess --sequence 40
	assert_success
	assert_output "0,1,1,2,0,3,1,1,0,3,3,2,2,4,0,5,2,2,3,3,0,1,1,3,0,2,1,1,0,4,5,2,7,4,0,1,1,2,0,3,1"
}

@test "a pattern keeping two pins on one side is no digit: the file is searched" {
	# taking the end pin of a run of three or more leaves a run of >= 2,
	# which no take-and-break digit says: the file must not be compiled
	strip far 'x x x -> x x .'
	run env CG_PLUGIN_PATH="$T/p" "$CG_BUILD/bin/cg-outcome" -r far --sequence 5
	assert_failure 1
	# nor is a kept pin between [.|] and the stretch (a run of exactly 1)
	strip farend '[.|] x x -> = x .'
	run env CG_PLUGIN_PATH="$T/p" "$CG_BUILD/bin/cg-outcome" -r farend --sequence 5
	assert_failure 1
	# by hand: read east, the pattern at offset i of a run of n >= 3
	# takes its pin i + 2, leaving runs a >= 2 and n - 1 - a; so runs of 1
	# and 2 are dead, G(3) = mex{G(2)} = 1, G(4) = mex{G(2)+G(1), G(3)}
	# = 2, G(5) = mex{G(2)+G(2), G(3)+G(1), G(4)} = 3
	run bash -c "printf 'x\nxx\nxxx\nxxxx\nxxxxx\n' | CG_PLUGIN_PATH='$T/p' '$CG_BUILD/bin/cg-parse' -r far | CG_PLUGIN_PATH='$T/p' '$CG_BUILD/bin/cg-canon' -t | cut -f2 | paste -sd' '"
	assert_output "0 0 * *2 *3"
}

@test "a file without components warns once, on the searching tool's stderr, of rows over 20 cells" {
	{
		echo "summary  Dawson's Kayles without components"
		echo "board    strip"
		echo "cells    x ."
		echo "measure  x"
		echo "both     x x -> . ."
	} > "$T/p/whole.cgr"
	local long=xxxxxxxxxxxxxxxxxxxxx   # 21 pins
	CG_PLUGIN_PATH="$T/p" cg cg-parse -r whole xxxxxxxxxxxxxxxxxxxx "$long" "$long.x" \
	    > "$T/doc" 2> "$T/err1"
	[ ! -s "$T/err1" ]               # cg-parse searches nothing
	CG_PLUGIN_PATH="$T/p" cg cg-canon -t < "$T/doc" > "$T/out" 2> "$T/err"
	[ "$(grep -c 'warning: .*whole.cgr: rows of more than 20 cells' "$T/err")" -eq 1 ]
	[ "$(wc -l < "$T/err")" -eq 1 ]
	# the values still agree with the octal code's
	[ "$(cut -f2 "$T/out" | paste -sd' ')" = "$(printf '20\n21\n21+1\n' |
	    cg cg-parse -r octal:0.07 | cg cg-canon -t | cut -f2 | paste -sd' ')" ]
	# rows of 20 cells, or a file with components, say nothing
	CG_PLUGIN_PATH="$T/p" cg cg-parse -r whole xxxxxxxxxxxxxxxxxxxx |
	    CG_PLUGIN_PATH="$T/p" cg cg-canon -t > /dev/null 2> "$T/err"
	[ ! -s "$T/err" ]
	strip dawson 'x x -> . .'
	CG_PLUGIN_PATH="$T/p" cg cg-parse -r dawson "$long" |
	    CG_PLUGIN_PATH="$T/p" cg cg-canon -t > /dev/null 2> "$T/err"
	[ ! -s "$T/err" ]
}
