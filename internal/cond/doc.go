// Package cond is a condition variable whose Wait takes a context: tests
// and the test web wait for an event (the n-th logged request, a line of a
// command's output, no request in progress) instead of polling with sleeps,
// and a wait that would never end is cut by the test's deadline.
package cond
