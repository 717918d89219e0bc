package sim

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ladderbot/ladderbot/commands"
	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// Cheater kinds of Config.Cheaters (`simulate --cheaters`).
const (
	CheatWinTrade = "win-trade"
	CheatSmurf    = "smurf"
	CheatBoost    = "boost"
)

// ParseCheaters reads `kind=N,…` (kinds win-trade, smurf, boost).
func ParseCheaters(s string) (map[string]int, error) {
	out := map[string]int{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		n, err := strconv.Atoi(v)
		switch {
		case !ok || err != nil:
			return nil, fmt.Errorf("cheaters: %q is not kind=N", part)
		case k != CheatWinTrade && k != CheatSmurf && k != CheatBoost:
			return nil, fmt.Errorf("cheaters: unknown kind %q (want win-trade, smurf or boost)", k)
		case n < 0 || n > 50:
			return nil, fmt.Errorf("cheaters: %s=%d: want 0 to 50", k, n)
		}
		out[k] += n
	}
	return out, nil
}

// IntegrityStats is how the integrity flags did against the injected
// cheaters of a season.
type IntegrityStats struct {
	// Cheaters are the injected cheating accounts: every account of a
	// win-trading ring, each smurf and each boosted account.
	Cheaters int `json:"cheaters"`
	// Found counts the cheaters some flag names.
	Found int `json:"found"`
	// Flags counts all flags raised; FalseFlags those naming no cheater.
	Flags      int `json:"flags"`
	FalseFlags int `json:"false_flags"`
	// ByKind counts flags by kind.
	ByKind map[string]int `json:"by_kind"`
	// Hits are the flags naming a cheater, as kind:names: evidence.
	Hits []string `json:"hits,omitempty"`
	// Missed are the cheaters no flag names, as kind:name.
	Missed []string `json:"missed,omitempty"`
	// False are the false flags, as kind:names.
	False []string `json:"false,omitempty"`
}

// ring is a win-trading ring: 2 × team size accounts meeting at night in
// lobbies of their own, the result sent by the game server (the API).
// A transfer ring lets its first account's team win nine in ten; an
// alternating ring trades wins in turn.
type ring struct {
	members     []*player
	alternating bool
	played      int
}

// injectCheaters adds the cheaters of cfg.Cheaters to the population after
// the ordinary players: smurfs and boosted accounts arrive a third into the
// season (a new account on an established ladder), smurfs 4 skill spreads
// above the mean; each boosted account (half a spread below) queues only
// as a pair with one of the ten best ordinary players, who plays solo
// before it arrives.
func (s *season) injectCheaters() {
	late := s.cfg.Days / 3
	add := func(kind string, skill float64, arrival int) *player {
		i := len(s.players)
		p := &player{id: fmt.Sprintf("%d", 200000000000000000+i), name: playerName(i), skill: skill, arrival: arrival, cheat: kind}
		s.players = append(s.players, p)
		s.byID[p.id] = p
		return p
	}
	for range s.cfg.Cheaters[CheatSmurf] {
		add(CheatSmurf, 1500+4*s.cfg.SkillSD, late+s.rng.IntN(max(1, s.cfg.Days/6)))
	}
	if n := s.cfg.Cheaters[CheatBoost]; n > 0 && s.cfg.TeamSize >= 2 {
		byskill := slices.Clone(s.players[:s.cfg.Players])
		sort.Slice(byskill, func(i, j int) bool { return byskill[i].skill > byskill[j].skill })
		for i := range n {
			var booster *player
			for _, c := range byskill[i:] {
				if c.partner == nil {
					booster = c
					break
				}
			}
			if booster == nil {
				break
			}
			b := add(CheatBoost, 1500-0.5*s.cfg.SkillSD, late)
			booster.partner, b.partner, booster.leader = b, booster, true
		}
	}
	for r := range s.cfg.Cheaters[CheatWinTrade] {
		rg := &ring{alternating: r%2 == 1}
		for range 2 * s.cfg.TeamSize {
			rg.members = append(rg.members, add(CheatWinTrade, 1500+s.cfg.SkillSD*s.rng.NormFloat64(), s.rng.IntN(max(1, s.cfg.Days/5))))
		}
		s.rings = append(s.rings, rg)
	}
	// Rings meet every other night from the fourth day, five games at
	// 03:00–04:00.
	for day := 3; day < s.cfg.Days; day += 2 {
		for i := range s.rings {
			at := s.start.Add(time.Duration(day)*24*time.Hour + 3*time.Hour + time.Duration(i)*10*time.Minute)
			s.push(event{at: at, kind: evRing, day: i})
		}
	}
}

