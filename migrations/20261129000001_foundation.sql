-- Foundation: extensions, the restricted application role, and the updated_at helper.
--
-- `CREATE EXTENSION vector` needs a superuser. Locally and in tests DATABASE_URL is one; in production an
-- operator creates the extension once and this statement is a no-op.
CREATE EXTENSION IF NOT EXISTS vector;

-- The role every tenant query runs as (the server does `SET ROLE cairn_app` on each pooled connection).
-- It must never be superuser, BYPASSRLS or the owner of the tables: row-level security is what keeps
-- tenants apart, and all three of those bypass it. The server checks this at start-up and refuses to run
-- otherwise. Roles are cluster-wide, so concurrent migrations of several databases may race here: both
-- errors a lost race can raise are swallowed.
DO $$
BEGIN
    CREATE ROLE cairn_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
    NULL;
END
$$;

-- The migrating user must be able to `SET ROLE cairn_app`.
DO $$
BEGIN
    EXECUTE format('GRANT cairn_app TO %I', current_user);
EXCEPTION WHEN duplicate_object OR unique_violation OR invalid_grant_operation THEN
    NULL;
END
$$;

GRANT USAGE ON SCHEMA public TO cairn_app;

CREATE OR REPLACE FUNCTION cairn_touch_updated_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.updated_at := now();
    RETURN NEW;
END
$$;

-- Tags as one string for the generated tsvector. array_to_string is only STABLE in general (element output
-- functions may depend on settings), but for text[] it is immutable, which generated columns require.
CREATE OR REPLACE FUNCTION cairn_tags_text(tags text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT array_to_string(tags, ' ')
$$;
