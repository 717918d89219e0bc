package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/ladderbot/ladderbot/community"
	"github.com/ladderbot/ladderbot/integrity"
	"github.com/ladderbot/ladderbot/ladder"
)

// errDifferences makes verify exit 1 after printing what differs.
var errDifferences = errors.New("stored ratings differ from the replay of the match log")

// runVerify replays every ladder (of one guild with --guild) and compares
// the result with the stored ratings (docs/spec.md 5, 8), and the rows
// derived from the log (integrity counters and flags, predictors' points,
// MVP counts) with their rebuild; any difference exits 1.
func runVerify(ctx context.Context, e invocation, args []string) error {
	fs := newFlagSet(e, "[--guild ID]")
	guild := fs.String("guild", "", "verify one guild only (Discord guild ID); default every guild")
	if err := parseNoArgs(e, fs, args); err != nil {
		return err
	}
	if *guild != "" {
		if err := checkGuild(e, fs, *guild); err != nil {
			return err
		}
	}
	db, err := openExisting(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	rep, err := ladder.NewService(db, nil).Verify(ctx, *guild)
	if err != nil {
		return err
	}
	for _, d := range rep.Diffs {
		fmt.Fprintf(e.stdout, "DIFF guild %s queue %d season %d player %s: %s\n", d.GuildID, d.QueueID, d.SeasonID, d.UserID, d.Problem)
	}
	fmt.Fprintf(e.stdout, "replayed %s, %s, %s: %s\n", count(rep.Ladders, "ladder"), count(rep.Matches, "match"),
		count(rep.Players, "player"), count(len(rep.Diffs), "difference"))
	// The integrity counters (package integrity) are derived from the same
	// log: refold it and compare.
	in := integrity.New(db, nil)
	gs := []string{*guild}
	if *guild == "" {
		all, err := ladder.NewService(db, nil).AllGuilds(ctx)
		if err != nil {
			return err
		}
		gs = gs[:0]
		for _, g := range all {
			gs = append(gs, g.ID)
		}
	}
	var irep integrity.VerifyReport
	var cdiffs, sdiffs []string
	for _, g := range gs {
		r, err := in.Verify(ctx, g)
		if err != nil {
			return err
		}
		for _, d := range r.Diffs {
			fmt.Fprintf(e.stdout, "DIFF guild %s %s\n", g, d)
		}
		irep.Ladders, irep.Matches, irep.Pending = irep.Ladders+r.Ladders, irep.Matches+r.Matches, irep.Pending+r.Pending
		irep.Diffs = append(irep.Diffs, r.Diffs...)
		// The predictors' points and MVP counts, recounted from the raw
		// predictions and votes and the matches' results.
		ds, err := community.Verify(ctx, db, g)
		if err != nil {
			return err
		}
		for _, d := range ds {
			fmt.Fprintf(e.stdout, "DIFF guild %s %s\n", g, d)
		}
		cdiffs = append(cdiffs, ds...)
		// The seasons' partnerships and busiest hours, recounted from
		// the rated matches.
		ds, err = community.VerifyCounts(ctx, db, g)
		if err != nil {
			return err
		}
		for _, d := range ds {
			fmt.Fprintf(e.stdout, "DIFF guild %s %s\n", g, d)
		}
		sdiffs = append(sdiffs, ds...)
	}
	if irep.Ladders > 0 || irep.Pending > 0 {
		fmt.Fprintf(e.stdout, "integrity counters: refolded %s, %s (%s being rebuilt after a correction): %s\n",
			count(irep.Ladders, "ladder"), count(irep.Matches, "match"), count(irep.Pending, "ladder"), count(len(irep.Diffs), "difference"))
	}
	fmt.Fprintf(e.stdout, "predictions and MVP counts: recounted %s: %s\n", count(len(gs), "guild"), count(len(cdiffs), "difference"))
	fmt.Fprintf(e.stdout, "partnerships and busiest hours: recounted %s: %s\n", count(len(gs), "guild"), count(len(sdiffs), "difference"))
	if len(rep.Diffs) > 0 || len(irep.Diffs) > 0 || len(cdiffs) > 0 || len(sdiffs) > 0 {
		return errDifferences
	}
	return nil
}
