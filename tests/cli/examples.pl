#!/usr/bin/perl
# examples.pl FILE...: run the examples of man pages and of README-style
# Markdown, as written, and check that they print what the files show.
#
# Examples are the "$ command" lines of a man page's EXAMPLES displays
# (.Bd -literal) or of a Markdown ```console block, with continued lines
# (after a trailing '|' or '\', and loop bodies), followed by the lines
# the file shows as their output (stdout and stderr, mixed in any order
# that keeps each in order; trailing blanks dropped).  The commands of one
# file run in one shell, in the current directory, in order, so that an
# 'export' or a file made by one reaches the next.  A command shown with
# output must print exactly that; one shown without output must succeed.
# Used by man-examples.bats and readme.bats.
use strict;
use warnings;
use File::Temp qw(tempdir);

sub unroff {
	my $s = shift;
	$s =~ s/\\&//g;
	$s =~ s/\\e/\\/g;
	$s =~ s/\\-/-/g;
	return $s;
}

# The examples of a file: [command, [expected lines]].
sub examples {
	my $file = shift;
	my $md = $file =~ /\.md$/;
	open my $fh, '<', $file or die "$file: $!\n";
	my @lines = <$fh>;
	close $fh;
	chomp @lines;
	my ($in, $sect, $blk) = (0, '', 0);
	my @ex;
	for my $l (@lines) {
		if ($md) {
			if (!$in && $l =~ /^```console\s*$/) { $in = 1; $blk++; next; }
			if ($in && $l =~ /^```/) { $in = 0; next; }
		} else {
			if ($l =~ /^\.Sh (.*)$/) { $sect = $1; next; }
			next unless $sect eq 'EXAMPLES';
			if ($l =~ /^\.Bd -literal/) { $in = 1; $blk++; next; }
			if ($l =~ /^\.Ed/) { $in = 0; next; }
		}
		next unless $in;
		my $t = $md ? $l : unroff($l);
		my $cont = @ex && $ex[-1][2] == $blk && @{$ex[-1][1]} == 0 &&
		    $t =~ /^\s+\S/ && ($ex[-1][0] =~ /(?:[|\\]|\bdo|\bthen)$/ ||
		    ($ex[-1][0] =~ /\bdo$/m && $ex[-1][0] !~ /^\s*done/m));
		if ($t =~ /^\$ (.*)$/) {
			push @ex, [$1, [], $blk];
		} elsif ($cont) {
			$ex[-1][0] .= "\n" . $t;
		} elsif (@ex && $ex[-1][2] == $blk) {
			push @{$ex[-1][1]}, $t;
		}
	}
	return @ex;
}

# Is want an interleaving of the lines of out and err, each in order?  (A
# terminal shows stdout and stderr mixed; the order between the two is not
# the programs' to keep once stdout is a pipe.)
sub interleaves {
	my ($want, $out, $err) = @_;
	my ($n, $m) = (scalar @$out, scalar @$err);
	return 0 if @$want != $n + $m;
	my @ok = ([ (0) x ($m + 1) ]);
	$ok[0][0] = 1;
	for my $i (0 .. $n) {
		for my $j (0 .. $m) {
			next if $i == 0 && $j == 0;
			my $w = $want->[$i + $j - 1];
			$ok[$i][$j] = ($i > 0 && $ok[$i - 1][$j] && $out->[$i - 1] eq $w) ||
			    ($j > 0 && $ok[$i][$j - 1] && $err->[$j - 1] eq $w) ? 1 : 0;
		}
	}
	return $ok[$n][$m];
}

sub slurp {
	my $f = shift;
	open my $fh, '<', $f or return ();
	my @l = <$fh>;
	close $fh;
	chomp @l;
	s/\s+$// for @l;
	return @l;
}

my ($fail, $count) = (0, 0);
my $tmp = tempdir(CLEANUP => 1);
for my $file (@ARGV) {
	my @ex = examples($file);
	next unless @ex;
	my $script = "exec </dev/null\n";
	for my $i (0 .. $#ex) {
		$script .= "{ $ex[$i][0]\n} >'$tmp/o$i' 2>'$tmp/e$i'\n" .
		    "echo \$? >'$tmp/s$i'\n";
	}
	system('bash', '-c', $script);
	for my $i (0 .. $#ex) {
		my ($cmd, $want) = @{$ex[$i]};
		my @out = slurp("$tmp/o$i");
		my @err = slurp("$tmp/e$i");
		my ($st) = slurp("$tmp/s$i");
		$st = 'none: the shell stopped' unless defined $st;
		unlink "$tmp/o$i", "$tmp/e$i", "$tmp/s$i";
		$count++;
		my $bad = @$want ? !interleaves($want, \@out, \@err) : $st ne '0';
		next unless $bad;
		print "$file: \$ $cmd\n  expected:\n", map("    $_\n", @$want),
		    "  got (exit status $st):\n", map("    $_\n", @out),
		    map("    (stderr) $_\n", @err);
		$fail = 1;
	}
}
print "# $count examples run\n";
exit $fail;
