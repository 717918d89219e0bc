package storage

import (
	"context"
	"time"

	"github.com/ladderbot/ladderbot/ladder"
)

var _ ladder.DraftStore = (*tx)(nil)

type draftRow struct {
	MatchID  int64 `gorm:"primaryKey"`
	GuildID  string
	QueueID  int64
	State    string
	Deadline *time.Time
}

func (draftRow) TableName() string { return "drafts" }

type draftSeatRow struct {
	MatchID int64  `gorm:"primaryKey"`
	UserID  string `gorm:"primaryKey"`
	Rating  float64
	Team    int
	Pick    int
	Auto    bool
}

func (draftSeatRow) TableName() string { return "draft_seats" }

// optionalTime is nil for the zero time, so "no deadline" is NULL.
func optionalTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
}

// AddDraft implements ladder.DraftStore.
func (t *tx) AddDraft(ctx context.Context, d ladder.Draft) error {
	r := draftRow{MatchID: d.MatchID, GuildID: d.GuildID, QueueID: d.QueueID, State: string(d.State), Deadline: optionalTime(d.Deadline)}
	if err := t.q(ctx).Create(&r).Error; err != nil {
		return wrap("add draft", err, "the match already has a draft")
	}
	seats := make([]draftSeatRow, len(d.Seats))
	for i, s := range d.Seats {
		seats[i] = draftSeatRow{MatchID: d.MatchID, UserID: s.UserID, Rating: s.Rating, Team: s.Team, Pick: s.Pick, Auto: s.Auto}
	}
	return wrap("add draft", t.q(ctx).Create(&seats).Error, "")
}

// Draft implements ladder.DraftStore.
func (t *tx) Draft(ctx context.Context, matchID int64) (ladder.Draft, error) {
	var r draftRow
	if err := t.q(ctx).Where("match_id = ?", matchID).Take(&r).Error; err != nil {
		return ladder.Draft{}, wrap("draft", err, "match %d has no captains draft", matchID)
	}
	var seats []draftSeatRow
	if err := t.q(ctx).Where("match_id = ?", matchID).Order("user_id").Find(&seats).Error; err != nil {
		return ladder.Draft{}, wrap("draft", err, "")
	}
	d := ladder.Draft{MatchID: r.MatchID, GuildID: r.GuildID, QueueID: r.QueueID, State: ladder.DraftState(r.State)}
	if r.Deadline != nil {
		d.Deadline = r.Deadline.UTC()
	}
	ids := make([]string, len(seats))
	for i, s := range seats {
		ids[i] = s.UserID
	}
	names, err := t.PlayerNames(ctx, r.GuildID, ids)
	if err != nil {
		return ladder.Draft{}, err
	}
	for _, s := range seats {
		d.Seats = append(d.Seats, ladder.DraftSeat{UserID: s.UserID, Name: names[s.UserID], Rating: s.Rating, Team: s.Team, Pick: s.Pick, Auto: s.Auto})
	}
	return d, nil
}

// SetDraftPick implements ladder.DraftStore. Only a player not picked yet
// can be picked, so a pick is never recorded twice.
func (t *tx) SetDraftPick(ctx context.Context, matchID int64, s ladder.DraftSeat) error {
	res := t.q(ctx).Model(&draftSeatRow{}).Where("match_id = ? AND user_id = ? AND team = 0", matchID, s.UserID).
		Updates(map[string]any{"team": s.Team, "pick": s.Pick, "auto": s.Auto})
	return wrap("set draft pick", found(res), "%s is not left to pick in match %d", s.UserID, matchID)
}

// SetDraftState implements ladder.DraftStore: a conditional update, so of
// two writers racing only one sees the row changed.
func (t *tx) SetDraftState(ctx context.Context, matchID int64, from, to ladder.DraftState, deadline time.Time) (bool, error) {
	res := t.q(ctx).Model(&draftRow{}).Where("match_id = ? AND state = ?", matchID, string(from)).
		Updates(map[string]any{"state": string(to), "deadline": optionalTime(deadline)})
	if res.Error != nil {
		return false, wrap("set draft state", res.Error, "")
	}
	return res.RowsAffected == 1, nil
}

// DueDrafts implements ladder.DraftStore: only drafts of open matches, so
// a match cancelled mid-draft (a vote, a failed check) is never picked for.
func (t *tx) DueDrafts(ctx context.Context, at time.Time, limit int) ([]int64, error) {
	var ids []int64
	err := t.q(ctx).Table("drafts").Joins("JOIN matches ON matches.id = drafts.match_id").
		Where("drafts.state = ? AND drafts.deadline <= ? AND matches.state = ?", string(ladder.DraftPicking), at.UTC(), string(ladder.StateOpen)).
		Order("drafts.deadline, drafts.match_id").Limit(max(limit, 1)).Pluck("drafts.match_id", &ids).Error
	return ids, wrap("due drafts", err, "")
}
