package storage_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seedcrawl/seedcrawl/storage"
)

// deadPid is above Linux's largest pid: a record naming it is one left
// behind by a crawl that no longer runs.
const deadPid = 999_999_999

func writeRecord(t *testing.T, dbPath, text string) {
	t.Helper()
	if err := os.WriteFile(storage.HolderPath(dbPath), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func needLockOwner(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the lock's owner is read from /proc/locks, which only Linux has")
	}
}

// TestHolderRoundTrip follows a crawl's life: open, advertise, another
// open is refused naming the address, re-advertise, close.
func TestHolderRoundTrip(t *testing.T) {
	needLockOwner(t)
	path := filepath.Join(t.TempDir(), "crawl.db")
	db, err := storage.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	me := os.Getpid()
	steps := []struct {
		name     string
		do       func() error
		pid      int
		addr     string
		ok       bool
		inLocked string // in the ErrLocked message of a second Open
	}{
		{"open, nothing advertised", func() error { return nil }, me, "", true, "(pid " + strconv.Itoa(me) + ")"},
		{"advertised", func() error { return db.Advertise("127.0.0.1:9100") }, me, "127.0.0.1:9100", true,
			"(pid " + strconv.Itoa(me) + ", status on http://127.0.0.1:9100/)"},
		{"advertised again", func() error { return db.Advertise("[::1]:40000") }, me, "[::1]:40000", true,
			"status on http://[::1]:40000/"},
		{"closed", db.Close, 0, "", false, ""},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		pid, addr, ok := storage.Holder(path)
		if pid != st.pid || addr != st.addr || ok != st.ok {
			t.Errorf("%s: Holder = %d %q %v, want %d %q %v", st.name, pid, addr, ok, st.pid, st.addr, st.ok)
		}
		if st.inLocked == "" {
			continue
		}
		_, err := storage.Open(path, &storage.Options{ReadOnly: true, LockTimeout: 20 * time.Millisecond})
		if !errors.Is(err, storage.ErrLocked) || !strings.Contains(err.Error(), st.inLocked) {
			t.Errorf("%s: second open: %v, want ErrLocked with %q", st.name, err, st.inLocked)
		}
	}
	if _, err := os.Stat(storage.HolderPath(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("record still there after Close: %v", err)
	}
	if err := db.Advertise("127.0.0.1:1"); !errors.Is(err, storage.ErrClosed) {
		t.Errorf("Advertise after Close: %v, want ErrClosed", err)
	}
}

// TestHolderRecords checks records Holder must not believe or must read
// despite their form, with this process holding the database.
func TestHolderRecords(t *testing.T) {
	needLockOwner(t)
	me := os.Getpid()
	tests := []struct {
		name   string
		record string // "" for none
		addr   string
	}{
		{"no record", "", ""},
		{"stale record of a killed crawl", "seedcrawl holder\npid " + strconv.Itoa(deadPid) + "\naddr 127.0.0.1:9100\n", ""},
		{"ours, no addr (serves no status)", "seedcrawl holder\npid " + strconv.Itoa(me) + "\n", ""},
		{"ours, keys from a later version", "seedcrawl holder\nversion 9\npid " + strconv.Itoa(me) + "\naddr 127.0.0.1:7\nstarted 2030\n", "127.0.0.1:7"},
		{"ours, CRLF", "seedcrawl holder\r\npid " + strconv.Itoa(me) + "\r\naddr 127.0.0.1:8\r\n", "127.0.0.1:8"},
		{"not a record", "pid " + strconv.Itoa(me) + "\naddr 127.0.0.1:9\n", ""},
		{"bad pid", "seedcrawl holder\npid -3\naddr 127.0.0.1:9\n", ""},
		{"huge", "seedcrawl holder\npid " + strconv.Itoa(me) + "\naddr 127.0.0.1:9\n" + strings.Repeat("x", 8<<10), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, path := openTest(t, nil)
			if tc.record != "" {
				writeRecord(t, path, tc.record)
			}
			pid, addr, ok := storage.Holder(path)
			if pid != me || addr != tc.addr || !ok {
				t.Errorf("Holder = %d %q %v, want %d %q true", pid, addr, ok, me, tc.addr)
			}
		})
	}
}

// TestHolderNobody checks that a record left behind by a killed crawl is
// not believed once nobody holds the database.
func TestHolderNobody(t *testing.T) {
	needLockOwner(t)
	path := filepath.Join(t.TempDir(), "crawl.db")
	writeDB(t, path, 3)
	writeRecord(t, path, "seedcrawl holder\npid "+strconv.Itoa(deadPid)+"\naddr 127.0.0.1:9100\n")
	if pid, addr, ok := storage.Holder(path); ok || pid != 0 || addr != "" {
		t.Errorf("Holder = %d %q %v, want nobody", pid, addr, ok)
	}
	if pid, _, ok := storage.Holder(filepath.Join(t.TempDir(), "missing.db")); ok || pid != 0 {
		t.Errorf("Holder of a missing file = %d %v", pid, ok)
	}
	// Opening it is not disturbed by the stale record, and closing without
	// advertising leaves someone else's record alone.
	db := openPath(t, path, nil)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(storage.HolderPath(path)); err != nil {
		t.Errorf("Close removed a record it did not write: %v", err)
	}
}

// TestHolderOtherProcess: another process holds the database and a stale
// record names a third: Holder and the ErrLocked message name the real
// holder and no address.
func TestHolderOtherProcess(t *testing.T) {
	needLockOwner(t)
	path := filepath.Join(t.TempDir(), "crawl.db")
	writeRecord(t, path, "seedcrawl holder\npid "+strconv.Itoa(deadPid)+"\naddr 127.0.0.1:9100\n")
	cmd, out := helper(t, "hold", path)
	if line, err := out.ReadString('\n'); err != nil || strings.TrimSpace(line) != "ready" {
		t.Fatalf("helper said %q, %v", line, err)
	}
	pid, addr, ok := storage.Holder(path)
	if pid != cmd.Process.Pid || addr != "" || !ok {
		t.Errorf("Holder = %d %q %v, want %d \"\" true", pid, addr, ok, cmd.Process.Pid)
	}
	_, err := storage.Open(path, &storage.Options{ReadOnly: true, LockTimeout: 20 * time.Millisecond})
	if !errors.Is(err, storage.ErrLocked) || strings.Contains(err.Error(), "9100") ||
		!strings.Contains(err.Error(), "pid "+strconv.Itoa(cmd.Process.Pid)) {
		t.Errorf("open: %v, want ErrLocked naming pid %d and no address", err, cmd.Process.Pid)
	}
}

func TestAdvertiseRefused(t *testing.T) {
	db, path := openTest(t, nil)
	for _, addr := range []string{"", "127.0.0.1:1\npid 1", "a b"} {
		if err := db.Advertise(addr); err == nil {
			t.Errorf("Advertise(%q) succeeded", addr)
		}
	}
	if _, err := os.Stat(storage.HolderPath(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused Advertise left a record: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	ro := openPath(t, path, &storage.Options{ReadOnly: true})
	if err := ro.Advertise("127.0.0.1:1"); !errors.Is(err, storage.ErrReadOnly) {
		t.Errorf("Advertise on a read-only DB: %v, want ErrReadOnly", err)
	}
	// A directory that cannot take the record: Advertise fails, the DB
	// stays usable.
	dir := t.TempDir()
	p2 := filepath.Join(dir, "crawl.db")
	db2 := openPath(t, p2, nil)
	if err := os.Mkdir(storage.HolderPath(p2), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(storage.HolderPath(p2), "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := db2.Advertise("127.0.0.1:1"); err == nil || !strings.Contains(err.Error(), "storage: advertise "+p2) {
		t.Errorf("Advertise over a directory: %v, want an error naming the db", err)
	}
	if _, err := db2.Nodes(); err != nil {
		t.Errorf("db unusable after a failed Advertise: %v", err)
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, "*.tmp*")); len(matches) != 0 {
		t.Errorf("temporary files left: %v", matches)
	}
}
