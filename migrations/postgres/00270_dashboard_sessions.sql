-- +goose Up
-- The web dashboard's server-side sessions: one row per browser session,
-- keyed by the SHA-256 of the cookie's token (a leaked table opens no
-- session), with the Discord user it is logged in as ('' before login) so
-- "log out everywhere" deletes every row of a user. data is the session
-- library's encoding of the session's values.
CREATE TABLE dashboard_sessions (
    token_hash bytea PRIMARY KEY,
    user_id    text NOT NULL DEFAULT '',
    data       bytea NOT NULL,
    expiry     timestamptz NOT NULL
);
CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id);
CREATE INDEX dashboard_sessions_expiry ON dashboard_sessions (expiry);

-- +goose Down
DROP TABLE dashboard_sessions;
