#!/usr/bin/env bats
# cg-kb select and cg-kb count: the positions of a base chosen and
# counted by their values.
#
# What a selection should hold is worked out apart from the code under
# test: every position of the base is evaluated again by cg-canon from
# its text (canonical form, properties, comparisons with -c), and awk
# applies the predicate to those values; counts are checked against the
# annotations of cg-kb dump and against cg-canon.  The Domineering values
# of the smallest boards are derived by hand: the vertical strip .|. is
# Left's one move, 1, and .. is -1; in ..|.. either player moves to a
# board where only she can move once more, +-1 (temperature 1, mean 0);
# in ...|... Left's best move leaves .|. + .|. = 2 and Right's leaves
# -1/2, so it is {2|-1/2}, of mean 3/4 and temperature 5/4, less than 3
# and confused with 0, 1 and 2 (each of its stops is on either side).
load common

setup_file() {
	local d=$BATS_FILE_TMPDIR
	cg cg-kb-build -r domineering --family 8 -o "$d/d8.cgkb"
	cg cg-kb-build -r domineering --family 8 --text -o "$d/d8text.cgkb"
	cg cg-kb-build -r domineering --family 8 -k outcome -o "$d/d8out.cgkb"
	cg cg-kb dump "$d/d8.cgkb" | awk -F'\t' '$1 == "N" { print $3 }' > "$d/d8.pos"
	# a base of keys (no family index) holding the same regions
	cg cg-kb-build -r domineering -o "$d/d8keys.cgkb" "$d/d8.pos"
	# each position evaluated again: 1 position, 2 canon, 3 outcome,
	# 4 temp, 5 mean, 6 birthday, 7 infinitesimal, 8 switch, 9 number,
	# 10 nimber (true/false), then its comparison with 0 (11), ^ (12), 1 (13)
	cg-canon -t -r domineering -p canon,outcome,temp,mean,birthday,infinitesimal,switch,number,nimber \
	    -c 0 -c '^' -c 1 "$d/d8.pos" > "$d/d8.tab"
	cg cg-kb-build -r amazons --family 3x3 -o "$d/a33.cgkb"
	cg cg-kb dump "$d/a33.cgkb" | awk -F'\t' '$1 == "N" { print $3 }' > "$d/a33.pos"
	cg-canon -t -r amazons -p canon,outcome -c 0 "$d/a33.pos" > "$d/a33.tab"
}

setup() {
	D=$BATS_FILE_TMPDIR
	T=$BATS_TEST_TMPDIR
}

# expect TABLE AWK-CONDITION: the sorted positions of the table's rows
# that satisfy the condition (fractions in fields converted by num()).
expect() {
	awk -F'\t' 'function num(s,  p) {
		if (split(s, p, "/") == 2) return p[1] / p[2]
		return s + 0
	}
	'"$2"' { print $1 }' "$1" | sort
}

# selected BASE EXPR: the sorted positions cg-kb select -t prints.
selected() {
	cg cg-kb select -t "$2" "$1" | cut -f1 | sort
}

# same BASE TABLE EXPR AWK-CONDITION
same() {
	expect "$2" "$4" > "$T/want"
	selected "$1" "$3" > "$T/got" || return 1
	[ -s "$T/want" ] || [ "$5" = empty ] || { echo "no position satisfies $3"; return 1; }
	diff "$T/want" "$T/got" || { echo "expression: $3"; return 1; }
}

