-- Webhooks (`/api/v1/webhooks`): a tenant's endpoints, and one delivery per event and endpoint, written in the
-- transaction that causes the event and sent by the `cairn::webhook` job (signed the Standard Webhooks way,
-- retried with backoff, the endpoint disabled when a delivery has failed for the retry window). Tenant tables:
-- keyed by tenant_id, distributed with the others on Citus.
CREATE TABLE webhook_endpoints (
    tenant_id        uuid        NOT NULL,
    id               uuid        NOT NULL DEFAULT gen_random_uuid(),
    url              text        NOT NULL,
    description      text,
    -- The event types it wants ('memory.created', ...); never empty.
    event_types      text[]      NOT NULL,
    -- `whsec_` + base64 of 32 random bytes: the HMAC key of the signatures.
    secret           text        NOT NULL,
    enabled          boolean     NOT NULL DEFAULT true,
    -- Why the service disabled it (a delivery failing for the whole retry window, a backlog too long); NULL
    -- when enabled or disabled by the tenant.
    disabled_reason  text,
    disabled_at      timestamptz,
    -- A delivery to it failed: nothing more is sent to it before then (its oldest delivery is retried first).
    retry_at         timestamptz,
    created_by       text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (tenant_id, id),
    CONSTRAINT webhook_endpoints_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT webhook_endpoints_types_check CHECK (cardinality(event_types) BETWEEN 1 AND 32)
);
ALTER TABLE webhook_endpoints ENABLE ROW LEVEL SECURITY;
ALTER TABLE webhook_endpoints FORCE ROW LEVEL SECURITY;
CREATE POLICY webhook_endpoints_tenant_isolation ON webhook_endpoints
    USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
    WITH CHECK (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
GRANT SELECT, INSERT, UPDATE, DELETE ON webhook_endpoints TO cairn_app;

CREATE TABLE webhook_deliveries (
    tenant_id        uuid        NOT NULL,
    id               uuid        NOT NULL DEFAULT gen_random_uuid(),
    endpoint_id      uuid        NOT NULL,
    -- The event's id (the `webhook-id` header, the same for every endpoint and every attempt: for dedup).
    event_id         uuid        NOT NULL,
    event_type       text        NOT NULL,
    -- The memory the event is about, if any: its deliveries to one endpoint go in the order they were written.
    memory_id        uuid,
    payload          jsonb       NOT NULL,
    status           text        NOT NULL DEFAULT 'pending',
    attempts         integer     NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    -- Taken by a delivering job until then (a job that died leaves it to the next after that).
    leased_until     timestamptz,
    last_status_code integer,
    last_error       text,
    last_latency_ms  integer,
    -- The clock's time, not the transaction's: the order of events within one transaction.
    created_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
    delivered_at     timestamptz,
    CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (tenant_id, id),
    CONSTRAINT webhook_deliveries_endpoint_fkey FOREIGN KEY (tenant_id, endpoint_id)
        REFERENCES webhook_endpoints (tenant_id, id) ON DELETE CASCADE,
    CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('pending', 'delivered', 'failed'))
);
CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (tenant_id, endpoint_id, created_at DESC);
CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (tenant_id, endpoint_id, created_at)
    WHERE status = 'pending';
