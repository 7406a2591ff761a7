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

@test "cg-kb-build(1)'s recipes for several machines, run with --sshlogin :" {
	command -v parallel >/dev/null ||
	    fail "GNU parallel is missing (scripts/install-deps installs it)"
	cg cg-kb-build -r amazons --family 3x3 -o "$T/whole"
	cd "$T"
	export PATH="$CG_BUILD/bin:$PATH"
	# plain shards, brought back with --return (':' is this machine,
	# where there is nothing to bring back: parallel says so)
	parallel -S : --return part{}.cgkb cg-kb-build --jobs 1 -r amazons \
	    --family 3x3 --shard {}/4 -o part{}.cgkb ::: 1 2 3 4 2>"$T/err"
	grep -v -e '--return ignored' "$T/err" >&2 && false
	cg-kb-build --merge -o all.cgkb part*.cgkb
	cmp whole all.cgkb
	# waves of the measure, each wave's shards looking the smaller
	# values up in the base so far, sent with --transferfile
	cg-kb-build -r amazons --family 3x3 --measure 0-3 -o w3.cgkb
	for m in $(seq 4 8); do
		parallel -S : --transferfile w$((m-1)).cgkb --return s{}.cgkb \
		    cg-kb-build --jobs 1 -r amazons --family 3x3 --measure $m \
		    -K w$((m-1)).cgkb --shard {}/3 -o s{}.cgkb ::: 1 2 3 \
		    2>"$T/err"
		grep -v -e '--return ignored' -e '--transferfile ignored' \
		    "$T/err" >&2 && false
		cg-kb-build --merge -o wave.cgkb s?.cgkb
		cg-kb-build --merge -o w$m.cgkb w$((m-1)).cgkb wave.cgkb
	done
	run cg-kb stats w8.cgkb
	assert_line --partial "family	3x3 measure=0-8"
	diff <(cg-kb dump whole | grep -v '^#') <(cg-kb dump w8.cgkb | grep -v '^#')
}

@test "waves of the measure, each with the bases before it, merge to the whole family" {
	heavy
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

@test "grid families built on bit boards hold the values the labelling code (NAME:reference) gives" {
	# the reference parameter sends every board through the labelling
	# code that boards of more than 64 cells take (plugins/lib/grid.h):
	# an independent way to the same components and canonical bytes
	for f in "amazons 4x3" "domineering 10" "cram 10" "clobber 7"; do
		set -- $f
		cg cg-kb-build -r "$1" --family "$2" -o "$T/bits"
		cg cg-kb-build -r "$1:reference" --family "$2" -o "$T/labels"
		cg cg-kb dump "$T/bits" | grep -v '^ruleset' > "$T/b"
		cg cg-kb dump "$T/labels" | grep -v '^ruleset' > "$T/l"
		[ "$(grep -c '^root' "$T/b")" -gt 100 ]
		diff "$T/b" "$T/l"
	done
}

# waves RULESET FAMILY MAX KINDS: the family built in waves of its measure,
# 0 to MAX one at a time, each with the bases below it (-K) and merged with
# them, is the same file as one build of the range 0-MAX, and holds the same
# entries as a build without --measure (so no entry measures above MAX).
waves() {
	local rs=$1 fam=$2 max=$3 kinds=$4 prev="" m
	cg cg-kb-build -r "$rs" -k "$kinds" --family "$fam" --measure "0-$max" \
	    -o "$T/whole"
	for m in $(seq 0 "$max"); do
		if [ -z "$prev" ]; then
			cg cg-kb-build -r "$rs" -k "$kinds" --family "$fam" \
			    --measure "$m" -o "$T/w$m"
		else
			cg cg-kb-build -r "$rs" -k "$kinds" --family "$fam" \
			    --measure "$m" -K "$prev" -o "$T/wave"
			cg cg-kb-build --merge -o "$T/w$m" "$prev" "$T/wave"
		fi
		prev="$T/w$m"
	done
	cmp "$T/whole" "$prev"
	cg cg-kb-build -r "$rs" -k "$kinds" --family "$fam" -o "$T/plain"
	diff <(cg cg-kb dump "$T/plain" | grep -v '^#') \
	    <(cg cg-kb dump "$prev" | grep -v '^#')
	[ "$(cg cg-kb dump "$prev" | grep -c '^root')" -gt 5 ]
}

@test "waves of the measure merge to the whole family: clobber, toads, chomp, cutcake" {
	heavy
	# clobber measures stones: regions of at most 6
	waves clobber 6 6 canon,outcome
	# toads: a creature counts at most the 4 other squares of a strip
	# of 5, and there are at most 5 creatures
	waves toads 5 20 canon,outcome
	# chomp: squares, at most 3 * 4
	waves chomp 3x4 12 nimber,outcome
	# cutcake: R*C - 1 cuts, at most 4 * 4 - 1
	waves cutcake 4x4 15 canon,outcome
}

@test "waves of the measure merge to the whole family: octal and subtraction games" {
	heavy
	# heaps of n counters measure 2n - 1: at most 2 * 12 - 1
	waves octal:0.77 12 23 nimber
	waves octal:4!.0 12 23 nimber
	waves subtraction:1,2,3 12 23 nimber
	waves subtraction:1,3,5/2,4 12 23 canon,outcome
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
