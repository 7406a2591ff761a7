#!/usr/bin/env bats
# Hostile and runaway input (issue 13): every reader bounded, every length
# checked, bad input quoted, errors with file and line.  The crafted
# knowledge bases are in tests/fixtures/hostile/ (README says what each
# one claims; craft.py is how they were made); each crashed or allocated
# gigabytes before these checks.

load common

H="$CG_ROOT/tests/fixtures/hostile"

setup() {
	T=$BATS_TEST_TMPDIR
}

# kb_refused FILE MESSAGE: cg-kb stats refuses FILE with exactly MESSAGE
kb_refused() {
	run cg cg-kb stats "$H/$1"
	[ "$status" -eq 1 ] || { echo "status $status: $output"; return 1; }
	assert_output "cg-kb: $H/$1: $2"
}

@test "cgkb: a games dictionary whose option counts wrap around (SIGSEGV before)" {
	kb_refused games-wrap.cgkb "value dictionary is malformed"
	run cg cg-canon -r domineering -K "$H/games-wrap.cgkb" -t <<< '..'
	[ "$status" -eq 1 ]
	assert_output "cg-canon: $H/games-wrap.cgkb: value dictionary is malformed"
}

@test "cgkb: a block claiming 2^32-1 entries is refused at open (16 GB before)" {
	kb_refused block-entries.cgkb "malformed knowledge base header"
}

@test "cgkb: a block claiming 4 GB uncompressed is refused at open" {
	kb_refused block-size.cgkb "malformed knowledge base header"
}

@test "cgkb: a dictionary claiming 4 GB uncompressed is refused at open" {
	kb_refused dict-size.cgkb "malformed knowledge base header"
}

@test "cgkb: an entry count the blocks do not hold is refused at open" {
	kb_refused entry-count.cgkb "malformed knowledge base header"
}

@test "cgkb: keys that decode to 600 MB from a 46 kB file are refused" {
	run cg cg-kb dump "$H/key-expansion.cgkb"
	[ "$status" -eq 1 ]
	assert_output --partial "$H/key-expansion.cgkb: block 1 is malformed"
}

@test "cgkb: the games dictionary reads back as the text one (values printed on demand)" {
	cg cg-kb-build -r domineering --family 6 --games -o "$T/g.cgkb" 2>/dev/null
	cg cg-kb-build -r domineering --family 6 -o "$T/t.cgkb" 2>/dev/null
	run cg cg-kb dump "$T/g.cgkb"
	assert_success
	[ "$output" = "$(cg cg-kb dump "$T/t.cgkb")" ]
}

@test "cgt: bytes after the last gzip member are an error (ignored before)" {
	{ printf 'cgt\t1\nend\n' | gzip -c; printf 'junk\n'; } > "$T/t.gz"
	run cg cg-options -t "$T/t.gz"
	[ "$status" -eq 1 ]
	assert_output "cg-options: $T/t.gz:3: bytes after the end of the gzip data (not another gzip member)"
}

@test "cgt: a line past the limit is an error, not an allocation" {
	# 65 MiB of one line in a 64 kB gzip file: the default limit is 64 MiB
	head -c 68157440 /dev/zero | tr '\0' 7 | gzip -c > "$T/long.gz"
	[ "$(wc -c < "$T/long.gz")" -lt 200000 ]
	run cg cg-canon -r nim -t "$T/long.gz"
	[ "$status" -eq 1 ]
	assert_output "cg-canon: $T/long.gz:1: line longer than 67108864 bytes (the limit; set CG_MAX_LINE to raise it)"
	# the limit can be lowered and raised
	printf '1\n%s\n3\n' "$(head -c 2000 /dev/zero | tr '\0' 1)" > "$T/l.txt"
	CG_MAX_LINE=1k run cg cg-canon -r nim -t "$T/l.txt"
	[ "$status" -eq 1 ]
	assert_output --partial "l.txt:2: line longer than 1024 bytes"
	CG_MAX_LINE=2k run cg cg-canon -r nim -t "$T/l.txt"
	[ "$status" -eq 1 ]   # heap too large, but the line was read
	assert_output --partial "heap size too large"
	CG_MAX_LINE=lots run cg cg-canon -r nim -t "$T/l.txt"
	[ "$status" -eq 2 ]
	assert_output --partial "bad CG_MAX_LINE 'lots'"
}

