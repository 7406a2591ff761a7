#!/usr/bin/env bats
# Amazons knowledge bases built with the engines (cg-canon, cg-outcome):
# published vector rows through a base, lookups equal to computing, bases
# built in shards equal byte for byte, a killed build resumed, best moves
# equal to a full search, and the engines' -K.  Skipped when the engines
# are not built.
load common

setup() {
	T=$(mktemp -d)
	[ -x "$CG_BUILD/bin/cg-canon" ] && [ -x "$CG_BUILD/bin/cg-outcome" ] ||
	    skip "cg-canon and cg-outcome are needed"
}

teardown() {
	rm -rf "$T"
}

# the Amazons positions of tests/vectors/kb.tsv with property $1
vector_positions() {
	awk -F'\t' -v p="$1" '$1 == "amazons" && $3 == p { print $2 }' \
	    "$VECTORS/kb.tsv"
}

@test "kb.tsv outcome rows through a base" {
	vector_positions outcome > "$T/pos"
	xargs cg-parse -r amazons < "$T/pos" | cg cg-kb-build -k outcome -o "$T/b"
	check_vectors kb.tsv amazons outcome -- cg-kb lookup -t -k outcome "$T/b"
}

@test "kb.tsv canon rows through a base" {
	vector_positions canon > "$T/pos"
	xargs cg-parse -r amazons < "$T/pos" | cg cg-kb-build -k canon -o "$T/b"
	# kb.tsv's rows come from independent computations written in other
	# notations, so they are compared as values (see check_vectors)
	check_vectors kb.tsv amazons canon --canon-semantic -- \
	    cg-kb lookup -t -k canon "$T/b"
}

@test "lookups give the values computing gives (vector positions and the 3x3 family)" {
	heavy
	vector_positions canon > "$T/pos"
	vector_positions outcome >> "$T/pos"
	xargs cg-parse -r amazons < "$T/pos" > "$T/doc"
	cg cg-kb-build -o "$T/b" "$T/doc"
	cg cg-kb lookup -t "$T/b" "$T/doc" > "$T/got"
	paste <(cg-canon -t "$T/doc") <(cg-outcome -t "$T/doc" | cut -f2) > "$T/want"
	diff "$T/want" "$T/got"
	cg cg-kb-build -r amazons --family 3x3 -o "$T/f"
	cg cg-kb dump "$T/f" > "$T/fdoc"
	[ "$(grep -c '^root' "$T/fdoc")" -gt 1000 ]
	cg cg-kb lookup -t "$T/f" "$T/fdoc" > "$T/got"
	paste <(cg-canon -t "$T/fdoc") <(cg-outcome -t "$T/fdoc" | cut -f2) > "$T/want"
	diff "$T/want" "$T/got"
	# the vector positions that fit a 3x3 box, through the family base
	# (positions of several regions are combined from their regions)
	cg cg-kb lookup -t "$T/f" "$T/doc" | awk -F'\t' '$2 != ""' > "$T/hit"
	[ "$(wc -l < "$T/hit")" -gt 40 ]
	cg cg-kb lookup -t "$T/b" "$T/doc" | grep -Fx -f "$T/hit" | cmp - "$T/hit"
}

@test "--family 3x3 in 3 shards, merged, is byte-identical; --verify passes" {
	cg cg-kb-build -r amazons --family 3x3 -o "$T/one"
	for k in 1 2 3; do
		cg cg-kb-build -r amazons --family 3x3 --shard $k/3 -o "$T/s$k"
	done
	cg cg-kb-build --merge -o "$T/m" "$T/s2" "$T/s1" "$T/s3"
	cmp "$T/one" "$T/m"
	cg cg-kb-build --verify "$T/one"
	cg cg-kb-build --verify "$T/s2"
	run cg cg-kb stats "$T/one"
	assert_line "family	3x3"
	assert_line "entries	1370"
}

@test "canonical forms bottom-up equal the engine's, byte for byte" {
	heavy
	cg cg-kb-build -r amazons --family 4x2 -o "$T/bu"
	cg cg-kb-build --engine-only -r amazons --family 4x2 -o "$T/en"
	cmp "$T/bu" "$T/en"
	cg cg-kb-build -r amazons --family 3x3 -k outcome,canon -o "$T/bu"
	cg cg-kb-build --engine-only -r amazons --family 3x3 -k outcome,canon -o "$T/en"
	cmp "$T/bu" "$T/en"
}

@test "--games: the same values; shards merge to the same bytes" {
	cg cg-kb-build -r amazons --family 4x2 -o "$T/text"
	cg cg-kb-build --games -r amazons --family 4x2 -o "$T/games"
	# (smaller only for larger families: 4x3 162 kB against 187 kB)
	cg cg-kb dump "$T/games" | cmp - <(cg cg-kb dump "$T/text")
	for k in 1 2; do
		cg cg-kb-build --games -r amazons --family 4x2 --shard $k/2 -o "$T/s$k"
	done
	cg cg-kb-build --merge -o "$T/m" "$T/s1" "$T/s2"
	cmp "$T/games" "$T/m"
	cg cg-kb-build --verify "$T/games"
}

@test "--verify names a wrong canonical form" {
	cg cg-kb-build -r amazons --family 4x2 -o "$T/b"
	cg cg-kb dump "$T/b" > "$T/d"
	# x. on a 1x2 board: Left moves and burns, then nobody can move, so
	# it is {0|} = 1; store 7 instead
	grep -q "^N	[0-9]*	\.x$" "$T/d"
	id=$(awk -F'\t' '$1 == "N" && $3 == ".x" { print $2 }' "$T/d")
	sed "s/^A	$id	canon	1$/A	$id	canon	7/" "$T/d" > "$T/bad"
	! cmp -s "$T/d" "$T/bad"
	cg cg-kb-build -o "$T/c" "$T/bad"
	run cg cg-kb-build --verify "$T/c"
	[ "$status" -eq 1 ]
	assert_output --partial "canon of '.x' is '7', but its options give '1'"
}

