-- Keyword search keyed by tenant and word together. The GIN indexes over (tenant_id, search_tsv) and
-- (tenant_id, context_tsv) hold the tenant id as an entry whose posting list is every memory of the tenant,
-- and a search walks it: 3-4 ms of a 4.7 ms keyword statement at 100k memories in the tenant, and it grows
-- with the tenant (the bulk of a ~40 ms keyword stage at a million). A word's posting list also spans every
-- tenant. Here each lexeme is indexed as `<tenant key>:<lexeme>` (the tenant key: the first 8 hex digits of
-- the tenant id), so a word's posting list holds only the tenant's memories that hold it (and those of a
-- tenant whose id starts alike: the statements still name the tenant, so those never match). The queries
-- use the same keys (`recall::bm25::keyed`). Matching stays `tsvector @@ tsquery` (ts_match_vq, LEAKPROOF
-- per migration 0007), so row-level security keeps the index condition.

-- The tenant's keys of a tsvector's lexemes (no positions: the selections are ANDs and ORs of lexemes).
-- A lexeme longer than 2,000 bytes is left out: with its key it could pass the tsvector's 2,047-byte limit,
-- and no query word is that long.
CREATE FUNCTION cairn_search_keys(tenant uuid, v tsvector) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT array_to_tsvector(ARRAY(
        SELECT left(tenant::text, 8) || ':' || l FROM unnest(tsvector_to_array(v)) AS l
         WHERE octet_length(l) <= 2000))
$$;

-- A generated column cannot read another one: the memory's own words are search_tsv's expression
-- (migration 0015) again. One ALTER, one rewrite of the table.
ALTER TABLE memories
    ADD COLUMN search_keys tsvector GENERATED ALWAYS AS (cairn_search_keys(tenant_id,
        to_tsvector('english', content || ' ' || coalesce(metadata->>'original_content', ''))
        || to_tsvector('english', cairn_tags_text(tags))
        || to_tsvector('simple', cairn_tags_text(tags)))) STORED,
    ADD COLUMN context_keys tsvector GENERATED ALWAYS AS (cairn_search_keys(tenant_id, context_tsv)) STORED;

-- A small pending list: GIN gathers new entries in an unsorted list that every search reads through until
-- a vacuum (or the list passing its limit) merges it. With the default 4 MB, a search read up to ~500 pages
-- of other writes' entries (298 pages, 3-4 ms of a 5 ms index scan, in a pipeline bench database; 1.3 ms
-- once vacuumed). 256 kB bounds that to 32 pages; the merge runs more often, in smaller steps.
CREATE INDEX memories_search_keys_idx ON memories USING gin (search_keys) WITH (gin_pending_list_limit = 256);
CREATE INDEX memories_context_keys_idx ON memories USING gin (context_keys) WITH (gin_pending_list_limit = 256)
    WHERE context_keys IS NOT NULL;
DROP INDEX IF EXISTS memories_tenant_search_tsv_idx;
DROP INDEX IF EXISTS memories_tenant_context_tsv_idx;

-- The trash keeps what a restore puts back: derived columns stay out (as in migration 0030, plus the keys).
CREATE OR REPLACE FUNCTION cairn_memories_to_trash() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    links jsonb;
    entity_list uuid[];
    deleted timestamptz := now();
BEGIN
    IF coalesce(current_setting('cairn.erase', true), '') = 'on' THEN
        RETURN OLD;
    END IF;
    -- Before the delete: the cascade has not yet removed the relations and entity links.
    SELECT coalesce(jsonb_agg(to_jsonb(r)), '[]') INTO links FROM relations r
     WHERE r.tenant_id = OLD.tenant_id AND (r.source_id = OLD.id OR r.target_id = OLD.id);
    SELECT coalesce(array_agg(e.entity_id), '{}') INTO entity_list FROM memory_entities e
     WHERE e.tenant_id = OLD.tenant_id AND e.memory_id = OLD.id;
    INSERT INTO memory_trash AS t (tenant_id, memory_id, tags, content_hash, memory, relations, entity_ids)
    VALUES (OLD.tenant_id, OLD.id, OLD.tags, OLD.content_hash,
            to_jsonb(OLD) - 'context' - 'context_tsv' - 'context_embedding' - 'search_tsv' - 'search_keys'
                          - 'context_keys', links, entity_list)
    ON CONFLICT (tenant_id, memory_id) DO UPDATE
        SET deleted_at = deleted, tags = EXCLUDED.tags, content_hash = EXCLUDED.content_hash,
            memory = EXCLUDED.memory, relations = EXCLUDED.relations, entity_ids = EXCLUDED.entity_ids;
    RETURN OLD;
END
$$;
