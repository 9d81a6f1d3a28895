// The tenant view's start: its memories in numbers and its usage against its limits.
import { useState } from "preact/hooks";
import { tenant, unwrap, type Schemas } from "../api.ts";
import { UsagePanel } from "../usage.tsx";
import { Empty, fmtBytes, fmtNum, KeyValues, Loading, Page, Table, Time, useAction, useLoad } from "../ui.tsx";

/** The tenant's top end users (or agents) by memories held or by requests made, loaded on a click (it needs
 * an admin key). */
function EndUsersPanel() {
  const [page, setPage] = useState<Schemas["EndUserUsagePage"] | null>(null);
  const [load, busy] = useAction(async (by: string, sort: string) => {
    const query = { group_by: by, sort, limit: 10 };
    const report = await unwrap(tenant.GET("/api/v1/usage", { params: { query } }));
    setPage(report.end_users ?? null);
  });
  return (
    <>
      <div class="row">
        <button type="button" onClick={() => void load("user_id", "memories")} disabled={busy} data-testid="end-users-button">
          Top end users
        </button>
        <button type="button" onClick={() => void load("agent_id", "memories")} disabled={busy} data-testid="agents-button">
          Top agents
        </button>
        <button
          type="button"
          onClick={() => void load("user_id", "requests")}
          disabled={busy}
          data-testid="end-users-requests-button"
        >
          Busiest end users
        </button>
        <span class="muted">Needs a key with the admin scope.</span>
      </div>
      {page &&
        (page.end_users.length === 0 ? (
          <Empty>No memory names a {page.group_by === "user_id" ? "user" : "agent"} yet.</Empty>
        ) : (
          <Table
            testid="end-users"
            caption={`By ${page.group_by}, most ${page.sort} first: ${page.total} in all; ${fmtNum(page.unattributed.memories)} memories name none`}
            captionShown
            columns={[
              page.group_by,
              ["Memories", "num"],
              ["Stored, last 30 days", "num"],
              ["Bytes", "num"],
              ["Requests, last 30 days", "num"],
              ["Recalls", "num"],
              "Last stored",
            ]}
          >
            {page.end_users.map((u) => (
              <tr key={u.end_user ?? ""} data-end-user={u.end_user ?? ""}>
                <td class="mono">{u.end_user}</td>
                <td class="num">{fmtNum(u.memories)}</td>
                <td class="num">{fmtNum(u.stored_in_window)}</td>
                <td class="num">{fmtBytes(u.storage_bytes)}</td>
                <td class="num">{fmtNum(u.requests)}</td>
                <td class="num">{fmtNum(u.recalls)}</td>
                <td>
                  <Time iso={u.last_stored_at} />
                </td>
              </tr>
            ))}
          </Table>
        ))}
    </>
  );
}

export function OverviewPage() {
  const stats = useLoad(() => unwrap(tenant.GET("/api/v1/stats", {})), []);
  const usage = useLoad(() => unwrap(tenant.GET("/api/v1/usage", {})), []);
  const s = stats.data;
  const maxType = Math.max(1, ...(s?.by_type.map((t) => t.count) ?? [1]));
  return (
    <Page id="overview" title="Tenant overview" ready={!stats.loading && !usage.loading}>
      <section class="card" aria-labelledby="o-stats">
        <h2 id="o-stats">Memories</h2>
        {!s ? (
          stats.loading ? <Loading what="statistics" /> : null
        ) : (
          <div class="two-col">
            <KeyValues
              testid="stats"
              rows={[
                ["Active memories", fmtNum(s.total_memories)],
                ["Created in the last 7 days", fmtNum(s.memories_last_7_days)],
                ["Long-term / short-term", `${fmtNum(s.long_term)} / ${fmtNum(s.short_term)}`],
                ["Archived or expired", fmtNum(s.archived)],
                ["Embeddings ready", fmtNum(s.embeddings.ready)],
                ["Embeddings pending", fmtNum(s.embeddings.pending)],
                ["Embeddings failed", fmtNum(s.embeddings.failed)],
                ["Associations", fmtNum(s.associations)],
                ["Entities", fmtNum(s.entities)],
                ["Distinct tags", fmtNum(s.tags)],
              ]}
            />
            <div>
              <h3>By type</h3>
              {s.by_type.length === 0 ? (
                <p class="muted">No memories yet.</p>
              ) : (
                <ul class="hbars" aria-label="Memories by type">
                  {s.by_type.map((t) => (
                    <li key={t.memory_type}>
                      <span class="hbar-label">{t.memory_type}</span>
                      <svg viewBox="0 0 100 10" preserveAspectRatio="none" class="hbar" aria-hidden="true">
                        <rect x="0" y="0" height="10" width={(t.count / maxType) * 100} class="bar" />
                      </svg>
                      <span class="num">{fmtNum(t.count)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </div>
        )}
      </section>
      <section class="card" aria-labelledby="o-usage">
        <h2 id="o-usage">Usage, last 30 days</h2>
        {usage.data ? <UsagePanel report={usage.data} /> : usage.loading ? <Loading what="usage" /> : null}
      </section>
      <section class="card" aria-labelledby="o-end-users">
        <h2 id="o-end-users">End users</h2>
        <EndUsersPanel />
      </section>
    </Page>
  );
}
