-- Episode locks are striped: an episode's lock is one of 32 per tenant, chosen by a hash of its name. A
-- transaction that touches thousands of episodes (a delete by tag, an import batch) took one advisory lock per
-- episode, all held to its end: 2,000 episodes held 2,000 locks, and past the shared lock table's size
-- (max_locks_per_transaction × max_connections) every session of the cluster failed with "out of shared
-- memory". Now it holds at most 32. Two episodes of one stripe serialise their writers, which is all a lock
-- of either ever did; every writer still takes its stripes in one order (by number), so none can deadlock.
-- The two-key form keeps these locks apart from every one-key advisory lock.
CREATE FUNCTION cairn_episode_stripe(episode text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT hashtext(episode) & 31
$$;

CREATE FUNCTION cairn_lock_episode_stripe(t uuid, stripe integer) RETURNS void
LANGUAGE sql AS $$
    SELECT pg_advisory_xact_lock(hashtext(t::text), 1900 + stripe)
$$;

CREATE OR REPLACE FUNCTION cairn_lock_episode(t uuid, episode text) RETURNS void
LANGUAGE sql AS $$
    SELECT cairn_lock_episode_stripe(t, cairn_episode_stripe(episode))
$$;

GRANT EXECUTE ON FUNCTION cairn_episode_stripe(text), cairn_lock_episode_stripe(uuid, integer) TO cairn_app;
