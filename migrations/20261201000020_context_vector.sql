-- A memory of an episode keeps two vectors: `embedding`, of its own content (what similarity links,
-- consolidation and dedup compare), and `context_embedding`, of its episode context and content together.
-- Recall's semantic signal is the better of the two, so the context finds a reply by what it answers
-- without blurring a memory that says it all by itself.
--
-- The column takes `embedding`'s dimension (a deployment that migrated to another model keeps working).
DO $$
DECLARE
    dim integer;
BEGIN
    SELECT atttypmod INTO dim FROM pg_attribute WHERE attrelid = 'memories'::regclass AND attname = 'embedding';
    EXECUTE format('ALTER TABLE memories ADD COLUMN context_embedding vector(%s)', dim);
END
$$;
CREATE INDEX memories_context_embedding_idx ON memories USING hnsw (context_embedding vector_cosine_ops)
    WHERE context_embedding IS NOT NULL;
-- Which tenants have context vectors at all: recall skips the context index for the others.
CREATE INDEX memories_tenant_context_vector_idx ON memories (tenant_id) WHERE context_embedding IS NOT NULL;
