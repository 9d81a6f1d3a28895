// One memory: its details, an edit form (PATCH), its history, archive/delete and restore.
import { useState } from "preact/hooks";
import { tenant, unwrap, type Schemas } from "../api.ts";
import { scopeText } from "../keys.tsx";
import { href } from "../router.ts";
import {
  ConfirmDialog,
  Empty,
  Field,
  fmtNum,
  KeyValues,
  Loading,
  MEMORY_KINDS,
  MEMORY_TYPES,
  Page,
  SelectField,
  showStatus,
  StatusBadge,
  Time,
  truncate,
  useAction,
  useLoad,
} from "../ui.tsx";

type Memory = Schemas["Memory"];

interface EditForm {
  content: string;
  tags: string;
  type: string;
  memory_type: string;
  importance: string;
  user_id: string;
  agent_id: string;
  run_id: string;
  metadata: string;
}

function formOf(m: Memory): EditForm {
  return {
    content: m.content,
    tags: m.tags.join(", "),
    type: m.type,
    memory_type: m.memory_type,
    importance: String(m.importance),
    user_id: m.user_id ?? "",
    agent_id: m.agent_id ?? "",
    run_id: m.run_id ?? "",
    metadata: JSON.stringify(m.metadata ?? {}, null, 2),
  };
}

/** Only what changed, so that history records just the edit. */
function patchOf(m: Memory, f: EditForm): Schemas["MemoryPatch"] {
  const p: Schemas["MemoryPatch"] = {};
  if (f.content !== m.content) p.content = f.content;
  const tags = f.tags
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  if (tags.join("\u0000") !== m.tags.join("\u0000")) p.tags = tags;
  if (f.type !== m.type) p.type = f.type as Schemas["MemoryPatch"]["type"];
  if (f.memory_type !== m.memory_type) p.memory_type = f.memory_type as Schemas["MemoryPatch"]["memory_type"];
  const importance = Number(f.importance);
  if (!Number.isNaN(importance) && Math.abs(importance - m.importance) > 1e-6) p.importance = importance;
  for (const k of ["user_id", "agent_id", "run_id"] as const) {
    const v = f[k].trim();
    if (v !== (m[k] ?? "")) p[k] = v || null;
  }
  let metadata: unknown;
  try {
    metadata = JSON.parse(f.metadata || "{}");
  } catch {
    throw new Error("metadata: not valid JSON");
  }
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
    throw new Error("metadata: must be a JSON object");
  }
  if (JSON.stringify(metadata) !== JSON.stringify(m.metadata ?? {})) p.metadata = metadata as Record<string, unknown>;
  return p;
}

const QUIET = new Set(["updated_at", "content_hash", "tag_prefixes", "last_accessed_at", "access_count", "embedding_status", "enrichment_status"]);

function show(v: unknown): string {
  if (v === null || v === undefined) return "—";
  if (typeof v === "string") return truncate(v, 160);
  return truncate(JSON.stringify(v), 160);
}

function Changes(props: { before?: Record<string, unknown> | null; after?: Record<string, unknown> | null }) {
  const before = props.before ?? {};
  const after = props.after ?? {};
  if (!props.before || !props.after) return null;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => !QUIET.has(k))
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .sort();
  if (keys.length === 0) return null;
  return (
    <ul class="changes">
      {keys.map((k) => (
        <li key={k}>
          <span class="mono">{k}</span>: <del>{show(before[k])}</del> → <ins>{show(after[k])}</ins>
        </li>
      ))}
    </ul>
  );
}

function History(props: { events: Schemas["MemoryEvent"][] }) {
  const events = [...props.events].reverse();
  if (events.length === 0) return <Empty>No history.</Empty>;
  return (
    <ol class="history" data-testid="history" reversed>
      {events.map((e) => (
        <li key={e.id} data-event-type={e.event_type}>
          <strong>{e.event_type}</strong> <span class="muted">by {e.actor}{e.actor_scope ? ` (scoped to ${scopeText(e.actor_scope)})` : ""}</span> ·{" "}
          <Time iso={e.created_at} />
          <Changes before={e.before as Record<string, unknown> | null} after={e.after as Record<string, unknown> | null} />
        </li>
      ))}
    </ol>
  );
}

