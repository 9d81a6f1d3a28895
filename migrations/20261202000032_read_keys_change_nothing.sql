-- Reading with a read-only key changes no data: associative recall strengthens the associations between the
-- memories it returns together only for a key that may write, unless the tenant turns it on for read keys too.
ALTER TABLE tenants ADD COLUMN read_keys_strengthen boolean NOT NULL DEFAULT false;
