package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ladderbot/ladderbot/ladder"
)

// newFlagSet returns the flag set of e's subcommand. Its usage names the
// subcommand with synopsis, lists the flags with their defaults and the
// environment variables the subcommand reads with theirs, so -h is the
// whole story of one verb.
func newFlagSet(e invocation, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(e.name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { writeUsage(fs.Output(), e.name, synopsis, flagSection{"Flags:", fs}) }
	return fs
}

// flagSection is one list of flags in a usage text, under its title.
type flagSection struct {
	title string
	fs    *flag.FlagSet
}

// writeUsage prints the usage of subcommand name: synopsis, summary, each
// section of flags with their defaults ("none" for an empty one) and the
// environment.
func writeUsage(w io.Writer, name, synopsis string, sections ...flagSection) {
	cmd := commandTable()[name]
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", strings.TrimSpace("ladderbot "+name+" "+synopsis), upperFirst(cmd.summary)+".")
	for _, s := range sections {
		fmt.Fprintf(w, "\n%s\n", s.title)
		n := 0
		s.fs.VisitAll(func(*flag.Flag) { n++ })
		if n == 0 {
			fmt.Fprintln(w, "  none")
			continue
		}
		out := s.fs.Output()
		s.fs.SetOutput(w)
		s.fs.PrintDefaults()
		s.fs.SetOutput(out)
	}
	writeEnvironment(w, cmd.environment)
}

// writeEnvironment lists the variables names with their meaning and
// default, as the Config struct's tags declare them.
func writeEnvironment(w io.Writer, names []string) {
	if len(names) == 0 {
		return
	}
	fmt.Fprintln(w, "\nEnvironment:")
	width := 0
	for _, name := range names {
		width = max(width, len(name))
	}
	for _, name := range names {
		v, ok := variableByName(name)
		if !ok {
			continue
		}
		def := "none"
		if v.Default != "" {
			def = v.Default
		}
		fmt.Fprintf(w, "  %-*s  %s (default: %s)\n", width, v.Name, v.Help, def)
	}
}

// variableByName finds one variable of Config.
func variableByName(name string) (Variable, bool) {
	for _, v := range Variables() {
		if v.Name == name {
			return v, true
		}
	}
	return Variable{}, false
}

// parseFlags parses args. -h prints the usage to stdout (it was asked for)
// and returns flag.ErrHelp; a bad flag prints one error line starting with
// "ladderbot SUBCOMMAND:" and the usage to stderr, and returns errUsage.
func parseFlags(e invocation, fs *flag.FlagSet, args []string) error {
	usage := fs.Usage
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.Usage = usage
	switch {
	case err == nil:
		fs.SetOutput(e.stderr)
		return nil
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(e.stdout)
		fs.Usage()
		fs.SetOutput(e.stderr)
		return err
	default:
		fs.SetOutput(e.stderr)
		return usageError(e, fs, "%v", err)
	}
}

// parseNoArgs is parseFlags for a subcommand that takes flags only: a
// positional argument is a usage error.
func parseNoArgs(e invocation, fs *flag.FlagSet, args []string) error {
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError(e, fs, "unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// usageError prints "ladderbot SUBCOMMAND: message" and the usage to
// stderr, and returns errUsage (exit 2).
func usageError(e invocation, fs *flag.FlagSet, format string, args ...any) error {
	fmt.Fprintf(e.stderr, "ladderbot %s: %s\n", e.name, fmt.Sprintf(format, args...))
	if fs != nil {
		fs.Usage()
	}
	return errUsage
}

// packagePrefixes are the "package: " prefixes errors carry from inside
// the module (STYLE.md). They help a log reader find the code; on the
// error line of a command they are noise.
var packagePrefixes = []string{"ladder: ", "storage: ", "sim: ", "config: ", "rating: ", "matchmaking: "}

// sentence is err as the error line of subcommand shows it: the message of
// a coded error (what a user may act on), and otherwise the whole error
// without the package prefixes and without the verb's own name repeated.
func sentence(name string, err error) string {
	msg := err.Error()
	if c := ladder.ErrorCode(err); c != ladder.CodeInternal && c != ladder.CodeUnavailable {
		msg = ladder.ErrorMessage(err)
	}
	for {
		trimmed := strings.TrimPrefix(msg, name+": ")
		for _, p := range packagePrefixes {
			trimmed = strings.TrimPrefix(trimmed, p)
		}
		if trimmed == msg {
			return msg
		}
		msg = trimmed
	}
}

// upperFirst capitalises the first letter of an ASCII sentence.
func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// checkGuild refuses a --guild that is not a Discord ID (1 to 20 digits,
// the rule the ladder service applies) with a usage error, so a typo is
// caught before a database is opened, created or migrated.
func checkGuild(e invocation, fs *flag.FlagSet, id string) error {
	if id == "" {
		return usageError(e, fs, "--guild is required")
	}
	if len(id) > 20 || strings.Trim(id, "0123456789") != "" {
		return usageError(e, fs, "--guild %q is not a Discord ID: want the guild's 1 to 20 digits", id)
	}
	return nil
}
