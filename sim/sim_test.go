package sim

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/storage"
)

func TestRunSmallSeason(t *testing.T) {
	cfg := Defaults()
	cfg.Players, cfg.Days = 40, 4
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Matches < 20 || !r.Verified || len(r.Waits) != 4*r.Matches {
		t.Errorf("Got(matches, verified, waits) = %d, %v, %d, want ≥ 20, true, 4 per match", r.Matches, r.Verified, len(r.Waits))
	}
	for name, v := range map[string]float64{"mean quality": r.MeanQuality, "brier": r.Brier, "spearman": r.Spearman} {
		if math.IsNaN(v) || v <= 0 || v > 1 {
			t.Errorf("Got(%s) = %v, want in (0, 1]", name, v)
		}
	}
	// the same seed gives the same season
	again, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if again.Matches != r.Matches || again.Brier != r.Brier || again.WaitP95 != r.WaitP95 {
		t.Errorf("Got(rerun) = %d matches, Brier %v, p95 %v, want %d, %v, %v", again.Matches, again.Brier, again.WaitP95, r.Matches, r.Brier, r.WaitP95)
	}
	dir := t.TempDir()
	if err := Plot(dir, r); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"trajectories.png", "final.png", "waits.png", "calibration.png"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || len(b) < 1000 || string(b[1:4]) != "PNG" {
			t.Errorf("Got(%s) = %d bytes, %v, want a PNG", f, len(b), err)
		}
	}
}

func TestRunRejectsBadConfig(t *testing.T) {
	for name, cfg := range map[string]Config{
		"too few players": {Players: 3},
		"no days":         {Days: -1},
		"team too large":  {TeamSize: 9},
		"unknown model":   {Model: "chess"},
		"no-show of 1":    {NoShow: 1},
		"party share 2":   {Parties: 2},
		"parties in 1v1":  {Parties: 0.5, TeamSize: 1},
		"late players -1": {LatePlayers: -1},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Run(context.Background(), cfg); err == nil {
				t.Errorf("Got(Run(%+v)) = nil error, want one", cfg)
			}
		})
	}
}

func TestSpearman(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		want float64
	}{
		{"same order", []float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 1},
		{"reversed", []float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1},
		{"monotone, not linear", []float64{1, 2, 3}, []float64{1, 100, 1000}, 1},
		{"ties share ranks", []float64{1, 2, 2, 3}, []float64{1, 2, 3, 4}, 0.9486832980505138},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := spearman(tc.x, tc.y); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("Got(spearman) = %v, want %v", got, tc.want)
			}
		})
	}
	if got := percentile([]float64{5, 1, 4, 2, 3}, 0.5); got != 3 {
		t.Errorf("Got(percentile(…, 0.5)) = %v, want 3", got)
	}
}

// BenchmarkSeason runs the default season (`ladderbot simulate --seed 1`).
func BenchmarkSeason(b *testing.B) {
	for b.Loop() {
		r, err := Run(context.Background(), Defaults())
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.Matches), "matches")
		b.ReportMetric(r.Spearman, "spearman")
		b.ReportMetric(r.WaitP95, "wait_p95_s")
		b.ReportMetric(r.MeanAbsPMinusHalf, "abs_p_minus_half")
	}
}

// TestNoShowLengthensWaits plays the same season with and without missed
// ready checks: with them some formed matches are cancelled, their ready
// players wait on from their original join, and the ratings still verify.
func TestNoShowLengthensWaits(t *testing.T) {
	cfg := Defaults()
	cfg.Players, cfg.Days = 40, 3
	base, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.NoShow = 0.1
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if base.ReadyFailed != 0 || r.ReadyFailed == 0 || !r.Verified {
		t.Errorf("Got(ready failed without, with no-shows; verified) = %d, %d; %v, want 0, > 0; true", base.ReadyFailed, r.ReadyFailed, r.Verified)
	}
	if !(r.WaitP95 > base.WaitP95) {
		t.Errorf("Got(wait p95 with no-shows) = %.0f s, want above %.0f s without", r.WaitP95, base.WaitP95)
	}
}

