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
	timeout -s TERM 3 cg-kb-build --progress -r amazons --family 5x4 \
	    -o "$T/b" 2> "$T/kb.err" || true
	grep -q 'positions enumerated\|components' "$T/kb.err"
}

@test "SIGTERM stops a runaway expansion within seconds, with a message" {
	# a Nim heap of 2^31 has 2^31 options: no search finishes it
	echo 2147483647 > "$T/heap"
	cg-outcome -r nim -n -t "$T/heap" > /dev/null 2> "$T/err" &
	pid=$!
	sleep 1
	kill -TERM "$pid"
	for i in $(seq 1 30); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	! kill -0 "$pid" 2>/dev/null || { kill -9 "$pid"; false; }
	wait "$pid" || status=$?
	[ "$status" -eq 143 ]
	grep -q 'cg-outcome: interrupted' "$T/err"
}
