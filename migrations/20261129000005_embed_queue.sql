-- The embedding pipeline. Jobs live in apalis's own schema (`apalis`, created by its migrations, which
-- Cairn runs first). The server's role gets no access to that schema: it enqueues through this function,
-- which runs as its owner and stamps every job with the caller's own tenant, so a tenant transaction can
-- only ever enqueue work for itself.
CREATE OR REPLACE FUNCTION cairn_enqueue(job_type text, payload jsonb, max_attempts integer DEFAULT 8)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
    tenant uuid := NULLIF(current_setting('app.tenant_id', true), '')::uuid;
BEGIN
    IF tenant IS NULL THEN
        RAISE EXCEPTION 'cairn_enqueue needs app.tenant_id' USING ERRCODE = 'insufficient_privilege';
    END IF;
    PERFORM apalis.push_job(job_type, (payload || jsonb_build_object('tenant_id', tenant))::json, 'Pending', now(), max_attempts);
END
$$;
REVOKE ALL ON FUNCTION cairn_enqueue(text, jsonb, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION cairn_enqueue(text, jsonb, integer) TO cairn_app;

-- What went wrong with the last embedding attempt, kept visible on the memory.
ALTER TABLE memories ADD COLUMN embedding_error text;
