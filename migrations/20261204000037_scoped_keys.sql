-- Scoped keys and tokens: an API key (or a short-lived token minted from an admin key) may be limited to some
-- end users (`user_id`s), agents (`agent_id`s) and/or tag prefixes. The request's transaction then carries the
-- scope in `app.scope` (hex of a JSON object {"users": [...], "agents": [...], "tags": [...]}, an absent or null
-- member meaning "any"; unset or empty: no scope), and restrictive policies below hide every row outside it, on
-- every surface at once: a memory outside the scope is not found, an association or entity reaching outside it
-- is not followed, and writing a memory outside it fails the policy's check. The service checks writes first
-- and answers 403 naming the field; these policies are what holds if it ever forgets.
--
-- Each policy reads the scope through `(SELECT cairn_scope_list(...))`: an init plan, evaluated once per
-- statement, so an unscoped request pays one comparison per row and no function call.
ALTER TABLE api_keys
    ADD COLUMN scope_user_ids     text[],
    ADD COLUMN scope_agent_ids    text[],
    ADD COLUMN scope_tag_prefixes text[],
    ADD CONSTRAINT api_keys_scope_check CHECK (
        (scope_user_ids IS NULL AND scope_agent_ids IS NULL AND scope_tag_prefixes IS NULL)
        OR NOT ('admin' = ANY (scopes))),
    ADD CONSTRAINT api_keys_scope_sizes_check CHECK (
        COALESCE(cardinality(scope_user_ids), 1) BETWEEN 1 AND 100
        AND COALESCE(cardinality(scope_agent_ids), 1) BETWEEN 1 AND 100
        AND COALESCE(cardinality(scope_tag_prefixes), 1) BETWEEN 1 AND 100);

-- Whether the transaction is scoped.
CREATE FUNCTION cairn_scoped() RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT COALESCE(current_setting('app.scope', true), '') <> ''
$$;

-- One member of the transaction's scope ('users', 'agents', 'tags'); NULL when it does not restrict.
CREATE FUNCTION cairn_scope_list(part text) RETURNS text[]
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN jsonb_typeof(s -> part) = 'array'
                THEN ARRAY(SELECT jsonb_array_elements_text(s -> part)) END
      FROM (SELECT convert_from(decode(NULLIF(current_setting('app.scope', true), ''), 'hex'), 'UTF8')::jsonb AS s) x
$$;

CREATE POLICY memories_key_scope ON memories AS RESTRICTIVE
    USING (
        NOT (SELECT cairn_scoped())
        OR (((SELECT cairn_scope_list('users')) IS NULL OR user_id = ANY ((SELECT cairn_scope_list('users'))::text[]))
            AND ((SELECT cairn_scope_list('agents')) IS NULL OR agent_id = ANY ((SELECT cairn_scope_list('agents'))::text[]))
            AND ((SELECT cairn_scope_list('tags')) IS NULL OR tag_prefixes && (SELECT cairn_scope_list('tags')))));

-- Deleted memories: the same test on the row as it was.
CREATE POLICY memory_trash_key_scope ON memory_trash AS RESTRICTIVE FOR SELECT
    USING (
        NOT (SELECT cairn_scoped())
        OR (((SELECT cairn_scope_list('users')) IS NULL OR memory ->> 'user_id' = ANY ((SELECT cairn_scope_list('users'))::text[]))
            AND ((SELECT cairn_scope_list('agents')) IS NULL OR memory ->> 'agent_id' = ANY ((SELECT cairn_scope_list('agents'))::text[]))
            AND ((SELECT cairn_scope_list('tags')) IS NULL
                 OR ARRAY(SELECT jsonb_array_elements_text(memory -> 'tag_prefixes')) && (SELECT cairn_scope_list('tags')))));

-- What hangs off memories is seen only where its memories are (the subqueries are under the memories' policies
-- themselves). Reads only: the triggers that write history, links and counters on a scoped write must not be
-- refused.
CREATE POLICY relations_key_scope ON relations AS RESTRICTIVE FOR SELECT
    USING (
        NOT (SELECT cairn_scoped())
        OR (EXISTS (SELECT 1 FROM memories m WHERE m.tenant_id = relations.tenant_id AND m.id = relations.source_id)
            AND EXISTS (SELECT 1 FROM memories m WHERE m.tenant_id = relations.tenant_id AND m.id = relations.target_id)));
CREATE POLICY memory_events_key_scope ON memory_events AS RESTRICTIVE FOR SELECT
    USING (
        NOT (SELECT cairn_scoped())
        OR EXISTS (SELECT 1 FROM memories m WHERE m.tenant_id = memory_events.tenant_id AND m.id = memory_events.memory_id)
        OR EXISTS (SELECT 1 FROM memory_trash t
                    WHERE t.tenant_id = memory_events.tenant_id AND t.memory_id = memory_events.memory_id));
CREATE POLICY memory_entities_key_scope ON memory_entities AS RESTRICTIVE FOR SELECT
    USING (
        NOT (SELECT cairn_scoped())
        OR EXISTS (SELECT 1 FROM memories m WHERE m.tenant_id = memory_entities.tenant_id AND m.id = memory_entities.memory_id));
CREATE POLICY entities_key_scope ON entities AS RESTRICTIVE FOR SELECT
    USING (
        NOT (SELECT cairn_scoped())
        OR EXISTS (SELECT 1 FROM memory_entities me WHERE me.tenant_id = entities.tenant_id AND me.entity_id = entities.id));
CREATE POLICY entity_aliases_key_scope ON entity_aliases AS RESTRICTIVE FOR SELECT
    USING (
        NOT (SELECT cairn_scoped())
        OR EXISTS (SELECT 1 FROM entities e WHERE e.tenant_id = entity_aliases.tenant_id AND e.id = entity_aliases.entity_id));
