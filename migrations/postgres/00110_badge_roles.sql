-- +goose Up
-- Badge roles: the roles of last season's top 3/30/100 badges,
-- and the applied state as a set of mapped roles per player (a division
-- role and a badge role), one row per role held.
CREATE TABLE badge_roles (
    guild_id text NOT NULL,
    badge    text NOT NULL,
    role_id  text NOT NULL,
    PRIMARY KEY (guild_id, badge)
);

CREATE TABLE applied_role_set (
    guild_id text NOT NULL,
    user_id  text NOT NULL,
    role_id  text NOT NULL,
    PRIMARY KEY (guild_id, user_id, role_id)
);
INSERT INTO applied_role_set (guild_id, user_id, role_id) SELECT guild_id, user_id, role_id FROM applied_roles;
DROP TABLE applied_roles;
ALTER TABLE applied_role_set RENAME TO applied_roles;

-- +goose Down
-- Back to one role per player: the lowest role ID of each is kept; the
-- next reconcile repairs the rest.
CREATE TABLE applied_role_one (
    guild_id text NOT NULL,
    user_id  text NOT NULL,
    role_id  text NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
INSERT INTO applied_role_one (guild_id, user_id, role_id) SELECT guild_id, user_id, MIN(role_id) FROM applied_roles GROUP BY guild_id, user_id;
DROP TABLE applied_roles;
ALTER TABLE applied_role_one RENAME TO applied_roles;
DROP TABLE badge_roles;
