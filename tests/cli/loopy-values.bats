#!/usr/bin/env bats
# Loopy values: CGSuite's loopy literals read by cg-parse -r game, and
# stoppers compared and simplified by cg-canon.  Expected values come
# from Winning Ways (Berlekamp, Conway, Guy; vol. 2, ch. 11, "Games
# Infinite and Indefinite"), Siegel's Combinatorial Game Theory (AMS
# 2013, ch. VI), CGSuite's definitions of its constants, derivations by
# hand in the comments, or the brute force of tests/cli/loopy/stoppers.py
# (its own retrograde analysis of G - H), never from cgtools' code.
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

# rows LITERAL...: cg-canon -t -p canon,outcome of each literal
rows() {
	cg cg-parse -r game -- "$@" > "$T/d.cgt" || return 1
	cg cg-canon -t -p canon,outcome "$T/d.cgt"
}

@test "outcome classes of on, off, dud, over, under, upon by hand" {
	# on = {pass|}: Left always has a move, Right never (Winning Ways,
	# vol. 2, ch. 11): Left wins whoever starts, L.  off: R.  dud =
	# {pass|pass}: play never ends, D.  over = {0|pass}: Left moving
	# first goes to 0 and wins; Right moving first must pass to over,
	# where Left goes to 0: L.  under: R.  upon = {pass|*} (CGSuite):
	# Left first passes to upon, Right must go to *, Left to 0 and wins;
	# Right first goes to *, Left to 0: L.
	run cg cg-parse -r game on off dud over under '^[on]' 'v[on]'
	assert_success
	echo "$output" > "$T/d.cgt"
	run cg cg-outcome -t "$T/d.cgt"
	assert_success
	assert_output $'on\tL\noff\tR\ndud\tD\nover\tL\nunder\tR\n^[on]\tL\nv[on]\tR'
}

@test "named stoppers print as CGSuite writes them" {
	# CGSuite's definitions: on = {pass|}, off = {|pass}, over =
	# {0|pass}, under = {pass|0}, upon = {pass|*}, uponth = {0|-upon+*};
	# a label names the brace it stands before (a{0|a} is over), and a
	# number before over is the pseudonumber x over = {x|pass}.
	run rows '{pass|}' '{|pass}' 'a{0|a}' 'a:{pass|0}' '{pass|*}' \
	    '{0|-^[on]+*}' '{1|pass}' '{pass|-1/2}' '-^[on]'
	assert_success
	assert_output "$(printf '%s\t%s\t%s\n' \
	    '{pass|}' on L  '{|pass}' off R  'a{0|a}' over L \
	    'a:{pass|0}' under R  '{pass|*}' '^[on]' L \
	    '{0|-^[on]+*}' '^<on>' L  '{1|pass}' 1over L \
	    '{pass|-1/2}' -1/2under R  '-^[on]' 'v[on]' R)"
}

@test "identities of Winning Ways and Siegel" {
	# on + x = on for every number x, and on + on = on; over + over =
	# over (Winning Ways, vol. 2, ch. 11: on and over absorb what is
	# smaller; Siegel, ch. VI, the pseudonumbers); upon* = {0,pass|0}
	# (CGSuite writes ^[on]* for it).  Each is checked against the brute
	# force too, in the next test.
	run rows 'on+1' 'on+on' 'over+over' '{0,pass|0}' '1+over'
	assert_success
	assert_output "$(printf '%s\t%s\t%s\n' 'on+1' on L  'on+on' on L \
	    'over+over' over L  '{0,pass|0}' '^[on]*' N  '1+over' 1over L)"
}

