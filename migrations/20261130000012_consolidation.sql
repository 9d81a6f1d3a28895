-- Consolidation runs (on demand and scheduled), for GET /api/v1/consolidate/status.
CREATE TABLE consolidation_runs (
    tenant_id     uuid        NOT NULL,
    id            uuid        NOT NULL DEFAULT gen_random_uuid(),
    mode          text        NOT NULL,
    time_horizon  text        NOT NULL,
    dry_run       boolean     NOT NULL,
    -- 'manual' (POST /api/v1/consolidate) or 'schedule'.
    trigger       text        NOT NULL,
    started_at    timestamptz NOT NULL,
    finished_at   timestamptz NOT NULL,
    report        jsonb       NOT NULL,
    CONSTRAINT consolidation_runs_pkey PRIMARY KEY (tenant_id, id),
    CONSTRAINT consolidation_runs_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT consolidation_runs_mode_check CHECK (mode IN ('full', 'decay', 'creative', 'cluster', 'forget')),
    CONSTRAINT consolidation_runs_trigger_check CHECK (trigger IN ('manual', 'schedule'))
);
CREATE INDEX consolidation_runs_recent_idx ON consolidation_runs (tenant_id, started_at DESC);
ALTER TABLE consolidation_runs ENABLE ROW LEVEL SECURITY;
ALTER TABLE consolidation_runs FORCE ROW LEVEL SECURITY;
CREATE POLICY consolidation_runs_tenant_isolation ON consolidation_runs
    USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
    WITH CHECK (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
GRANT SELECT, INSERT, UPDATE, DELETE ON consolidation_runs TO cairn_app;