ALTER TABLE webhook_deliveries ENABLE ROW LEVEL SECURITY;
ALTER TABLE webhook_deliveries FORCE ROW LEVEL SECURITY;
CREATE POLICY webhook_deliveries_tenant_isolation ON webhook_deliveries
    USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
    WITH CHECK (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
GRANT SELECT, INSERT, UPDATE, DELETE ON webhook_deliveries TO cairn_app;

-- Wakes the delivering job of the transaction's tenant at `at` (now, or when a retry is due), unless one is
-- already waiting to run by then. Runs where the queue is (the coordinator on Citus). Returns whether it
-- enqueued a job.
CREATE FUNCTION cairn_wake_webhooks(at timestamptz) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    tenant uuid := NULLIF(current_setting('app.tenant_id', true), '')::uuid;
BEGIN
    IF tenant IS NULL THEN
        RAISE EXCEPTION 'cairn_wake_webhooks needs app.tenant_id' USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF EXISTS (SELECT 1 FROM apalis.jobs j WHERE j.job_type = 'cairn::webhook' AND j.status = 'Pending'
                  AND j.job->>'tenant_id' = tenant::text AND j.run_at <= at) THEN
        RETURN false;
    END IF;
    PERFORM apalis.push_job('cairn::webhook', jsonb_build_object('tenant_id', tenant)::json, 'Pending', at, 5);
    IF at <= now() THEN
        PERFORM pg_notify('apalis::job', 'cairn::webhook');
    END IF;
    RETURN true;
END
$$;
REVOKE ALL ON FUNCTION cairn_wake_webhooks(timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION cairn_wake_webhooks(timestamptz) TO cairn_app;

-- The webhook event type of a memory event: created and restored memories are `memory.created`, deleted ones
-- `memory.deleted`, every other change `memory.updated`; importance decay (every memory, every pass) is none.
CREATE FUNCTION cairn_webhook_type(event_type text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE event_type WHEN 'created' THEN 'memory.created' WHEN 'restored' THEN 'memory.created'
                           WHEN 'deleted' THEN 'memory.deleted' WHEN 'decayed' THEN NULL
                           ELSE 'memory.updated' END
$$;

-- Every memory event becomes a delivery to each enabled endpoint of its tenant that wants its type, in the
-- statement that wrote the event (but not the history an import brings: an import sends one `import.finished`). One probe per statement when the tenant has no endpoint. The transition
-- table is read first, into a value (on Citus it exists only where the trigger runs, and a statement reading
-- it may not also write a distributed table). On plain Postgres the delivering job is woken here; on a Citus
-- shard the queue is out of reach, and the schedule's sweep wakes it.
CREATE FUNCTION cairn_webhook_memory_events() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    tenant uuid := NULLIF(current_setting('app.tenant_id', true), '')::uuid;
    events jsonb;
BEGIN
    IF tenant IS NULL OR coalesce(current_setting('cairn.erase', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.tenant_id = tenant AND e.enabled) THEN
        RETURN NULL;
    END IF;
    SELECT jsonb_agg(jsonb_build_object(
               'event_id', gen_random_uuid(), 'type', cairn_webhook_type(n.event_type), 'memory_id', n.memory_id,
               'change', n.event_type, 'actor', n.actor, 'at', n.created_at,
               'memory', coalesce(n.after, n.before)) ORDER BY n.created_at, n.id)
      INTO events
      FROM new_events n
     WHERE n.tenant_id = tenant AND cairn_webhook_type(n.event_type) IS NOT NULL AND n.actor NOT LIKE 'import:%';
    IF events IS NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id, event_type, memory_id, payload)
    SELECT tenant, e.id, (x.v->>'event_id')::uuid, x.v->>'type', (x.v->>'memory_id')::uuid,
           jsonb_build_object('id', x.v->'event_id', 'type', x.v->'type', 'timestamp', x.v->'at',
                              'data', jsonb_build_object('memory_id', x.v->'memory_id', 'change', x.v->'change',
                                                         'actor', x.v->'actor', 'memory', x.v->'memory'))
      FROM jsonb_array_elements(events) WITH ORDINALITY AS x(v, n)
      JOIN webhook_endpoints e ON e.tenant_id = tenant AND e.enabled AND (x.v->>'type') = ANY (e.event_types)
     ORDER BY x.n, e.id;
    IF FOUND AND cairn_base_table(TG_TABLE_NAME) = TG_TABLE_NAME THEN
        PERFORM cairn_wake_webhooks(now());
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER memory_events_webhooks AFTER INSERT ON memory_events
    REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION cairn_webhook_memory_events();

-- `key.expiring`: a key is announced once, a week before it expires (the schedule's pass).
ALTER TABLE api_keys ADD COLUMN expiry_announced_at timestamptz;
