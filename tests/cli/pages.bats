#!/usr/bin/env bats
# Man pages as Debian's man shows them (groff), and pages that say what
# the programs do.
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

# the page formatted by groff, as man(1) on Debian does, one long line per
# paragraph
groffed() {
	groff -mandoc -Tutf8 -P-cbou -rLL=1000n "$1" 2>&1
}

@test "every page formats under groff without a warning or broken quoting (make lint)" {
	run sh "$CG_ROOT/scripts/lint-man" "$CG_ROOT"/man/man*/*.[1-9]
	assert_success
	assert_output ""
}

@test "groff keeps the references of amazons(7) and sprouts(7)" {
	# a title with the word "No" in it was read as the macro .No
	run groffed "$CG_ROOT/man/man7/amazons.7"
	assert_output --partial "Experiments in Computer Amazons"
	assert_output --partial "More Games of No Chance, 2002."
	run groffed "$CG_ROOT/man/man7/sprouts.7"
	assert_output --partial "Computer analysis of Sprouts with nimbers"
	assert_output --partial "Games of No Chance 4, 2015."
}

@test "quotes close where they should in octal(7), sprouts(7), cg-kb(1), cg-ruleset(3)" {
	run groffed "$CG_ROOT/man/man7/octal.7"
	assert_output --partial "(‘0’–‘9’, ‘A’–‘V’, either case)"
	run groffed "$CG_ROOT/man/man7/sprouts.7"
	assert_output --partial "or ‘Z(k)’ for the"
	assert_output --partial "or ‘m(k)’, is a spot"
	run groffed "$CG_ROOT/man/man1/cg-kb.1"
	assert_output --partial "the side (‘L’ or ‘R’),"
	run groffed "$CG_ROOT/man/man3/cg-ruleset.3"
	assert_output --partial "cg_ruleset_entry_stem() instead"
}

@test "the groff check fails on a broken page" {
	printf '.Dd January 1, 2026\n.Dt X 1\n.Os\n.Sh NAME\n.Nm x\n.Nd x\n.Sh DESCRIPTION\nthe side\n.Pq Ql L No or Ql R ,\nthe move.\n' > "$T/x.1"
	run sh "$CG_ROOT/scripts/lint-man" "$T/x.1"
	assert_failure
	assert_output --partial "broken quoting"
	printf '.Dd January 1, 2026\n.Dt X 1\n.Os\n.Sh NAME\n.Nm x\n.Nd x\n.Sh SEE ALSO\n.Rs\n.%%A A B\n.%%B Games of No Chance\n.Re\n' > "$T/y.1"
	run sh "$CG_ROOT/scripts/lint-man" "$T/y.1"
	assert_failure
}

@test "every ruleset cg-parse -l lists has its page man7/NAME.7, installed and named in cg(7)" {
	local names n manpages
	run cg cg-parse -l
	assert_success
	names=$(printf '%s\n' "$output" | cut -f1)
	# the compiled rulesets and the two rules files
	[ "$(printf '%s\n' "$names" | wc -l)" -ge 21 ]
	grep -qx toppling <<<"$names"
	grep -qx konane <<<"$names"
	# what make install installs
	manpages=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$CG_ROOT" \
	    BUILD="$CG_BUILD" --eval 'print-manpages: ; @printf "%s\n" $(MANPAGES)' \
	    print-manpages)
	for n in $names; do
		[ -f "$CG_ROOT/man/man7/$n.7" ] || { echo "no man/man7/$n.7"; return 1; }
		grep -qx "\.Nm $n" "$CG_ROOT/man/man7/$n.7" ||
		    { echo "$n.7 does not name $n"; return 1; }
		grep -qx "man/man7/$n.7" <<<"$manpages" ||
		    { echo "MANPAGES lacks man/man7/$n.7"; return 1; }
		grep -q "^\.\(Pq \)*Xr $n 7\b" "$CG_ROOT/man/man7/cg.7" ||
		    { echo "cg(7) does not name $n(7)"; return 1; }
	done
}

@test "toppling(7) and konane(7): rules, notation, move names, as the rules files have them" {
	run groffed "$CG_ROOT/man/man7/toppling.7"
	assert_output --partial "‘l’ a blue domino, ‘r’ a red one, ‘e’ a green one, ‘.’ an empty square"
	assert_output --partial "Left's moves are ‘1e’, ‘1w’, ‘3e’ and ‘3w’, Right's ‘2e’ and ‘2w’"
	assert_output --partial "‘lr.rl’ is the sum of ‘lr’ and ‘rl’"
	run groffed "$CG_ROOT/man/man7/konane.7"
	assert_output --partial "‘x’ a Left stone, ‘o’ a Right stone, ‘.’ an empty square, ‘#’ a square off the board"
	assert_output --partial "Left's moves are ‘a1-c1’ (one jump) and ‘a1-e1’ (two)"
	# the move names the pages give are the tools'
	run sh -c "cg-parse -r toppling lrl | cg-outcome --children | cut -f2 | tr '\n' ' '"
	assert_output "L:1e L:1w L:3e L:3w R:2e R:2w "
	run sh -c "cg-parse -r konane xo.o. | cg-outcome --children | cut -f2 | tr '\n' ' '"
	assert_output "L:a1-c1 L:a1-e1 "
	# the cells the pages list are the rules files'
	grep -qx 'cells    \. l r e' "$CG_ROOT/plugins/cgr/toppling.cgr"
	grep -qx 'cells    \. x o #' "$CG_ROOT/plugins/cgr/konane.cgr"
}

@test "cg(7): the first screen shows a position's value, one pipeline, and what it prints" {
	local screen
	# man(1) at 80 columns, the first 24 lines, runs of blanks as one
	screen=$(MANWIDTH=80 man -l "$CG_ROOT/man/man7/cg.7" 2>/dev/null | col -bx |
	    head -n 24 | sed 's/^[[:space:]]*//; s/[[:space:]][[:space:]]*/ /g')
	grep -Fx "\$ cg-parse -r domineering '...|...' | cg-canon -t" <<<"$screen"
	grep -Fx '...|... {2|-1/2}' <<<"$screen"
	# and that is what it prints.  By hand: Left's vertical domino in
	# the middle column leaves two 2x1 columns, 1 + 1 = 2, one at the end
	# a 2x2 board, +-1, which 2 dominates; Right's horizontal domino
	# leaves an L of four squares, {-1 | 0, 1} = -1/2, either way: so
	# {2|-1/2}
	run sh -c "cg-parse -r domineering '...|...' | cg-canon -t"
	assert_output "$(printf '...|...\t{2|-1/2}')"
}

