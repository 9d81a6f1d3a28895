-- Workers that listen learn of a new job at once instead of polling for it: every enqueue also notifies apalis'
-- channel with the job's queue name, the payload apalis' `PgListen` matches its subscriptions on (apalis'
-- own insert trigger sends 'insert', which matches none). Notifications are delivered at commit, so a
-- worker never looks for a job before it exists; polling stays as the fallback, much less often.
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
    PERFORM pg_notify('apalis::job', job_type);
END
$$;
REVOKE ALL ON FUNCTION cairn_enqueue(text, jsonb, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION cairn_enqueue(text, jsonb, integer) TO cairn_app;
