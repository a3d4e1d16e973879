package main

import (
	"bufio"
	"bytes"
	"debug/buildinfo"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// readSyscalls returns how many read system calls process pid has made
// (syscr in /proc/PID/io).
func readSyscalls(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		t.Skipf("cannot read the process's I/O counts: %v", err)
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("syscr: ")); ok {
			n, err := strconv.Atoi(string(v))
			if err != nil {
				t.Fatalf("syscr in /proc/%d/io: %v", pid, err)
			}
			return n
		}
	}
	t.Fatalf("no syscr in /proc/%d/io:\n%s", pid, b)
	return 0
}

// TestBinaryStopsProcessSampler: the built binary links the embedded NATS
// server, whose process sampler reads /proc/PID/stat every second from
// start-up; main stops it. An idle `seedcrawl testweb` must make fewer
// than four read system calls over three seconds (one late in start-up is
// allowed for), where the sampler's two ticks in the window make at least
// two reads each (os.ReadFile reads until end of file). The window is the
// measurement, not an ordering: the sampler's period is a second. A load
// that delays the ticks can only make the test pass.
func TestBinaryStopsProcessSampler(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts read system calls from /proc")
	}
	bin := seedcrawlBinary(t)
	if info, err := buildinfo.ReadFile(bin); err == nil {
		for _, s := range info.Settings {
			if s.Key == "-race" && s.Value == "true" {
				t.Skip("a binary built with the race detector keeps the sampler (GOFLAGS=-race)")
			}
		}
	}
	cmd := exec.Command(bin, "testweb", "--addr", "127.0.0.1:0", "--pages", "20", "--hosts", "1")
	cmd.Dir = t.TempDir()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	// Its seed line, the last of its addresses, means start-up, and the
	// sampler's first read in package init, are over.
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && !bytes.HasPrefix(sc.Bytes(), []byte("seed\t")) {
	}
	if sc.Err() != nil || len(sc.Bytes()) == 0 {
		t.Fatalf("testweb ended before printing its seed: %v", sc.Err())
	}
	before := readSyscalls(t, cmd.Process.Pid)
	time.Sleep(3 * time.Second)
	if n := readSyscalls(t, cmd.Process.Pid) - before; n >= 4 {
		t.Errorf("an idle testweb made %d read system calls in 3s; the process sampler is running", n)
	}
}
