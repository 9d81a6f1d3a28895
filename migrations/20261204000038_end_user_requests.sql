-- Requests per end user: what each `user_id` and `agent_id` of a tenant asked for, per UTC day, for the
-- customer's own billing (`GET /api/v1/usage?group_by=user_id`). Counted in memory by each instance and
-- flushed in batches with the tenant's own counters (`usage_daily`), on the coordinator like them. A request
-- counts for the end user it stores, lists or recalls for (a key or token scoped to one end user always names
-- it). Erased with the tenant's data: the identifiers are the customer's end users'.
CREATE TABLE usage_daily_end_users (
    tenant_id  uuid   NOT NULL,
    day        date   NOT NULL,
    -- `user_id` or `agent_id`.
    kind       text   NOT NULL CHECK (kind IN ('user_id', 'agent_id')),
    end_user   text   NOT NULL,
    counter    text   NOT NULL,
    value      bigint NOT NULL DEFAULT 0,
    CONSTRAINT usage_daily_end_users_pkey PRIMARY KEY (tenant_id, kind, day, end_user, counter),
    CONSTRAINT usage_daily_end_users_tenant_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE
);
-- The hourly prune of days past retention (`service::usage::END_USER_DAYS_KEPT`).
CREATE INDEX usage_daily_end_users_day_idx ON usage_daily_end_users (day);
