// Package outfile writes a file whole or not at all: when writing fails,
// the file is removed, so no reader later takes a truncated file for a
// complete one. The graph and test-web dataset writers use it.
package outfile
