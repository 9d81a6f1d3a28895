// Shared pieces: the alert and status regions, data loading, dialogs, charts, formatting.
import type { ComponentChildren, JSX } from "preact";
import { useCallback, useEffect, useId, useRef, useState } from "preact/hooks";
import { CairnError, messageOf, refreshTrouble } from "./api.ts";
import { Store, useStore } from "./store.ts";

// ---------------------------------------------------------------------------------------------------
// Alert (errors) and status (confirmations) regions

export const alertText = new Store<string>("");
export const statusText = new Store<string>("");
/** Whether the alert is an API key's or a session's 401 (offers signing in again). */
export const alertAuth = new Store<boolean>(false);
let statusAt = 0;

export function showError(err: unknown): void {
  statusText.set("");
  alertAuth.set(err instanceof CairnError && err.status === 401);
  alertText.set(messageOf(err));
}

export function showStatus(text: string): void {
  alertText.set("");
  statusAt = Date.now();
  statusText.set(text);
}

/** On a new page: errors go; a confirmation stays only if it was just given (it led here). */
export function newPageNotices(): void {
  alertText.set("");
  if (Date.now() - statusAt > 1500) statusText.set("");
}

export function clearNotices(): void {
  alertText.set("");
  statusText.set("");
}

// A refresh that failed for a passing reason (the session is kept) says so in the alert region; the
// note goes when the session has new tokens.
let troubleShown = "";
refreshTrouble.subscribe((trouble) => {
  if (trouble) {
    statusText.set("");
    alertAuth.set(false);
    alertText.set(trouble);
    troubleShown = trouble;
  } else {
    if (troubleShown && alertText.get() === troubleShown) alertText.set("");
    troubleShown = "";
  }
});

