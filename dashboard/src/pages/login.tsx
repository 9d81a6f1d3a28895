// Sign-in: an operator's email and password (admin API), or a tenant API key (tenant view).
import { useState } from "preact/hooks";
import { adminSession, forgetTenant, login, openTenant, sessionNotice, tenant, unwrap } from "../api.ts";
import { navigate } from "../router.ts";
import { useStore } from "../store.ts";
import { clearNotices, Field, Page, showError, useAction } from "../ui.tsx";

export function LoginPage() {
  const notice = useStore(sessionNotice);
  const signedIn = useStore(adminSession);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [key, setKey] = useState("");

  const [signIn, signingIn] = useAction(async () => {
    await login(email.trim(), password);
    setPassword("");
    clearNotices();
    navigate("#/tenants");
  });

  const [useKey, checking] = useAction(async () => {
    const secret = key.trim();
    if (!secret) {
      showError("Paste a tenant API key first.");
      return;
    }
    // Check the key before keeping it: any read will do, and stats names nothing secret.
    openTenant(secret, `key ${secret.split("_")[1] ?? ""}`.trim());
    try {
      await unwrap(tenant.GET("/api/v1/stats", {}));
    } catch (err) {
      forgetTenant();
      throw err;
    }
    setKey("");
    clearNotices();
    navigate("#/overview");
  });

  return (
    <Page id="login" title="Sign in to Cairn" ready>
      {notice && (
        <p class="notice" data-testid="session-notice">
          {notice}
        </p>
      )}
      <div class="two-col">
        {signedIn ? (
          <div class="card">
            <h2 id="login-admin">Operator</h2>
            <p data-testid="signed-in-as">
              Signed in as {signedIn.email}. <a href="#/tenants">Tenants</a>
            </p>
          </div>
        ) : (
        <form
          class="card"
          aria-labelledby="login-admin"
          onSubmit={(e) => {
            e.preventDefault();
            void signIn();
          }}
        >
          <h2 id="login-admin">Operator</h2>
          <p class="muted">Tenants, keys, usage and the audit log.</p>
          <Field label="Email">
            {(id) => (
              <input id={id} type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} data-testid="login-email" />
            )}
          </Field>
          <Field label="Password">
            {(id) => (
              <input
                id={id}
                type="password"
                autocomplete="current-password"
                required
                value={password}
                onInput={(e) => setPassword(e.currentTarget.value)}
                data-testid="login-password"
              />
            )}
          </Field>
          <button type="submit" class="primary" disabled={signingIn} data-testid="login-submit">
            Sign in
          </button>
        </form>
        )}

        <form
          class="card"
          aria-labelledby="login-tenant"
          onSubmit={(e) => {
            e.preventDefault();
            void useKey();
          }}
        >
          <h2 id="login-tenant">Tenant</h2>
          <p class="muted">Browse one tenant's memories, jobs and usage with its API key. The key is kept in this tab only.</p>
          <Field label="Tenant API key" hint="cairn_… — an admin-scoped key also shows the tenant's keys">
            {(id, hint) => (
              <input
                id={id}
                type="password"
                autocomplete="off"
                aria-describedby={hint}
                class="mono"
                value={key}
                onInput={(e) => setKey(e.currentTarget.value)}
                data-testid="tenant-key-input"
              />
            )}
          </Field>
          <button type="submit" class="primary" disabled={checking} data-testid="tenant-key-submit">
            Open tenant view
          </button>
        </form>
      </div>
    </Page>
  );
}
