-- Entity enrichment and learned edge strength.
--
-- `enrichment_status` says whether the enrichment job (queue `cairn::enrich`: entities and their tags) has
-- run on the memory's current content; memories stored before this migration stay `pending` until they
-- are reprocessed.
ALTER TABLE memories ADD COLUMN enrichment_status text NOT NULL DEFAULT 'pending'
    CONSTRAINT memories_enrichment_status_check CHECK (enrichment_status IN ('pending', 'ready', 'failed'));

-- The names merged entities had (`type:normalized_name`): a later mention of one links to the entity it
-- was merged into. An alias belongs to one entity; deleting that entity deletes its aliases.
CREATE TABLE entity_aliases (
    tenant_id  uuid NOT NULL,
    alias      text NOT NULL,
    entity_id  uuid NOT NULL,
    CONSTRAINT entity_aliases_pkey PRIMARY KEY (tenant_id, alias),
    CONSTRAINT entity_aliases_entity_fkey FOREIGN KEY (tenant_id, entity_id) REFERENCES entities (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX entity_aliases_entity_idx ON entity_aliases (tenant_id, entity_id);
ALTER TABLE entity_aliases ENABLE ROW LEVEL SECURITY;
ALTER TABLE entity_aliases FORCE ROW LEVEL SECURITY;
CREATE POLICY entity_aliases_tenant_isolation ON entity_aliases
    USING (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid)
    WITH CHECK (tenant_id = NULLIF(current_setting('app.tenant_id', true), '')::uuid);
GRANT SELECT, INSERT, UPDATE, DELETE ON entity_aliases TO cairn_app;

-- Hebbian learning raises an edge's strength when its memories are recalled together; consolidation lets
-- what was learned fade again when it is not reinforced. `base_strength` is the strength as created or
-- authored (never decayed below), `learned_at` when the learned part last changed.
ALTER TABLE relations ADD COLUMN base_strength real;
UPDATE relations SET base_strength = strength;
ALTER TABLE relations ALTER COLUMN base_strength SET NOT NULL;
ALTER TABLE relations ADD CONSTRAINT relations_base_strength_check CHECK (base_strength BETWEEN 0 AND 1);
ALTER TABLE relations ADD COLUMN learned_at timestamptz;
-- Every new edge starts with its base at its strength, whichever code path inserts it.
CREATE FUNCTION cairn_relations_base_strength() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.base_strength := NEW.strength;
    RETURN NEW;
END
$$;
CREATE TRIGGER relations_base_strength BEFORE INSERT ON relations
    FOR EACH ROW EXECUTE FUNCTION cairn_relations_base_strength();
