-- What a tenant stores, for its storage quota and `/api/v1/usage`, counts everything it keeps, not only its
-- live memories' content and metadata: also their tags and summary, their history (each event's before, after
-- and actor), the trash (each deleted memory's snapshot and its relations), associations (their properties,
-- and 64 bytes an edge), entities (names and metadata, and 64 bytes each), aliases and mentions. History and
-- trash had let a tenant hold 6 MB under a 100 KB quota.
--
-- As for memories (migration 18): statement-level triggers append deltas to `tenant_usage_delta`, folded into
-- `tenant_usage` by the usage flush; an update changes the figure only when a counted column changed; a
-- tenant's erasure (`cairn.erase`) counts nothing. `cairn_memory_bytes` and `cairn_stored_bytes` below are the
-- one definition of a row's bytes, which the triggers, the backfill and the tests' scans all use.
CREATE FUNCTION cairn_memory_bytes(content text, metadata jsonb, tags text[], summary text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT octet_length(content)::bigint + octet_length(metadata::text) + octet_length(public.cairn_tags_text(tags))
           + coalesce(octet_length(summary), 0)
$$;

CREATE FUNCTION cairn_stored_bytes(tbl text, r jsonb) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE tbl
        WHEN 'memory_events' THEN coalesce(octet_length((r->'before')::text), 0) + coalesce(octet_length((r->'after')::text), 0)
                                  + coalesce(octet_length(r->>'actor'), 0)
        WHEN 'memory_trash' THEN coalesce(octet_length((r->'memory')::text), 0) + coalesce(octet_length((r->'relations')::text), 0)
        WHEN 'relations' THEN 64 + coalesce(octet_length((r->'properties')::text), 0)
        WHEN 'entities' THEN 64 + coalesce(octet_length(r->>'name'), 0) + coalesce(octet_length((r->'metadata')::text), 0)
        WHEN 'entity_aliases' THEN 64 + coalesce(octet_length(r->>'alias'), 0)
        WHEN 'memory_entities' THEN 32
        ELSE 0
    END::bigint
$$;

-- Memories: their tags and summary count too (the functions of migration 18, with the wider measure).
CREATE OR REPLACE FUNCTION cairn_count_inserted() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    INSERT INTO public.tenant_usage_delta (tenant_id, memories, storage_bytes)
    SELECT tenant_id, count(*), sum(public.cairn_memory_bytes(content, metadata, tags, summary)) FROM added GROUP BY tenant_id;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION cairn_count_deleted() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF coalesce(current_setting('cairn.erase', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    INSERT INTO public.tenant_usage_delta (tenant_id, memories, storage_bytes)
    SELECT tenant_id, -count(*), -sum(public.cairn_memory_bytes(content, metadata, tags, summary)) FROM removed GROUP BY tenant_id;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION cairn_count_updated() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    INSERT INTO public.tenant_usage_delta (tenant_id, memories, storage_bytes)
    VALUES (NEW.tenant_id, 0, public.cairn_memory_bytes(NEW.content, NEW.metadata, NEW.tags, NEW.summary)
                              - public.cairn_memory_bytes(OLD.content, OLD.metadata, OLD.tags, OLD.summary));
    RETURN NULL;
END
$$;

DROP TRIGGER memories_count_updated ON memories;
CREATE TRIGGER memories_count_updated AFTER UPDATE OF content, metadata, tags, summary ON memories
    FOR EACH ROW WHEN (OLD.content IS DISTINCT FROM NEW.content OR OLD.metadata IS DISTINCT FROM NEW.metadata
                       OR OLD.tags IS DISTINCT FROM NEW.tags OR OLD.summary IS DISTINCT FROM NEW.summary)
    EXECUTE FUNCTION cairn_count_updated();

CREATE FUNCTION cairn_count_stored() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF coalesce(current_setting('cairn.erase', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO public.tenant_usage_delta (tenant_id, memories, storage_bytes)
        SELECT a.tenant_id, 0, sum(public.cairn_stored_bytes(TG_TABLE_NAME, to_jsonb(a))) FROM added a GROUP BY a.tenant_id;
    ELSE
        INSERT INTO public.tenant_usage_delta (tenant_id, memories, storage_bytes)
        SELECT r.tenant_id, 0, -sum(public.cairn_stored_bytes(TG_TABLE_NAME, to_jsonb(r))) FROM removed r GROUP BY r.tenant_id;
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION cairn_count_stored_updated() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    INSERT INTO public.tenant_usage_delta (tenant_id, memories, storage_bytes)
    VALUES (NEW.tenant_id, 0, public.cairn_stored_bytes(TG_TABLE_NAME, to_jsonb(NEW))
                              - public.cairn_stored_bytes(TG_TABLE_NAME, to_jsonb(OLD)));
    RETURN NULL;
END
$$;

-- Inserts and deletes per statement (one delta per statement and tenant, from the transition tables); updates
-- per row, and only when a counted column changed: strengthening or decaying an association, the hot path's
-- writes, fire nothing.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['memory_events', 'memory_trash', 'relations', 'entities', 'entity_aliases', 'memory_entities'] LOOP
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS added
                        FOR EACH STATEMENT EXECUTE FUNCTION cairn_count_stored()', t || '_stored_inserted', t);
        EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS removed
                        FOR EACH STATEMENT EXECUTE FUNCTION cairn_count_stored()', t || '_stored_deleted', t);
    END LOOP;
END
$$;
CREATE TRIGGER memory_events_stored_updated AFTER UPDATE OF before, after, actor ON memory_events FOR EACH ROW
    WHEN (OLD.before IS DISTINCT FROM NEW.before OR OLD.after IS DISTINCT FROM NEW.after OR OLD.actor IS DISTINCT FROM NEW.actor)
    EXECUTE FUNCTION cairn_count_stored_updated();
CREATE TRIGGER memory_trash_stored_updated AFTER UPDATE OF memory, relations ON memory_trash FOR EACH ROW
    WHEN (OLD.memory IS DISTINCT FROM NEW.memory OR OLD.relations IS DISTINCT FROM NEW.relations)
    EXECUTE FUNCTION cairn_count_stored_updated();
CREATE TRIGGER relations_stored_updated AFTER UPDATE OF properties ON relations FOR EACH ROW
    WHEN (OLD.properties IS DISTINCT FROM NEW.properties)
    EXECUTE FUNCTION cairn_count_stored_updated();
CREATE TRIGGER entities_stored_updated AFTER UPDATE OF name, metadata ON entities FOR EACH ROW
    WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.metadata IS DISTINCT FROM NEW.metadata)
    EXECUTE FUNCTION cairn_count_stored_updated();
CREATE TRIGGER entity_aliases_stored_updated AFTER UPDATE OF alias ON entity_aliases FOR EACH ROW
    WHEN (OLD.alias IS DISTINCT FROM NEW.alias)
    EXECUTE FUNCTION cairn_count_stored_updated();

-- Backfill, tenant by tenant with the tenant set (the owner is bound by row-level security like any role that
-- is not a superuser), with writers held off so nothing slips between the backfill and the triggers. The
-- memories' own content and metadata are counted already (migration 18); their tags and summary are added.
LOCK TABLE memories, memory_events, memory_trash, relations, entities, entity_aliases, memory_entities
    IN SHARE ROW EXCLUSIVE MODE;
DO $$
DECLARE
    t uuid;
BEGIN
    FOR t IN SELECT id FROM tenants LOOP
        PERFORM set_config('app.tenant_id', t::text, true);
        INSERT INTO tenant_usage_delta (tenant_id, memories, storage_bytes)
        SELECT t, 0,
            coalesce((SELECT sum(octet_length(cairn_tags_text(m.tags)) + coalesce(octet_length(m.summary), 0))
                      FROM memories m WHERE m.tenant_id = t), 0)
          + coalesce((SELECT sum(cairn_stored_bytes('memory_events', to_jsonb(x))) FROM memory_events x WHERE x.tenant_id = t), 0)
          + coalesce((SELECT sum(cairn_stored_bytes('memory_trash', to_jsonb(x))) FROM memory_trash x WHERE x.tenant_id = t), 0)
          + coalesce((SELECT sum(cairn_stored_bytes('relations', to_jsonb(x))) FROM relations x WHERE x.tenant_id = t), 0)
          + coalesce((SELECT sum(cairn_stored_bytes('entities', to_jsonb(x))) FROM entities x WHERE x.tenant_id = t), 0)
          + coalesce((SELECT sum(cairn_stored_bytes('entity_aliases', to_jsonb(x))) FROM entity_aliases x WHERE x.tenant_id = t), 0)
          + coalesce((SELECT sum(cairn_stored_bytes('memory_entities', to_jsonb(x))) FROM memory_entities x WHERE x.tenant_id = t), 0);
    END LOOP;
    PERFORM set_config('app.tenant_id', '', true);
END
$$;