// addLatePlayers adds cfg.LatePlayers ordinary players arriving in the
// smurfs' days (drawn after every other player, so a season without them
// plays as before).
func (s *season) addLatePlayers() {
	late := s.cfg.Days / 3
	for range s.cfg.LatePlayers {
		i := len(s.players)
		p := &player{id: fmt.Sprintf("%d", 200000000000000000+i), name: playerName(i),
			skill: 1500 + s.cfg.SkillSD*s.rng.NormFloat64(), arrival: late + s.rng.IntN(max(1, s.cfg.Days/6))}
		s.players = append(s.players, p)
		s.byID[p.id] = p
	}
}

// playRing records five ring games through the API path (RecordResult).
func (s *season) playRing(ctx context.Context, rg *ring) error {
	n := s.cfg.TeamSize
	var t1, t2 []string
	for i, p := range rg.members {
		if p.inMatch || p.queued {
			return nil // one is busy tonight
		}
		if i < n {
			t1 = append(t1, p.id)
		} else {
			t2 = append(t2, p.id)
		}
	}
	for k := range 5 {
		w := 1
		switch {
		case rg.alternating:
			w = 1 + rg.played%2
		case s.rng.Float64() >= 0.9:
			w = 2
		}
		rg.played++
		_, err := s.svc.RecordResult(ctx, ladder.ResultInput{GuildID: guildID, Queue: s.queue.Name, Team1: t1, Team2: t2, Winner: w,
			PlayedAt: s.clock.Now().Add(-time.Duration(5-k) * time.Minute), Source: "simulate"})
		if err != nil {
			return fmt.Errorf("ring match: %w", err)
		}
		for _, p := range rg.members {
			p.games++
		}
	}
	return nil
}

// measureIntegrity ends the season (on a temporary database) and scores
// the flags the rated writes and the season's end raised (stored counters
// and flags, as in the bot) against the injected cheaters, after proving
// the stored counters equal to a replay of the log.
func (s *season) measureIntegrity(ctx context.Context) (IntegrityStats, error) {
	svc := s.integrity
	// The season ends, as the bot's season job ends it: in that
	// transaction the integrity review judges each new account's first
	// games once more (integrity/review.go). A season kept in a database
	// of the caller's (DSN) is left running, to be served and looked at
	// as it was played; its flags are those raised during the season.
	if s.cfg.DSN == "" {
		if _, err := s.svc.EndSeason(ctx, ladder.System, guildID, 0); err != nil {
			return IntegrityStats{}, fmt.Errorf("end season: %w", err)
		}
	}
	if _, err := svc.Rebuild(ctx); err != nil {
		return IntegrityStats{}, err
	}
	if rep, err := svc.Verify(ctx, guildID); err != nil || len(rep.Diffs) > 0 || rep.Pending > 0 {
		return IntegrityStats{}, fmt.Errorf("integrity counters differ from the replay: %v %v (%d ladders pending)", err, rep.Diffs, rep.Pending)
	}
	flags, err := svc.Flags(ctx, guildID, true, 100000)
	if err != nil {
		return IntegrityStats{}, err
	}
	st := IntegrityStats{ByKind: map[string]int{}, Flags: len(flags)}
	found := map[string]bool{}
	for _, f := range flags {
		st.ByKind[f.Kind]++
		hit := false
		for _, u := range f.Subjects {
			if p := s.byID[u]; p != nil && p.cheat != "" {
				hit, found[u] = true, true
			}
		}
		var names []string
		for _, u := range f.Subjects {
			if p := s.byID[u]; p != nil {
				names = append(names, fmt.Sprintf("%s (skill %.0f)", p.name, p.skill))
			}
		}
		line := f.Kind + ":" + strings.Join(names, "+") + ": " + commands.EvidenceText(i18n.English(), f.Evidence)
		if hit {
			st.Hits = append(st.Hits, line)
		} else {
			st.FalseFlags++
			st.False = append(st.False, line)
		}
	}
	for _, p := range s.players {
		if p.cheat == "" || p.games == 0 {
			continue
		}
		st.Cheaters++
		if found[p.id] {
			st.Found++
		} else {
			st.Missed = append(st.Missed, p.cheat+":"+p.name)
		}
	}
	return st, nil
}
