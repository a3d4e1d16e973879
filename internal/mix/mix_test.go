package mix

import "testing"

// TestFinalize checks the first outputs of the SplitMix64 generator seeded
// with 0 and 1234567, as published with the reference implementation
// (xoshiro.di.unimi.it/splitmix64.c).
func TestFinalize(t *testing.T) {
	for _, tc := range []struct {
		seed uint64
		want []uint64
	}{
		{0, []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f}},
		{1234567, []uint64{6457827717110365317, 3203168211198807973, 9817491932198370423}},
	} {
		x := tc.seed
		for i, want := range tc.want {
			x += Golden
			if got := Finalize(x); got != want {
				t.Errorf("seed %d, output %d: %#x, want %#x", tc.seed, i, got, want)
			}
		}
	}
}
