#!/usr/bin/env bats
# cg-outcome: outcome classes, nimbers, misere values, genus, heap
# sequences, solving databases, check mode.  Expected values come from
# tests/vectors/ (published) or from hand derivations written next to
# each test.
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

need() {
	[ -e "$CG_BUILD/plugins/$1.so" ] || skip "plugin $1 not built"
}

# check_rows FILE RULESET_RE PROPERTY AWK_FILTER -- COMMAND...
# Like check_vectors, restricted to the rows whose position ($2) passes
# the awk condition (the others are long-run targets in bench/outcome),
# and feeding positions as arguments (a position may start with '#').
check_rows() {
	local file=$1 rsre=$2 prop=$3 filter=$4
	shift 5
	local rows rs fails=0 total=0
	set -o pipefail
	rows=$(awk -F'\t' -v OFS='\t' -v re="^($rsre)\$" -v p="$prop" \
	    "!/^#/ && \$1 ~ re && \$3 == p && ($filter)" "$VECTORS/$file")
	[ -n "$rows" ] || { echo "no rows for $rsre/$prop"; return 1; }
	for rs in $(printf '%s\n' "$rows" | cut -f1 | sort -u); do
		local -a pos
		local want got
		mapfile -t pos < <(printf '%s\n' "$rows" | awk -F'\t' -v r="$rs" '$1 == r {print $2}')
		want=$(printf '%s\n' "$rows" | awk -F'\t' -v r="$rs" '$1 == r {print $4}')
		got=$(cg cg-parse -r "$rs" -- "${pos[@]}" | "$@" | cut -f2-) || {
			echo "command failed for $rs"; return 1; }
		total=$((total + ${#pos[@]}))
		if [ "$got" != "$want" ]; then
			paste <(printf '%s\n' "${pos[@]}") <(printf '%s\n' "$want") \
			    <(printf '%s\n' "$got") | awk -F'\t' '$2 != $3'
			fails=1
		fi
	done
	echo "# $total rows checked"
	return $fails
}

# ------------------------------------------------------------ interface

@test "--help and --version" {
	run cg cg-outcome --help
	assert_success
	assert_output --partial "usage: cg-outcome"
	run cg cg-outcome --version
	assert_success
	assert_output --partial "cg-outcome (cgtools)"
}

@test "a bad option is a usage error" {
	run cg cg-outcome --frobnicate
	[ "$status" -eq 2 ]
	run cg cg-outcome --check
	[ "$status" -eq 2 ]
	run cg cg-outcome --sequence 10
	[ "$status" -eq 2 ]
}

@test "a missing file is a data error" {
	run cg cg-outcome "$T/nonexistent"
	[ "$status" -eq 1 ]
	assert_output --partial "nonexistent"
}

@test "malformed input is reported with file and line" {
	printf 'cgt\t1\nruleset\tnim\nN\t1\t3\nbogus\n' > "$T/bad"
	run cg cg-outcome "$T/bad"
	[ "$status" -eq 1 ]
	assert_output --partial "$T/bad:4:"
	run sh -c "printf '3\nx\n' | cg-outcome -r nim -t"
	[ "$status" -eq 1 ]
	assert_output --partial ":2:"
}

@test "-n on a partizan game is an error naming the root's line" {
	need domineering
	run sh -c "cg-parse -r domineering '..|..' | cg-outcome -n -t"
	[ "$status" -eq 1 ]
	assert_output --partial "impartial"
}

@test "a full disk fails; a closed pipe is quiet" {
	run sh -c 'cg-parse -r nim 3 4 | cg-outcome -t > /dev/full'
	[ "$status" -eq 1 ]
	run sh -c 'cg-parse -r nim 1 2 3 4 5 6 | cg-outcome -t | head -n1'
	assert_success
	assert_output "$(printf '1\tN')"
}

@test "without -t the document comes back annotated" {
	# 1+2+3: nim sum 0, a P-position (Bouton)
	cg-parse -r nim 1+2+3 | cg cg-outcome > "$T/o"
	grep -q "^A	1	outcome	P$" "$T/o"
	cg-parse -r nim 1+2 | cg cg-outcome -n > "$T/n"
	grep -q "^A	1	nimber	3$" "$T/n"
}

# ------------------------------------------------------------ nim (hand)

@test "nim by hand: outcomes, nimbers, misere" {
	# normal: nim sum 1^2^3 = 0 -> P; 4^5 = 1 -> N.  misere nim: all heaps
	# <= 1 -> outcome by parity (1+1: P... the mover takes one, the other
	# must take the last and loses, so 1+1 is N); 2+2 misere P (mirror).
	run sh -c 'cg-parse -r nim 1+2+3 4+5 1+1 | cg-outcome -t'
	assert_output "$(printf '1+2+3\tP\n4+5\tN\n1+1\tP')"
	run sh -c 'cg-parse -r nim 1+1 2+2 1 0 | cg-outcome -t -m'
	assert_output "$(printf '1+1\tN\n2+2\tP\n1\tP\n0\tN')"
	# misere nim values: 1+1 -> mex{G(1)=0} = 1; 2+2 -> 0
	run sh -c 'cg-parse -r nim 1+1 2+2 | cg-outcome -t -m -n'
	assert_output "$(printf '1+1\t1\n2+2\t0')"
	# genus of *2+*2 is 0^0 (Winning Ways: not a nim heap, tame)
	run sh -c 'cg-parse -r nim 2+2 | cg-outcome -t -g'
	assert_output "$(printf '2+2\t0^0')"
}

# --------------------------------------------------------------- vectors

@test "impartial.tsv: nim nimbers, misere nim values, genus" {
	check_vectors impartial.tsv nim nimber -- cg cg-outcome -t -n
	check_vectors impartial.tsv nim misere-nimber -- cg cg-outcome -t -n -m
	check_vectors impartial.tsv nim genus -- cg cg-outcome -t -g
}

@test "impartial.tsv: subtraction 2,3,7" {
	need subtraction
	check_vectors impartial.tsv 'subtraction:2,3,7' nimber -- cg cg-outcome -t -n
	check_vectors impartial.tsv 'subtraction:2,3,7' misere-nimber -- cg cg-outcome -t -n -m
	check_vectors impartial.tsv 'subtraction:2,3,7' genus -- cg cg-outcome -t -g
	want=$(awk -F'\t' '$1 == "subtraction:2,3,7" && $3 == "sequence" {print $4}' "$VECTORS/impartial.tsv")
	got=$(cg cg-outcome -r subtraction:2,3,7 --sequence 20 | cut -d, -f2-)
	[ "$got" = "$want" ]
}

@test "impartial.tsv: octal nimbers and misere nim values" {
	need octal
	check_vectors impartial.tsv 'octal:.*' nimber -- cg cg-outcome -t -n
	check_vectors impartial.tsv 'octal:.*' misere-nimber -- cg cg-outcome -t -n -m
}

@test "impartial.tsv: octal genus" {
	need octal
	check_vectors impartial.tsv 'octal:.*' genus -- cg cg-outcome -t -g
}

@test "impartial.tsv: Kayles sequence and period" {
	need octal
	want=$(awk -F'\t' '$1 == "octal:0.77" && $3 == "sequence" {print $4}' "$VECTORS/impartial.tsv")
	run cg cg-outcome -r octal:0.77 --sequence 104
	assert_success
	assert_output "$want"
	run cg cg-outcome -r octal:0.77 --periodicity 1000
	assert_output "Periodicity(Period => 12, Preperiod => 71, Saltus => 0)"
	# 2e + p + t = 156 heaps prove it; 150 do not
	run cg cg-outcome -r octal:0.77 --periodicity 150
	assert_output "Nothing"
}

@test "heap games: big heaps take their nim values from the sequence" {
	need octal
	# Kayles from impartial.tsv: preperiod 71, period 741281472182, so
	# G(1000) = period[(1000 - 71) mod 12 = 5] = 1, and G(3) = 3: 1 ^ 3 = 2
	run sh -c "printf '1000+3\n' | cg-outcome -r octal:0.77 -t -n"
	assert_output "$(printf '1000+3\t2')"
}

@test "impartial.tsv: octal sequences as prefix(period)" {
	heavy
	need octal
	local n=0 bad=0 rs want got per pre
	while IFS=$'\t' read -r rs want; do
		out=$(cg cg-outcome -r "$rs" --periodicity 3000)
		per=$(printf '%s' "$out" | sed -n 's/.*Period => \([0-9]*\),.*/\1/p')
		pre=$(printf '%s' "$out" | sed -n 's/.*Preperiod => \([0-9]*\),.*/\1/p')
		if [ -z "$per" ]; then
			echo "$rs: $out"; bad=1; continue
		fi
		got=$(cg cg-outcome -r "$rs" --sequence $((pre + per - 1)) |
		    awk -F, -v pre="$pre" '{
			d = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			for (i = 1; i <= NF; i++) {
				if (i == pre + 1) s = s "("
				s = s substr(d, $i + 1, 1)
			}
			print s ")" }')
		n=$((n + 1))
		if [ "$got" != "$want" ]; then
			echo "$rs: want $want got $got"; bad=1
		fi
	done < <(awk -F'\t' '$3 == "sequence-prefix(period)" {print $1 "\t" $4}' "$VECTORS/impartial.tsv")
	echo "# $n rows checked"
	[ "$bad" -eq 0 ]
}

@test "outcome.tsv: Cram nimbers (boards up to 24 cells) and misere outcomes" {
	need cram
	check_rows outcome.tsv cram nimber 'gsub(/0/, "0", $2) <= 24' -- cg cg-outcome -t -n
	check_rows outcome.tsv cram misere 1 -- cg cg-outcome -t -m
}

@test "outcome.tsv: Sprouts nimbers and outcomes (small positions)" {
	need sprouts
	# 0*6 and larger are long-run targets: bench/outcome
	small='$2 !~ /^0\*([6-9]|[1-9][0-9])$/ && $2 != "0*3.1a1a" && $2 != "0*4.AB|AB"'
	check_rows outcome.tsv sprouts nimber "$small" -- cg cg-outcome -t -n
	check_rows outcome.tsv sprouts outcome "$small" -- cg cg-outcome -t
	check_rows outcome.tsv sprouts misere "$small" -- cg cg-outcome -t -m
}

@test "outcome.tsv: every search (dfs, pns, dfpn, pn2, bits) gives the published values" {
	need sprouts
	need cram
	need domineering
	local s small='$2 !~ /^0\*([9]|[1-9][0-9])$/ && $2 != "0*3.1a1a"'
	for s in dfs pns dfpn pn2 bits; do
		echo "# --search $s"
		check_rows outcome.tsv sprouts outcome "$small" -- cg cg-outcome -t --search $s
		check_rows outcome.tsv sprouts nimber "$small" -- cg cg-outcome -t -n --search $s
		check_rows outcome.tsv sprouts misere '$2 !~ /^0\*[6-9]$/' -- cg cg-outcome -t -m --search $s
		check_rows outcome.tsv cram nimber 'gsub(/0/, "0", $2) <= 20' -- cg cg-outcome -t -n --search $s
		check_rows canon.tsv domineering outcome 'gsub(/\./, ".", $2) <= 16' -- cg cg-outcome -t --search $s
	done
}

@test "outcome.tsv: proof-number searches on two threads give the same values" {
	need sprouts
	need cram
	local s small='$2 !~ /^0\*([8-9]|[1-9][0-9])$/ && $2 != "0*3.1a1a"'
	for s in pns dfpn; do
		check_rows outcome.tsv sprouts outcome "$small" -- cg cg-outcome -t --search $s --jobs 2
		check_rows outcome.tsv sprouts nimber "$small" -- cg cg-outcome -t -n --search $s --jobs 2
		check_rows outcome.tsv cram nimber 'gsub(/0/, "0", $2) <= 20' -- cg cg-outcome -t -n --search $s --jobs 2
	done
}

@test "cg-outcome: an unknown --search is a usage error naming the choices" {
	run cg cg-outcome --search bfs -r nim -t </dev/null
	assert_failure 2
	assert_output --partial "unknown search 'bfs' (auto, dfs, pns, dfpn, pn2 or bits)"
}

@test "canon.tsv: misere outcomes of game literals" {
	need game
	check_vectors canon.tsv game misere -- cg cg-outcome -t -m
}

@test "a game literal nested 3999 deep is valued on sight, not expanded level by level" {
	need game
	# {|} = 0 and {n|} = n + 1 for an integer n, so 3999 nested Left
	# options make the integer 3998: Left wins moving first or second
	# (L).  Its negative {|{|...{|}...}} is -3998 (R), and the two
	# together are 0, a second-player win (P).
	local n=3999 pos neg
	pos=$(printf '{%.0s' $(seq $n); printf '|}%.0s' $(seq $n))
	neg=$(printf '{|%.0s' $(seq $n); printf '}%.0s' $(seq $n))
	[ ${#pos} -eq $((3 * n)) ] && [ ${#neg} -eq $((3 * n)) ]
	printf '%s\n%s\n%s+%s\n' "$pos" "$neg" "$pos" "$neg" > "$T/deep"
	cg cg-outcome -r game -t -v "$T/deep" > "$T/out" 2> "$T/err"
	run cut -f2 "$T/out"
	assert_output "$(printf 'L\nR\nP')"
	# the literals were read as their values (the report counts them),
	# not expanded subgame by subgame, each reading the rest again
	run cat "$T/err"
	assert_output --regexp ' [0-9]+ valued on sight, '
}

@test "a game literal whose value the canonical store cannot hold is searched, not refused" {
	need game
	# {n|} = n + 1 > 0 for the integer n = 2^63 - 1, past 64-bit
	# arithmetic; ^n > 0 for n > 0 (Winning Ways, ch. 8), so a sum of two
	# is positive though its up multiple, 2^41, is past the store's range;
	# and *n + *n = 0, whatever n
	run sh -c "printf '%s\n' '{9223372036854775807|}' '^1099511627776+^1099511627776' '*81812216+*81812216' |
	    cg-outcome -r game -t"
	assert_success
	assert_output "$(printf '%s\tL\n' '{9223372036854775807|}' '^1099511627776+^1099511627776'; printf '%s\tP' '*81812216+*81812216')"
}

@test "canon.tsv: Domineering outcomes (boards up to 28 empty squares)" {
	need domineering
	check_rows canon.tsv domineering outcome 'gsub(/\./, ".", $2) <= 28' -- cg cg-outcome -t
}

# ------------------------------------------------ documents, no plugin

# Turn a document into a plugin-free tree: no ruleset, no position text.
abstract() {
	awk -F'\t' -v OFS='\t' '$1 == "ruleset" {next} $1 == "N" {print "N", $2; next} {print}'
}

@test "trees from documents agree with the plugin path" {
	for p in 1+2+3 2+2 3+1 1+1+1 4 0; do
		cg-parse -r nim "$p" | cg-options -a | abstract > "$T/t"
		for f in "" -n -m "-m -n" -g; do
			a=$(cg-parse -r nim "$p" | cg cg-outcome -t $f | cut -f2)
			b=$(cg cg-outcome -t $f "$T/t" | cut -f2)
			[ "$a" = "$b" ] || { echo "$p $f: $a vs $b"; return 1; }
		done
	done
}

@test "partizan trees from documents agree with the plugin path" {
	need domineering
	for p in '..|..' '...|...' '..|..|..' '...|.#.|...' '....'; do
		cg-parse -r domineering "$p" | cg-options -a | abstract > "$T/t"
		for f in "" -m; do
			a=$(cg-parse -r domineering "$p" | cg cg-outcome -t $f | cut -f2)
			b=$(cg cg-outcome -t $f "$T/t" | cut -f2)
			[ "$a" = "$b" ] || { echo "$p $f: $a vs $b"; return 1; }
		done
	done
}

# ------------------------------------------------------------ children

@test "--children lists each option with its value" {
	# 1+2: options 2 (*2), 1 (*1), 1+1 (0) -> the winning move is 2:1
	run sh -c 'cg-parse -r nim 1+2 | cg-outcome --children -n'
	assert_success
	assert_output "$(printf '1+2\t1:0\t2\t2\n1+2\t2:0\t1\t1\n1+2\t2:1\t1+1\t0')"
}

# ------------------------------------------------------------ databases

@test "-D saves losing couples in .spr format and reloads them" {
	cg-parse -r nim 1+2 3 | cg cg-outcome -n -t -D "$T/db.spr" > "$T/a"
	[ "$(head -n1 "$T/db.spr")" = "[Positions+Nimber]" ]
	# every line "position nimber", and nim heaps are their own nimbers
	grep -q '^3 3$' "$T/db.spr"
	grep -q '^2 2$' "$T/db.spr"
	sort -c <(tail -n +2 "$T/db.spr")
	cp "$T/db.spr" "$T/db0"
	cg-parse -r nim 1+2 3 | cg cg-outcome -n -t -D "$T/db.spr" > "$T/b"
	cmp "$T/a" "$T/b"
	cmp "$T/db.spr" "$T/db0"
}

@test "-D with misere play writes losing positions" {
	cg-parse -r nim 2+2 1+1+1 | cg cg-outcome -m -t -D "$T/m.spr"
	[ "$(head -n1 "$T/m.spr")" = "[WinLoss_Misere:Losing_Position]" ]
	# 2+2 and 1+1+1 are misere P-positions
	grep -qx '2+2' "$T/m.spr"
	grep -qx '1+1+1' "$T/m.spr"
}

@test "misere databases of sums reload (Cram has no sum notation)" {
	need cram
	cg-parse -r cram '....|....|....|....' | cg cg-outcome -m -t -D "$T/m.spr" > "$T/a"
	# sums of several boards are written as boards joined by '+'
	grep -q '+' "$T/m.spr"
	cp "$T/m.spr" "$T/m0"
	cg-parse -r cram '....|....|....|....' | cg cg-outcome -m -t -D "$T/m.spr" > "$T/b"
	cmp "$T/a" "$T/b"
	cmp "$T/m.spr" "$T/m0"
}

@test "Glop-notation databases are read (Cram)" {
	need cram
	# 2x3 Cram ("000*000E"): nimber 1 (outcome.tsv row for 2xn, n odd);
	# a database saying so is used as it is
	printf '[Positions+Nimber]\n000*000E 1\n' > "$T/g.spr"
	run sh -c "cg-parse -r cram '...|...' | cg-outcome -n -t -D '$T/g.spr'"
	assert_output "$(printf '...|...\t1')"
}

@test "conflicting databases: a hard error naming the position, files untouched" {
	printf '[Positions+Nimber]\n3 3\n' > "$T/a.spr"
	printf '[Positions+Nimber]\n3 2\n' > "$T/b.spr"
	cp "$T/a.spr" "$T/a0"
	cp "$T/b.spr" "$T/b0"
	run sh -c "cg-parse -r nim 3 | cg-outcome -n -t -D '$T/a.spr' -D '$T/b.spr'"
	[ "$status" -eq 1 ]
	assert_output --partial "position '3'"
	assert_output --partial "b.spr:2"
	cmp "$T/a.spr" "$T/a0"
	cmp "$T/b.spr" "$T/b0"
}

@test "bad database files: clear errors, file untouched" {
	printf '[Nonsense]\n3 3\n' > "$T/h.spr"
	printf '[Positions+Nimber]\n3 3\n2 2' > "$T/t.spr"
	printf '[Positions+Nimber]\nx+y 3\n' > "$T/r.spr"
	printf '[Positions+Nimber]\n3 three\n' > "$T/v.spr"
	printf '[WinLoss_Misere:Losing_Position]\n2+2\n' > "$T/k.spr"
	for f in h t r v k; do cp "$T/$f.spr" "$T/$f.0"; done
	run sh -c "echo 3 | cg-outcome -r nim -n -D '$T/h.spr'"
	[ "$status" -eq 1 ]
	assert_output --partial "h.spr:1: bad header"
	run sh -c "echo 3 | cg-outcome -r nim -n -D '$T/t.spr'"
	[ "$status" -eq 1 ]
	assert_output --partial "t.spr:3: truncated"
	run sh -c "echo 3 | cg-outcome -r nim -n -D '$T/r.spr'"
	[ "$status" -eq 1 ]
	assert_output --partial "r.spr:2: position 'x+y' is not a 'nim' position"
	run sh -c "echo 3 | cg-outcome -r nim -n -D '$T/v.spr'"
	[ "$status" -eq 1 ]
	assert_output --partial "v.spr:2: bad nimber"
	run sh -c "echo 3 | cg-outcome -r nim -n -D '$T/k.spr'"
	[ "$status" -eq 1 ]
	assert_output --partial "k.spr:1: database holds misere"
	for f in h t r v k; do cmp "$T/$f.spr" "$T/$f.0"; done
}

@test "cram: even boards by symmetry (P, nim value 0), odd by even N" {
	need cram
	# the published symmetry strategies; up to 12x12 and 13x6, which no
	# search settles in seconds without them (cram's cg.value gives 0 for
	# a region the half turn maps onto itself with no domino meeting its
	# image)
	check_rows outcome.tsv cram outcome 1 -- cg cg-outcome -t
	check_rows outcome.tsv cram nimber '$5 ~ /Tweedledum/' -- cg cg-outcome -t -n
}

@test "an interrupted run saves its database and a rerun resumes" {
	need cram
	# the nim value of 5x9 Cram takes long enough to be interrupted (an
	# even side would be settled at once by symmetry)
	board='000000000*000000000000000000000000000000000000E'
	cg-parse -r cram "$board" > "$T/in"
	cg-outcome -n -t -D "$T/i.spr" "$T/in" > "$T/out" 2> "$T/err" &
	pid=$!
	sleep 2
	kill -INT $pid
	wait $pid || status=$?
	[ "${status:-0}" -eq 130 ] || [ "${status:-0}" -eq 0 ]
	[ "$(head -n1 "$T/i.spr")" = "[Positions+Nimber]" ]
	n=$(wc -l < "$T/i.spr")
	[ "$n" -gt 1 ]
	# the saved file loads cleanly (no partial lines)
	run sh -c "cg-parse -r cram '..|..' | cg-outcome -n -t -D '$T/i.spr'"
	assert_success
	assert_output "$(printf '..|..\t0')"
}

# ------------------------------------------------------------ check mode

@test "--check re-derives results and reports wrong entries" {
	cg-parse -r nim 1+2+3 5+6 | cg cg-outcome -n -t -D "$T/db.spr" > /dev/null
	run sh -c "cg-parse -r nim 1+2+3 5+6 | cg-outcome -n -t --check -D '$T/db.spr' --proof '$T/proof.spr'"
	assert_success
	assert_output --partial "0 wrong database entries"
	[ "$(head -n1 "$T/proof.spr")" = "[Positions+Nimber]" ]
	# a corrupted entry (heap 3 has nimber 3) is reported, not trusted
	sed 's/^3 3$/3 1/' "$T/db.spr" > "$T/bad.spr"
	run sh -c "cg-parse -r nim 3+1 | cg-outcome -n -t --check -D '$T/bad.spr'"
	[ "$status" -eq 1 ]
	assert_output --partial "3+1	2"
	assert_output --partial "wrong database entry: '3' has nimber 3, not 1"
}

# ------------------------------------------------------------ progress

@test "quiet by default; -v reports progress and the database" {
	run sh -c 'cg-parse -r nim 5+6+7 | cg-outcome -t 2>&1 >/dev/null'
	assert_output ""
	run sh -c "cg-parse -r nim 3 | cg-outcome -n -v -D '$T/p.spr' 2>&1 >/dev/null"
	assert_output --partial "positions saved"
}

# ---------------------------------------------------------- heap errors

@test "heap modes: a non-heap ruleset is an error" {
	need cram
	run cg cg-outcome -r cram --sequence 5
	[ "$status" -eq 1 ]
	assert_output --partial "not a heap game"
}

# ------------------------------------------------------ knowledge bases

@test "-K: knowledge bases are consulted for roots and components" {
	[ -x "$CG_BUILD/bin/cg-kb-build" ] || skip "cg-kb-build not built"
	# a base that (wrongly, on purpose) says heap 3 has nimber 5: the
	# answers show it was used, for the root 3 and for the component 3
	# of 3+1 (5 XOR 1 = 4).  Octal 0.[37] rather than Nim, whose heap
	# rules give every heap's value without a base; by hand, G(1) =
	# mex{G(0)} = 1 and G(2) = mex{G(1), G(0)} = 2 (take 1 leaving one
	# heap, take 2 leaving none).
	cg-parse -r 'octal:0.[37]' 3 | awk -F'\t' -v OFS='\t' '{print} $1 == "N" {print "A", $2, "nimber", 5}' > "$T/k.cgt"
	cg-kb-build -k nimber -o "$T/k.kb" "$T/k.cgt"
	run sh -c "printf '3\n3+1\n2\n' | cg-outcome -r 'octal:0.[37]' -n -t -K '$T/k.kb'"
	assert_success
	assert_output "$(printf '3\t5\n3+1\t4\n2\t2')"
}

@test "--max-memory stops the run and saves the database" {
	need cram
	# 5x8 Cram needs far more than 20 MB of tables
	run sh -c "echo '00000*00000000000000000000000000000000000E' | cg-outcome -r cram -n -t --search dfs --max-memory 20 -D '$T/mm.spr'"
	[ "$status" -eq 1 ]
	assert_output --partial "memory limit of 20 MB reached"
	[ "$(head -n1 "$T/mm.spr")" = "[Positions+Nimber]" ]
	[ "$(wc -l < "$T/mm.spr")" -gt 100 ]
	# the proof-number search saves the nim values it has settled
	run sh -c "echo '00000*00000000000000000000000000000000000E' | cg-outcome -r cram -n -t --search dfpn --max-memory 20 -D '$T/pn.spr'"
	[ "$status" -eq 1 ]
	assert_output --partial "memory limit of 20 MB reached"
	[ "$(head -n1 "$T/pn.spr")" = "[Positions+Nimber]" ]
	[ "$(wc -l < "$T/pn.spr")" -gt 10 ]
}

@test "nim exports its heap rules: the sequence G(n) = n (Bouton), declared" {
	run cg cg-outcome -r nim --sequence 10
	assert_success
	assert_output "0,1,2,3,4,5,6,7,8,9,10"
	run cg cg-outcome -r nim --periodicity 100
	assert_output "Periodicity(Period => 1, Preperiod => 0, Saltus => 1)"
}
