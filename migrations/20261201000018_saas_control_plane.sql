-- The SaaS control plane: plans and per-tenant limits, tenant lifecycle, key rotation and per-key rate
-- limits, admin sessions (refresh-token families), the audit log, daily usage, and maintained storage
-- counters. All of it is control plane: not under RLS, never granted to `cairn_app` (the counters are
-- written by a SECURITY DEFINER trigger on `memories`).

-- A plan holds default limits; a tenant's own `limits` override them key by key (see `auth::limits`).
CREATE TABLE plans (
    name        text        NOT NULL,
    limits      jsonb       NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT plans_pkey PRIMARY KEY (name),
    CONSTRAINT plans_name_check CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,63}$'),
    CONSTRAINT plans_limits_check CHECK (jsonb_typeof(limits) = 'object')
);
INSERT INTO plans (name, limits) VALUES
    ('free', '{"requests_per_second": 10, "burst": 20, "key_requests_per_second": 10, "max_memories": 10000,
               "max_storage_bytes": 104857600, "max_metadata_bytes": 16384, "max_batch": 100,
               "summaries_per_day": 50, "reenrich_per_day": 1000, "consolidations_per_day": 10,
               "reembeds_per_day": 10000}'),
    ('standard', '{"requests_per_second": 200, "burst": 400, "key_requests_per_second": 200,
                   "max_memories": 1000000, "max_storage_bytes": 10737418240, "max_metadata_bytes": 65536,
                   "summaries_per_day": 2000, "reenrich_per_day": 50000, "consolidations_per_day": 200,
                   "reembeds_per_day": 1000000}'),
    ('unlimited', '{}');

-- Tenants that exist before plans did keep working as they did: `unlimited`. New ones get the deployment's
-- default plan (CAIRN_DEFAULT_PLAN; the column default is `standard`).
ALTER TABLE tenants
    ADD COLUMN plan              text        NOT NULL DEFAULT 'unlimited',
    ADD COLUMN limits            jsonb       NOT NULL DEFAULT '{}',
    ADD COLUMN status            text        NOT NULL DEFAULT 'active',
    ADD COLUMN status_reason     text,
    ADD COLUMN status_changed_at timestamptz,
    ADD COLUMN deletion_report   jsonb,
    ADD CONSTRAINT tenants_plan_fkey FOREIGN KEY (plan) REFERENCES plans (name),
    ADD CONSTRAINT tenants_limits_check CHECK (jsonb_typeof(limits) = 'object'),
    ADD CONSTRAINT tenants_status_check CHECK (status IN ('active', 'suspended', 'deleting', 'deleted'));
ALTER TABLE tenants ALTER COLUMN plan SET DEFAULT 'standard';

-- Rotation: the new key names the one it replaced; the old one expires after the grace period chosen.
ALTER TABLE api_keys
    ADD COLUMN rate_limit_per_second integer,
    ADD COLUMN rotated_from          uuid,
    ADD CONSTRAINT api_keys_rate_limit_check CHECK (rate_limit_per_second IS NULL OR rate_limit_per_second > 0);

-- Refresh tokens of admin sessions. Each refresh rotates the token within its family; presenting a used or
-- revoked token revokes the whole family (a stolen token then stops working for both parties). Only the
-- sha-256 of a token is stored.
CREATE TABLE admin_sessions (
    id          uuid        NOT NULL DEFAULT gen_random_uuid(),
    admin_id    uuid        NOT NULL,
    family_id   uuid        NOT NULL,
    token_hash  bytea       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    used_at     timestamptz,
    revoked_at  timestamptz,
    CONSTRAINT admin_sessions_pkey PRIMARY KEY (id),
    CONSTRAINT admin_sessions_token_key UNIQUE (token_hash),
    CONSTRAINT admin_sessions_admin_fkey FOREIGN KEY (admin_id) REFERENCES admins (id) ON DELETE CASCADE
);
CREATE INDEX admin_sessions_family_idx ON admin_sessions (family_id);

