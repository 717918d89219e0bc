-- +goose Up
-- Division roles: each division's Discord role, the role each
-- player was last given (what a sync diffs the desired state against), and
-- the failures an admin must fix, recorded once.
CREATE TABLE division_roles (
    guild_id text NOT NULL,
    division text NOT NULL,
    role_id  text NOT NULL,
    PRIMARY KEY (guild_id, division)
);

CREATE TABLE applied_roles (
    guild_id text NOT NULL,
    user_id  text NOT NULL,
    role_id  text NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE role_problems (
    guild_id text NOT NULL,
    role_id  text NOT NULL,
    code     integer NOT NULL,
    at       timestamptz NOT NULL,
    PRIMARY KEY (guild_id, role_id, code)
);

-- +goose Down
DROP TABLE role_problems;
DROP TABLE applied_roles;
DROP TABLE division_roles;
