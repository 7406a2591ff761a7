#!/usr/bin/env bats
# cg-play: interactive play against a knowledge base.  The nim values are
# derived by hand (Bouton: a position is P exactly when the XOR of its
# heaps is 0), so these tests need no engine; nim names a move HEAP:LEFT.
load common

setup() {
	T=$(mktemp -d)
	# every position reachable from 2+1, with its outcome
	cg-parse -r nim 2+1 | cg-options -a | awk -F'\t' '{ print }
	    $1 == "N" { printf "A\t%s\toutcome\t%s\n", $2,
	        ($3 == "0" || $3 == "1+1") ? "P" : "N" }' > "$T/d"
	cg-kb-build -a -k outcome -o "$T/nim.cgkb" "$T/d"
}

teardown() {
	rm -rf "$T"
}

@test "--help, --version, usage errors" {
	run cg cg-play --help
	assert_success
	assert_output --partial "usage: cg-play"
	run cg cg-play --version
	assert_success
	run cg cg-play --bogus
	[ "$status" -eq 2 ]
	run cg cg-play 2+1
	[ "$status" -eq 2 ]
	run cg cg-play -r nim
	[ "$status" -eq 2 ]
	run cg cg-play -r nim -y up 2+1
	[ "$status" -eq 2 ]
}

@test "a malformed position, a missing or corrupt base exit 1" {
	run cg cg-play -r nim 'x'
	[ "$status" -eq 1 ]
	assert_output --partial "position 'x'"
	run cg cg-play -K "$T/nope" -r nim 2+1
	[ "$status" -eq 1 ]
	assert_output --partial "$T/nope"
	head -c 50 "$T/nim.cgkb" > "$T/short"
	run cg cg-play -K "$T/short" -r nim 2+1 </dev/null
	[ "$status" -eq 1 ]
	assert_output --partial "truncated"
}

@test "a base damaged past its header, or for other parameters, is refused before the board" {
	# the blocks and dictionaries after the header and index are checked
	# as lookups first read them; cg-play checks them all at the start
	local size off c
	size=$(stat -c %s "$T/nim.cgkb")
	for off in $((size - 3)) $((size - 20)) $((size - 40)) $((size - 60)); do
		cp "$T/nim.cgkb" "$T/c"
		c=$(od -An -tu1 -j "$off" -N1 "$T/c" | tr -d ' ')
		printf "$(printf '\\%03o' $(( c ^ 32 )))" |
		    dd of="$T/c" bs=1 seek="$off" conv=notrunc status=none
		! cmp -s "$T/nim.cgkb" "$T/c"
		# no input: the person quits at once, before any lookup
		run sh -c "cg-play -K '$T/c' -r nim 2+1 < /dev/null 2> '$T/err'"
		[ "$status" -eq 1 ] || { echo "offset $off: status $status"; return 1; }
		# nothing printed: no board, no prompt
		assert_output ""
		run cat "$T/err"
		assert_output --regexp "^cg-play: $T/c: .*(damaged|checksum|malformed)"
	done
	# a base of the same ruleset with other parameters
	[ -f "$CG_BUILD/plugins/subtraction.so" ] || return 0
	printf 'cgt\t1\nruleset\tsubtraction:1,2\nN\t1\t3\nA\t1\toutcome\tP\nroot\t1\nend\n' > "$T/s.cgt"
	cg-kb-build -k outcome -o "$T/s.cgkb" "$T/s.cgt"
	run sh -c "cg-play -K '$T/s.cgkb' -r subtraction:1,2,3 3 < /dev/null"
	[ "$status" -eq 1 ]
	assert_output "cg-play: $T/s.cgkb: base is for 'subtraction:1,2', not 'subtraction:1,2,3'"
}

@test "a game: bad input is refused and asked again, the computer answers" {
	run cg cg-play -K "$T/nim.cgkb" -r nim 2+1 <<<$'?\n9:9\n\n1:1\n1:0\n'
	assert_success
	assert_line "You play Left; Left moves first."
	# heap 1 has 2 counters, heap 2 one: 1:0 leaves 1, 1:1 leaves 1+1,
	# 2:0 leaves 2 (nim names a move HEAP:LEFT)
	assert_line "  #1  1:0  leads to 1"
	assert_line "  #2  1:1  leads to 1+1"
	assert_line "  #3  2:0  leads to 2"
	assert_line "illegal move '9:9': '9:9' is not a legal move for Left"
	# 1+1 is P: both of Right's moves lose
	assert_line "Right (computer) plays 1:0  (every move loses)"
	assert_line "Right cannot move: Left wins (you)."
}

