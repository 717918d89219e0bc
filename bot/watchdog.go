package bot

import (
	"context"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
)

// gatewayWatch guards each gateway connection while discordgo's Open runs
// on it. Open holds the session's lock from the dial until the READY or
// RESUMED it waits for, and reads Hello and that answer with no deadline
// (the dialer's handshake timeout ends with the websocket upgrade). A
// gateway that accepts the connection and then says nothing — no Hello,
// or no answer to the identify or the resume — would hold Open, the
// session's lock and with them the bot's connection forever: Run's first
// connect and discordgo's own reconnect loop alike, since both call Open.
//
// The watch is the dialer's: each new connection starts a timer, and if
// the Open that dialed it is still running when the timer fires, the
// connection is cut. Open then returns the read error, and whoever called
// it (Run's open loop or discordgo's reconnect) tries again after its
// backoff. A connection whose Open has returned is left alone: one that
// opened (discordgo's Connect event, sent by Open once READY or RESUMED
// is read), one dialed before a newer one (a new dial means a new Open,
// so the old one ended) and one whose Open failed, seen by the session's
// lock being free (only Open and Close hold it for writing).
type gatewayWatch struct {
	session *discordgo.Session
	timeout time.Duration
	log     *slog.Logger
	shard   int
	// cut counts the connections the watch has cut, for tests and logs.
	cut atomic.Int64

	// mu guards the connections' generations: which is the newest, and
	// whether it has opened, read together by every decision to cut.
	mu sync.Mutex
	// gen counts the connections dialed; a timer acts only on the newest.
	gen uint64
	// opened is the newest connection whose Open read READY or RESUMED.
	opened uint64
	// last is the newest connection dialed, for abort.
	last net.Conn
}

// dial is the websocket dialer's NetDialContext.
func (w *gatewayWatch) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	w.gen++
	g := w.gen
	w.last = c
	w.mu.Unlock()
	time.AfterFunc(w.timeout, func() { w.check(g, c) })
	return c, nil
}

// abort cuts the newest connection if it has not opened: Run's context
// ended while Open waited on it, and shutting down must not wait for the
// timeout.
func (w *gatewayWatch) abort() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.last != nil && w.opened < w.gen {
		w.last.Close()
	}
}

// check cuts connection g, c if the Open that dialed it is still waiting.
func (w *gatewayWatch) check(g uint64, c net.Conn) {
	w.mu.Lock()
	waiting := w.gen == g && w.opened < g
	w.mu.Unlock()
	if !waiting {
		return
	}
	if w.session.TryRLock() {
		w.session.RUnlock()
		return
	}
	w.cut.Add(1)
	w.log.Warn("gateway connection silent; cutting it to connect again", "shard", w.shard, "after", w.timeout.String())
	c.Close()
}

// connected is the session's Connect handler: the newest connection
// dialed is the one whose Open has just read READY or RESUMED, since the
// next dial only comes from a later Open.
func (w *gatewayWatch) connected(*discordgo.Session, *discordgo.Connect) {
	w.mu.Lock()
	w.opened = w.gen
	w.mu.Unlock()
}
