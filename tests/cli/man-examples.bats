#!/usr/bin/env bats
# The man pages' EXAMPLES run as written and print what the pages show:
# pages and behaviour agree.  (cg-kb-build(1), whose examples build
# Amazons bases for half a minute, and sprouts(7), whose 8-spot example
# takes seconds, are left to their own tests.)
load common

setup() {
	T=$(mktemp -d)
	cd "$T"
}

teardown() {
	cd /
	rm -rf "$T"
}

examples() {
	perl "$CG_ROOT/tests/cli/examples.pl" "$@"
}

@test "man pages of the tools: the examples print what the pages say" {
	run examples "$CG_ROOT"/man/man1/cg-canon.1 "$CG_ROOT"/man/man1/cg-kb.1 \
	    "$CG_ROOT"/man/man1/cg-options.1 "$CG_ROOT"/man/man1/cg-outcome.1 \
	    "$CG_ROOT"/man/man1/cg-parse.1 "$CG_ROOT"/man/man1/cg-play.1 \
	    "$CG_ROOT"/man/man1/cg-plot.1 "$CG_ROOT"/man/man1/cg-synch.1
	assert_success
	assert_line --regexp '^# [0-9]+ examples run$'
}

@test "man pages of the formats and rulesets: the examples print what the pages say" {
	heavy
	local pages=()
	for p in "$CG_ROOT"/man/man5/*.5 "$CG_ROOT"/man/man7/*.7; do
		[ "${p##*/}" = sprouts.7 ] || pages+=("$p")
	done
	run examples "${pages[@]}"
	assert_success
}

@test "the example checker fails on a page that says something else" {
	printf '.Sh EXAMPLES\n.Bd -literal\n$ echo 3 | cg-canon -r nim -t\n3\t*2\n.Ed\n' > "$T/x.1"
	run examples "$T/x.1"
	assert_failure
	assert_output --partial "expected:"
}