@test "a killed build resumes from its checkpoint, at any --jobs, and gives the same base" {
	cg cg-kb-build --jobs 1 -r amazons --family 4x3 -o "$T/one"
	for jobs in 1 2; do
		rm -f "$T/b" "$T/b.ckpt"
		"$CG_BUILD/bin/cg-kb-build" --jobs $jobs -r amazons --family 4x3 \
		    --batch 200 -o "$T/b" 2>/dev/null &
		pid=$!
		for i in $(seq 1 400); do
			[ -s "$T/b.ckpt" ] &&
			    [ "$(stat -c %s "$T/b.ckpt")" -gt 20000 ] && break
			sleep 0.02
		done
		kill -9 "$pid" 2>/dev/null || true
		wait "$pid" || true
		[ ! -e "$T/b" ] || skip "the build finished before it could be killed"
		[ "$(stat -c %s "$T/b.ckpt")" -gt 20000 ]
		# resumed with the other number of threads
		run cg cg-kb-build -v --jobs $((3 - jobs)) -r amazons \
		    --family 4x3 --batch 200 -o "$T/b"
		assert_success
		assert_output --partial "resumed"
		cmp "$T/one" "$T/b"
		[ ! -e "$T/b.ckpt" ]
	done
}

@test "a checkpoint of another build, or a damaged one, is refused" {
	printf 'cgkb-checkpoint\t1\tnim\t1.0\t\tnimber\t1/1\n' > "$T/c.ckpt"
	run cg cg-kb-build -r amazons --family 3x3 -o "$T/c"
	[ "$status" -eq 1 ]
	assert_output --partial "not a cgtools checkpoint"
	# a checkpoint of the 3x3 build resumed by a 3x2 build
	"$CG_BUILD/bin/cg-kb-build" -r amazons --family 3x3 --batch 50 \
	    -o "$T/d" 2>/dev/null &
	pid=$!
	for i in $(seq 1 400); do
		[ -s "$T/d.ckpt" ] && [ "$(stat -c %s "$T/d.ckpt")" -gt 3000 ] && break
		sleep 0.01
	done
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" || true
	[ ! -e "$T/d" ] || skip "the build finished before it could be killed"
	cp "$T/d.ckpt" "$T/e.ckpt"
	run cg cg-kb-build -r amazons --family 3x2 -o "$T/e"
	[ "$status" -eq 1 ]
	assert_output --partial "checkpoint of another build"
	# one byte changed anywhere: the chained checksums refuse the file,
	# or (a length now reaching past the end looks like a batch a kill
	# cut short) the records from there on are computed again; never a
	# wrong base
	cg cg-kb-build -r amazons --family 3x3 -o "$T/ref"
	size=$(stat -c %s "$T/d.ckpt")
	damaged=0
	for at in 9 10 11 $((size / 3)) $((size / 2)) $((size - 5)); do
		cp "$T/e.ckpt" "$T/d.ckpt"
		rm -f "$T/d"
		printf '\377' | dd of="$T/d.ckpt" bs=1 seek=$at conv=notrunc 2>/dev/null
		run cg cg-kb-build -r amazons --family 3x3 --batch 50 -o "$T/d"
		if [ "$status" -eq 0 ]; then
			cmp "$T/ref" "$T/d"
		else
			[ "$status" -eq 1 ]
			assert_output --partial "damaged at byte"
			damaged=$((damaged + 1))
		fi
	done
	[ "$damaged" -gt 0 ]
}

@test "best moves from a base agree with a full search of each option" {
	cg cg-kb-build -r amazons --family 3x3 -o "$T/b"
	for p in 'x..|..o' '.x.|...|.o.' 'x.#|o..' '.x.|o..' 'x..|.o.'; do
		for s in left right; do
			cg cg-kb best -a -s $s -k outcome -r amazons "$T/b" <<<"$p"
		done
	done > "$T/all"
	[ "$(wc -l < "$T/all")" -gt 50 ]
	# the full search: cg-outcome on each option; the mover wins after
	# a move when the option is P or a win for the mover
	cut -f4 "$T/all" | xargs cg-parse -r amazons | cg-outcome -t | cut -f2 > "$T/o"
	paste "$T/all" "$T/o" | awk -F'\t' '
	    { best[$1 FS $2] = best[$1 FS $2] || ($2 == "L" ? ($7 ~ /[LP]/) : ($7 ~ /[RP]/)) }
	    { rows[NR] = $0 }
	    END {
		for (i = 1; i <= NR; i++) {
			split(rows[i], f, FS)
			w = (f[2] == "L") ? (f[7] ~ /[LP]/) : (f[7] ~ /[RP]/)
			want = (w || !best[f[1] FS f[2]]) ? "*" : ""
			if (f[5] != f[7] || f[6] != want) { print "mismatch: " rows[i]; bad = 1 }
		}
		exit bad
	    }'
}

@test "cg-canon -K and cg-outcome -K give the same values with the base" {
	cg cg-kb-build -r amazons --family 3x3 -o "$T/b"
	vector_positions canon | xargs cg-parse -r amazons > "$T/doc"
	cg-canon -t "$T/doc" > "$T/want"
	cg-canon -t -K "$T/b" "$T/doc" | diff "$T/want" -
	cg-outcome -t "$T/doc" > "$T/want"
	cg-outcome -t -K "$T/b" "$T/doc" | diff "$T/want" -
}
