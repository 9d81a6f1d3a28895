-- Entity enrichment and learned edge strength.
--
-- `enrichment_status` says whether the enrichment job (queue `cairn::enrich`: entities and their tags) has
-- run on the memory's current content; memories stored before this migration stay `pending` until they
-- are reprocessed.
ALTER TABLE memories ADD COLUMN enrichment_status text NOT NULL DEFAULT 'pending'
    CONSTRAINT memories_enrichment_status_check CHECK (enrichment_status IN ('pending', 'ready', 'failed'));

-- Entity listings: by type, by name.
CREATE INDEX entities_tenant_type_idx ON entities (tenant_id, entity_type, normalized_name);

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
