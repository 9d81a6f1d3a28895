-- Enrichment's one-line summary of a memory.
ALTER TABLE memories ADD COLUMN summary text;
