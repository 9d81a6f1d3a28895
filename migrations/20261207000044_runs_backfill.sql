-- Which memories' runs of sentences (migration 43) were never measured: those embedded before the runs existed,
-- or imported with their vectors. The embedding job now writes an empty array for a memory it measured with
-- fewer than two runs, so NULL on a ready memory means "not measured" (or sentence vectors turned off), and the
-- job's sweeps measure those of their tenant (`jobs::embed`), with the model the vectors are of. This index holds
-- just them: with sentence vectors on it empties as the sweeps go, and a worker asks each tenant whether any is
-- left through it when it starts. (With sentence vectors off it holds every ready memory, and memories with a
-- client's vectors are never measured and stay in it: an entry per such memory, written when its vector is.)
CREATE INDEX memories_runs_unmeasured_idx ON memories (tenant_id, embedding_model)
    WHERE embedding_status = 'ready' AND sentence_embeddings IS NULL;
