package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/ladder/rating"
)

func TestMainExitCodes(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		env        []string
		wantCode   int
		wantStderr string
		wantStdout string
	}{
		{"help", []string{"-h"}, nil, 0, "", "Commands:"},
		{"help command", []string{"help"}, nil, 0, "", "Commands:"},
		{"unknown command", []string{"frobnicate"}, nil, 2, `unknown command "frobnicate"`, ""},
		{"bad config names variable", []string{"verify"}, []string{"LOG_LEVEL=loud"}, 1, "LOG_LEVEL", ""},
		{"subcommand help", []string{"eval", "-h"}, nil, 0, "", "Usage: ladderbot eval"},
		{"bad flag", []string{"verify", "--nope"}, nil, 2, "flag provided but not defined", ""},
		// help and version read no environment, so they work when it is broken.
		{"help with bad config", []string{"help", "run"}, []string{"LOG_LEVEL=loud"}, 0, "", "Usage: ladderbot run"},
		{"version with bad config", []string{"--version"}, []string{"LOG_LEVEL=loud"}, 0, "", "ladderbot "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(tt.args, tt.env, &stdout, &stderr)
			if code != tt.wantCode {
				t.Errorf("Main(%q) = %d, want %d (stderr %q)", tt.args, code, tt.wantCode, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("Main(%q) stderr = %q, want it to contain %q", tt.args, stderr.String(), tt.wantStderr)
			}
			if !strings.Contains(stdout.String(), tt.wantStdout) {
				t.Errorf("Main(%q) stdout = %q, want it to contain %q", tt.args, stdout.String(), tt.wantStdout)
			}
		})
	}
}

// TestHelpPerCommand checks every verb's help: `help NAME` and `NAME -h`
// print the same usage on stdout, naming the verb, its flags and every
// environment variable it reads with the variable's default.
func TestHelpPerCommand(t *testing.T) {
	for name, cmd := range commandTable() {
		t.Run(name, func(t *testing.T) {
			code, help, stderr := runCmd(t, "help", name)
			if code != 0 || stderr != "" {
				t.Fatalf("Got(help %s) = %d, stderr %q, want 0 and nothing on stderr", name, code, stderr)
			}
			if want := "Usage: ladderbot " + name; !strings.HasPrefix(help, want) {
				t.Errorf("Got(help %s) = %q, want it to start with %q", name, help, want)
			}
			if !strings.Contains(help, "\nFlags") {
				t.Errorf("Got(help %s) = %q, want a Flags section", name, help)
			}
			for _, v := range cmd.environment {
				want := v
				if def, ok := variableByName(v); !ok {
					t.Errorf("command %s reads %s, which Config does not declare", name, v)
				} else if def.Default != "" {
					want = v + " " // the name, then its meaning and default on the line
					if !strings.Contains(help, "(default: "+def.Default+")") {
						t.Errorf("Got(help %s) = %q, want the default of %s, %q", name, help, v, def.Default)
					}
				}
				if !strings.Contains(help, "\n  "+want) {
					t.Errorf("Got(help %s) = %q, want a line for %s", name, help, v)
				}
			}
			code, dashH, stderr := runCmd(t, name, "-h")
			if code != 0 || stderr != "" || dashH != help {
				t.Errorf("Got(%s -h) = %d, %q, stderr %q; want 0 and the same text as help %s", name, code, dashH, stderr, name)
			}
		})
	}
}

// TestRunHelpListsEveryVariable: `ladderbot run` reads the whole Config,
// so its help lists every variable the program declares; one added to
// Config and not to run's list fails here.
func TestRunHelpListsEveryVariable(t *testing.T) {
	_, help, _ := runCmd(t, "help", "run")
	for _, v := range Variables() {
		if v.Name == "TEST_DATABASE_URL" {
			continue
		}
		if !strings.Contains(help, "\n  "+v.Name+" ") {
			t.Errorf("Got(help run) lacks %s:\n%s", v.Name, help)
		}
	}
}

// TestHelpNamesWhatOperatorsAsk pins the questions the help of run, migrate
// and simulate must answer: where the database is by default,
// that run and migrate have no flags, and every rating model.
func TestHelpNamesWhatOperatorsAsk(t *testing.T) {
	tests := []struct {
		name string
		want []string
	}{
		{"run", []string{"Flags:\n  none", "DATABASE_URL", "(default: sqlite:ladder.db)", "DISCORD_TOKEN", "HTTP_ADDR", "(default: 127.0.0.1:8080)", "SHARD_COUNT"}},
		{"migrate", []string{"Flags:\n  none", "DATABASE_URL", "(default: sqlite:ladder.db)"}},
		{"serve", []string{"-addr", "HTTP_ADDR", "DATABASE_URL"}},
		{"simulate", append([]string{"-team-size", "-db"}, rating.ModelNames()...)},
		{"import", []string{"-guild", "-data", "DATABASE_URL"}},
		{"token", []string{"token create", "token list", "token revoke", "DATABASE_URL"}},
	}
	for _, tt := range tests {
		code, out, _ := runCmd(t, tt.name, "-h")
		for _, w := range tt.want {
			if code != 0 || !strings.Contains(out, w) {
				t.Errorf("Got(%s -h) = %d, %q, want 0 and %q", tt.name, code, out, w)
			}
		}
	}
	if _, out, _ := runCmd(t, "simulate", "-h"); !strings.Contains(out, "glicko-boost") {
		t.Errorf("Got(simulate -h) = %q, want glicko-boost among the models", out)
	}
}

