// The tenant's keys through the tenant API (needs a key with the admin scope).
import { useMemo } from "preact/hooks";
import { tenant, tenantSession, unwrap } from "../api.ts";
import { KeysPanel, type KeyOps } from "../keys.tsx";
import { useStore } from "../store.ts";
import { Page } from "../ui.tsx";

export function TenantKeysPage() {
  const session = useStore(tenantSession);
  const ops: KeyOps = useMemo(
    () => ({
      list: async () => (await unwrap(tenant.GET("/api/v1/keys", {}))).keys,
      create: (body) => unwrap(tenant.POST("/api/v1/keys", { body })),
      revoke: (id) => unwrap(tenant.DELETE("/api/v1/keys/{id}", { params: { path: { id } } })),
      rotate: (id, grace) =>
        unwrap(tenant.POST("/api/v1/keys/{id}/rotate", { params: { path: { id } }, body: { grace_period_secs: grace } })),
    }),
    [],
  );
  return (
    <Page id="tenant-keys" title="API keys" ready>
      <p class="muted">Managing keys through the tenant API needs a key with the admin scope.</p>
      <KeysPanel ops={ops} tenantLabel={session?.label ?? "tenant"} tenantId={session?.tenantId} offerOpen={false} />
    </Page>
  );
}
