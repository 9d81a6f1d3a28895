-- Context-aware indexing: a memory of an episode (a conversation, a session, a document) is indexed with the
-- memory before it in that episode. `context` holds that neighbour's content (never returned as the memory's
-- content); the embedding job embeds context and content together, and keyword search scores the context's
-- words at a lower weight (`context_tsv`). A neighbour that arrives, changes or goes later re-indexes the
-- memory after it.
--
-- Plain columns set by triggers (adding them rewrites nothing; a generated column would rewrite the table and
-- every index, HNSW included, under an exclusive lock).

ALTER TABLE memories
    ADD COLUMN context text,
    ADD COLUMN context_tsv tsvector;

-- The content of the memory before (seq, at, self) in an episode: the highest lower sequence number, or
-- without sequence numbers the latest created before it. Two index-friendly probes.
CREATE FUNCTION cairn_episode_predecessor(t uuid, episode text, seq integer, at timestamptz, self uuid)
RETURNS text LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN seq IS NOT NULL THEN
        (SELECT p.content FROM memories p
          WHERE p.tenant_id = t AND p.episode_id = episode AND p.id <> self AND p.sequence_number < seq
          ORDER BY p.sequence_number DESC, p.id DESC LIMIT 1)
    ELSE
        (SELECT p.content FROM memories p
          WHERE p.tenant_id = t AND p.episode_id = episode AND p.id <> self AND p.sequence_number IS NULL
            AND p.created_at < at
          ORDER BY p.created_at DESC, p.id DESC LIMIT 1)
    END
$$;

-- The memory after (seq, at, self) in an episode, by the same order.
CREATE FUNCTION cairn_episode_successor(t uuid, episode text, seq integer, at timestamptz, self uuid)
RETURNS uuid LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN seq IS NOT NULL THEN
        (SELECT s.id FROM memories s
          WHERE s.tenant_id = t AND s.episode_id = episode AND s.id <> self AND s.sequence_number > seq
          ORDER BY s.sequence_number ASC, s.id ASC LIMIT 1)
    ELSE
        (SELECT s.id FROM memories s
          WHERE s.tenant_id = t AND s.episode_id = episode AND s.id <> self AND s.sequence_number IS NULL
            AND s.created_at > at
          ORDER BY s.created_at ASC, s.id ASC LIMIT 1)
    END
$$;
CREATE INDEX memories_episode_time_idx ON memories (tenant_id, episode_id, created_at, id)
    WHERE episode_id IS NOT NULL;

-- Writers of one episode take turns, so two turns stored at once cannot each miss the other.
CREATE FUNCTION cairn_lock_episode(t uuid, episode text) RETURNS void LANGUAGE sql AS $$
    SELECT pg_advisory_xact_lock(hashtextextended(t::text || '/' || episode, 19))
$$;

CREATE FUNCTION cairn_memories_context() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.episode_id IS NOT NULL THEN
        PERFORM cairn_lock_episode(NEW.tenant_id, NEW.episode_id);
        NEW.context := cairn_episode_predecessor(NEW.tenant_id, NEW.episode_id, NEW.sequence_number, NEW.created_at, NEW.id);
    ELSE
        NEW.context := NULL;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.context IS DISTINCT FROM OLD.context AND NEW.embedding_status = 'ready'
       AND NEW.embedding_model IS DISTINCT FROM 'client' THEN
        -- Moved in or between episodes: its vector is computed again (the caller's job, or the sweep below).
        NEW.embedding_status := 'pending';
    END IF;
    NEW.context_tsv := CASE WHEN NEW.context IS NULL THEN NULL ELSE to_tsvector('english', NEW.context) END;
    RETURN NEW;
END
$$;
CREATE TRIGGER memories_context BEFORE INSERT OR UPDATE OF episode_id, sequence_number, created_at ON memories
    FOR EACH ROW EXECUTE FUNCTION cairn_memories_context();

-- Recomputes the context of the memory after (seq, at, self) in an episode; when it changed, that memory's
-- vector is computed again (a client's own vector is kept).
CREATE FUNCTION cairn_refresh_successor(t uuid, episode text, seq integer, at timestamptz, self uuid)
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

CREATE FUNCTION cairn_memories_successor_context() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.episode_id IS NOT NULL THEN
        -- The memory that followed it where it was (deleted, moved, or changed) no longer has it before.
        PERFORM cairn_lock_episode(OLD.tenant_id, OLD.episode_id);
        PERFORM cairn_refresh_successor(OLD.tenant_id, OLD.episode_id, OLD.sequence_number, OLD.created_at, OLD.id);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.episode_id IS NOT NULL THEN
        PERFORM cairn_lock_episode(NEW.tenant_id, NEW.episode_id);
        PERFORM cairn_refresh_successor(NEW.tenant_id, NEW.episode_id, NEW.sequence_number, NEW.created_at, NEW.id);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER memories_successor_context AFTER INSERT OR DELETE OR UPDATE OF content, episode_id, sequence_number, created_at
    ON memories FOR EACH ROW EXECUTE FUNCTION cairn_memories_successor_context();

-- Existing episodes get their context in one pass (vectors are recomputed by `cairn reembed` when wanted).
-- Under FORCE ROW LEVEL SECURITY a migrating role that is neither superuser nor BYPASSRLS sees no rows here:
-- such deployments get contexts as their episodes change.
UPDATE memories m SET context = p.prev, context_tsv = to_tsvector('english', p.prev)
FROM (SELECT tenant_id, id,
             lag(content) OVER (PARTITION BY tenant_id, episode_id, (sequence_number IS NULL)
                                ORDER BY sequence_number, created_at, id) AS prev
      FROM memories WHERE episode_id IS NOT NULL) p
WHERE m.tenant_id = p.tenant_id AND m.id = p.id AND p.prev IS NOT NULL;

CREATE INDEX memories_tenant_context_tsv_idx ON memories USING gin (tenant_id, context_tsv);
