// Command ladderbot runs a competitive ladder for a Discord community: the
// bot, the web leaderboard and API, the scheduled jobs, and the offline tools
// (simulate, eval, tune, balance, import, export, verify, token). See README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// cli is what every subcommand gets: the validated configuration, the logger
// and where to write. Subcommands read nothing from the process themselves,
// so tests can run them in-process.
type cli struct {
	cfg    Config
	log    *slog.Logger
	stdout io.Writer
	stderr io.Writer
}

// subcommand is one verb of the command line.
type subcommand struct {
	summary string
	run     func(ctx context.Context, e cli, args []string) error
}

// commandTable is the one list of verbs; each lives in its own cmd_*.go file.
func commandTable() map[string]subcommand {
	return map[string]subcommand{
		"run":      {"bot (when DISCORD_TOKEN is set), web/API and scheduled jobs (the default)", runRun},
		"serve":    {"web leaderboard and API only", runServe},
		"migrate":  {"apply database migrations and exit", runMigrate},
		"simulate": {"run a whole season offline on the embedded database", runSimulate},
		"eval":     {"score a rating model on a match CSV", runEval},
		"tune":     {"grid-search a rating model's parameters on a match CSV", runTune},
		"balance":  {"print the optimal split of a lobby's ratings", runBalance},
		"export":   {"write a guild's confirmed matches as CSV", runExport},
		"import":   {"load a match CSV as confirmed matches of a guild", runImport},
		"verify":   {"replay the match log and compare with stored ratings", runVerify},
		"token":    {"create, list or revoke API tokens", runToken},
	}
}

// errUsage marks a command-line mistake: usage has been printed, exit 2.
var errUsage = errors.New("usage")

func main() {
	os.Exit(realMain(os.Args[1:], os.Environ(), os.Stdout, os.Stderr))
}

// realMain parses the command line and the environment, runs one subcommand
// until it finishes or a signal arrives, and returns the exit code.
func realMain(args, environ []string, stdout, stderr io.Writer) int {
	name, rest := "run", args
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		name, rest = args[0], args[1:]
	} else if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		printUsage(stdout)
		return 0
	}
	cmd, ok := commandTable()[name]
	if !ok {
		fmt.Fprintf(stderr, "ladderbot: unknown command %q\n\n", name)
		printUsage(stderr)
		return 2
	}
	cfg, err := LoadConfig(environ)
	if err != nil {
		fmt.Fprintf(stderr, "ladderbot: %v\n", err)
		return 1
	}
	logger, err := newLogger(cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "ladderbot: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = cmd.run(ctx, cli{cfg: cfg, log: logger, stdout: stdout, stderr: stderr}, rest)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	default:
		fmt.Fprintf(stderr, "ladderbot %s: %v\n", name, err)
		return 1
	}
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: ladderbot [command] [flags]\n\nCommands:")
	table := commandTable()
	names := make([]string, 0, len(table))
	for n := range table {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, table[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'ladderbot COMMAND -h' for a command's flags. Configuration comes from the environment; see README.md.")
}

// newFlagSet returns a flag set that reports errors instead of exiting and
// prints a usage line naming the subcommand.
func newFlagSet(e cli, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "Usage: ladderbot %s %s\n\n%s\n\nFlags:\n", name, synopsis, commandTable()[name].summary)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, mapping a bad flag to errUsage and -h to flag.ErrHelp.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	return nil
}

// parseNoArgs is parseFlags for a subcommand that takes flags only: a
// positional argument is a usage error.
func parseNoArgs(e cli, fs *flag.FlagSet, args []string) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return evalUsage(e, fs, "unexpected argument %q", fs.Arg(0))
	}
	return nil
}

func newLogger(cfg Config, w io.Writer) (*slog.Logger, error) {
	level, err := parseLogLevel(cfg.LogLevel)
	if err != nil {
		return nil, err
	}
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return slog.New(slog.NewTextHandler(w, opts)), nil
}
