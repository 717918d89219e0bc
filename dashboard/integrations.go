package dashboard

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/ladderbot/ladderbot/i18n"
	"github.com/ladderbot/ladderbot/ladder"
)

// integrationsPage is the data of the API tokens and webhooks page. Secret
// is set only on the answer that created a token or a webhook: the one
// time it is shown. It is rendered straight into that answer, never kept
// in the session.
type integrationsPage struct {
	Tokens     []ladder.Token
	Webhooks   []ladder.WebhookStatus
	Secret     string
	SecretWhat string
}

// integrationsPage serves the guild's API tokens and webhooks with each
// webhook's latest deliveries.
func (d *Dashboard) integrationsPage(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	d.renderIntegrations(w, r, gr, http.StatusOK, integrationsPage{})
}

func (d *Dashboard) renderIntegrations(w http.ResponseWriter, r *http.Request, gr guildRequest, status int, data integrationsPage) {
	ctx := r.Context()
	var err error
	if data.Tokens, err = d.svc.ListTokens(ctx, gr.Guild.ID); err != nil {
		d.fail(w, r, err)
		return
	}
	if data.Webhooks, err = d.svc.Webhooks(ctx, gr.Guild.ID, 10); err != nil {
		d.fail(w, r, err)
		return
	}
	d.render(w, r, status, "integrations", d.guildPage(ctx, gr, "dash.integrations", data))
}

// createToken makes an API token and shows its secret once.
func (d *Dashboard) createToken(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	secret, tok, err := d.svc.CreateToken(r.Context(), gr.Actor, gr.Guild.ID, r.PostFormValue("name"))
	if err != nil {
		d.fail(w, r, err)
		return
	}
	d.renderIntegrations(w, r, gr, http.StatusOK, integrationsPage{Secret: secret, SecretWhat: pageLang(r).T("dash.secret_token", "Name", tok.Name)})
}

// revokeToken revokes an API token by name.
func (d *Dashboard) revokeToken(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	name := r.PathValue("name")
	already, err := d.svc.RevokeToken(r.Context(), gr.Actor, gr.Guild.ID, name)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	msg := pageLang(r).T("dash.token_revoked", "Name", name)
	if already {
		msg = pageLang(r).T("dash.token_already_revoked", "Name", name)
	}
	d.back(w, r, guildPath(gr.Guild.ID, "integrations"), msg)
}

// createWebhook subscribes a URL to events (comma-separated) and shows its
// signing secret once.
func (d *Dashboard) createWebhook(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	var events []string
	for e := range strings.SplitSeq(r.PostFormValue("events"), ",") {
		if e = strings.TrimSpace(e); e != "" {
			events = append(events, e)
		}
	}
	wh, err := d.svc.CreateWebhook(r.Context(), gr.Actor, gr.Guild.ID, strings.TrimSpace(r.PostFormValue("url")), events, d.webhooks)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	d.renderIntegrations(w, r, gr, http.StatusOK, integrationsPage{Secret: wh.Secret, SecretWhat: pageLang(r).T("dash.secret_webhook", "ID", wh.ID)})
}

// deleteWebhook removes a webhook.
func (d *Dashboard) deleteWebhook(w http.ResponseWriter, r *http.Request, gr guildRequest) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		d.fail(w, r, ladder.Errorf(ladder.CodeInvalid, "webhook ID %q is not a number", r.PathValue("id")))
		return
	}
	if err := d.svc.DeleteWebhook(r.Context(), gr.Actor, gr.Guild.ID, id); err != nil {
		d.fail(w, r, err)
		return
	}
	d.back(w, r, guildPath(gr.Guild.ID, "integrations"), pageLang(r).T("dash.webhook_deleted", "ID", r.PathValue("id")))
}

// deliveryFailure describes why a webhook delivery attempt failed in
// language l, from the catalogs' dash.delivery.*: the receiver's status,
// else what the recorded error says went wrong on the way (the text is
// Go's or the URL policy's English, kept as it is beneath the
// description). It is "" for an attempt that succeeded.
func deliveryFailure(l *i18n.Lang, a ladder.DeliveryAttempt) string {
	if a.Status != 0 {
		if a.Status >= 200 && a.Status <= 299 {
			return ""
		}
		return l.T("dash.delivery.status", "Status", a.Status)
	}
	if a.Error == "" {
		return ""
	}
	return l.T("dash.delivery." + failureKind(a.Error))
}

// failureKind sorts an attempt's error text without an answer into the
// kinds dash.delivery.* names. The texts are those of jobs.Deliverer: the
// URL policy's refusal (of the URL, or "refused: …" of the address a name
// resolved to), or net/http's error of a request that got no answer.
func failureKind(text string) string {
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(text, s) {
				return true
			}
		}
		return false
	}
	switch {
	case strings.HasPrefix(text, "webhook URL") || strings.HasPrefix(text, "webhook address") || strings.HasPrefix(text, "port ") ||
		strings.HasPrefix(text, "refused: "):
		return "policy"
	case has("Client.Timeout", "deadline exceeded", "i/o timeout", "TLS handshake timeout"):
		return "timeout"
	case has("no such host", "server misbehaving"):
		return "dns"
	case has("connection refused"):
		return "refused"
	case has("tls:", "x509:", "certificate"):
		return "tls"
	case has("connection reset", "broken pipe", "EOF", "server closed"):
		return "dropped"
	}
	return "failed"
}