// TestCaptainsSeason plays a 3v3 season picked by captains: every formed
// match is drafted to the end (two real picks and a given last one each),
// its drafted teams are the ones played and rated, and the ratings verify.
func TestCaptainsSeason(t *testing.T) {
	cfg := Defaults()
	cfg.Players, cfg.Days, cfg.TeamSize, cfg.PickMode = 48, 3, 3, ladder.PickCaptains
	cfg.DSN = "sqlite:" + filepath.Join(t.TempDir(), "captains.db")
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Matches < 10 || !r.Verified {
		t.Fatalf("Got(matches, verified) = %d, %v, want ≥ 10, true", r.Matches, r.Verified)
	}
	db, err := storage.Open(context.Background(), cfg.DSN, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var done, picks int64
	if err := db.Gorm().Table("drafts").Where("state = ?", string(ladder.DraftDone)).Count(&done).Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Gorm().Table("draft_seats").Where("pick > 0").Count(&picks).Error; err != nil {
		t.Fatal(err)
	}
	if done != int64(r.Matches) || picks != 4*done {
		t.Errorf("Got(drafts done, picks) = %d, %d, want one per match (%d) and 4 picks each", done, picks, r.Matches)
	}
	if _, err := Run(context.Background(), Config{PickMode: "drafted"}); err == nil {
		t.Errorf("Got(Run with pick mode drafted) = nil, want an error")
	}
}

// TestLatePlayers: the late players are added to the population, play no
// cheat, and first play on or after the day the cheaters arrive, a third
// into the season; every one of them plays.
func TestLatePlayers(t *testing.T) {
	cfg := Defaults()
	cfg.Players, cfg.Days, cfg.LatePlayers = 40, 12, 6
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	arrive := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(cfg.Days/3) * 24 * time.Hour)
	late := 0
	for _, f := range r.Players {
		n, err := strconv.ParseInt(f.UserID, 10, 64)
		if err != nil || len(f.Trajectory) == 0 {
			t.Fatalf("Got(player %s %q) with %d points, want a numeric ID and a trajectory", f.Name, f.UserID, len(f.Trajectory))
		}
		if n-200000000000000000 < int64(cfg.Players) {
			continue
		}
		late++
		if at := f.Trajectory[0].At; at.Before(arrive) {
			t.Errorf("Got(late player %s first rated %s), want on or after %s", f.Name, at, arrive)
		}
	}
	if late != 6 || r.Integrity.Cheaters != 0 {
		t.Errorf("Got(%d late players who played, %d cheaters), want 6 and none", late, r.Integrity.Cheaters)
	}
}

// TestCheatersFound: a short season with one ring of each kind and a
// boosted account; the integrity flags, folded by the job's code and
// verified against a replay, name every ring member, and the JSON keys
// say so. Ordinary players of so short a season are never flagged as
// win-traders or boosted (they meet too seldom).
func TestCheatersFound(t *testing.T) {
	cfg := Defaults()
	cfg.Players, cfg.Days = 40, 14
	cfg.Cheaters = map[string]int{CheatWinTrade: 2, CheatBoost: 1}
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	in := r.Integrity
	if in.Cheaters != 9 || in.ByKind["win-trade"] < 8 {
		t.Fatalf("Got(integrity) = %+v, want 9 cheaters and the 8 ring pairs flagged", in)
	}
	for _, m := range in.Missed {
		if strings.HasPrefix(m, CheatWinTrade) {
			t.Errorf("Got(missed) = %v, want every ring member found", in.Missed)
		}
	}
	if r.IntegrityRecall != float64(in.Found)/9 || r.IntegrityFalseFlags != in.FalseFlags {
		t.Errorf("Got(recall, false flags) = %v, %d, want %v, %d", r.IntegrityRecall, r.IntegrityFalseFlags, float64(in.Found)/9, in.FalseFlags)
	}
	for _, f := range in.False {
		if strings.HasPrefix(f, "win-trade") || strings.HasPrefix(f, "boost") {
			t.Errorf("Got(false flag) %s", f)
		}
	}
}

