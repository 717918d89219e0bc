package joins_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ladderbot/ladderbot/joins"
)

func TestParseHoursRoundTrip(t *testing.T) {
	cases := []struct{ in, want string }{
		{"18:00-23:00", "* 18:00-23:00"},
		{"mon-fri 18:00-23:00; sat,sun 12:00-02:00", "mon-fri 18:00-23:00; sat,sun 12:00-02:00"},
		{"Mon,Tue,Wed 09:30-24:00", "mon-wed 09:30-24:00"},
		{"fri-mon 20:00-04:00", "mon,fri-sun 20:00-04:00"},
		{"daily 00:00-24:00", "* 00:00-24:00"},
		{"off", ""},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			h, err := joins.ParseHours(c.in, "Europe/Berlin")
			if err != nil {
				t.Fatalf("Got(ParseHours(%q)) = %v", c.in, err)
			}
			if got := h.String(); got != c.want {
				t.Errorf("Got(String) = %q, want %q", got, c.want)
			}
			again, err := joins.ParseHours(h.String(), "Europe/Berlin")
			if err != nil || again.String() != h.String() {
				t.Errorf("Got(reparse) = %q, %v, want %q", again.String(), err, h.String())
			}
		})
	}
}

func TestParseHoursRefuses(t *testing.T) {
	cases := []struct{ in, tz, want string }{
		{"mon-fri 18:00", "", "not a time span"},
		{"funday 18:00-20:00", "", `"funday" is not a day`},
		{"18:00-25:00", "", "not a time of day"},
		{"18:60-20:00", "", "not a time of day"},
		{"18:00-18:00", "", "is empty"},
		{"24:00-02:00", "", "cannot start at 24:00"},
		{"mon fri 18:00-20:00", "", "not a window"},
		{"18:00-20:00", "Mars/Olympus", "timezone must be a time zone"},
		{"18:00-20:00", "Local", "timezone must be a place"},
	}
	for _, c := range cases {
		t.Run(c.in+c.tz, func(t *testing.T) {
			_, err := joins.ParseHours(c.in, c.tz)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Got(ParseHours(%q, %q)) = %v, want an error with %q", c.in, c.tz, err, c.want)
			}
		})
	}
}

// TestHoursAt: the state and the next change at times around the
// windows, across midnight and a daylight-saving change.
func TestHoursAt(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	h, err := joins.ParseHours("mon-fri 18:00-23:00; sat 22:00-02:00", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	at := func(y int, m time.Month, d, hh, mm int) time.Time { return time.Date(y, m, d, hh, mm, 0, 0, berlin) }
	cases := []struct {
		name string
		t    time.Time
		open bool
		next time.Time
	}{
		{"monday before", at(2026, 3, 2, 17, 59), false, at(2026, 3, 2, 18, 0)},
		{"monday opening", at(2026, 3, 2, 18, 0), true, at(2026, 3, 2, 23, 0)},
		{"monday closing", at(2026, 3, 2, 23, 0), false, at(2026, 3, 3, 18, 0)},
		{"friday night", at(2026, 3, 6, 23, 30), false, at(2026, 3, 7, 22, 0)},
		{"past saturday midnight", at(2026, 3, 8, 1, 0), true, at(2026, 3, 8, 2, 0)},
		{"sunday", at(2026, 3, 8, 12, 0), false, at(2026, 3, 9, 18, 0)},
		// Clocks go forward on 29 March 2026 at 02:00 in Berlin: the
		// Saturday window ends at 02:00 local, which is 03:00 CEST.
		{"dst night", at(2026, 3, 29, 1, 30), true, time.Date(2026, 3, 29, 1, 0, 0, 0, time.UTC)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := h.At(c.t)
			if st.Open != c.open || !st.Next.Equal(c.next) {
				t.Errorf("Got(At(%v)) = open %v next %v, want open %v next %v", c.t, st.Open, st.Next, c.open, c.next)
			}
		})
	}
	if st := (joins.Hours{}).At(time.Now()); !st.Open || !st.Next.IsZero() {
		t.Errorf("Got(no hours) = %+v, want always open", st)
	}
}

func TestAccountCreated(t *testing.T) {
	// Discord's documented example: 175928847299117063 was made at
	// 2016-04-30 11:18:25.796 UTC.
	got, ok := joins.AccountCreated("175928847299117063")
	want := time.Date(2016, 4, 30, 11, 18, 25, 796000000, time.UTC)
	if !ok || !got.Equal(want) {
		t.Errorf("Got(AccountCreated) = %v, %v, want %v", got, ok, want)
	}
}
