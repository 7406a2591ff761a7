#!/usr/bin/env bats
# Every long-running engine takes --progress and --max-memory MB with one
# meaning: a report about once a second on standard error, and a clear
# error with exit status 1 past the limit on the whole process's memory,
# never a kill by the system; SIGTERM stops them within a second.
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

# Positions that take each engine minutes and far more than 40 MB.
big_canon='......|......|......|......|......|......'
big_cram='00000*00000000000000000000000000000000000E'
big_push='BRBRBRBRBRBRBRBRBRBRBRBRBRBR'

@test "--max-memory: cg-canon, cg-outcome, cg-synch stop with an error, exit 1" {
	run sh -c "echo '$big_canon' | cg-canon -r domineering -t --max-memory 40"
	[ "$status" -eq 1 ]
	assert_output --partial "cg-canon: memory limit of 40 MB reached"
	run sh -c "echo '$big_cram' | cg-outcome -r cram -n -t --max-memory 40"
	[ "$status" -eq 1 ]
	assert_output --partial "cg-outcome: memory limit of 40 MB reached"
	run sh -c "echo '$big_push' | cg-synch -r push -t --max-memory 40"
	[ "$status" -eq 1 ]
	assert_output --partial "cg-synch: memory limit of 40 MB reached"
}

@test "--max-memory: cg-options -a on a game too large to expand stops with an error, exit 1, no document" {
	# a sum of 2000 switches {1|-1}: each term has three values on the
	# way down ({1|-1}, 1, -1), so the tree has 3^2000 positions
	printf '{1|-1}+%.0s' $(seq 1999) > "$T/sum"
	echo '{1|-1}' >> "$T/sum"
	run sh -c "cg-options -r game -a --max-memory 40 '$T/sum' > '$T/out'"
	[ "$status" -eq 1 ]
	assert_output "cg-options: $T/sum:1: game too large to expand: memory limit of 40 MB reached"
	# nothing half-expanded is passed off as the whole tree
	[ ! -s "$T/out" ]
	# a game that fits is expanded whole under the same limit: Nim 2+1
	# has the positions 2+1, 1, 1+1, 2 and 0
	echo 2+1 | cg-options -r nim -a --max-memory 40 > "$T/nim"
	run sh -c "grep '^N' '$T/nim' | cut -f3 | sort"
	assert_output "$(printf '0\n1\n1+1\n2\n2+1')"
}

@test "--max-memory: the bit search keeps under the limit and runs on, as cg-outcome(1) says" {
	# the page says so where it describes the limit
	run sh -c "man -l '$CG_ROOT/man/man1/cg-outcome.1' 2>/dev/null | col -b | tr -s ' \t\n' '   '"
	assert_output --partial "is the exception: it does not stop at the limit but shrinks its needs to it"
	# 9x9 Domineering takes the bit search far longer than 3 seconds;
	# its table is sized to the limit, so it is stopped by the signal,
	# never by the limit (a resident size the sanitizers' shadow and
	# quarantine of freed tables do not distort)
	[ -z "${CG_SANITIZED:-}" ] || skip "resident memory under a sanitizer is not the program's"
	printf '.........%.0s|' $(seq 8) > "$T/b9"
	echo '.........' >> "$T/b9"
	status=0
	timeout --preserve-status -s TERM 3 cg-outcome -r domineering -t \
	    --max-memory 100 "$T/b9" > /dev/null 2> "$T/err" || status=$?
	[ "$status" -eq 143 ]
	run cat "$T/err"
	assert_output "cg-outcome: interrupted"
}

@test "--progress: each engine reports while it works" {
	echo "$big_canon" > "$T/c"
	timeout -s TERM 3 cg-canon -r domineering -t --progress "$T/c" \
	    > /dev/null 2> "$T/canon.err" || true
	grep -q 'positions evaluated' "$T/canon.err"
	echo "$big_cram" > "$T/o"
	timeout -s TERM 3 cg-outcome -r cram -n -t --progress "$T/o" \
	    > /dev/null 2> "$T/outcome.err" || true
	grep -q 'expanded.*branch' "$T/outcome.err"
	echo "$big_push" > "$T/s"
	timeout -s TERM 3 cg-synch -r push -t --progress "$T/s" \
	    > /dev/null 2> "$T/synch.err" || true
	grep -q 'positions' "$T/synch.err"
	printf '{1|-1}+%.0s' $(seq 99) > "$T/g"
	echo '{1|-1}' >> "$T/g"
	timeout -s TERM 3 cg-options -r game -a --progress "$T/g" \
	    > /dev/null 2> "$T/options.err" || true
	grep -q 'cg-options: [0-9]* positions expanded' "$T/options.err"
	# (its first report comes after 2^20 positions: about 1.7 s under
	# ASan on a quiet core, more when the machine is busy)
	timeout -s TERM 8 cg-kb-build --progress -r amazons --family 5x4 \
	    -o "$T/b" 2> "$T/kb.err" || true
	grep -q 'positions enumerated\|components' "$T/kb.err"
}

@test "SIGTERM stops a runaway expansion within seconds, with a message" {
	# a cake of 10^6 x 10^6 has 2 x 10^6 options: no search finishes it,
	# and the first option list alone takes seconds
	echo 1000000x1000000 > "$T/cake"
	cg-outcome -r cutcake -t --progress "$T/cake" > /dev/null 2> "$T/err" &
	pid=$!
	sleep 2.5
	kill -TERM "$pid"
	for i in $(seq 1 30); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	! kill -0 "$pid" 2>/dev/null || { kill -9 "$pid"; false; }
	wait "$pid" || status=$?
	[ "$status" -eq 143 ]
	grep -q 'cg-outcome: interrupted' "$T/err"
	# progress came from inside the root's option list
	grep -q 'cg-outcome: 1 expanded' "$T/err"
}

@test "heaps whose nim values the rules know are answered without a search" {
	# Nim: G(n) = n (Bouton); 100000 ^ 99999 = 0x186A0 ^ 0x1869F = 63
	run sh -c 'printf "2147483647\n100000+99999\n" |
	    cg-outcome -r nim -t -n --max-memory 300'
	assert_success
	assert_output "$(printf '2147483647\t2147483647\n100000+99999\t63')"
	# Kayles (0.77): period 12 from heap 71 (Winning Ways, ch. 4):
	# 4 1 2 8 1 4 7 2 1 8 2 7 for n mod 12 = 0 .. 11, and G(70) = 6
	run sh -c 'printf "50000001\n50000000+70\n" |
	    cg-outcome -r octal:0.77 -t -n --max-memory 300'
	assert_success
	assert_output "$(printf '50000001\t8\n50000000+70\t7')"
	# cg-canon takes the same path: 10^6 = 4 (mod 12), 1000001 = 5
	run sh -c 'printf "1000000\n1000001+70\n" |
	    cg-canon -r octal:0.77 -t --max-memory 300'
	assert_success
	assert_output "$(printf '1000000\t*\n1000001+70\t*2')"
}

@test "a heap past the computed values with no period known is an error" {
	# Grundy's game (4!.0) has no known period
	run sh -c 'echo 5000 | cg-outcome -r octal:4!.0 -t -n --heap-limit 2000'
	[ "$status" -eq 1 ]
	assert_output "cg-outcome: -:1: nim value of heap 5000 unknown: no period proven in heaps 0 to 2000 (the limit of heaps computed one by one)"
	run sh -c 'echo 13 | cg-outcome -r octal:4!.0 -t -n --heap-limit 2000'
	assert_success
	assert_output "$(printf '13\t3')"    # OEIS A002188
}
