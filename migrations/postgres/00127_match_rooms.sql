-- +goose Up
-- Match rooms: where each queue's matches are played (a private thread,
-- a text channel, or the queue's channel as before), with voice channels
-- per team and the lobby voice channel players are moved from and back to.
CREATE TABLE room_settings (
    queue_id       bigint PRIMARY KEY REFERENCES queues (id) ON DELETE CASCADE,
    mode           text NOT NULL DEFAULT 'thread' CHECK (mode IN ('none', 'thread', 'channel')),
    category_id    text NOT NULL DEFAULT '',
    voice          boolean NOT NULL DEFAULT false,
    lobby_voice_id text NOT NULL DEFAULT '',
    linger_ms      bigint NOT NULL DEFAULT 300000
);

-- One row per match that has (or had, or was getting) a room. The row is
-- written in state 'creating' BEFORE anything is created on Discord and
-- updated with each ID right AFTER it is created, so a process that dies in
-- between leaves a row the rooms job finds and cleans up by the room's
-- deterministic names. moved lists the players moved out of the lobby
-- voice channel, to be moved back when the match ends.
CREATE TABLE match_rooms (
    match_id        bigint PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    guild_id        text NOT NULL,
    queue_id        bigint NOT NULL,
    mode            text NOT NULL,
    home_channel_id text NOT NULL,
    channel_id      text NOT NULL DEFAULT '',
    voice1_id       text NOT NULL DEFAULT '',
    voice2_id       text NOT NULL DEFAULT '',
    lobby_voice_id  text NOT NULL DEFAULT '',
    moved           text NOT NULL DEFAULT '',
    members         text NOT NULL DEFAULT '',
    state           text NOT NULL CHECK (state IN ('creating', 'open', 'closing', 'closed', 'fallback')),
    created_at      timestamptz NOT NULL,
    ended_at        timestamptz,
    close_at        timestamptz
);
CREATE INDEX match_rooms_live ON match_rooms (state) WHERE state IN ('creating', 'open', 'closing');

-- A missing permission is told to the moderators' log channel once per
-- guild and problem; the row goes when a room of that kind works again.
CREATE TABLE room_warnings (
    guild_id    text NOT NULL,
    problem     text NOT NULL,
    reported_at timestamptz NOT NULL,
    PRIMARY KEY (guild_id, problem)
);

-- +goose Down
DROP TABLE room_warnings;
DROP TABLE match_rooms;
DROP TABLE room_settings;
