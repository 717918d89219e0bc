package fakediscord

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// session is a gateway session: it outlives its connections so a client can
// resume it and receive the events it missed.
type session struct {
	id         string
	shard      [2]int
	seq        int64
	events     []event // every dispatch, for replay on resume
	conn       *gwConn // nil while disconnected
	identified int     // order of creation, newest wins routing
	intents    int     // the identify's intents: which events it gets
}

type event struct {
	seq  int64
	data []byte
	// ix is the interaction an INTERACTION_CREATE carries, whose
	// Delivered each write of the event sets.
	ix *Interaction
}

// gwConn is one websocket connection. Every frame goes through out to one
// writer goroutine, so frames leave in the order they were queued.
type gwConn struct {
	ws   *websocket.Conn
	out  chan []byte
	done chan struct{}
	once sync.Once
}

func newConn(ws *websocket.Conn) *gwConn {
	c := &gwConn{ws: ws, out: make(chan []byte, 1<<14), done: make(chan struct{})}
	go func() {
		for {
			select {
			case b := <-c.out:
				if c.ws.WriteMessage(websocket.TextMessage, b) != nil {
					c.close()
					return
				}
			case <-c.done:
				return
			}
		}
	}()
	return c
}

func (c *gwConn) write(v any) {
	b, _ := json.Marshal(v)
	c.writeRaw(b)
}

func (c *gwConn) writeRaw(b []byte) {
	select {
	case c.out <- b:
	case <-c.done:
	}
}

// close cuts the connection without a close frame.
func (c *gwConn) close() {
	c.once.Do(func() {
		close(c.done)
		c.ws.UnderlyingConn().Close()
	})
}

// send records a dispatch in the session and writes it if connected. Call
// with mu held.
func (ss *session) send(typ string, d any) { ss.record(typ, d, nil) }

// sendInteraction is send for ix's INTERACTION_CREATE, noting when it
// goes out (Interaction.Delivered). Call with mu held.
func (ss *session) sendInteraction(ix *Interaction, d any) {
	ss.record("INTERACTION_CREATE", d, ix)
}

func (ss *session) record(typ string, d any, ix *Interaction) {
	ss.seq++
	b, _ := json.Marshal(map[string]any{"op": 0, "t": typ, "s": ss.seq, "d": d})
	ss.events = append(ss.events, event{seq: ss.seq, data: b, ix: ix})
	if ss.conn != nil {
		// A failed write means the connection is going away; the client
		// resumes and gets the event replayed.
		ss.conn.writeRaw(b)
		if ix != nil {
			ix.Delivered = time.Now()
		}
	}
}

// sessionFor picks the newest session of the guild's shard, preferring a
// connected one. Call with mu held.
func (s *Server) sessionFor(guildID string) *session {
	g, _ := strconv.ParseUint(guildID, 10, 64)
	var best *session
	for _, ss := range s.sessions {
		count := max(ss.shard[1], 1)
		if int((g>>22)%uint64(count)) != ss.shard[0] {
			continue
		}
		switch {
		case best == nil:
			best = ss
		case (ss.conn != nil) != (best.conn != nil):
			if ss.conn != nil {
				best = ss
			}
		case ss.identified > best.identified:
			best = ss
		}
	}
	return best
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

type gatewayOp struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
}

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := newConn(ws)
	defer c.close()
	silence := s.nextSilence()
	s.mu.Lock()
	hb := s.heartbeatMS
	s.mu.Unlock()
	if silence != SilentHello {
		c.write(map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": hb}})
	}
	var ss *session
	defer func() {
		s.mu.Lock()
		if ss != nil && ss.conn == c {
			ss.conn = nil
		}
		s.notify()
		s.mu.Unlock()
	}()
	for {
		var op gatewayOp
		if err := ws.ReadJSON(&op); err != nil {
			return
		}
		if silence != 0 {
			continue
		}
		switch op.Op {
		case 1:
			s.mu.Lock()
			s.heartbeats++
			s.notify()
			s.mu.Unlock()
			c.write(map[string]any{"op": 11})
		case 2:
			ss = s.identify(c, op.D)
			if ss == nil {
				ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(4004, "Authentication failed."), time.Now().Add(time.Second))
				return
			}
		case 6:
			ss = s.resume(c, op.D)
			if ss == nil {
				// Invalid session, not resumable: the client identifies anew.
				c.write(map[string]any{"op": 9, "d": false})
			}
		}
	}
}

