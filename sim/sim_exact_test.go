package sim

import (
	"strings"
	"testing"
)

// TestConfigExact: a library caller's zero fields stand for the defaults,
// but with Exact (as `ladderbot simulate` passes its flags) a zero is the
// value asked for: kept where it is allowed (q_start 0, every game
// matched at once with q_floor 0) and refused where it is not, instead of
// silently becoming the default season.
func TestConfigExact(t *testing.T) {
	loose := Config{}
	if err := loose.fill(); err != nil || loose.Days != 30 || loose.Players != 200 || loose.QStart != 0.8 {
		t.Errorf("Got(fill of a zero Config) = %+v, %v; want the defaults", loose, err)
	}
	exact := Defaults()
	exact.Exact, exact.QStart, exact.QFloor = true, 0, 0
	if err := exact.fill(); err != nil || exact.QStart != 0 || exact.QFloor != 0 {
		t.Errorf("Got(fill with Exact, q_start 0) = q_start %v, %v; want 0 kept", exact.QStart, err)
	}
	for _, tc := range []struct {
		name string
		set  func(*Config)
		want string
	}{
		{"days", func(c *Config) { c.Days = 0 }, "days must be from 1 to 3650, not 0"},
		{"players", func(c *Config) { c.Players = 0 }, "players must be from 4 (two teams) to 100000, not 0"},
		{"team size", func(c *Config) { c.TeamSize = 0 }, "team size must be from 1 to 8, not 0"},
		{"skill", func(c *Config) { c.SkillSD = 0 }, "skill spread must be above 0"},
		{"active", func(c *Config) { c.ActiveProb = 0 }, "active probability must be in (0, 1], not 0"},
		{"games", func(c *Config) { c.GamesPerSession = 0 }, "games per session must be from 1 to 100, not 0"},
	} {
		c := Defaults()
		c.Exact = true
		tc.set(&c)
		if err := c.fill(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Got(fill) = %v, want %q", tc.name, err, tc.want)
		}
	}
}
