package cli

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// runVersion prints what this binary is built from (module version, VCS
// revision, Go version), so an operator can say which build runs.
func runVersion(ctx context.Context, e invocation, args []string) error {
	fs := newFlagSet(e, "")
	if err := parseNoArgs(e, fs, args); err != nil {
		return err
	}
	info, _ := debug.ReadBuildInfo() // nil when not available
	writeVersion(e.stdout, info)
	return nil
}

// writeVersion prints the build information; info is nil in a binary built
// without module support, which still knows its Go version.
//
//	ladderbot (devel)
//	revision 300762e… (modified), committed 2026-11-23T19:00:00Z
//	go1.26.8 linux/amd64
func writeVersion(w io.Writer, info *debug.BuildInfo) {
	version, goVersion := "unknown", runtime.Version()
	settings := map[string]string{}
	if info != nil {
		if info.Main.Version != "" {
			version = info.Main.Version
		}
		if info.GoVersion != "" {
			goVersion = info.GoVersion
		}
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
		}
	}
	fmt.Fprintf(w, "ladderbot %s\n", version)
	if rev := settings["vcs.revision"]; rev != "" {
		line := "revision " + rev
		if settings["vcs.modified"] == "true" {
			line += " (modified)"
		}
		if t := settings["vcs.time"]; t != "" {
			line += ", committed " + t
		}
		fmt.Fprintln(w, line)
	} else {
		fmt.Fprintln(w, "revision unknown (built without VCS information, as by go run or go test)")
	}
	fmt.Fprintf(w, "%s %s/%s\n", goVersion, runtime.GOOS, runtime.GOARCH)
}
