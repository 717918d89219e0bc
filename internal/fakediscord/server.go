package fakediscord

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Server is a fake Discord: REST and gateway on one httptest server. All
// state is behind mu; every change closes the changed channel so waiters
// wake up without sleeping.
type Server struct {
	// AppID is the application ID sent in READY and in interactions.
	AppID string
	// BotUserID is the bot user's ID sent in READY.
	BotUserID string
	// Token is the bot token the fake accepts ("Bot " + Token in REST calls,
	// Token in identify). Empty accepts any.
	Token string

	srv *httptest.Server
	mux *http.ServeMux

	mu           sync.Mutex
	changed      chan struct{}
	lastID       int64 // the last snowflake newID minted
	heartbeatMS  int
	sessions     []*session
	identifies   int
	resumes      int
	heartbeats   int
	silenced     int
	commands     map[string][]CommandDef // "" for global, else guild ID
	overwrites   []Overwrite
	interactions map[string]*Interaction // by ID
	byToken      map[string]*Interaction
	messages     map[string]*Message
	channelLog   []string // IDs of messages posted to channels, in order
	requests     []Request
	unhandled    []Request
	callbackHook func(ix *Interaction)
	fanOut       bool // see SetFanOut
	failures     []failure
	lost         []failure // see LoseResponses (faults.go)
	// silent are the faults of the next gateway connections, in order
	// (SilenceGateway, faults.go).
	silent []GatewaySilence
	// silentUntil and silentUntilFault make every gateway connection
	// accepted before that time silent (SilenceGatewayUntil, faults.go).
	silentUntil      time.Time
	silentUntilFault GatewaySilence

	// Guild roles and member roles (roles.go).
	roleGuilds   map[string]*roleGuild
	buckets      map[string]*bucket
	roleLimit    int
	roleWindow   time.Duration
	holds        []*Hold // requests to keep waiting (hold.go)
	forced429    int
	forcedRetry  time.Duration
	roleRequests int
	role429s     int

	// Channels, threads and voice states (channels.go).
	chans *channelState
	// Message deletion and the message-edit buckets (messages_edit.go).
	editBuckets map[string]*bucket
	editLimit   int
	editWindow  time.Duration
	edit429s    int

	// HTTP interactions (http.go): the endpoint POSTs go to ("" for the
	// gateway), the application's signing key pair, and the client with
	// Discord's 3 s limit for the response.
	endpoint string
	// httpGuilds, when not nil, are the only guilds whose interactions go
	// to endpoint; the others stay on the gateway (RouteHTTP).
	httpGuilds map[string]bool
	// restFaults is the random share of REST calls answered 429 or 500
	// (SetRESTFaults, faults.go).
	restFaults restFaults
	private    ed25519.PrivateKey
	public     ed25519.PublicKey
	client     *http.Client

	// The OAuth2 provider (oauth.go), created lazily.
	oauth *oauthState
}

// failure is an injected REST failure: the next n requests whose path
// contains substr answer status.
type failure struct {
	substr string
	status int
	n      int
}

// Request is one REST call as the fake saw it.
type Request struct {
	Method string
	Path   string
	Status int
	At     time.Time
}

// Overwrite is one bulk overwrite of application commands.
type Overwrite struct {
	GuildID  string // "" for global
	Commands []CommandDef
}

// New starts a fake Discord. Close it when done.
func New() *Server {
	s := &Server{
		AppID:        "900000000000000001",
		BotUserID:    "900000000000000001",
		changed:      make(chan struct{}),
		heartbeatMS:  41250,
		commands:     map[string][]CommandDef{},
		interactions: map[string]*Interaction{},
		byToken:      map[string]*Interaction{},
		messages:     map[string]*Message{},
		client:       newDeliveryClient(),
	}
	var err error
	s.public, s.private, err = ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic("fakediscord: ed25519 key: " + err.Error())
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/{v}/oauth2/applications/{app}", s.serveApplication)
	mux.HandleFunc("GET /gateway", s.serveGateway)
	mux.HandleFunc("GET /gateway/", s.serveGateway)
	mux.HandleFunc("GET /api/{v}/gateway", s.serveGatewayURL)
	mux.HandleFunc("GET /api/{v}/gateway/bot", s.serveGatewayURL)
	mux.HandleFunc("PUT /api/{v}/applications/{app}/commands", s.serveOverwrite)
	mux.HandleFunc("PUT /api/{v}/applications/{app}/guilds/{guild}/commands", s.serveOverwrite)
	mux.HandleFunc("GET /api/{v}/applications/{app}/commands", s.serveCommands)
	mux.HandleFunc("GET /api/{v}/applications/{app}/guilds/{guild}/commands", s.serveCommands)
	mux.HandleFunc("POST /api/{v}/interactions/{id}/{token}/callback", s.serveCallback)
	mux.HandleFunc("POST /api/{v}/webhooks/{app}/{token}", s.serveFollowup)
	mux.HandleFunc("GET /api/{v}/webhooks/{app}/{token}/messages/{msg}", s.serveWebhookMessage)
	mux.HandleFunc("PATCH /api/{v}/webhooks/{app}/{token}/messages/{msg}", s.serveWebhookMessage)
	mux.HandleFunc("DELETE /api/{v}/webhooks/{app}/{token}/messages/{msg}", s.serveWebhookMessage)
	mux.HandleFunc("POST /api/{v}/channels/{channel}/messages", s.serveChannelMessage)
	mux.HandleFunc("PATCH /api/{v}/channels/{channel}/messages/{msg}", s.limitEdits(s.serveChannelMessage))
	mux.HandleFunc("DELETE /api/{v}/channels/{channel}/messages/{msg}", s.serveDeleteMessage)
	s.mux = mux
	s.registerRoleRoutes()
	s.registerChannelRoutes()
	s.registerVoiceRoutes()
	s.registerThreadRoutes()
	s.registerOAuthRoutes()
	s.srv = httptest.NewServer(s.record(mux))
	return s
}

