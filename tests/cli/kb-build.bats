#!/usr/bin/env bats
# Knowledge bases built on several cores, in shards run by GNU parallel,
# and in waves of a measure: always the same file as one plain build.
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

@test "the base is byte-identical for --jobs 1, 2 and 3" {
	cg cg-kb-build --jobs 1 -r amazons --family 4x3 -o "$T/j1"
	cg cg-kb-build --jobs 2 -r amazons --family 4x3 -o "$T/j2"
	cg cg-kb-build --jobs 3 -r amazons --family 4x3 -o "$T/j3"
	cmp "$T/j1" "$T/j2"
	cmp "$T/j1" "$T/j3"
	# search kinds (misere play) too, entry by entry on every thread
	cg cg-kb-build --jobs 1 -r cram -k misere,nimber --family 8 -o "$T/m1"
	cg cg-kb-build --jobs 2 -r cram -k misere,nimber --family 8 -o "$T/m2"
	cmp "$T/m1" "$T/m2"
}

@test "--jobs: a bad count is a usage error" {
	run cg cg-kb-build --jobs 0 -r amazons --family 2x2 -o "$T/x"
	[ "$status" -eq 2 ]
	assert_output --partial "bad argument '0' for --jobs"
	run cg cg-kb-build --jobs many -r amazons --family 2x2 -o "$T/x"
	[ "$status" -eq 2 ]
}

@test "4 shards built by GNU parallel and merged equal one build" {
	command -v parallel >/dev/null ||
	    fail "GNU parallel is missing (scripts/install-deps installs it)"
	cg cg-kb-build -r amazons --family 4x3 -o "$T/whole"
	# the cluster recipe of cg-kb-build(1), on this machine's two cores
	seq 1 4 | parallel -j2 --halt now,fail=1 \
	    "$CG_BUILD/bin/cg-kb-build" --jobs 1 -r amazons --family 4x3 \
	    --shard {}/4 -o "$T/s{}.cgkb"
	cg cg-kb-build --merge -o "$T/merged" "$T"/s1.cgkb "$T"/s2.cgkb \
	    "$T"/s3.cgkb "$T"/s4.cgkb
	cmp "$T/whole" "$T/merged"
}

@test "waves of the measure, each with the bases before it, merge to the whole family" {
	# Amazons measures empty squares: 4x3 positions have 0 to 11 (11 with
	# a single amazon); a wave
	# takes its children's values from the waves below (-K), so no wave
	# computes what another did
	cg cg-kb-build -r amazons --family 4x3 --measure 0-11 -o "$T/whole"
	cg cg-kb-build -r amazons --family 4x3 --measure 0-3 -o "$T/w0"
	prev="$T/w0"
	for m in 4 5 6 7 8 9 10 11; do
		cg cg-kb-build -r amazons --family 4x3 --measure $m -K "$prev" \
		    --shard 1/2 -o "$T/s1"
		cg cg-kb-build -r amazons --family 4x3 --measure $m -K "$prev" \
		    --shard 2/2 -o "$T/s2"
		cg cg-kb-build --merge -o "$T/wave" "$T/s1" "$T/s2"
		cg cg-kb-build --merge -o "$T/w$m" "$prev" "$T/wave"
		prev="$T/w$m"
	done
	cmp "$T/whole" "$prev"
	run cg cg-kb stats "$prev"
	assert_line --partial "family	4x3 measure=0-11"
	# the same entries and values as the plain build
	cg cg-kb-build -r amazons --family 4x3 -o "$T/plain"
	diff <(cg cg-kb dump "$T/plain" | grep -v '^#') \
	    <(cg cg-kb dump "$prev" | grep -v '^#')
}

@test "--measure: a ruleset without a measure, a bad range" {
	run cg cg-kb-build -r nim --family 5 --measure 2 -k nimber -o "$T/x"
	[ "$status" -ne 0 ]
	run cg cg-kb-build -r amazons --family 2x2 --measure 5-3 -o "$T/x"
	[ "$status" -eq 2 ]
	assert_output --partial "bad argument '5-3' for --measure"
}

@test "a family too big for --max-memory stops with an estimate, not a kill" {
	run cg cg-kb-build -n -r amazons --family 5x4 --max-memory 60
	[ "$status" -eq 1 ]
	assert_output --partial "memory limit of 60 MB reached"
	assert_output --partial "bytes each"
}
