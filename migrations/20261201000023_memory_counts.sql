-- Maintained counts behind the stats and tag routes, so that neither scans a tenant.
--
-- Statement-level triggers on `memories`, `relations` and `entities` append one row per changed count and
-- statement (a delta) and never update one: writers of a tenant do not contend for a counter row. The expiry
-- pass folds a tenant's deltas into one row per count (`folded`) every 30 s, so a read sums a handful of rows
-- per count. A memory counts as active while `archived_at` is null (a memory past its TTL counts until the
-- expiry pass archives it). Counts (kind, key):
--   active, archived                  memories
--   lifecycle/<memory_type>, type/<type>, embedding/<embedding_status>, tag/<tag>, hour/<created, to the hour>
--                                     active memories
--   relations, entities               rows of those tables
-- A transaction that sets `cairn.erase` (tenant deletion) counts nothing: its counts go with the tenant.

CREATE TABLE memory_counts (
    tenant_id  uuid    NOT NULL,
    kind       text    NOT NULL,
    key        text    NOT NULL DEFAULT '',
    n          bigint  NOT NULL,
    folded     boolean NOT NULL DEFAULT false,
    CONSTRAINT memory_counts_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
);
CREATE INDEX memory_counts_key_idx ON memory_counts (tenant_id, kind, key) INCLUDE (n);
CREATE INDEX memory_counts_unfolded_idx ON memory_counts (tenant_id, kind, key) WHERE NOT folded;

ALTER TABLE memory_counts ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory_counts FORCE ROW LEVEL SECURITY;
CREATE POLICY memory_counts_tenant_isolation ON memory_counts
    USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
    WITH CHECK (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
GRANT SELECT, INSERT, DELETE ON memory_counts TO cairn_app;

-- The counts one memory row contributes, each `sign` (1 for a new row, -1 for an old one).
CREATE FUNCTION cairn_memory_count_keys(archived timestamptz, lifecycle text, class text, embedding text,
                                        created timestamptz, tag_list text[], sign bigint)
RETURNS TABLE (kind text, key text, n bigint) LANGUAGE sql STABLE AS $$
    SELECT 'archived', '', $7 WHERE $1 IS NOT NULL
    UNION ALL SELECT 'active', '', $7 WHERE $1 IS NULL
    UNION ALL SELECT 'lifecycle', $2, $7 WHERE $1 IS NULL
    UNION ALL SELECT 'type', $3, $7 WHERE $1 IS NULL
    UNION ALL SELECT 'embedding', $4, $7 WHERE $1 IS NULL
    UNION ALL SELECT 'hour', to_char($5 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24'), $7 WHERE $1 IS NULL
    UNION ALL SELECT 'tag', t, $7 FROM (SELECT DISTINCT unnest($6) AS t) d WHERE $1 IS NULL
$$;

CREATE FUNCTION cairn_count_memories() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF coalesce(current_setting('cairn.erase', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO memory_counts (tenant_id, kind, key, n)
        SELECT r.tenant_id, c.kind, c.key, sum(c.n)
          FROM new_rows r, cairn_memory_count_keys(r.archived_at, r.memory_type, r.type, r.embedding_status, r.created_at, r.tags, 1) c GROUP BY 1, 2, 3;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO memory_counts (tenant_id, kind, key, n)
        SELECT r.tenant_id, c.kind, c.key, sum(c.n)
          FROM old_rows r, cairn_memory_count_keys(r.archived_at, r.memory_type, r.type, r.embedding_status, r.created_at, r.tags, -1) c GROUP BY 1, 2, 3;
    ELSE
        -- Most updates (an access, a vector) change no count: nothing is written for them.
        INSERT INTO memory_counts (tenant_id, kind, key, n)
        SELECT tenant_id, kind, key, sum(n) FROM (
            SELECT r.tenant_id, c.kind, c.key, c.n FROM old_rows r, cairn_memory_count_keys(r.archived_at, r.memory_type, r.type, r.embedding_status, r.created_at, r.tags, -1) c
            UNION ALL
            SELECT r.tenant_id, c.kind, c.key, c.n FROM new_rows r, cairn_memory_count_keys(r.archived_at, r.memory_type, r.type, r.embedding_status, r.created_at, r.tags, 1) c
        ) d GROUP BY 1, 2, 3 HAVING sum(n) <> 0;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER memories_count_insert AFTER INSERT ON memories
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_count_memories();
CREATE TRIGGER memories_count_update AFTER UPDATE ON memories
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_count_memories();
CREATE TRIGGER memories_count_delete AFTER DELETE ON memories
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_count_memories();

-- Rows of `relations` or `entities` (TG_ARGV[0] names the count).
CREATE FUNCTION cairn_count_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF coalesce(current_setting('cairn.erase', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO memory_counts (tenant_id, kind, n) SELECT tenant_id, TG_ARGV[0], count(*) FROM new_rows GROUP BY 1;
    ELSE
        INSERT INTO memory_counts (tenant_id, kind, n) SELECT tenant_id, TG_ARGV[0], -count(*) FROM old_rows GROUP BY 1;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER relations_count_insert AFTER INSERT ON relations
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_count_rows('relations');
CREATE TRIGGER relations_count_delete AFTER DELETE ON relations
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_count_rows('relations');
CREATE TRIGGER entities_count_insert AFTER INSERT ON entities
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_count_rows('entities');
CREATE TRIGGER entities_count_delete AFTER DELETE ON entities
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_count_rows('entities');

-- The counts of what is stored already, tenant by tenant: the tables force row-level security, so an owner
-- that is neither superuser nor BYPASSRLS sees a tenant's rows only with `app.tenant_id` set to it.
DO $$
DECLARE
    t uuid;
BEGIN
    FOR t IN SELECT id FROM tenants LOOP
        PERFORM set_config('app.tenant_id', t::text, true);
        INSERT INTO memory_counts (tenant_id, kind, key, n, folded)
        SELECT m.tenant_id, c.kind, c.key, sum(c.n), true
          FROM memories m,
               cairn_memory_count_keys(m.archived_at, m.memory_type, m.type, m.embedding_status, m.created_at, m.tags, 1) c
         WHERE m.tenant_id = t GROUP BY 1, 2, 3;
        INSERT INTO memory_counts (tenant_id, kind, n, folded)
        SELECT tenant_id, 'relations', count(*), true FROM relations WHERE tenant_id = t GROUP BY 1;
        INSERT INTO memory_counts (tenant_id, kind, n, folded)
        SELECT tenant_id, 'entities', count(*), true FROM entities WHERE tenant_id = t GROUP BY 1;
    END LOOP;
    PERFORM set_config('app.tenant_id', '', true);
END
$$;
