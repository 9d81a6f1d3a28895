-- Room on each page of memories for HOT updates. Every recall counts an access of what it returns
-- (access_count, last_accessed_at: no index holds either), but a full page forces each such update to write a
-- new row version elsewhere and insert it into every index of the table: thirteen, two of them HNSW graphs
-- and four GIN. At 100k memories per tenant a 10-row bump measured 13 ms of database time (863 buffers read),
-- taken from the next request on a small machine. With free space on the page the new version stays there and
-- no index is touched (a heap-only tuple). New and rewritten pages get the 15%; existing ones as they are
-- rewritten (VACUUM FULL, pg_repack) or filled anew.
ALTER TABLE memories SET (fillfactor = 85);
