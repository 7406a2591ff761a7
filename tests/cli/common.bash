# Loaded by every tests/cli/*.bats file:  load common
# Puts the build's tools first on PATH (CG_BUILD, default build/), sets a
# fixed locale, and loads bats-support/bats-assert.

CG_ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
CG_BUILD="${CG_BUILD:-$CG_ROOT/build}"
VECTORS="$CG_ROOT/tests/vectors"
export PATH="$CG_BUILD/bin:$PATH"
export LC_ALL=C
unset CG_PLUGIN_PATH
# The suite hides rulesets cgtools ships on purpose (tests/rules/ holds
# rules-file twins of compiled plugins): no note about it on stderr,
# which many tests compare whole (rules.bats checks the note).
export CG_OVERRIDES='*'
bats_load_library bats-support
bats_load_library bats-assert

# Run a tool, under $CG_WRAP (valgrind) when set.
cg() {
	local tool=$1
	shift
	$CG_WRAP "$CG_BUILD/bin/$tool" "$@"
}

# check_vectors FILE RULESET_REGEX PROPERTY -- COMMAND...
# Feed every row of tests/vectors/FILE whose ruleset matches the regex and
# whose property equals PROPERTY through
#   cg-parse -r RULESET | COMMAND
# (COMMAND must print "position<TAB>value" lines in input order, as -t
# does) and compare each value with the expected one as text.  Prints a diff and fails on any
# mismatch; fails too when no row matched (a test that checks nothing).
#
# check_vectors FILE RULESET_REGEX PROPERTY --canon-semantic -- COMMAND...
# The same, but an expected canonical form whose source is not CGSuite
# itself (rows from independent computations, written in other notations:
# MCGS-style braces, other option orders) is first put into CGSuite's
# notation by `cg-canon -r game -t`, so the rows are compared as values;
# rows taken from CGSuite are still compared byte for byte.
check_vectors() {
	local file=$1 rsre=$2 prop=$3 semantic=0
	if [ "$4" = --canon-semantic ]; then
		semantic=1
		shift
	fi
	shift 4
	local rows rs fails=0 total=0
	set -o pipefail
	rows=$(awk -F'\t' -v re="^($rsre)\$" -v p="$prop" \
	    '!/^#/ && $1 ~ re && $3 == p' "$VECTORS/$file")
	[ -n "$rows" ] || { echo "no vector rows for $rsre/$prop in $file"; return 1; }
	for rs in $(printf '%s\n' "$rows" | cut -f1 | sort -u); do
		local pos want got
		pos=$(printf '%s\n' "$rows" | awk -F'\t' -v r="$rs" '$1 == r {print $2}')
		want=$(printf '%s\n' "$rows" | awk -F'\t' -v r="$rs" '$1 == r {print $4}')
		if [ $semantic = 1 ]; then
			want=$(printf '%s\n' "$rows" | awk -F'\t' -v r="$rs" '$1 == r' |
			    while IFS=$'\t' read -r _ _ _ value source; do
				case $source in
				CGSuite*) printf '%s\n' "$value" ;;
				*) printf '%s\n' "$value" | cg-canon -r game -t | cut -f2 ;;
				esac
			    done)
		fi
		got=$(printf '%s\n' "$pos" | cg-parse -r "$rs" | "$@" | cut -f2-) || {
			echo "command failed for ruleset $rs"; return 1; }
		total=$((total + $(printf '%s\n' "$want" | wc -l)))
		if [ "$got" != "$want" ]; then
			echo "ruleset $rs, property $prop: position, expected, got"
			paste <(printf '%s\n' "$pos") <(printf '%s\n' "$want") \
			    <(printf '%s\n' "$got") | awk -F'\t' '$2 != $3'
			fails=1
		fi
	done
	echo "# $total vector rows checked"
	return $fails
}

# A test whose work is figures and many values rather than new code paths
# (its lighter siblings reach the same code): run in the plain build,
# skipped under the sanitizers (CG_SANITIZED, set by make check-asan and
# make check-valgrind), where it would take most of CI's time.
heavy() {
	[ -z "${CG_SANITIZED:-}" ] || skip "a heavy test: run in the plain build"
}
