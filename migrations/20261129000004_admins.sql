-- Operators of the deployment (the admin dashboard's logins): control plane, not under RLS, never reached
-- by `cairn_app`. Passwords are stored as argon2id PHC strings only.
CREATE TABLE admins (
    id             uuid        NOT NULL DEFAULT gen_random_uuid(),
    email          text        NOT NULL,
    password_hash  text        NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    last_login_at  timestamptz,
    disabled_at    timestamptz,
    CONSTRAINT admins_pkey PRIMARY KEY (id),
    CONSTRAINT admins_email_key UNIQUE (email),
    CONSTRAINT admins_password_hash_check CHECK (password_hash LIKE '$argon2id$%')
);
