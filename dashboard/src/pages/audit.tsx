// The audit log (admin), newest first, filtered and paged.
import { useState } from "preact/hooks";
import { admin, unwrap } from "../api.ts";
import { href } from "../router.ts";
import { Empty, Field, Loading, Page, Pager, Table, Time, useLoad } from "../ui.tsx";

const PAGE = 50;

interface Filter {
  tenant_id: string;
  actor: string;
  action: string;
  since: string;
  until: string;
}

function rfc3339(local: string): string | undefined {
  if (!local) return undefined;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

export function AuditPage(props: { query: URLSearchParams }) {
  const initial: Filter = {
    tenant_id: props.query.get("tenant_id") ?? "",
    actor: props.query.get("actor") ?? "",
    action: props.query.get("action") ?? "",
    since: "",
    until: "",
  };
  const [draft, setDraft] = useState<Filter>(initial);
  const [filter, setFilter] = useState<Filter>(initial);
  const [offset, setOffset] = useState(0);
  const page = useLoad(() => {
    const query: Record<string, string | number> = { limit: PAGE, offset };
    if (filter.tenant_id.trim()) query.tenant_id = filter.tenant_id.trim();
    if (filter.actor.trim()) query.actor = filter.actor.trim();
    if (filter.action.trim()) query.action = filter.action.trim();
    const since = rfc3339(filter.since);
    const until = rfc3339(filter.until);
    if (since) query.since = since;
    if (until) query.until = until;
    return unwrap(admin.GET("/admin/v1/audit", { params: { query } }));
  }, [filter, offset]);

  const set = (k: keyof Filter) => (e: { currentTarget: HTMLInputElement }) => setDraft({ ...draft, [k]: e.currentTarget.value });
  const data = page.data;
  return (
    <Page id="audit" title="Audit log" ready={!page.loading}>
      <form
        class="inline-form card"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          setOffset(0);
          setFilter({ ...draft });
        }}
      >
        <Field label="Tenant id">{(id) => <input id={id} class="mono" value={draft.tenant_id} onInput={set("tenant_id")} />}</Field>
        <Field label="Actor" hint="admin:<email>, key:<id>, cli, system:<job>">
          {(id, hint) => <input id={id} aria-describedby={hint} value={draft.actor} onInput={set("actor")} />}
        </Field>
        <Field label="Action" hint="key.revoke, or a family: tenant.">
          {(id, hint) => <input id={id} aria-describedby={hint} value={draft.action} onInput={set("action")} />}
        </Field>
        <Field label="Since">{(id) => <input id={id} type="datetime-local" value={draft.since} onInput={set("since")} />}</Field>
        <Field label="Until">{(id) => <input id={id} type="datetime-local" value={draft.until} onInput={set("until")} />}</Field>
        <button type="submit" class="primary">
          Filter
        </button>
      </form>
      {!data ? (
        page.loading ? <Loading what="the audit log" /> : null
      ) : data.entries.length === 0 ? (
        <Empty>No entries.</Empty>
      ) : (
        <>
          <Table
            testid="audit-table"
            caption="Audit entries, newest first"
            columns={["When", "Actor", "Action", "Tenant", "Target", "Details"]}
          >
            {data.entries.map((e) => (
              <tr key={e.id}>
                <td>
                  <Time iso={e.at} />
                </td>
                <td>{e.actor}</td>
                <td class="mono">{e.action}</td>
                <td class="mono">{e.tenant_id ? <a href={href("tenants", e.tenant_id)}>{e.tenant_id.slice(0, 8)}</a> : "—"}</td>
                <td class="mono">{e.target ? e.target.slice(0, 13) : "—"}</td>
                <td>
                  <code class="details">{JSON.stringify(e.details)}</code>
                </td>
              </tr>
            ))}
          </Table>
          <Pager offset={offset} limit={PAGE} total={data.total} hasMore={data.has_more} onPage={setOffset} />
        </>
      )}
    </Page>
  );
}
