// A tenant's API keys: issue (secret shown once), revoke, rotate, last used. The same panel serves the
// admin API (`/admin/v1/tenants/{id}/keys`) and the tenant API with an admin-scoped key (`/api/v1/keys`).
import { useState } from "preact/hooks";
import { openTenant, type Schemas } from "./api.ts";
import { navigate } from "./router.ts";
import {
  ago,
  ConfirmDialog,
  CopyButton,
  Empty,
  Field,
  Loading,
  SelectField,
  showStatus,
  StatusBadge,
  Table,
  Time,
  useAction,
  useLoad,
} from "./ui.tsx";

type Key = Schemas["ApiKeyInfo"];

export interface KeyOps {
  list(): Promise<Key[]>;
  create(body: Schemas["NewKey"]): Promise<Schemas["CreatedKey"]>;
  revoke(id: string): Promise<Key>;
  rotate(id: string, graceSecs: number): Promise<Schemas["RotatedKey"]>;
}

/// What a scoped key (or the key or token behind a memory or a change) is limited to, or "" for the whole
/// tenant.
export function scopeText(k: { user_ids?: string[] | null; agent_ids?: string[] | null; tag_prefixes?: string[] | null }): string {
  const parts: string[] = [];
  if (k.user_ids?.length) parts.push(`users: ${k.user_ids.join(", ")}`);
  if (k.agent_ids?.length) parts.push(`agents: ${k.agent_ids.join(", ")}`);
  if (k.tag_prefixes?.length) parts.push(`tags: ${k.tag_prefixes.join(", ")}`);
  return parts.join(" · ");
}

function keyState(k: Key): string {
  if (k.revoked_at) return "revoked";
  if (k.expires_at && new Date(k.expires_at).getTime() < Date.now()) return "expired";
  return "active";
}

interface Secret {
  secret: string;
  key: Key;
  rotatedFrom?: Key;
}

