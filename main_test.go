package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRealMain(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		env        []string
		wantCode   int
		wantStderr string
		wantStdout string
	}{
		{"help", []string{"-h"}, nil, 0, "", "Commands:"},
		{"unknown command", []string{"frobnicate"}, nil, 2, `unknown command "frobnicate"`, ""},
		{"bad config names variable", []string{"verify"}, []string{"LOG_LEVEL=loud"}, 1, "LOG_LEVEL", ""},
		{"subcommand help", []string{"eval", "-h"}, nil, 0, "Usage: ladderbot eval", ""},
		{"bad flag", []string{"verify", "--nope"}, nil, 2, "flag provided but not defined", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := realMain(tt.args, tt.env, &stdout, &stderr)
			if code != tt.wantCode {
				t.Errorf("realMain(%q) = %d, want %d (stderr %q)", tt.args, code, tt.wantCode, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("realMain(%q) stderr = %q, want it to contain %q", tt.args, stderr.String(), tt.wantStderr)
			}
			if !strings.Contains(stdout.String(), tt.wantStdout) {
				t.Errorf("realMain(%q) stdout = %q, want it to contain %q", tt.args, stdout.String(), tt.wantStdout)
			}
		})
	}
}
