package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal (not a pipe, a file or
// /dev/null).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress returns a progress bar on stderr when it is a terminal and
// nil otherwise, so logs and pipes stay clean.
func progress(e invocation, total int, what string) *progressbar.ProgressBar {
	if !isTerminal(e.stderr) {
		return nil
	}
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(e.stderr),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100_000_000),
		progressbar.OptionClearOnFinish())
}

// writeAtomic writes path through a temporary file in the same folder,
// so a failure never leaves a half-written file behind.
func writeAtomic(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// CreateTemp makes the file private; an output file is an ordinary one.
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// count is n with noun, in the plural unless n is 1: "1 ladder", "4 matches".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "ch") || strings.HasSuffix(noun, "s") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// countVerb is count followed by "is" or "are" as n asks: "1 match is".
func countVerb(n int, noun string) string {
	if n == 1 {
		return count(n, noun) + " is"
	}
	return count(n, noun) + " are"
}

// checkOutPath refuses an --out that cannot be written before any work is
// done: a folder (the snapshot used to be taken whole, then its rename
// failed with "file exists"), or a file in a folder that does not exist
// (reported as the temporary file's "open /x/.out.tmp-…", a name the
// operator never gave).
func checkOutPath(flagName, path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s %s is a folder: give the name of the file to write", flagName, path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s %s: the folder %s does not exist: create it or choose another", flagName, path, dir)
	case err != nil:
		return fmt.Errorf("%s %s: %w", flagName, path, err)
	case !fi.IsDir():
		return fmt.Errorf("%s %s: %s is not a folder", flagName, path, dir)
	}
	return nil
}
