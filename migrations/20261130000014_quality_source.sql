-- Whether quality_score was computed by enrichment (recomputed when the content changes) rather than given
-- by the caller (kept as given).
ALTER TABLE memories ADD COLUMN quality_computed boolean NOT NULL DEFAULT false;
