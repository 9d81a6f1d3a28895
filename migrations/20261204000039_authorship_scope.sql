-- Authorship of scoped keys and tokens: beside the acting key (`memories.created_by`, `memory_events.actor`),
-- the end users, agents and tag prefixes the key or token was limited to, stamped by the server from the
-- request's credentials (`app.scope`, set for the transaction by a scoped key or token; never from a body).
-- A token minted from an admin key acts as that key: its scope here is what tells "key X for end user alice"
-- from key X itself. Null for unscoped keys, jobs and everything written before this migration.
--
-- The columns take their value from a default, so every writing statement stamps it without naming it; the
-- default is stable, so adding the columns rewrites nothing (existing rows read the value at ALTER time: null).
CREATE FUNCTION cairn_actor_scope() RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT jsonb_strip_nulls(convert_from(decode(NULLIF(current_setting('app.scope', true), ''), 'hex'), 'UTF8')::jsonb)
$$;

ALTER TABLE memories ADD COLUMN created_by_scope jsonb DEFAULT cairn_actor_scope();
ALTER TABLE memory_events ADD COLUMN actor_scope jsonb DEFAULT cairn_actor_scope();

-- The stamp as a reader may see it: a scoped key or token sees none (a key scoped to [alice, bob] that stored
-- for alice must not show "bob" to alice's own token), an unscoped key the whole scope.
-- Declared IMMUTABLE although it reads a setting: Citus refuses non-immutable functions in RETURNING, where
-- the memory columns are also read. It is only ever called on a column (never folded into a constant at plan
-- time), and not inlined (its body is not immutable), so it is evaluated on each row with the transaction's
-- setting; on Citus scoped transactions are refused anyway.
CREATE FUNCTION cairn_visible_scope(stamp jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN coalesce(current_setting('app.scope', true), '') = '' THEN stamp END
$$;
