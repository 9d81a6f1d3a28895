// The tenant's webhook endpoints through the tenant API (needs a key with the admin scope): register one
// (its signing secret shown once), pause or resume it, rotate its secret, delete it; and each endpoint's
// delivery log with the last answer of each event, and redelivery.
import { Fragment } from "preact";
import { useState } from "preact/hooks";
import { tenant, unwrap, type Schemas } from "../api.ts";
import { ConfirmDialog, CopyButton, Empty, Field, Loading, Page, showStatus, StatusBadge, Table, Time, useAction, useLoad } from "../ui.tsx";

type Webhook = Schemas["Webhook"];

const EVENT_TYPES = [
  "memory.created",
  "memory.updated",
  "memory.deleted",
  "memory.embedded",
  "consolidation.finished",
  "import.finished",
  "job.failed",
  "quota.reached",
  "key.expiring",
] as const;

function state(w: Webhook): string {
  if (w.enabled) return w.retry_at ? "retrying" : "active";
  return w.disabled_reason ? "failing" : "paused";
}

function Deliveries(props: { hook: Webhook }) {
  const id = props.hook.id;
  const log = useLoad(
    () => unwrap(tenant.GET("/api/v1/webhooks/{id}/deliveries", { params: { path: { id }, query: { limit: 20 } } })),
    [id],
  );
  const [redeliver] = useAction(async (deliveryId: string) => {
    await unwrap(
      tenant.POST("/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver", { params: { path: { id, delivery_id: deliveryId } } }),
    );
    showStatus("Queued for delivery again.");
    log.reload();
  });
  if (!log.data) return <Loading what="deliveries" />;
  if (log.data.deliveries.length === 0) return <Empty>No event has been sent to it yet.</Empty>;
  return (
    <Table
      testid="webhook-deliveries"
      caption={`Latest deliveries (${log.data.total} in all)`}
      captionShown
      columns={["When", "Event", "Status", "Attempts", "Answer", "Latency", ""]}
    >
      {log.data.deliveries.map((d) => (
        <tr key={d.id} data-delivery-id={d.id} data-status={d.status}>
          <td>
            <Time iso={d.created_at} />
          </td>
          <td class="mono">{d.event_type}</td>
          <td>
            <StatusBadge status={d.status} />
          </td>
          <td>{d.attempts}</td>
          <td title={d.last_error ?? undefined}>{d.last_status_code ?? (d.last_error ? "no answer" : "—")}</td>
          <td>{d.last_latency_ms == null ? "—" : `${d.last_latency_ms} ms`}</td>
          <td>
            <button type="button" class="link" onClick={() => void redeliver(d.id)} data-testid="redeliver">
              Send again
            </button>
          </td>
        </tr>
      ))}
    </Table>
  );
}

