package warc_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/seedcrawl/seedcrawl/warc"
)

// TestRecoverIgnoresStaleCutMark: a cut mark reports a cut only when the
// file is the size that cut left. A mark beside a whole file (a mark
// whose removal failed, or left by an older file of the same name), or
// beside a file not cut yet (the size before the cut: a recovery in
// another process between its mark and its cut), reports no cut and the
// file is unchanged; beside an indexed file, which recovery does not
// lock, the mark is left where it is.
func TestRecoverIgnoresStaleCutMark(t *testing.T) {
	for _, tc := range []struct {
		name string
		mark func(size int64) string
	}{
		{"a cut that never was", func(int64) string { return "99999999 5\n" }},
		{"a cut not made yet", func(size int64) string { return fmt.Sprintf("%d %d\n", size, size-20) }},
		{"damaged", func(int64) string { return "12" }},
	} {
		for _, indexed := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, indexed %v", tc.name, indexed), func(t *testing.T) {
				dir := t.TempDir()
				path, b, _ := writeFive(t, dir)
				base := strings.TrimSuffix(path, ".warc.gz")
				if indexed {
					lines, err := warc.IndexFile(path)
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(base+".cdxj", []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if err := os.WriteFile(base+".cut", []byte(tc.mark(int64(len(b)))), 0o644); err != nil {
					t.Fatal(err)
				}
				w := warc.OpenWriter(t, warc.Options{Dir: dir})
				got := w.Recovered()
				if len(w.Unrecovered()) != 0 || indexed && len(got) != 0 || !indexed && (len(got) != 1 || got[0].Cut != 0) {
					t.Errorf("recovered %v, unrecovered %v; want no cut reported (the unindexed file indexed whole)", got, w.Unrecovered())
				}
				if size(t, path) != int64(len(b)) {
					t.Errorf("file now %d bytes, want %d", size(t, path), len(b))
				}
				if _, err := os.Stat(base + ".cut"); indexed && err != nil {
					t.Errorf("mark removed without the file's lock: %v", err)
				}
			})
		}
	}
}