export function Notices() {
  const alert = useStore(alertText);
  const auth = useStore(alertAuth);
  const status = useStore(statusText);
  return (
    <div class="notices">
      {/* Both regions stay in the DOM so that assistive technology announces changes. */}
      <div role="alert" class={alert ? "alert" : "alert empty"} data-testid="alert">
        {alert && (
          <>
            <span>
              {alert}
              {auth && (
                <>
                  {" "}
                  <a href="#/login" data-testid="sign-in-again">
                    Sign in again or use another key
                  </a>
                </>
              )}
            </span>
            <button type="button" class="link" onClick={() => alertText.set("")} aria-label="Dismiss error">
              ×
            </button>
          </>
        )}
      </div>
      <div role="status" class={status ? "status" : "status empty"} data-testid="status">
        {status}
      </div>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------
// Loading data

export interface Loaded<T> {
  data?: T;
  error?: string;
  loading: boolean;
  reload: () => void;
}

/** Runs `fn` when `deps` change (and on reload); failures go to the alert region too. */
export function useLoad<T>(fn: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    let live = true;
    setState((s) => ({ data: s.data, loading: true }));
    fn().then(
      (data) => live && setState({ data, loading: false }),
      (err) => {
        if (!live) return;
        showError(err);
        setState({ error: messageOf(err), loading: false });
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  return { ...state, reload };
}

/** Wraps an action: disables while running, reports failure in the alert region. */
export function useAction<A extends unknown[]>(
  fn: (...args: A) => Promise<void>,
): [(...args: A) => Promise<void>, boolean] {
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (...args: A) => {
      setBusy(true);
      try {
        await fn(...args);
      } catch (err) {
        showError(err);
      } finally {
        setBusy(false);
      }
    },
    [fn],
  );
  return [run, busy];
}

// ---------------------------------------------------------------------------------------------------
// Page frame

export function Page(props: {
  id: string;
  title: string;
  ready: boolean;
  actions?: ComponentChildren;
  children: ComponentChildren;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${props.title} · Cairn`;
  }, [props.title]);
  return (
    <section
      class="page"
      data-testid={`page-${props.id}`}
      data-ready={props.ready ? "true" : "false"}
      aria-busy={props.ready ? "false" : "true"}
      aria-labelledby={`h-${props.id}`}
    >
      <header class="page-head">
        <h1 id={`h-${props.id}`} ref={heading} tabIndex={-1}>
          {props.title}
        </h1>
        {props.actions && <div class="page-actions">{props.actions}</div>}
      </header>
      {props.children}
    </section>
  );
}

export function Loading(props: { what?: string }) {
  return (
    <p class="muted loading">
      Loading{props.what ? ` ${props.what}` : ""}…
    </p>
  );
}

export function Empty(props: { children: ComponentChildren }) {
  return <p class="empty-note">{props.children}</p>;
}

// ---------------------------------------------------------------------------------------------------
// Form fields

export function Field(props: {
  label: string;
  hint?: string;
  children: (id: string, describedBy: string | undefined) => JSX.Element;
  class?: string;
}) {
  const id = useId();
  const hintId = props.hint ? `${id}-hint` : undefined;
  return (
    <div class={`field ${props.class ?? ""}`}>
      <label for={id}>{props.label}</label>
      {props.children(id, hintId)}
      {props.hint && (
        <small id={hintId} class="hint">
          {props.hint}
        </small>
      )}
    </div>
  );
}

/** An option of a <select>: its value, shown as is, or [value, shown text]. */
export type SelectOption = string | readonly [value: string, text: string];

/** A labelled <select> of `options`; `onChange` gets the chosen value. */
export function SelectField(props: {
  label: string;
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
  testid?: string;
}) {
  return (
    <Field label={props.label}>
      {(id) => (
        <select id={id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)} data-testid={props.testid}>
          {props.options.map((o) => {
            const [value, text] = typeof o === "string" ? [o, o] : o;
            return (
              <option key={value} value={value}>
                {text}
              </option>
            );
          })}
        </select>
      )}
    </Field>
  );
}

/** The memory types (`type`), for filters and the edit form. */
export const MEMORY_TYPES = [
  "Decision", "Pattern", "Preference", "Style", "Habit", "Insight", "Context", "Observation", "Learning",
  "Error", "Discovery", "Task", "CodeEdit", "FileAccess", "Search", "Command", "Conversation",
] as const;

/** The kinds of memory (`memory_type`) as a select's options. */
export const MEMORY_KINDS: readonly SelectOption[] = [
  ["long_term", "long-term"],
  ["short_term", "short-term"],
];

// ---------------------------------------------------------------------------------------------------
// Tables

/** A column heading: its text, or [text, class] (e.g. "num" for right-aligned numbers). */
export type Column = string | readonly [text: string, cls: string];

/**
 * A scrollable table with a row of column headings; `children` are the body's rows. The caption is
 * for assistive technology only unless `captionShown`.
 */
export function Table(props: {
  testid?: string;
  caption?: string;
  captionShown?: boolean;
  columns: readonly Column[];
  children: ComponentChildren;
}) {
  return (
    <div class="table-wrap">
      <table data-testid={props.testid}>
        {props.caption && <caption class={props.captionShown ? undefined : "visually-hidden"}>{props.caption}</caption>}
        <thead>
          <tr>
            {props.columns.map((c) => {
              const [text, cls] = typeof c === "string" ? [c, undefined] : c;
              return (
                <th key={text} scope="col" class={cls}>
                  {text}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------
// Dialogs

/**
 * A modal confirmation (native <dialog>: focus stays inside, Escape closes). With `requireText`, the
 * confirm button stays disabled until the user types it.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children?: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  requireText?: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState("");
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      setTyped("");
      dialog.showModal();
    } else if (!props.open && dialog.open) {
      dialog.close();
    }
  }, [props.open]);
  const ok = !props.requireText || typed === props.requireText;
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      data-testid="confirm-dialog"
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
    >
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          if (ok && !props.busy) props.onConfirm();
        }}
      >
        <h2 id={titleId}>{props.title}</h2>
        {props.children}
        {props.requireText && (
          <Field label={`Type “${props.requireText}” to confirm`}>
            {(id) => (
              <input
                id={id}
                autoFocus
                autocomplete="off"
                value={typed}
                onInput={(e) => setTyped(e.currentTarget.value)}
                data-testid="confirm-text"
              />
            )}
          </Field>
        )}
        <div class="dialog-actions">
          <button type="button" onClick={props.onClose} autoFocus={!props.requireText}>
            Cancel
          </button>
          <button
            type="submit"
            class={props.danger ? "danger" : "primary"}
            disabled={!ok || props.busy}
            data-testid="confirm-button"
          >
            {props.confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

// ---------------------------------------------------------------------------------------------------
// Secrets

export function CopyButton(props: { text: string; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    let copied = false;
    try {
      // Undefined outside secure contexts (plain http on a LAN host): the fallback below.
      await navigator.clipboard.writeText(props.text);
      copied = true;
    } catch {
      // Older browsers, no permission or no clipboard API: select-and-copy, which says whether it worked.
      const area = document.createElement("textarea");
      area.value = props.text;
      area.setAttribute("readonly", "");
      document.body.appendChild(area);
      try {
        area.select();
        copied = document.execCommand("copy");
      } catch {
        copied = false;
      } finally {
        area.remove();
      }
    }
    setState(copied ? "copied" : "failed");
    clearTimeout(timer.current);
    if (copied) timer.current = setTimeout(() => setState("idle"), 2000);
  };
  return (
    <>
      <button type="button" onClick={copy} data-testid="copy-button">
        {state === "copied" ? "Copied" : props.label ?? "Copy"}
      </button>
      <span
        aria-live="polite"
        class={state === "failed" ? "warn-text" : "visually-hidden"}
        data-testid={state === "failed" ? "copy-failed" : undefined}
      >
        {state === "copied" ? "Copied to the clipboard" : state === "failed" ? "Copy failed — select the text and copy it" : ""}
      </span>
    </>
  );
}

// ---------------------------------------------------------------------------------------------------
// Formatting

export function fmtTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
}

export function Time(props: { iso: string | null | undefined }) {
  if (!props.iso) return <span class="muted">—</span>;
  return (
    <time dateTime={props.iso} title={props.iso}>
      {fmtTime(props.iso)}
    </time>
  );
}

export function ago(iso: string | null | undefined): string {
  if (!iso) return "never";
  const s = (Date.now() - new Date(iso).getTime()) / 1000;
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

export function fmtNum(n: number | null | undefined): string {
  if (n === null || n === undefined) return "—";
  return n.toLocaleString("en-US");
}

export function fmtBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return "—";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(1)} ${units[u]}`;
}

export function fmtScore(n: number | null | undefined): string {
  return n === null || n === undefined ? "—" : n.toFixed(3);
}

export function truncate(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + "…" : s;
}

export function StatusBadge(props: { status: string }) {
  return <span class={`badge badge-${props.status.toLowerCase()}`}>{props.status}</span>;
}

// ---------------------------------------------------------------------------------------------------
// Charts (inline SVG; no external assets)

/** The last `n` UTC days up to `to` (YYYY-MM-DD), ascending. */
export function dayRange(from: string, to: string): string[] {
  const days: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  let t = Date.parse(`${from}T00:00:00Z`);
  if (Number.isNaN(t) || Number.isNaN(end)) return days;
  while (t <= end && days.length < 400) {
    days.push(new Date(t).toISOString().slice(0, 10));
    t += 86_400_000;
  }
  return days;
}

export function Sparkline(props: { values: number[]; label: string; width?: number; height?: number }) {
  const w = props.width ?? 120;
  const h = props.height ?? 28;
  const max = Math.max(1, ...props.values);
  const n = props.values.length;
  const step = n > 1 ? (w - 2) / (n - 1) : 0;
  const points = props.values
    .map((v, i) => `${(1 + i * step).toFixed(1)},${(h - 2 - (v / max) * (h - 4)).toFixed(1)}`)
    .join(" ");
  const total = props.values.reduce((a, b) => a + b, 0);
  return (
    <svg
      class="sparkline"
      width={w}
      height={h}
      viewBox={`0 0 ${w} ${h}`}
      role="img"
      aria-label={`${props.label}: ${fmtNum(total)} in ${n} days, at most ${fmtNum(Math.max(0, ...props.values))} a day`}
    >
      <line x1="0" y1={h - 1.5} x2={w} y2={h - 1.5} class="spark-base" />
      {n > 0 && <polyline points={points} class="spark-line" fill="none" />}
    </svg>
  );
}

/** Bars per day, with an optional quota line. */
export function BarChart(props: {
  title: string;
  days: string[];
  values: number[];
  quota?: number | null;
  quotaLabel?: string;
  format?: (n: number) => string;
  testid?: string;
}) {
  const fmt = props.format ?? fmtNum;
  const w = 360;
  const h = 120;
  const padL = 4;
  const padB = 16;
  const padT = 14;
  const quota = props.quota ?? null;
  const peakValue = Math.max(0, ...props.values);
  // The quota line is drawn when usage comes near it; far below, the bars keep their own scale.
  const quotaLine = quota !== null && peakValue >= quota * 0.25;
  const max = Math.max(1, ...props.values, quotaLine ? quota : 0);
  const n = Math.max(1, props.days.length);
  const bw = (w - padL) / n;
  const y = (v: number) => h - padB - (v / max) * (h - padB - padT);
  const total = props.values.reduce((a, b) => a + b, 0);
  const peak = peakValue;
  const share = quota ? ` (peak ${((peak / quota) * 100).toFixed(peak && peak < quota / 100 ? 2 : 0)}%)` : "";
  const over = quota !== null && props.values.some((v) => v > quota);
  const summary =
    `${props.title}: ${fmt(total)} over ${props.days.length} days, peak ${fmt(peak)} a day` +
    (quota !== null ? `, daily quota ${fmt(quota)}` : ", no daily quota");
  return (
    <figure class="chart" data-testid={props.testid}>
      <figcaption>
        <span class="chart-title">{props.title}</span>
        <span class="chart-meta">
          {fmt(total)} total · peak {fmt(peak)}/day
          {quota !== null ? ` · quota ${fmt(quota)}/day${share}` : ""}
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${w} ${h}`} role="img" aria-label={summary} preserveAspectRatio="none" class="chart-svg">
        <line x1={padL} x2={w} y1={h - padB} y2={h - padB} class="axis" />
        {props.values.map((v, i) => {
          const top = y(v);
          return (
            <rect
              key={props.days[i]}
              x={padL + i * bw + bw * 0.1}
              y={top}
              width={Math.max(1, bw * 0.8)}
              height={Math.max(0, h - padB - top)}
              class={quota !== null && v > quota ? "bar bar-over" : "bar"}
            >
              <title>{`${props.days[i]}: ${fmt(v)}`}</title>
            </rect>
          );
        })}
        {quota !== null && quotaLine && (
          <g class="quota">
            <line x1={padL} x2={w} y1={y(quota)} y2={y(quota)} />
            <text x={w - 2} y={Math.max(10, y(quota) - 3)} text-anchor="end">
              {props.quotaLabel ?? "quota"} {fmt(quota)}
            </text>
          </g>
        )}
        <text x={padL} y={h - 3} class="tick">
          {props.days[0] ?? ""}
        </text>
        <text x={w} y={h - 3} class="tick" text-anchor="end">
          {props.days[props.days.length - 1] ?? ""}
        </text>
        <text x={padL} y={10} class="tick">
          {fmt(max)}
        </text>
      </svg>
      {over && <p class="warn-text">Over quota on some days.</p>}
    </figure>
  );
}

export function Meter(props: { label: string; value: number; max?: number | null; format?: (n: number) => string; testid?: string }) {
  const fmt = props.format ?? fmtNum;
  const max = props.max ?? null;
  const share = max ? Math.min(1, props.value / max) : 0;
  return (
    <div class="meter-box" data-testid={props.testid}>
      <div class="meter-label">
        <span>{props.label}</span>
        <span>
          {fmt(props.value)}
          {max !== null ? ` of ${fmt(max)} (${(share * 100).toFixed(1)}%)` : " (no limit)"}
        </span>
      </div>
      {max !== null && (
        <svg viewBox="0 0 100 6" preserveAspectRatio="none" class="meter" role="img" aria-label={`${props.label}: ${(share * 100).toFixed(1)}% of the limit`}>
          <rect x="0" y="0" width="100" height="6" class="meter-track" />
          <rect x="0" y="0" width={share * 100} height="6" class={share > 0.9 ? "meter-fill meter-high" : "meter-fill"} />
        </svg>
      )}
    </div>
  );
}

export function KeyValues(props: { rows: [string, ComponentChildren][]; testid?: string }) {
  return (
    <dl class="kv" data-testid={props.testid}>
      {props.rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Pager(props: { offset: number; limit: number; total?: number; hasMore: boolean; onPage: (offset: number) => void }) {
  const end = props.offset + props.limit;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={props.offset === 0} onClick={() => props.onPage(Math.max(0, props.offset - props.limit))}>
        Previous
      </button>
      <span>
        {props.offset + 1}–{props.total !== undefined ? Math.min(end, props.total) : end}
        {props.total !== undefined ? ` of ${fmtNum(props.total)}` : ""}
      </span>
      <button type="button" disabled={!props.hasMore} onClick={() => props.onPage(end)}>
        Next
      </button>
    </nav>
  );
}
