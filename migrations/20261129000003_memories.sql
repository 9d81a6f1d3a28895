-- Tenant data: memories, relations, entities, memory_entities, memory_events.
--
-- Every table carries tenant_id first in its primary key and in every foreign key (so the schema can be
-- distributed by tenant_id on Citus), and is under ENABLE + FORCE row-level security with a fail-closed
-- policy: with `app.tenant_id` unset, NULLIF(...) is NULL and no row matches.

CREATE TABLE memories (
    tenant_id          uuid        NOT NULL,
    id                 uuid        NOT NULL DEFAULT gen_random_uuid(),
    content            text        NOT NULL,
    -- sha-256 (hex) of the normalised content (trimmed, whitespace collapsed, lowercased): dedup key.
    content_hash       text        NOT NULL,
    -- The classification (AutoMem's `type`, SHODH's `memory_type`), stored in canonical case.
    type               text        NOT NULL DEFAULT 'Context',
    confidence         real        NOT NULL DEFAULT 0.3,
    -- remem's lifecycle class.
    memory_type        text        NOT NULL DEFAULT 'long_term',
    ttl_seconds        bigint,
    expires_at         timestamptz,
    tags               text[]      NOT NULL DEFAULT '{}',
    tag_prefixes       text[]      NOT NULL DEFAULT '{}',
    importance         real        NOT NULL DEFAULT 0.5,
    metadata           jsonb       NOT NULL DEFAULT '{}',
    source_type        text        NOT NULL DEFAULT 'user',
    credibility        real        NOT NULL DEFAULT 1.0,
    quality_score      real,
    emotion            text,
    emotional_valence  real,
    emotional_arousal  real,
    flashbulb_until    timestamptz,
    episode_id         text,
    sequence_number    integer,
    user_id            text,
    agent_id           text,
    run_id             text,
    t_valid            timestamptz,
    t_invalid          timestamptz,
    -- The memory's own timestamp: may be back-dated by the caller, never in the future.
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    last_accessed_at   timestamptz,
    access_count       bigint      NOT NULL DEFAULT 0,
    archived_at        timestamptz,
    embedding          vector(384),
    embedding_status   text        NOT NULL DEFAULT 'pending',
    embedding_model    text,
    search_tsv         tsvector GENERATED ALWAYS AS (
        to_tsvector('english', content) || to_tsvector('simple', cairn_tags_text(tags))
    ) STORED,
    CONSTRAINT memories_pkey PRIMARY KEY (tenant_id, id),
    CONSTRAINT memories_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT memories_tenant_content_hash_key UNIQUE (tenant_id, content_hash),
    CONSTRAINT memories_content_check CHECK (char_length(content) BETWEEN 1 AND 2000),
    CONSTRAINT memories_memory_type_check CHECK (memory_type IN ('short_term', 'long_term')),
    CONSTRAINT memories_importance_check CHECK (importance BETWEEN 0 AND 1),
    CONSTRAINT memories_confidence_check CHECK (confidence BETWEEN 0 AND 1),
    CONSTRAINT memories_credibility_check CHECK (credibility BETWEEN 0 AND 1),
    CONSTRAINT memories_quality_check CHECK (quality_score IS NULL OR quality_score BETWEEN 0 AND 1),
    CONSTRAINT memories_valence_check CHECK (emotional_valence IS NULL OR emotional_valence BETWEEN -1 AND 1),
    CONSTRAINT memories_arousal_check CHECK (emotional_arousal IS NULL OR emotional_arousal BETWEEN 0 AND 1),
    CONSTRAINT memories_embedding_status_check CHECK (embedding_status IN ('pending', 'ready', 'failed')),
    CONSTRAINT memories_validity_check CHECK (t_invalid IS NULL OR t_valid IS NULL OR t_invalid >= t_valid)
);


-- Listing and paging (newest first, id as the tie-breaker).
CREATE INDEX memories_tenant_created_idx ON memories (tenant_id, created_at DESC, id DESC);
-- AutoMem's by-tag order.
CREATE INDEX memories_tenant_importance_idx ON memories (tenant_id, importance DESC, created_at DESC, id);
CREATE INDEX memories_tags_idx ON memories USING gin (tags);
CREATE INDEX memories_tag_prefixes_idx ON memories USING gin (tag_prefixes);
CREATE INDEX memories_search_tsv_idx ON memories USING gin (search_tsv);
CREATE INDEX memories_embedding_idx ON memories USING hnsw (embedding vector_cosine_ops);
CREATE INDEX memories_episode_idx ON memories (tenant_id, episode_id, sequence_number) WHERE episode_id IS NOT NULL;
CREATE INDEX memories_user_idx ON memories (tenant_id, user_id, created_at DESC) WHERE user_id IS NOT NULL;
CREATE INDEX memories_agent_idx ON memories (tenant_id, agent_id, created_at DESC) WHERE agent_id IS NOT NULL;
CREATE INDEX memories_run_idx ON memories (tenant_id, run_id, created_at DESC) WHERE run_id IS NOT NULL;
CREATE INDEX memories_expires_idx ON memories (expires_at) WHERE expires_at IS NOT NULL AND archived_at IS NULL;
CREATE INDEX memories_embedding_pending_idx ON memories (tenant_id, updated_at) WHERE embedding_status <> 'ready';

