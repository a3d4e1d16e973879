package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalSeedsPlotFlags: --plot-logx and --title reach the plot, and the
// format follows the extension.
func TestEvalSeedsPlotFlags(t *testing.T) {
	base := seedsDataset(t, true)
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		file string
		args []string
	}{
		{"png with log depth and a title", "e.png", []string{"--plot-logx", "--title", "my title"}},
		{"pdf", "e.pdf", nil},
		{"svg", "e.svg", []string{"--title", "another"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			args := append([]string{"eval", "seeds", "--graph", base, "--k", "2", "--hops", "3", "--trials", "2", "--samples", "3", "--plot", path}, tc.args...)
			cmdOK(t, args...)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			switch filepath.Ext(tc.file) {
			case ".png":
				if _, err := png.Decode(bytes.NewReader(b)); err != nil {
					t.Errorf("not a PNG: %v", err)
				}
			case ".pdf":
				if !bytes.HasPrefix(b, []byte("%PDF")) {
					t.Error("not a PDF")
				}
			case ".svg":
				if !bytes.Contains(b, []byte("<svg")) || bytes.Contains(b, []byte("<text")) {
					t.Error("not an SVG with outlined text")
				}
			}
		})
	}
	// The title changes the picture.
	a, b := filepath.Join(dir, "a.svg"), filepath.Join(dir, "b.svg")
	for _, p := range []struct{ path, title string }{{a, "one"}, {b, "a much longer title"}} {
		cmdOK(t, "eval", "seeds", "--graph", base, "--k", "2", "--trials", "2", "--samples", "3", "--plot", p.path, "--title", p.title)
	}
	ab, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if bytes.Equal(ab, bb) {
		t.Error("--title did not change the plot")
	}
	if code, out, _ := cmdRun("eval", "seeds", "-h"); code != 0 || !strings.Contains(out, "--plot-logx") {
		t.Errorf("help: exit %d, stdout lacks --plot-logx:\n%s", code, out)
	}
}
