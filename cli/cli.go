package cli

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

// invocation is what every subcommand gets: its name (for error lines), the
// validated configuration, the logger and where to write. Subcommands read
// nothing from the process themselves, so tests can run them in-process.
type invocation struct {
	name   string
	cfg    Config
	log    *slog.Logger
	stdout io.Writer
	stderr io.Writer
}

// subcommand is one verb of the command line.
type subcommand struct {
	summary string
	// environment names the variables the verb reads, shown by -h.
	environment []string
	run         func(ctx context.Context, e invocation, args []string) error
}

// logging is the environment every verb reads: it configures the log.
var logging = []string{"LOG_LEVEL", "LOG_FORMAT"}

// database is the environment of a verb that opens the database.
var database = []string{"DATABASE_URL", "LOG_LEVEL", "LOG_FORMAT"}

// commandTable is the one list of verbs; each lives in its own file.
func commandTable() map[string]subcommand {
	return map[string]subcommand{
		"run": {"bot (when DISCORD_TOKEN is set), web/API and scheduled jobs (the default)",
			[]string{"DATABASE_URL", "DISCORD_TOKEN", "DISCORD_API_BASE", "DEV_GUILD_ID", "HTTP_ADDR", "SHARD_ID", "SHARD_COUNT",
				"DISCORD_TRANSPORT", "DISCORD_PUBLIC_KEY", "DISCORD_GATEWAY_TIMEOUT", "API_RATE_LIMIT", "API_RATE_BURST", "SHOWDOWN_REPLAY_BASE",
				"WEBHOOK_ALLOW_HTTP", "OUTGOING_PORTS", "WEBHOOK_TIMEOUT", "WEBHOOK_LEASE", "ROLE_SYNC_INTERVAL", "ROLE_RECONCILE_INTERVAL", "DISCORD_CLIENT_ID", "DISCORD_CLIENT_SECRET",
				"PUBLIC_URL", "LOG_LEVEL", "LOG_FORMAT"}, runRun},
		"serve": {"web leaderboard and API only",
			[]string{"DATABASE_URL", "HTTP_ADDR", "API_RATE_LIMIT", "API_RATE_BURST", "WEBHOOK_ALLOW_HTTP", "OUTGOING_PORTS", "DISCORD_CLIENT_ID",
				"DISCORD_CLIENT_SECRET", "PUBLIC_URL", "DISCORD_TOKEN", "DISCORD_API_BASE", "LOG_LEVEL", "LOG_FORMAT"}, runServe},
		"migrate":  {"apply database migrations and exit", database, runMigrate},
		"simulate": {"run a whole season offline on the embedded database", []string{"HTTP_ADDR", "LOG_LEVEL", "LOG_FORMAT"}, runSimulate},
		"eval":     {"score a rating model on a match CSV", logging, runEval},
		"tune":     {"grid-search a rating model's parameters on a match CSV", logging, runTune},
		"balance":  {"print the optimal split of a lobby's ratings", logging, runBalance},
		"export":   {"write a guild's confirmed matches as CSV", database, runExport},
		"import":   {"load a match CSV as confirmed matches of a guild", database, runImport},
		"verify":   {"replay the match log and compare with stored ratings", database, runVerify},
		"backup":   {"write a consistent snapshot of the whole ladder to a SQLite file", database, runBackup},
		"restore":  {"load a backup into an empty database and verify it", database, runRestore},
		"token":    {"create, list or revoke API tokens", database, runToken},
		"help":     {"show the commands, or one command's flags and environment", nil, runHelp},
		"version":  {"print the version, VCS revision and Go version", nil, runVersion},
	}
}

// errUsage marks a command-line mistake: the error line and the usage have
// been printed, exit 2.
var errUsage = errors.New("usage")

// Main parses the command line and the environment (KEY=VALUE strings as
// os.Environ returns), runs one subcommand until it finishes or a signal
// arrives, and returns the process's exit code: 0 done, 1 failed, 2 a
// command-line mistake.
func Main(args, environ []string, stdout, stderr io.Writer) int {
	name, rest := "run", args
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		name, rest = args[0], args[1:]
	} else if len(args) > 0 {
		switch args[0] {
		case "-h", "--help", "-help":
			printUsage(stdout)
			return 0
		case "--version", "-version":
			name, rest = "version", args[1:]
		}
	}
	cmd, ok := commandTable()[name]
	if !ok {
		fmt.Fprintf(stderr, "ladderbot: unknown command %q.\n\n", name)
		printUsage(stderr)
		return 2
	}
	var cfg Config
	var logger *slog.Logger
	if cmd.environment == nil {
		// help and version read no environment: they work even when it is broken.
		cfg, _ = LoadConfig(nil)
		logger = slog.New(slog.DiscardHandler)
	} else {
		var err error
		if cfg, err = LoadConfig(environ); err != nil {
			fmt.Fprintf(stderr, "ladderbot %s: %s\n", name, sentence(name, err))
			return 1
		}
		if logger, err = newLogger(cfg, stderr); err != nil {
			fmt.Fprintf(stderr, "ladderbot %s: %v\n", name, err)
			return 1
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := cmd.run(ctx, invocation{name: name, cfg: cfg, log: logger, stdout: stdout, stderr: stderr}, rest)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	default:
		fmt.Fprintf(stderr, "ladderbot %s: %s\n", name, sentence(name, err))
		return 1
	}
}

// printUsage lists the commands.
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
	fmt.Fprintln(w, "\nWithout a command, ladderbot runs 'run'. 'ladderbot help COMMAND' or 'ladderbot COMMAND -h'\nshows a command's flags and the environment variables it reads; see docs/commands.md.")
}

// newLogger returns the process's logger as LOG_LEVEL and LOG_FORMAT say.
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
