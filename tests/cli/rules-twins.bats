#!/usr/bin/env bats
# The text twins in tests/rules/ against the compiled plugins of the same
# name: identical -t output on the vector rows of each ruleset and on a few
# hundred positions drawn at random (deterministically: awk's srand with a
# fixed seed).  Both run under the same name, so documents, move names and
# printed positions must agree byte for byte, not only the values.
#
# The vector rows are those the compiled rulesets' own tests check (the
# largest Domineering and Cram rows take minutes, those of the *-slow.tsv
# files far longer); CG_SLOW=1 runs every row of every file.  Positions pass through the compiled plugin's reader first: it also
# reads Glop's Cram notation, which the twin (and CGSuite) does not.
load common

RULES="$CG_ROOT/tests/rules"

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

# both SPEC COMMAND...: positions on stdin, run through the compiled plugin
# and through the twin; their outputs must be identical.
both() {
	local spec=$1
	shift
	cat > "$T/in"
	cg-parse -r "$spec" < "$T/in" | "$@" > "$T/compiled" ||
		{ echo "compiled $spec failed: $*"; return 1; }
	CG_PLUGIN_PATH=$RULES cg-parse -r "$spec" < "$T/in" > "$T/twin.cgt" ||
		{ echo "twin $spec cannot read the positions"; return 1; }
	cg-parse -r "$spec" < "$T/in" | cmp - "$T/twin.cgt" ||
		{ echo "$spec: the documents differ"; return 1; }
	CG_PLUGIN_PATH=$RULES "$@" < "$T/twin.cgt" > "$T/twin" ||
		{ echo "twin $spec failed: $*"; return 1; }
	cmp "$T/compiled" "$T/twin" || {
		echo "$spec, $*: compiled and twin differ"
		diff "$T/compiled" "$T/twin" | head -20
		return 1
	}
	echo "# $spec $*: $(wc -l < "$T/twin") lines agree"
}

