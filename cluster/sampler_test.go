package cluster

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNATSServerVersion: StopProcessSampler writes an unexported variable
// of nats-server's pse package by name (sampler_linux.go), which the
// compiler cannot check. It was checked by reading pse_linux.go of this
// version; when go.mod moves to another, read it again (the variable, its
// type, and that the sampler stops rescheduling when its read fails) and
// update the version here.
func TestNATSServerVersion(t *testing.T) {
	const checked = "v2.15.2"
	out, err := exec.Command("go", "list", "-m", "-f", "{{with .Replace}}{{.Version}}{{else}}{{.Version}}{{end}}",
		"github.com/nats-io/nats-server/v2").Output()
	if err != nil {
		t.Fatalf("go list the nats-server module: %v", err)
	}
	if v := strings.TrimSpace(string(out)); v != checked {
		t.Errorf("nats-server is %s; StopProcessSampler was checked against %s: read server/pse/pse_linux.go again", v, checked)
	}
}
