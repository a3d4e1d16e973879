package storage_test

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/seedcrawl/seedcrawl/storage"
)

// TestMain lets the test binary double as a helper process: the lock and
// crash tests re-execute it with STORAGE_TEST_HELPER set.
func TestMain(m *testing.M) {
	if mode := os.Getenv("STORAGE_TEST_HELPER"); mode != "" {
		os.Exit(helperMain(mode, os.Getenv("STORAGE_TEST_DB")))
	}
	code := m.Run()
	if benchDir != "" {
		_ = os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

func helperMain(mode, path string) int {
	switch mode {
	case "hold":
		db, err := storage.Open(path, nil)
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		fmt.Println("ready")
		// Hold the lock until the parent closes stdin or kills us.
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		_ = db.Close()
		return 0
	case "crash":
		return crashWriter(path)
	}
	fmt.Println("unknown helper mode", mode)
	return 2
}

// helper starts the test binary as a helper process in mode on path.
func helper(t *testing.T, mode, path string) (*exec.Cmd, *bufio.Reader) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "STORAGE_TEST_HELPER="+mode, "STORAGE_TEST_DB="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start helper: %v", err)
	}
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd, bufio.NewReader(stdout)
}

func TestReopenKeepsData(t *testing.T) {
	db, path := openTest(t, nil)
	ids := intern(t, db, storage.NoPage, 0, "http://a.test/", "http://a.test/b")
	var b storage.Batch
	b.AddFetch(storage.Fetch{ID: ids[0], Status: storage.StatusFetched, Code: 200, FetchedAt: at(1)}, links(storage.LinkA, ids[1]))
	commit(t, db, &b)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatalf("second close: %v", err)
	}
	if _, err := db.Page(0); !errors.Is(err, storage.ErrClosed) {
		t.Fatalf("page after close: %v, want ErrClosed", err)
	}
	// A URL no read would have found (a first crawl's db answers such
	// URLs without a transaction).
	if _, err := db.Intern([]string{"http://new.test/"}, storage.NoPage, 0); !errors.Is(err, storage.ErrClosed) {
		t.Fatalf("intern after close: %v, want ErrClosed", err)
	}
	db2 := openPath(t, path, nil)
	if got := db2.NextID(); got != 2 {
		t.Fatalf("NextID after reopen = %d, want 2", got)
	}
	p := mustPage(t, db2, ids[0])
	if p.URL != "http://a.test/" || p.Status != storage.StatusFetched {
		t.Fatalf("page after reopen = %+v", p)
	}
	ls, err := db2.Links(ids[0])
	if err != nil || len(ls) != 1 || ls[0].To != ids[1] {
		t.Fatalf("links after reopen = %v, %v", ls, err)
	}
}

