#!/usr/bin/env bats
# octal ruleset: codes, notation, options, published nim values.
load common

opts() { cg cg-options -r "octal:$1" -t <<< "$2"; }

@test "octal: parse and print round trip" {
	run bash -c "cg-parse -r octal:0.77 '3 + 4' 0 '5,0,2' | awk -F'\\t' '\$1 == \"N\" {print \$3}'"
	assert_success
	assert_output $'3+4\n0\n5+2'
	run cg cg-parse -r octal:0.77 'x'
	assert_failure 1
	assert_output --partial 'column 1'
}

@test "octal: bad codes exit 2 with a reason" {
	run cg cg-parse -r octal 3
	assert_failure 2
	run cg cg-parse -r octal:0.7x 3
	assert_failure 2
	assert_output --partial "found 'x'"
	run cg cg-parse -r octal:0.[3 3
	assert_failure 2
	assert_output --partial "missing ']'"
	run cg cg-parse -r octal:2.0 3
	assert_failure 2
	assert_output --partial 'pass'
	run cg cg-parse -r octal:44.0 3
	assert_failure 2
	run cg cg-parse -r 'octal:0.*' 3
	assert_failure 2
	assert_output --partial 'not supported'
}

@test "octal: a code without a point, as published tables write it, means D0." {
	# tczajka/octal-games writes 4 for 4. (split a heap into two
	# non-empty heaps, take nothing).  By hand: G(0) = G(1) = 0;
	# G(2) = mex{G1^G1} = 1; G(3) = mex{G1^G2} = 0;
	# G(4) = mex{G1^G3, G2^G2} = 1; G(5) = mex{G1^G4, G2^G3} = 0;
	# G(6) = mex{G1^G5, G2^G4, G3^G3} = 1.
	run cg cg-outcome -r octal:4 --sequence 6
	assert_success
	assert_output "0,0,1,0,1,0,1"
	[ "$(cg cg-outcome -r 'octal:4.' --sequence 30)" = "$(cg cg-outcome -r octal:4 --sequence 30)" ]
	[ "$(cg cg-outcome -r 'octal:4!.' --sequence 30)" = "$(cg cg-outcome -r 'octal:4!' --sequence 30)" ]
	run opts 4 5
	assert_output $'5	1+4, 2+3	1+4, 2+3'
}

@test "octal: Kayles (0.77) options of a heap of 5" {
	# take 1 (digit 7: leave 0, 1 or 2 heaps): 4, 1+3, 2+2;
	# take 2 (7): 3, 1+2.
	run opts 0.77 5
	assert_output $'5\t4, 1+3, 2+2, 3, 1+2\t4, 1+3, 2+2, 3, 1+2'
}

@test "octal: Dawson's Kayles (0.07) takes two only" {
	# heap 1: nothing; heap 2: take both (0); heap 4: 2, 1+1.
	run opts 0.07 1
	assert_output $'1\t\t'
	run opts 0.07 4
	assert_output $'4\t2, 1+1\t2, 1+1'
}

@test "octal: Grundy's game (4!.0) splits into unequal heaps" {
	# 6 = 1+5 = 2+4 (3+3 is equal: not allowed); 2 cannot be split.
	run opts '4!.0' 6
	assert_output $'6\t1+5, 2+4\t1+5, 2+4'
	run opts '4!.0' 2
	assert_output $'2\t\t'
	# 4=.0 only equal halves
	run opts '4=.0' 6
	assert_output $'6\t3+3\t3+3'
}

@test "octal: hexadecimal 0.3F and the digit before the point" {
	# 0.3F on 5: take 1 (3: leave 0 or 1 heap): 4; take 2 (F: leave
	# 0, 1, 2 or 3 heaps): 3, 1+2, 1+1+1.
	run opts 0.3F 5
	assert_output $'5\t4, 3, 1+2, 1+1+1\t4, 3, 1+2, 1+1+1'
	# 4.3 on 4: split without taking (1+3, 2+2), take 1 leaving one
	# heap (3).
	run opts 4.3 4
	assert_output $'4\t1+3, 2+2, 3\t1+3, 2+2, 3'
	# 0.[3] is Nim
	run opts '0.[3]' 3
	assert_output $'3\t2, 1, 0\t2, 1, 0'
}

@test "octal: move names give the heaps left" {
	# heap 3: take 1 leaving 2 or 1+1, take 2 leaving 1 (no third digit:
	# the whole heap cannot go)
	run bash -c "cg-parse -r octal:0.77 3 | cg-options | grep '^L' | cut -f4"
	assert_output $'1:2\n1:1+1\n1:1'
}

@test "octal: published nim values" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	check_vectors impartial.tsv 'octal:.*' nimber -- cg cg-outcome -t -n
}