export function MemoryPage(props: { id: string }) {
  const id = props.id;
  const [tick, setTick] = useState(0);
  const memory = useLoad(() => unwrap(tenant.GET("/api/v1/memories/{id}", { params: { path: { id }, query: { touch: false } } })), [id, tick]);
  const history = useLoad(() => unwrap(tenant.GET("/api/v1/memories/{id}/history", { params: { path: { id } } })), [id, tick]);
  const [editing, setEditing] = useState<EditForm | null>(null);
  const [dialog, setDialog] = useState<"delete" | "archive" | null>(null);
  const [deleted, setDeleted] = useState<Schemas["Deleted"] | null>(null);
  const refresh = () => setTick((t) => t + 1);

  const [save, saving] = useAction(async () => {
    const m = memory.data;
    if (!m || !editing) return;
    const patch = patchOf(m, editing);
    if (Object.keys(patch).length === 0) {
      setEditing(null);
      showStatus("Nothing changed.");
      return;
    }
    await unwrap(tenant.PATCH("/api/v1/memories/{id}", { params: { path: { id } }, body: patch }));
    setEditing(null);
    showStatus(`Saved: ${Object.keys(patch).join(", ")}.`);
    refresh();
  });

  const [remove, removing] = useAction(async (hard: boolean) => {
    const d = await unwrap(tenant.DELETE("/api/v1/memories/{id}", { params: { path: { id }, query: { hard } } }));
    setDialog(null);
    if (d.hard) {
      setDeleted(d);
      showStatus("Memory deleted. It can be restored during the tenant's undo window.");
    } else {
      showStatus("Memory archived: it left recall and listings until restored.");
      refresh();
    }
  });

  const [restore, restoring] = useAction(async () => {
    await unwrap(tenant.POST("/api/v1/memories/{id}/restore", { params: { path: { id } } }));
    setDeleted(null);
    showStatus("Memory restored.");
    refresh();
  });

  const m = memory.data;
  const notFound = !m && memory.error !== undefined && !memory.loading;
  return (
    <Page
      id="memory"
      title="Memory"
      ready={!memory.loading && !history.loading}
      actions={
        m &&
        !deleted && (
          <>
            <a class="button" href={href("graph", id)} data-testid="open-graph">
              Graph
            </a>
            <button type="button" onClick={() => setEditing(editing ? null : formOf(m))} aria-expanded={editing !== null} data-testid="edit-memory">
              {editing ? "Cancel edit" : "Edit"}
            </button>
            {m.archived_at ? (
              <button type="button" onClick={() => void restore()} disabled={restoring} data-testid="restore-memory">
                Restore from archive
              </button>
            ) : (
              <button type="button" onClick={() => setDialog("archive")}>
                Archive…
              </button>
            )}
            <button type="button" class="danger" onClick={() => setDialog("delete")} data-testid="delete-memory">
              Delete…
            </button>
          </>
        )
      }
    >
      <p>
        <a href="#/memories">← Search</a> · <a href="#/trash">Trash</a>
      </p>
      {deleted && (
        <div class="notice" data-testid="deleted-banner">
          <p>
            This memory is deleted. It stays restorable for the tenant's undo window (see <a href="#/trash">Trash</a>),
            then it is erased.
          </p>
          <button type="button" class="primary" onClick={() => void restore()} disabled={restoring} data-testid="restore-deleted">
            Restore now
          </button>
        </div>
      )}
      {notFound && !deleted && (
        <Empty>
          No such memory in this tenant{memory.error?.includes("404") ? "" : ` (${memory.error})`}. A deleted memory is in the{" "}
          <a href="#/trash">Trash</a> while it can be restored.
        </Empty>
      )}
      {!m && memory.loading && <Loading what="memory" />}
      {m && !deleted && (
        <>
          {editing ? (
            <form
              class="card edit"
              aria-label="Edit memory"
              onSubmit={(e) => {
                e.preventDefault();
                void save();
              }}
            >
              <h2>Edit</h2>
              <Field label="Content" hint="1–2000 characters; over 500 it is stored summarised">
                {(fid, hint) => (
                  <textarea
                    id={fid}
                    aria-describedby={hint}
                    rows={5}
                    required
                    maxLength={2000}
                    value={editing.content}
                    onInput={(e) => setEditing({ ...editing, content: e.currentTarget.value })}
                    data-testid="edit-content"
                  />
                )}
              </Field>
              <div class="filters">
                <Field label="Tags" hint="comma-separated">
                  {(fid, hint) => (
                    <input id={fid} aria-describedby={hint} value={editing.tags} onInput={(e) => setEditing({ ...editing, tags: e.currentTarget.value })} data-testid="edit-tags" />
                  )}
                </Field>
                <SelectField label="Type" value={editing.type} options={MEMORY_TYPES} onChange={(type) => setEditing({ ...editing, type })} />
                <SelectField
                  label="Memory type"
                  value={editing.memory_type}
                  options={MEMORY_KINDS}
                  onChange={(memory_type) => setEditing({ ...editing, memory_type })}
                />
                <Field label="Importance" hint="0–1">
                  {(fid, hint) => (
                    <input
                      id={fid}
                      aria-describedby={hint}
                      type="number"
                      min={0}
                      max={1}
                      step={0.05}
                      value={editing.importance}
                      onInput={(e) => setEditing({ ...editing, importance: e.currentTarget.value })}
                    />
                  )}
                </Field>
                <Field label="User id">{(fid) => <input id={fid} value={editing.user_id} onInput={(e) => setEditing({ ...editing, user_id: e.currentTarget.value })} />}</Field>
                <Field label="Agent id">{(fid) => <input id={fid} value={editing.agent_id} onInput={(e) => setEditing({ ...editing, agent_id: e.currentTarget.value })} />}</Field>
                <Field label="Run id">{(fid) => <input id={fid} value={editing.run_id} onInput={(e) => setEditing({ ...editing, run_id: e.currentTarget.value })} />}</Field>
              </div>
              <Field label="Metadata (JSON object; replaces the stored one)">
                {(fid) => (
                  <textarea
                    id={fid}
                    class="mono"
                    rows={4}
                    value={editing.metadata}
                    onInput={(e) => setEditing({ ...editing, metadata: e.currentTarget.value })}
                  />
                )}
              </Field>
              <div class="row">
                <button type="submit" class="primary" disabled={saving} data-testid="save-memory">
                  Save
                </button>
                <button type="button" onClick={() => setEditing(null)}>
                  Cancel
                </button>
              </div>
            </form>
          ) : (
            <article class="card">
              <h2 class="visually-hidden">Content</h2>
              <p class="memory-content" data-testid="memory-content">
                {m.content}
              </p>
              {m.summary && m.summary !== m.content && m.enrichment_status === "ready" && <p class="muted">Enrichment summary: {m.summary}</p>}
              <p class="result-meta">
                {m.tags.map((t) => (
                  <span key={t} class="tag">
                    {t}
                  </span>
                ))}
              </p>
            </article>
          )}
          <section class="card" aria-labelledby="m-details">
            <h2 id="m-details">Details</h2>
            <KeyValues
              testid="memory-details"
              rows={[
                ["Id", <span class="mono">{m.id}</span>],
                ["Type", `${m.type} (confidence ${m.confidence.toFixed(2)})`],
                ["Memory type", m.memory_type === "short_term" ? `short-term, expires ${m.expires_at ?? "—"}` : "long-term"],
                ["Importance", m.importance.toFixed(2)],
                ["Credibility", `${m.credibility.toFixed(2)} (${m.source_type})`],
                ["Quality", m.quality_score === null || m.quality_score === undefined ? "—" : m.quality_score.toFixed(2)],
                ["Emotion", m.emotion ? `${m.emotion} (valence ${m.emotional_valence ?? "—"}, arousal ${m.emotional_arousal ?? "—"})` : "—"],
                ["User / agent / run", `${m.user_id ?? "—"} / ${m.agent_id ?? "—"} / ${m.run_id ?? "—"}`],
                ["Stored by", `${m.created_by ?? "—"}${m.created_by_scope ? ` (scoped to ${scopeText(m.created_by_scope)})` : ""}`],
                ["Episode", m.episode_id ? `${m.episode_id} #${m.sequence_number ?? "—"}` : "—"],
                ["Created", <Time iso={m.created_at} />],
                ["Updated", <Time iso={m.updated_at} />],
                ["Valid", m.t_valid || m.t_invalid ? <><Time iso={m.t_valid} /> – <Time iso={m.t_invalid} /></> : "—"],
                ["Accessed", <>{fmtNum(m.access_count)} times, last <Time iso={m.last_accessed_at} /></>],
                ["Archived", m.archived_at ? <Time iso={m.archived_at} /> : "no"],
                ["Embedding", <><StatusBadge status={m.embedding_status} /> {m.embedding_model ?? ""} {m.embedding_error ?? ""}</>],
                ["Enrichment", <StatusBadge status={m.enrichment_status} />],
                ["Summarised", m.summarized ? `yes (${m.original_length ?? "?"} → ${m.summarized_length ?? "?"} characters)` : "no"],
              ]}
            />
            <details>
              <summary>Metadata</summary>
              <pre>{JSON.stringify(m.metadata, null, 2)}</pre>
            </details>
          </section>
        </>
      )}
      {!deleted && (m || history.data) && (
        <section class="card" aria-labelledby="m-history">
          <h2 id="m-history">History</h2>
          {history.data ? <History events={history.data.events} /> : history.loading ? <Loading what="history" /> : null}
        </section>
      )}

      <ConfirmDialog
        open={dialog === "delete"}
        title="Delete this memory?"
        confirmLabel="Delete"
        danger
        busy={removing}
        onConfirm={() => void remove(true)}
        onClose={() => setDialog(null)}
      >
        <p>It leaves every read at once, with its relations. It can be restored from the Trash during the tenant's undo window, then it is erased.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === "archive"}
        title="Archive this memory?"
        confirmLabel="Archive"
        busy={removing}
        onConfirm={() => void remove(false)}
        onClose={() => setDialog(null)}
      >
        <p>It leaves recall and listings until restored.</p>
      </ConfirmDialog>
    </Page>
  );
}
