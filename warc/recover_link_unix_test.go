//go:build unix

package warc_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/seedcrawl/seedcrawl/warc"
)

// TestRecoverLeavesLinksAndFIFOs: a symbolic link named as the Writer
// names its files, to a killed writer's file cut short elsewhere, is not
// followed: the file it points to keeps every byte and gets no index, and
// the link is reported; nor is a link put where the file's index is
// written first. A FIFO so named is reported too, without Open waiting
// for a writer to it.
func TestRecoverLeavesLinksAndFIFOs(t *testing.T) {
	t.Run("symbolic link", func(t *testing.T) {
		target, b, _ := writeFive(t, t.TempDir())
		b = b[:len(b)-20] // a kill inside the last request: a cut if it were here
		if err := os.WriteFile(target, b, 0o644); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		link := filepath.Join(dir, "seedcrawl-link.warc.gz")
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		w := warc.OpenWriter(t, warc.Options{Dir: dir})
		if got := w.Recovered(); len(got) != 0 {
			t.Errorf("recovered %v through a symbolic link", got)
		}
		checkUnrecovered(t, w, link, b, nil)
		if msg := w.Unrecovered()[0].Error(); !strings.Contains(msg, "symbolic link") {
			t.Errorf("unrecovered error %q does not say the file is a symbolic link", msg)
		}
		if _, err := os.Stat(strings.TrimSuffix(target, ".warc.gz") + ".cdxj"); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the link's target got an index: %v", err)
		}
	})
	t.Run("symbolic link where the index is written", func(t *testing.T) {
		dir := t.TempDir()
		path, b, _ := writeFive(t, dir)
		victim := filepath.Join(t.TempDir(), "other")
		if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(victim, strings.TrimSuffix(path, ".warc.gz")+".cdxj.tmp"); err != nil {
			t.Fatal(err)
		}
		w := warc.OpenWriter(t, warc.Options{Dir: dir})
		checkUnrecovered(t, w, path, b, nil)
		if got, err := os.ReadFile(victim); err != nil || string(got) != "keep" {
			t.Errorf("the file the link points to now holds %q (%v)", got, err)
		}
	})
	t.Run("FIFO", func(t *testing.T) {
		dir := t.TempDir()
		fifo := filepath.Join(dir, "seedcrawl-fifo.warc.gz")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		w := warc.OpenWriter(t, warc.Options{Dir: dir})
		got := w.Unrecovered()
		if len(got) != 1 || !errors.Is(got[0], warc.ErrUnrecovered) || !strings.Contains(got[0].Error(), "FIFO") ||
			strings.Count(got[0].Error(), filepath.Base(fifo)) != 1 || len(w.Recovered()) != 0 {
			t.Errorf("recovered %v, unrecovered %v; want the FIFO named once as such", w.Recovered(), got)
		}
		if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("the FIFO changed: %v, %v", st, err)
		}
	})
}