-- Every admin and key-management action. Kept when its tenant is deleted (no foreign key).
CREATE TABLE audit_log (
    id          bigint      GENERATED ALWAYS AS IDENTITY,
    at          timestamptz NOT NULL DEFAULT now(),
    actor       text        NOT NULL,
    tenant_id   uuid,
    action      text        NOT NULL,
    target      text,
    details     jsonb       NOT NULL DEFAULT '{}',
    CONSTRAINT audit_log_pkey PRIMARY KEY (id)
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC);
CREATE INDEX audit_log_tenant_idx ON audit_log (tenant_id, at DESC, id DESC);

-- Usage per tenant, day and counter (requests, recalls, embeddings, the daily budgets...). Hot-path counts are
-- added in memory and flushed in batches; the daily budgets are spent here atomically.
CREATE TABLE usage_daily (
    tenant_id  uuid   NOT NULL,
    day        date   NOT NULL,
    counter    text   NOT NULL,
    value      bigint NOT NULL DEFAULT 0,
    CONSTRAINT usage_daily_pkey PRIMARY KEY (tenant_id, day, counter),
    CONSTRAINT usage_daily_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
);

-- What each tenant stores now, so quotas cost no count. Writes never lock a shared counter row: triggers on
-- `memories` append deltas (`tenant_usage_delta`, one row per statement and tenant), and a periodic rollup
-- (`cairn_rollup_usage`, run by every instance's usage flush) folds them into `tenant_usage`. What a tenant
-- stores is its rolled-up total plus its pending deltas.
CREATE TABLE tenant_usage (
    tenant_id      uuid   NOT NULL,
    memories       bigint NOT NULL DEFAULT 0,
    storage_bytes  bigint NOT NULL DEFAULT 0,
    CONSTRAINT tenant_usage_pkey PRIMARY KEY (tenant_id),
    CONSTRAINT tenant_usage_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
);
-- Not keyed to tenants: a delta of a tenant deleted meanwhile is dropped by the rollup.
CREATE TABLE tenant_usage_delta (
    id             bigint GENERATED ALWAYS AS IDENTITY,
    tenant_id      uuid   NOT NULL,
    memories       bigint NOT NULL,
    storage_bytes  bigint NOT NULL,
    CONSTRAINT tenant_usage_delta_pkey PRIMARY KEY (id)
);
CREATE INDEX tenant_usage_delta_tenant_idx ON tenant_usage_delta (tenant_id);

-- Counted from here on: no write slips between the backfill and the triggers.
LOCK TABLE memories IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO tenant_usage (tenant_id, memories, storage_bytes)
SELECT tenant_id, count(*), coalesce(sum(octet_length(content) + octet_length(metadata::text)), 0)
FROM memories GROUP BY tenant_id;

CREATE FUNCTION cairn_count_inserted() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    INSERT INTO public.tenant_usage_delta (tenant_id, memories, storage_bytes)
    SELECT tenant_id, count(*), sum(octet_length(content) + octet_length(metadata::text)) FROM added GROUP BY tenant_id;
    RETURN NULL;
END
$$;

CREATE FUNCTION cairn_count_deleted() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    INSERT INTO public.tenant_usage_delta (tenant_id, memories, storage_bytes)
    SELECT tenant_id, -count(*), -sum(octet_length(content) + octet_length(metadata::text)) FROM removed GROUP BY tenant_id;
    RETURN NULL;
END
$$;

CREATE FUNCTION cairn_count_updated() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    INSERT INTO public.tenant_usage_delta (tenant_id, memories, storage_bytes)
    VALUES (NEW.tenant_id, 0, (octet_length(NEW.content) + octet_length(NEW.metadata::text))
                             - (octet_length(OLD.content) + octet_length(OLD.metadata::text)));
    RETURN NULL;
END
$$;

CREATE TRIGGER memories_count_inserted AFTER INSERT ON memories
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION cairn_count_inserted();
CREATE TRIGGER memories_count_deleted AFTER DELETE ON memories
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION cairn_count_deleted();
-- Per row, and only when content or metadata changed: recall's access counting and vector writes never fire it.
CREATE TRIGGER memories_count_updated AFTER UPDATE OF content, metadata ON memories
    FOR EACH ROW WHEN (OLD.content IS DISTINCT FROM NEW.content OR OLD.metadata IS DISTINCT FROM NEW.metadata)
    EXECUTE FUNCTION cairn_count_updated();

-- Folds pending deltas into the totals, tenants in id order (concurrent rollups cannot deadlock); each delta is
-- moved exactly once. Returns how many were folded.
CREATE FUNCTION cairn_rollup_usage() RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    folded bigint;
BEGIN
    -- One instance at a time; the others have nothing to do meanwhile.
    IF NOT pg_try_advisory_xact_lock(hashtextextended('cairn_rollup_usage', 0)) THEN
        RETURN 0;
    END IF;
    WITH moved AS (DELETE FROM public.tenant_usage_delta RETURNING tenant_id, memories, storage_bytes),
    summed AS (SELECT tenant_id, sum(memories) AS m, sum(storage_bytes) AS b, count(*) AS n
               FROM moved GROUP BY tenant_id),
    upserted AS (
        INSERT INTO public.tenant_usage AS u (tenant_id, memories, storage_bytes)
        SELECT s.tenant_id, s.m, s.b FROM summed s
        WHERE EXISTS (SELECT 1 FROM public.tenants t WHERE t.id = s.tenant_id AND t.status IN ('active', 'suspended'))
        ORDER BY s.tenant_id
        ON CONFLICT (tenant_id) DO UPDATE
            SET memories = greatest(u.memories + excluded.memories, 0),
                storage_bytes = greatest(u.storage_bytes + excluded.storage_bytes, 0)
        RETURNING 1)
    SELECT coalesce(sum(n), 0) INTO folded FROM summed;
    RETURN folded;
END
$$;
REVOKE ALL ON FUNCTION cairn_rollup_usage() FROM PUBLIC;

-- An import keeps the base of decay it exported; every other insert starts the base at the current value.
CREATE OR REPLACE FUNCTION cairn_memories_base_importance() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.base_importance := coalesce(NEW.base_importance, NEW.importance);
    RETURN NEW;
END
$$;
CREATE OR REPLACE FUNCTION cairn_relations_base_strength() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.base_strength := coalesce(NEW.base_strength, NEW.strength);
    RETURN NEW;
END
$$;

-- What the transaction's tenant stores now, counting this transaction's own writes (quota checks run in the
-- writing transaction, after the triggers counted the write).
CREATE FUNCTION cairn_tenant_usage() RETURNS TABLE (memories bigint, storage_bytes bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT coalesce((SELECT u.memories FROM public.tenant_usage u WHERE u.tenant_id = t.id), 0)
             + coalesce((SELECT sum(d.memories) FROM public.tenant_usage_delta d WHERE d.tenant_id = t.id), 0),
           coalesce((SELECT u.storage_bytes FROM public.tenant_usage u WHERE u.tenant_id = t.id), 0)
             + coalesce((SELECT sum(d.storage_bytes) FROM public.tenant_usage_delta d WHERE d.tenant_id = t.id), 0)
    FROM (SELECT NULLIF(current_setting('app.tenant_id', true), '')::uuid AS id) t
$$;
REVOKE ALL ON FUNCTION cairn_tenant_usage() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION cairn_tenant_usage() TO cairn_app;

-- Every instance caches verified keys and tenants; a change to either is announced on `cairn_auth` so each
-- instance forgets just the affected entries at once (the CLI's changes included).
CREATE FUNCTION cairn_notify_auth() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF TG_TABLE_NAME = 'api_keys' THEN
        PERFORM pg_notify('cairn_auth', 'key:' || OLD.id::text);
    ELSIF TG_TABLE_NAME = 'tenants' THEN
        PERFORM pg_notify('cairn_auth', 'tenant:' || OLD.id::text);
    ELSE
        PERFORM pg_notify('cairn_auth', 'plan:' || OLD.name);
    END IF;
    RETURN NULL;
END
$$;
-- (Recording a key's last use changes none of these columns, so it announces nothing.)
CREATE TRIGGER api_keys_notify_auth AFTER UPDATE OF revoked_at, expires_at, scopes, rate_limit_per_second OR DELETE ON api_keys
    FOR EACH ROW EXECUTE FUNCTION cairn_notify_auth();
CREATE TRIGGER tenants_notify_auth AFTER UPDATE OF plan, limits, status OR DELETE ON tenants
    FOR EACH ROW EXECUTE FUNCTION cairn_notify_auth();
CREATE TRIGGER plans_notify_auth AFTER UPDATE OR DELETE ON plans
    FOR EACH ROW EXECUTE FUNCTION cairn_notify_auth();