// TestPartiesAreNotBoosting: a season where a third of the players queue
// as premade pairs, each pair a fixed team that plays better together,
// and one boosted account. The pairs start alike and climb together as
// they win; neither partner carried the other, so no pair is flagged as
// boosting (each partner's average rating is above where the other
// began, which once flagged every winning pair both ways), while the
// boosted account, carried by one of the best players from its first
// game, is.
func TestPartiesAreNotBoosting(t *testing.T) {
	// `ladderbot simulate --players 60 --days 21 --parties 0.4 --cheaters
	// boost=1`: the command's party synergy and party rating.
	cfg := Defaults()
	cfg.Players, cfg.Days, cfg.Parties, cfg.PartySynergy, cfg.OrdinalDeviations = 60, 21, 0.4, 100, 3
	cfg.Cheaters = map[string]int{CheatBoost: 1}
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	in := r.Integrity
	if in.Found != 1 {
		t.Errorf("Got(integrity) = %+v, want the boosted account found", in)
	}
	for _, f := range in.False {
		if strings.HasPrefix(f, "boost") {
			t.Errorf("Got(false flag) %s", f)
		}
	}
}

func TestParseCheaters(t *testing.T) {
	got, err := ParseCheaters("win-trade=2, smurf=3,boost=2")
	if err != nil || got[CheatWinTrade] != 2 || got[CheatSmurf] != 3 || got[CheatBoost] != 2 {
		t.Errorf("ParseCheaters() = %v, %v", got, err)
	}
	for _, bad := range []string{"smurf", "smurf=x", "aimbot=1", "boost=51", "boost=-1"} {
		if _, err := ParseCheaters(bad); err == nil {
			t.Errorf("ParseCheaters(%q) = nil error", bad)
		}
	}
}

// TestTemporarySeasonMemoryOrFile plays one season on each temporary
// database the simulator chooses from, in memory and in a file, and
// checks that both play it alike.
func TestTemporarySeasonMemoryOrFile(t *testing.T) {
	cfg := Defaults()
	cfg.Players, cfg.Days = 40, 4
	mem, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	useMemorySeason(t, cfg.Players*cfg.Days-1)
	file, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !mem.Verified || !file.Verified || mem.Matches != file.Matches || mem.Brier != file.Brier || mem.WaitP95 != file.WaitP95 || mem.Spearman != file.Spearman {
		t.Errorf("Got(in memory, in a file) = (%v, %d, %v, %v, %v), (%v, %d, %v, %v, %v), want verified and equal",
			mem.Verified, mem.Matches, mem.Brier, mem.WaitP95, mem.Spearman, file.Verified, file.Matches, file.Brier, file.WaitP95, file.Spearman)
	}
}

// useMemorySeason sets the most player-days a temporary season is held in
// memory for to n until tb ends (0: every temporary season in a file).
func useMemorySeason(tb testing.TB, n int) {
	was := memorySeason
	memorySeason = n
	tb.Cleanup(func() { memorySeason = was })
}

// TestOpenSeasonChoosesByPlayerDays checks which database a temporary
// season gets: in memory up to memorySeason player-days (no journal file),
// a scratch file in WAL mode beyond.
func TestOpenSeasonChoosesByPlayerDays(t *testing.T) {
	for _, tc := range []struct {
		players, days int
		want          string
	}{{200, 30, "memory"}, {2001, 30, "wal"}} {
		cfg := Defaults()
		cfg.Players, cfg.Days = tc.players, tc.days
		db, done, err := openSeason(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		var mode string
		err = db.SQL().QueryRow("PRAGMA journal_mode").Scan(&mode)
		done()
		if err != nil || mode != tc.want {
			t.Errorf("Got(journal mode of a %d × %d season) = %q, %v, want %q", tc.players, tc.days, mode, err, tc.want)
		}
	}
}
