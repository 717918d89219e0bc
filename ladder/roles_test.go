package ladder

import (
	"reflect"
	"testing"
)

func TestDesiredRolesAndChanges(t *testing.T) {
	divs := DefaultDivisions()
	m := RoleMapping{
		Divisions: map[string]string{"Bronze": "r1", "Silver": "r2", "Gold": "r3", "Diamond": "r5"}, // Platinum unmapped
		Badges:    map[string]string{"top3": "b3", "top30": "b30"},                                  // top100 unmapped
	}
	rows := []Rating{
		{UserID: "a", Display: 1300},
		{UserID: "b", Display: 1560},
		{UserID: "c", Display: 1560, Provisional: true},
		{UserID: "d", Display: 1900, Stale: true},
		{UserID: "e", Display: 1750}, // Platinum: no role
		{UserID: "f", Display: 2000},
	}
	badges := map[string]string{
		"a": "top30",  // a listed player's badge joins their division role
		"d": "top3",   // stale now: the badge of last season stays
		"h": "top3",   // no row this season: the badge alone
		"i": "top100", // unmapped badge: nothing
	}
	want := map[string][]string{"a": {"b30", "r1"}, "b": {"r3"}, "d": {"b3"}, "f": {"r5"}, "h": {"b3"}}
	got := DesiredRoles(divs, m, rows, badges)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DesiredRoles() = %v, want %v", got, want)
	}
	held := map[string][]string{
		"a": {"r1", "other"},       // division right, badge missing, a role the bot does not map
		"b": {"r2", "b30"},         // moved up, and a badge of an older season
		"c": {"r3", "r2"},          // provisional now: both go
		"d": {"r5", "b3"},          // stale: the division role goes, the badge stays
		"e": {"other"},             // unmapped division, unmapped role: nothing
		"g": {"r5", "r5", "other"}, // left the ladder
	}
	wantC := []RoleChange{
		{UserID: "a", Add: []string{"b30"}, Want: []string{"b30", "r1"}},
		{UserID: "b", Add: []string{"r3"}, Remove: []string{"b30", "r2"}, Want: []string{"r3"}},
		{UserID: "c", Remove: []string{"r2", "r3"}},
		{UserID: "d", Remove: []string{"r5"}, Want: []string{"b3"}},
		{UserID: "f", Add: []string{"r5"}, Want: []string{"r5"}},
		{UserID: "g", Remove: []string{"r5"}},
		{UserID: "h", Add: []string{"b3"}, Want: []string{"b3"}},
	}
	if cs := RoleChanges(m, got, held); !reflect.DeepEqual(cs, wantC) {
		t.Errorf("RoleChanges() = %+v, want %+v", cs, wantC)
	}
	inSync := map[string][]string{"a": {"r1", "b30"}, "b": {"r3"}, "d": {"b3", "other"}, "f": {"r5"}, "h": {"b3"}}
	if cs := RoleChanges(m, want, inSync); len(cs) != 0 {
		t.Errorf("RoleChanges(in sync) = %+v, want none", cs)
	}
}
