-- Tags were indexed only as written ('simple'), while query words are stemmed ('english'): a recall for
-- "database" missed a memory tagged `database` ('databas' against 'database'). The search vector now holds
-- tags both ways: stemmed, so query words find them, and as written. Rebuilt with its index, as PostgreSQL
-- 15 cannot change a generated column's expression.
DROP INDEX IF EXISTS memories_tenant_search_tsv_idx;
ALTER TABLE memories DROP COLUMN search_tsv;
ALTER TABLE memories ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (
    to_tsvector('english', content || ' ' || coalesce(metadata->>'original_content', ''))
    || to_tsvector('english', cairn_tags_text(tags))
    || to_tsvector('simple', cairn_tags_text(tags))
) STORED;
CREATE INDEX memories_tenant_search_tsv_idx ON memories USING gin (tenant_id, search_tsv);
