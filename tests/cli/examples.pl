#!/usr/bin/perl
# examples.pl FILE...: run the examples of man pages and of README-style
# Markdown, as written, and check that they print what the files show.
#
# Examples are the "$ command" lines of a man page's EXAMPLES displays
# (.Bd -literal) or of a Markdown ```console block, with continued lines
# (after a trailing '|' or '\', and loop bodies), followed by the lines
# the file shows as their output (stdout and stderr, trailing blanks
# dropped).  The commands of one file run in one shell, in the current
# directory, in order, so that an 'export' or a file made by one reaches
# the next.  A command shown with output must print exactly that; one
# shown without output must succeed.  Used by man-examples.bats and
# readme.bats.
use strict;
use warnings;

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

my ($fail, $count) = (0, 0);
for my $file (@ARGV) {
	my @ex = examples($file);
	next unless @ex;
	my $script = "exec </dev/null\n";
	for my $e (@ex) {
		$script .= "{ $e->[0]\n} 2>&1\nprintf '\\n\@\@END\@\@ %d\\n' \$?\n";
	}
	open my $p, '-|', 'bash', '-c', $script or die "bash: $!\n";
	my @out = <$p>;
	close $p;
	chomp @out;
	my $i = 0;
	for my $e (@ex) {
		my ($cmd, $want) = @$e;
		my (@got, $st);
		while ($i < @out && $out[$i] !~ /^\@\@END\@\@ (\d+)$/) {
			push @got, $out[$i++];
		}
		if ($i < @out) {
			($st) = $out[$i++] =~ /(\d+)$/;
		} else {
			$st = 'none: the shell stopped';
		}
		pop @got if @got && $got[-1] eq '';  # the marker's newline
		s/\s+$// for @got;
		$count++;
		my $bad = @$want ? join("\n", @got) ne join("\n", @$want) :
		    $st ne '0';
		next unless $bad;
		print "$file: \$ $cmd\n  expected:\n", map("    $_\n", @$want),
		    "  got (exit status $st):\n", map("    $_\n", @got);
		$fail = 1;
	}
}
print "# $count examples run\n";
exit $fail;
