#!/usr/bin/env bats
# Heap rules that take from several heaps at once (cgr(5), 'from' and
# 'same'): positions that are tuples of heaps, "3,5" or "(3,5)+(1,2)".
# The shipped wythoff.cgr against Wythoff's theorem and OEIS; Moore's
# Nim against Moore's theorem; splitting heaps inside a tuple against a
# brute force written here; the notation, move names and bad files.
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

@test "wythoff.cgr: a pair a,b <= 200 is a P-position exactly when it is a Beatty pair or its mirror" {
	# Wythoff (1907): the P-positions are (a_k, b_k) and (b_k, a_k),
	# a_k = floor(k phi), b_k = a_k + k = floor(k phi^2).  Computed here
	# twice, without the code under test: a_k = floor((k + isqrt(5k^2))/2)
	# in integers (sqrt(5k^2) is irrational for k > 0, so flooring the
	# root first changes nothing), and as the mex construction (a_k the
	# least number not yet among the a's and b's); the two must agree.
	awk 'BEGIN {
		for (k = 0; k <= 200; k++) {
			n = 5 * k * k; s = int(sqrt(n))
			while (s * s > n) s--
			while ((s + 1) * (s + 1) <= n) s++
			a = int((k + s) / 2); b = a + k
			if (b <= 200) { print a "," b; if (a != b) print b "," a }
		}
	}' | sort > "$T/beatty"
	awk 'BEGIN {
		for (k = 0; ; k++) {
			for (a = 0; used[a]; a++) ;
			b = a + k; used[a] = used[b] = 1
			if (b > 200) break
			print a "," b; if (a != b) print b "," a
		}
	}' | sort > "$T/mex"
	cmp "$T/beatty" "$T/mex"
	[ "$(wc -l < "$T/beatty")" -eq 153 ]   # (0,0) and 76 pairs each way
	# every pair, in one cg-outcome run
	awk 'BEGIN { for (a = 0; a <= 200; a++) for (b = 0; b <= 200; b++)
	    print a "," b }' > "$T/pairs"
	cg cg-parse -r wythoff < "$T/pairs" | cg cg-outcome -t | cut -f2 > "$T/got"
	[ "$(wc -l < "$T/got")" -eq 40401 ]
	paste -d' ' "$T/pairs" "$T/got" | awk '$2 == "P" {print $1}' | sort > "$T/p"
	diff "$T/beatty" "$T/p"
	# and nothing but P and N
	[ "$(grep -cvx '[PN]' "$T/got")" -eq 0 ]
}

@test "wythoff.cgr: nim values as OEIS publishes them" {
	# OEIS A317205 (Sprague-Grundy values of Wythoff's game, the triangle
	# G(n,k), 0 <= k <= n, of the table A004481; Blass and Fraenkel 1990,
	# Table 2), rows 0..7:
	want=0,1,2,2,0,1,3,4,5,6,4,5,3,2,7,5,3,4,0,6,8,6,7,8,1,9,10,3,7,8,6,9,0,1,4,5
	for n in $(seq 0 7); do
		for k in $(seq 0 "$n"); do echo "$n,$k"; done
	done > "$T/tri"
	run sh -c "cg-parse -r wythoff < '$T/tri' | cg-outcome -n -t | cut -f2 | paste -sd, -"
	assert_success
	assert_output "$want"
	# OEIS A047708, the diagonal G(n,n), n = 0..19
	run sh -c "seq 0 19 | awk '{print \$1 \",\" \$1}' | cg-parse -r wythoff |
	    cg-outcome -n -t | cut -f2 | paste -sd, -"
	assert_output 0,2,1,6,7,8,3,5,4,16,14,15,10,9,11,20,13,21,12,25
	# a sum is the nim sum of its games: G(1,2) = 0, G(3,3) = 6, G(4,4) = 7
	run sh -c "cg-parse -r wythoff '(1,2)+(3,3)' '(3,3)+(4,4)' '(3,3)+4' | cg-canon -t"
	assert_output $'(1,2)+(3,3)\t*6\n(3,3)+(4,4)\t*\n(3,3)+4\t*2'
}

