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

-- The same triggers as on PostgreSQL, row by row.
-- +goose StatementBegin
CREATE TRIGGER ratings_role_plan_ins AFTER INSERT ON ratings FOR EACH ROW BEGIN UPDATE role_plans SET version = version + 1 WHERE guild_id = NEW.guild_id; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER ratings_role_plan_upd AFTER UPDATE ON ratings FOR EACH ROW BEGIN UPDATE role_plans SET version = version + 1 WHERE guild_id = NEW.guild_id; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER ratings_role_plan_del AFTER DELETE ON ratings FOR EACH ROW BEGIN UPDATE role_plans SET version = version + 1 WHERE guild_id = OLD.guild_id; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER seasons_role_plan_ins AFTER INSERT ON seasons FOR EACH ROW BEGIN UPDATE role_plans SET version = version + 1 WHERE guild_id = NEW.guild_id; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER seasons_role_plan_upd AFTER UPDATE ON seasons FOR EACH ROW BEGIN UPDATE role_plans SET version = version + 1 WHERE guild_id = NEW.guild_id; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER queues_role_plan_ins AFTER INSERT ON queues FOR EACH ROW BEGIN UPDATE role_plans SET version = version + 1 WHERE guild_id = NEW.guild_id; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER queues_role_plan_upd AFTER UPDATE ON queues FOR EACH ROW BEGIN UPDATE role_plans SET version = version + 1 WHERE guild_id = NEW.guild_id; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER queues_role_plan_del AFTER DELETE ON queues FOR EACH ROW BEGIN UPDATE role_plans SET version = version + 1 WHERE guild_id = OLD.guild_id; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER season_results_role_plan_ins AFTER INSERT ON season_results FOR EACH ROW BEGIN UPDATE role_plans SET version = version + 1 WHERE guild_id = (SELECT guild_id FROM seasons WHERE id = NEW.season_id); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER season_results_role_plan_upd AFTER UPDATE ON season_results FOR EACH ROW BEGIN UPDATE role_plans SET version = version + 1 WHERE guild_id = (SELECT guild_id FROM seasons WHERE id = NEW.season_id); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER season_results_role_plan_del AFTER DELETE ON season_results FOR EACH ROW BEGIN UPDATE role_plans SET version = version + 1 WHERE guild_id = (SELECT guild_id FROM seasons WHERE id = OLD.season_id); END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER division_roles_role_plan_ins AFTER INSERT ON division_roles FOR EACH ROW BEGIN INSERT INTO role_plans (guild_id) VALUES (NEW.guild_id) ON CONFLICT (guild_id) DO UPDATE SET version = version + 1; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER division_roles_role_plan_upd AFTER UPDATE ON division_roles FOR EACH ROW BEGIN INSERT INTO role_plans (guild_id) VALUES (NEW.guild_id) ON CONFLICT (guild_id) DO UPDATE SET version = version + 1; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER division_roles_role_plan_del AFTER DELETE ON division_roles FOR EACH ROW BEGIN INSERT INTO role_plans (guild_id) VALUES (OLD.guild_id) ON CONFLICT (guild_id) DO UPDATE SET version = version + 1; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER badge_roles_role_plan_ins AFTER INSERT ON badge_roles FOR EACH ROW BEGIN INSERT INTO role_plans (guild_id) VALUES (NEW.guild_id) ON CONFLICT (guild_id) DO UPDATE SET version = version + 1; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER badge_roles_role_plan_upd AFTER UPDATE ON badge_roles FOR EACH ROW BEGIN INSERT INTO role_plans (guild_id) VALUES (NEW.guild_id) ON CONFLICT (guild_id) DO UPDATE SET version = version + 1; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER badge_roles_role_plan_del AFTER DELETE ON badge_roles FOR EACH ROW BEGIN INSERT INTO role_plans (guild_id) VALUES (OLD.guild_id) ON CONFLICT (guild_id) DO UPDATE SET version = version + 1; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER guilds_role_plan_upd AFTER UPDATE ON guilds FOR EACH ROW BEGIN UPDATE role_plans SET version = version + 1 WHERE guild_id = NEW.id; END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER guilds_role_plan_upd;
DROP TRIGGER badge_roles_role_plan_del;
DROP TRIGGER badge_roles_role_plan_upd;
DROP TRIGGER badge_roles_role_plan_ins;
DROP TRIGGER division_roles_role_plan_del;
DROP TRIGGER division_roles_role_plan_upd;
DROP TRIGGER division_roles_role_plan_ins;
DROP TRIGGER season_results_role_plan_del;
DROP TRIGGER season_results_role_plan_upd;
DROP TRIGGER season_results_role_plan_ins;
DROP TRIGGER queues_role_plan_del;
DROP TRIGGER queues_role_plan_upd;
DROP TRIGGER queues_role_plan_ins;
DROP TRIGGER seasons_role_plan_upd;
DROP TRIGGER seasons_role_plan_ins;
DROP TRIGGER ratings_role_plan_del;
DROP TRIGGER ratings_role_plan_upd;
DROP TRIGGER ratings_role_plan_ins;
DROP INDEX role_wants_pending;
DROP TABLE role_plans;
