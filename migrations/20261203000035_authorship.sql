-- Authorship: who stored each memory, stamped by the server from the request's credentials, never taken from
-- a body: `key:<api key id>` for a tenant's key, `system:<job>` for the service's own jobs (consolidation),
-- `admin:<email>` for an operator. Memories stored before this column existed have none. Every change is
-- already attributed the same way in `memory_events.actor`.
ALTER TABLE memories ADD COLUMN created_by text;
-- `GET /api/v1/memories?created_by=...` (newest first, like every list).
-- (Building the index blocks writes to `memories` while it runs; deploy/README.md says how to plan for it.)
CREATE INDEX memories_tenant_created_by_idx ON memories (tenant_id, created_by, created_at DESC)
    WHERE created_by IS NOT NULL;
