// A tenant's retrieval-quality reports (POST /api/v1/eval, its probe sets re-run on a schedule): a chart of
// recall@k and MRR per run, oldest to newest, and the latest runs. Operators look through the admin API,
// which audits each look (so it loads on a click, as the memories-and-jobs look does).
import { useState } from "preact/hooks";
import { admin, unwrap, type Schemas } from "./api.ts";
import { Empty, fmtScore, Table, Time, useAction } from "./ui.tsx";

type Run = Schemas["EvalRun"];

/** recall@k and MRR of each run, oldest first, on a 0..1 scale. */
export function QualityChart(props: { runs: Run[] }) {
  const runs = [...props.runs].reverse();
  const w = 360;
  const h = 120;
  const pad = { l: 24, r: 6, t: 10, b: 16 };
  const n = runs.length;
  const x = (i: number) => pad.l + (n > 1 ? (i * (w - pad.l - pad.r)) / (n - 1) : (w - pad.l - pad.r) / 2);
  const y = (v: number) => h - pad.b - Math.max(0, Math.min(1, v)) * (h - pad.t - pad.b);
  const line = (pick: (r: Run) => number) => runs.map((r, i) => `${x(i).toFixed(1)},${y(pick(r)).toFixed(1)}`).join(" ");
  const last = runs[n - 1];
  const first = runs[0];
  const summary =
    n === 0
      ? "No quality reports yet"
      : `recall@k over ${n} runs: ${fmtScore(first.recall_at_k)} at the first, ${fmtScore(last.recall_at_k)} at the latest; MRR ${fmtScore(last.mrr)} at the latest`;
  return (
    <figure class="chart" data-testid="quality-chart">
      <figcaption>
        <span class="chart-title">recall@k and MRR per run</span>
        <span class="chart-meta">
          <span class="legend legend-recall">recall@k</span> · <span class="legend legend-mrr">MRR</span>
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${w} ${h}`} role="img" aria-label={summary} class="chart-svg">
        <line x1={pad.l} x2={w - pad.r} y1={y(0)} y2={y(0)} class="axis" />
        <line x1={pad.l} x2={w - pad.r} y1={y(1)} y2={y(1)} class="axis axis-faint" />
        <text x={2} y={y(1) + 4} class="tick">
          1
        </text>
        <text x={2} y={y(0)} class="tick">
          0
        </text>
        {n > 0 && <polyline points={line((r) => r.mrr)} class="line-mrr" fill="none" />}
        {n > 0 && <polyline points={line((r) => r.recall_at_k)} class="line-recall" fill="none" />}
        {runs.map((r, i) => (
          <circle key={r.id} cx={x(i)} cy={y(r.recall_at_k)} r="2.5" class="dot-recall">
            <title>{`${r.created_at}: recall@${r.k} ${fmtScore(r.recall_at_k)}, MRR ${fmtScore(r.mrr)}${r.model ? ` (${r.model})` : ""}`}</title>
          </circle>
        ))}
      </svg>
    </figure>
  );
}

/** Loads the tenant's latest 50 runs on a click (each look is audited), then charts and lists them. */
export function QualityPanel(props: { id: string }) {
  const id = props.id;
  const [page, setPage] = useState<Schemas["EvalRunPage"] | null>(null);
  const [open, busy] = useAction(async () => {
    setPage(await unwrap(admin.GET("/admin/v1/tenants/{id}/eval/runs", { params: { path: { id }, query: { limit: 50 } } })));
  });
  if (!page) {
    return (
      <>
        <p class="muted">
          The tenant's own quality reports (<code>POST /api/v1/eval</code>): probe questions with the memories that should
          answer them. Each look is recorded in the audit log.
        </p>
        <button type="button" onClick={() => void open()} disabled={busy} data-testid="quality-button">
          Show its quality reports
        </button>
      </>
    );
  }
  if (page.runs.length === 0) return <Empty>No quality reports yet.</Empty>;
  return (
    <>
      <QualityChart runs={page.runs} />
      <Table
        testid="quality-runs"
        caption={`Latest runs (${page.total} in all)`}
        captionShown
        columns={["When", "Probe set", "Trigger", "Mode", "Probes", "recall@k", "hit@k", "MRR", "Model"]}
      >
        {page.runs.slice(0, 10).map((r) => (
          <tr key={r.id} data-run-id={r.id}>
            <td>
              <Time iso={r.created_at} />
            </td>
            <td>{r.probe_set ?? "—"}</td>
            <td>{r.trigger}</td>
            <td>{r.mode}</td>
            <td>{r.probes}</td>
            <td>
              {fmtScore(r.recall_at_k)} <span class="muted">@{r.k}</span>
            </td>
            <td>{fmtScore(r.hit_at_k)}</td>
            <td>{fmtScore(r.mrr)}</td>
            <td class="mono">{r.model ?? "—"}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}
