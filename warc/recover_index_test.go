package warc_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/warc"
)

// TestRecoverBrokenIndex: a power cut soon after a Writer closed a file
// can leave its index, renamed into place, empty or cut short inside a
// line, as its blocks were not yet written. The next Open redoes such an
// index, as for a file without one, and leaves a whole one alone; the
// empty whole index of a file of no response is redone silently.
func TestRecoverBrokenIndex(t *testing.T) {
	for _, tc := range []struct {
		name     string
		exchange bool                      // the file holds exchanges
		index    func(whole []byte) []byte // the index left
		redone   bool                      // reported in Recovered
	}{
		{"empty", true, func([]byte) []byte { return nil }, true},
		{"cut inside a line", true, func(b []byte) []byte { return b[:len(b)/2+1] }, true},
		{"last line without its newline", true, func(b []byte) []byte { return b[:len(b)-1] }, true},
		{"zeroed blocks", true, func(b []byte) []byte { return make([]byte, len(b)) }, true},
		{"whole", true, func(b []byte) []byte { return b }, false},
		{"empty, of a file of no response", false, func(b []byte) []byte { return b }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			w := warc.OpenWriter(t, warc.Options{Dir: dir})
			if tc.exchange {
				srv := pageServer(t)
				for _, p := range []string{"/a", "/b"} {
					if _, err := w.WriteExchange(t.Context(), fetchExchange(t, srv.URL+p)); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, w.Files()[0])
			index := strings.TrimSuffix(path, ".warc.gz") + ".cdxj"
			whole, err := os.ReadFile(index)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(index, tc.index(whole), 0o644); err != nil {
				t.Fatal(err)
			}
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			w2 := warc.OpenWriter(t, warc.Options{Dir: dir})
			var want []warc.Recovery
			if tc.redone {
				want = []warc.Recovery{{Name: filepath.Base(path)}}
			}
			if got := w2.Recovered(); len(got) != len(want) || (len(want) > 0 && got[0] != want[0]) || len(w2.Unrecovered()) > 0 {
				t.Errorf("recovered %v, unrecovered %v; want %v", got, w2.Unrecovered(), want)
			}
			if after, err := os.ReadFile(index); err != nil || !bytes.Equal(after, whole) {
				t.Errorf("index now\n%s\nwant\n%s (%v)", after, whole, err)
			}
			if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
				t.Errorf("the WARC file changed (%v)", err)
			}
		})
	}
}

// TestRecoverKilledRecovery: a recovery killed after it cut a file and
// before it reported the cut (its index not yet written, or written) left
// a file that reads whole: the next Open still reports the cut, once.
func TestRecoverKilledRecovery(t *testing.T) {
	for _, tc := range []struct {
		name string
		// killed leaves what the killed recovery had done after its cut.
		killed func(t *testing.T, path, index string)
	}{
		{"before its index", func(*testing.T, string, string) {}},
		{"after its index", func(t *testing.T, path, index string) {
			lines, err := warc.IndexFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(index, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path, b, results := writeFive(t, dir)
			b = b[:len(b)-20]
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			index := strings.TrimSuffix(path, ".warc.gz") + ".cdxj"
			// The index cannot be written: the recovery stops right after
			// its cut, where a kill could have stopped it.
			if err := os.Mkdir(index+".tmp", 0o755); err != nil {
				t.Fatal(err)
			}
			w := warc.OpenWriter(t, warc.Options{Dir: dir})
			cut := int64(len(b)) - results[4].Offset - results[4].Length
			if got := w.Unrecovered(); len(got) != 1 || size(t, path) != int64(len(b))-cut {
				t.Fatalf("unrecovered %v, file now %d bytes; want one error, %d bytes cut", got, size(t, path), cut)
			}
			if err := os.Remove(index + ".tmp"); err != nil {
				t.Fatal(err)
			}
			tc.killed(t, path, index)
			name := filepath.Base(path)
			w = warc.OpenWriter(t, warc.Options{Dir: dir})
			if got := w.Recovered(); len(got) != 1 || got[0] != (warc.Recovery{Name: name, Cut: cut}) || len(w.Unrecovered()) > 0 {
				t.Errorf("recovered %v, unrecovered %v; want %s with %d bytes cut", got, w.Unrecovered(), name, cut)
			}
			if _, err := os.Stat(index); err != nil {
				t.Errorf("no index: %v", err)
			}
			w = warc.OpenWriter(t, warc.Options{Dir: dir})
			if got := w.Recovered(); len(got) != 0 {
				t.Errorf("a third Open recovered %v: the cut was reported already", got)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "*.cut")); len(left) > 0 {
				t.Errorf("cut marks left: %v", left)
			}
		})
	}
}

// TestRecoverNoRecord: a writer killed right after it created a file
// leaves it all zeros (a power cut) or with part of its warcinfo record:
// such a file, reported on every Open, is said to hold no record and to
// be of no use; another file that reads as no WARC is not.
func TestRecoverNoRecord(t *testing.T) {
	_, b, results := writeFive(t, t.TempDir())
	info := b[:results[0].Offset]
	for _, tc := range []struct {
		name string
		b    []byte
		none bool
	}{
		{"zeros", make([]byte, 4096), true},
		{"half a warcinfo member", info[:len(info)/2], true},
		{"a warcinfo member, its trailer cut", info[:len(info)-3], true},
		{"half a warcinfo member, then zeros", append(bytes.Clone(info[:len(info)/2]), make([]byte, 100)...), true},
		{"text", []byte("not a WARC file\n"), false},
		{"half a response member", b[results[0].Offset : results[0].Offset+results[0].Length/2], false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "seedcrawl-20261123120001-00000.warc.gz")
			if err := os.WriteFile(path, tc.b, 0o644); err != nil {
				t.Fatal(err)
			}
			w := warc.OpenWriter(t, warc.Options{Dir: dir})
			checkUnrecovered(t, w, path, tc.b, nil)
			if msg := w.Unrecovered()[0].Error(); strings.Contains(msg, "holds no record") != tc.none || strings.Contains(msg, "can be deleted") != tc.none {
				t.Errorf("unrecovered error %q; want it to say it holds no record and can be deleted: %v", msg, tc.none)
			}
		})
	}
}
