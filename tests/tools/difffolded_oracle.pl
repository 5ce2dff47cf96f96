#!/usr/bin/perl
# A test oracle for fg-diff: difffolded.pl's behaviour (folded regex,
# summed counts, -s, -n with int(); fg-diff(1)), written from a
# description of it, not from its code. Output is printed sorted for comparison.
use strict;
use warnings;
use Getopt::Std;

my %opts;
getopts('ns', \%opts) or die "usage: $0 [-n] [-s] f1 f2\n";
@ARGV == 2 or die "usage: $0 [-n] [-s] f1 f2\n";
my (%c1, %c2, $t1, $t2);
$t1 = $t2 = 0;
for my $i (0, 1) {
	open(my $f, '<', $ARGV[$i]) or die "$ARGV[$i]: $!\n";
	while (my $line = <$f>) {
		chomp $line;
		next unless $line =~ /^(.*)\s+?(\d+(?:\.\d*)?)$/;
		my ($stack, $count) = ($1, $2);
		$stack =~ s/0x[0-9a-fA-F]+/0x.../g if $opts{s};
		if ($i == 0) { $c1{$stack} += $count; $t1 += $count; }
		else { $c2{$stack} += $count; $t2 += $count; }
	}
}
my %all = (%c1, %c2);
my @out;
for my $stack (keys %all) {
	my $a = $c1{$stack} // 0;
	my $b = $c2{$stack} // 0;
	$a = int($a * $t2 / $t1) if $opts{n} && $t1 != $t2;
	push @out, "$stack $a $b";
}
print "$_\n" for sort @out;
