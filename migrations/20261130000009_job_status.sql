-- Job status per tenant. The server's role has no access to apalis' schema; these functions run as their
-- owner and answer only about the jobs of the calling transaction's own tenant (fail closed without one).
CREATE INDEX IF NOT EXISTS cairn_jobs_tenant_idx ON apalis.jobs ((job->>'tenant_id'), job_type, status);

CREATE FUNCTION cairn_job_counts()
RETURNS TABLE (queue text, status text, jobs bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
    SELECT j.job_type, j.status, count(*)
      FROM apalis.jobs j
     WHERE j.job->>'tenant_id' = (NULLIF(current_setting('app.tenant_id', true), '')::uuid)::text
     GROUP BY j.job_type, j.status
     ORDER BY j.job_type, j.status
$$;

CREATE FUNCTION cairn_job_failures(max_rows integer)
RETURNS TABLE (id text, queue text, status text, attempts integer, max_attempts integer, last_error text,
               run_at timestamptz, done_at timestamptz, memory_ids jsonb)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
    SELECT j.id, j.job_type, j.status, j.attempts, j.max_attempts, j.last_error, j.run_at, j.done_at,
           j.job->'memory_ids'
      FROM apalis.jobs j
     WHERE j.job->>'tenant_id' = (NULLIF(current_setting('app.tenant_id', true), '')::uuid)::text
       -- apalis records every outcome in last_error, a success as {"Ok":...}: only failures count.
       AND (j.status IN ('Failed', 'Killed') OR (j.last_error IS NOT NULL AND j.last_error NOT LIKE '{"Ok"%'))
     ORDER BY coalesce(j.done_at, j.run_at) DESC, j.id
     LIMIT least(greatest(max_rows, 0), 100)
$$;

REVOKE ALL ON FUNCTION cairn_job_counts() FROM PUBLIC;
REVOKE ALL ON FUNCTION cairn_job_failures(integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION cairn_job_counts() TO cairn_app;
GRANT EXECUTE ON FUNCTION cairn_job_failures(integer) TO cairn_app;
