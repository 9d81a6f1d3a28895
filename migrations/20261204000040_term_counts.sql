-- Keyword statistics kept by the writes that change them, instead of a scan of each searched tenant's memories
-- every minute (issue 28). Two more counts in `memory_counts`, written as deltas by a statement-level trigger
-- and folded by the expiry pass like every other count:
--   term/<lexeme>   active memories whose search_tsv holds the lexeme (its document frequency, for BM25)
--   lexemes/''      the lexemes of the active memories, summed (over `active`: the average length)
-- A recall reads the counts of its own query's lexemes only, in the statement that makes them
-- (`store::terms::lexemes`). A memory counts while it is active (`archived_at` null), as for `active`.
-- An update that changes neither a memory's words nor whether it is active (an access, a vector) writes
-- nothing. A transaction that sets `cairn.erase` (tenant deletion) counts nothing.

CREATE FUNCTION cairn_count_terms() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    tenants uuid[];
    kinds text[];
    keys text[];
    counts bigint[];
BEGIN
    IF coalesce(current_setting('cairn.erase', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    -- The deltas, read out of the transition tables first: on Citus a statement that reads a transition table
    -- cannot also write a distributed table (migration 30).
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(t), array_agg(k), array_agg(w), array_agg(n) INTO tenants, kinds, keys, counts FROM (
            SELECT r.tenant_id AS t, 'term' AS k, u.lexeme AS w, count(*) AS n
              FROM new_rows r, unnest(r.search_tsv) u WHERE r.archived_at IS NULL GROUP BY 1, 3
            UNION ALL
            SELECT r.tenant_id, 'lexemes', '', sum(length(r.search_tsv))
              FROM new_rows r WHERE r.archived_at IS NULL GROUP BY 1
        ) d;
    ELSIF TG_OP = 'DELETE' THEN
        SELECT array_agg(t), array_agg(k), array_agg(w), array_agg(n) INTO tenants, kinds, keys, counts FROM (
            SELECT r.tenant_id AS t, 'term' AS k, u.lexeme AS w, -count(*) AS n
              FROM old_rows r, unnest(r.search_tsv) u WHERE r.archived_at IS NULL GROUP BY 1, 3
            UNION ALL
            SELECT r.tenant_id, 'lexemes', '', -sum(length(r.search_tsv))
              FROM old_rows r WHERE r.archived_at IS NULL GROUP BY 1
        ) d;
    ELSE
        SELECT array_agg(t), array_agg(k), array_agg(w), array_agg(n) INTO tenants, kinds, keys, counts FROM (
            SELECT t, k, w, sum(n) AS n FROM (
                SELECT c.tenant_id AS t, 'term' AS k, u.lexeme AS w, c.sign AS n
                  FROM (SELECT o.tenant_id, o.search_tsv, -1 AS sign FROM old_rows o JOIN new_rows r ON r.id = o.id
                         WHERE o.archived_at IS NULL
                           AND (o.search_tsv IS DISTINCT FROM r.search_tsv OR r.archived_at IS NOT NULL)
                        UNION ALL
                        SELECT r.tenant_id, r.search_tsv, 1 FROM old_rows o JOIN new_rows r ON r.id = o.id
                         WHERE r.archived_at IS NULL
                           AND (o.search_tsv IS DISTINCT FROM r.search_tsv OR o.archived_at IS NOT NULL)) c,
                       unnest(c.search_tsv) u
                UNION ALL
                SELECT o.tenant_id, 'lexemes', '', -length(o.search_tsv) FROM old_rows o JOIN new_rows r ON r.id = o.id
                 WHERE o.archived_at IS NULL AND (o.search_tsv IS DISTINCT FROM r.search_tsv OR r.archived_at IS NOT NULL)
                UNION ALL
                SELECT r.tenant_id, 'lexemes', '', length(r.search_tsv) FROM old_rows o JOIN new_rows r ON r.id = o.id
                 WHERE r.archived_at IS NULL AND (o.search_tsv IS DISTINCT FROM r.search_tsv OR o.archived_at IS NOT NULL)
            ) d GROUP BY 1, 2, 3 HAVING sum(n) <> 0
        ) d;
    END IF;
    IF tenants IS NULL THEN
        RETURN NULL;
    END IF;
    IF to_regclass('pg_catalog.pg_dist_partition') IS NULL THEN
        -- Plain Postgres: one statement for them all (a batch of 500 turns has a few thousand lexemes).
        INSERT INTO memory_counts (tenant_id, kind, key, n) SELECT * FROM unnest(tenants, kinds, keys, counts);
    ELSE
        -- Citus: one statement per count, as the other count triggers write (each goes to the tenant's shard).
        FOR i IN 1 .. cardinality(tenants) LOOP
            INSERT INTO memory_counts (tenant_id, kind, key, n) VALUES (tenants[i], kinds[i], keys[i], counts[i]);
        END LOOP;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER memories_terms_insert AFTER INSERT ON memories
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_count_terms();
CREATE TRIGGER memories_terms_update AFTER UPDATE ON memories
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_count_terms();
CREATE TRIGGER memories_terms_delete AFTER DELETE ON memories
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION cairn_count_terms();

-- The counts of what is stored already, tenant by tenant (the tables force row-level security).
DO $$
DECLARE
    t uuid;
BEGIN
    FOR t IN SELECT id FROM tenants LOOP
        PERFORM set_config('app.tenant_id', t::text, true);
        INSERT INTO memory_counts (tenant_id, kind, key, n, folded)
        SELECT m.tenant_id, 'term', u.lexeme, count(*), true
          FROM memories m, unnest(m.search_tsv) u WHERE m.tenant_id = t AND m.archived_at IS NULL GROUP BY 1, 3;
        INSERT INTO memory_counts (tenant_id, kind, key, n, folded)
        SELECT m.tenant_id, 'lexemes', '', sum(length(m.search_tsv)), true
          FROM memories m WHERE m.tenant_id = t AND m.archived_at IS NULL GROUP BY 1;
    END LOOP;
    PERFORM set_config('app.tenant_id', '', true);
END
$$;
