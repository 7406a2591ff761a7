#!/usr/bin/env bats
# README.md: its console examples - the tour, and the out-of-tree ruleset
# built before anything is installed - run as written, from the top of a
# tree laid out as a fresh clone after `make` (the build directory under
# test standing in for build/), with a home of their own.
load common

setup() {
	T=$(mktemp -d)
	mkdir "$T/src" "$T/home"
	for f in README.md include examples; do
		ln -s "$CG_ROOT/$f" "$T/src/$f"
	done
	ln -s "$CG_BUILD" "$T/src/build"
}

teardown() {
	rm -rf "$T"
}

@test "README: every console example prints what the README shows" {
	cd "$T/src"
	# a fresh shell: the build is not on PATH, no plugin path is set
	run env -i HOME="$T/home" PATH=/usr/bin:/bin LC_ALL=C \
	    perl "$CG_ROOT/tests/cli/examples.pl" README.md
	assert_success
	assert_line --regexp '^# [0-9]+ examples run$'
	# the ruleset was built where the README says
	[ -f "$T/home/rulesets/hstring.so" ]
}

@test "README: the out-of-tree build uses the tree's include/, not an installed one" {
	run grep -n -e '-I/usr/local/include' "$CG_ROOT/README.md"
	assert_failure
	run grep -n -e '^\$ cc .*\\$' -A1 "$CG_ROOT/README.md"
	assert_output --partial -- "-Iinclude"
}
