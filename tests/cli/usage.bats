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

@test "cg-synch --max-digits 0 names the option and its range" {
	run cg cg-synch --max-digits 0
	[ "$status" -eq 2 ]
	assert_output "cg-synch: bad argument '0' for --max-digits (want 1 to 18446744073709551615)"
}

@test "numeric arguments out of range name the option and its range, as --jobs does" {
	# the --jobs message the others follow
	run cg cg-outcome --jobs 0
	[ "$status" -eq 2 ]
	assert_output "cg-outcome: bad argument '0' for --jobs (want 1 to 256)"
	# heaps go up to 2^31 - 1 counters, the largest heap nim reads
	run cg cg-parse -r nim 2147483648
	assert_output --partial "heap size too large (at most 2147483647)"
	run cg cg-outcome -r nim --sequence 99999999999999999999
	[ "$status" -eq 2 ]
	assert_output "cg-outcome: bad argument '99999999999999999999' for --sequence (want 0 to 2147483647)"
	# 2^64 - 1 was taken for "no --sequence given": nothing printed, exit 0
	run cg cg-outcome -r nim --sequence 18446744073709551615
	[ "$status" -eq 2 ]
	assert_output "cg-outcome: bad argument '18446744073709551615' for --sequence (want 0 to 2147483647)"
	run cg cg-outcome -r nim --periodicity 2147483648
	[ "$status" -eq 2 ]
	assert_output "cg-outcome: bad argument '2147483648' for --periodicity (want 0 to 2147483647)"
	run cg cg-outcome --heap-limit 0
	[ "$status" -eq 2 ]
	assert_output "cg-outcome: bad argument '0' for --heap-limit (want 1 to 2147483647)"
	# megabytes whose bytes fit 64 bits: 2^44 - 1 (and 2^43 - 1 for the
	# tables, which the searches double)
	run cg cg-outcome --max-memory 99999999999999999999
	[ "$status" -eq 2 ]
	assert_output "cg-outcome: bad argument '99999999999999999999' for --max-memory (want 0 to 17592186044415)"
	run cg cg-outcome --table-memory 17592186044415
	[ "$status" -eq 2 ]
	assert_output "cg-outcome: bad argument '17592186044415' for --table-memory (want 0 to 8796093022207)"
	run cg cg-canon --max-memory -1
	[ "$status" -eq 2 ]
	assert_output "cg-canon: bad argument '-1' for --max-memory (want 0 to 17592186044415)"
	run cg cg-synch --max-memory x
	[ "$status" -eq 2 ]
	assert_output "cg-synch: bad argument 'x' for --max-memory (want 0 to 17592186044415)"
	run cg cg-kb-build --block-size 32
	[ "$status" -eq 2 ]
	assert_output "cg-kb-build: bad argument '32' for --block-size (want 64 to 67108864)"
	run cg cg-kb-build --batch 0
	[ "$status" -eq 2 ]
	assert_output "cg-kb-build: bad argument '0' for --batch (want 1 to 18446744073709551615)"
	run cg cg-kb-build --shard 1/1000001
	[ "$status" -eq 2 ]
	assert_output "cg-kb-build: bad argument '1/1000001' for --shard (want K/N, 1 <= K <= N <= 1000000)"
	run cg cg-kb-build --measure 99999999999999999999
	[ "$status" -eq 2 ]
	assert_output "cg-kb-build: bad argument '99999999999999999999' for --measure (want M or LO-HI, 0 <= LO <= HI <= 18446744073709551615)"
	run cg cg-kb stats -T x base
	[ "$status" -eq 2 ]
	assert_output "cg-kb: bad argument 'x' for -T (want 0 to 18446744073709551615)"
	run cg cg-options -d 0
	[ "$status" -eq 2 ]
	assert_output "cg-options: bad argument '0' for -d (want 1 to 18446744073709551615)"
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
