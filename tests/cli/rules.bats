#!/usr/bin/env bats
# Rules files (cgr(5)): a text file NAME.cgr on the plugin path is ruleset
# NAME for every tool; the shipped ones (toppling, konane) against
# published and hand-derived values; Ski Jumps written from the tutorial
# against Winning Ways; every kind of bad file is a one-line FILE:LINE:
# error.  The text twins of compiled rulesets are in rules-twins.bats.
load common

RULES="$CG_ROOT/tests/rules"

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

# one_line_error STATUS [TEXT]: the last run failed with STATUS, one line
one_line_error() {
	[ "$status" -eq "$1" ] || { echo "status $status, want $1: $output"; return 1; }
	[ "${#lines[@]}" -eq 1 ] || { echo "want one line: $output"; return 1; }
	[ -z "${2:-}" ] || assert_output --partial "$2"
}

# values RULESET: "position<TAB>value" lines on stdin, checked by cg-canon
values() {
	local rs=$1 want got
	want=$(cat)
	got=$(printf '%s\n' "$want" | cut -f1 | cg-parse -r "$rs" | cg cg-canon -t)
	[ "$got" = "$want" ] || { diff <(echo "$want") <(echo "$got"); return 1; }
}

@test "a rules file dropped on CG_PLUGIN_PATH is a ruleset for every tool" {
	mkdir "$T/mine"
	cat > "$T/mine/tiny.cgr" <<'EOF'
; a strip where either player fills one empty square or two side by side
summary  fill one or two adjacent squares
board    strip
cells    . #
measure  .
components #
both . -> #
both . . -> # #
EOF
	export CG_PLUGIN_PATH=$T/mine
	run cg cg-parse -l
	assert_success
	assert_line "tiny	fill one or two adjacent squares"
	# a run of n squares is Nim-like: 1 -> *, 2 -> *2, 3 -> *3 (moves to
	# runs 2, 1, 1+1, 0... hand: {*2, *, 0, *} = *3)
	run sh -c 'cg-parse -r tiny . .. ... | cg-canon -t'
	assert_success
	assert_output "$(printf '.\t*\n..\t*2\n...\t*3')"
	run sh -c 'cg-parse -r tiny ... | cg-outcome -t -n'
	assert_output "$(printf '...\t3')"
	# options cell by cell, rules in file order: #., ##, then .#, which
	# is the same component as #. and so the same node (named #.)
	run sh -c 'cg-parse -r tiny .. | cg-options -t'
	assert_output "$(printf '..\t#., ##, #.\t#., ##, #.')"
}

@test "the shipped rules files are found without setup and listed" {
	run cg cg-parse -l
	assert_success
	assert_line --partial "toppling	Toppling Dominoes"
	assert_line --partial "konane	Konane"
	refute_line --regexp '^rules	'
	[ -f "$CG_BUILD/plugins/toppling.cgr" ]
}

@test "the first directory with NAME.so or NAME.cgr wins" {
	mkdir "$T/a"
	cp "$RULES/domineering.cgr" "$T/a/"
	# the rules file shadows the compiled plugin that comes later
	CG_PLUGIN_PATH=$T/a run cg cg-parse -r domineering '..|..'
	assert_success
	CG_PLUGIN_PATH=$T/a run cg cg-parse -l
	assert_line "domineering	Domineering: Left places vertical dominoes, Right horizontal ones"
	# the version says where it came from: a rules file's carries a hash
	CG_PLUGIN_PATH=$T/a run sh -c "cg-parse -r domineering '..' | cg-kb-build -o '$T/b' && cg-kb stats '$T/b'"
	assert_output --regexp "ruleset-version	1.0/[0-9a-f]{8}"
}

