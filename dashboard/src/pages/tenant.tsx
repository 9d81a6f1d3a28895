// One tenant (admin view): its state, suspend/resume/delete, plan, usage against its limits, its keys, its
// retrieval-quality reports.
import { useMemo, useState } from "preact/hooks";
import { admin, unwrap, type Schemas } from "../api.ts";
import { KeysPanel, type KeyOps } from "../keys.tsx";
import { href, navigate } from "../router.ts";
import { QualityPanel } from "../quality.tsx";
import { UsagePanel } from "../usage.tsx";
import {
  ConfirmDialog,
  Field,
  fmtBytes,
  fmtNum,
  KeyValues,
  Loading,
  Page,
  SelectField,
  showStatus,
  StatusBadge,
  Table,
  Time,
  truncate,
  useAction,
  useLoad,
} from "../ui.tsx";

export function TenantPage(props: { id: string }) {
  const id = props.id;
  const detail = useLoad(() => unwrap(admin.GET("/admin/v1/tenants/{id}", { params: { path: { id } } })), [id]);
  const usage = useLoad(() => unwrap(admin.GET("/admin/v1/tenants/{id}/usage", { params: { path: { id } } })), [id]);
  const plans = useLoad(() => unwrap(admin.GET("/admin/v1/plans", {})), []);
  const [dialog, setDialog] = useState<"suspend" | "delete" | null>(null);
  const [reason, setReason] = useState("");
  const [plan, setPlan] = useState<string | null>(null);

  const ops: KeyOps = useMemo(
    () => ({
      list: async () => (await unwrap(admin.GET("/admin/v1/tenants/{id}/keys", { params: { path: { id } } }))).keys,
      create: (body) => unwrap(admin.POST("/admin/v1/tenants/{id}/keys", { params: { path: { id } }, body })),
      revoke: (keyId) =>
        unwrap(admin.DELETE("/admin/v1/tenants/{id}/keys/{key_id}", { params: { path: { id, key_id: keyId } } })),
      rotate: (keyId, grace) =>
        unwrap(
          admin.POST("/admin/v1/tenants/{id}/keys/{key_id}/rotate", {
            params: { path: { id, key_id: keyId } },
            body: { grace_period_secs: grace },
          }),
        ),
    }),
    [id],
  );

  const [suspend, suspending] = useAction(async () => {
    const t = await unwrap(
      admin.POST("/admin/v1/tenants/{id}/suspend", { params: { path: { id } }, body: { reason: reason.trim() || null } }),
    );
    setDialog(null);
    setReason("");
    showStatus(`Tenant ${t.name} suspended.`);
    detail.reload();
  });
  const [resume, resuming] = useAction(async () => {
    const t = await unwrap(admin.POST("/admin/v1/tenants/{id}/resume", { params: { path: { id } } }));
    showStatus(`Tenant ${t.name} resumed.`);
    detail.reload();
  });
  const [remove, removing] = useAction(async () => {
    const t = await unwrap(admin.DELETE("/admin/v1/tenants/{id}", { params: { path: { id } } }));
    setDialog(null);
    showStatus(`Tenant ${t.name} is being deleted (${t.status}).`);
    navigate("#/tenants");
  });
  const [changePlan, changing] = useAction(async () => {
    if (!plan) return;
    const t = await unwrap(admin.PATCH("/admin/v1/tenants/{id}", { params: { path: { id } }, body: { plan } }));
    setPlan(null);
    showStatus(`Tenant ${t.name} is on plan ${t.plan} now.`);
    detail.reload();
    usage.reload();
  });

  const t = detail.data;
  const gone = t ? t.status === "deleting" || t.status === "deleted" : false;
  return (
    <Page
      id="tenant"
      title={t ? `Tenant ${t.name}` : "Tenant"}
      ready={!detail.loading && !usage.loading}
      actions={
        t &&
        !gone && (
          <>
            {t.status === "suspended" ? (
              <button type="button" onClick={() => void resume()} disabled={resuming} data-testid="resume-tenant">
                Resume
              </button>
            ) : (
              <button type="button" onClick={() => setDialog("suspend")} data-testid="suspend-tenant">
                Suspend
              </button>
            )}
            <button type="button" class="danger" onClick={() => setDialog("delete")} data-testid="delete-tenant">
              Delete…
            </button>
          </>
        )
      }
    >
      <p>
        <a href="#/tenants">← All tenants</a>
      </p>
      {!t ? (
        detail.loading ? <Loading what="tenant" /> : null
      ) : (
        <>
          <section aria-labelledby="t-overview" class="card">
            <h2 id="t-overview">Overview</h2>
            <KeyValues
              testid="tenant-overview"
              rows={[
                ["Id", <span class="mono">{t.id}</span>],
                ["Status", <><StatusBadge status={t.status} />{t.status_reason ? ` — ${t.status_reason}` : ""}</>],
                ["Status since", <Time iso={t.status_changed_at} />],
                ["Plan", t.plan],
                ["Memories", fmtNum(t.memories)],
                ["Storage", fmtBytes(t.storage_bytes)],
                ["Created", <Time iso={t.created_at} />],
                ["Undo window", t.settings ? `${t.settings.undo_days} days` : "—"],
                ["Forgetting", t.settings ? (t.settings.forgetting_enabled ? `on (grace ${t.settings.forgetting_grace_days} days)` : "off") : "—"],
                ["Archive retention", t.settings?.archive_retention_days ? `${t.settings.archive_retention_days} days` : "forever"],
                ["Read keys strengthen associations", t.settings ? (t.settings.read_keys_strengthen ? "yes" : "no") : "—"],
                ["Own limits", Object.keys(t.limits ?? {}).length ? <code>{JSON.stringify(t.limits)}</code> : "none (the plan's)"],
              ]}
            />
            {t.deletion_report && (
              <details>
                <summary>Deletion report</summary>
                <pre>{JSON.stringify(t.deletion_report, null, 2)}</pre>
              </details>
            )}
            {!gone && (
              <form
                class="inline-form"
                aria-label="Change plan"
                onSubmit={(e) => {
                  e.preventDefault();
                  void changePlan();
                }}
              >
                <SelectField
                  label="Plan"
                  value={plan ?? t.plan}
                  options={(plans.data?.plans ?? [{ name: t.plan, limits: {} }]).map((p) => p.name)}
                  onChange={setPlan}
                />
                <button type="submit" disabled={!plan || plan === t.plan || changing}>
                  Change plan
                </button>
              </form>
            )}
          </section>

          {!gone && (
            <section aria-labelledby="t-keys" class="card">
              <h2 id="t-keys">API keys</h2>
              <KeysPanel ops={ops} tenantLabel={t.name} tenantId={t.id} offerOpen />
            </section>
          )}
          <section aria-labelledby="t-usage" class="card">
            <h2 id="t-usage">Usage, last 30 days</h2>
            {usage.data ? <UsagePanel report={usage.data} /> : usage.loading ? <Loading what="usage" /> : null}
          </section>

          <section aria-labelledby="t-quality" class="card">
            <h2 id="t-quality">Retrieval quality</h2>
            <QualityPanel id={t.id} />
          </section>

          <section aria-labelledby="t-look" class="card">
            <h2 id="t-look">Its memories and jobs</h2>
            <LookPanel id={t.id} />
          </section>

          <p>
            <a href={`${href("audit")}?tenant_id=${t.id}`}>Audit log of this tenant</a>
          </p>
        </>
      )}

      <ConfirmDialog
        open={dialog === "suspend"}
        title={`Suspend ${t?.name ?? "tenant"}?`}
        confirmLabel="Suspend"
        danger
        busy={suspending}
        onConfirm={() => void suspend()}
        onClose={() => setDialog(null)}
      >
        <p>Its keys are refused until it is resumed; nothing is deleted.</p>
        <Field label="Reason (shown to operators)">
          {(fid) => <input id={fid} maxLength={500} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />}
        </Field>
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog === "delete"}
        title={`Delete ${t?.name ?? "tenant"}?`}
        confirmLabel="Delete tenant"
        danger
        requireText={t?.name}
        busy={removing}
        onConfirm={() => void remove()}
        onClose={() => setDialog(null)}
      >
        <p>
          Its keys stop at once and all of its data — {fmtNum(t?.memories)} memories — is removed. This cannot be
          undone.
        </p>
      </ConfirmDialog>
    </Page>
  );
}

