#!/usr/bin/env bats
# What format 2 of cgkb(5) promises a family: indexed by slots (no keys),
# a few bits a position, kinds that follow from the canonical form stored
# as a column, values equal to those of a base of keys, and -n's
# estimate.
bats_require_minimum_version 1.5.0
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

stat_of() {
	awk -F'\t' -v k="$2" '$1 == k { print $2 }' "$1"
}

@test "a family the ruleset ranks is indexed by slots; a document base by keys" {
	cg cg-kb-build -r amazons --family 4x3 -o "$T/f"
	cg cg-kb stats "$T/f" > "$T/s"
	[ "$(stat_of "$T/s" index)" = "slots of family 4x3" ]
	[ "$(stat_of "$T/s" slots)" -gt "$(stat_of "$T/s" entries)" ]
	[ "$(stat_of "$T/s" outcome-stored)" != "per entry" ]
	cg cg-parse -r amazons 'x.|.o' '..x|o..' | cg cg-kb-build -o "$T/d"
	cg cg-kb stats "$T/d" > "$T/s"
	[ "$(stat_of "$T/s" index)" = keys ]
}

@test "a base of slots and a base of keys hold the same values" {
	cg cg-kb-build -r amazons --family 3x3 -o "$T/slots"
	# the same positions through a document: a base of keys
	cg cg-kb dump "$T/slots" | cg cg-kb-build -o "$T/keys"
	diff <(cg cg-kb dump "$T/slots" | awk -F'\t' '$1 == "N" { p[$2] = $3 }
	    $1 == "A" { print p[$2] "\t" $3 "\t" $4 }' | LC_ALL=C sort) \
	    <(cg cg-kb dump "$T/keys" | awk -F'\t' '$1 == "N" { p[$2] = $3 }
	    $1 == "A" { print p[$2] "\t" $3 "\t" $4 }' | LC_ALL=C sort)
}

@test "Amazons 4x4: canonical forms within 40 bits a position, outcomes within 4" {
	heavy
	cg cg-kb-build -r amazons --family 4x4 -o "$T/c"
	cg cg-kb stats "$T/c" > "$T/s"
	[ "$(stat_of "$T/s" entries)" -eq 380546 ]
	awk -F'\t' '$1 == "bits-per-position" { exit !($2 <= 40) }' "$T/s"
	cg cg-kb-build -r amazons --family 4x4 -k outcome -o "$T/o"
	cg cg-kb stats "$T/o" > "$T/s"
	awk -F'\t' '$1 == "bits-per-position" { exit !($2 <= 4) }' "$T/s"
	# the outcomes of the two bases are the same
	cmp <(cg cg-kb dump "$T/o" | grep '	outcome	') \
	    <(cg cg-kb dump "$T/c" | grep '	outcome	')
}

@test "-n prints the count first and an estimate on standard error" {
	run --separate-stderr cg cg-kb-build -n -r amazons --family 3x3
	[ "$status" -eq 0 ]
	[ "$output" = 1370 ]
	[[ "$stderr" == *"estimate for family '3x3': 1370 members, at most about"*" MB"* ]]
}

@test "a base of format 1 is refused with the command that rebuilds it" {
	run cg cg-kb stats "$CG_ROOT/tests/fixtures/hostile/format1.cgkb"
	[ "$status" -eq 1 ]
	assert_output --partial "a base of format 1, which this version no longer reads: rebuild it (cg-kb-build -r octal:0.77"
}

@test "lookups from several threads: cg-kb-build -K on two threads" {
	cg cg-kb-build -r amazons --family 4x3 --measure 0-8 -o "$T/low"
	cg cg-kb-build --jobs 1 -r amazons --family 4x3 --measure 9-11 \
	    -K "$T/low" -o "$T/h1"
	cg cg-kb-build --jobs 2 -r amazons --family 4x3 --measure 9-11 \
	    -K "$T/low" -o "$T/h2"
	cmp "$T/h1" "$T/h2"
}