# rows NAME PROPERTY [AWK-CONDITION]: "spec<TAB>position" of the vector rows
# of ruleset NAME (or NAME:PARAMS) for PROPERTY, in the compiled plugin's
# notation
rows() {
	local cond=${3:-1} files
	files=$(ls "$VECTORS"/*.tsv | grep -v -- '-slow\.tsv$')
	if [ "${CG_SLOW:-0}" = 1 ]; then
		cond=1
		files=$(ls "$VECTORS"/*.tsv)
	fi
	cat $files | awk -F'\t' -v n="$1" -v p="$2" \
	    '!/^#/ && ($1 == n || index($1, n ":") == 1) && $3 == p && ('"$cond"') {print $1 "\t" $2}'
}

# vector NAME PROPERTY [AWK-CONDITION] -- COMMAND...: every such row,
# grouped by ruleset spec
vector() {
	local name=$1 prop=$2 cond=1 spec n=0
	shift 2
	if [ "$1" != -- ]; then
		cond=$1
		shift
	fi
	shift
	rows "$name" "$prop" "$cond" > "$T/rows"
	[ -s "$T/rows" ] || { echo "no $name $prop rows"; return 1; }
	for spec in $(cut -f1 "$T/rows" | sort -u); do
		awk -F'\t' -v s="$spec" '$1 == s {print $2}' "$T/rows" |
		    cg-parse -r "$spec" | awk -F'\t' '$1 == "N" {print $3}' |
		    both "$spec" "$@" || return 1
	done
}

@test "the twins load and list as the compiled rulesets do" {
	for name in domineering cram clobber toads col snort subtraction \
	    backsliding; do
		[ -f "$RULES/$name.cgr" ]
		a=$(cg-parse -l | grep "^$name	")
		b=$(CG_PLUGIN_PATH=$RULES cg-parse -l | grep "^$name	")
		[ "$a" = "$b" ] || { echo "$a != $b"; return 1; }
	done
}

@test "domineering twin: vector rows (canon, outcome, synchronized)" {
	heavy
	vector domineering canon -- cg-canon -t
	vector domineering outcome 'gsub(/\./, ".", $2) <= 28' -- cg-outcome -t
	vector domineering synch-outcome -- cg-synch -t -c
	vector domineering synch-outcome -- cg-synch -t
}

@test "cram twin: vector rows (canon, nimbers, misere)" {
	vector cram canon -- cg-canon -t
	vector cram nimber 'gsub(/0/, "0", $2) <= 24' -- cg-outcome -t -n
	vector cram misere -- cg-outcome -t -m
}

@test "clobber, toads, col, snort twins: vector rows" {
	vector clobber canon -- cg-canon -t
	vector toads canon -- cg-canon -t
	vector col canon -- cg-canon -t
	vector snort canon -- cg-canon -t
}

@test "subtraction twin: vector rows, and nim sequences through cg.heap-rules" {
	vector subtraction nimber -- cg-outcome -t -n
	vector subtraction misere-nimber -- cg-outcome -t -n -m
	vector subtraction genus -- cg-outcome -t -g
	a=$(cg-outcome -r subtraction:2,3,7 --sequence 60 --periodicity 60)
	b=$(CG_PLUGIN_PATH=$RULES cg-outcome -r subtraction:2,3,7 --sequence 60 --periodicity 60)
	[ "$a" = "$b" ]
}

# random_grids SEED N MAXR MAXC CELLS WEIGHTS: N boards "r1|r2|..."
random_grids() {
	awk -v seed="$1" -v n="$2" -v R="$3" -v C="$4" -v cells="$5" -v w="$6" 'BEGIN {
		srand(seed); k = split(cells, ch, ""); split(w, wt, ",")
		for (i = 1; i <= k; i++) tot += wt[i]
		for (t = 0; t < n; t++) {
			r = 1 + int(rand() * R); c = 1 + int(rand() * C); s = ""
			for (y = 0; y < r; y++) {
				if (y) s = s "|"
				for (x = 0; x < c; x++) {
					u = rand() * tot
					for (i = 1; i < k && u >= wt[i]; i++) u -= wt[i]
					s = s ch[i]
				}
			}
			print s
		}
	}'
}

@test "domineering and cram twins: random boards" {
	random_grids 1 120 4 4 '.#' 5,1 > "$T/boards"
	both domineering cg-options -t < "$T/boards"
	both domineering cg-canon -t < "$T/boards"
	both domineering cg-outcome -t < "$T/boards"
	both domineering cg-synch -t < "$T/boards"
	random_grids 2 120 4 4 '.#' 5,1 > "$T/boards"
	both cram cg-options -t < "$T/boards"
	both cram cg-outcome -t -n < "$T/boards"
	both cram cg-outcome -t -m < "$T/boards"
}

@test "clobber twin: random boards" {
	random_grids 3 120 3 4 'xo.' 2,2,1 > "$T/boards"
	both clobber cg-options -t < "$T/boards"
	both clobber cg-canon -t < "$T/boards"
	both clobber cg-outcome -t < "$T/boards"
}

# moves SPEC SIDE: each position's moves (names and the positions they
# lead to), from cg-play's "?"
moves() {
	local pos
	while read -r pos; do
		printf '%s:' "$pos"
		cg-play -r "$1" -y "$2" -f "$2" "$pos" <<<'?' | grep '^  #' |
		    tr -s ' ' | tr '\n' ';'
		echo
	done
}

@test "toads twin: random strips" {
	heavy
	random_grids 4 120 1 9 'tf.' 1,1,1 > "$T/strips"
	both toads cg-canon -t < "$T/strips"
	both toads cg-outcome -t < "$T/strips"
	# the compiled ruleset merges positions by their frozen squares, the
	# twin does not, so cg-options -t names merged nodes differently;
	# the moves themselves are compared by name
	head -40 "$T/strips" | moves toads left > "$T/a"
	head -40 "$T/strips" | CG_PLUGIN_PATH=$RULES moves toads left > "$T/b"
	cmp "$T/a" "$T/b"
	head -40 "$T/strips" | moves toads right > "$T/a"
	head -40 "$T/strips" | CG_PLUGIN_PATH=$RULES moves toads right > "$T/b"
	cmp "$T/a" "$T/b"
	grep -q -- '-' "$T/a"
}

# as_sets: each line of moves' output with the numbers dropped and the
# moves sorted
as_sets() {
	awk -F';' '{ sub(/:/, ":;"); n = 0; for (i = 2; i < NF; i++) { m = $i; sub(/^ #[0-9]+ /, "", m); a[++n] = m }
	    s = $1; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	    for (i = 1; i <= n; i++) s = s ";" a[i]; print s }'
}

@test "backsliding twin (a loopy rules file): every strip of up to 8 squares" {
	python3 -c '
import itertools
for n in range(1, 9):
    for t in itertools.product(".tf", repeat=n):
        print("".join(t))' > "$T/strips"
	both backsliding cg-outcome -t --remoteness < "$T/strips"
	# the twin is loopy too: -L says so for both (the plugin also
	# enumerates families)
	[ "$(cg-parse -L | grep '^backsliding	' | cut -f2)" = enumerates,loopy ]
	[ "$(CG_PLUGIN_PATH=$RULES cg-parse -L | grep '^backsliding	' | cut -f2)" = loopy ]
	# the moves by name, forward and back, as sets (the plugin lists a
	# creature's moves together, the twin rule by rule)
	for side in left right; do
		head -60 "$T/strips" | moves backsliding $side | as_sets > "$T/a"
		head -60 "$T/strips" | CG_PLUGIN_PATH=$RULES moves backsliding $side |
		    as_sets > "$T/b"
		cmp "$T/a" "$T/b"
	done
	grep -q -- '-' "$T/a"
}

# random_graphs SEED N MAXV: N graphs in CGSuite's notation, vertices
# named A, B, ... (the first mention carries the tint), one chain per edge
# or lone vertex, joined by '+'
random_graphs() {
	awk -v seed="$1" -v n="$2" -v V="$3" 'BEGIN {
		srand(seed); split("ABCDEFGH", nm, ""); split(".LR", tn, "")
		for (t = 0; t < n; t++) {
			v = 1 + int(rand() * V); s = ""; delete seen; delete tint
			for (i = 1; i <= v; i++) tint[i] = tn[1 + int(rand() * 3)]
			for (i = 1; i <= v; i++) for (j = i + 1; j <= v; j++) {
				if (rand() >= 0.4) continue
				s = s (s == "" ? "" : "+") vx(i) "-" vx(j)
			}
			for (i = 1; i <= v; i++) if (!(i in seen))
				s = s (s == "" ? "" : "+") vx(i)
			print s
		}
	}
	function vx(i) {
		if (i in seen) return ":" nm[i]
		seen[i] = 1
		return tint[i] ":" nm[i]
	}'
}

@test "col and snort twins: random graphs" {
	random_graphs 5 120 7 > "$T/graphs"
	both col cg-options -t < "$T/graphs"
	both col cg-canon -t < "$T/graphs"
	random_graphs 6 120 7 > "$T/graphs"
	both snort cg-options -t < "$T/graphs"
	both snort cg-canon -t < "$T/graphs"
}

@test "subtraction twin: random heaps, partizan and impartial sets" {
	awk 'BEGIN { srand(7); for (t = 0; t < 100; t++) {
		k = 1 + int(rand() * 3); s = ""
		for (i = 0; i < k; i++) s = s (i ? "+" : "") int(rand() * 13)
		print s } }' > "$T/heaps"
	for sets in 1,3,5/2,4 2,3,7 1/2 1,2/1,3; do
		both subtraction:$sets cg-options -t < "$T/heaps"
		both subtraction:$sets cg-canon -t < "$T/heaps"
	done
}
