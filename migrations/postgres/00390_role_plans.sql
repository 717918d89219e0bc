-- +goose Up
-- The per-minute role sync plans only the guilds whose plan may have
-- changed. role_plans holds, per guild with a division or badge mapping,
-- a version that triggers bump in the transaction of every write to what
-- a plan is made from (ratings, the guild's settings, seasons, frozen
-- standings, queues, the mapping), and the version the last plan read
-- (planned). A guild is due while planned is behind version, or while a
-- player's wanted roles are still pending. A guild without a mapping has
-- no row, so a result there bumps nothing.
CREATE TABLE role_plans (
    guild_id text PRIMARY KEY,
    version  bigint NOT NULL DEFAULT 1,
    planned  bigint NOT NULL DEFAULT 0
);
CREATE INDEX role_plans_due ON role_plans (guild_id) WHERE planned <> version;
CREATE INDEX role_wants_pending ON role_wants (guild_id) WHERE applied <> version;
INSERT INTO role_plans (guild_id) SELECT guild_id FROM division_roles UNION SELECT guild_id FROM badge_roles;

-- +goose StatementBegin
-- role_plan_bump bumps the guilds of the changed rows (the transition
-- table "changed", with a guild_id column).
CREATE FUNCTION role_plan_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE role_plans SET version = version + 1 WHERE guild_id IN (SELECT DISTINCT guild_id FROM changed);
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
-- role_plan_map is role_plan_bump for the mapping tables: a guild's first
-- mapping creates its row.
CREATE FUNCTION role_plan_map() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO role_plans AS p (guild_id) SELECT DISTINCT guild_id FROM changed
    ON CONFLICT (guild_id) DO UPDATE SET version = p.version + 1;
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
-- role_plan_results bumps the guilds of changed frozen standings.
CREATE FUNCTION role_plan_results() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE role_plans SET version = version + 1
    WHERE guild_id IN (SELECT s.guild_id FROM seasons s WHERE s.id IN (SELECT DISTINCT season_id FROM changed));
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
-- role_plan_guild bumps a guild whose settings changed.
CREATE FUNCTION role_plan_guild() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE role_plans SET version = version + 1 WHERE guild_id = NEW.id;
    RETURN NULL;
END $$;
-- +goose StatementEnd

CREATE TRIGGER ratings_role_plan_ins AFTER INSERT ON ratings REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_bump();
CREATE TRIGGER ratings_role_plan_upd AFTER UPDATE ON ratings REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_bump();
CREATE TRIGGER ratings_role_plan_del AFTER DELETE ON ratings REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_bump();
CREATE TRIGGER seasons_role_plan_ins AFTER INSERT ON seasons REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_bump();
CREATE TRIGGER seasons_role_plan_upd AFTER UPDATE ON seasons REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_bump();
CREATE TRIGGER queues_role_plan_ins AFTER INSERT ON queues REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_bump();
CREATE TRIGGER queues_role_plan_upd AFTER UPDATE ON queues REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_bump();
CREATE TRIGGER queues_role_plan_del AFTER DELETE ON queues REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_bump();
CREATE TRIGGER season_results_role_plan_ins AFTER INSERT ON season_results REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_results();
CREATE TRIGGER season_results_role_plan_upd AFTER UPDATE ON season_results REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_results();
CREATE TRIGGER season_results_role_plan_del AFTER DELETE ON season_results REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_results();
CREATE TRIGGER division_roles_role_plan_ins AFTER INSERT ON division_roles REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_map();
CREATE TRIGGER division_roles_role_plan_upd AFTER UPDATE ON division_roles REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_map();
CREATE TRIGGER division_roles_role_plan_del AFTER DELETE ON division_roles REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_map();
CREATE TRIGGER badge_roles_role_plan_ins AFTER INSERT ON badge_roles REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_map();
CREATE TRIGGER badge_roles_role_plan_upd AFTER UPDATE ON badge_roles REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_map();
CREATE TRIGGER badge_roles_role_plan_del AFTER DELETE ON badge_roles REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION role_plan_map();
CREATE TRIGGER guilds_role_plan_upd AFTER UPDATE ON guilds FOR EACH ROW EXECUTE FUNCTION role_plan_guild();

-- +goose Down
DROP TRIGGER guilds_role_plan_upd ON guilds;
DROP TRIGGER badge_roles_role_plan_del ON badge_roles;
DROP TRIGGER badge_roles_role_plan_upd ON badge_roles;
DROP TRIGGER badge_roles_role_plan_ins ON badge_roles;
DROP TRIGGER division_roles_role_plan_del ON division_roles;
DROP TRIGGER division_roles_role_plan_upd ON division_roles;
DROP TRIGGER division_roles_role_plan_ins ON division_roles;
DROP TRIGGER season_results_role_plan_del ON season_results;
DROP TRIGGER season_results_role_plan_upd ON season_results;
DROP TRIGGER season_results_role_plan_ins ON season_results;
DROP TRIGGER queues_role_plan_del ON queues;
DROP TRIGGER queues_role_plan_upd ON queues;
DROP TRIGGER queues_role_plan_ins ON queues;
DROP TRIGGER seasons_role_plan_upd ON seasons;
DROP TRIGGER seasons_role_plan_ins ON seasons;
DROP TRIGGER ratings_role_plan_del ON ratings;
DROP TRIGGER ratings_role_plan_upd ON ratings;
DROP TRIGGER ratings_role_plan_ins ON ratings;
DROP FUNCTION role_plan_guild();
DROP FUNCTION role_plan_results();
DROP FUNCTION role_plan_map();
DROP FUNCTION role_plan_bump();
DROP INDEX role_wants_pending;
DROP TABLE role_plans;
