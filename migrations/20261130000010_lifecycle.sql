-- Lifecycle (remem's rules): importance decay with a floor, active forgetting (off unless a tenant turns it
-- on), restore, and the audit events they leave.

-- The importance a memory was given (at creation or by its owner since): decay never goes below 30% of it.
ALTER TABLE memories ADD COLUMN base_importance real;
UPDATE memories SET base_importance = importance;
ALTER TABLE memories ALTER COLUMN base_importance SET NOT NULL;
-- When importance was last decayed (NULL: never; decay then counts from created_at).
ALTER TABLE memories ADD COLUMN decayed_at timestamptz;

CREATE FUNCTION cairn_memories_base_importance() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.base_importance := NEW.importance;
    RETURN NEW;
END
$$;
CREATE TRIGGER memories_base_importance BEFORE INSERT ON memories
    FOR EACH ROW EXECUTE FUNCTION cairn_memories_base_importance();

ALTER TABLE memory_events DROP CONSTRAINT memory_events_type_check;
ALTER TABLE memory_events ADD CONSTRAINT memory_events_type_check CHECK (event_type IN
    ('created', 'updated', 'deleted', 'archived', 'promoted', 'superseded', 'decayed', 'restored', 'forgotten'));

-- Per-tenant lifecycle settings.
ALTER TABLE tenants ADD COLUMN forgetting_enabled boolean NOT NULL DEFAULT false;
ALTER TABLE tenants ADD COLUMN forgetting_grace_days integer NOT NULL DEFAULT 90
    CONSTRAINT tenants_grace_check CHECK (forgetting_grace_days BETWEEN 0 AND 3650);
-- Archived memories older than this are deleted for good; NULL (the default): never.
ALTER TABLE tenants ADD COLUMN archive_retention_days integer
    CONSTRAINT tenants_retention_check CHECK (archive_retention_days IS NULL OR archive_retention_days BETWEEN 1 AND 36500);
