package storage

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// lockOwner returns the pid holding an flock on the file at path, from
// /proc/locks ("1: FLOCK  ADVISORY  WRITE 4242 08:01:1234 0 EOF"); known
// is false when it cannot tell (no such file, no /proc), and then pid is
// 0. Lines are matched on the inode number; the device field can differ
// from stat's on overlay file systems, so it is not compared.
func lockOwner(path string) (pid int, known bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	f, err := os.Open("/proc/locks")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	ino := ":" + strconv.FormatUint(st.Ino, 10)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		// id: FLOCK ADVISORY WRITE pid maj:min:ino start end; blocked
		// waiters have "->" after the id.
		if len(fs) < 6 || fs[1] != "FLOCK" || !strings.HasSuffix(fs[5], ino) {
			continue
		}
		if pid, err := strconv.Atoi(fs[4]); err == nil && pid > 0 {
			return pid, true
		}
	}
	if sc.Err() != nil {
		return 0, false
	}
	return 0, true
}
