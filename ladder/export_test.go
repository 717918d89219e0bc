package ladder

import (
	"context"

	"github.com/ladderbot/ladderbot/ladder/rating"
)

// AdoptForTest records params as queue q's constants exactly as an adopted
// self-tuning round does (adopt), without running the round: the
// concurrency tests adopt many times while results are recorded.
func AdoptForTest(ctx context.Context, s *Service, q Queue, params map[string]float64) error {
	cur, err := rating.ResolveParams(q.Model, q.Params)
	if err != nil {
		return err
	}
	next, err := rating.ResolveParams(q.Model, params)
	if err != nil {
		return err
	}
	p := TuneProposal{Queue: q, SelfTuneResult: rating.SelfTuneResult{Current: cur, Candidate: next}}
	return s.adopt(ctx, Actor{UserID: SchedulerActor, Moderator: true}, p, "season")
}