@test "octal: published misere nim values and genus (with subtraction)" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	check_vectors impartial.tsv 'octal:.*|subtraction:.*' misere-nimber -- cg cg-outcome -t -m -n
	check_vectors impartial.tsv 'octal:.*|subtraction:.*' genus -- cg cg-outcome -t -g
}

@test "octal: nim sequences through the heap-rules extension" {
	[ -x "$CG_BUILD/bin/cg-outcome" ] || skip "cg-outcome not built"
	# published: Kayles heaps 0..104 (CGSuite), 4.3 = 01(20) (tczajka)
	want=$(awk -F'\t' '$1 == "octal:0.77" && $3 == "sequence" {print $4}' "$VECTORS/impartial.tsv")
	run cg cg-outcome -r octal:0.77 --sequence 104
	assert_success
	assert_output "$want"
	run cg cg-outcome -r octal:4.3 --sequence 7
	assert_output '0,1,2,0,2,0,2,0'
}

# brute CODE N: G(1..N) of octal game CODE (digits 0-7 after "0."), by
# the mex rule written out here: digit k has bit 1 (take all k), bit 2
# (take k from an end), bit 4 (take k from inside, leaving two heaps)
brute() {
	awk -v code="$1" -v N="$2" '
	function bxor(x, y,   r, bit) {
		r = 0
		for (bit = 1; x > 0 || y > 0; bit *= 2) {
			if (x % 2 != y % 2) r += bit
			x = int(x / 2); y = int(y / 2)
		}
		return r
	}
	BEGIN {
		d = substr(code, 3); g[0] = 0
		for (n = 1; n <= N; n++) {
			split("", seen)
			for (k = 1; k <= length(d); k++) {
				b = substr(d, k, 1) + 0
				if (b % 2 == 1 && n == k) seen[0] = 1
				if (int(b / 2) % 2 == 1 && n > k) seen[g[n - k]] = 1
				if (b >= 4) for (a = 1; a < n - k; a++)
					seen[bxor(g[a], g[n - k - a])] = 1
			}
			for (m = 0; m in seen; m++) ;
			g[n] = m; printf "%s%d", (n > 1 ? " " : ""), m
		}
		print "" }'
}

@test "octal: a run of heaps in one process is not cut short by a period proven on too few values" {
	# 0.6 begins 0 0 1: the two first heaps alone look periodic, which
	# Guy-Smith's test must not accept (it reads p values past 2e + p + t)
	local code want got
	for code in 0.6 0.4 0.16 0.52 0.07 0.34; do
		want=$(brute "$code" 60)
		got=$(seq 1 60 | cg cg-parse -r "octal:$code" | cg cg-outcome -t -n | cut -f2 | paste -sd' ')
		[ "$got" = "$want" ] || { echo "$code outcome"; echo "want $want"; echo "got  $got"; return 1; }
		got=$(seq 1 60 | cg cg-parse -r "octal:$code" | cg cg-canon -t | cut -f2 |
		    sed 's/^0$/*0/; s/^\*$/*1/; s/^\*//' | paste -sd' ')
		[ "$got" = "$want" ] || { echo "$code canon"; echo "want $want"; echo "got  $got"; return 1; }
	done
}