@test "named stoppers compare as the brute force of G - H says" {
	heavy
	local a b i=0 want
	for a in on off over under '^[on]' '^<on>' '^[on]*' 0 1 '^' '^^' \
	    '1/64' '*' '{0|*,pass}'; do
		for b in on over '^[on]' '^<on>' 0 '^^' '1/64' '*'; do
			# a third, loopy root makes cg-parse write every
			# literal as its graph, which the brute force reads
			i=$((i + 1))
			cg cg-parse -r game -- "$a" "$b" on > "$T/p$i.cgt"
			printf '%s\t%s\n' "$a" "$b" >> "$T/pairs"
		done
	done
	# one run of the brute force for all the pairs, in order
	python3 "$CG_ROOT/tests/cli/loopy/stoppers.py" equal \
	    $(seq -f "$T/p%g.cgt" 1 "$i") > "$T/want"
	[ "$(wc -l < "$T/want")" -eq "$i" ]
	i=0
	while IFS=$'\t' read -r a b; do
		i=$((i + 1))
		want=$(sed -n "${i}p" "$T/want")
		run cg cg-canon -t -c "$b" "$T/p$i.cgt"
		assert_success
		[ "${lines[0]}" = "$a"$'\t'"$want" ] || {
			echo "$a vs $b: want $want, got ${lines[0]}"
			return 1
		}
	done < "$T/pairs"
}

