package main

import (
	"fmt"
	"io"
	"sync"
)

// libraryLogLines is how many lines of the standard library's own log
// (package log's default logger) reach stderr before the rest are dropped.
const libraryLogLines = 5

// libraryLog is the writer of package log's default logger in the
// seedcrawl process: the standard library logs a few events of its own
// there, net/http's "Unsolicited response received on idle HTTP channel"
// for one, which a misbehaving server can cause on every connection. Its
// lines reach stderr marked as the library's, the first libraryLogLines
// of them; one more line then says the rest are dropped, so whatever a
// server does, it cannot flood stderr through them.
type libraryLog struct {
	mu   sync.Mutex
	w    io.Writer
	left int
}

func newLibraryLog(w io.Writer) *libraryLog { return &libraryLog{w: w, left: libraryLogLines} }

// Write takes one log line (package log writes each with one call).
func (l *libraryLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.left > 0:
		l.left--
		if _, err := fmt.Fprintf(l.w, "seedcrawl: library log: %s", p); err != nil {
			return 0, err
		}
	case l.left == 0:
		l.left--
		if _, err := fmt.Fprintf(l.w, "seedcrawl: library log: more lines dropped (only the first %d are shown)\n", libraryLogLines); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}
