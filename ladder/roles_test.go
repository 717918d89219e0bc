package ladder

import (
	"reflect"
	"testing"
)

func TestDesiredRolesAndChanges(t *testing.T) {
	divs := DefaultDivisions()
	m := map[string]string{"Bronze": "r1", "Silver": "r2", "Gold": "r3", "Diamond": "r5"} // Platinum unmapped
	rows := []Rating{
		{UserID: "a", Display: 1300},
		{UserID: "b", Display: 1560},
		{UserID: "c", Display: 1560, Provisional: true},
		{UserID: "d", Display: 1900, Stale: true},
		{UserID: "e", Display: 1750}, // Platinum: no role
		{UserID: "f", Display: 2000},
	}
	want := map[string]string{"a": "r1", "b": "r3", "f": "r5"}
	got := DesiredRoles(divs, m, rows)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DesiredRoles() = %v, want %v", got, want)
	}
	held := map[string][]string{
		"a": {"r1", "other"},       // right, plus a role the bot does not map
		"b": {"r2"},                // moved up
		"c": {"r3", "r2"},          // provisional now: both go
		"e": {"other"},             // unmapped division, unmapped role: nothing
		"g": {"r5", "r5", "other"}, // left the ladder
	}
	wantC := []RoleChange{
		{UserID: "b", Add: "r3", Remove: []string{"r2"}, Want: "r3"},
		{UserID: "c", Remove: []string{"r2", "r3"}},
		{UserID: "f", Add: "r5", Want: "r5"},
		{UserID: "g", Remove: []string{"r5"}},
	}
	if cs := RoleChanges(m, got, held); !reflect.DeepEqual(cs, wantC) {
		t.Errorf("RoleChanges() = %+v, want %+v", cs, wantC)
	}
	if cs := RoleChanges(m, want, map[string][]string{"a": {"r1"}, "b": {"r3"}, "f": {"r5"}}); len(cs) != 0 {
		t.Errorf("RoleChanges(in sync) = %+v, want none", cs)
	}
}