func TestVersion(t *testing.T) {
	code, out, stderr := runCmd(t, "version")
	if code != 0 || stderr != "" || !strings.HasPrefix(out, "ladderbot ") || !strings.Contains(out, runtime.Version()) {
		t.Errorf("Got(version) = %d, %q, stderr %q; want 0, ladderbot and %s", code, out, stderr, runtime.Version())
	}
	if code, dash, _ := runCmd(t, "--version"); code != 0 || dash != out {
		t.Errorf("Got(--version) = %d, %q, want 0 and %q", code, dash, out)
	}
	if code, _, stderr := runCmd(t, "version", "extra"); code != 2 || !strings.HasPrefix(stderr, "ladderbot version: ") {
		t.Errorf("Got(version extra) = %d, %q, want 2 and an error line", code, stderr)
	}
}

func TestWriteVersion(t *testing.T) {
	platform := runtime.GOOS + "/" + runtime.GOARCH
	tests := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"release", &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-11-23T19:00:00Z"}, {Key: "vcs.modified", Value: "false"}}},
			"ladderbot v1.2.3\nrevision 0123abcd, committed 2026-11-23T19:00:00Z\ngo1.99.1 " + platform + "\n"},
		{"modified checkout", &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.modified", Value: "true"}}},
			"ladderbot (devel)\nrevision 0123abcd (modified)\ngo1.99.1 " + platform + "\n"},
		{"no build info", nil,
			"ladderbot unknown\nrevision unknown (built without VCS information, as by go run or go test)\n" + runtime.Version() + " " + platform + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			writeVersion(&b, tt.info)
			if b.String() != tt.want {
				t.Errorf("Got(writeVersion) = %q, want %q", b.String(), tt.want)
			}
		})
	}
}

// TestErrorLines runs bad invocations of several verbs: each answers with
// one first line that starts with "ladderbot VERB: " and says what is wrong
// without package prefixes.
func TestErrorLines(t *testing.T) {
	dir := t.TempDir()
	env := []string{"DATABASE_URL=sqlite:" + filepath.Join(dir, "ladder.db"), "LOG_LEVEL=error"}
	oneMatch := filepath.Join(dir, "one.csv")
	if err := os.WriteFile(oneMatch, []byte("date,team1_p1,team1_p2,team2_p1,team2_p2,winner\n2024-01-01,a,b,c,d,1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args     []string
		env      []string
		wantCode int
		wantLine string
	}{
		{[]string{"verify", "--nope"}, env, 2, "ladderbot verify: flag provided but not defined: -nope"},
		{[]string{"verify"}, []string{"LOG_LEVEL=loud"}, 1, `ladderbot verify: LOG_LEVEL="loud": want debug, info, warn or error`},
		{[]string{"eval"}, env, 2, "ladderbot eval: --data is required"},
		{[]string{"eval", "--data", smallCSV, "--model", "chess"}, env, 1, `ladderbot eval: unknown rating model "chess"`},
		{[]string{"import", "--guild", "abc", "--data", smallCSV}, env, 2, `ladderbot import: --guild "abc" is not a Discord ID`},
		{[]string{"import", "--guild", "1", "--data", smallCSV, "--queue", "nope"}, env, 1, "ladderbot import: "},
		{[]string{"export"}, env, 2, "ladderbot export: --guild is required"},
		{[]string{"balance", "1500"}, env, 2, "ladderbot balance: give at least two ratings"},
		{[]string{"token", "rotate"}, env, 2, `ladderbot token: unknown action "rotate"`},
		{[]string{"token", "create", "--guild", "x"}, env, 2, `ladderbot token: --guild "x" is not a Discord ID`},
		{[]string{"simulate", "--team-size", "9"}, env, 2, "ladderbot simulate: team size must be from 1 to 8, not 9"},
		{[]string{"help", "frobnicate"}, env, 2, `ladderbot help: unknown command "frobnicate"`},
		{[]string{"migrate", "now"}, env, 2, `ladderbot migrate: unexpected argument "now"`},
		{[]string{"tune", "--data", smallCSV}, env, 2, "ladderbot tune: --grid is required"},
		{[]string{"tune", "--data", oneMatch, "--grid", "k=16:32:16", "--model", "elo"}, env, 1, "ladderbot tune: 1 match is too few to split"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := Main(tt.args, tt.env, &stdout, &stderr)
		line, _, _ := strings.Cut(stderr.String(), "\n")
		if code != tt.wantCode || !strings.HasPrefix(line, tt.wantLine) {
			t.Errorf("Got(ladderbot %s) = %d, first line %q; want %d and a line starting %q", strings.Join(tt.args, " "), code, line, tt.wantCode, tt.wantLine)
		}
		for _, leak := range packagePrefixes {
			if strings.Contains(line, ": "+leak) {
				t.Errorf("Got(ladderbot %s) first line %q, want no package prefix %q", strings.Join(tt.args, " "), line, leak)
			}
		}
	}
}

func TestSentence(t *testing.T) {
	tests := []struct {
		name string
		verb string
		err  error
		want string
	}{
		{"coded error shows its message", "import", ladder.Wrap(ladder.CodeInvalid, os.ErrInvalid, "team 1 has 9 players"), "team 1 has 9 players"},
		{"package and verb prefixes go", "import", errorString("ladder: import: record 3: disk full"), "record 3: disk full"},
		{"other verbs keep a word that is not theirs", "verify", errorString("import: x"), "import: x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sentence(tt.verb, tt.err); got != tt.want {
				t.Errorf("Got(sentence(%q, %q)) = %q, want %q", tt.verb, tt.err, got, tt.want)
			}
		})
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		n          int
		noun, want string
	}{{0, "match", "0 matches"}, {1, "ladder", "1 ladder"}, {2, "ladder", "2 ladders"}, {1, "match", "1 match"}, {3, "difference", "3 differences"}} {
		if got := count(tt.n, tt.noun); got != tt.want {
			t.Errorf("Got(count(%d, %q)) = %q, want %q", tt.n, tt.noun, got, tt.want)
		}
	}
	if got := countVerb(1, "match"); got != "1 match is" {
		t.Errorf("Got(countVerb(1, match)) = %q, want %q", got, "1 match is")
	}
	if got := countVerb(3, "match"); got != "3 matches are" {
		t.Errorf("Got(countVerb(3, match)) = %q, want %q", got, "3 matches are")
	}
}

