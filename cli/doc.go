// Package cli is ladderbot's command line: one file per verb (run, serve,
// migrate, simulate, eval, tune, balance, export, import, verify, token,
// help, version), the configuration read from the environment (config.go)
// and what the verbs share (flags.go: flag sets, usage and error lines;
// output.go: progress bars and atomic file writes).
//
// It lives apart from package main so the module root holds only main.go,
// and so every verb runs in-process in tests: Main takes the arguments, the
// environment and the two output streams, and returns the exit code.
package cli
