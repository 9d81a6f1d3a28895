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
  SelectField,
  showStatus,
  Sparkline,
  StatusBadge,
  Table,
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
        <SelectField
          label="Plan"
          value={plan}
          options={[["", "default plan"], ...(plans.data?.plans ?? []).map((p) => p.name)]}
          onChange={setPlan}
          testid="tenant-plan"
        />
        <button type="submit" class="primary" disabled={creating} data-testid="create-tenant">
          Create tenant
        </button>
      </form>

      <div class="toolbar">
        <SelectField
          label="Status"
          value={status}
          options={[["", "all"], "active", "suspended", "deleting", "deleted"]}
          onChange={(v) => {
            setStatus(v);
            setOffset(0);
          }}
        />
      </div>

      {!page ? (
        tenants.loading ? <Loading what="tenants" /> : null
      ) : page.tenants.length === 0 ? (
        <Empty>No tenants{status ? ` with status ${status}` : ""}.</Empty>
      ) : (
        <>
          <Table
            testid="tenants-table"
            caption="Tenants"
            columns={["Name", "Plan", "Status", ["Memories", "num"], ["Storage", "num"], "Requests, 30 days", "Created"]}
          >
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
          </Table>
          <Pager offset={offset} limit={PAGE} total={page.total} hasMore={page.has_more} onPage={setOffset} />
        </>
      )}
    </Page>
  );
}