// TestFlagErrorsOpenNoDatabase runs bad invocations in an empty working
// directory with the default DATABASE_URL (sqlite:ladder.db): each refuses
// its flags before opening a database, so no file appears. The last step,
// a good migrate, shows the default does land in that directory.
func TestFlagErrorsOpenNoDatabase(t *testing.T) {
	data, err := filepath.Abs(smallCSV)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	bad := [][]string{
		{"import", "--guild", "abc", "--data", data},
		{"import", "--data", data},
		{"export", "--guild", "abc"},
		{"export", "--guild", "1", "--season", "-1"},
		{"export", "--guild", "1", "--season", "0"},
		{"verify", "--guild", "abc"},
		{"token", "create", "--guild", "abc"},
		{"token", "list", "--guild", "12", "extra"},
		{"simulate", "--team-size", "9"},
		{"simulate", "--team-size", "9", "--db", "sqlite:ladder.db"},
		{"simulate", "--model", "chess", "--db", "sqlite:ladder.db"},
		{"simulate", "--db", "mysql://x"},
		{"migrate", "now"},
		{"run", "--addr", ":1"},
		{"serve", "extra"},
	}
	for _, args := range bad {
		if code, _, stderr := runCmd(t, args...); code != 2 {
			t.Errorf("Got(ladderbot %s) = %d, %q, want 2", strings.Join(args, " "), code, stderr)
		}
		if files := listDir(t, dir); len(files) > 0 {
			t.Fatalf("Got(files after ladderbot %s) = %q, want none", strings.Join(args, " "), files)
		}
	}
	if code, _, stderr := runCmd(t, "migrate"); code != 0 {
		t.Fatalf("Got(migrate) = %d, %q, want 0", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "ladder.db")); err != nil {
		t.Errorf("Got(ladder.db after migrate) = %v, want the default database in the working directory", err)
	}
}

// TestMigrateLockBesideDatabase migrates a database in another directory:
// the migration lock is made beside the database, never in the working
// directory, and .gitignore ignores it.
func TestMigrateLockBesideDatabase(t *testing.T) {
	gitignore, err := os.ReadFile("../.gitignore")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains("\n"+string(gitignore), "\n*.migrate-lock\n") {
		t.Errorf("Got(.gitignore) = %q, want a *.migrate-lock line", gitignore)
	}
	work, dbDir := t.TempDir(), t.TempDir()
	t.Chdir(work)
	var stdout, stderr bytes.Buffer
	env := []string{"DATABASE_URL=sqlite:" + filepath.Join(dbDir, "ladder.db")}
	if code := Main([]string{"migrate"}, env, &stdout, &stderr); code != 0 {
		t.Fatalf("Got(migrate) = %d, %q, want 0", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dbDir, "ladder.db.migrate-lock")); err != nil {
		t.Errorf("Got(lock beside the database) = %v, want ladder.db.migrate-lock there", err)
	}
	if files := listDir(t, work); len(files) > 0 {
		t.Errorf("Got(files in the working directory) = %q, want none", files)
	}
}

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names
}