@test "the glyph check fails on a page showing a glyph outside the allow-list" {
	# the known slip: \(tm (a trademark sign) where \(mu (times) was meant
	sed '0,/\\(mu/s//\\(tm/' "$CG_ROOT/man/man7/domineering.7" > "$T/domineering.7"
	grep -q '2\\(tm2 board' "$T/domineering.7"
	run sh "$CG_ROOT/scripts/lint-man" "$T/domineering.7"
	assert_failure
	assert_line --partial "$T/domineering.7: formatted by groff, line"
	assert_line --partial "$T/domineering.7: formatted by mandoc, line"
	assert_output --partial "unexpected glyph ™ (U+2122)"
	assert_output --partial "the empty 2™2 board"
	# the times sign, quotes, dashes and the up arrow are allowed
	printf '.Dd January 1, 2026\n.Dt X 7\n.Os\n.Sh NAME\n.Nm x\n.Nd x\n.Sh DESCRIPTION\nA 2\\(mu3 board,\n.Ql ..|.. ,\n.Dq x ,\n1\\(en2 \\(em up \\(ua.\n' > "$T/x.7"
	run sh "$CG_ROOT/scripts/lint-man" "$T/x.7"
	assert_success
	assert_output ""
}

@test "every option of every tool's --help is in its man page (make lint)" {
	run perl "$CG_ROOT/scripts/lint-help" "$CG_BUILD/bin" "$CG_ROOT/man"
	assert_success
	assert_output ""
}

