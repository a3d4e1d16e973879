// Package mix has the one 64-bit integer hash finaliser the packages share:
// SplitMix64's (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014). It turns nearby integers (dense page ids, node
// ids, seeds) into well-spread ones, without state and the same on every
// machine, for pseudorandom choices that must be reproducible.
package mix

// Golden is 2^64 divided by the golden ratio, the increment of the
// SplitMix64 generator: Finalize(seed + k·Golden) is its k-th output.
const Golden = 0x9e3779b97f4a7c15

// Finalize is SplitMix64's output function: a bijection on 64-bit values
// whose every output bit depends on every input bit.
func Finalize(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