func TestReadOnly(t *testing.T) {
	db, path := openTest(t, nil)
	intern(t, db, storage.NoPage, 0, "http://a.test/")
	commit(t, db, &storage.Batch{})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	ro := openPath(t, path, &storage.Options{ReadOnly: true})
	if _, err := ro.Intern([]string{"http://b.test/"}, storage.NoPage, 0); !errors.Is(err, storage.ErrReadOnly) {
		t.Errorf("intern on read-only: %v, want ErrReadOnly", err)
	}
	if err := ro.Commit(&storage.Batch{}); !errors.Is(err, storage.ErrReadOnly) {
		t.Errorf("commit on read-only: %v, want ErrReadOnly", err)
	}
	if err := ro.SaveRobots("a.test", storage.Robots{}); !errors.Is(err, storage.ErrReadOnly) {
		t.Errorf("save robots on read-only: %v, want ErrReadOnly", err)
	}
	if p := mustPage(t, ro, 0); p.URL != "http://a.test/" {
		t.Errorf("read-only page = %+v", p)
	}
	// Two readers share the lock.
	ro2 := openPath(t, path, &storage.Options{ReadOnly: true})
	if n, err := ro2.Nodes(); err != nil || n != 1 {
		t.Errorf("second reader Nodes = %d, %v", n, err)
	}
	missing := filepath.Join(t.TempDir(), "none.db")
	if _, err := storage.Open(missing, &storage.Options{ReadOnly: true}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("read-only open of a missing file: %v, want ErrNotExist", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("read-only open created %s", missing)
	}
}

func TestLockedInProcess(t *testing.T) {
	_, path := openTest(t, nil)
	start := time.Now()
	_, err := storage.Open(path, nil) // default LockTimeout: 1 s
	elapsed := time.Since(start)
	if !errors.Is(err, storage.ErrLocked) {
		t.Fatalf("second open: %v, want ErrLocked", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, path) {
		t.Errorf("error %q does not name the db %s", msg, path)
	}
	// flock is per open file description, so our own pid holds it.
	if want := fmt.Sprintf("pid %d", os.Getpid()); !strings.Contains(msg, want) {
		t.Errorf("error %q does not name the holder (%s)", msg, want)
	}
	if elapsed > 5*time.Second {
		t.Errorf("second open took %v", elapsed)
	}
	// A reader is refused too while a writer holds the file.
	if _, err := storage.Open(path, &storage.Options{ReadOnly: true, LockTimeout: 50 * time.Millisecond}); !errors.Is(err, storage.ErrLocked) {
		t.Errorf("read-only open of a held db: %v, want ErrLocked", err)
	}
}

func TestLockedByOtherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crawl.db")
	cmd, out := helper(t, "hold", path)
	line, err := out.ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "ready" {
		t.Fatalf("helper said %q, %v", line, err)
	}
	_, err = storage.Open(path, &storage.Options{LockTimeout: 200 * time.Millisecond})
	if !errors.Is(err, storage.ErrLocked) {
		t.Fatalf("open held db: %v, want ErrLocked", err)
	}
	want := "pid " + strconv.Itoa(cmd.Process.Pid)
	if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
		t.Errorf("error %q should name %s and %s", err, path, want)
	}
	// The holder is this test binary, not a seedcrawl: where the system
	// tells a process's name, the error gives it.
	if comm, cerr := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/comm"); cerr == nil {
		if name := strings.TrimSpace(string(comm)); !strings.Contains(err.Error(), "locked by "+name+" (pid") {
			t.Errorf("error %q should name the holder %q", err, name)
		}
	}
	// Killing the holder releases the lock.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	db := openPath(t, path, &storage.Options{LockTimeout: 2 * time.Second})
	if _, err := db.Nodes(); err != nil {
		t.Fatal(err)
	}
}

// writeDB creates a database with n pages and link lists and closes it.
func writeDB(t *testing.T, path string, n int) {
	t.Helper()
	db, err := storage.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := intern(t, db, storage.NoPage, 0, urlsN("w", n)...)
	var b storage.Batch
	for i, id := range ids {
		b.AddFetch(storage.Fetch{ID: id, Status: storage.StatusFetched, Code: 200, FetchedAt: at(i)},
			links(storage.LinkA, ids[(i+1)%n], ids[(i+7)%n]))
	}
	commit(t, db, &b)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestCorruptFiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	garbage := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	tests := []struct {
		name string
		make func(t *testing.T, path string)
		want error
	}{
		{"random bytes", func(t *testing.T, path string) {
			must(t, os.WriteFile(path, garbage(64<<10), 0o644))
		}, storage.ErrCorrupt},
		{"short garbage", func(t *testing.T, path string) {
			must(t, os.WriteFile(path, garbage(100), 0o644))
		}, storage.ErrCorrupt},
		{"text file", func(t *testing.T, path string) {
			must(t, os.WriteFile(path, []byte("https://a.test/\nhttps://b.test/\n"), 0o644))
		}, storage.ErrCorrupt},
		{"truncated", func(t *testing.T, path string) {
			writeDB(t, path, 3000)
			fi, err := os.Stat(path)
			must(t, err)
			must(t, os.Truncate(path, fi.Size()/2))
		}, storage.ErrCorrupt},
		{"foreign bbolt file", func(t *testing.T, path string) {
			bdb, err := bolt.Open(path, 0o644, nil)
			must(t, err)
			must(t, bdb.Update(func(tx *bolt.Tx) error {
				_, err := tx.CreateBucket([]byte("other"))
				return err
			}))
			must(t, bdb.Close())
		}, storage.ErrSchema},
		{"newer schema", func(t *testing.T, path string) {
			writeDB(t, path, 3)
			bdb, err := bolt.Open(path, 0o644, nil)
			must(t, err)
			must(t, bdb.Update(func(tx *bolt.Tx) error {
				return tx.Bucket([]byte("meta")).Put([]byte("schema"), binary.BigEndian.AppendUint32(nil, 99))
			}))
			must(t, bdb.Close())
		}, storage.ErrSchema},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.db")
			tc.make(t, path)
			db, err := storage.Open(path, nil)
			if err == nil {
				_ = db.Close()
				t.Fatalf("open succeeded, want %v", tc.want)
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("open: %v, want %v", err, tc.want)
			}
			t.Logf("open: %v", err)
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name %s", err, path)
			}
			// The failed open released the file and its lock.
			if _, err2 := storage.Open(path, &storage.Options{LockTimeout: 50 * time.Millisecond}); !errors.Is(err2, tc.want) {
				t.Errorf("second open: %v, want %v again", err2, tc.want)
			}
		})
	}
}

