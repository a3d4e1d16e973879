// Package testhttp is for tests that read a server over loopback: one
// request, its body read whole and closed, an error failing the test. It
// imports nothing of seedcrawl, so any package's in-package tests can use
// it.
package testhttp
