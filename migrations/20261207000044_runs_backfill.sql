-- Which memories' runs of sentences (migration 43) were never measured: those embedded before the runs existed,
-- or imported with their vectors. The embedding job now writes an empty array for a memory it measured with
-- fewer than two runs, so NULL on a ready memory means "not measured" (or sentence vectors turned off), and the
-- job measures those of its tenant beside its own work (`jobs::embed`), once its process has a model of the
-- vectors' kind. This index holds just them: with sentence vectors on it empties as the backfill goes, and a
-- worker asks each tenant whether any is left through it when it starts.
CREATE INDEX memories_runs_unmeasured_idx ON memories (tenant_id, embedding_model)
    WHERE embedding_status = 'ready' AND sentence_embeddings IS NULL;