// URL is the base URL to put in DISCORD_API_BASE.
func (s *Server) URL() string { return s.srv.URL }

// Close drops every gateway connection and stops the server.
func (s *Server) Close() {
	s.mu.Lock()
	for _, ss := range s.sessions {
		if ss.conn != nil {
			ss.conn.close()
		}
	}
	s.mu.Unlock()
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Reset forgets every recorded interaction, message and request, keeping
// the gateway sessions and the registered commands: long benchmarks call it
// between rounds so that the fake's records do not count as the bot's memory.
// Handles (Pending) from before a Reset must not be used after it.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.interactions = map[string]*Interaction{}
	s.byToken = map[string]*Interaction{}
	s.messages = map[string]*Message{}
	s.channelLog = nil
	s.requests = nil
	s.unhandled = nil
	for _, ss := range s.sessions {
		// Events before now are delivered; keep only what a resume could need.
		if n := len(ss.events); n > 64 {
			ss.events = append([]event(nil), ss.events[n-64:]...)
		}
	}
	s.notify()
}

// SetHeartbeatInterval sets the interval announced in HELLO to new connections.
func (s *Server) SetHeartbeatInterval(d time.Duration) {
	s.mu.Lock()
	s.heartbeatMS = int(d / time.Millisecond)
	s.mu.Unlock()
}

// OnCallback registers f to run (without the lock) whenever an interaction
// callback arrives; benchmarks use it to collect acknowledgement latencies.
func (s *Server) OnCallback(f func(ix *Interaction)) {
	s.mu.Lock()
	s.callbackHook = f
	s.mu.Unlock()
}

// notify wakes every waiter. Call with mu held.
func (s *Server) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// discordEpoch is the zero of Discord's snowflakes, the first millisecond
// of 2015 in Unix milliseconds.
const discordEpoch = 1420070400000

// newID returns a fresh snowflake minted now (newIDAt).
func (s *Server) newID() string { return s.newIDAt(time.Now()) }

// newIDAt returns a fresh snowflake minted at t, as Discord's are: the
// milliseconds since discordEpoch above 22 low bits, so the ID says when
// it was made (an interaction's ID is when Discord created it, which a
// bot reads to know how much of the 3 s to answer is left). IDs strictly
// increase, whatever the clock does, since the order of messages (and
// paging by before and after) follows them: within one millisecond, and
// after a clock that stepped back, the next ID is the last one plus one.
// Call with mu held.
func (s *Server) newIDAt(t time.Time) string {
	s.lastID = max(s.lastID+1, (t.UnixMilli()-discordEpoch)<<22)
	return strconv.FormatInt(s.lastID, 10)
}

// idTime is when id was minted, from its snowflake bits; false when id is
// not a number.
func idTime(id string) (time.Time, bool) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n < 0 {
		return time.Time{}, false
	}
	return time.UnixMilli(n>>22 + discordEpoch), true
}

// Wait blocks until cond, called with the fake's lock held, returns true, or
// ctx ends. cond must not call the Server's methods.
func (s *Server) Wait(ctx context.Context, what string, cond func() bool) error {
	for {
		s.mu.Lock()
		ok := cond()
		ch := s.changed
		s.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("fakediscord: waiting for %s: %w", what, ctx.Err())
		}
	}
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