@test "wythoff.cgr: moves say which heaps they take from" {
	# 2,3 by hand: from heap 1 leave 1 or 0, from heap 2 leave 2, 1, 0,
	# from both take 1 (1,2) or 2 (0,1); (1,2) is P, so is nothing else
	run sh -c "cg-parse -r wythoff 2,3 | cg-outcome --children"
	assert_success
	assert_output "$(printf '2,3\t%s\n' $'1:1\t1,3\tN' $'1:0\t3\tN' \
	    $'2:2\t2,2\tN' $'2:1\t2,1\tP' $'2:0\t2\tN' $'1:1,2:2\t1,2\tP' \
	    $'1:0,2:1\t1\tN')"
	# heaps are numbered over the whole sum, and a move stays in its
	# tuple; 2+(1,1) is P (G(1,1) = 2, nim sum 0), the others N
	run sh -c "cg-parse -r wythoff '4+(1,1)' | cg-outcome --children"
	assert_output "$(printf '4+(1,1)\t%s\n' $'1:3\t3+(1,1)\tN' \
	    $'1:2\t2+(1,1)\tP' $'1:1\t1+(1,1)\tN' $'1:0\t1,1\tN' \
	    $'2:0\t4+1\tN' $'3:0\t4+1\tN' $'2:0,3:0\t4\tN')"
	run sh -c "printf '2:0,3:0\nquit\n' | cg-play -r wythoff '4+(1,1)'"
	assert_success
	assert_output --partial 'Right (computer) plays 1:0'
}

@test "tuples: notation, round trip, one node up to the order of heaps" {
	run sh -c "cg-parse -r wythoff 3,5 ' ( 3 , 5 ) + ( 1,2 ) ' 3+4 0,0 0,4 '(0,0)+(1)' '(7)' | awk -F'\t' '\$1 == \"N\" {print \$3}'"
	assert_success
	assert_output $'3,5\n(3,5)+(1,2)\n3+4\n0\n4\n1\n7'
	# 5,3 and 3,5 are one node; a game without moves (the empty pair) is 0
	run sh -c "cg-parse -r wythoff '(5,3)+(3,5)' | cg-canon -t"
	assert_output $'(5,3)+(3,5)\t0'
	run sh -c "cg-parse -r wythoff 1,1 | cg-options -t"
	assert_output $'1,1\t1, 1, 0\t1, 1, 0'
	# a file without such rules reads commas as it always has
	mkdir "$T/r"
	printf 'board heaps\nmeasure counters\nboth take 1,2\n' > "$T/r/take12.cgr"
	run sh -c "CG_PLUGIN_PATH='$T/r' cg-parse -r take12 3,5 | awk -F'\t' '\$1 == \"N\" {print \$3}'"
	assert_output 3+5
}

