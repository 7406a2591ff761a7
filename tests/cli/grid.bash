# Helpers for the grid ruleset tests (load grid after load common).

# check_canon_values FILE RULESET: every canon row of tests/vectors/FILE
# for RULESET must have the published value.  A row passes when cg-canon
# prints the expected text, or when the expected text, read as a game
# literal (the game ruleset) and canonicalised, prints the same as the
# position does: the same value written in another style (the vector
# files are not consistent about +- switches, Tiny/Miny and option
# order).  Prints the count and the failures.
check_canon_values() {
	local file=$1 rs=$2 pos want got alt total=0 fails=0
	while IFS=$'\t' read -r pos want; do
		total=$((total + 1))
		got=$(cg-parse -r "$rs" "$pos" </dev/null | cg-canon -t | cut -f2)
		[ "$got" = "$want" ] && continue
		alt=$(cg-parse -r game "$want" </dev/null 2>/dev/null |
		    cg-canon -t 2>/dev/null | cut -f2)
		[ -n "$alt" ] && [ "$got" = "$alt" ] && continue
		echo "$rs $pos: expected $want, got $got"
		fails=$((fails + 1))
	done < <(awk -F'\t' -v r="$rs" '!/^#/ && $1 == r && $3 == "canon" {print $2 "\t" $4}' \
	    "$VECTORS/$file")
	echo "# $total vector rows checked, $fails failed"
	[ "$total" -gt 0 ] && [ "$fails" -eq 0 ]
}