@test "a ruleset on the path that hides one cgtools ships says so once, unless CG_OVERRIDES names it" {
	# (common.bash allows every override: the suite shadows on purpose)
	unset CG_OVERRIDES
	mkdir "$T/a" "$T/b"
	cp "$RULES/domineering.cgr" "$T/a/"
	# the note, once, and the rules file's answers as before
	CG_PLUGIN_PATH=$T/a cg cg-parse -r domineering '..|..' '.|.' \
	    > "$T/out" 2> "$T/err"
	run cat "$T/err"
	assert_output --regexp "^cg-parse: note: rules file $T/a/domineering\.cgr hides plugin /.*/plugins/domineering\.so \(export CG_OVERRIDES=domineering if that is meant\)\$"
	[ "$(grep -c '^N' "$T/out")" -eq 2 ]
	CG_PLUGIN_PATH=$T/a run sh -c "cg-parse -l 2>&1 >/dev/null"
	assert_output --partial "note: rules file $T/a/domineering.cgr hides plugin"
	[ "${#lines[@]}" -eq 1 ]
	# named in CG_OVERRIDES (a list, or '*'): meant, no note
	for o in domineering 'nim,domineering' 'nim:domineering' '*'; do
		CG_OVERRIDES=$o CG_PLUGIN_PATH=$T/a run sh -c "cg-parse -r domineering '..' 2>&1 >/dev/null"
		assert_output ""
	done
	CG_OVERRIDES=nim CG_PLUGIN_PATH=$T/a run sh -c "cg-parse -r domineering '..' 2>&1 >/dev/null"
	assert_output --partial "note: rules file"
	# cgtools' own directory first: its ruleset is used, nothing hidden
	CG_PLUGIN_PATH=$CG_BUILD/plugins:$T/a run sh -c "cg-parse -r domineering '..' 2>&1 >/dev/null"
	assert_output ""
	# one of the user's rulesets hiding another of the user's: the
	# user's own arrangement, no note
	cp "$RULES/skijumps.cgr" "$T/a/"
	cp "$RULES/skijumps.cgr" "$T/b/"
	CG_PLUGIN_PATH=$T/a:$T/b run sh -c "cg-parse -r skijumps 'L..' 2>&1 >/dev/null"
	assert_output ""
}

@test "NAME.so and NAME.cgr in one directory is an error naming both" {
	mkdir "$T/both"
	cp "$RULES/domineering.cgr" "$T/both/"
	cp "$CG_BUILD/plugins/domineering.so" "$T/both/"
	CG_PLUGIN_PATH=$T/both run cg cg-parse -r domineering '..'
	one_line_error 1 "both domineering.so and domineering.cgr"
	CG_PLUGIN_PATH=$T/both run cg cg-parse -l
	[ "$status" -eq 1 ]
	assert_output --partial "both domineering.so and domineering.cgr"
}

@test "the interpreter is no ruleset itself" {
	run cg cg-parse -r rules '1'
	one_line_error 1 "'rules' reads rules files (NAME.cgr) and is not a ruleset itself"
	# a rules file without the interpreter on the path
	mkdir "$T/lone"
	cp "$RULES/toads.cgr" "$T/lone/"
	run env CG_PLUGIN_PATH=$T/lone "$CG_BUILD/bin/cg-parse" -P /nonexistent -r toads 't.f'
	assert_success   # the build's plugins/ has rules.so
}

@test "Toppling Dominoes: published and hand-derived values" {
	# n blue dominoes are worth n, n green ones *n (Albert, Nowakowski
	# and Wolfe, Lessons in Play, the Toppling Dominoes examples).  Hand
	# derivations (Left's options | Right's):
	#   lr   {.r=-1, ..=0 | l.=1, ..=0} = {0|0} = *
	#   lrl  {0, rl=*, lr=*, 0 | 1, 1} = {0,*|1}; * reverses (its Right
	#        option 0 <= G) to nothing, so {0|1} = 1/2
	#   rll  {r=-1, l=1, rl=*, 0 | 0, ll=2} = {1|0}
	#   rrll {rr=-2, l=1, rrl={0|-1}, 0 | 0, rll={1|0}, r=-1, ll=2}
	#        = {1|-1} = +-1
	#   lrrl {0, rrl={0|-1}, lrr={0|-1}, 0 | l=1, rl=*, lr=*, l=1};
	#        {0|-1} reverses through -1 <= G: {0|*} = ^
	#   le   {0, e=*, l=1, 0 | l=1, 0} = {1|0}
	# and lrrll = {1|*} (also in the test suite of t4ccer/cgt-tools, an
	# independent implementation, as "xooxx"): Left {0, rrll=+-1, lrr,
	# l=1, lrrl=^, 0} leaves {1, +-1}, +-1 reversing through -1; Right
	# {l=1, rll={1|0}, lr=*, ll=2} leaves {*}.
	values toppling <<'EOF'
l	1
r	-1
e	*
lll	3
eee	*3
lr	*
lrl	1/2
rll	{1|0}
rrll	+-1
lrrl	^
le	{1|0}
lrrll	{1|*}
lr.rl	0
l..r	0
EOF
	# upper case is read, printed lower case; options square by square,
	# east before west
	run sh -c 'cg-parse -r toppling LRE | cg-options -t'
	assert_output "$(printf 'lre\t..., .re, lr., ...\tl.., ..e, lr., ...')"
}

