-- A conversation says "ok" twice: a memory may repeat content the tenant already holds when its store asked
-- for that (`on_duplicate: store`). Such a memory is marked `repeated` and stands outside the content-hash
-- uniqueness, which keeps holding for every other memory: one canonical memory per content, found by
-- deduplication, and any number of repeats beside it (each its own turn, with its own episode and time).
-- The unique constraint becomes a partial unique index of the same name (a violation still names it).
-- (Building the index blocks writes to `memories` while it runs; deploy/README.md says how to plan for it.)
ALTER TABLE memories ADD COLUMN repeated boolean NOT NULL DEFAULT false;
ALTER TABLE memories DROP CONSTRAINT memories_tenant_content_hash_key;
CREATE UNIQUE INDEX memories_tenant_content_hash_key ON memories (tenant_id, content_hash) WHERE NOT repeated;
