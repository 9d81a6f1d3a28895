-- Keyword search scoped to one tenant inside the index: a GIN index over (tenant_id, search_tsv) lets a
-- tenant's keyword query visit only its own matching rows. The plain search_tsv index made every query
-- also fetch, and then discard, the matching rows of every other tenant (half the heap visits in the
-- pipeline benchmark). btree_gin supplies the GIN operator class for uuid; it is a trusted extension, so a
-- database owner without superuser may create it.
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE INDEX memories_tenant_search_tsv_idx ON memories USING gin (tenant_id, search_tsv);
DROP INDEX memories_search_tsv_idx;
