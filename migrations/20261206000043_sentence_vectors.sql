-- A memory's runs of sentences, each embedded by itself (`recall::sentences`), when it has two or more: recall
-- reads the best of them beside the memory's own vector, so a question about one part of a memory that touches
-- several things finds it. Written by the embedding job in the same statement as `embedding`, over the content
-- that was embedded, and cleared with it; no index (recall measures them only on the candidates its probes
-- found). Like `embedding`, the trash keeps them (as JSON text, counted in the tenant's storage while they are
-- there), so an undone delete brings them back as they were.
--
-- The elements take `embedding`'s dimension.
DO $$
DECLARE
    dim integer;
BEGIN
    SELECT atttypmod INTO dim FROM pg_attribute WHERE attrelid = 'memories'::regclass AND attname = 'embedding';
    EXECUTE format('ALTER TABLE memories ADD COLUMN sentence_embeddings vector(%s)[]', dim);
END
$$;

-- New content never keeps the old content's runs, whatever writes it (an edit, a better summary, a process of an
-- earlier release still running beside this one during a deploy, which would otherwise leave them for good):
-- until the job embeds the new content, recall reads its own vector alone.
CREATE FUNCTION cairn_content_clears_sentences() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.sentence_embeddings := NULL;
    RETURN NEW;
END
$$;
CREATE TRIGGER memories_content_clears_sentences BEFORE UPDATE OF content ON memories
    FOR EACH ROW WHEN (OLD.content IS DISTINCT FROM NEW.content AND OLD.sentence_embeddings IS NOT NULL)
    EXECUTE FUNCTION cairn_content_clears_sentences();
