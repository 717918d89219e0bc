package storage_test

import (
	"context"
	"io/fs"
	"log/slog"
	"math"
	"path"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ladderbot/ladderbot/internal/testdb"
	"github.com/ladderbot/ladderbot/ladder"
	"github.com/ladderbot/ladderbot/migrations"
	"github.com/ladderbot/ladderbot/storage"
)

// latestMigration is the highest version among the embedded migrations,
// the version a fresh database migrates to.
func latestMigration(t testing.TB) int64 {
	t.Helper()
	names, err := fs.Glob(migrations.SQLite, "sqlite/*.sql")
	if err != nil || len(names) == 0 {
		t.Fatalf("Glob(migrations) = %v, %v", names, err)
	}
	var v int64
	for _, n := range names {
		num, _, _ := strings.Cut(path.Base(n), "_")
		x, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			t.Fatalf("migration %s: %v", n, err)
		}
		v = max(v, x)
	}
	return v
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestStore(t *testing.T) {
	suite(t, map[string]func(t *testing.T, b string){
		"migrate/fresh and again": func(t *testing.T, b string) {
			dsn := testdb.DSN(t, b)
			ctx := context.Background()
			for i := range 2 {
				v, err := storage.Migrate(ctx, dsn, slog.New(slog.DiscardHandler))
				if want := latestMigration(t); err != nil || v != want {
					t.Fatalf("Migrate() run %d = %d, %v, want %d, nil", i+1, v, err, want)
				}
			}
			db, err := storage.Open(ctx, dsn, nil)
			if err != nil {
				t.Fatalf("Open() after migrate = %v", err)
			}
			defer db.Close()
			for _, table := range []string{"guilds", "queues", "seasons", "players", "ratings", "matches", "match_players",
				"rating_changes", "season_results", "disputes", "queue_entries", "queue_entry_members", "party_invites",
				"queue_bans", "audit_log", "job_runs", "api_tokens", "idempotency_keys", "interaction_deliveries",
				"queue_lobby", "ready_checks", "ready_players", "queue_cooldowns", "cancel_votes", "rating_constants"} {
				if !db.Gorm().Migrator().HasTable(table) {
					t.Errorf("HasTable(%q) = false, want true", table)
				}
			}
		},
		"migrate/concurrent open": func(t *testing.T, b string) {
			dsn := testdb.DSN(t, b)
			var wg sync.WaitGroup
			errs := make([]error, 4)
			for i := range errs {
				wg.Go(func() {
					db, err := storage.Open(context.Background(), dsn, nil)
					if err == nil {
						db.Close()
					}
					errs[i] = err
				})
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Errorf("Open() #%d racing = %v, want nil", i, err)
				}
			}
		},
		"guild/ensure creates queue and season once": func(t *testing.T, b string) {
			e := newEnv(t, b)
			g, err := e.svc.EnsureGuild(e.ctx, guild)
			if err != nil {
				t.Fatalf("EnsureGuild() again = %v", err)
			}
			if g.PlacementGames != 5 || g.StaleDays != 30 || g.SeasonCarry != 0.5 || len(g.Divisions) != 5 {
				t.Errorf("EnsureGuild() = %+v, want the specified defaults", g)
			}
			qs, err := e.svc.Queues(e.ctx, guild)
			if err != nil || len(qs) != 1 || qs[0].TeamSize != 2 || qs[0].Model != "team-glicko" {
				t.Errorf("Queues() = %+v, %v, want one 2v2 team-glicko queue", qs, err)
			}
			if n := count(t, e.db, "seasons"); n != 1 {
				t.Errorf("seasons = %d, want 1", n)
			}
		},
		"guild/update settings": func(t *testing.T, b string) {
			e := newEnv(t, b)
			g, _ := e.svc.Guild(e.ctx, guild)
			g.PlacementGames, g.ModeratorRoleID = 3, "300000000000000001"
			g.Divisions = []ladder.Division{{Name: "Low", Min: 0}, {Name: "High", Min: 1600}}
			if _, err := e.svc.UpdateGuild(e.ctx, ladder.Actor{UserID: "1", Moderator: true}, g); err != nil {
				t.Fatalf("UpdateGuild() = %v", err)
			}
			got, _ := e.svc.Guild(e.ctx, guild)
			if got.PlacementGames != 3 || got.ModeratorRoleID != "300000000000000001" || len(got.Divisions) != 2 || got.Divisions[1].Name != "High" {
				t.Errorf("Guild() after update = %+v", got)
			}
			if _, err := e.svc.UpdateGuild(e.ctx, ladder.Actor{UserID: "1"}, g); ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("UpdateGuild(non-moderator) = %v, want forbidden", err)
			}
			g.StaleDays = 0
			if _, err := e.svc.UpdateGuild(e.ctx, ladder.Actor{UserID: "1", Moderator: true}, g); ladder.ErrorCode(err) != ladder.CodeInvalid {
				t.Errorf("UpdateGuild(stale_days 0) = %v, want invalid", err)
			}
		},
		"tokens/create authenticate revoke": func(t *testing.T, b string) {
			e := newEnv(t, b)
			mod := ladder.Actor{UserID: "9", Moderator: true}
			secret, tok, err := e.svc.CreateToken(e.ctx, mod, guild, "game server")
			if err != nil {
				t.Fatalf("CreateToken() = %v", err)
			}
			if _, _, err := e.svc.CreateToken(e.ctx, mod, guild, "game server"); ladder.ErrorCode(err) != ladder.CodeConflict {
				t.Errorf("CreateToken(same name) = %v, want conflict", err)
			}
			got, err := e.svc.AuthenticateToken(e.ctx, guild, secret)
			if err != nil || got.ID != tok.ID {
				t.Errorf("AuthenticateToken() = %+v, %v, want token %d", got, err, tok.ID)
			}
			if _, err := e.svc.AuthenticateToken(e.ctx, "100000000000000002", secret); ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("AuthenticateToken(other guild) = %v, want forbidden", err)
			}
			if _, err := e.svc.AuthenticateToken(e.ctx, guild, secret+"x"); ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("AuthenticateToken(wrong secret) = %v, want forbidden", err)
			}
			var row struct{ Hash []byte }
			e.db.Gorm().Table("api_tokens").Select("hash").Where("id = ?", tok.ID).Scan(&row)
			if string(row.Hash) == secret || len(row.Hash) != 32 {
				t.Errorf("stored hash has %d bytes, want a 32-byte SHA-256 and never the secret", len(row.Hash))
			}
			if done, err := e.svc.RevokeToken(e.ctx, mod, guild, "game server"); err != nil || done {
				t.Errorf("RevokeToken() = %v, %v, want false, nil", done, err)
			}
			if done, err := e.svc.RevokeToken(e.ctx, mod, guild, "game server"); err != nil || !done {
				t.Errorf("RevokeToken() again = %v, %v, want already done", done, err)
			}
			if _, err := e.svc.AuthenticateToken(e.ctx, guild, secret); ladder.ErrorCode(err) != ladder.CodeForbidden {
				t.Errorf("AuthenticateToken(revoked) = %v, want forbidden", err)
			}
			ts, _ := e.svc.ListTokens(e.ctx, guild)
			if len(ts) != 1 || ts[0].RevokedAt.IsZero() {
				t.Errorf("ListTokens() = %+v, want one revoked token", ts)
			}
		},
		"jobs/claim once": func(t *testing.T, b string) {
			db := open(t, b)
			ctx := context.Background()
			var wg sync.WaitGroup
			var mu sync.Mutex
			won := 0
			for range 8 {
				wg.Go(func() {
					ok, err := db.ClaimJob(ctx, "stale", "2026-01-05", newClock().Now())
					if err != nil {
						t.Errorf("ClaimJob() = %v", err)
					}
					if ok {
						mu.Lock()
						won++
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			if won != 1 {
				t.Errorf("ClaimJob() won %d times by 8 racers, want 1", won)
			}
			if err := db.FinishJob(ctx, "stale", "2026-01-05", "", newClock().Now()); err != nil {
				t.Errorf("FinishJob() = %v", err)
			}
		},
	})
}

var _ = near
