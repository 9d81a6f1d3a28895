#!/bin/sh
# Run once by the postgres image when its volume is first initialised (/docker-entrypoint-initdb.d): creates the
# tenant pool's login, cairn_login, a NOINHERIT role that can only SET ROLE cairn_app (the role row-level
# security binds). cairn_app is created here as the first migration would create it, so the grant can precede it.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -v pw="$CAIRN_LOGIN_PASSWORD" <<'SQL'
DO $$ BEGIN
    CREATE ROLE cairn_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
CREATE ROLE cairn_login LOGIN NOINHERIT NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION PASSWORD :'pw';
GRANT cairn_app TO cairn_login;
SQL
