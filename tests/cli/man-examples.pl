#!/usr/bin/perl
# man-examples.pl PAGE...: run the commands of the EXAMPLES of each page
# ("$ command" lines of its literal displays, continued lines included) in
# the current directory and compare what they print (stdout and stderr,
# trailing blanks dropped) with the lines the page shows after them; a
# command shown without output must succeed.  Used by man-examples.bats.
use strict;
use warnings;

my $fail = 0;
my $count = 0;
sub unroff {
	my $s = shift;
	$s =~ s/\\&//g;
	$s =~ s/\\e/\\/g;
	$s =~ s/\\-/-/g;
	return $s;
}
for my $page (@ARGV) {
	open my $fh, '<', $page or die "$page: $!";
	my @lines = <$fh>;
	close $fh;
	chomp @lines;
	my ($in, $sect, $blk) = (0, '', 0);
	my @ex;    # [cmd, [expected lines], block]
	for my $l (@lines) {
		if ($l =~ /^\.Sh (.*)$/) { $sect = $1; next; }
		next unless $sect eq 'EXAMPLES';
		if ($l =~ /^\.Bd -literal/) { $in = 1; $blk++; next; }
		if ($l =~ /^\.Ed/) { $in = 0; next; }
		next unless $in;
		my $t = unroff($l);
		if ($t =~ /^\$ (.*)$/) {
			push @ex, [$1, [], $blk];
		} elsif (@ex && $ex[-1][2] == $blk && $t =~ /^\s+\S/ &&
		    ($ex[-1][0] =~ /(?:[|\\]|\bdo|\bthen)$/ ||
		    ($ex[-1][0] =~ /\bdo$/m && $ex[-1][0] !~ /^\s*done/m))) {
			$ex[-1][0] .= "\n" . $t;   # a continued command
		} elsif (@ex && $ex[-1][2] == $blk) {
			push @{$ex[-1][1]}, $t;
		}
	}
	for my $e (@ex) {
		my ($cmd, $want) = @$e;
		$count++;
		open my $p, '-|', 'bash', '-c', "{ $cmd\n} 2>&1 </dev/null" or die;
		my @got = <$p>;
		close $p;
		chomp @got;
		s/\s+$// for @got;
		# a command shown without output must succeed; one with output
		# must print exactly that
		my $bad = @$want ? join("\n", @got) ne join("\n", @$want) : $? != 0;
		if ($bad) {
			print "$page: \$ $cmd\n  expected:\n", map("    $_\n", @$want),
			    "  got (status $?):\n", map("    $_\n", @got);
			$fail = 1;
		}
	}
}
print "# $count examples run\n";
exit $fail;