@test "sums of loopy literals are the games the brute force finds equal" {
	# upon + upon = {0 | upon*}, as up + up = {0 | up*}; uponth is
	# {0 | -upon + *} (CGSuite) = {0 | v[on]*};
	# x over = {x | pass}; upon* = {0,pass | 0}.  The brute force of
	# stoppers.py decides each equality on the graphs cg-parse writes;
	# cg-canon must print the right-hand side's simplest form.
	local p a b want
	for p in '^[on]+^[on]#{0|^[on]*}' '^<on>#{0|v[on]*}' \
	    '1+over#{1|pass}' '^[on]+*#{0,pass|0}'; do
		a=${p%#*}
		b=${p#*#}
		cg cg-parse -r game -- "$a" "$b" on > "$T/s.cgt"
		want=$(python3 "$CG_ROOT/tests/cli/loopy/stoppers.py" equal \
		    "$T/s.cgt")
		[ "$want" = "==" ] || { echo "$a vs $b: $want"; return 1; }
		run cg cg-canon -t "$T/s.cgt"
		assert_success
		[ "$(echo "${lines[0]}" | cut -f2)" = \
		    "$(echo "${lines[1]}" | cut -f2)" ] || {
			echo "$a and $b print differently: $output"
			return 1
		}
	done
}

@test "random stoppers the brute force finds equal have one simplest form" {
	# Siegel, ch. VI: equal stoppers have isomorphic simplest forms, so
	# they print alike.
	local G H R a b n=0
	python3 "$CG_ROOT/tests/cli/loopy/stoppers.py" 101 300 |
	    awk -F'\t' '$3 == "=="' > "$T/eq"
	while IFS=$'\t' read -r G H R; do
		a=$(cg cg-parse -r game -- "$G" | cg cg-canon -t | cut -f2)
		b=$(cg cg-parse -r game -- "$H" | cg cg-canon -t | cut -f2)
		[ "$a" = "$b" ] || { echo "$G: $a; $H: $b"; return 1; }
		n=$((n + 1))
	done < "$T/eq"
	[ "$n" -ge 10 ]
}

@test "stops of stoppers by hand" {
	# A pseudonumber (a number, on, off, x over, x under) is its own
	# stop; otherwise the left stop is the best right stop of the Left
	# options and the right stop the least left stop of the Right
	# options (CGSuite's stops of stoppers; Siegel, ch. VI).  {on|off}:
	# on and off.  ^[on] = {pass|*}: its Left option is itself, whose
	# right stop is the left stop of * = 0; so 0 and 0.  {2|-3under}: 2
	# and -3under.  {on|*}: on and 0.  {over|under}: over and under.
	run rows '{on|off}' '^[on]' '{2|{pass|-3}}' '{on|*}' '{over|under}'
	assert_success
	cg cg-parse -r game '{on|off}' '^[on]' '{2|{pass|-3}}' '{on|*}' \
	    '{over|under}' 1over > "$T/s.cgt"
	run cg cg-canon -t -p lstop,rstop "$T/s.cgt"
	assert_success
	assert_output "$(printf '%s\t%s\t%s\n' '{on|off}' on off  '^[on]' 0 0 \
	    '{2|{pass|-3}}' 2 -3under  '{on|*}' on 0 \
	    '{over|under}' over under  1over 1over 1over)"
}

@test "a graph too large to order is an error of its line" {
	# c is a cycle of 40 nodes by Left's moves ({next|0}, the last back
	# to the first); c + c is a stopper whose cycles make one strongly
	# connected part of 40 * 40 = 1600 nodes, past the 1448 of
	# cg-canon(1), which orders such a part whole
	c=$(python3 -c "print('a{' + '{' * 39 + 'a' + '|0}' * 39 + '|0}')")
	run cg cg-parse -r game "$c+$c" 1
	echo "$output" > "$T/u.cgt"
	run cg cg-canon -t "$T/u.cgt"
	assert_failure 1
	assert_output --partial "a stopper with a strongly connected part of 1600 nodes"
	assert_output --partial $'1\t1'
	# one c alone is fine: from any node of the cycle Left can move
	# forever and Right only to 0, so it is {pass|0}, which is under
	# (Winning Ways, vol. 2, ch. 11: under = {pass|0})
	run bash -c "cg-parse -r game '$c' | cg-canon -t | cut -f2"
	assert_output "under"
}

@test "on is the largest and off the smallest of these stoppers" {
	# Siegel, ch. VI: on >= G >= off for every stopper G.
	run rows on
	cg cg-parse -r game 1 over '^[on]' '{0|*,pass}' 7/8 > "$T/g.cgt"
	run cg cg-canon -t -c on -c off "$T/g.cgt"
	assert_success
	assert_output "$(printf '%s\t<\t>\n' 1 over '^[on]' '{0|*,pass}' 7/8)"
}

@test "random stoppers: cg-canon -c agrees with a brute force of G - H" {
	local G H R got n=0
	python3 "$CG_ROOT/tests/cli/loopy/stoppers.py" 11 80 > "$T/pairs"
	while IFS=$'\t' read -r G H R; do
		got=$(cg cg-parse -r game -- "$G" | cg cg-canon -t -c "$H" |
		    cut -f2)
		[ "$got" = "$R" ] || {
			echo "$G vs $H: want $R, got $got"
			return 1
		}
		n=$((n + 1))
	done < "$T/pairs"
	[ "$n" -eq 80 ]
}

@test "random stoppers: the simplest form equals the game (brute force)" {
	heavy
	local G H R C i=0
	python3 "$CG_ROOT/tests/cli/loopy/stoppers.py" 12 30 > "$T/pairs"
	while IFS=$'\t' read -r G H R; do
		i=$((i + 1))
		C=$(cg cg-parse -r game -- "$G" | cg cg-canon -t | cut -f2)
		printf '%s\t%s\n' "$G" "$C" >> "$T/forms"
		cg cg-parse -r game -- "$G" "$C" > "$T/e$i.cgt"
		# and it is simplest: simplifying it again changes nothing
		[ "$(cg cg-parse -r game -- "$C" | cg cg-canon -t |
		    cut -f2)" = "$C" ] || return 1
	done < "$T/pairs"
	# one run of the brute force: each game equals its simplest form
	python3 "$CG_ROOT/tests/cli/loopy/stoppers.py" equal \
	    $(seq -f "$T/e%g.cgt" 1 "$i") > "$T/rel"
	[ "$(wc -l < "$T/rel")" -eq 30 ]
	paste "$T/forms" "$T/rel" | awk -F'\t' '$3 != "==" {
		print $1 ": simplest form " $2 " is " $3; bad = 1 }
		END { exit bad }'
}

@test "what is refused, with the reason" {
	run cg cg-parse -r game '{0|pass+1}'
	assert_failure 1
	assert_output --partial "column 4: a sum or a negative of a game that holds pass"
	run cg cg-parse -r game 'on & off'
	assert_failure 1
	assert_output --partial "a sided value (A & B) has no one game graph"
	run cg cg-parse -r game 'b{0|a}'
	assert_failure 1
	assert_output --partial "unknown word"
	# Bach's carousel is not stopper-sided (CGSuite, SidedValueTestCase:
	# its sides are loopy games that are no stoppers)
	cg cg-parse -r game 'a{0,{1|1,{*,{1+*|1+*,a}|*}}|0}' 1 > "$T/d.cgt"
	run cg cg-canon -t "$T/d.cgt"
	assert_failure 1
	assert_output --partial "its onside is not a stopper"
	assert_output --partial $'1\t1'
	run cg cg-canon -p temp "$T/d.cgt"
	assert_failure 1
	assert_output --partial "property 'temp' is not computed for loopy games"
}

@test "sided values: CGSuite's published values, classes and sides" {
	# CGSuite's tests (lib/core/src/test/scala/org/cgsuite/lang):
	# SidedValueTestCase: dud is dud (onside on, offside off, class D),
	# a{{|a}|} is 1 & 0 (PHat), {0|{dud|},*} is ^ & v* (NHat);
	# GameTest: ^.Pow(on) + {0|upon} (uponth plus {0|upon}) is
	# {0||0|^<on>*} & {0|^[on]}, class L.  on + off = dud (Winning Ways,
	# vol. 2, ch. 11: on + off is dud).
	cg cg-parse -r game dud 'a{{|a}|}' '{0|{dud|},*}' '^<on>+{0|^[on]}' \
	    'on+off' > "$T/s.cgt"
	run cg cg-canon -t -p canon,outcome,onside,offside "$T/s.cgt"
	assert_success
	assert_output "dud	dud	D	on	off
a{{|a}|}	1 & 0	PHat	1	0
{0|{dud|},*}	^ & v*	NHat	^	v*
^<on>+{0|^[on]}	{0||0|^<on>*} & {0|^[on]}	L	{0||0|^<on>*}	{0|^[on]}
on+off	dud	D	on	off"
}

@test "sided values: Backsliding Toads and Frogs ttt..fff" {
	# CGSuite, GameStripTest: BackslidingToadsAndFrogs("ttt..fff")
	# .GameValue is {on||0|-1/2} & {1/2|0||off}
	run bash -c "cg-parse -r backsliding ttt..fff | cg-options -a |
	    cg-canon -t -p canon,outcome"
	assert_success
	assert_output "ttt..fff	{on||0|-1/2} & {1/2|0||off}	D"
}

@test "degree and variety of stoppers, as CGSuite's tests give them" {
	# CGSuite, CanonicalStopperTestCase: (x, degree, variety) for on
	# (on, on), off (on, off), over (over, over), {pass|3/2} = 3/2under
	# (over, under), {-1/4+*|pass} = -1/4v[on] (^<on>, ^<on>); a game with
	# no cycle has degree 0.
	cg cg-parse -r game on off over '{pass|3/2}' '{-1/4+*|pass}' \
	    '{1|-1}' > "$T/v.cgt"
	run cg cg-canon -t -p canon,degree,variety "$T/v.cgt"
	assert_success
	assert_output "on	on	on	on
off	off	on	off
over	over	over	over
{pass|3/2}	3/2under	over	under
{-1/4+*|pass}	-1/4v[on]	^<on>	^<on>
{1|-1}	+-1	0	0"
	# a sided value has no degree
	cg cg-parse -r game dud > "$T/dud.cgt"
	run cg cg-canon -t -p degree "$T/dud.cgt"
	assert_failure 1
	assert_output --partial "degree and variety are defined for stoppers only"
}

@test "slashes: loopy values read back as they are printed" {
	# {1||0|-1} is {1|{0|-1}} (the longest run of slashes splits), and
	# what cg-canon prints reads back as the same value
	for g in '{on||0|-1/2}' '{1/2|0||off}' '{0||0|^<on>*}' \
	    'a{1|1,{1*|a||*}||0}'; do
		run bash -c "cg-parse -r game '$g' | cg-options -t | head -n 1"
		assert_success
	done
	run bash -c "cg-parse -r game '{on||0|-1/2}' | cg-canon -t -p canon -c '{on|{0|-1/2}}'"
	assert_output "{on||0|-1/2}	{on||0|-1/2}	=="
	run bash -c "cg-parse -r game '{0||0|pass}' | cg-canon -t"
	assert_output "{0||0|pass}	over"
	run cg cg-parse -r game '{on||0||1}'
	assert_failure 1
	assert_output --partial "slashes of one length side by side"
}

@test "random loopy games: onside and offside equal the game by a brute force" {
	# sides.py draws games that are no stoppers and checks, with its own
	# solver of the sides' order (endless play Left's, or Right's), that
	# each side cg-canon gives equals the game in that side's order
	python3 "$BATS_TEST_DIRNAME/loopy/sides.py" gen 7 60 > "$T/lits"
	n=0
	while IFS= read -r g; do
		run cg cg-canon -t -p onside,offside <(cg cg-parse -r game -- "$g")
		[ "$status" -eq 0 ] || continue
		IFS=$'\t' read -r _ s t <<< "$output"
		cg cg-parse -r game -- "$g" "$s" "$t" > "$T/d.cgt"
		run python3 "$BATS_TEST_DIRNAME/loopy/sides.py" check "$T/d.cgt"
		[ "$output" = ok ] || { echo "$g: $s & $t: $output"; return 1; }
		n=$((n + 1))
	done < "$T/lits"
	# most of them are stopper-sided
	[ "$n" -ge 40 ]
}

@test "sided values compare side by side, and A & B is a comparand" {
	# G >= H when G+ >= H+ and G- >= H- (Siegel, CGT, ch. VI; CGSuite's
	# SidedValue.<=).  By hand: dud = on & off is confused with 1 & 0
	# (on > 1, off < 0); 1 & 0 < 1 (1 = 1, 0 < 1); 1 & 0 is confused
	# with ^ & v* (1 > ^, but 0 || v*, as v* = {0|0,*} is fuzzy);
	# ^ & v* < 1 on both sides; 1 is confused with dud (1 < on, 1 > off)
	cg cg-parse -r game dud 'a{{|a}|}' 1 '{0|{dud|},*}' > "$T/c.cgt"
	run cg cg-canon -t -c 'on & off' -c '1 & 0' -c 1 -c '^ & v*' "$T/c.cgt"
	assert_success
	assert_output "dud	==	<>	<>	<>
a{{|a}|}	<>	==	<	<>
1	<>	>	==	>
{0|{dud|},*}	<>	<>	<	=="
	run cg cg-canon -t -c '0 & 1' "$T/c.cgt"
	assert_failure 2
	assert_output --partial "A & B needs A >= B"
	run cg cg-canon -t -c 'dud & 0' "$T/c.cgt"
	assert_failure 2
	assert_output --partial "both sides of A & B must be stoppers"
}

@test "the variety of {0|^<on>||v<on>} is CGSuite's up to the order of options" {
	# CGSuite, CanonicalStopperTestCase: degree ^<on>, variety
	# {^[on]*,^<on>||v<on>|0}; CGSuite orders loopy options by a hash,
	# so the variety is compared as a game
	run bash -c "cg-parse -r game '{0|^<on>||v<on>}' | cg-canon -t -p degree,variety"
	assert_success
	IFS=$'\t' read -r _ d v <<< "$output"
	[ "$d" = '^<on>' ]
	run bash -c "cg-parse -r game '$v' | cg-canon -t -c '{^[on]*,^<on>||v<on>|0}' | cut -f2"
	assert_output "=="
}
