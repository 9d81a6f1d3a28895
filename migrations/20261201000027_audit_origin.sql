-- Where an audited action came from: the client's address (as the server saw it, or its trusted proxy said)
-- and the request's id (`X-Request-Id`, also in the server's logs), so an operator can tie an entry to its
-- request. Empty for the CLI and the service's own jobs.
ALTER TABLE audit_log ADD COLUMN client_address inet, ADD COLUMN request_id text;
