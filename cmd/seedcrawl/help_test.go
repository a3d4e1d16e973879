package main

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestHelpOnStdout runs the binary: help asked for (help, -h, --help,
// CMD -h, help CMD) is the command's result, printed on stdout with exit
// 0 so that `seedcrawl crawl --help | less` pages it, with nothing on
// stderr; a usage error still goes to stderr with exit 2 and nothing on
// stdout: help for an unknown command is the same error as that
// command's -h, and a bare eval shows the usage of both evaluations.
func TestHelpOnStdout(t *testing.T) {
	bin := seedcrawlBinary(t)
	for _, tc := range []struct {
		args     []string
		code     int
		want     string // in stdout for help, in stderr for an error
		wantFlag string // a flag the help lists, or more of the error
	}{
		{[]string{"help"}, 0, "usage: seedcrawl <command>", "crawl"},
		{[]string{"-h"}, 0, "usage: seedcrawl <command>", "crawl"},
		{[]string{"--help"}, 0, "usage: seedcrawl <command>", "crawl"},
		{[]string{"crawl", "-h"}, 0, "usage: seedcrawl crawl", "-max-pages"},
		{[]string{"crawl", "--help"}, 0, "usage: seedcrawl crawl", "-max-pages"},
		{[]string{"crawl", "http://a.test/", "--help"}, 0, "usage: seedcrawl crawl", "-max-pages"},
		{[]string{"help", "crawl"}, 0, "usage: seedcrawl crawl", "-max-pages"},
		{[]string{"help", "help"}, 0, "usage: seedcrawl <command>", "crawl"},
		{[]string{"help", "-h"}, 0, "usage: seedcrawl <command>", "crawl"},
		{[]string{"help", "--help"}, 0, "usage: seedcrawl <command>", "crawl"},
		{[]string{"stats", "--help"}, 0, "usage: seedcrawl stats", "-cycles"},
		{[]string{"run", "-h"}, 0, "usage: seedcrawl run", "-refresh-share"},
		{[]string{"eval", "-h"}, 0, "usage: seedcrawl eval seeds", "eval recrawl"},
		{[]string{"eval", "-help"}, 0, "usage: seedcrawl eval seeds", "eval recrawl"},
		{[]string{"eval", "--help"}, 0, "usage: seedcrawl eval seeds", "eval recrawl"},
		{[]string{"eval", "seeds", "-h"}, 0, "usage: seedcrawl eval seeds", "-plot-logx"},
		{[]string{"eval", "recrawl", "--help"}, 0, "usage: seedcrawl eval recrawl", "-refresh-share"},
		{nil, 2, "usage: seedcrawl <command>", ""},
		{[]string{"crawl", "--max-pagse", "5"}, 2, "seedcrawl crawl -h", ""},
		{[]string{"eval"}, 2, "name what to evaluate", ""},
		{[]string{"eval"}, 2, "usage: seedcrawl eval seeds", "usage: seedcrawl eval recrawl"},
		{[]string{"help", "crawll"}, 2, `seedcrawl: unknown command "crawll"; did you mean crawl?`, "run 'seedcrawl help'"},
		{[]string{"crawll", "-h"}, 2, `seedcrawl: unknown command "crawll"; did you mean crawl?`, "run 'seedcrawl help'"},
		{[]string{"help", "bogus"}, 2, `seedcrawl: unknown command "bogus"`, ""},
	} {
		t.Run(strings.Join(append([]string{"seedcrawl"}, tc.args...), " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(bin, tc.args...)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr.String())
			}
			if tc.code == 0 {
				if stderr.Len() > 0 {
					t.Errorf("help wrote to stderr:\n%s", stderr.String())
				}
				checkContains(t, "stdout", stdout.String(), tc.want, tc.wantFlag)
				return
			}
			if stdout.Len() > 0 {
				t.Errorf("a usage error wrote to stdout:\n%s", stdout.String())
			}
			checkContains(t, "stderr", stderr.String(), tc.want, tc.wantFlag)
		})
	}
}