@test "Toppling Dominoes: sums of rows are decomposed, mirror images merged" {
	# lr.rl is * + * = 0 (P); lrr.rrl is {0|-1} + {0|-1} (rrl is lrr's
	# mirror image): Left moving first goes to {0|-1}, Right answers -1;
	# Right moving first goes to -1 + {0|-1}, Left to -1, Right to 0: R.
	run sh -c 'cg-parse -r toppling lr.rl lrr.rrl | cg-outcome -t'
	assert_output "$(printf 'lr.rl\tP\nlrr.rrl\tR')"
	# one node for a row and its mirror image
	run sh -c 'cg-parse -r toppling lrr rrl | cg-options -a | grep -c "^N"'
	[ "$output" -eq 7 ]
}

@test "Konane: values of small boards" {
	# hand: ..ox: Left jumps west to .x.. (0), Right has no jump: {0|} = 1;
	# .ox.: each side has one jump to a position without moves: {0|0} = *.
	# Both, and .ox.|o..x|.... = {1|-1}, are in the test suite of
	# t4ccer/cgt-tools (an independent implementation).
	values konane <<'EOF'
..ox	1
.ox.	*
.ox.|o..x|....	+-1
EOF
	# chains of jumps in a line are moves of their own
	run sh -c 'cg-parse -r konane xo.o. | cg-options -t'
	assert_output "$(printf 'xo.o.\t..xo., ....x\t')"
	run sh -c 'cg-parse -r konane xo.o. | cg-options -t -d 1 | cg-options -a | grep -c "^N"'
}

@test "Ski Jumps, written from the tutorial, has Winning Ways' values" {
	# Winning Ways chapter 3 (the positions as transcribed in the tests
	# of t4ccer/cgt-tools)
	export CG_PLUGIN_PATH=$RULES
	values skijumps <<'EOF'
...L....|..R.....|........	2
........|...l....|.......R|........|......L.	-1
.L...|.R...|.....	5/2
...R.|...L.|.....	-5/2
L....|....R|.....	1/2
L....|R....|.....	9/2
L....|....R|l....	5
EOF
}

@test "parameters: -r NAME:PARAMS, defaults, bad values" {
	export CG_PLUGIN_PATH=$RULES
	# Left takes 1 or 2, Right 3 (hand: 3 = {2,1|0} with 2 = {1,0|} = 2... )
	run sh -c 'cg-parse -r subtraction:1,2/3 1 2 3 | cg-canon -t'
	assert_success
	assert_output "$(printf '1\t1\n2\t2\n3\t{2|0}')"
	run cg cg-parse -r subtraction:1,x 1
	one_line_error 2 "left: expected numbers separated by ','"
	run cg cg-parse -r subtraction:1/2/3 1
	one_line_error 2 "too many values"
	run cg cg-parse -r subtraction 1
	one_line_error 2 "missing value for 'left'"
	run cg cg-parse -r toppling:3 l
	one_line_error 2 "takes no parameters"
}

@test "take-and-break codes as a parameter: nim sequences without positions" {
	cat > "$T/tb.cgr" <<'EOF'
summary  take-and-break games given by a code
board    heaps
param    code code
measure  2*counters - heaps     ; a split without taking lowers it too
both     take code
EOF
	export CG_PLUGIN_PATH=$T
	# the compiled octal ruleset's vectors: 0.07 (Dawson's Kayles), 4.7
	for code in 0.07 0.77 0.137 4.7; do
		a=$(cg-outcome -r tb:$code --sequence 40)
		b=$(cg-outcome -r octal:$code --sequence 40)
		[ "$a" = "$b" ] || { echo "$code: $a != $b"; return 1; }
	done
	run sh -c 'cg-parse -r tb:0.07 5+6 | cg-outcome -t -n'
	assert_output "$(printf '5+6\t3')"
}

@test "a measure no proof covers is checked move by move" {
	# (t)+ . read westwards moves t's west: t:e grows.  The proof needs
	# the change to be affine in the repetitions, which it is not here,
	# so play checks it, and the first move that raises it is an error.
	cat > "$T/drift.cgr" <<'EOF'
board    strip
cells    . t
measure  t:e
left     t+ . -> .+ t  along w
EOF
	export CG_PLUGIN_PATH=$T
	run sh -c 'cg-parse -r drift .t | cg-canon -t'
	[ "$status" -eq 1 ]
	assert_output --partial "drift.cgr:4: the move 2-1 does not decrease the measure"
}

