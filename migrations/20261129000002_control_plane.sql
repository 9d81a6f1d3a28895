-- Control plane: tenants and their API keys. Not under RLS: these are read before a tenant is known
-- (authentication) and only by the server's owner connection, never by `cairn_app`.

CREATE TABLE tenants (
    id          uuid        NOT NULL DEFAULT gen_random_uuid(),
    name        text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT tenants_pkey PRIMARY KEY (id),
    CONSTRAINT tenants_name_key UNIQUE (name),
    CONSTRAINT tenants_name_check CHECK (length(name) BETWEEN 1 AND 200)
);

-- A key is `cairn_<prefix>_<secret>`. Only the prefix (for lookup) and an argon2id PHC hash of the whole
-- key are stored; the secret is shown once, at creation.
CREATE TABLE api_keys (
    id            uuid        NOT NULL DEFAULT gen_random_uuid(),
    tenant_id     uuid        NOT NULL,
    prefix        text        NOT NULL,
    key_hash      text        NOT NULL,
    name          text,
    scopes        text[]      NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    expires_at    timestamptz,
    revoked_at    timestamptz,
    last_used_at  timestamptz,
    CONSTRAINT api_keys_pkey PRIMARY KEY (id),
    CONSTRAINT api_keys_prefix_key UNIQUE (prefix),
    CONSTRAINT api_keys_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE,
    CONSTRAINT api_keys_scopes_check CHECK (scopes <@ ARRAY['read', 'write', 'admin']::text[] AND cardinality(scopes) > 0)
);
CREATE INDEX api_keys_tenant_idx ON api_keys (tenant_id, created_at);
