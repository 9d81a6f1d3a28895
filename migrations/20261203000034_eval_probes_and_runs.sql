-- A tenant's own retrieval-quality report (POST /api/v1/eval): probe questions with the memories that should
-- answer them, stored as named probe sets (re-run on a schedule by the `cairn::eval` job when `every_hours` is
-- set), and the runs' figures kept as a history an operator can chart to see a regression after a model or
-- setting change. Tenant tables: keyed by tenant_id, distributed with the others on Citus.
CREATE TABLE eval_probe_sets (
    tenant_id    uuid        NOT NULL,
    name         text        NOT NULL,
    -- [{"query": "...", "expected": ["<memory id>", ...]}, ...]
    probes       jsonb       NOT NULL,
    k            integer     NOT NULL,
    mode         text        NOT NULL,
    every_hours  integer,
    last_run_at  timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT eval_probe_sets_pkey PRIMARY KEY (tenant_id, name),
    CONSTRAINT eval_probe_sets_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT eval_probe_sets_k_check CHECK (k BETWEEN 1 AND 100),
    CONSTRAINT eval_probe_sets_every_check CHECK (every_hours IS NULL OR every_hours BETWEEN 1 AND 8760)
);
ALTER TABLE eval_probe_sets ENABLE ROW LEVEL SECURITY;
ALTER TABLE eval_probe_sets FORCE ROW LEVEL SECURITY;
CREATE POLICY eval_probe_sets_tenant_isolation ON eval_probe_sets
    USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
    WITH CHECK (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
GRANT SELECT, INSERT, UPDATE, DELETE ON eval_probe_sets TO cairn_app;

CREATE TABLE eval_runs (
    tenant_id    uuid        NOT NULL,
    id           uuid        NOT NULL DEFAULT gen_random_uuid(),
    -- The probe set run, or NULL for probes sent with the request.
    probe_set    text,
    -- 'manual' (POST /api/v1/eval) or 'schedule'.
    trigger      text        NOT NULL,
    k            integer     NOT NULL,
    mode         text        NOT NULL,
    probes       integer     NOT NULL,
    recall_at_k  real        NOT NULL,
    hit_at_k     real        NOT NULL,
    mrr          real        NOT NULL,
    -- The embedding model the queries were embedded with (NULL: none), so a model change shows in the history.
    model        text,
    -- Per probe: its figures and the rank and score components of each expected memory.
    results      jsonb       NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT eval_runs_pkey PRIMARY KEY (tenant_id, id),
    CONSTRAINT eval_runs_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT eval_runs_trigger_check CHECK (trigger IN ('manual', 'schedule'))
);
CREATE INDEX eval_runs_recent_idx ON eval_runs (tenant_id, created_at DESC);
ALTER TABLE eval_runs ENABLE ROW LEVEL SECURITY;
ALTER TABLE eval_runs FORCE ROW LEVEL SECURITY;
CREATE POLICY eval_runs_tenant_isolation ON eval_runs
    USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
    WITH CHECK (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
GRANT SELECT, INSERT, UPDATE, DELETE ON eval_runs TO cairn_app;
