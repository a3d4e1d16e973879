package storage

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

// The holder record is a small text file beside the database, <db>.holder,
// that a process holding the database writes to say where its status
// server listens, so that `seedcrawl stats` can ask it instead of failing:
//
//	seedcrawl holder
//	pid 4242
//	addr 127.0.0.1:9100
//
// One "key value" per line after the header; unknown keys are ignored, so
// later versions can add fields, and a record without addr (a holder that
// serves no status) stays valid. The flock on the database, not the
// record, says who holds it: a record is believed only while /proc/locks
// shows its pid holding the file, so one left behind by a killed crawl
// misleads nobody.
const (
	holderSuffix = ".holder"
	holderHeader = "seedcrawl holder"
	// maxHolderRecord bounds what Holder reads of a record: a real one is a
	// few dozen bytes; anything else at that path is not ours.
	maxHolderRecord = 4 << 10
)

// holderRecord is the content of a holder record.
type holderRecord struct {
	pid  int
	addr string
}

// HolderPath returns the name of the holder record of the database at
// path.
func HolderPath(path string) string { return path + holderSuffix }

// Advertise records, beside the database, that this process holds it and
// serves its status on addr (host:port, as the monitor bound it), so that
// Holder in another process can find it. Close removes the record. Call it
// after the server is listening; calling it again replaces the address.
// Errors: ErrReadOnly on a read-only DB (readers share the file and hold
// nothing to advertise), ErrClosed, or the failed write.
func (db *DB) Advertise(addr string) error {
	if db.closed.Load() {
		return ErrClosed
	}
	if db.readOnly {
		return ErrReadOnly
	}
	if addr == "" || strings.ContainsAny(addr, "\r\n \t") {
		return fmt.Errorf("storage: advertise %s: bad address %q", db.path, addr)
	}
	rec := fmt.Sprintf("%s\npid %d\naddr %s\n", holderHeader, os.Getpid(), addr)
	dst := HolderPath(db.path)
	// Write a temporary file and rename it over the record, so a reader
	// sees the old record or the new one, never half of one.
	tmp, err := os.CreateTemp(filepath.Dir(dst), filepath.Base(dst)+".tmp*")
	if err != nil {
		return fmt.Errorf("storage: advertise %s: %w", db.path, err)
	}
	_, werr := tmp.WriteString(rec)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("storage: advertise %s: write %s: %w", db.path, tmp.Name(), err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("storage: advertise %s: %w", db.path, err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("storage: advertise %s: %w", db.path, err)
	}
	db.advertised.Store(true)
	return nil
}

// unadvertise removes the holder record Advertise wrote, if it still names
// this process. Close calls it before releasing the lock.
func (db *DB) unadvertise() error {
	if !db.advertised.Swap(false) {
		return nil
	}
	p := HolderPath(db.path)
	if rec, err := readHolder(p); err != nil || rec.pid != os.Getpid() {
		return nil // gone, or replaced by someone else: not ours to remove
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("storage: remove holder record %s: %w", p, err)
	}
	return nil
}

// Holder reports which process holds the database at path and, when that
// process advertised one, the address of its status server ("" when it
// serves none). ok is false when no process holds the file. On systems
// where the lock's owner cannot be read (anything but Linux) the record is
// taken at its word: a stale one gives an address nobody answers on.
func Holder(path string) (pid int, addr string, ok bool) {
	lockPid, known := lockOwner(path)
	rec, recErr := readHolder(HolderPath(path))
	switch {
	case known && lockPid == 0:
		return 0, "", false
	case known && recErr == nil && rec.pid == lockPid:
		return lockPid, rec.addr, true
	case known:
		return lockPid, "", true
	case recErr == nil:
		return rec.pid, rec.addr, true
	}
	return 0, "", false
}

// holderName names process pid in a lock error: by its command name where
// the system tells it (Linux's /proc), "another seedcrawl" when it is one
// or when it cannot be told. Another program holding the file (a backup
// tool, a script's flock) is then named as itself.
func holderName(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	name := strings.TrimSpace(string(b))
	if err != nil || name == "" || strings.HasPrefix(name, "seedcrawl") || strings.ContainsFunc(name, unicode.IsControl) {
		return "another seedcrawl"
	}
	return name
}

// readHolder reads and parses the holder record at p.
func readHolder(p string) (holderRecord, error) {
	var rec holderRecord
	f, err := os.Open(p)
	if err != nil {
		return rec, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxHolderRecord+1))
	if err != nil {
		return rec, fmt.Errorf("storage: read holder record %s: %w", p, err)
	}
	if len(b) > maxHolderRecord {
		return rec, fmt.Errorf("storage: holder record %s: over %d bytes", p, maxHolderRecord)
	}
	return parseHolder(string(b))
}

// parseHolder parses a holder record's text.
func parseHolder(s string) (holderRecord, error) {
	var rec holderRecord
	sc := bufio.NewScanner(strings.NewReader(s))
	if !sc.Scan() || strings.TrimSpace(sc.Text()) != holderHeader {
		return rec, fmt.Errorf("storage: holder record: first line is not %q", holderHeader)
	}
	for sc.Scan() {
		key, val, _ := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		val = strings.TrimSpace(val)
		switch key {
		case "pid":
			n, err := strconv.Atoi(val)
			if err != nil || n <= 0 {
				return holderRecord{}, fmt.Errorf("storage: holder record: bad pid %q", val)
			}
			rec.pid = n
		case "addr":
			rec.addr = val
		}
	}
	if rec.pid == 0 {
		return holderRecord{}, errors.New("storage: holder record: no pid")
	}
	return rec, nil
}

// lockedError is Open's error when another process or DB holds the file:
// it names the holder's pid and status address when they can be found.
func lockedError(path string) error {
	pid, addr, ok := Holder(path)
	switch {
	case ok && addr != "":
		return fmt.Errorf("%w: %s: locked by another seedcrawl (pid %d, status on http://%s/); stop it or use another --db", ErrLocked, path, pid, addr)
	case ok && pid > 0:
		return fmt.Errorf("%w: %s: locked by %s (pid %d); stop it or use another --db", ErrLocked, path, holderName(pid), pid)
	}
	return fmt.Errorf("%w: %s: locked by another process; stop it or use another --db", ErrLocked, path)
}
