#!/usr/bin/env bats
# Every usage error says what is wrong and exits 2, before any work.
load common

@test "cg-play: no ruleset, no position, a bad side" {
	run cg cg-play 3
	[ "$status" -eq 2 ]
	assert_output "cg-play: no ruleset: name it with -r NAME (cg-parse -l lists them)"
	run cg cg-play -r nim
	[ "$status" -eq 2 ]
	assert_output --partial "want one position to play from, got 0"
	run cg cg-play -r nim -y up 3
	[ "$status" -eq 2 ]
	assert_output --partial "bad side 'up' (want left or right)"
}

@test "cg-synch --max-digits 0 names the option" {
	run cg cg-synch --max-digits 0
	[ "$status" -eq 2 ]
	assert_output "cg-synch: --max-digits 0: want at least 1"
}

@test "cg-kb-build: no -o, an unknown kind, an impartial kind of a partizan game" {
	run cg cg-kb-build -r nim --family 3 -k nimber
	[ "$status" -eq 2 ]
	assert_output --partial "no output: name the base to write with -o FILE"
	run cg cg-kb-build -k bogus -r nim --family 3 -o "$BATS_TEST_TMPDIR/x"
	[ "$status" -eq 2 ]
	assert_output --partial "unknown value kind 'bogus'"
	run cg cg-kb-build -k nimber -r domineering --family 4 -o "$BATS_TEST_TMPDIR/x"
	[ "$status" -eq 2 ]
	assert_output "cg-kb-build: value kind 'nimber' needs an impartial ruleset, and 'domineering' is partizan"
	[ ! -e "$BATS_TEST_TMPDIR/x" ]
}

@test "cg-kb lookup --bogus names the tool and its command" {
	run cg cg-kb lookup --bogus x
	[ "$status" -eq 2 ]
	assert_line --index 0 "cg-kb lookup: unrecognized option '--bogus'"
}

@test "cg-canon stopped by SIGINT or SIGTERM exits 128 + the signal, as cg-outcome does" {
	# the 8x8 Domineering board takes far longer than the second given
	cg cg-parse -r domineering '........|........|........|........|........|........|........|........' \
	    > "$BATS_TEST_TMPDIR/d8.cgt"
	for sig in INT:130 TERM:143; do
		$CG_WRAP "$CG_BUILD/bin/cg-canon" --jobs 1 "$BATS_TEST_TMPDIR/d8.cgt" \
		    2>"$BATS_TEST_TMPDIR/err" &
		p=$!
		sleep 1
		kill -"${sig%:*}" $p
		st=0
		wait $p || st=$?
		[ "$st" -eq "${sig#*:}" ]
		grep -qx 'cg-canon: interrupted' "$BATS_TEST_TMPDIR/err"
	done
}