@test "tuples: malformed positions name their column" {
	local p want
	while IFS='|' read -r p want; do
		run cg cg-parse -r wythoff "$p"
		assert_failure 1
		assert_output --partial "$want"
	done <<'EOF'
3,5+1|column 2: a tuple in a sum is written in parentheses, as (3,5)+(1,2)
1+3,5|column 4: a tuple in a sum is written in parentheses
(3,5|column 5: expected ',' or ')' in a tuple, found the end
(3,5]|column 5: expected ',' or ')' in a tuple, found ']'
(3,5)x|column 6: expected '+' between games, found 'x'
()|column 2: expected a heap size, found ')'
3,|column 3: expected a heap size, found the end
99999999999|column 1: heap size too large (at most 2147483647)
EOF
}

@test "Moore's Nim: take from one or two heaps at once, any amounts" {
	# Moore (1910), Winning Ways ch. 15: in Nim_k (take from up to k
	# heaps) a position is P exactly when, in binary, every column of
	# digits sums to a multiple of k + 1.  k = 2, three heaps of 0..12.
	mkdir "$T/r"
	printf '%s\n' 'board heaps' 'measure counters' \
	    'both take any  from 1,2' > "$T/r/moore.cgr"
	awk 'BEGIN { for (a = 0; a <= 12; a++) for (b = 0; b <= 12; b++)
	    for (c = 0; c <= 12; c++) print a "," b "," c }' > "$T/trip"
	export CG_PLUGIN_PATH=$T/r
	cg cg-parse -r moore < "$T/trip" | cg cg-outcome -t |
	    cut -f2 > "$T/got"
	run sh -c "paste -d' ' '$T/trip' '$T/got' | awk '{
		split(\$1, h, \",\"); p = 1
		for (bit = 1; bit <= 8; bit *= 2) {
			s = 0; for (i = 1; i <= 3; i++) s += int(h[i] / bit) % 2
			if (s % 3) p = 0
		}
		if ((p ? \"P\" : \"N\") != \$2) bad++
	} END { print NR, bad + 0 }'"
	assert_output '2197 0'
}

# brute RULE...: the nim values of every tuple of three heaps of 0..6,
# computed here in perl; a RULE is AMOUNTS/LEAVE/FROM/SAME, as
# "1,2/0,1,2/1,2/0" (lists of numbers; FROM 1 or 2; SAME 0 or 1).
brute() {
	perl -e '
	use strict; use warnings;
	my @rules = map { my @f = split m{/}; { amt => [split /,/, $f[0]],
	    leave => [split /,/, $f[1]], from => [split /,/, $f[2]],
	    same => $f[3] } } @ARGV;
	my %memo;
	sub key { join ",", sort { $b <=> $a } grep { $_ > 0 } @_ }
	sub one { my ($r, $n, $k) = @_; my @res; return () if $k > $n;
	  my $m = $n - $k;
	  for my $j (@{$r->{leave}}) {
	    if ($j == 0) { push @res, [] if $m == 0 && $k > 0 }
	    elsif ($j == 1) { push @res, [$m] if $m > 0 && $k > 0 }
	    elsif ($j == 2) { push @res, [$_, $m - $_] for 1 .. int($m / 2) } }
	  return @res }
	sub opts { my @h = @_; my %o;
	  for my $r (@rules) { for my $f (@{$r->{from}}) { next if $f > @h;
	    my @picks = $f == 1 ? (map { [$_] } 0 .. $#h) :
	      (map { my $i = $_; map { [$i, $_] } $i + 1 .. $#h } 0 .. $#h);
	    for my $p (@picks) {
	      my %in = map { $_ => 1 } @$p;
	      my @rest = map { $h[$_] } grep { !$in{$_} } 0 .. $#h;
	      if ($f == 1) { for my $k (@{$r->{amt}}) {
	        $o{key(@rest, @$_)} = 1 for one($r, $h[$p->[0]], $k) } next }
	      for my $k1 (@{$r->{amt}}) { for my $k2 (@{$r->{amt}}) {
	        next if $r->{same} && $k1 != $k2;
	        for my $x (one($r, $h[$p->[0]], $k1)) {
	          for my $y (one($r, $h[$p->[1]], $k2)) {
	            $o{key(@rest, @$x, @$y)} = 1 } } } } } } }
	  return keys %o }
	sub g { my $k = key(@_); return $memo{$k} if defined $memo{$k};
	  my %s = map { $_ => 1 } map { g(split /,/) } opts(split /,/, $k);
	  my $v = 0; $v++ while $s{$v}; return $memo{$k} = $v }
	for my $a (0 .. 6) { for my $b (0 .. $a) { for my $c (0 .. $b) {
	  print "$a,$b,$c\t", g($a, $b, $c), "\n" } } }
	' "$@"
}

@test "tuples: heaps split inside a tuple, amounts alike or not, as a brute force finds" {
	mkdir "$T/r"
	export CG_PLUGIN_PATH=$T/r
	# Kayles moves on one heap or on two at once
	printf '%s\n' 'board heaps' 'measure counters' \
	    'both take 1,2  leave 0,1,2  from 1,2' > "$T/r/kk.cgr"
	brute 1,2/0,1,2/1,2/0 > "$T/want"
	cut -f1 "$T/want" | cg cg-parse -r kk |
	    cg cg-outcome -n -t > "$T/got"
	[ "$(wc -l < "$T/got")" -eq 84 ]
	diff <(cut -f2 "$T/want") <(cut -f2 "$T/got")
	# one counter from one heap, or 1..3 alike from two heaps, which
	# may each split in two (measure: twice the counters less the heaps)
	printf '%s\n' 'board heaps' 'measure 2*counters - heaps' \
	    'both take 1' 'both take 1-3  leave 0,1,2  from 2  same' \
	    > "$T/r/ks.cgr"
	brute 1/0,1/1/0 1,2,3/0,1,2/2/1 > "$T/want"
	cut -f1 "$T/want" | cg cg-parse -r ks |
	    cg cg-outcome -n -t > "$T/got"
	diff <(cut -f2 "$T/want") <(cut -f2 "$T/got")
}

@test "tuples: a knowledge base of the family, and a partizan tuple game" {
	# family 10: the pairs b <= a <= 10 but (0,0): 11*12/2 - 1 = 65
	run sh -c "cg-kb-build -r wythoff --family 10 -o '$T/w.cgkb' 2>&1 &&
	    cg-kb stats '$T/w.cgkb'"
	assert_success
	assert_line $'entries\t65'
	run sh -c "cg-parse -r wythoff 3,5 '(4,4)+1' | cg-kb lookup -t '$T/w.cgkb'"
	assert_output $'3,5\t0\tP\n(4,4)+1\t*6\tN'
	# Left takes one from one heap, Right one from each of two heaps
	# (hand: from 1,1 Left goes to the heap 1 = {0|} = 1, Right to 0,
	# so {1|0}; a lone heap of 2 has only Left's moves: 2)
	mkdir "$T/r"
	printf '%s\n' 'board heaps' 'measure counters' 'left take 1' \
	    'right take 1  from 2' > "$T/r/lr.cgr"
	run sh -c "export CG_PLUGIN_PATH='$T/r'; cg-parse -r lr 1,1 2 | cg-canon -t"
	assert_output $'1,1\t{1|0}\n2\t2'
	# left and right rules whose parameters give both the same moves make
	# an impartial game (hand: 1,1 -> 1 = *, or 0: *2; 2,1 -> 1,1 = *2,
	# 1 = *, 2 = *2 (take 1 or 2 of 2), 1 = *: 0); else -n is refused
	printf '%s\n' 'board heaps' 'param a set' 'param b set default a' \
	    'measure counters' 'left take a' 'right take b' \
	    'left take a from 2 same' 'right take b from 2 same' > "$T/r/pw.cgr"
	run sh -c "export CG_PLUGIN_PATH='$T/r'; cg-parse -r pw:1,2,3 1,1 2,1 | cg-outcome -n -t"
	assert_output $'1,1\t2\n2,1\t0'
	run sh -c "export CG_PLUGIN_PATH='$T/r'; cg-parse -r pw:1,2/1 1,1 | cg-outcome -n -t"
	assert_failure 1
	assert_output --partial 'needs an impartial game'
}

@test "tuples: bad rules are one-line errors with the line" {
	mkdir "$T/r"
	local body want
	while IFS='|' read -r body want; do
		printf "$body" > "$T/r/bad.cgr"
		CG_PLUGIN_PATH=$T/r run cg cg-parse -r bad 1
		assert_failure 1
		[ "${#lines[@]}" -eq 1 ] || { echo "$output"; return 1; }
		assert_output --partial "$want"
	done <<'EOF'
board heaps\nmeasure counters\nboth take 1 same\n|bad.cgr:3: 'same' is the same amount from several heaps: say how many with 'from', such as 'from 2'
board heaps\nmeasure counters\nboth take 1 from 9\n|bad.cgr:3: bad heap counts '9' (numbers 1..8
board heaps\nmeasure counters\nboth take 1 from 0,2\n|bad.cgr:3: bad heap counts '0,2'
board heaps\nmeasure counters\nboth take 1 from\n|bad.cgr:3: 'from' takes one list, such as 1,2
board heaps\nmeasure counters\nboth take 1 from 2 from 1\n|bad.cgr:3: 'from' takes one list
board heaps\nmeasure heaps\nboth take 0 leave 2 from 2\n|bad.cgr:3: this rule does not always decrease the measure (line 2): taking 0 and leaving 2 heaps
board heaps\nmeasure counters\nboth take 1 from 2 sometimes\n|bad.cgr:3: unknown word 'sometimes' (leave, unequal, equal, from or same)
EOF
}