export function KeysPanel(props: { ops: KeyOps; tenantLabel: string; tenantId?: string; offerOpen: boolean }) {
  const keys = useLoad(() => props.ops.list(), [props.ops]);
  const [secret, setSecret] = useState<Secret | null>(null);
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Record<string, boolean>>({ read: true, write: true, admin: false });
  const [expires, setExpires] = useState("");
  const [rate, setRate] = useState("");
  const [users, setUsers] = useState("");
  const [agents, setAgents] = useState("");
  const [tagPrefixes, setTagPrefixes] = useState("");
  const [revoking, setRevoking] = useState<Key | null>(null);
  const [rotating, setRotating] = useState<Key | null>(null);
  const [grace, setGrace] = useState("0");

  const [issue, issuing] = useAction(async () => {
    const chosen = Object.entries(scopes)
      .filter(([, on]) => on)
      .map(([s]) => s);
    const body: Schemas["NewKey"] = { scopes: chosen, name: name.trim() || null };
    if (expires.trim()) body.expires_in_days = Number(expires);
    if (rate.trim()) body.rate_limit_per_second = Number(rate);
    const list = (text: string) => text.split(",").map((v) => v.trim()).filter((v) => v.length > 0);
    if (list(users).length) body.user_ids = list(users);
    if (list(agents).length) body.agent_ids = list(agents);
    if (list(tagPrefixes).length) body.tag_prefixes = list(tagPrefixes);
    const created = await props.ops.create(body);
    setSecret({ secret: created.api_key, key: created.key });
    setName("");
    setUsers("");
    setAgents("");
    setTagPrefixes("");
    showStatus(`Key ${created.key.prefix} issued. Copy its secret now: it is not shown again.`);
    keys.reload();
  });

  const [revoke, revokeBusy] = useAction(async () => {
    if (!revoking) return;
    const k = await props.ops.revoke(revoking.id);
    setRevoking(null);
    if (secret?.key.id === k.id) setSecret(null);
    showStatus(`Key ${k.prefix} revoked.`);
    keys.reload();
  });

  const [rotate, rotateBusy] = useAction(async () => {
    if (!rotating) return;
    const r = await props.ops.rotate(rotating.id, Number(grace) || 0);
    setRotating(null);
    setSecret({ secret: r.api_key, key: r.key, rotatedFrom: r.previous });
    showStatus(`Key ${r.previous.prefix} rotated to ${r.key.prefix}. Copy the new secret now.`);
    keys.reload();
  });

  return (
    <div class="keys" data-testid="keys-panel">
      {secret && (
        <div class="secret-box" data-testid="new-key" role="region" aria-label="New key secret">
          <p>
            <strong>Secret of key {secret.key.prefix}</strong>
            {secret.rotatedFrom ? ` (replaces ${secret.rotatedFrom.prefix})` : ""}: shown this once, never stored in
            clear. Copy it now.
          </p>
          <div class="secret-row">
            <label class="visually-hidden" for="new-key-secret">
              API key secret
            </label>
            <input
              id="new-key-secret"
              class="mono"
              readOnly
              value={secret.secret}
              data-testid="new-key-secret"
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton text={secret.secret} label="Copy secret" />
          </div>
          <div class="row">
            {props.offerOpen && (
              <button
                type="button"
                class="primary"
                data-testid="open-tenant-with-key"
                onClick={() => {
                  openTenant(secret.secret, props.tenantLabel, props.tenantId);
                  navigate("#/memories");
                }}
              >
                Open this tenant's memories with this key
              </button>
            )}
            <button type="button" onClick={() => setSecret(null)}>
              Done (hide the secret)
            </button>
          </div>
        </div>
      )}

      <form
        class="inline-form"
        aria-label="Issue a key"
        onSubmit={(e) => {
          e.preventDefault();
          void issue();
        }}
      >
        <Field label="Key name">
          {(id) => (
            <input id={id} value={name} placeholder="e.g. production agent" maxLength={200} onInput={(e) => setName(e.currentTarget.value)} data-testid="key-name" />
          )}
        </Field>
        <fieldset class="scopes">
          <legend>Scopes</legend>
          {(["read", "write", "admin"] as const).map((s) => (
            <label key={s} class="check">
              <input
                type="checkbox"
                checked={scopes[s]}
                onChange={(e) => setScopes({ ...scopes, [s]: e.currentTarget.checked })}
                data-testid={`scope-${s}`}
              />
              {s}
            </label>
          ))}
        </fieldset>
        <Field label="Expires in (days)" hint="Empty: never">
          {(id, hint) => (
            <input id={id} aria-describedby={hint} type="number" min={1} max={3650} value={expires} onInput={(e) => setExpires(e.currentTarget.value)} class="narrow" />
          )}
        </Field>
        <Field label="Requests/s" hint="Empty: the plan's">
          {(id, hint) => (
            <input id={id} aria-describedby={hint} type="number" min={1} max={100000} value={rate} onInput={(e) => setRate(e.currentTarget.value)} class="narrow" />
          )}
        </Field>
        <Field label="Only end users" hint="Comma-separated user_ids; empty: any">
          {(id, hint) => (
            <input id={id} aria-describedby={hint} value={users} placeholder="e.g. user-42" onInput={(e) => setUsers(e.currentTarget.value)} data-testid="key-user-ids" />
          )}
        </Field>
        <Field label="Only agents" hint="Comma-separated agent_ids; empty: any">
          {(id, hint) => (
            <input id={id} aria-describedby={hint} value={agents} onInput={(e) => setAgents(e.currentTarget.value)} data-testid="key-agent-ids" />
          )}
        </Field>
        <Field label="Only tags under" hint="Comma-separated tag prefixes; empty: any">
          {(id, hint) => (
            <input id={id} aria-describedby={hint} value={tagPrefixes} onInput={(e) => setTagPrefixes(e.currentTarget.value)} data-testid="key-tag-prefixes" />
          )}
        </Field>
        <button type="submit" class="primary" disabled={issuing} data-testid="issue-key">
          Issue key
        </button>
      </form>

      {keys.loading && !keys.data ? (
        <Loading what="keys" />
      ) : keys.data && keys.data.length === 0 ? (
        <Empty>No keys yet.</Empty>
      ) : (
        <Table
          testid="keys-table"
          caption="API keys"
          columns={["Name", "Prefix", "Scopes", "State", "Created", "Expires", "Last used", "Actions"]}
        >
          {(keys.data ?? []).map((k) => {
            const state = keyState(k);
            return (
              <tr key={k.id} data-key-prefix={k.prefix} class={state === "active" ? "" : "dim"}>
                <td>{k.name ?? <span class="muted">—</span>}</td>
                <td class="mono">{k.prefix}</td>
                <td data-testid="key-scopes">
                  {k.scopes.join(", ")}
                  {scopeText(k) && <div class="muted small">{scopeText(k)}</div>}
                </td>
                <td>
                  <StatusBadge status={state} />
                </td>
                <td>
                  <Time iso={k.created_at} />
                </td>
                <td>
                  <Time iso={k.expires_at} />
                </td>
                <td title={k.last_used_at ?? "never"}>{ago(k.last_used_at)}</td>
                <td class="actions">
                  {state === "active" && (
                    <>
                      <button type="button" onClick={() => setRotating(k)} aria-label={`Rotate key ${k.prefix}`} data-testid="rotate-key">
                        Rotate
                      </button>
                      <button type="button" class="danger" onClick={() => setRevoking(k)} aria-label={`Revoke key ${k.prefix}`} data-testid="revoke-key">
                        Revoke
                      </button>
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </Table>
      )}

      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke key ${revoking?.prefix ?? ""}?`}
        confirmLabel="Revoke"
        danger
        busy={revokeBusy}
        onConfirm={() => void revoke()}
        onClose={() => setRevoking(null)}
      >
        <p>Requests with this key fail at once. This cannot be undone.</p>
      </ConfirmDialog>

      <ConfirmDialog
        open={rotating !== null}
        title={`Rotate key ${rotating?.prefix ?? ""}?`}
        confirmLabel="Rotate"
        busy={rotateBusy}
        onConfirm={() => void rotate()}
        onClose={() => setRotating(null)}
      >
        <p>A new secret replaces this one; it is shown once.</p>
        <SelectField
          label="The old secret keeps working for"
          value={grace}
          options={[
            ["0", "no time (stops at once)"],
            ["3600", "1 hour"],
            ["86400", "1 day"],
            ["604800", "7 days"],
            ["2592000", "30 days"],
          ]}
          onChange={setGrace}
        />
      </ConfirmDialog>
    </div>
  );
}
