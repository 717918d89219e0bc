package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

// operator is the actor of the command line in the audit log: whoever can
// run ladderbot against the database is trusted like a moderator.
var operator = ladder.Actor{UserID: "cli", Moderator: true}

// runToken manages a guild's API tokens (docs/spec.md 7, 8): create prints a new
// secret once (only its hash is stored), list shows names and states,
// revoke ends a token's use at once.
func runToken(ctx context.Context, e invocation, args []string) error {
	const synopsis = "create --guild ID [--name NAME]\n       ladderbot token list --guild ID [--json]\n       ladderbot token revoke --guild ID NAME"
	// The usage of token lists the flags of every action.
	writeTokenUsage := func(w io.Writer) {
		var sections []flagSection
		for _, action := range []string{"create", "list", "revoke"} {
			fs, _ := tokenFlagSet(e, action)
			sections = append(sections, flagSection{"Flags of token " + action + ":", fs})
		}
		writeUsage(w, e.name, synopsis, sections...)
	}
	usage := func(format string, args ...any) error {
		err := usageError(e, nil, format, args...)
		writeTokenUsage(e.stderr)
		return err
	}
	if len(args) == 0 {
		return usage("give an action: create, list or revoke")
	}
	switch args[0] {
	case "create":
		return tokenCreate(ctx, e, args[1:])
	case "list":
		return tokenList(ctx, e, args[1:])
	case "revoke":
		return tokenRevoke(ctx, e, args[1:])
	case "-h", "-help", "--help":
		writeTokenUsage(e.stdout)
		return nil
	}
	return usage("unknown action %q; want create, list or revoke", args[0])
}

// tokenService opens the database and returns the service over it. Only
// create may start a ladder (the guild's first row); list and revoke read
// one that exists.
func tokenService(ctx context.Context, e invocation, action string) (*ladder.Service, func(), error) {
	open := openExisting
	if action == "create" {
		open = openDB
	}
	db, err := open(ctx, e)
	if err != nil {
		return nil, nil, err
	}
	return ladder.NewService(db, nil), func() { db.Close() }, nil
}

// tokenOptions are the flags of the token actions.
type tokenOptions struct {
	guild  string
	name   string
	asJSON bool
}

// tokenFlagSet returns the flag set of one action (create, list or revoke)
// and where its values land.
func tokenFlagSet(e invocation, action string) (*flag.FlagSet, *tokenOptions) {
	o := &tokenOptions{}
	synopsis := map[string]string{"create": "create --guild ID [--name NAME]", "list": "list --guild ID [--json]", "revoke": "revoke --guild ID NAME"}
	fs := newFlagSet(e, synopsis[action])
	fs.StringVar(&o.guild, "guild", "", "Discord guild ID; required")
	switch action {
	case "create":
		fs.StringVar(&o.name, "name", "", "a name to revoke the token by (default: cli-DATE-TIME)")
	case "list":
		fs.BoolVar(&o.asJSON, "json", false, "print a JSON array")
	}
	return fs, o
}

// tokenAction takes the steps every token action starts with: it parses
// the action's flags, requires --guild and nargs arguments (saying wrong
// otherwise), checks the guild ID, and only then opens the ladder; done
// closes it.
func tokenAction(ctx context.Context, e invocation, action string, args []string, nargs int, wrong string) (*tokenOptions, []string, *ladder.Service, func(), error) {
	fs, o := tokenFlagSet(e, action)
	if err := parseFlags(e, fs, args); err != nil {
		return nil, nil, nil, nil, err
	}
	if o.guild == "" || fs.NArg() != nargs {
		return nil, nil, nil, nil, usageError(e, fs, "%s", wrong)
	}
	if err := checkGuild(e, fs, o.guild); err != nil {
		return nil, nil, nil, nil, err
	}
	svc, done, err := tokenService(ctx, e, action)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return o, fs.Args(), svc, done, nil
}

func tokenCreate(ctx context.Context, e invocation, args []string) error {
	o, _, svc, done, err := tokenAction(ctx, e, "create", args, 0, "--guild is required, and create takes no arguments")
	if err != nil {
		return err
	}
	defer done()
	guild, name := &o.guild, &o.name
	if *name == "" {
		*name = "cli-" + time.Now().UTC().Format("20060102-150405")
	}
	secret, tok, err := svc.CreateToken(ctx, operator, *guild, *name)
	if err != nil {
		return fmt.Errorf("%s", describe(err))
	}
	fmt.Fprintf(e.stderr, "Created API token %q for guild %s. It is shown once, now; store it:\n", tok.Name, tok.GuildID)
	fmt.Fprintln(e.stdout, secret)
	return nil
}

// tokenJSON is one row of `token list --json`.
type tokenJSON struct {
	Name      string     `json:"name"`
	CreatedBy string     `json:"created_by"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at"`
}

func tokenList(ctx context.Context, e invocation, args []string) error {
	o, _, svc, done, err := tokenAction(ctx, e, "list", args, 0, "--guild is required, and list takes no arguments")
	if err != nil {
		return err
	}
	defer done()
	guild, asJSON := &o.guild, &o.asJSON
	toks, err := svc.ListTokens(ctx, *guild)
	if err != nil {
		return fmt.Errorf("%s", describe(err))
	}
	if *asJSON {
		out := make([]tokenJSON, len(toks))
		for i, t := range toks {
			out[i] = tokenJSON{Name: t.Name, CreatedBy: t.CreatedBy, CreatedAt: t.CreatedAt.UTC()}
			if !t.RevokedAt.IsZero() {
				r := t.RevokedAt.UTC()
				out[i].RevokedAt = &r
			}
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if len(toks) == 0 {
		fmt.Fprintf(e.stderr, "Guild %s has no API tokens.\n", *guild)
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tCREATED\tBY\tSTATE")
	for _, t := range toks {
		state := "live"
		if !t.RevokedAt.IsZero() {
			state = "revoked " + t.RevokedAt.UTC().Format(time.DateTime)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.Name, t.CreatedAt.UTC().Format(time.DateTime), t.CreatedBy, state)
	}
	return tw.Flush()
}

func tokenRevoke(ctx context.Context, e invocation, args []string) error {
	o, rest, svc, done, err := tokenAction(ctx, e, "revoke", args, 1, "revoke needs --guild and one token NAME")
	if err != nil {
		return err
	}
	defer done()
	guild := &o.guild
	already, err := svc.RevokeToken(ctx, operator, *guild, rest[0])
	if err != nil {
		return fmt.Errorf("%s", describe(err))
	}
	if already {
		fmt.Fprintf(e.stdout, "API token %q was already revoked.\n", rest[0])
		return nil
	}
	fmt.Fprintf(e.stdout, "Revoked API token %q.\n", rest[0])
	return nil
}

// describe is the message of a coded error, and the whole error otherwise,
// which the operator at a terminal may read in full.
func describe(err error) string {
	if c := ladder.ErrorCode(err); c != ladder.CodeInternal && c != ladder.CodeUnavailable {
		return ladder.ErrorMessage(err)
	}
	return err.Error()
}
