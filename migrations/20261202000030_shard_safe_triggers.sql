-- Every trigger's work stays with its tenant's rows. On Citus the tenant tables are distributed by tenant and
-- their triggers run on the shards, where only the tenant's colocated tables are at hand: neither the job
-- queue (apalis, on the coordinator) nor a table that is not distributed with them. On plain Postgres nothing
-- changes for users.
--
-- 1. The usage deltas become a tenant table (distributed with the others): no identity column, no key
--    without tenant_id. A delta is one row of many per tenant; the rollup moves them all and needs no key.
ALTER TABLE tenant_usage_delta DROP CONSTRAINT tenant_usage_delta_pkey;
ALTER TABLE tenant_usage_delta DROP COLUMN id;

--    The functions that write and read the deltas run as the caller, not as the owner: Citus refuses a
--    transaction that touches a shard as two users (the tenant login's statement, the owner's trigger). The
--    tenant role may read its own tenant's usage and add deltas for it, nothing else (row-level security; the
--    owner, which rolls the deltas up and erases tenants, is not bound on these two tables).
ALTER TABLE tenant_usage_delta ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_usage_delta_tenant_isolation ON tenant_usage_delta
    USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
    WITH CHECK (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
GRANT SELECT, INSERT ON tenant_usage_delta TO cairn_app;
ALTER TABLE tenant_usage ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_usage_tenant_isolation ON tenant_usage
    USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
GRANT SELECT ON tenant_usage TO cairn_app;
ALTER FUNCTION cairn_count_updated() SECURITY INVOKER;

-- 2. A memory whose episode context changed waits for a new vector. The trigger that notices it
--    (`cairn_refresh_successor`) no longer enqueues the embedding job itself: it notes the memory here, in
--    its tenant's rows, and the statement's transaction hands the noted memories to the queue before it
--    commits (`cairn_drain_embed_outbox`, called by the store). A note left behind (a transaction of the
--    CLI's) is drained by the next one of the tenant, and the embedding jobs sweep pending memories anyway.
CREATE TABLE embed_outbox (
    tenant_id  uuid NOT NULL,
    memory_id  uuid NOT NULL,
    CONSTRAINT embed_outbox_pkey PRIMARY KEY (tenant_id, memory_id),
    CONSTRAINT embed_outbox_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
);
ALTER TABLE embed_outbox ENABLE ROW LEVEL SECURITY;
ALTER TABLE embed_outbox FORCE ROW LEVEL SECURITY;
CREATE POLICY embed_outbox_tenant_isolation ON embed_outbox
    USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
    WITH CHECK (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
GRANT SELECT, INSERT, DELETE ON embed_outbox TO cairn_app;

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
    -- Whenever it waits for a vector, a job is due (a second one is harmless; none would leave it waiting).
    IF status = 'pending' AND coalesce(current_setting('app.tenant_id', true), '') <> '' THEN
        INSERT INTO embed_outbox (tenant_id, memory_id) VALUES (t, next_id) ON CONFLICT DO NOTHING;
    END IF;
END
$$;

-- Hands the transaction tenant's noted memories to the embedding queue in one job. Runs where the queue is
-- (the coordinator on Citus); returns how many memories it queued.
CREATE FUNCTION cairn_drain_embed_outbox() RETURNS integer
LANGUAGE plpgsql SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    tenant uuid := NULLIF(current_setting('app.tenant_id', true), '')::uuid;
    ids jsonb;
BEGIN
    IF tenant IS NULL THEN
        RETURN 0;
    END IF;
    WITH drained AS (DELETE FROM public.embed_outbox WHERE tenant_id = tenant RETURNING memory_id)
    SELECT jsonb_agg(memory_id) INTO ids FROM drained;
    IF ids IS NULL THEN
        RETURN 0;
    END IF;
    PERFORM public.cairn_enqueue('cairn::embed', jsonb_build_object('memory_ids', ids), 8);
    RETURN jsonb_array_length(ids);
END
$$;
REVOKE ALL ON FUNCTION cairn_drain_embed_outbox() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION cairn_drain_embed_outbox() TO cairn_app;

-- 3. What the transaction's tenant stores now: statements that name their tenant (a correlated subquery over
--    a distributed table is refused by Citus; a statement with `tenant_id = $1` goes to one shard).
CREATE OR REPLACE FUNCTION cairn_tenant_usage() RETURNS TABLE (memories bigint, storage_bytes bigint)
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    tenant uuid := NULLIF(current_setting('app.tenant_id', true), '')::uuid;
    rolled_m bigint;
    rolled_b bigint;
    delta_m bigint;
    delta_b bigint;
BEGIN
    SELECT u.memories, u.storage_bytes INTO rolled_m, rolled_b FROM public.tenant_usage u WHERE u.tenant_id = tenant;
    SELECT sum(d.memories), sum(d.storage_bytes) INTO delta_m, delta_b
      FROM public.tenant_usage_delta d WHERE d.tenant_id = tenant;
    memories := coalesce(rolled_m, 0) + coalesce(delta_m, 0);
    storage_bytes := coalesce(rolled_b, 0) + coalesce(delta_b, 0);
    RETURN NEXT;
END
$$;

-- 4. Citus only (`cairn migrate` on a database with the citus extension): the foreign keys between tenant
--    tables are set aside while the tables are distributed one by one (Citus refuses a key between a
--    distributed table and one not yet distributed) and restored after. Kept here, not in memory, so that a
--    run that fails midway restores them when run again. Empty on plain Postgres.
CREATE TABLE distribution_deferred_keys (
    table_name       text NOT NULL,
    constraint_name  text NOT NULL,
    definition       text NOT NULL,
    CONSTRAINT distribution_deferred_keys_pkey PRIMARY KEY (table_name, constraint_name)
);

-- 5. Statements inside functions that Citus can plan on a shard. A SQL-language function's statements with
--    parameters cannot be planned there ("could not create distributed plan"): the episode probes become
--    PL/pgSQL, same statements. A statement-level trigger's transition table exists only where the trigger
--    runs, so a statement that reads it cannot also write a distributed table: the count triggers read their
--    transition tables first (a plain local query) and write each count with a statement of its own (one per
--    distinct count and statement, not per row).
-- The table a trigger fires on, by the name of the table Cairn created: on Citus a trigger fires on a shard
-- (`memory_events_102040`) or a node's copy of a reference table (`tenants_102008`). None of Cairn's own table
-- names ends in an underscore and digits.
CREATE FUNCTION cairn_base_table(name text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT regexp_replace(name, '_[0-9]+$', '')
$$;

CREATE OR REPLACE FUNCTION cairn_episode_predecessor(t uuid, episode text, seq integer, at timestamptz, self uuid)
RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
    IF seq IS NOT NULL THEN
        RETURN (SELECT p.content FROM memories p
                 WHERE p.tenant_id = t AND p.episode_id = episode AND p.id <> self AND p.sequence_number < seq
                 ORDER BY p.sequence_number DESC, p.id DESC LIMIT 1);
    END IF;
    RETURN (SELECT p.content FROM memories p
             WHERE p.tenant_id = t AND p.episode_id = episode AND p.id <> self AND p.sequence_number IS NULL
               AND p.created_at < at
             ORDER BY p.created_at DESC, p.id DESC LIMIT 1);
END
$$;

CREATE OR REPLACE FUNCTION cairn_episode_successor(t uuid, episode text, seq integer, at timestamptz, self uuid)
RETURNS uuid LANGUAGE plpgsql STABLE AS $$
BEGIN
    IF seq IS NOT NULL THEN
        RETURN (SELECT s.id FROM memories s
                 WHERE s.tenant_id = t AND s.episode_id = episode AND s.id <> self AND s.sequence_number > seq
                 ORDER BY s.sequence_number ASC, s.id ASC LIMIT 1);
    END IF;
    RETURN (SELECT s.id FROM memories s
             WHERE s.tenant_id = t AND s.episode_id = episode AND s.id <> self AND s.sequence_number IS NULL
               AND s.created_at > at
             ORDER BY s.created_at ASC, s.id ASC LIMIT 1);
END
$$;

CREATE OR REPLACE FUNCTION cairn_count_memories() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    c record;
BEGIN
    IF coalesce(current_setting('cairn.erase', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        FOR c IN SELECT r.tenant_id, k.kind, k.key, sum(k.n) AS n
                   FROM new_rows r, cairn_memory_count_keys(r.archived_at, r.memory_type, r.type, r.embedding_status, r.created_at, r.tags, 1) k
                  GROUP BY 1, 2, 3 LOOP
            INSERT INTO memory_counts (tenant_id, kind, key, n) VALUES (c.tenant_id, c.kind, c.key, c.n);
        END LOOP;
    ELSIF TG_OP = 'DELETE' THEN
        FOR c IN SELECT r.tenant_id, k.kind, k.key, sum(k.n) AS n
                   FROM old_rows r, cairn_memory_count_keys(r.archived_at, r.memory_type, r.type, r.embedding_status, r.created_at, r.tags, -1) k
                  GROUP BY 1, 2, 3 LOOP
            INSERT INTO memory_counts (tenant_id, kind, key, n) VALUES (c.tenant_id, c.kind, c.key, c.n);
        END LOOP;
    ELSE
        -- Most updates (an access, a vector) change no count: nothing is written for them.
        FOR c IN SELECT tenant_id, kind, key, sum(n) AS n FROM (
                     SELECT r.tenant_id, k.kind, k.key, k.n FROM old_rows r, cairn_memory_count_keys(r.archived_at, r.memory_type, r.type, r.embedding_status, r.created_at, r.tags, -1) k
                     UNION ALL
                     SELECT r.tenant_id, k.kind, k.key, k.n FROM new_rows r, cairn_memory_count_keys(r.archived_at, r.memory_type, r.type, r.embedding_status, r.created_at, r.tags, 1) k
                 ) d GROUP BY 1, 2, 3 HAVING sum(n) <> 0 LOOP
            INSERT INTO memory_counts (tenant_id, kind, key, n) VALUES (c.tenant_id, c.kind, c.key, c.n);
        END LOOP;
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION cairn_count_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    c record;
BEGIN
    IF coalesce(current_setting('cairn.erase', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        FOR c IN SELECT tenant_id, count(*) AS n FROM new_rows GROUP BY 1 LOOP
            INSERT INTO memory_counts (tenant_id, kind, n) VALUES (c.tenant_id, TG_ARGV[0], c.n);
        END LOOP;
    ELSE
        FOR c IN SELECT tenant_id, -count(*) AS n FROM old_rows GROUP BY 1 LOOP
            INSERT INTO memory_counts (tenant_id, kind, n) VALUES (c.tenant_id, TG_ARGV[0], c.n);
        END LOOP;
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION cairn_count_inserted() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    c record;
BEGIN
    FOR c IN SELECT tenant_id, count(*) AS m, sum(public.cairn_memory_bytes(content, metadata, tags, summary)) AS b
               FROM added GROUP BY tenant_id LOOP
        INSERT INTO public.tenant_usage_delta (tenant_id, memories, storage_bytes) VALUES (c.tenant_id, c.m, c.b);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION cairn_count_deleted() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    c record;
BEGIN
    IF coalesce(current_setting('cairn.erase', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    FOR c IN SELECT tenant_id, -count(*) AS m, -sum(public.cairn_memory_bytes(content, metadata, tags, summary)) AS b
               FROM removed GROUP BY tenant_id LOOP
        INSERT INTO public.tenant_usage_delta (tenant_id, memories, storage_bytes) VALUES (c.tenant_id, c.m, c.b);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION cairn_count_stored() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    c record;
BEGIN
    IF coalesce(current_setting('cairn.erase', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'INSERT' THEN
        FOR c IN SELECT a.tenant_id, sum(public.cairn_stored_bytes(public.cairn_base_table(TG_TABLE_NAME), to_jsonb(a))) AS b FROM added a
                  GROUP BY a.tenant_id LOOP
            INSERT INTO public.tenant_usage_delta (tenant_id, memories, storage_bytes) VALUES (c.tenant_id, 0, c.b);
        END LOOP;
    ELSE
        FOR c IN SELECT r.tenant_id, -sum(public.cairn_stored_bytes(public.cairn_base_table(TG_TABLE_NAME), to_jsonb(r))) AS b FROM removed r
                  GROUP BY r.tenant_id LOOP
            INSERT INTO public.tenant_usage_delta (tenant_id, memories, storage_bytes) VALUES (c.tenant_id, 0, c.b);
        END LOOP;
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION cairn_count_stored_updated() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    tbl text := public.cairn_base_table(TG_TABLE_NAME);
BEGIN
    INSERT INTO public.tenant_usage_delta (tenant_id, memories, storage_bytes)
    VALUES (NEW.tenant_id, 0, public.cairn_stored_bytes(tbl, to_jsonb(NEW)) - public.cairn_stored_bytes(tbl, to_jsonb(OLD)));
    RETURN NULL;
END
$$;

-- On Citus `tenants` and `plans` are reference tables, whose trigger fires on every node's copy; only the
-- coordinator's is heard (the instances listen there), and a worker's NOTIFY would make Citus' two-phase
-- commit fail ("cannot PREPARE a transaction that has executed ... NOTIFY"): workers announce nothing.
CREATE OR REPLACE FUNCTION cairn_notify_auth() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    tbl text := public.cairn_base_table(TG_TABLE_NAME);
    coordinator boolean := true;
BEGIN
    IF to_regprocedure('pg_catalog.citus_is_coordinator()') IS NOT NULL THEN
        EXECUTE 'SELECT pg_catalog.citus_is_coordinator()' INTO coordinator;
    END IF;
    IF NOT coordinator THEN
        RETURN NULL;
    END IF;
    IF tbl = 'api_keys' THEN
        PERFORM pg_notify('cairn_auth', 'key:' || OLD.id::text);
    ELSIF tbl = 'tenants' THEN
        PERFORM pg_notify('cairn_auth', 'tenant:' || OLD.id::text);
    ELSE
        PERFORM pg_notify('cairn_auth', 'plan:' || OLD.name);
    END IF;
    RETURN NULL;
END
$$;

-- 6. A history snapshot reduced to the memory's id and content hash (what an erased memory's history keeps;
--    NULL stays NULL). A function of its arguments only, declared so: Citus refuses an UPDATE with a function
--    that is not immutable inside a CASE (jsonb_build_object is only stable in general).
CREATE FUNCTION cairn_scrubbed(snapshot jsonb, memory_id uuid) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN snapshot IS NULL THEN NULL
                ELSE jsonb_build_object('id', memory_id, 'content_hash', snapshot->'content_hash') END
$$;

-- 7. The trash trigger reads the memory's relations and entity links first and then writes its row: Citus
--    does not take subqueries inside an INSERT's VALUES, nor a function that is not immutable in its ON
--    CONFLICT ... DO UPDATE (the time is read into a variable).
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
            to_jsonb(OLD) - 'context' - 'context_tsv' - 'context_embedding' - 'search_tsv', links, entity_list)
    ON CONFLICT (tenant_id, memory_id) DO UPDATE
        SET deleted_at = deleted, tags = EXCLUDED.tags, content_hash = EXCLUDED.content_hash,
            memory = EXCLUDED.memory, relations = EXCLUDED.relations, entity_ids = EXCLUDED.entity_ids;
    RETURN OLD;
END
$$;

-- 8. A history row's id is drawn where the row is written, by a trigger, instead of by a column default:
--    Citus cannot run an INSERT ... SELECT on the tenant's shard when the target's default calls nextval (it
--    would pull the rows through the coordinator instead). The same sequence on plain Postgres; on Citus each
--    node has its own copy with its own range (`cairn migrate` sets that up), and the history is read in the
--    order of its transactions' times, then ids, which holds on whichever node a tenant's shard lives.
CREATE FUNCTION cairn_memory_event_id() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id IS NULL THEN
        NEW.id := nextval('public.memory_events_id_seq');
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER memory_events_id BEFORE INSERT ON memory_events FOR EACH ROW EXECUTE FUNCTION cairn_memory_event_id();
ALTER TABLE memory_events ALTER COLUMN id DROP DEFAULT;

-- 9. The two tables of deltas have no primary key; their rows are identified by every column. Citus moves a
--    shard between workers by logical replication while it is written, which needs an identity for each row
--    of every table it moves (a tenant's shard group moves whole). No effect on plain Postgres.
ALTER TABLE memory_counts REPLICA IDENTITY FULL;
ALTER TABLE tenant_usage_delta REPLICA IDENTITY FULL;