@test "the smallest boards are selected by the predicates their values satisfy" {
	is() { selected "$D/d8.cgkb" "$2" | grep -qFx -- "$1" || { echo "$1 not in $2"; return 1; }; }
	isnt() { ! selected "$D/d8.cgkb" "$2" | grep -qFx -- "$1" || { echo "$1 in $2"; return 1; }; }
	is '.|.' 'canon==1'
	is '.|.' 'canon>0'
	is '.|.' 'integer and outcome==L'
	is '.|.' 'birthday==1'
	isnt '.|.' 'canon<>0'
	isnt '.|.' 'canon<0'
	is '..' 'canon==-1'
	is '..' 'canon<0 and outcome==R'
	is '..' 'canon<=-1'
	isnt '..' 'canon<-1'
	is '..|..' 'canon==+-1'
	is '..|..' 'canon<>0'
	is '..|..' 'canon<|0 and canon|>0'
	is '..|..' 'switch and temp==1 and mean==0'
	isnt '..|..' 'canon>0 or canon<0 or number'
	is '...|...' 'canon=={2|-1/2}'
	is '...|...' 'temp==5/4 and mean==3/4'
	is '...|...' 'canon<>0 and canon<>1 and canon<>2 and canon<3'
	is '...|...' 'canon<|2 and not canon<2'
	isnt '...|...' 'canon<=2 or switch'
}

@test "a region of 15 squares of value ^^^* and its transpose, vvv*" {
	local r='###.#|##..#|#.#..|..#.#|#....|#.##.'
	# the transpose: column j of the rows, top to bottom, is row j
	printf '%s\n' "$r" | awk -F'|' '{ for (j = 1; j <= length($1); j++) {
		t = ""; for (i = 1; i <= NF; i++) t = t substr($i, j, 1)
		printf "%s%s", (j > 1 ? "|" : ""), t }; print "" }' > "$T/t"
	printf '%s\n' "$r" | cat - "$T/t" > "$T/pos"
	cg cg-kb-build -r domineering -o "$T/b.cgkb" "$T/pos"
	cg cg-kb dump "$T/b.cgkb" | awk -F'\t' '$1 == "N" { print $3 }' |
	    cg-canon -t -r domineering -p canon,atomic > "$T/tab"
	same "$T/b.cgkb" "$T/tab" 'nus and atomic>=3' '$2 == "^3*" && $3 == 3'
	same "$T/b.cgkb" "$T/tab" 'canon==^^^*' '$2 == "^3*"'
	same "$T/b.cgkb" "$T/tab" 'canon==vvv* and nus and atomic<=-3' '$2 == "v3*" && $3 == -3'
}

@test "selections by numbers, games and predicates agree with cg-canon" {
	B=$D/d8.cgkb
	same "$B" "$D/d8.tab" 'temp>=1' 'num($4) >= 1'
	same "$B" "$D/d8.tab" 'temp == 1/2' 'num($4) == 0.5'
	same "$B" "$D/d8.tab" 'mean<0 and birthday<=3' 'num($5) < 0 && $6 <= 3'
	same "$B" "$D/d8.tab" 'canon>0' '$11 == ">"'
	same "$B" "$D/d8.tab" 'canon<>0' '$11 == "<>"'
	same "$B" "$D/d8.tab" 'canon<|0' '$11 == "<" || $11 == "<>"'
	same "$B" "$D/d8.tab" 'canon |> 0' '$11 == ">" || $11 == "<>"'
	same "$B" "$D/d8.tab" 'canon>=^' '$12 == ">" || $12 == "=="'
	same "$B" "$D/d8.tab" 'canon!=0' '$11 != "=="'
	same "$B" "$D/d8.tab" 'canon==*' '$2 == "*"'
	same "$B" "$D/d8.tab" 'outcome!=N' '$3 != "N"'
	same "$B" "$D/d8.tab" 'infinitesimal and not zero' '$7 == "true" && $2 != "0"'
	same "$B" "$D/d8.tab" 'switch or (number and not canon<=1)' \
	    '$8 == "true" || ($9 == "true" && $13 != "<" && $13 != "==")'
	same "$B" "$D/d8.tab" 'nimber' '$10 == "true"'
	same "$B" "$D/d8.tab" 'nimber==1' '$2 == "*"'
	same "$B" "$D/d8.tab" 'not(temp>-1)and(outcome==L)' 'num($4) <= -1 && $3 == "L"'
	same "$B" "$D/d8.tab" 'temp>2' '0' empty
}