// TestCorruptPages overwrites the data pages of a valid database with
// garbage: every read must fail with ErrCorrupt (or succeed), never panic.
func TestCorruptPages(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.db")
			writeDB(t, path, 2000)
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			must(t, err)
			fi, err := f.Stat()
			must(t, err)
			rng := rand.New(rand.NewPCG(seed, 99))
			const page = 4096
			pages := int(fi.Size() / page)
			buf := make([]byte, page)
			for range pages / 3 {
				p := 2 + rng.IntN(pages-2) // keep both meta pages
				for i := range buf {
					buf[i] = byte(rng.Uint32())
				}
				_, err := f.WriteAt(buf, int64(p*page))
				must(t, err)
			}
			must(t, f.Close())

			db, err := storage.Open(path, &storage.Options{LockTimeout: time.Second})
			if err != nil {
				if !errors.Is(err, storage.ErrCorrupt) && !errors.Is(err, storage.ErrSchema) {
					t.Fatalf("open: %v, want ErrCorrupt", err)
				}
				t.Logf("open: %v", err)
				if _, err2 := storage.Open(path, &storage.Options{LockTimeout: 50 * time.Millisecond}); errors.Is(err2, storage.ErrLocked) || err2 == nil {
					t.Errorf("second open: %v, want the same corruption error", err2)
				}
				return
			}
			defer db.Close()
			reads := []func() error{
				func() error { _, err := db.Stats(); return err },
				func() error { return db.EachPage(func(*storage.Page) error { return nil }) },
				func() error { return db.EachLink(func(uint64, []storage.Link) error { return nil }) },
				func() error { _, err := db.Lookup(urlsN("w", 50)); return err },
			}
			failed := false
			for i, read := range reads {
				if err := read(); err != nil {
					failed = true
					t.Logf("read %d: %v", i, err)
					if !errors.Is(err, storage.ErrCorrupt) {
						t.Errorf("read %d: %v, want ErrCorrupt", i, err)
					}
				}
			}
			if !failed {
				t.Logf("garbage missed every page read")
			}
		})
	}
}

func TestVerifyOption(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ok.db")
	writeDB(t, path, 500)
	db := openPath(t, path, &storage.Options{Verify: true})
	if n, err := db.Nodes(); err != nil || n != 500 {
		t.Fatalf("Nodes = %d, %v", n, err)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestOpenEmptyFileReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := storage.Open(path, &storage.Options{ReadOnly: true})
	if !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("Open(empty, read-only) = %v; want ErrCorrupt saying the file is empty", err)
	}
}

// TestOpenMissingDirectory: a new db in a directory that does not exist is
// refused naming the directory, as a not-exist error, and creates nothing.
func TestOpenMissingDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "no", "such")
	_, err := storage.Open(filepath.Join(dir, "x.db"), nil)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "directory "+dir) {
		t.Fatalf("Open in a missing directory = %v; want a not-exist error naming %s", err, dir)
	}
	if _, err := os.Stat(filepath.Dir(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open created %s", filepath.Dir(dir))
	}
}
