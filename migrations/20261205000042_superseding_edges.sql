-- The supersession edges alone, for recall's chain heads (issue 28). Every recall follows its results'
-- INVALIDATED_BY / EVOLVED_INTO chains (`store::relations::chain_heads_sql`), one probe per result by its id.
-- Through `relations_edge_key` each probe read every edge of the memory, SIMILAR_TO included (enrichment links
-- up to five per memory), to find none: most memories are never superseded. This index holds the superseding
-- edges only, newest first as the chain step reads them, so a probe reads an almost empty index; the statement
-- names the two types as constants so that a generic plan can prove the predicate.
-- The types are `memory::SUPERSEDING`; a test checks the statement uses this index.
CREATE INDEX relations_superseding_idx ON relations (tenant_id, source_id, created_at DESC)
    WHERE rel_type IN ('INVALIDATED_BY', 'EVOLVED_INTO');
