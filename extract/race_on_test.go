//go:build race

package extract

// raceEnabled: the race detector allocates for its own bookkeeping, so
// allocation bounds are not checked under it.
const raceEnabled = true