// WriteHeader records the status for the request log.
func (w *statusRecorder) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (s *Server) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/gateway") {
			next.ServeHTTP(w, r)
			return
		}
		if s.Token != "" && r.Header.Get("Authorization") != "Bot "+s.Token && !strings.Contains(r.URL.Path, "/webhooks/") && !strings.Contains(r.URL.Path, "/interactions/") && !isOAuthPath(r.URL.Path) {
			s.log(r, http.StatusUnauthorized, true)
			httpError(w, http.StatusUnauthorized, "401: Unauthorized")
			return
		}
		s.awaitHold(r)
		if s.randomFault(w, r) {
			return
		}
		if status := s.injected(r.URL.Path); status != 0 {
			s.log(r, status, false)
			httpError(w, status, "injected failure")
			return
		}
		if s.loses(r.URL.Path) {
			s.serveLost(w, r, next)
			return
		}
		rec := &statusRecorder{ResponseWriter: w, status: 200}
		_, pattern := s.mux.Handler(r)
		if pattern == "" {
			s.log(r, http.StatusNotFound, true)
			httpError(w, http.StatusNotFound, "404: Not Found (fake has no route "+r.Method+" "+r.URL.Path+")")
			return
		}
		next.ServeHTTP(rec, r)
		s.log(r, rec.status, false)
	})
}

// FailNext makes the next n REST requests whose path contains substr
// answer status, as a Discord outage would.
func (s *Server) FailNext(substr string, status, n int) {
	s.mu.Lock()
	s.failures = append(s.failures, failure{substr: substr, status: status, n: n})
	s.mu.Unlock()
}

func (s *Server) injected(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.failures {
		if f := &s.failures[i]; f.n > 0 && strings.Contains(path, f.substr) {
			f.n--
			return f.status
		}
	}
	return 0
}

func (s *Server) log(r *http.Request, status int, unhandled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req := Request{Method: r.Method, Path: r.URL.Path, Status: status, At: time.Now()}
	s.requests = append(s.requests, req)
	if unhandled {
		s.unhandled = append(s.unhandled, req)
	}
	s.notify()
}

// Requests returns every REST call so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Unhandled returns the REST calls the fake had no route for or refused as
// unauthorized; a correct client makes none.
func (s *Server) Unhandled() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.unhandled...)
}

func httpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"code": 0, "message": msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (s *Server) serveGatewayURL(w http.ResponseWriter, r *http.Request) {
	u := "ws" + strings.TrimPrefix(s.srv.URL, "http") + "/gateway"
	writeJSON(w, 200, map[string]any{
		"url": u, "shards": 1,
		"session_start_limit": map[string]int{"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
	})
}

// Message returns a copy of the message with that ID.
func (s *Server) Message(id string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.messages[id]
	if !ok {
		return Message{}, false
	}
	return *m, true
}

// ChannelMessages returns the messages posted to channelID (not interaction
// responses), oldest first, as they are now.
func (s *Server) ChannelMessages(channelID string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, id := range s.channelLog {
		if m := s.messages[id]; m.ChannelID == channelID {
			out = append(out, *m)
		}
	}
	return out
}

// WaitChannelMessage waits for a message posted to channelID for which match
// returns true and returns it.
func (s *Server) WaitChannelMessage(ctx context.Context, channelID string, match func(Message) bool) (Message, error) {
	var found Message
	err := s.Wait(ctx, "a message in channel "+channelID, func() bool {
		for _, id := range s.channelLog {
			if m := s.messages[id]; m.ChannelID == channelID && !m.Deleted && match(*m) {
				found = *m
				return true
			}
		}
		return false
	})
	return found, err
}

func (s *Server) serveChannelMessage(w http.ResponseWriter, r *http.Request) {
	var p messagePayload
	files, err := readBody(r, &p)
	if err != nil {
		httpError(w, 400, err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.chanState().byID[r.PathValue("channel")]; ok && (c.Deleted || c.Locked) {
		// A deleted channel is unknown; a locked thread refuses messages.
		if c.Deleted {
			discordError(w, http.StatusNotFound, CodeUnknownChannel, "Unknown Channel")
		} else {
			discordError(w, http.StatusBadRequest, 50083, "Thread is archived")
		}
		return
	}
	m := &Message{ChannelID: r.PathValue("channel")}
	id := r.PathValue("msg")
	if id != "" {
		old := s.messages[id]
		if old == nil || old.Deleted || old.ChannelID != r.PathValue("channel") {
			discordError(w, http.StatusNotFound, CodeUnknownMessage, "Unknown Message")
			return
		}
		*m = *old
		m.Edits++
	}
	if err := m.apply(p, files, id != ""); err != nil {
		httpError(w, 400, err.Error())
		return
	}
	if m.Content == "" && len(m.Embeds) == 0 && len(m.Files) == 0 {
		httpError(w, 400, "Cannot send an empty message")
		return
	}
	if id == "" {
		m.ID = s.newID()
		s.channelLog = append(s.channelLog, m.ID)
	}
	s.messages[m.ID] = m
	s.notify()
	writeJSON(w, 200, m.wire())
}
