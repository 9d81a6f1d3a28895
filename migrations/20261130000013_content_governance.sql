-- Content-size governance (AutoMem): content of 500-2000 characters is stored as an extractive summary of
-- about 300 characters, the original kept in metadata.original_content. Recall still matches the
-- original's words: the search vector covers both. The summary's figures are derived, never out of step.
ALTER TABLE memories
    ADD COLUMN summarized boolean GENERATED ALWAYS AS (metadata ? 'original_content') STORED,
    ADD COLUMN original_length integer GENERATED ALWAYS AS (char_length(metadata->>'original_content')) STORED,
    ADD COLUMN summarized_length integer
        GENERATED ALWAYS AS (CASE WHEN metadata ? 'original_content' THEN char_length(content) END) STORED;

-- PostgreSQL 15 cannot change a generated column's expression: the search vector is rebuilt, with its index.
DROP INDEX IF EXISTS memories_tenant_search_tsv_idx;
ALTER TABLE memories DROP COLUMN search_tsv;
ALTER TABLE memories ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (
    to_tsvector('english', content || ' ' || coalesce(metadata->>'original_content', ''))
    || to_tsvector('simple', cairn_tags_text(tags))
) STORED;
CREATE INDEX memories_tenant_search_tsv_idx ON memories USING gin (tenant_id, search_tsv);
