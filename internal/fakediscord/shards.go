package fakediscord

import "strconv"

// SetFanOut makes the fake deliver each interaction to every connected
// session of the guild's shard, as Discord does when two processes identify
// as the same shard; the first to call back wins and the others are refused
// with "already acknowledged". Off by default: the newest session gets it.
func (s *Server) SetFanOut(on bool) {
	s.mu.Lock()
	s.fanOut = on
	s.mu.Unlock()
}

// ShardSessions returns how many gateway sessions identified as shard id of
// count are connected now.
func (s *Server) ShardSessions(id, count int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, ss := range s.sessions {
		if ss.conn != nil && ss.shard == [2]int{id, count} {
			n++
		}
	}
	return n
}

// ShardOf is the shard Discord routes a guild's events to:
// (guild_id >> 22) % count.
func ShardOf(guildID string, count int) int {
	g, _ := strconv.ParseUint(guildID, 10, 64)
	return int((g >> 22) % uint64(max(count, 1)))
}

// fanOutTo sends an INTERACTION_CREATE already sent to first to the other
// connected sessions of the same shard when fan-out is on. Call with mu held.
func (s *Server) fanOutTo(first *session, payload map[string]any) {
	if !s.fanOut {
		return
	}
	for _, ss := range s.sessions {
		if ss != first && ss.conn != nil && ss.shard == first.shard {
			ss.send("INTERACTION_CREATE", payload)
		}
	}
}
