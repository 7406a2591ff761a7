#!/usr/bin/env bats
# cg-parse: positions (arguments or stdin lines) to a cgt document.
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

@test "positions from the arguments become roots, in order" {
	run cg cg-parse -r nim 3+4 5 0
	assert_success
	assert_output "$(printf 'cgt\t1\nruleset\tnim\nN\t1\t3+4\nN\t2\t5\nN\t3\t0\nroot\t1\nroot\t2\nroot\t3\nend')"
}

@test "the document carries the plugin's printed form" {
	# nim writes heaps joined by '+' and drops empty heaps
	run cg cg-parse -r nim '3 4' '0+2' '1,1' '0'
	assert_success
	assert_line --index 2 "$(printf 'N\t1\t3+4')"
	assert_line --index 3 "$(printf 'N\t2\t2')"
	assert_line --index 4 "$(printf 'N\t3\t1+1')"
	assert_line --index 5 "$(printf 'N\t4\t0')"
}

@test "no ruleset reads the empty text as a position (cg-ruleset(3): it would vanish)" {
	# every listed ruleset, the parametrised ones with a typical code
	local name rs n=0
	for name in $(cg-parse -l | cut -f1); do
		case $name in
		octal) rs=octal:0.77 ;;
		subtraction) rs=subtraction:1,2,3 ;;
		*) rs=$name ;;
		esac
		run cg cg-parse -r "$rs" ''
		[ "$status" -eq 1 ] || { echo "$rs: status $status"; return 1; }
		assert_output --partial "cg-parse: argument 1: bad $name position '': column 1: "
		n=$((n + 1))
	done
	[ "$n" -gt 10 ]
}

@test "nim: the empty position is written 0; text with no heap is refused" {
	run cg cg-parse -r nim '+'
	[ "$status" -eq 1 ]
	assert_output --partial "cg-parse: argument 1: bad nim position '+': column 2: empty position (write 0 for no heaps)"
}

@test "positions from standard input, one per line; blanks and comments skipped" {
	run sh -c "printf '# heaps\n3+4\n\n  5  \r\n#\n# end\n' | cg-parse -r nim"
	assert_success
	assert_output "$(printf 'cgt\t1\nruleset\tnim\nN\t1\t3+4\nN\t2\t5\nroot\t1\nroot\t2\nend')"
}

@test "a line starting with '#' and no blank is a position (domineering's filled square)" {
	[ -f "$CG_BUILD/plugins/domineering.so" ] || skip "no domineering plugin"
	run sh -c "printf '#.|..\n' | cg-parse -r domineering"
	assert_success
	assert_line --index 2 --regexp "^N	1	"
}

@test "no positions: a document with no roots" {
	run cg cg-parse -r nim < /dev/null
	assert_success
	assert_output "$(printf 'cgt\t1\nend')"
}

@test "a bad argument is reported with its number, the column and the reason" {
	E=$BATS_TEST_TMPDIR/err
	run sh -c "cg-parse -r nim 3 '4+x' 2 2>'$E'"
	[ "$status" -eq 1 ]
	[ "$(cat "$E")" = "cg-parse: argument 2: bad nim position '4+x': column 3: expected a heap size, found 'x'" ]
	# the others go on
	assert_output "$(printf 'cgt\t1\nruleset\tnim\nN\t1\t3\nN\t2\t2\nroot\t1\nroot\t2\nend')"
}

@test "a bad line is reported with its line number, the good lines go on" {
	E=$BATS_TEST_TMPDIR/err
	run sh -c "printf '3\n\n4-1\n5\n' | cg-parse -r nim 2>'$E'"
	[ "$status" -eq 1 ]
	[ "$(cat "$E")" = "cg-parse: -:3: bad nim position '4-1': column 2: unexpected '-' after heap size" ]
	assert_output "$(printf 'cgt\t1\nruleset\tnim\nN\t1\t3\nN\t2\t5\nroot\t1\nroot\t2\nend')"
}

@test "a NUL byte on standard input" {
	run sh -c "printf '3\n4\0005\n' | cg-parse -r nim"
	[ "$status" -eq 1 ]
	assert_output "cg-parse: -:2: NUL byte in input"
}

@test "the ruleset with its parameters is recorded" {
	[ -f "$CG_BUILD/plugins/subtraction.so" ] || skip "no subtraction plugin"
	run cg cg-parse -r subtraction:1,2,3 5
	assert_success
	assert_line --index 1 "$(printf 'ruleset\tsubtraction:1,2,3')"
}

@test "-r is required, -l takes no positions" {
	run cg cg-parse 3
	[ "$status" -eq 2 ]
	assert_line --index 0 --partial "usage: cg-parse"
	run cg cg-parse -l -r nim
	[ "$status" -eq 2 ]
}

@test "-l lists the built rulesets, name TAB summary, sorted" {
	run cg cg-parse -l
	assert_success
	assert_line "$(printf 'nim\tNim: take any number of counters from one heap')"
	for so in "$CG_BUILD"/plugins/*.so "$CG_BUILD"/plugins/*.cgr; do
		name=$(basename "${so%.*}")
		# the interpreter of rules files is no ruleset and not listed
		if [ "$name" = rules ]; then
			refute_line --regexp "^rules	"
			continue
		fi
		assert_line --regexp "^$name	"
	done
	names=$(printf '%s\n' "$output" | cut -f1)
	[ "$names" = "$(printf '%s\n' "$names" | LC_ALL=C sort)" ]
}

@test "every built ruleset reads back what cg-parse writes" {
	# an empty document per ruleset at least loads and writes
	for so in "$CG_BUILD"/plugins/*.so "$CG_BUILD"/plugins/*.cgr; do
		name=$(basename "${so%.*}")
		cg-parse -r "$name" < /dev/null > "$T/$name.cgt" 2>/dev/null || continue
		run cg cg-options "$T/$name.cgt"
		assert_success
	done
}

@test "--help and --version" {
	run cg cg-parse --help
	assert_success
	assert_line --index 0 --partial "usage: cg-parse -r NAME[:PARAMS]"
	assert_line --partial "-l "
	run cg cg-parse --version
	assert_success
	assert_output --regexp '^cg-parse \(cgtools\) [0-9]+\.[0-9]+'
}

@test "bad option: exit 2" {
	run cg cg-parse -q
	[ "$status" -eq 2 ]
	assert_line --index 0 "cg-parse: invalid option -- 'q'"
}

@test "> /dev/full: exit 1" {
	[ -w /dev/full ] || skip "no /dev/full"
	run sh -c 'cg-parse -r nim 1 2 3 > /dev/full'
	[ "$status" -eq 1 ]
	assert_output "cg-parse: standard output: No space left on device"
	run sh -c 'cg-parse --help > /dev/full'
	[ "$status" -eq 1 ]
}

@test "| head -n1 is quiet" {
	seq 1 50000 > "$T/many"
	run bash -c 'cg-parse -r nim < "$0" 2>"$0.err" | head -n 1; echo "${PIPESTATUS[0]}" > "$0.st"' "$T/many"
	assert_output "$(printf 'cgt\t1')"
	[ ! -s "$T/many.err" ]
	st=$(cat "$T/many.st")
	[ "$st" -eq 0 ] || [ "$st" -eq 141 ]
}