@test "cgt: a 20 MB id is quoted by a short prefix, not echoed whole" {
	{ printf 'cgt\t1\nN\t'; head -c 20000000 /dev/zero | tr '\0' 9; printf 'x\nend\n'; } > "$T/id.cgt"
	run cg cg-options "$T/id.cgt"
	[ "$status" -eq 1 ]
	[ "${#output}" -lt 200 ]
	assert_output "cg-options: $T/id.cgt:2: bad node id '9999999999999999999999999999999999999999999999999999999999999999...'"
}

@test "raw bytes and broken UTF-8 are quoted as \\xNN, whole characters kept" {
	run sh -c "printf '1\n\001\n' | cg-canon -r nim -t 2>&1 >/dev/null"
	[ "$status" -eq 1 ]
	assert_output "cg-canon: -:2: bad nim position '\\x01': column 1: expected a heap size, found '\\x01'"
	run sh -c "printf '\342\202\254\342\202\n' | cg-canon -r nim -t 2>&1"
	[ "$status" -eq 1 ]
	assert_output "cg-canon: -:1: bad nim position '€\\xe2\\x82': column 1: expected a heap size, found '\\xe2'"
}

@test "game literals too large for the store: file and line" {
	run sh -c "printf '0\n{9223372036854775807|}\n' | cg-canon -r game -t 2>&1 >/dev/null"
	[ "$status" -eq 1 ]
	assert_output "cg-canon: -:2: ruleset 'game' gives the value '{9223372036854775807|}': column 1: number too large for 64-bit arithmetic"
	run sh -c "printf '^1099511627776+^1099511627776\n' | cg-canon -r game -t 2>&1 >/dev/null"
	[ "$status" -eq 1 ]
	assert_output "cg-canon: -:1: up multiple or nimber too large"
}

@test "cgt: a J record on a node without option lists is an error" {
	printf 'cgt\t1\nN\t1\nN\t2\nJ\t2\t0\t0\t1\nend\n' > "$T/j.cgt"
	run cg cg-options -t "$T/j.cgt"
	[ "$status" -eq 1 ]
	assert_output "cg-options: $T/j.cgt:4: joint option (0, 0) of node 2, which has 0 Left and 0 Right options (indices are 0-based positions in its L and R lists)"
	# within the lists it is fine
	printf 'cgt\t1\nN\t1\nN\t2\nL\t2\t1\nR\t2\t1\nJ\t2\t0\t0\t1\nend\n' > "$T/k.cgt"
	run cg cg-options -t "$T/k.cgt"
	assert_success
}

@test "spr: a NUL byte inside a line is an error (the line was cut before)" {
	printf '[Positions+Nimber]\n3 3\n4\0005 1\n' > "$T/nul.spr"
	run sh -c "echo 2 | cg-outcome -r nim -n -t -D '$T/nul.spr' 2>&1"
	[ "$status" -eq 1 ]
	assert_output "cg-outcome: $T/nul.spr:3: NUL byte in input"
}

@test "spr: raw bytes in a bad line are quoted" {
	printf '[Positions+Nimber]\n\001\002 3\n' > "$T/raw.spr"
	run sh -c "echo 2 | cg-outcome -r nim -n -t -D '$T/raw.spr' 2>&1"
	[ "$status" -eq 1 ]
	assert_output "cg-outcome: $T/raw.spr:2: position '\\x01\\x02' is not a 'nim' position: column 1: expected a heap size, found '\\x01'"
}

@test "spr: a line past the limit is an error" {
	{ printf '[Positions+Nimber]\n'; head -c 3000 /dev/zero | tr '\0' 1; printf ' 1\n'; } > "$T/long.spr"
	run sh -c "echo 2 | CG_MAX_LINE=1k cg-outcome -r nim -n -t -D '$T/long.spr' 2>&1"
	[ "$status" -eq 1 ]
	assert_output "cg-outcome: $T/long.spr:2: line longer than 1024 bytes (the limit; set CG_MAX_LINE to raise it)"
}
