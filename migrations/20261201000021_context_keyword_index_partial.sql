-- The context keyword index held every memory of a tenant under its tenant id, with a context or without:
-- a keyword search read the tenant's whole posting list to find the few memories with context (3 ms of a
-- 6 ms search at 10k memories, measured by the pipeline bench). Partial: only memories that have one.
DROP INDEX IF EXISTS memories_tenant_context_tsv_idx;
CREATE INDEX memories_tenant_context_tsv_idx ON memories USING gin (tenant_id, context_tsv)
    WHERE context_tsv IS NOT NULL;
