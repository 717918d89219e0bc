package showdown

import "context"

// Verify fetches the replay rawURL names and checks it against a match's
// teams given as linked Showdown names (Battle.Outcome), returning the
// winning team, 1 or 2, or 0 for a tie. A fetch failure or a *Mismatch is
// returned as is: the caller falls back to the normal report and shows why.
// It is the shape commands.Deps.VerifyReplay wants, so main wires it
// without commands importing this package.
func (c *Client) Verify(ctx context.Context, rawURL string, team1, team2 []string) (int, error) {
	r, err := c.Fetch(ctx, rawURL)
	if err != nil {
		return 0, err
	}
	return ParseLog(r.Log).Outcome(team1, team2)
}
