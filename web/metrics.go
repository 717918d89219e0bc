package web

import (
	"database/sql"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds ladderbot's Prometheus metrics in a private registry, so
// several servers (as in tests) never collide in the global one. Every method
// is safe for concurrent use and does nothing on a nil *Metrics, so a caller
// that runs without metrics can pass nil.
type Metrics struct {
	reg           *prometheus.Registry
	interactions  *prometheus.CounterVec
	ackLatency    *prometheus.HistogramVec
	queueSize     *prometheus.GaugeVec
	matchesFormed *prometheus.CounterVec
	jobRuns       *prometheus.CounterVec
	jobDuration   *prometheus.HistogramVec
	httpRequests  *prometheus.CounterVec
	httpDuration  *prometheus.HistogramVec
}

// NewMetrics returns Metrics with every ladderbot collector registered, plus
// the Go runtime and process collectors.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		interactions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ladderbot_interactions_total",
			Help: "Discord interactions handled, by command and outcome (ok, invalid, forbidden, error, ...).",
		}, []string{"cmd", "outcome"}),
		ackLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "ladderbot_interaction_ack_seconds",
			Help:    "Time from receiving an interaction to its first response (reply or deferral); Discord allows 3 s.",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2, 3, 5},
		}, []string{"cmd"}),
		queueSize: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "ladderbot_queue_entries",
			Help: "Players waiting in a queue.",
		}, []string{"guild_id", "queue"}),
		matchesFormed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ladderbot_matches_formed_total",
			Help: "Matches formed by the matchmaker.",
		}, []string{"guild_id", "queue"}),
		jobRuns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ladderbot_job_runs_total",
			Help: "Scheduled job runs, by job and outcome (ok, skipped, error, panic).",
		}, []string{"job", "outcome"}),
		jobDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "ladderbot_job_duration_seconds",
			Help:    "Duration of scheduled job runs.",
			Buckets: prometheus.ExponentialBuckets(0.01, 4, 8),
		}, []string{"job"}),
		httpRequests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ladderbot_http_requests_total",
			Help: "HTTP requests served, by route pattern and status code.",
		}, []string{"route", "code"}),
		httpDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "ladderbot_http_request_seconds",
			Help:    "HTTP request latency by route pattern.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1},
		}, []string{"route"}),
	}
	m.reg.MustRegister(m.interactions, m.ackLatency, m.queueSize, m.matchesFormed,
		m.jobRuns, m.jobDuration, m.httpRequests, m.httpDuration,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// ObserveInteraction counts one Discord interaction of command cmd with its
// outcome and records ack, the time until Discord got its first response;
// a negative ack (no response from this process) is counted only.
func (m *Metrics) ObserveInteraction(cmd, outcome string, ack time.Duration) {
	if m == nil {
		return
	}
	m.interactions.WithLabelValues(cmd, outcome).Inc()
	if ack >= 0 {
		m.ackLatency.WithLabelValues(cmd).Observe(ack.Seconds())
	}
}

// SetQueueSize records how many players wait in a guild's queue.
func (m *Metrics) SetQueueSize(guildID, queue string, n int) {
	if m == nil {
		return
	}
	m.queueSize.WithLabelValues(guildID, queue).Set(float64(n))
}

// MatchesFormed counts n matches formed in a guild's queue.
func (m *Metrics) MatchesFormed(guildID, queue string, n int) {
	if m == nil || n <= 0 {
		return
	}
	m.matchesFormed.WithLabelValues(guildID, queue).Add(float64(n))
}

// ObserveJob counts one run of a scheduled job with its outcome and duration.
func (m *Metrics) ObserveJob(job, outcome string, d time.Duration) {
	if m == nil {
		return
	}
	m.jobRuns.WithLabelValues(job, outcome).Inc()
	m.jobDuration.WithLabelValues(job).Observe(d.Seconds())
}

// RegisterDB exports the connection pool statistics of db (open, in use,
// idle, waits) as the go_sql_* metrics with db_name="ladderbot". Register
// each pool once.
func (m *Metrics) RegisterDB(db *sql.DB) error {
	if m == nil || db == nil {
		return nil
	}
	return m.reg.Register(collectors.NewDBStatsCollector(db, "ladderbot"))
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	if m == nil {
		return http.NotFoundHandler()
	}
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

func (m *Metrics) observeHTTP(route string, code int, d time.Duration) {
	if m == nil {
		return
	}
	m.httpRequests.WithLabelValues(route, strconv.Itoa(code)).Inc()
	m.httpDuration.WithLabelValues(route).Observe(d.Seconds())
}
