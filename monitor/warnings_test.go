package monitor

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func TestWarningsRing(t *testing.T) {
	w := NewWarnings(3)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		add  string
		want string
	}{
		{"a", "a"},
		{"b", "a b"},
		{"c", "a b c"},
		{"d", "b c d"},
		{"e", "c d e"},
		{"f", "d e f"},
		{"g", "e f g"},
	}
	for i, tc := range tests {
		w.Add(t0.Add(time.Duration(i)*time.Second), "WARN", tc.add)
		var got []string
		for _, x := range w.Recent() {
			got = append(got, x.Message)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("after %s: %v, want %s", tc.add, got, tc.want)
		}
	}
	long := strings.Repeat("é", 2000)
	w.Add(t0, "WARN", long)
	r := w.Recent()
	if m := r[len(r)-1].Message; len(m) > maxWarningLen+len("…") || !strings.HasSuffix(m, "…") || !strings.HasPrefix(m, "éé") {
		t.Errorf("long message kept as %d bytes", len(m))
	}
}

// TestWarningsHandler checks the slog tee: every record reaches the next
// handler, records at Warn and above are kept with their attributes.
func TestWarningsHandler(t *testing.T) {
	var out bytes.Buffer
	w := NewWarnings(10)
	log := slog.New(w.Handler(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug})))
	log.Debug("debug line")
	log.Info("info line", "k", 1)
	log.Warn("robots unreachable", "host", "a.test")
	log.With("run", 3).WithGroup("fetch").Error("too many errors", "host", "b.test", slog.Group("err", "code", 503))
	var got []string
	for _, x := range w.Recent() {
		got = append(got, x.Level+" "+x.Message)
	}
	want := []string{"WARN robots unreachable host=a.test", "ERROR too many errors run=3 fetch.host=b.test fetch.err.code=503"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("kept %q, want %q", got, want)
	}
	for _, line := range []string{"debug line", "info line", "robots unreachable", "too many errors"} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("next handler did not get %q", line)
		}
	}

	// A next handler that drops warnings does not stop them being kept.
	w2 := NewWarnings(2)
	quiet := slog.New(w2.Handler(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelError + 4})))
	quiet.Warn("kept anyway")
	if r := w2.Recent(); len(r) != 1 || r[0].Message != "kept anyway" {
		t.Errorf("quiet logger kept %v", r)
	}
}
