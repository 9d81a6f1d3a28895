-- A memory of an episode keeps two vectors: `embedding`, of its own content (what similarity links,
-- consolidation and dedup compare), and `context_embedding`, of its episode context and content together.
-- Recall's semantic signal is the better of the two, so the context finds a reply by what it answers
-- without blurring a memory that says it all by itself.
ALTER TABLE memories ADD COLUMN context_embedding vector(384);
CREATE INDEX memories_context_embedding_idx ON memories USING hnsw (context_embedding vector_cosine_ops)
    WHERE context_embedding IS NOT NULL;
