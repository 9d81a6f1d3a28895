// Usage per UTC day against the limits in force (shared by the admin tenant page and the tenant view).
import type { Schemas } from "./api.ts";
import { BarChart, dayRange, fmtBytes, fmtNum, KeyValues, Meter } from "./ui.tsx";

type Limits = Record<string, number | null | undefined>;

function limitOf(limits: Limits, name: string): number | null {
  const v = limits[name];
  return typeof v === "number" ? v : null;
}

/** One counter per day over the report's window, zero on days without usage. */
export function series(report: Schemas["UsageReport"], ...counters: string[]): { days: string[]; values: number[] } {
  const days = dayRange(report.from, report.to);
  const byDay = new Map(report.days.map((d) => [d.day, d.counters]));
  const values = days.map((day) => {
    const c = byDay.get(day) ?? {};
    return counters.reduce((sum, name) => sum + (c[name] ?? 0), 0);
  });
  return { days, values };
}

const BUDGETS: [string, string, string][] = [
  ["summaries", "summaries_per_day", "Chat-model summaries (daily budget)"],
  ["reenrich", "reenrich_per_day", "Re-enrichments (daily budget)"],
  ["consolidations", "consolidations_per_day", "Consolidations (daily budget)"],
  ["reembeds", "reembeds_per_day", "Re-embeddings (daily budget)"],
];

export function UsagePanel(props: { report: Schemas["UsageReport"] }) {
  const r = props.report;
  const limits = (r.limits ?? {}) as Limits;
  const requests = series(r, "requests_read", "requests_write");
  const charts: { title: string; counters: string[]; quota: number | null; testid: string }[] = [
    { title: "Requests (read + write)", counters: ["requests_read", "requests_write"], quota: null, testid: "chart-requests" },
    { title: "Memories stored", counters: ["memories_stored"], quota: null, testid: "chart-stores" },
    { title: "Recalls", counters: ["recalls"], quota: null, testid: "chart-recalls" },
    { title: "Embeddings", counters: ["embeddings"], quota: null, testid: "chart-embeddings" },
    { title: "Chat-model calls", counters: ["chat_calls"], quota: null, testid: "chart-chat" },
  ];
  for (const [counter, limit, title] of BUDGETS) {
    const quota = limitOf(limits, limit);
    const used = (r.totals[counter] ?? 0) > 0;
    if (quota !== null || used) charts.push({ title, counters: [counter], quota, testid: `chart-${counter}` });
  }
  const rates: [string, string][] = [
    ["requests_per_second", "Requests per second"],
    ["burst", "Burst"],
    ["key_requests_per_second", "Per-key requests per second"],
    ["max_batch", "Largest batch"],
    ["max_metadata_bytes", "Metadata per memory"],
  ];
  return (
    <div class="usage" data-testid="usage">
      <p class="muted">
        {r.from} to {r.to} (UTC days) · {fmtNum(requests.values.reduce((a, b) => a + b, 0))} requests
      </p>
      <div class="meters">
        <Meter label="Memories" value={r.memories} max={limitOf(limits, "max_memories")} testid="meter-memories" />
        <Meter
          label="Storage"
          value={r.storage_bytes}
          max={limitOf(limits, "max_storage_bytes")}
          format={fmtBytes}
          testid="meter-storage"
        />
      </div>
      <div class="charts">
        {charts.map((c) => {
          const s = series(r, ...c.counters);
          return (
            <BarChart
              key={c.testid}
              title={c.title}
              days={s.days}
              values={s.values}
              quota={c.quota}
              quotaLabel="daily quota"
              testid={c.testid}
            />
          );
        })}
      </div>
      <h3>Rate limits in force</h3>
      <KeyValues
        rows={rates.map(([k, label]) => {
          const v = limitOf(limits, k);
          return [label, v === null ? "unlimited" : k === "max_metadata_bytes" ? fmtBytes(v) : fmtNum(v)];
        })}
      />
    </div>
  );
}
