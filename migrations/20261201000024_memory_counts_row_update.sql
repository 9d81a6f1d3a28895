-- Updates that change no count (an access, a vector, a content edit) paid for the statement-level update
-- trigger of `memory_counts` anyway: its transition tables copy every updated row, and each row's counts were
-- computed twice to find that nothing changed (a recall's access bump of 100 rows, every embedding write). A
-- row trigger that fires only when a counted column changes costs those updates nothing (its WHEN is checked
-- without calling the function).
DROP TRIGGER memories_count_update ON memories;

CREATE FUNCTION cairn_count_memory_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF coalesce(current_setting('cairn.erase', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    INSERT INTO memory_counts (tenant_id, kind, key, n)
    SELECT NEW.tenant_id, d.kind, d.key, sum(d.n) FROM (
        SELECT * FROM cairn_memory_count_keys(OLD.archived_at, OLD.memory_type, OLD.type, OLD.embedding_status,
                                              OLD.created_at, OLD.tags, -1)
        UNION ALL
        SELECT * FROM cairn_memory_count_keys(NEW.archived_at, NEW.memory_type, NEW.type, NEW.embedding_status,
                                              NEW.created_at, NEW.tags, 1)
    ) d GROUP BY d.kind, d.key HAVING sum(d.n) <> 0;
    RETURN NULL;
END
$$;

CREATE TRIGGER memories_count_update AFTER UPDATE ON memories FOR EACH ROW
    WHEN ((OLD.archived_at IS NULL) IS DISTINCT FROM (NEW.archived_at IS NULL)
          OR OLD.memory_type IS DISTINCT FROM NEW.memory_type
          OR OLD.type IS DISTINCT FROM NEW.type
          OR OLD.embedding_status IS DISTINCT FROM NEW.embedding_status
          OR OLD.tags IS DISTINCT FROM NEW.tags
          OR OLD.created_at IS DISTINCT FROM NEW.created_at)
    EXECUTE FUNCTION cairn_count_memory_update();
