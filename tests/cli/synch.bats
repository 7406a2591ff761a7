#!/usr/bin/env bats
# cg-synch: synchronized values (CGSynch) and Cincotti-Iida outcome classes.
# Expected values come from tests/vectors/synch.tsv (CGSynch's own output and
# an independent reference) or are derived by hand in the comments.
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

# Does ruleset $1 have joint options (synchronized play) in this build?
has_synch() {
	[ -e "$CG_BUILD/plugins/$1.so" ] &&
	    cg-parse -r "$1" "$2" 2>/dev/null | cg-synch -t -c >/dev/null 2>&1
}

@test "--help, --version, bad option" {
	run cg cg-synch --help
	assert_success
	assert_output --partial "usage: cg-synch"
	run cg cg-synch --version
	assert_success
	run cg cg-synch --bogus
	assert_failure 2
	run cg cg-synch --max-digits x
	assert_failure 2
	run cg cg-synch -t --matrix
	assert_failure 2
}

@test "missing file: exit 1" {
	run cg cg-synch "$T/nope"
	assert_failure 1
	assert_output --partial "nope"
}

@test "malformed input: file:line of the bad position" {
	printf 'BR\nBXR\n' > "$T/in"
	run cg cg-synch -r push -t "$T/in"
	assert_failure 1
	assert_output --partial "in:2:"
}

@test "> /dev/full fails, | head -n1 is quiet" {
	run sh -c 'printf "BR\nBRB\n" | cg-synch -r push -t > /dev/full'
	assert_failure 1
	run sh -c 'yes BRBR | head -n 2000 | cg-synch -r push -t | head -n1'
	assert_success
	assert_output "$(printf 'BRBR\t-2')"
}

# rows RULESET PROPERTY KEEP_RE DROP_RE -- COMMAND: like check_vectors, for
# the rows whose position matches KEEP_RE and not DROP_RE.
rows() {
	local rs=$1 prop=$2 keep=$3 drop=$4
	shift 5
	awk -F'\t' -v r="$rs" -v p="$prop" -v k="$keep" -v d="$drop" \
	    '$1 == r && $3 == p && $2 ~ k && (d == "" || $2 !~ d)' \
	    "$VECTORS/synch.tsv" > "$T/rows"
	[ -s "$T/rows" ]
	cut -f2 "$T/rows" | cg-parse -r "$rs" | "$@" | cut -f2 > "$T/got"
	cut -f4 "$T/rows" | paste "$T/rows" "$T/got" - | awk -F'\t' '$4 != $6'
	echo "# $(wc -l < "$T/rows") rows checked"
	cut -f4 "$T/rows" | cmp -s - "$T/got"
}

@test "hackenbush synch rows (strings and graphs up to 13 nodes)" {
	rows hackenbush synch '' '^22:' -- cg-synch -t
}

@test "hackenbush synch: the 30-edge 22-node graph of CGSynch's examples is 0" {
	heavy
	[ -z "$CG_WRAP" ] || skip "about half a minute of CPU; too slow under valgrind"
	rows hackenbush synch '^22:' '' -- cg-synch -t
}

@test "hackenbush synch-outcome rows (cg-synch -t -c)" {
	check_vectors synch.tsv hackenbush synch-outcome -- cg-synch -t -c
}

@test "domineering and cutcake synch-outcome rows (when their plugins have joint options)" {
	heavy
	local n=0
	if has_synch domineering '..|..'; then
		check_vectors synch.tsv domineering synch-outcome -- cg-synch -t -c
		n=$((n + 1))
	fi
	if has_synch cutcake 2x2; then
		check_vectors synch.tsv cutcake synch-outcome -- cg-synch -t -c
		n=$((n + 1))
	fi
	[ "$n" -gt 0 ] || skip "no domineering or cutcake plugin with joint options"
}

@test "push synch rows of synch.tsv (exact, and ~ six decimals)" {
	heavy
	check_vectors synch.tsv push synch -- cg-synch -t
}

@test "push synch-outcome rows (cg-synch -t -c)" {
	check_vectors synch.tsv push synch-outcome -- cg-synch -t -c
}

@test "hand derivations: BR = -1, BRB = 2, the decided values" {
	# BR: Left's only push drops B off the edge, Right's R moves to 0:
	# the only joint option is R (decided, -(0+1)) = -1.
	# BRB: (B0,R1) -> R_B, (B2,R1) -> RB; R_B -> (B2,R0) -> _B (2),
	# RB -> (B1,R0) -> B (1): Left picks row 0, value 2.
	# Decided: BB = 1+2 = 3, _R_R = -(2+4) = -6, the empty row 0.
	run sh -c 'cg-parse -r push BR BRB BB _R_R _ | cg-synch -t'
	assert_success
	assert_output "$(printf 'BR\t-1\nBRB\t2\nBB\t3\n_R_R\t-6\n_\t0')"
}

@test "--float prints CGSynch's six decimals; --max-digits switches to ~" {
	run sh -c 'echo BBRBR | cg-synch -r push -t --float'
	assert_success
	assert_output "$(printf 'BBRBR\t-2.500000')"
	# BRBRBRBR = -25/6 exactly; with one digit it is out of reach
	run sh -c 'echo BRBRBRBR | cg-synch -r push -t'
	assert_output "$(printf 'BRBRBRBR\t-25/6')"
	run sh -c 'echo BRBRBRBR | cg-synch -r push -t --max-digits 1'
	assert_output "$(printf 'BRBRBRBR\t~-4.166667')"
}