@test "play: cg-play and cg-kb-build --family take rules files" {
	run cg cg-play -r toppling lrl <<<$'?\n1e\n'
	assert_success
	assert_line "  #1  1e  leads to ..."
	assert_line "  #3  3e  leads to lr."
	assert_line "Right cannot move: Left wins (you)."
	cg cg-kb-build -r toppling --family 4 -o "$T/b"
	run cg cg-kb stats "$T/b"
	assert_line "family	4"
	run sh -c "cg-parse -r toppling lrl rrll | cg-kb lookup -t '$T/b'"
	assert_output "$(printf 'lrl\t1/2\tL\nrrll\t+-1\tN')"
}

# bad FILE-TEXT LINE MESSAGE: the rules file is refused with FILE:LINE:
# (FILE: alone when LINE is empty: the whole file is wrong)
bad() {
	mkdir -p "$T/bad"
	printf '%b' "$1" > "$T/bad/x.cgr"
	CG_PLUGIN_PATH=$T/bad run cg cg-parse -r x '.'
	one_line_error 1 "x.cgr${2:+:$2}: $3"
}

@test "bad rules files: FILE:LINE: what is wrong, exit 1" {
	G='board grid\ncells . #\n'
	bad "${G}measure .\nleft .. -> ## along s\nfrobnicate\n" 5 "unknown word 'frobnicate'"
	bad "${G}measure .\nleft .z -> ##\n" 4 "pattern '.z': 'z' is not a cell"
	bad "${G}measure .\nleft .|. -> .|#\n" 4 "pattern '.|.': the edge '|' stands between cells, where a line never has it"
	bad "${G}measure .\nleft .[.|]* -> #=*\n" 4 "pattern '.[.|]*': the edge '|' cannot repeat"
	bad "${G}measure .\ncomponents #\nleft [#|].. -> =##\nleft .#. -> #=#\n" 6 "with 'components #', a pattern may look at '#' or the edge only at its ends: a move reading '#' between cells would join two components"
	bad "${G}measure .\ncomponents #\nleft #.. -> =##\n" 5 "with 'components #', a pattern may look at '#' or the edge only in its first or last element, as [#|] left unchanged"
	bad "board strip\ncells . x\nmeasure x\ncomponents frozen\nleft [.|]x -> =.\n" 5 "with 'components frozen', no pattern may look at the edge"
	bad "${G}measure .\nleft [] -> #\n" 4 "pattern '[]': the empty class [] matches nothing"
	bad "${G}measure .\nleft (.)* -> (#)*\n" 4 "pattern '(.)*' can match no cell at all"
	bad "${G}measure .\nleft .. -> ###\n" 4 "rewrite '###' does not have the shape of pattern"
	bad "${G}measure .\nleft .. -> ..\n" 4 "rewrite '..' changes nothing"
	bad "${G}measure .\nleft .. -> ## along up\n" 4 "unknown direction 'up'"
	bad "${G}measure .\nleft .. -> ## name 3\n" 4 "move name '3': a match may cover only 2 cells"
	bad "${G}measure .\nsymmetry all\nleft .. -> ## along s\nright .. -> ## along e\n" 5 "the symmetry does not hold: the transposition"
	bad "${G}measure #\nleft .. -> ## along s\n" 4 "this rule does not always decrease the measure (line 3)"
	bad "${G}left .. -> ##\n" "" "no 'measure'"
	bad "${G}measure .\n" "" "no rules"
	bad "cells . #\n" 1 "'cells' before 'board'"
	bad "board hex\n" 1 "unknown board 'hex'"
	bad "board strip\ncells . t\nmeasure t\nleft t. -> .t\n" 4 "this rule does not always decrease the measure (line 3): along e, 't.' becoming '.t' leaves it as it is"
	bad "board strip\ncells . t\nmeasure t:w\nleft t. -> .t\n" 4 "this rule does not always decrease the measure (line 3): along e, 't.' becoming '.t' raises it by 1"
	bad "board strip\ncells . x o\nmeasure xo\ncomponents .\nleft x.o -> ..x\n" 5 "with 'components .', a pattern may look at '.'"
	bad "board graph\ncells . L R\nmeasure L\nleft . -> L\n" 4 "this rule does not always decrease the measure (line 3): a vertex tinted '.' without neighbours"
	bad "board graph\ncells . L R\nmeasure .\nleft . -> _ neighbours L -> .\n" 4 "this rule does not always decrease the measure (line 3): each neighbour tinted 'L' adds to it"
	bad "board heaps\nmeasure heaps\nboth take 0 leave 2\n" 3 "this rule does not always decrease the measure (line 2): taking 0 and leaving 2 heaps"
	bad "board heaps\nmeasure counters - 2*heaps\nboth take 1\n" 2 "the measure can be negative (a heap of one counter weighs -1)"
	bad "board heaps\nparam s set\nmeasure counters\nboth take 1\n" 2 "parameter 's' is never used"
	bad "${G}measure .\nleft .. -> ## ; ok\nleft \x01 -> #\n" 5 "bad character '\\x01' (rules files are printable ASCII)"
	bad "${G}cells . #\n" 3 "'cells' given twice"
}

