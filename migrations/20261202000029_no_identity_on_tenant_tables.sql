-- Tables distributed by tenant (Citus) cannot have identity columns, and `memory_events` is a tenant table:
-- its `id` becomes a plain bigint drawn from a sequence. Same values, same order (a memory's history is read in
-- `id` order), nothing changes for readers or writers. The control plane's identity columns (`audit_log`,
-- `tenant_usage_delta`) stay: those tables are not distributed.
ALTER TABLE memory_events ALTER COLUMN id DROP IDENTITY;
CREATE SEQUENCE memory_events_id_seq AS bigint OWNED BY memory_events.id;
ALTER TABLE memory_events ALTER COLUMN id SET DEFAULT nextval('memory_events_id_seq');
GRANT USAGE ON SEQUENCE memory_events_id_seq TO cairn_app;

-- The sequence starts past every id already used. The table forces row-level security, so an owner that is
-- neither superuser nor BYPASSRLS sees a tenant's rows only with `app.tenant_id` set to it.
DO $$
DECLARE
    t uuid;
    highest bigint := 0;
BEGIN
    FOR t IN SELECT id FROM tenants LOOP
        PERFORM set_config('app.tenant_id', t::text, true);
        highest := greatest(highest, (SELECT coalesce(max(id), 0) FROM memory_events WHERE tenant_id = t));
    END LOOP;
    PERFORM set_config('app.tenant_id', '', true);
    PERFORM setval('memory_events_id_seq', highest + 1, false);
END
$$;
