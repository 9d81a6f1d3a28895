-- Restores are set-based statements in the store (`store::trash::restore`): a by-tag restore brings back up to
-- a thousand memories in a handful of statements instead of one function call each, whose every statement
-- Citus sent to the worker on its own (a thousand restores passed the request timeout there). The per-memory
-- function is no longer called.
DROP FUNCTION cairn_restore_memory(uuid, uuid);