@test "the help check fails on an option --help prints and the page lacks" {
	mkdir -p "$T/bin" "$T/man/man1"
	# a tool: usage with a bundle and a long option, an option list
	cat > "$T/bin/cg-fake" <<'EOF'
#!/bin/sh
cat <<'EOH'
usage: cg-fake [-ab] [--depth N] [file ...]
Do nothing.

  -a                all
  -b, --bogus       an option the page forgets
      --depth N     how deep
  -h, --help        show this help
EOH
EOF
	chmod +x "$T/bin/cg-fake"
	printf '%s\n' .Dd '.Dt CG-FAKE 1' .Os '.Sh NAME' '.Nm cg-fake' '.Nd x' \
	    '.Sh SYNOPSIS' .Nm '.Op Fl ab' '.Op Fl Fl depth Ar N' \
	    '.Sh DESCRIPTION' '.Bl -tag -width Ds' '.It Fl a' all \
	    '.It Fl b' b '.It Fl -depth Ar N' d '.It Fl h , Fl Fl help' h .El \
	    > "$T/man/man1/cg-fake.1"
	run perl "$CG_ROOT/scripts/lint-help" "$T/bin" "$T/man"
	assert_failure
	assert_output "$T/man/man1/cg-fake.1: --bogus: printed by 'cg-fake --help', not in the page (.Fl)"
	# documented, it passes
	sed -i 's/^\.It Fl b$/.It Fl b , -bogus/' "$T/man/man1/cg-fake.1"
	run perl "$CG_ROOT/scripts/lint-help" "$T/bin" "$T/man"
	assert_success
	assert_output ""
	# a tool without a page fails
	cp "$T/bin/cg-fake" "$T/bin/cg-other"
	run perl "$CG_ROOT/scripts/lint-help" "$T/bin" "$T/man"
	assert_failure
	assert_output "cg-other: no man page $T/man/man1/cg-other.1"
}

@test "cg-kb-build --batch: the page's default is the program's" {
	local prog page
	prog=$(cg cg-kb-build --help | sed -n '/--batch N/,/default/p' |
	    sed -n 's/.*(default \([0-9]*\)).*/\1/p')
	page=$(sed -n '/^\.It Fl -batch/,/^\.It/p' "$CG_ROOT/man/man1/cg-kb-build.1" |
	    sed -n 's/.*(default \([0-9]*\)).*/\1/p')
	[ -n "$prog" ]
	[ "$prog" = "$page" ]
}

@test "cg-canon: the page, --help and -p know the same properties" {
	local page help p
	page=$(sed -n '/^\.It Fl p Ar list/,/^\.It Fl c Ar game/p' "$CG_ROOT/man/man1/cg-canon.1" |
	    sed -n 's/^\.It Cm //p' | sed 's/ *, *\(Cm \)*/ /g' | tr ' ' '\n' | sort)
	help=$(cg cg-canon --help | sed -n '/^  -p LIST/,/^  -c GAME/p' | sed '1d;$d' |
	    sed 's/(default canon)://; s/ and the$//; s/predicates//' | tr -s ' ' '\n' |
	    grep -v '^$' | sort)
	[ "$(printf '%s\n' "$page" | wc -l)" -ge 20 ]
	diff <(printf '%s\n' "$page") <(printf '%s\n' "$help")
	for p in $page; do
		run sh -c "echo '{2|-1}' | cg-canon -r game -t -p $p"
		assert_success
	done
}

@test "incentives: one merged set, as the page says" {
	# {2|-1}: Left's incentive 2 - {2|-1} = 2 + {1|-2} = {3|0}; Right's
	# {2|-1} - (-1) = {3|0}: one set with one member
	run sh -c "echo '{2|-1}' | cg-canon -r game -t -p incentives"
	assert_output "$(printf '{2|-1}\t{{3|0}}')"
	run groffed "$CG_ROOT/man/man1/cg-canon.1"
	assert_output --partial "together in one set"
}

@test "--children: a partizan game's winning moves are not only P" {
	# ...|...: Left's b1-b2 leaves .#.|.#. where only Left can move
	# (value 2, L): Left's winning move, and no option of Left is P
	run sh -c "cg-parse -r domineering '...|...' | cg-outcome --children"
	assert_line "$(printf '...|...\tL:b1-b2\t.#.|.#.\tL')"
	refute_line --regexp $'^\\.\\.\\.\\|\\.\\.\\.\tL:.*\tP$'
	run groffed "$CG_ROOT/man/man1/cg-outcome.1"
	assert_output --partial "Left's winning moves show L or P"
}