export function WebhooksPage() {
  const hooks = useLoad(async () => (await unwrap(tenant.GET("/api/v1/webhooks", {}))).webhooks, []);
  const [url, setUrl] = useState("");
  const [types, setTypes] = useState<Record<string, boolean>>(Object.fromEntries(EVENT_TYPES.map((t) => [t, true])));
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);

  const [create, creating] = useAction(async () => {
    const event_types = EVENT_TYPES.filter((t) => types[t]);
    const created = await unwrap(tenant.POST("/api/v1/webhooks", { body: { url: url.trim(), event_types } }));
    setSecret({ url: created.url, secret: created.secret ?? "" });
    setUrl("");
    showStatus(`Endpoint ${created.url} registered. Copy its signing secret now: it is not shown again.`);
    hooks.reload();
  });
  const [toggle] = useAction(async (w: Webhook) => {
    await unwrap(tenant.PATCH("/api/v1/webhooks/{id}", { params: { path: { id: w.id } }, body: { enabled: !w.enabled } }));
    showStatus(w.enabled ? `Endpoint ${w.url} paused.` : `Endpoint ${w.url} resumed: what was pending goes out.`);
    hooks.reload();
  });
  const [rotate] = useAction(async (w: Webhook) => {
    const rotated = await unwrap(tenant.POST("/api/v1/webhooks/{id}/rotate-secret", { params: { path: { id: w.id } } }));
    setSecret({ url: rotated.url, secret: rotated.secret ?? "" });
    showStatus(`Endpoint ${w.url} has a new signing secret. Copy it now.`);
  });
  const [remove, removing] = useAction(async () => {
    if (!deleting) return;
    await unwrap(tenant.DELETE("/api/v1/webhooks/{id}", { params: { path: { id: deleting.id } } }));
    showStatus(`Endpoint ${deleting.url} deleted.`);
    setDeleting(null);
    hooks.reload();
  });

  return (
    <Page id="webhooks" title="Webhooks" ready={!hooks.loading}>
      <p class="muted">
        Events are posted to each endpoint as JSON, signed the Standard Webhooks way (<code>webhook-id</code>,{" "}
        <code>webhook-timestamp</code>, <code>webhook-signature</code>). Managing them needs a key with the admin scope.
      </p>
      {secret && (
        <div class="secret-box" data-testid="webhook-secret-box" role="region" aria-label="Signing secret">
          <p>
            <strong>Signing secret of {secret.url}</strong>: shown this once. Copy it now.
          </p>
          <div class="secret-row">
            <label class="visually-hidden" for="webhook-secret">
              Signing secret
            </label>
            <input id="webhook-secret" class="mono" readOnly value={secret.secret} data-testid="webhook-secret" onFocus={(e) => e.currentTarget.select()} />
            <CopyButton text={secret.secret} label="Copy secret" />
          </div>
          <button type="button" onClick={() => setSecret(null)}>
            Done (hide the secret)
          </button>
        </div>
      )}
      <form
        class="inline-form"
        aria-label="Register an endpoint"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <Field label="Endpoint URL" hint="A public https:// address; internal addresses are refused.">
          {(id, hint) => (
            <input
              id={id}
              aria-describedby={hint}
              value={url}
              required
              maxLength={2048}
              placeholder="https://hooks.example.com/cairn"
              onInput={(e) => setUrl(e.currentTarget.value)}
              data-testid="webhook-url"
            />
          )}
        </Field>
        <fieldset class="scopes">
          <legend>Events</legend>
          {EVENT_TYPES.map((t) => (
            <label key={t} class="check">
              <input type="checkbox" checked={types[t]} onChange={(e) => setTypes({ ...types, [t]: e.currentTarget.checked })} data-testid={`event-${t}`} />
              {t}
            </label>
          ))}
        </fieldset>
        <button type="submit" class="primary" disabled={creating || !url.trim()} data-testid="webhook-create">
          Register
        </button>
      </form>
      {!hooks.data ? (
        <Loading what="endpoints" />
      ) : hooks.data.length === 0 ? (
        <Empty>No endpoint yet.</Empty>
      ) : (
        <Table testid="webhooks-table" caption="Endpoints" columns={["URL", "Events", "State", "Created", ""]}>
          {hooks.data.map((w) => (
            <Fragment key={w.id}>
              <tr data-webhook-id={w.id}>
                <td class="mono">{w.url}</td>
                <td>{w.event_types.length === EVENT_TYPES.length ? "all" : w.event_types.join(", ")}</td>
                <td title={w.disabled_reason ?? undefined}>
                  <StatusBadge status={state(w)} />
                  {w.disabled_reason && <small class="hint"> {w.disabled_reason}</small>}
                </td>
                <td>
                  <Time iso={w.created_at} />
                </td>
                <td class="row">
                  <button type="button" class="link" onClick={() => setOpen(open === w.id ? null : w.id)} data-testid="webhook-log">
                    {open === w.id ? "Hide deliveries" : "Deliveries"}
                  </button>
                  <button type="button" class="link" onClick={() => void toggle(w)} data-testid="webhook-toggle">
                    {w.enabled ? "Pause" : "Resume"}
                  </button>
                  <button type="button" class="link" onClick={() => void rotate(w)} data-testid="webhook-rotate">
                    New secret
                  </button>
                  <button type="button" class="link danger" onClick={() => setDeleting(w)} data-testid="webhook-delete">
                    Delete
                  </button>
                </td>
              </tr>
              {open === w.id && (
                <tr>
                  <td colSpan={5}>
                    <Deliveries hook={w} />
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </Table>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this endpoint?"
        confirmLabel="Delete"
        danger
        busy={removing}
        onConfirm={() => void remove()}
        onClose={() => setDeleting(null)}
      >
        <p>{deleting?.url} and its delivery log go; events not yet delivered to it are dropped.</p>
      </ConfirmDialog>
    </Page>
  );
}
