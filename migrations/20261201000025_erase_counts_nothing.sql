-- A tenant's erasure (a transaction that sets `cairn.erase`) appends no usage delta for the memories it removes:
-- the tenant's usage rows go with it, and a delta written by the erasure itself would be one more row to erase
-- (and to report) than the tenant held. As the count triggers of `memory_counts` already do.
CREATE OR REPLACE FUNCTION cairn_count_deleted() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF coalesce(current_setting('cairn.erase', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    INSERT INTO public.tenant_usage_delta (tenant_id, memories, storage_bytes)
    SELECT tenant_id, -count(*), -sum(octet_length(content) + octet_length(metadata::text)) FROM removed GROUP BY tenant_id;
    RETURN NULL;
END
$$;
