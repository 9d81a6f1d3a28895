// Jobs: queues, recent failures, pipeline states (embedding, enrichment), and consolidation runs.
import { Fragment } from "preact";
import { useState } from "preact/hooks";
import { tenant, unwrap, type Schemas } from "../api.ts";
import { href } from "../router.ts";
import { Empty, fmtNum, Loading, Page, SelectField, showStatus, StatusBadge, Table, Time, useAction, useLoad } from "../ui.tsx";

function Pipeline(props: { title: string; counts: Schemas["PipelineCounts"]; testid: string }) {
  const { pending, ready, failed } = props.counts;
  const total = Math.max(1, pending + ready + failed);
  const parts: [string, number, string][] = [
    ["ready", ready, "seg-ready"],
    ["pending", pending, "seg-pending"],
    ["failed", failed, "seg-failed"],
  ];
  let x = 0;
  return (
    <div class="pipeline" data-testid={props.testid}>
      <h3>{props.title}</h3>
      <svg viewBox="0 0 100 8" preserveAspectRatio="none" class="meter" role="img" aria-label={`${props.title}: ${ready} ready, ${pending} pending, ${failed} failed`}>
        {parts.map(([name, n, cls]) => {
          const w = (n / total) * 100;
          const rect = <rect key={name} x={x} y={0} width={w} height={8} class={cls} />;
          x += w;
          return rect;
        })}
      </svg>
      <p class="legend-row">
        {parts.map(([name, n, cls]) => (
          <span key={name}>
            <svg width="10" height="10" aria-hidden="true">
              <rect width="10" height="10" class={cls} />
            </svg>{" "}
            {name} {fmtNum(n)}
          </span>
        ))}
      </p>
    </div>
  );
}

function RunDetails(props: { id: string }) {
  const run = useLoad(() => unwrap(tenant.GET("/api/v1/consolidate/runs/{id}", { params: { path: { id: props.id } } })), [props.id]);
  if (!run.data) return run.loading ? <Loading what="run" /> : null;
  return (
    <div data-testid="run-details">
      {run.data.error && <p class="warn-text">Error: {run.data.error}</p>}
      <pre>{JSON.stringify(run.data.report ?? {}, null, 2)}</pre>
    </div>
  );
}

