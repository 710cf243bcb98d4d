# cpu-seconds.awk - the CPU seconds, user and system, in the output of the
# shell's `times` (its second line: the children's, "0m1.500s 0m0.250s"),
# printed whole.  tests/run.sh reads it per suite, the collector suite per
# case.
NR == 2 {
	for (f = 1; f <= 2; f++) {
		split($f, a, /[ms]/)
		n += a[1] * 60 + a[2]
	}
	printf "%.0f", n
}
