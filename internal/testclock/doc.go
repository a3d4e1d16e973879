// Package testclock is a clock for tests that moves only when told to:
// Now stands still until Advance, so a test steps past a TTL, a back-off
// or a rate limit instead of waiting for it. It imports nothing of
// seedcrawl, so any package's in-package tests can use it.
package testclock
