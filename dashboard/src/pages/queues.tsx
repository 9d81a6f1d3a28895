// The service's background work (admin): every queue's depth, running jobs, failures and how late its oldest
// pending job is, overall and per tenant, and the periodic jobs' latest periods.
import { admin, unwrap, type Schemas } from "../api.ts";
import { href } from "../router.ts";
import { Empty, fmtNum, Loading, Page, Table, Time, useLoad } from "../ui.tsx";

function late(secs: number | null | undefined): string {
  if (secs === null || secs === undefined) return "—";
  if (secs < 60) return `${secs.toFixed(1)} s`;
  if (secs < 3600) return `${(secs / 60).toFixed(1)} min`;
  return `${(secs / 3600).toFixed(1)} h`;
}

/** A queue's counts and how late its oldest pending job is, as table cells. */
function Counts(props: { q: Schemas["QueueLoad"] }) {
  const q = props.q;
  return (
    <>
      <td data-col="pending">{fmtNum(q.pending)}</td>
      <td>{fmtNum(q.running)}</td>
      <td>{fmtNum(q.failed)}</td>
      <td>{fmtNum(q.killed)}</td>
      <td>{late(q.oldest_pending_secs)}</td>
    </>
  );
}

export function QueuesPage() {
  const jobs = useLoad(() => unwrap(admin.GET("/admin/v1/jobs", { params: { query: { limit: 100 } } })), []);
  const data = jobs.data;
  const counts = ["Pending", "Running", "Failed", "Killed", "Oldest pending"] as const;
  return (
    <Page id="queues" title="Queues" ready={!jobs.loading} actions={<button type="button" onClick={jobs.reload}>Refresh</button>}>
      {!data ? (
        jobs.loading ? <Loading what="the queues" /> : null
      ) : (
        <>
          <section aria-labelledby="q-all" class="card">
            <h2 id="q-all">Every queue</h2>
            {data.queues.length === 0 ? (
              <Empty>No job waits, runs or failed.</Empty>
            ) : (
              <Table testid="queues-table" caption="Jobs not done, per queue" columns={["Queue", ...counts]}>
                {data.queues.map((q) => (
                  <tr key={q.queue} data-queue={q.queue}>
                    <td class="mono">{q.queue}</td>
                    <Counts q={q} />
                  </tr>
                ))}
              </Table>
            )}
          </section>
          <section aria-labelledby="q-tenants" class="card">
            <h2 id="q-tenants">Per tenant, busiest first</h2>
            {data.tenants.length === 0 ? (
              <Empty>No tenant has jobs waiting.</Empty>
            ) : (
              <Table testid="queue-tenants-table" caption="Jobs not done, per queue and tenant" columns={["Tenant", "Queue", ...counts]}>
                {data.tenants.map((q) => (
                  <tr key={`${q.queue}/${q.tenant_id ?? ""}`} data-tenant-id={q.tenant_id ?? ""}>
                    <td>{q.tenant_id ? <a href={href("tenants", q.tenant_id)}>{q.tenant_name ?? q.tenant_id.slice(0, 8)}</a> : "the service"}</td>
                    <td class="mono">{q.queue}</td>
                    <Counts q={q} />
                  </tr>
                ))}
              </Table>
            )}
          </section>
          <section aria-labelledby="q-periodic" class="card">
            <h2 id="q-periodic">Periodic jobs</h2>
            <Table testid="periodic-table" caption="Each periodic job's latest period" columns={["Job", "Period", "Status", "Done"]}>
              {data.periodic.map((p) => (
                <tr key={p.queue}>
                  <td class="mono">{p.queue}</td>
                  <td>
                    <Time iso={p.period_start} />
                  </td>
                  <td>{p.status ?? "—"}</td>
                  <td>
                    <Time iso={p.done_at} />
                  </td>
                </tr>
              ))}
            </Table>
          </section>
        </>
      )}
    </Page>
  );
}