func (s *Server) identify(c *gwConn, raw json.RawMessage) *session {
	var d struct {
		Token   string  `json:"token"`
		Shard   *[2]int `json:"shard"`
		Intents int     `json:"intents"`
	}
	if json.Unmarshal(raw, &d) != nil {
		return nil
	}
	if s.Token != "" && d.Token != "Bot "+s.Token && d.Token != s.Token {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.identifies++
	ss := &session{id: randomToken(), shard: [2]int{0, 1}, conn: c, identified: s.identifies, intents: d.Intents}
	if d.Shard != nil {
		ss.shard = *d.Shard
	}
	s.sessions = append(s.sessions, ss)
	base := "ws" + s.srv.URL[len("http"):] + "/gateway"
	ss.send("READY", map[string]any{
		"v": 10, "session_id": ss.id, "resume_gateway_url": base, "shard": ss.shard,
		"user":        map[string]any{"id": s.BotUserID, "username": "ladderbot", "bot": true},
		"application": map[string]any{"id": s.AppID, "flags": 0},
		"guilds":      []any{},
	})
	s.notify()
	return ss
}

func (s *Server) resume(c *gwConn, raw json.RawMessage) *session {
	var d struct {
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if json.Unmarshal(raw, &d) != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var ss *session
	for _, cand := range s.sessions {
		if cand.id == d.SessionID {
			ss = cand
		}
	}
	if ss == nil {
		return nil
	}
	s.resumes++
	ss.conn = c
	// Replay what the client missed, then RESUMED, in order on this
	// connection (written synchronously under mu so nothing interleaves).
	now := time.Now()
	for _, e := range ss.events {
		if e.seq > d.Seq {
			c.writeRaw(e.data)
			if e.ix != nil {
				e.ix.Delivered = now
			}
		}
	}
	ss.seq++
	b, _ := json.Marshal(map[string]any{"op": 0, "t": "RESUMED", "s": ss.seq, "d": map[string]any{}})
	ss.events = append(ss.events, event{seq: ss.seq, data: b})
	c.writeRaw(b)
	s.notify()
	return ss
}

// Drop cuts every gateway connection without a close frame, as a network
// failure would. Clients are expected to reconnect and resume.
func (s *Server) Drop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ss := range s.sessions {
		if ss.conn != nil {
			ss.conn.close()
			ss.conn = nil
		}
	}
	s.notify()
}

// ForgetSessions makes every existing session unresumable, as Discord does
// after a long outage: a resume then gets "invalid session" (op 9) and the
// client must identify anew.
func (s *Server) ForgetSessions() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ss := range s.sessions {
		ss.id = "forgotten-" + ss.id
	}
}

// GatewayStats counts identifies, resumes and heartbeats so far.
type GatewayStats struct {
	Identifies, Resumes, Heartbeats, Connected int
	// Silenced counts the connections SilenceGateway made silent.
	Silenced int
}

// Gateway returns the gateway counters.
func (s *Server) Gateway() GatewayStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gatewayStats()
}

func (s *Server) gatewayStats() GatewayStats {
	st := GatewayStats{Identifies: s.identifies, Resumes: s.resumes, Heartbeats: s.heartbeats, Silenced: s.silenced}
	for _, ss := range s.sessions {
		if ss.conn != nil {
			st.Connected++
		}
	}
	return st
}

// WaitGateway waits until cond holds for the gateway counters.
func (s *Server) WaitGateway(ctx context.Context, what string, cond func(GatewayStats) bool) error {
	return s.Wait(ctx, what, func() bool { return cond(s.gatewayStats()) })
}

// WaitReady waits until n sessions are connected and have commands
// registered for guild (or globally when guild is "").
func (s *Server) WaitReady(ctx context.Context, guild string) error {
	return s.Wait(ctx, "a connected session with commands registered", func() bool {
		return s.gatewayStats().Connected > 0 && len(s.commands[guild]) > 0
	})
}