@test "the computer plays the winning move" {
	# from 2+1 the only move to a P position is 1:1 (to 1+1)
	run cg cg-play -K "$T/nim.cgkb" -r nim -y right 2+1 </dev/null
	assert_success
	assert_line "Left (computer) plays 1:1"
	run cg cg-play -K "$T/nim.cgkb" -r nim -y right 2+1 <<<$'hint\nquit'
	# from 1+1 every move of Right loses: both are listed
	assert_line "  #1  1:0  leads to 1, N: you lose against best play"
	assert_line "  #2  2:0  leads to 1, N: you lose against best play"
	refute_line --partial "Right cannot move"
}

@test "end of input stops quietly; output errors" {
	run cg cg-play -K "$T/nim.cgkb" -r nim 2+1 </dev/null
	assert_success
	run sh -c "$CG_BUILD/bin/cg-play -K '$T/nim.cgkb' -r nim 2+1 </dev/null >/dev/full"
	[ "$status" -eq 1 ]
	run sh -c "$CG_BUILD/bin/cg-play -K '$T/nim.cgkb' -r nim 2+1 </dev/null | head -n1"
	assert_success
	assert_output "You play Left; Left moves first."
}

@test "Amazons: the board with coordinates, moves checked by the ruleset" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	run cg cg-play -r amazons 'x..|..o' <<<$'b1-b2/a1\na2-c2/b1\n'
	assert_success
	assert_line "  2  x . ."
	assert_line "     a b c"
	assert_line --partial "illegal move 'b1-b2/a1'"
	assert_line --regexp "^Right \(computer\) plays [a-c][12]-[a-c][12]/[a-c][12]"
}

@test "every ruleset: numbered moves, #N, moves by the position they lead to" {
	# game literals name no moves.  In {1|*}+^ Left moves {1|*} to 1 or ^
	# = {0|*} to 0; from 1+^ Right's only move is ^ to *, giving 1+*;
	# there Left moves 1 to 0 or * to 0, and from 1+0 Right has no move.
	run cg cg-play -r game '{1|*}+^' <<<$'?\nfoo\n1+^\n?\n#3\n1+0\n'
	assert_success
	assert_line "  {1|*}+^"
	assert_line --regexp '^  #[12]  leads to 1\+\^$'
	assert_line --regexp '^  #[12]  leads to \{1\|\*\}\+0$'
	assert_line --partial "illegal move 'foo': neither #N nor a game position: column 1"
	# 1+^ > 0: Left wins whoever starts, so Right's only move loses
	assert_line "Right (computer) plays #1, to 1+*  (every move loses)"
	assert_line "illegal move '#3': no move #3: Left has 2 moves (#1 to #2)"
	assert_line "Right cannot move: Left wins (you)."
	# no board: nothing drawn as a grid
	refute_line --regexp '^ +a b'
}

@test "Sprouts: moves by number; positions with '|' are not drawn as boards" {
	# 0*2 (two spots): joining the spots, or a loop on one of them
	run cg cg-play -r sprouts '0*2' <<<$'?\n#0\n#1\n'
	assert_success
	assert_line "  0*2"
	assert_line --regexp '^  #1  leads to [^ ]+$'
	assert_line --regexp '^  #2  leads to [^ ]+$'
	refute_line --regexp '^  #3 '
	assert_line "illegal move '#0': no move #0: Left has 2 moves (#1 to #2)"
	assert_line --regexp '^Right \(computer\) plays #[0-9]+, to '
	refute_line --regexp '^ +a b'
	refute_line --partial "illegal move '#1'"
}

@test "a board is drawn as a grid; a sum shows its components" {
	# ...|###|#.. is two regions: the top row ... and the ..  on the
	# bottom right; both are components of the sum
	run cg cg-play -r domineering '...|###|#..' </dev/null
	assert_success
	assert_line "  3  . . ."
	assert_line "  2  # # #"
	assert_line "  1  # . ."
	assert_line "     a b c"
	assert_line --regexp '^  sum of 2 components: (\.\.\. \+ \.\.|\.\. \+ \.\.\.)$'
	# a Nim sum is spelled out by its own text already
	run cg cg-play -r nim 3+2 </dev/null
	assert_line "  3+2"
	refute_line --partial "components"
}