/** An operator's read-only look at the tenant's newest memories and its jobs, without a key of its own: asked
 *  for by a click, since each look is written to the audit log. Changes nothing (no access counted). */
function LookPanel(props: { id: string }) {
  const id = props.id;
  const [look, setLook] = useState<{ memories: Schemas["MemoryPage"]; jobs: Schemas["JobStatus"] } | null>(null);
  const [open, busy] = useAction(async () => {
    const [memories, jobs] = await Promise.all([
      unwrap(admin.GET("/admin/v1/tenants/{id}/memories", { params: { path: { id }, query: { limit: 10 } } })),
      unwrap(admin.GET("/admin/v1/tenants/{id}/jobs", { params: { path: { id } } })),
    ]);
    setLook({ memories, jobs });
  });
  if (!look) {
    return (
      <>
        <p class="muted">Read-only, without issuing a key; each look is recorded in the audit log.</p>
        <button type="button" onClick={() => void open()} disabled={busy} data-testid="look-button">
          Look at its memories and jobs
        </button>
      </>
    );
  }
  return (
    <>
      <Table testid="look-memories" caption={`Newest memories (${look.memories.total} in all)`} captionShown columns={["Created", "Content", "Tags"]}>
        {look.memories.memories.map((m) => (
          <tr key={m.id} data-memory-id={m.id}>
            <td>
              <Time iso={m.created_at} />
            </td>
            <td>{truncate(m.content, 120)}</td>
            <td>{m.tags.join(", ")}</td>
          </tr>
        ))}
      </Table>
      <Table testid="look-jobs" caption="Jobs per queue" captionShown columns={["Queue", "Pending", "Running", "Done", "Failed", "Killed"]}>
        {look.jobs.queues.map((q) => (
          <tr key={q.queue} data-queue={q.queue}>
            <td class="mono">{q.queue}</td>
            <td>{fmtNum(q.pending)}</td>
            <td>{fmtNum(q.running)}</td>
            <td>{fmtNum(q.done)}</td>
            <td>{fmtNum(q.failed)}</td>
            <td>{fmtNum(q.killed)}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}
