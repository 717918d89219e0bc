package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/internal/fakediscord"
)

// botToken is the token the fake Discord accepts and the processes send.
const botToken = "e2e-token"

// proc is one `ladderbot run` process serving one shard.
type proc struct {
	t       testing.TB
	name    string
	env     []string
	shard   [2]int
	logPath string
	cmd     *exec.Cmd
	done    chan struct{}
	starts  int
}

// newProc prepares (does not start) a ladderbot process for shard id of
// count on dsn, talking to fake. Its log is JSON at debug level in the
// test's temporary directory; the test kills it when it ends.
func newProc(t testing.TB, name, dsn string, fake *fakediscord.Server, id, count int) *proc {
	p := &proc{
		t: t, name: name, shard: [2]int{id, count},
		logPath: filepath.Join(t.TempDir(), name+".log"),
		env: []string{
			"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"),
			"DATABASE_URL=" + dsn,
			"DISCORD_TOKEN=" + botToken,
			"DISCORD_API_BASE=" + fake.URL(),
			"SHARD_ID=" + strconv.Itoa(id), "SHARD_COUNT=" + strconv.Itoa(count),
			"HTTP_ADDR=127.0.0.1:0",
			"LOG_FORMAT=json", "LOG_LEVEL=debug",
		},
	}
	t.Cleanup(func() {
		if p.running() {
			p.cmd.Process.Kill()
			<-p.done
		}
		if b, _ := os.ReadFile(p.logPath); bytes.Contains(b, []byte("DATA RACE")) {
			t.Errorf("%s: the race detector found a data race:\n%s", p.name, raceReport(b))
		}
	})
	return p
}

// start runs the process; its output is appended to its log.
func (p *proc) start() {
	p.t.Helper()
	f, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		p.t.Fatal(err)
	}
	fmt.Fprintf(f, "{\"msg\":\"e2e: start %d\"}\n", p.starts)
	p.starts++
	cmd := exec.Command(binary, "run")
	cmd.Env = p.env
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		p.t.Fatalf("start %s: %v", p.name, err)
	}
	p.cmd, p.done = cmd, make(chan struct{})
	go func() { cmd.Wait(); f.Close(); close(p.done) }()
}

func (p *proc) running() bool {
	if p.cmd == nil {
		return false
	}
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// kill sends SIGKILL and waits for the process to die: no shutdown code runs.
func (p *proc) kill() {
	if !p.running() {
		return
	}
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// stop sends SIGTERM and waits for the graceful shutdown; it fails the
// test when the process does not exit 0 within 40 s.
func (p *proc) stop() {
	p.t.Helper()
	if !p.running() {
		return
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(40 * time.Second):
		p.cmd.Process.Kill()
		<-p.done
		p.t.Errorf("%s did not stop within 40 s of SIGTERM", p.name)
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		p.t.Errorf("Got(%s exit code after SIGTERM) = %d, want 0\n%s%s", p.name, code, p.raceReports(), p.tail(20))
	}

}

// waitConnected waits until the fake sees at least n sessions of the
// process's shard connected.
func (p *proc) waitConnected(ctx context.Context, fake *fakediscord.Server, n int) {
	p.t.Helper()
	for fake.ShardSessions(p.shard[0], p.shard[1]) < n {
		if !p.running() {
			p.t.Fatalf("%s exited before connecting:\n%s", p.name, p.tail(30))
		}
		select {
		case <-ctx.Done():
			p.t.Fatalf("%s: no gateway session after waiting:\n%s", p.name, p.tail(30))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// logLine is one line of a process's JSON log.
type logLine map[string]any

// lines returns the process's log lines (every run of it).
func (p *proc) lines() []logLine {
	b, err := os.ReadFile(p.logPath)
	if err != nil {
		return nil
	}
	var out []logLine
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var l logLine
		if json.Unmarshal(sc.Bytes(), &l) == nil {
			out = append(out, l)
		}
	}
	return out
}

// tail returns the last n lines of the log, for failure messages.
// raceReports returns the race detector's reports in the process's log
// (a race makes a -race binary exit 66 at the end, long after the report).
func (p *proc) raceReports() string {
	b, _ := os.ReadFile(p.logPath)
	var out []byte
	for {
		i := bytes.Index(b, []byte("WARNING: DATA RACE"))
		if i < 0 {
			return string(out)
		}
		b = b[i:]
		end := bytes.Index(b, []byte("\n==================\n"))
		if end < 0 {
			end = len(b)
		}
		out = append(out, b[:end]...)
		out = append(out, "\n"...)
		b = b[end:]
	}
}

func (p *proc) tail(n int) string {
	b, _ := os.ReadFile(p.logPath)
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}

// ladderbot runs a one-shot subcommand of the binary on dsn and returns
// its combined output and exit code.
func ladderbot(t testing.TB, dsn string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "DATABASE_URL=" + dsn, "LOG_LEVEL=warn"}
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("ladderbot %v: %v", args, err)
	}
	return string(out), cmd.ProcessState.ExitCode()
}

// verifyClean runs `ladderbot verify` and fails the test unless it exits 0.
func verifyClean(t testing.TB, dsn string) string {
	t.Helper()
	out, code := ladderbot(t, dsn, "verify")
	if code != 0 {
		t.Errorf("Got(ladderbot verify exit code) = %d, want 0; output:\n%s", code, out)
	}
	return out
}

// raceReport returns the first race report of a log, for the failure message.
func raceReport(log []byte) string {
	i := bytes.Index(log, []byte("WARNING: DATA RACE"))
	if i < 0 {
		return ""
	}
	end := bytes.Index(log[i:], []byte("=================="))
	if end < 0 || end > 8000 {
		end = min(len(log)-i, 8000)
	}
	return string(log[i : i+end])
}