@test "a position typed may be an equivalent of the one a move reaches" {
	# xo|ox: Left's a2-a1 takes a1 and leaves .o|xx; its mirror image
	# o.|xx is no child, but equal to one up to symmetry
	run cg cg-play -r clobber 'xo|ox' <<<$'o.|xx\n'
	assert_success
	assert_line --regexp "^\(taken as #[1-4] [a-b][12]-[a-b][12], which leads to an equivalent of 'o\.\|xx'\)$"
	refute_line --partial "illegal move"
	# a position no move reaches is refused with the reason
	run cg cg-play -r nim 3+2 <<<$'4\n'
	assert_line "illegal move '4': no move of Left leads to '4' (nor is it a move's name)"
}

@test "played on a terminal (tmux): the board, the list, a move by name" {
	local sock="$T/tmux" out
	tmux -S "$sock" new-session -d -x 100 -y 50 \
	    "$CG_BUILD/bin/cg-play -r domineering '...|...'; sleep 10"
	sleep 0.5
	tmux -S "$sock" send-keys '?' Enter
	sleep 0.5
	tmux -S "$sock" send-keys 'b1-b2' Enter
	sleep 1
	out=$(tmux -S "$sock" capture-pane -p)
	tmux -S "$sock" kill-server || true
	printf '%s\n' "$out"
	# Left's three vertical dominoes, numbered
	grep -qx '  #1  a1-a2  leads to #..|#..' <<<"$out"
	grep -qx '  #2  b1-b2  leads to .#.|.#.' <<<"$out"
	grep -qx '  #3  c1-c2  leads to ..#|..#' <<<"$out"
	# the terminal echoes what was typed: cg-play does not repeat it
	[ "$(grep -c '^Left to move> b1-b2$' <<<"$out")" -eq 1 ]
	[ "$(grep -cx 'b1-b2' <<<"$out")" -eq 0 ]
	# after b1-b2 the board has a domino in column b; Right cannot move
	grep -qx '  2  . # .' <<<"$out"
	grep -q '^Right cannot move: Left wins (you)\.$' <<<"$out"
}

@test "a loopy game (backsliding): the computer wins by the quickest way" {
	# t.f, Left first: Left's only move is 1-2 (.tf); Right jumps 3-1
	# (ft.); Left's only move is 2-3 (f.t); the frog slides back 1-2
	# (.ft) and the toad, with the frog behind it and the edge ahead,
	# cannot move.  Each of Right's moves is its only one.
	run cg cg-play -r backsliding t.f <<<$'hint\n1-2\n2-3\n'
	assert_success
	assert_line "  #1  1-2  leads to .tf, N: you lose against best play"
	assert_line "Right (computer) plays 3-1"
	assert_line "Right (computer) plays 1-2"
	assert_line "Left cannot move: Right wins (the computer)."
	refute_line --partial "come back"
}

@test "a loopy game: a position that comes back is pointed out, the third time is a draw" {
	# ff..tt is a draw (D) whoever starts, by the brute force of
	# tests/cli/loopy/strips.py, as is f.ft.t; the toads shuffle and the
	# frogs answer, so positions come back
	[ "$(python3 "$CG_ROOT/tests/cli/loopy/strips.py" backsliding ff..tt f.ft.t | cut -f2 | tr '\n' ' ')" = "D D " ]
	cg cg-play -r backsliding ff..tt <<<$'5-4\n6-5\n5-6\n6-5\n5-6\n6-5\n' > "$T/out"
	cat "$T/out"
	# every position shown, with the side to move after it (the prompt,
	# the computer's move, or the draw), counted here: the "come back"
	# lines must be where a (position, side) pair is met the second
	# time, and the game must end at the first third time
	awk '
	    /^  [.tf]+$/ { pos = $1; next }
	    pos != "" && /^This position has come back with/ { said[pos] = 1; next }
	    pos != "" && /^(Left to move>|This position has come back a third time with Left)/ { side = "L" }
	    pos != "" && /^Right \(computer\)/ { side = "R" }
	    pos != "" && side != "" {
		k = pos " " side
		n[k]++
		if (n[k] == 2 && !said[pos]) { print "no repeat said: " k; bad = 1 }
		if (n[k] != 2 && said[pos]) { print "repeat said wrongly: " k; bad = 1 }
		if (n[k] == 3) { third = k; if (!/a third time/) bad = 1 }
		delete said[pos]; pos = ""; side = ""
	    }
	    END {
		if (third == "") { print "no third time"; bad = 1 }
		exit bad
	    }' "$T/out"
	[ "$(grep -c 'come back with' "$T/out")" -ge 2 ]
	run tail -n 1 "$T/out"
	assert_output --regexp '^This position has come back a third time with (Left|Right) to move: a draw\.$'
	# the computer draws, never claims a win: the positions are drawn
	! grep -q 'cannot move' "$T/out"
	! grep -q 'every move loses' "$T/out"
}