@test "a rules file cannot read other files or run code" {
	# there is no word for either: anything else is an unknown word
	bad 'include /etc/passwd\n' 1 "unknown word 'include'"
	bad 'board grid\ncells . #\nmeasure .\nleft .. -> ##\n!sh\n' 5 "unknown word '!sh'"
	# a larger file than the host reads is refused whole
	head -c 1048577 /dev/zero | tr '\0' ';' > "$T/bad/x.cgr"
	CG_PLUGIN_PATH=$T/bad run cg cg-parse -r x '.'
	one_line_error 1 "rules file larger than 1048576 bytes"
	printf 'board grid\0\n' > "$T/bad/x.cgr"
	CG_PLUGIN_PATH=$T/bad run cg cg-parse -r x '.'
	one_line_error 1 "x.cgr:1: NUL byte"
}

@test "a rules file named in a document: errors carry the document's line" {
	mkdir "$T/d"
	printf 'board grid\n' > "$T/d/broken.cgr"
	printf 'cgt\t1\nruleset\tbroken\nN\t1\t.\nroot\t1\nend\n' > "$T/doc"
	CG_PLUGIN_PATH=$T/d run cg cg-canon -t "$T/doc"
	one_line_error 1 "$T/doc:2: $T/d/broken.cgr: no 'cells'"
}

@test "components frozen: the same values as without it" {
	# two rules files that differ only in 'components frozen'; values of
	# random strips must agree (the fixed-pattern path: jumps and steps;
	# the repeated-pattern path: slides of any length)
	for kind in step slide; do
		if [ $kind = step ]; then
			rules='left  t .   -> . t    along e
left  t f . -> . f t  along e
right f .   -> . f    along w
right f t . -> . t f  along w'
		else
			rules='left  t .* . -> . .* t  along e
right f .* . -> . .* f  along w
left  t f . -> . f t    along e'
		fi
		mkdir -p "$T/a" "$T/b"
		printf 'board strip\ncells . t f\nmeasure t:e + f:w\n%s\n' \
		    "$rules" > "$T/a/g.cgr"
		printf 'board strip\ncells . t f\nmeasure t:e + f:w\ncomponents frozen\n%s\n' \
		    "$rules" > "$T/b/g.cgr"
		awk 'BEGIN { srand(11); split("tf.", c, "")
		    for (t = 0; t < 150; t++) { n = 1 + int(rand() * 11); s = ""
		    for (i = 0; i < n; i++) s = s c[1 + int(rand() * 3)]; print s } }' > "$T/strips"
		CG_PLUGIN_PATH=$T/a cg-parse -r g < "$T/strips" | CG_PLUGIN_PATH=$T/a cg-canon -t > "$T/va"
		CG_PLUGIN_PATH=$T/b cg-parse -r g < "$T/strips" | CG_PLUGIN_PATH=$T/b cg-canon -t > "$T/vb"
		cmp "$T/va" "$T/vb"
	done
	# ttff never moves: t.f.ttff.t.f is the sum of t.f and t.f, cut out
	export CG_PLUGIN_PATH=$T/b
	run sh -c 'cg-parse -r g ttff t.fttfft.f | cg-options -t'
	assert_success
	run sh -c 'cg-parse -r g ttff | cg-canon -t'
	assert_output "$(printf 'ttff\t0')"
	bad 'board strip\ncells . t\nmeasure t:e\ncomponents frozen\nleft t | -> . |\n' 5 "with 'components frozen', no pattern may look at the edge"
	bad 'board grid\ncells . t\nmeasure t:e\ncomponents frozen\n' 4 "'components frozen' is for strips"
}
