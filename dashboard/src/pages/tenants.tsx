// Tenants: a page of them with 30-day request sparklines, and a form to create one.
import { useEffect, useState } from "preact/hooks";
import { admin, unwrap, type Schemas } from "../api.ts";
import { href, navigate } from "../router.ts";
import { series } from "../usage.tsx";
import {
  Empty,
  Field,
  fmtBytes,
  fmtNum,
  Loading,
  Page,
  Pager,
  showStatus,
  Sparkline,
  StatusBadge,
  Time,
  useAction,
  useLoad,
} from "../ui.tsx";

const PAGE = 25;

// Sparklines load a few at a time so that a page of tenants does not flood the server.
let running = 0;
const waiting: (() => void)[] = [];
async function limited<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= 4) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function TenantSpark(props: { id: string; name: string }) {
  const [values, setValues] = useState<number[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    limited(() => unwrap(admin.GET("/admin/v1/tenants/{id}/usage", { params: { path: { id: props.id } } }))).then(
      (report) => live && setValues(series(report, "requests_read", "requests_write").values),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [props.id]);
  if (failed) return <span class="muted">—</span>;
  if (!values) return <span class="spark-placeholder" role="img" aria-label="Loading usage" />;
  return <Sparkline values={values} label={`Requests per day of ${props.name}, last 30 days`} />;
}

export function TenantsPage() {
  const [offset, setOffset] = useState(0);
  const [status, setStatus] = useState("");
  const tenants = useLoad(
    () =>
      unwrap(
        admin.GET("/admin/v1/tenants", {
          params: { query: { limit: PAGE, offset, ...(status ? { status } : {}) } },
        }),
      ),
    [offset, status],
  );
  const plans = useLoad(() => unwrap(admin.GET("/admin/v1/plans", {})), []);
  const [name, setName] = useState("");
  const [plan, setPlan] = useState("");

  const [create, creating] = useAction(async () => {
    const created = await unwrap(
      admin.POST("/admin/v1/tenants", { body: { name: name.trim(), ...(plan ? { plan } : {}) } }),
    );
    showStatus(`Tenant ${created.name} created.`);
    setName("");
    navigate(href("tenants", created.id));
  });

  const page = tenants.data;
  return (
    <Page id="tenants" title="Tenants" ready={!tenants.loading}>
      <form
        class="inline-form card"
        aria-label="Create a tenant"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <Field label="New tenant name">
          {(id) => (
            <input id={id} required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} data-testid="tenant-name" />
          )}
        </Field>
        <Field label="Plan">
          {(id) => (
            <select id={id} value={plan} onChange={(e) => setPlan(e.currentTarget.value)} data-testid="tenant-plan">
              <option value="">default plan</option>
              {(plans.data?.plans ?? []).map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" class="primary" disabled={creating} data-testid="create-tenant">
          Create tenant
        </button>
      </form>

      <div class="toolbar">
        <Field label="Status">
          {(id) => (
            <select
              id={id}
              value={status}
              onChange={(e) => {
                setStatus(e.currentTarget.value);
                setOffset(0);
              }}
            >
              <option value="">all</option>
              <option value="active">active</option>
              <option value="suspended">suspended</option>
              <option value="deleting">deleting</option>
              <option value="deleted">deleted</option>
            </select>
          )}
        </Field>
      </div>

      {!page ? (
        tenants.loading ? <Loading what="tenants" /> : null
      ) : page.tenants.length === 0 ? (
        <Empty>No tenants{status ? ` with status ${status}` : ""}.</Empty>
      ) : (
        <>
          <div class="table-wrap">
            <table data-testid="tenants-table">
              <caption class="visually-hidden">Tenants</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Plan</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">Memories</th>
                  <th scope="col" class="num">Storage</th>
                  <th scope="col">Requests, 30 days</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {page.tenants.map((t: Schemas["TenantDetail"]) => (
                  <tr key={t.id} data-tenant-name={t.name}>
                    <td>
                      <a href={href("tenants", t.id)}>{t.name}</a>
                    </td>
                    <td>{t.plan}</td>
                    <td>
                      <StatusBadge status={t.status} />
                    </td>
                    <td class="num">{fmtNum(t.memories)}</td>
                    <td class="num">{fmtBytes(t.storage_bytes)}</td>
                    <td>{t.status === "deleted" ? <span class="muted">—</span> : <TenantSpark id={t.id} name={t.name} />}</td>
                    <td>
                      <Time iso={t.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager offset={offset} limit={PAGE} total={page.total} hasMore={page.has_more} onPage={setOffset} />
        </>
      )}
    </Page>
  );
}