export function JobsPage() {
  const [tick, setTick] = useState(0);
  const jobs = useLoad(() => unwrap(tenant.GET("/api/v1/jobs/status", {})), [tick]);
  const enrichment = useLoad(() => unwrap(tenant.GET("/api/v1/enrichment/status", {})), [tick]);
  const consolidation = useLoad(() => unwrap(tenant.GET("/api/v1/consolidate/status", {})), [tick]);
  const [open, setOpen] = useState<string | null>(null);
  const [mode, setMode] = useState<Schemas["ConsolidationMode"]>("full");
  const [horizon, setHorizon] = useState<Schemas["TimeHorizon"]>("weekly");
  const [dryRun, setDryRun] = useState(true);

  const [consolidate, consolidating] = useAction(async () => {
    const { data, error, response } = await tenant.POST("/api/v1/consolidate", {
      body: { mode, time_horizon: horizon, dry_run: dryRun },
    });
    if (!response.ok || !data) await unwrap(Promise.resolve({ data, error, response }));
    const runId = (data as { run_id?: string }).run_id;
    showStatus(`Consolidation ${response.status === 202 ? "queued" : "done"}${runId ? ` (run ${runId.slice(0, 8)})` : ""}.`);
    if (runId) setOpen(runId);
    setTick((t) => t + 1);
  });

  const j = jobs.data;
  const cs = consolidation.data;
  return (
    <Page
      id="jobs"
      title="Jobs"
      ready={!jobs.loading && !consolidation.loading && !enrichment.loading}
      actions={
        <button type="button" onClick={() => setTick((t) => t + 1)}>
          Refresh
        </button>
      }
    >
      <section class="card" aria-labelledby="j-pipelines">
        <h2 id="j-pipelines">Pipelines</h2>
        {j ? (
          <div class="two-col">
            <Pipeline title="Embedding" counts={j.embedding} testid="pipeline-embedding" />
            <Pipeline title="Enrichment" counts={enrichment.data ?? j.enrichment} testid="pipeline-enrichment" />
          </div>
        ) : jobs.loading ? (
          <Loading what="pipelines" />
        ) : null}
      </section>

      <section class="card" aria-labelledby="j-queues">
        <h2 id="j-queues">Queues</h2>
        {!j ? null : j.queues.length === 0 ? (
          <Empty>No jobs of this tenant.</Empty>
        ) : (
          <Table testid="queues-table" columns={["Queue", ["Pending", "num"], ["Running", "num"], ["Done", "num"], ["Failed", "num"], ["Killed", "num"]]}>
            {j.queues.map((q) => (
              <tr key={q.queue}>
                <td class="mono">{q.queue}</td>
                <td class="num">{fmtNum(q.pending)}</td>
                <td class="num">{fmtNum(q.running)}</td>
                <td class="num">{fmtNum(q.done)}</td>
                <td class={q.failed ? "num warn-text" : "num"}>{fmtNum(q.failed)}</td>
                <td class={q.killed ? "num warn-text" : "num"}>{fmtNum(q.killed)}</td>
              </tr>
            ))}
          </Table>
        )}
        {j && j.periodic.length > 0 && (
          <>
            <h3>Periodic jobs</h3>
            <Table columns={["Job", "Latest period", "State", "Done"]}>
              {j.periodic.map((p) => (
                <tr key={p.queue}>
                  <td class="mono">{p.queue}</td>
                  <td>
                    <Time iso={p.period_start} />
                  </td>
                  <td>{p.status ? <StatusBadge status={p.status} /> : "—"}</td>
                  <td>
                    <Time iso={p.done_at} />
                  </td>
                </tr>
              ))}
            </Table>
          </>
        )}
      </section>

      <section class="card" aria-labelledby="j-failures">
        <h2 id="j-failures">Recent failures</h2>
        {!j ? null : j.recent_failures.length === 0 ? (
          <Empty>No failed jobs.</Empty>
        ) : (
          <Table testid="failures-table" columns={["Queue", "State", "Attempts", "Error", "Run at", "Memories"]}>
            {j.recent_failures.map((f) => (
              <tr key={f.id}>
                <td class="mono">{f.queue}</td>
                <td>
                  <StatusBadge status={f.status} />
                </td>
                <td>
                  {f.attempts}/{f.max_attempts}
                </td>
                <td class="wrap">{f.last_error ?? "—"}</td>
                <td>
                  <Time iso={f.run_at} />
                </td>
                <td>
                  {f.memory_ids.slice(0, 5).map((m) => (
                    <a key={m} class="mono" href={href("memory", m)}>
                      {m.slice(0, 8)}{" "}
                    </a>
                  ))}
                  {f.memory_ids.length > 5 ? `+${f.memory_ids.length - 5}` : ""}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </section>

      <section class="card" aria-labelledby="j-consolidation">
        <h2 id="j-consolidation">Consolidation</h2>
        <form
          class="inline-form"
          aria-label="Run a consolidation"
          onSubmit={(e) => {
            e.preventDefault();
            void consolidate();
          }}
        >
          <SelectField
            label="Mode"
            value={mode}
            options={["full", "decay", "creative", "cluster", "forget"]}
            onChange={(v) => setMode(v as Schemas["ConsolidationMode"])}
          />
          <SelectField
            label="Time horizon"
            value={horizon}
            options={["daily", "weekly", "monthly", "quarterly", "yearly"]}
            onChange={(v) => setHorizon(v as Schemas["TimeHorizon"])}
          />
          <label class="check">
            <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.currentTarget.checked)} />
            Dry run (report only)
          </label>
          <button type="submit" disabled={consolidating} data-testid="run-consolidation">
            Run consolidation
          </button>
        </form>
        {cs && cs.schedule.length > 0 && (
          <>
            <h3>Schedule</h3>
            <Table testid="schedule-table" columns={["Mode", "Horizon", ["Every (h)", "num"], "Last run", "Next run"]}>
              {cs.schedule.map((s) => (
                <tr key={s.mode}>
                  <td>{s.mode}</td>
                  <td>{s.time_horizon}</td>
                  <td class="num">{s.every_hours}</td>
                  <td>
                    <Time iso={s.last_run} />
                  </td>
                  <td>
                    <Time iso={s.next_run} />
                  </td>
                </tr>
              ))}
            </Table>
          </>
        )}
        <h3>Runs</h3>
        {!cs ? (
          consolidation.loading ? <Loading what="runs" /> : null
        ) : cs.history.length === 0 ? (
          <Empty>No consolidation runs yet.</Empty>
        ) : (
          <Table testid="runs-table" columns={["Started", "Mode", "Horizon", "Trigger", "State", "Finished", "Report"]}>
            {cs.history.map((r) => (
              <Fragment key={r.id}>
                <tr data-run-id={r.id}>
                  <td>
                    <Time iso={r.started_at} />
                  </td>
                  <td>
                    {r.mode}
                    {r.dry_run ? " (dry run)" : ""}
                  </td>
                  <td>{r.time_horizon}</td>
                  <td>{r.trigger}</td>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td>
                    <Time iso={r.finished_at} />
                  </td>
                  <td>
                    <button type="button" aria-expanded={open === r.id} onClick={() => setOpen(open === r.id ? null : r.id)}>
                      {open === r.id ? "Hide" : "Show"}
                    </button>
                  </td>
                </tr>
                {open === r.id && (
                  <tr>
                    <td colSpan={7}>
                      <RunDetails id={r.id} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </Table>
        )}
      </section>
    </Page>
  );
}
