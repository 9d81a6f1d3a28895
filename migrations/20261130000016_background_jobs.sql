-- All background work on apalis: consolidation runs become queued jobs, and periodic jobs run once per
-- period across any number of worker processes.

-- A consolidation run is recorded when it is asked for (manually or by the schedule) and finished by the
-- `cairn::consolidate` job; a request waits for it and, past its patience, answers with the run's id.
ALTER TABLE consolidation_runs ADD COLUMN status text NOT NULL DEFAULT 'done'
    CONSTRAINT consolidation_runs_status_check CHECK (status IN ('queued', 'done', 'failed'));
ALTER TABLE consolidation_runs ADD COLUMN error text;
ALTER TABLE consolidation_runs ALTER COLUMN finished_at DROP NOT NULL;
ALTER TABLE consolidation_runs ALTER COLUMN report DROP NOT NULL;
ALTER TABLE consolidation_runs ADD CONSTRAINT consolidation_runs_finished_check
    CHECK ((status IN ('done', 'failed')) = (finished_at IS NOT NULL));
ALTER TABLE consolidation_runs ALTER COLUMN status SET DEFAULT 'queued';

-- Periodic jobs (expiry, retention, the per-tenant consolidation schedule): each period of each job is
-- claimed once here, in the transaction that enqueues its job, so two worker processes whose clocks tick
-- for the same period enqueue it once. Control plane (no tenant): the owner's pool only.
CREATE TABLE job_schedule (
    job          text        NOT NULL,
    period_start timestamptz NOT NULL,
    claimed_at   timestamptz NOT NULL DEFAULT now(),
    claimed_by   text        NOT NULL,
    -- The apalis job enqueued for the period.
    job_id       text,
    CONSTRAINT job_schedule_pkey PRIMARY KEY (job, period_start)
);