-- Typed, weighted edges between two memories of one tenant. Deleting a memory deletes its edges.
CREATE TABLE relations (
    tenant_id   uuid        NOT NULL,
    id          uuid        NOT NULL DEFAULT gen_random_uuid(),
    source_id   uuid        NOT NULL,
    target_id   uuid        NOT NULL,
    rel_type    text        NOT NULL,
    strength    real        NOT NULL DEFAULT 0.5,
    properties  jsonb       NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT relations_pkey PRIMARY KEY (tenant_id, id),
    CONSTRAINT relations_source_fkey FOREIGN KEY (tenant_id, source_id) REFERENCES memories (tenant_id, id) ON DELETE CASCADE,
    CONSTRAINT relations_target_fkey FOREIGN KEY (tenant_id, target_id) REFERENCES memories (tenant_id, id) ON DELETE CASCADE,
    CONSTRAINT relations_edge_key UNIQUE (tenant_id, source_id, target_id, rel_type),
    CONSTRAINT relations_no_self_check CHECK (source_id <> target_id),
    CONSTRAINT relations_strength_check CHECK (strength BETWEEN 0 AND 1)
);
CREATE INDEX relations_target_idx ON relations (tenant_id, target_id);
CREATE TRIGGER relations_touch_updated_at BEFORE UPDATE ON relations
    FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.* AND NEW.updated_at = OLD.updated_at)
    EXECUTE FUNCTION cairn_touch_updated_at();

CREATE TABLE entities (
    tenant_id        uuid        NOT NULL,
    id               uuid        NOT NULL DEFAULT gen_random_uuid(),
    entity_type      text        NOT NULL,
    name             text        NOT NULL,
    normalized_name  text        NOT NULL,
    metadata         jsonb       NOT NULL DEFAULT '{}',
    created_at       timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT entities_pkey PRIMARY KEY (tenant_id, id),
    CONSTRAINT entities_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT entities_name_key UNIQUE (tenant_id, entity_type, normalized_name),
    CONSTRAINT entities_type_check CHECK (entity_type IN
        ('person', 'organization', 'project', 'tool', 'concept', 'location', 'preference', 'fact'))
);

CREATE TABLE memory_entities (
    tenant_id  uuid NOT NULL,
    memory_id  uuid NOT NULL,
    entity_id  uuid NOT NULL,
    CONSTRAINT memory_entities_pkey PRIMARY KEY (tenant_id, memory_id, entity_id),
    CONSTRAINT memory_entities_memory_fkey FOREIGN KEY (tenant_id, memory_id) REFERENCES memories (tenant_id, id) ON DELETE CASCADE,
    CONSTRAINT memory_entities_entity_fkey FOREIGN KEY (tenant_id, entity_id) REFERENCES entities (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX memory_entities_entity_idx ON memory_entities (tenant_id, entity_id);

-- Audit trail. No foreign key to memories: the trail of a deleted memory outlives it.
CREATE TABLE memory_events (
    tenant_id   uuid        NOT NULL,
    id          bigint      GENERATED ALWAYS AS IDENTITY,
    memory_id   uuid        NOT NULL,
    event_type  text        NOT NULL,
    -- The API key (or `system:<job>`) that caused the change.
    actor       text        NOT NULL,
    before      jsonb,
    after       jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT memory_events_pkey PRIMARY KEY (tenant_id, id),
    CONSTRAINT memory_events_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT memory_events_type_check CHECK (event_type IN ('created', 'updated', 'deleted', 'archived', 'promoted', 'superseded'))
);
CREATE INDEX memory_events_memory_idx ON memory_events (tenant_id, memory_id, id);

-- Row-level security: fail closed on a missing or empty app.tenant_id.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['memories', 'relations', 'entities', 'memory_entities', 'memory_events'] LOOP
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
        EXECUTE format(
            'CREATE POLICY %I ON %I USING (tenant_id = NULLIF(current_setting(''app.tenant_id'', true), '''')::uuid) '
            'WITH CHECK (tenant_id = NULLIF(current_setting(''app.tenant_id'', true), '''')::uuid)',
            t || '_tenant_isolation', t);
        EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO cairn_app', t);
    END LOOP;
END
$$;
