-- Undo, then real erasure.
--
-- Every delete of a memory (any surface, by id or by tag, retention, forgetting) moves it to `memory_trash`:
-- a BEFORE DELETE trigger copies the row (its vector included), its relations and its entity links, so no
-- code path can forget to. Reads never see the trash; `cairn_restore_memory` puts a memory back while its
-- tenant's undo window (`tenants.undo_days`, default 7) lasts. After the window, or at once on an explicit
-- purge, the application erases it: the trash row goes, and its history keeps only ids, hashes and event
-- types. A transaction that sets `cairn.erase` to 'on' deletes without keeping (tenant deletion).

ALTER TABLE tenants ADD COLUMN undo_days integer NOT NULL DEFAULT 7
    CONSTRAINT tenants_undo_days_check CHECK (undo_days BETWEEN 0 AND 365);

CREATE TABLE memory_trash (
    tenant_id     uuid        NOT NULL,
    memory_id     uuid        NOT NULL,
    deleted_at    timestamptz NOT NULL DEFAULT now(),
    -- Copied out of `memory` for the by-tag restore and the dedupe check.
    tags          text[]      NOT NULL,
    content_hash  text        NOT NULL,
    -- The row as it was (`to_jsonb`), vector included, restored by column name; without its episode context
    -- (the neighbour's words, recomputed on restore) and its generated search vector.
    memory        jsonb       NOT NULL,
    relations     jsonb       NOT NULL DEFAULT '[]',
    entity_ids    uuid[]      NOT NULL DEFAULT '{}',
    CONSTRAINT memory_trash_pkey PRIMARY KEY (tenant_id, memory_id),
    CONSTRAINT memory_trash_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
);
CREATE INDEX memory_trash_deleted_idx ON memory_trash (tenant_id, deleted_at);
CREATE INDEX memory_trash_tags_idx ON memory_trash USING gin (tags);

ALTER TABLE memory_trash ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory_trash FORCE ROW LEVEL SECURITY;
CREATE POLICY memory_trash_tenant_isolation ON memory_trash
    USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
    WITH CHECK (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
GRANT SELECT, INSERT, UPDATE, DELETE ON memory_trash TO cairn_app;

CREATE FUNCTION cairn_memories_to_trash() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF coalesce(current_setting('cairn.erase', true), '') = 'on' THEN
        RETURN OLD;
    END IF;
    -- Before the delete: the cascade has not yet removed the relations and entity links.
    INSERT INTO memory_trash AS t (tenant_id, memory_id, tags, content_hash, memory, relations, entity_ids)
    VALUES (
        OLD.tenant_id, OLD.id, OLD.tags, OLD.content_hash,
        to_jsonb(OLD) - 'context' - 'context_tsv' - 'context_embedding' - 'search_tsv',
        coalesce((SELECT jsonb_agg(to_jsonb(r)) FROM relations r
                   WHERE r.tenant_id = OLD.tenant_id AND (r.source_id = OLD.id OR r.target_id = OLD.id)), '[]'),
        coalesce((SELECT array_agg(e.entity_id) FROM memory_entities e
                   WHERE e.tenant_id = OLD.tenant_id AND e.memory_id = OLD.id), '{}'))
    ON CONFLICT (tenant_id, memory_id) DO UPDATE
        SET deleted_at = now(), tags = EXCLUDED.tags, content_hash = EXCLUDED.content_hash,
            memory = EXCLUDED.memory, relations = EXCLUDED.relations, entity_ids = EXCLUDED.entity_ids;
    RETURN OLD;
END
$$;
CREATE TRIGGER memories_to_trash BEFORE DELETE ON memories
    FOR EACH ROW EXECUTE FUNCTION cairn_memories_to_trash();

-- A memory stored with the id of a deleted one (an import of an earlier export) supersedes the deleted copy:
-- an id is never both live and in the trash. AFTER, so an insert that ON CONFLICT skips takes nothing out.
CREATE FUNCTION cairn_memories_leave_trash() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM memory_trash WHERE tenant_id = NEW.tenant_id AND memory_id = NEW.id;
    RETURN NULL;
END
$$;
CREATE TRIGGER memories_leave_trash AFTER INSERT ON memories
    FOR EACH ROW EXECUTE FUNCTION cairn_memories_leave_trash();

-- The columns of `tbl` an INSERT may name (not generated) that `sample` has as keys, in table order: a row
-- saved before a column was added restores with that column's default.
CREATE FUNCTION cairn_insertable_columns(tbl regclass, sample jsonb) RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum)
      FROM pg_catalog.pg_attribute
     WHERE attrelid = tbl AND attnum > 0 AND NOT attisdropped AND attgenerated = '' AND sample ? attname
$$;

-- Puts one memory back from the trash with its relations (those whose other end exists) and entity links
-- (those whose entity exists). Answers 'absent' when the trash does not hold it, 'conflict' when a live
-- memory has its id or its content (nothing changes then), else 'restored'. Never raises on a conflict, so a
-- caller restoring many in one transaction can go on. The caller checks the undo window and records the event.
CREATE FUNCTION cairn_restore_memory(t uuid, mid uuid) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    trashed memory_trash;
    cols text;
    inserted integer;
BEGIN
    SELECT * INTO trashed FROM memory_trash WHERE tenant_id = t AND memory_id = mid FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 'absent';
    END IF;
    cols := cairn_insertable_columns('memories', trashed.memory);
    EXECUTE format('INSERT INTO memories (%s) SELECT %s FROM jsonb_populate_record(NULL::memories, $1)
                    ON CONFLICT DO NOTHING', cols, cols)
        USING trashed.memory;
    GET DIAGNOSTICS inserted = ROW_COUNT;
    IF inserted = 0 THEN
        RETURN 'conflict';
    END IF;
    -- (The insert's trigger took the row out of the trash.)
    -- The insert trigger took the decayed importance as the base; the base it had is kept. Its episode context
    -- was recomputed; unless the client supplied its vector, the vectors are computed again.
    UPDATE memories SET base_importance = coalesce((trashed.memory->>'base_importance')::real, base_importance),
           embedding_status = CASE WHEN context IS NOT NULL AND embedding_status = 'ready'
                                        AND embedding_model IS DISTINCT FROM 'client'
                                   THEN 'pending' ELSE embedding_status END
     WHERE tenant_id = t AND id = mid;
    IF jsonb_array_length(trashed.relations) > 0 THEN
        cols := cairn_insertable_columns('relations', trashed.relations->0);
        EXECUTE format(
            'INSERT INTO relations (%s) SELECT %s FROM jsonb_populate_recordset(NULL::relations, $1) r
              WHERE EXISTS (SELECT 1 FROM memories m WHERE m.tenant_id = $2 AND m.id = r.source_id)
                AND EXISTS (SELECT 1 FROM memories m WHERE m.tenant_id = $2 AND m.id = r.target_id)
             ON CONFLICT DO NOTHING', cols, cols)
            USING trashed.relations, t;
    END IF;
    INSERT INTO memory_entities (tenant_id, memory_id, entity_id)
    SELECT t, mid, e.id FROM entities e WHERE e.tenant_id = t AND e.id = ANY(trashed.entity_ids)
    ON CONFLICT DO NOTHING;
    RETURN 'restored';
END
$$;

-- A memory whose episode context changes loses its context vector at once (it was computed from the old
-- neighbour's words, which may be gone for good); the embedding job computes a new one.
CREATE OR REPLACE FUNCTION cairn_refresh_successor(t uuid, episode text, seq integer, at timestamptz, self uuid)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    next_id uuid;
    wanted text;
    status text;
BEGIN
    next_id := cairn_episode_successor(t, episode, seq, at, self);
    IF next_id IS NULL THEN
        RETURN;
    END IF;
    SELECT cairn_episode_predecessor(s.tenant_id, s.episode_id, s.sequence_number, s.created_at, s.id)
      INTO wanted FROM memories s WHERE s.tenant_id = t AND s.id = next_id;
    UPDATE memories SET context = wanted,
           context_tsv = CASE WHEN wanted IS NULL THEN NULL ELSE to_tsvector('english', wanted) END,
           context_embedding = NULL,
           embedding_status = CASE WHEN embedding_status = 'ready' AND embedding_model IS DISTINCT FROM 'client'
                                   THEN 'pending' ELSE embedding_status END
    WHERE tenant_id = t AND id = next_id AND context IS DISTINCT FROM wanted
    RETURNING embedding_status INTO status;
    -- Whenever it waits for a vector, a job is queued (a second one is harmless; none would leave it waiting).
    IF status = 'pending' AND coalesce(current_setting('app.tenant_id', true), '') <> '' THEN
        PERFORM cairn_enqueue('cairn::embed', jsonb_build_object('memory_ids', jsonb_build_array(next_id)), 8);
    END IF;
END
$$;

-- Memories deleted before this migration keep nothing but ids, hashes and event types in their history. (Under
-- FORCE ROW LEVEL SECURITY a migrating role that is neither superuser nor BYPASSRLS sees no rows here; such a
-- deployment scrubs by hand: run this statement as a superuser.)
UPDATE memory_events e
   SET before = CASE WHEN e.before IS NULL THEN NULL
                     ELSE jsonb_build_object('id', e.memory_id, 'content_hash', e.before->'content_hash') END,
       after = CASE WHEN e.after IS NULL THEN NULL
                    ELSE jsonb_build_object('id', e.memory_id, 'content_hash', e.after->'content_hash') END
 WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.tenant_id = e.tenant_id AND m.id = e.memory_id)
   AND (e.before IS NOT NULL OR e.after IS NOT NULL);

-- Definer functions resolve names only in pg_catalog (and pg_temp last, so a temporary object cannot shadow
-- anything). cairn_enqueue keeps public: apalis' push_job, which it calls, finds generate_ulid() there.
ALTER FUNCTION cairn_job_counts() SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION cairn_job_failures(integer) SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION cairn_enqueue(text, jsonb, integer) SET search_path = pg_catalog, public, pg_temp;
