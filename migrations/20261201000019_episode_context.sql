-- Context-aware indexing: a memory of an episode (a conversation, a session, a document) is indexed with the
-- memory before it in that episode. `context` holds that neighbour's content (never returned as the memory's
-- content); the embedding job embeds context and content together, and keyword search scores the context's
-- words at a lower weight (`context_tsv`). A neighbour that arrives later re-indexes the memory after it.

ALTER TABLE memories
    ADD COLUMN context text,
    ADD COLUMN context_tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', coalesce(context, ''))) STORED;

-- The memory that precedes `m` in its episode: the highest sequence number below its own, else (without
-- sequence numbers) the latest created before it.
CREATE FUNCTION cairn_episode_predecessor(t uuid, episode text, seq integer, at timestamptz, self uuid)
RETURNS text LANGUAGE sql STABLE AS $$
    SELECT p.content FROM memories p
    WHERE p.tenant_id = t AND p.episode_id = episode AND p.id <> self
      AND CASE WHEN seq IS NOT NULL AND p.sequence_number IS NOT NULL THEN p.sequence_number < seq
               ELSE p.created_at < at END
    ORDER BY p.sequence_number DESC NULLS LAST, p.created_at DESC, p.id DESC
    LIMIT 1
$$;

CREATE FUNCTION cairn_memories_context() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.episode_id IS NOT NULL THEN
        NEW.context := cairn_episode_predecessor(NEW.tenant_id, NEW.episode_id, NEW.sequence_number, NEW.created_at, NEW.id);
    ELSE
        NEW.context := NULL;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER memories_context BEFORE INSERT OR UPDATE OF episode_id, sequence_number ON memories
    FOR EACH ROW EXECUTE FUNCTION cairn_memories_context();

-- A memory inserted (or whose content changed) becomes the context of the next memory of its episode, if that
-- one's context changes: its vector is then computed again.
CREATE FUNCTION cairn_memories_successor_context() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    next_id uuid;
    next_status text;
    next_context text;
    wanted text;
BEGIN
    IF NEW.episode_id IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT s.id, s.embedding_status, s.context,
           cairn_episode_predecessor(s.tenant_id, s.episode_id, s.sequence_number, s.created_at, s.id)
      INTO next_id, next_status, next_context, wanted
    FROM memories s
    WHERE s.tenant_id = NEW.tenant_id AND s.episode_id = NEW.episode_id AND s.id <> NEW.id
      AND CASE WHEN NEW.sequence_number IS NOT NULL AND s.sequence_number IS NOT NULL
               THEN s.sequence_number > NEW.sequence_number ELSE s.created_at > NEW.created_at END
    ORDER BY s.sequence_number ASC NULLS LAST, s.created_at ASC, s.id ASC
    LIMIT 1;
    IF next_id IS NULL OR next_context IS NOT DISTINCT FROM wanted THEN
        RETURN NULL;
    END IF;
    UPDATE memories SET context = wanted,
           embedding_status = CASE WHEN embedding_status = 'ready' THEN 'pending' ELSE embedding_status END
    WHERE tenant_id = NEW.tenant_id AND id = next_id;
    -- A memory still waiting for its vector is embedded with the new context by the job already queued.
    IF next_status = 'ready' AND coalesce(current_setting('app.tenant_id', true), '') <> '' THEN
        PERFORM cairn_enqueue('cairn::embed', jsonb_build_object('memory_ids', jsonb_build_array(next_id)), 8);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER memories_successor_context AFTER INSERT OR UPDATE OF content ON memories
    FOR EACH ROW EXECUTE FUNCTION cairn_memories_successor_context();

-- Existing episodes get their context (vectors are recomputed by `cairn reembed` when wanted).
UPDATE memories m
SET context = cairn_episode_predecessor(m.tenant_id, m.episode_id, m.sequence_number, m.created_at, m.id)
WHERE m.episode_id IS NOT NULL;

CREATE INDEX memories_tenant_context_tsv_idx ON memories USING gin (tenant_id, context_tsv);