@test "cg-ruleset(3) answers what plugin authors had to guess" {
	run groffed "$CG_ROOT/man/man3/cg-ruleset.3"
	# the -I path before anything is installed, and pkg-config after
	assert_output --partial "-Iinclude -o NAME.so NAME.c"
	assert_output --partial "\$(pkg-config --cflags cgtools) -o NAME.so NAME.c"
	# enumerate(): duplicates and non-canonical positions are fine
	assert_output --partial "Positions need not be unique nor canonical"
	# the move argument of enumerate() and decompose()
	[ "$(grep -c 'argument of emit() is not read: pass NULL' <<<"$output")" -eq 2 ]
	# the empty position's spelling
	assert_output --partial "The text is never empty: the position in which nobody can move is spelled with a character, by convention ‘0’"
	# order_key() over components
	assert_output --partial "the key of a sum is the sum of the keys of its components"
	# CG_SYMMETRY and canonical(): flags say what the hooks do
	assert_output --partial "CG_SYMMETRY goes with canonical()"
	assert_output --partial "a plugin whose flags and hooks disagree is refused when it loads"
	# the thread contract
	assert_output --partial "The host never calls the hooks of one plugin state at the same time from two threads"
	assert_output --partial "calls init() once per thread"
	assert_output --partial "never in global or static variables"
	# the board flag
	assert_output --partial "CG_BOARD (print() writes a board"
}

@test "cg-ruleset(3) says how a ruleset writes a sum, and what the host writes" {
	run sh -c "groff -mandoc -Tutf8 -P-cbou -rLL=1000n '$CG_ROOT/man/man3/cg-ruleset.3' | sed -n '/^   Sums\$/,/^   Rules files\$/p'"
	assert_output --partial "by convention the texts of the components joined by ‘+’"
	assert_output --partial "joins them with the first of ‘+’, nothing, and a space that parse() reads back as the same sum"
	assert_output --partial "examples/ruleset/hstring.c writes sums of strings so: ‘LLR+RL’"
	# the example does
	grep -q 'LLR+RL' "$CG_ROOT/examples/ruleset/hstring.c"
	grep -q '\.decompose = hs_decompose' "$CG_ROOT/examples/ruleset/hstring.c"
}

@test "cg-kb-build(1): values are computed in process, no other program is looked for" {
	# libcore starts no program; the page said the engines were found
	# next to cg-kb-build or on PATH
	run grep -n -e 'found next to' -e 'not found (it computes' "$CG_ROOT/man/man1/cg-kb-build.1"
	assert_failure
	printf '..|..\n' > "$T/p"
	run env PATH=/nonexistent "$CG_BUILD/bin/cg-kb-build" -r domineering -o "$T/b.cgkb" "$T/p"
	assert_success
	run env PATH=/nonexistent "$CG_BUILD/bin/cg-kb" lookup -t -r domineering "$T/b.cgkb" "$T/p"
	assert_output "$(printf '..|..\t+-1\tN')"
}

@test "pages: cg-parse -L and cg-canon --jobs are documented, no stray glyph or parenthesis" {
	grep -q '^\.It Fl L$' "$CG_ROOT/man/man1/cg-parse.1"
	grep -q '^\.It Fl Fl jobs Ar N$' "$CG_ROOT/man/man1/cg-canon.1"
	run sh -c "man -l '$CG_ROOT/man/man5/cgr.5' 2>/dev/null | col -b"
	assert_output --partial "'..|.#' for a 2x2 board"
	run grep -l '\\(tm' "$CG_ROOT"/man/man1 "$CG_ROOT"/man/man3 \
	    "$CG_ROOT"/man/man5 "$CG_ROOT"/man/man7 -r
	[ "$status" -eq 1 ]
	run sh -c "man -l '$CG_ROOT/man/man3/cg-ruleset.3' 2>/dev/null | col -b | tr -s ' \n' '  '"
	assert_output --partial '(cg-parse -L lists them), so they must agree'
}

@test "lint-layers: libcore includes only folders below, and says where one does not" {
	run sh "$CG_ROOT/scripts/lint-layers"
	assert_success
	# a tree where base reaches up to kb and values across to format
	local t
	t=$(mktemp -d)
	mkdir -p "$t/scripts" "$t/libcore/base" "$t/libcore/values"
	cp "$CG_ROOT/scripts/lint-layers" "$t/scripts/"
	printf '#include "base/util.h"\n#include "kb/kb.h"\n' > "$t/libcore/base/a.c"
	printf '#include "format/doc.h"\n' > "$t/libcore/values/b.c"
	run sh "$t/scripts/lint-layers"
	assert_failure 1
	assert_line 'libcore/base/a.c:2: base includes "kb/kb.h", a folder not below it'
	assert_line 'libcore/values/b.c:1: values includes "format/doc.h", a folder not below it'
	rm -rf "$t"
}
