package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCrawlFinishedHintCommand reruns crawl on a finished crawl whose db path
// holds a space and a quote, runs the command line the hint prints (read
// as a POSIX shell reads it) and checks that it crawls exactly one more
// cycle, and that the hint after it names the cycle after that.
func TestCrawlFinishedHintCommand(t *testing.T) {
	w := cleanWeb(t, 5, 30, 2)
	dir := filepath.Join(t.TempDir(), "my crawls", "it's")
	db := filepath.Join(dir, "x.db")
	fast := []string{"--delay", "0", "--delay-factor", "0", "--progress", "0", "--commit-interval", "50ms"}
	crawl := append(append([]string{"crawl"}, w.flags(append([]string{"--db", db}, fast...)...)...), w.site.Seeds()...)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmdOK(t, crawl...)
	for _, next := range []string{"2", "3"} {
		_, stderr := checkExit(t, crawl, 0, "the crawl in "+db+" is finished")
		_, line, ok := strings.Cut(stderr, "recrawl once with: ")
		if !ok {
			t.Fatalf("no command line in the hint:\n%s", stderr)
		}
		line, _, _ = strings.Cut(line, "\n")
		words, err := shellWords(line)
		if err != nil {
			t.Fatalf("hint %q: %v", line, err)
		}
		want := []string{"seedcrawl", "run", "--db", db, "--cycles", next}
		if strings.Join(words, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("hint %q reads as %q, want %q", line, words, want)
		}
		cmdOK(t, append(append(words[1:], w.flags()...), fast...)...)
		st := runReadDB(t, db)
		wantN, _ := strconv.Atoi(next)
		if n := len(st.cycles); n == 0 || st.cycles[n-1].End.IsZero() || st.cycles[n-1].N != uint32(wantN) {
			t.Fatalf("after the hint's command: cycles %+v, want cycle %s complete", st.cycles, next)
		}
	}
}

// shellWords splits a command line as a POSIX shell does for the forms
// shellQuote writes: words separated by spaces, single-quoted runs, and
// a backslash-escaped quote between quoted runs.
func shellWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	in, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case in && c == '\'':
			in = false
		case in:
			cur.WriteByte(c)
		case c == '\'':
			in, quoted = true, true
		case c == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
		case c == ' ':
			if cur.Len() > 0 || quoted {
				words = append(words, cur.String())
			}
			cur.Reset()
			quoted = false
		case strings.IndexByte("\"$`*?[]{}()<>|&;~#!", c) >= 0:
			return nil, &shellError{c}
		default:
			cur.WriteByte(c)
		}
	}
	if in {
		return nil, &shellError{'\''}
	}
	if cur.Len() > 0 || quoted {
		words = append(words, cur.String())
	}
	return words, nil
}

type shellError struct{ c byte }

func (e *shellError) Error() string { return "unquoted shell character " + string(e.c) }
