package cli

import (
	"context"
)

// runHelp lists the commands, or shows one command's usage (its flags and
// the environment it reads) on stdout, as COMMAND -h does.
func runHelp(ctx context.Context, e invocation, args []string) error {
	fs := newFlagSet(e, "[command]")
	if err := parseFlags(e, fs, args); err != nil {
		return err
	}
	switch fs.NArg() {
	case 0:
		printUsage(e.stdout)
		return nil
	case 1:
	default:
		return usageError(e, fs, "give one command, not %d", fs.NArg())
	}
	name := fs.Arg(0)
	cmd, ok := commandTable()[name]
	if !ok {
		return usageError(e, fs, "unknown command %q; 'ladderbot help' lists them", name)
	}
	if name == "help" {
		fs.SetOutput(e.stdout)
		fs.Usage()
		return nil
	}
	e.name = name
	return cmd.run(ctx, e, []string{"-h"})
}
