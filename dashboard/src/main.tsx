// The dashboard's shell: header with both sessions' navigation, the notice regions, and the routes.
import { render } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { adminSession, forgetTenant, logout, tenantSession } from "./api.ts";
import { AuditPage } from "./pages/audit.tsx";
import { GraphPage } from "./pages/graph.tsx";
import { JobsPage } from "./pages/jobs.tsx";
import { LoginPage } from "./pages/login.tsx";
import { MemoriesPage } from "./pages/memories.tsx";
import { MemoryPage } from "./pages/memory.tsx";
import { OverviewPage } from "./pages/overview.tsx";
import { QueuesPage } from "./pages/queues.tsx";
import { TenantKeysPage } from "./pages/tenant-keys.tsx";
import { WebhooksPage } from "./pages/webhooks.tsx";
import { TenantPage } from "./pages/tenant.tsx";
import { TenantsPage } from "./pages/tenants.tsx";
import { TrashPage } from "./pages/trash.tsx";
import { navigate, useRoute, type Route } from "./router.ts";
import { useStore } from "./store.ts";
import { newPageNotices, Notices } from "./ui.tsx";

const ADMIN_PAGES = new Set(["tenants", "audit", "queues"]);
const TENANT_PAGES = new Set(["overview", "memories", "memory", "graph", "trash", "jobs", "keys", "webhooks"]);

function NavLink(props: { to: string; current: string; label: string; match: string[] }) {
  const active = props.match.includes(props.current);
  return (
    <li>
      <a href={props.to} aria-current={active ? "page" : undefined} class={active ? "active" : ""}>
        {props.label}
      </a>
    </li>
  );
}

function Header(props: { section: string }) {
  const adminS = useStore(adminSession);
  const tenantS = useStore(tenantSession);
  return (
    <header class="top">
      <a
        class="skip"
        href="#/"
        onClick={(e) => {
          e.preventDefault();
          document.querySelector<HTMLElement>("main h1")?.focus();
        }}
      >
        Skip to content
      </a>
      <span class="brand" aria-hidden="true">
        <svg width="22" height="22" viewBox="0 0 24 24">
          <ellipse cx="12" cy="20" rx="9" ry="3" class="stone3" />
          <ellipse cx="12" cy="14" rx="6.5" ry="2.8" class="stone2" />
          <ellipse cx="12" cy="8.5" rx="4.5" ry="2.4" class="stone1" />
          <ellipse cx="12" cy="4" rx="2.6" ry="1.8" class="stone0" />
        </svg>
        Cairn
      </span>
      {adminS && (
        <nav aria-label="Operator" class="nav">
          <ul>
            <NavLink to="#/tenants" current={props.section} label="Tenants" match={["tenants"]} />
            <NavLink to="#/queues" current={props.section} label="Queues" match={["queues"]} />
            <NavLink to="#/audit" current={props.section} label="Audit log" match={["audit"]} />
          </ul>
          <span class="who" data-testid="admin-email">
            {adminS.email}
          </span>
          <button type="button" class="link" onClick={() => void logout()} data-testid="logout">
            Sign out
          </button>
        </nav>
      )}
      {tenantS && (
        <nav aria-label="Tenant" class="nav tenant-nav">
          <span class="who" data-testid="tenant-label">
            Tenant: {tenantS.label}
          </span>
          <ul>
            <NavLink to="#/overview" current={props.section} label="Overview" match={["overview"]} />
            <NavLink to="#/memories" current={props.section} label="Memories" match={["memories", "memory", "graph"]} />
            <NavLink to="#/trash" current={props.section} label="Trash" match={["trash"]} />
            <NavLink to="#/jobs" current={props.section} label="Jobs" match={["jobs"]} />
            <NavLink to="#/keys" current={props.section} label="Keys" match={["keys"]} />
            <NavLink to="#/webhooks" current={props.section} label="Webhooks" match={["webhooks"]} />
          </ul>
          <button
            type="button"
            class="link"
            onClick={() => {
              forgetTenant();
              navigate(adminSession.get() ? "#/tenants" : "#/login");
            }}
            data-testid="close-tenant"
          >
            Close tenant view
          </button>
        </nav>
      )}
      {!adminS && !tenantS && <span class="muted">Not signed in</span>}
    </header>
  );
}

function Routes(props: { route: Route; admin: boolean; tenant: boolean }) {
  const [section = "", arg] = props.route.parts;
  if (ADMIN_PAGES.has(section) && !props.admin) return <LoginPage />;
  if (TENANT_PAGES.has(section) && !props.tenant) return <LoginPage />;
  switch (section) {
    case "tenants":
      return arg ? <TenantPage key={arg} id={arg} /> : <TenantsPage />;
    case "queues":
      return <QueuesPage />;
    case "audit":
      return <AuditPage key={props.route.query.toString()} query={props.route.query} />;
    case "overview":
      return <OverviewPage />;
    case "memories":
      return <MemoriesPage />;
    case "memory":
      return arg ? <MemoryPage key={arg} id={arg} /> : <MemoriesPage />;
    case "graph":
      return arg ? <GraphPage key={arg} id={arg} query={props.route.query} /> : <MemoriesPage />;
    case "trash":
      return <TrashPage />;
    case "jobs":
      return <JobsPage />;
    case "keys":
      return <TenantKeysPage />;
    case "webhooks":
      return <WebhooksPage />;
    default:
      return <LoginPage />;
  }
}

function App() {
  const route = useRoute();
  const adminS = useStore(adminSession);
  const tenantS = useStore(tenantSession);
  const first = useRef(true);
  const section = route.parts[0] ?? "";

  // Where the bare dashboard leads once signed in (#/login always shows the sign-in page).
  useEffect(() => {
    if (section === "") {
      if (adminS) navigate("#/tenants");
      else if (tenantS) navigate("#/overview");
    }
  }, [section, adminS, tenantS]);

  // A new page: errors of the last one go, focus moves to the new heading.
  const key = route.parts.join("/");
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    newPageNotices();
    const t = setTimeout(() => document.querySelector<HTMLElement>("main h1")?.focus({ preventScroll: false }), 0);
    return () => clearTimeout(t);
  }, [key]);

  return (
    <>
      <Header section={section} />
      <main id="main">
        <Notices />
        <Routes route={route} admin={adminS !== null} tenant={tenantS !== null} />
      </main>
    </>
  );
}

const root = document.getElementById("app");
if (root) {
  root.textContent = "";
  render(<App />, root);
}