@test "document mode annotates the roots; a tree from cg-options -a -j gives the same answers" {
	printf 'BRB\nBRBR\nRBBR\nB_R_B\nBBRBR\n' > "$T/p"
	cg-parse -r push < "$T/p" | cg-synch -t > "$T/direct"
	cg-parse -r push < "$T/p" | cg-options -a -j | cg-synch -t > "$T/tree"
	cmp "$T/direct" "$T/tree"
	cg-parse -r push < "$T/p" | cg-synch -t -c > "$T/cdirect"
	cg-parse -r push < "$T/p" | cg-options -a -j | cg-synch -t -c > "$T/ctree"
	cmp "$T/cdirect" "$T/ctree"
	run sh -c "cg-parse -r push BRBR | cg-synch | grep '^A'"
	assert_output "$(printf 'A\t1\tsynch\t-2')"
}

@test "a hand-written abstract tree: rock-paper-scissors shape and a decided chain" {
	# node 1: no options (0); node 2: Left-only chain of length 2 from
	# node 4 -> 3 -> 1, so 4 = 2 and 3 = 1.  Root 5: 2x2 joint matrix
	# [[4, 1], [1, 4]] by value [[2, 1], [1, 2]]: no saddle point,
	# (2*2 - 1*1)/(2+2-1-1) = 3/2.
	cat > "$T/t" <<'TREE'
cgt	1
N	1
E	1
N	3
L	3	1
E	3
N	4
L	4	3
E	4
N	5
L	5	4
L	5	3
R	5	1
R	5	1
J	5	0	0	4
J	5	0	1	3
J	5	1	0	3
J	5	1	1	4
E	5
root	5
end
TREE
	run cg cg-synch -t "$T/t"
	assert_success
	assert_output "$(printf '#5\t3/2')"
	run cg cg-synch -t -c "$T/t"
	assert_success
	# every joint option leads to a position where only Left can move
	assert_output "$(printf '#5\tL')"
}

@test "a tree with a missing joint option is an error with its line" {
	printf 'cgt\t1\nN\t1\nE\t1\nN\t2\nL\t2\t1\nR\t2\t1\nE\t2\nroot\t2\nend\n' > "$T/t"
	run cg cg-synch -t "$T/t"
	assert_failure 1
	assert_output --partial "joint options"
}

@test "--matrix: entries, values and optimal strategies" {
	# BRB (see above): Left's move 0 (push index 0) has weight 1
	run sh -c 'echo BRB | cg-synch -r push --matrix'
	assert_success
	assert_line "value	2"
	assert_line "left	0	0	1"
	assert_line "left	1	2	0"
	assert_line "entry	0	0	R_B	2"
	assert_line "entry	1	0	RB	1"
}

@test "a ruleset without joint options is a clear error" {
	run sh -c 'cg-parse -r nim 3 | cg-synch -t'
	assert_failure 1
	assert_output --partial "ruleset 'nim' has no synchronized (joint) options"
}

@test "-v reports the table on standard error; -c with --matrix shows classes" {
	run sh -c 'echo BRBR | cg-synch -r push -t -v 2>&1 >/dev/null'
	assert_success
	assert_output --partial "positions"
	run sh -c 'echo BRB | cg-synch -r push -c --matrix'
	assert_success
	assert_line "value	L"
	assert_line "entry	0	0	R_B	L"
}

@test "values past --max-digits fall back to floating point from the children" {
	# BRBRBRBRBR: its exact value has a 95-digit denominator (research
	# notes); CGSynch prints -5.195833
	run sh -c 'echo BRBRBRBRBR | cg-synch -r push -t'
	assert_output "$(printf 'BRBRBRBRBR\t~-5.195833')"
	# with room for the intermediate values the exact value comes out,
	# about 95 digits long (numerator 95, denominator 94 digits), and
	# agrees with CGSynch's -5.195833
	run sh -c 'echo BRBRBRBRBR | cg-synch -r push -t --max-digits 2000 | cut -f2'
	[[ "$output" == -*/* ]]
	den=${output#*/}
	[ "${#den}" -ge 90 ]
	run awk -v q="$output" 'BEGIN { split(q, a, "/"); printf "%.6f\n", a[1] / a[2] }'
	assert_output "-5.195833"
}

@test "every ruleset: a tree from cg-options -a -j gives the plugin's answers" {
	for spec in "push BRBRB B_RRB" "shove B_BR_R_B RBBR" \
	    "cherries BRB_RBR_BR BR_B" "stackcherries BRB_R_RB BR_B" \
	    "hackenbush l(l;rl) (lr;lr) 5:_B___B_B_B_B_R___R_R_B_R_ e(ee:{a};ee:{a}r)"; do
		set -- $spec
		rs=$1
		shift
		cg-parse -r "$rs" "$@" > "$T/in"
		for opt in -t "-t -c"; do
			cg-synch $opt "$T/in" > "$T/direct"
			cg-options -a -j "$T/in" | cg-synch $opt > "$T/tree"
			cmp "$T/direct" "$T/tree" || { echo "$rs $opt differs"; return 1; }
		done
	done
}