@test "a base of text, a base of keys and a base of games select the same" {
	for e in 'temp>=1' 'canon<|^' 'infinitesimal' 'outcome==P or mean>1'; do
		cg cg-kb select -t "$e" "$D/d8.cgkb" > "$T/games"
		cg cg-kb select -t "$e" "$D/d8text.cgkb" > "$T/text"
		cmp "$T/games" "$T/text"
		cg cg-kb select -t "$e" "$D/d8keys.cgkb" | sort > "$T/keys"
		sort "$T/games" | cmp - "$T/keys"
	done
}

@test "Amazons: selections agree with cg-canon" {
	same "$D/a33.cgkb" "$D/a33.tab" 'outcome==P' '$3 == "P"'
	same "$D/a33.cgkb" "$D/a33.tab" 'canon<>0' '$4 == "<>"'
	same "$D/a33.cgkb" "$D/a33.tab" 'canon>0 and outcome!=L' '$4 == ">" && $3 != "L"' empty
}

@test "select writes a document of the positions with their values" {
	run cg cg-kb select 'temp>=1' "$D/d8.cgkb"
	assert_success
	assert_line --index 0 "cgt	1"
	assert_line "ruleset	domineering"
	assert_line --index $((${#lines[@]} - 1)) "end"
	printf '%s\n' "$output" > "$T/doc"
	# the annotations are the values cg-canon computes for the positions
	awk -F'\t' '$1 == "N" { p[$2] = $3 } $1 == "A" && $3 == "canon" { print p[$2] "\t" $4 }' \
	    "$T/doc" | sort > "$T/annotated"
	cg-canon -t "$T/doc" | sort > "$T/computed"
	[ -s "$T/computed" ]
	diff "$T/annotated" "$T/computed"
	[ "$(grep -c '^root' "$T/doc")" -eq "$(expect "$D/d8.tab" 'num($4) >= 1' | wc -l)" ]
	# -k: kinds the base does not store are computed
	run cg cg-kb select -t -k temp,canon,atomic 'canon==^*' "$D/d8.cgkb"
	assert_success
	for l in "${lines[@]}"; do
		[ "$(cut -f2- <<<"$l")" = "$(printf '0\t^*\t1')" ]
	done
}

@test "count outcome: the dump's annotations, counted" {
	cg cg-kb dump "$D/d8.cgkb" | awk -F'\t' '$1 == "A" && $3 == "outcome" { n[$4]++ }
	    END { for (v in n) print n[v] "\t" v }' | sort > "$T/want"
	run cg cg-kb count outcome "$D/d8.cgkb"
	assert_success
	printf '%s\n' "$output" | grep -v '^total' | sort > "$T/got"
	diff "$T/want" "$T/got"
	# most first, then the total, which is the entry count
	printf '%s\n' "$output" | grep -v '^total' | cut -f1 | sort -c -n -r
	entries=$(cg cg-kb stats "$D/d8.cgkb" | awk -F'\t' '$1 == "entries" { print $2 }')
	assert_line --index $((${#lines[@]} - 1)) "total	$entries"
	[ "$(printf '%s\n' "$output" | grep -v '^total' | awk '{ s += $1 } END { print s }')" = "$entries" ]
}

@test "count of a property computed from canon, and of positions that satisfy -e" {
	cut -f4 "$D/d8.tab" | sort | uniq -c | awk '{ print $1 "\t" $2 }' | sort > "$T/want"
	cg cg-kb count temp "$D/d8.cgkb" | grep -v '^total' | sort > "$T/got"
	diff "$T/want" "$T/got"
	# ties are in the order of the values: numbers by size
	cg cg-kb count temp "$D/d8.cgkb" | grep -v '^total' |
	    awk -F'\t' 'function num(s, p) { if (split(s, p, "/") == 2) return p[1] / p[2]; return s + 0 }
		NR > 1 && $1 == c && num($2) <= v { bad = 1 } { c = $1; v = num($2) } END { exit bad }'
	awk -F'\t' '$11 == "<>" { n[$3]++ } END { for (v in n) print n[v] "\t" v }' "$D/d8.tab" |
	    sort > "$T/want"
	cg cg-kb count -e 'canon<>0' outcome "$D/d8.cgkb" > "$T/out"
	grep -v '^total' "$T/out" | sort > "$T/got"
	diff "$T/want" "$T/got"
	[ "$(tail -n1 "$T/out")" = "total	$(awk -F'\t' '$11 == "<>"' "$D/d8.tab" | wc -l)" ]
	# a nim value only for the nimbers; the others are counted as -
	run cg cg-kb count nimber "$D/d8.cgkb"
	assert_line "$(awk -F'\t' '$10 == "false"' "$D/d8.tab" | wc -l)	-"
	assert_line "$(awk -F'\t' '$2 == "*"' "$D/d8.tab" | wc -l)	1"
	assert_line "$(awk -F'\t' '$2 == "0"' "$D/d8.tab" | wc -l)	0"
}

@test "bad expressions are usage errors that name the column" {
	check() {
		run cg cg-kb select "$1" "$D/d8.cgkb"
		[ "$status" -eq 2 ] || { echo "status $status for '$1'"; return 1; }
		[[ "$output" == *"$2"* ]] || { echo "'$1': $output"; return 1; }
	}
	check 'temp>>2' "column 5: bad operator '>>'"
	check 'temp=2' "column 5: bad operator '='"
	check '(temp>2' "column 8: expected 'and', 'or' or ')'"
	check 'temp>2)' "column 7: ')' without '('"
	check 'temp>2 temp<3' "column 8: expected 'and', 'or' or the end at 'temp<3'"
	check 'temp>' "column 6: expected a value after '>'"
	check 'outcome<P' "column 8: 'outcome' compares as text"
	check 'temp<>0' "column 5: 'temp' is a number"
	check 'temp>x' "column 6: bad number 'x'"
	check 'canon=={1|' "column 8: bad game '{1|'"
	check 'zero==maybe' "'zero' is true or false"
	check 'and zero' "column 1: expected a value kind before 'and'"
	check '' "column 1: expected a value kind"
	check 'infinitesimal and frob>1' "column 19: unknown value kind 'frob'"
	run cg cg-kb count frob "$D/d8.cgkb"
	[ "$status" -eq 2 ]
	assert_output --partial "unknown value kind 'frob'"
	run cg cg-kb select -k canon,frob zero "$D/d8.cgkb"
	[ "$status" -eq 2 ]
}

@test "a kind the base neither stores nor can compute is a data error" {
	run cg cg-kb select 'misere==P' "$D/d8.cgkb"
	[ "$status" -eq 1 ]
	assert_output --partial "base holds no 'misere' values"
	run cg cg-kb select 'temp>0' "$D/d8out.cgkb"
	[ "$status" -eq 1 ]
	assert_output --partial "base holds no 'temp' values, nor canonical forms to compute them from"
	# what it does store still selects
	run cg cg-kb count -e 'outcome==P' outcome "$D/d8out.cgkb"
	assert_success
	assert_line --index 0 "$(awk -F'\t' '$3 == "P"' "$D/d8.tab" | wc -l)	P"
}

@test "select and count: usage errors, output errors" {
	for args in "select" "select zero" "count outcome" "select -e zero zero $D/d8.cgkb" \
	    "count -k canon outcome $D/d8.cgkb" "select -r domineering zero $D/d8.cgkb" \
	    "select zero $D/d8.cgkb extra"; do
		run cg cg-kb $args
		[ "$status" -eq 2 ] || { echo "status $status for $args"; return 1; }
	done
	run sh -c "$CG_BUILD/bin/cg-kb select -t zero '$D/d8.cgkb' > /dev/full"
	[ "$status" -eq 1 ]
	run sh -c "$CG_BUILD/bin/cg-kb count outcome '$D/d8.cgkb' > /dev/full"
	[ "$status" -eq 1 ]
	run sh -c "$CG_BUILD/bin/cg-kb select 'canon!=0' '$D/d8.cgkb' | head -n1"
	assert_success
	assert_output "cgt	1"
}
