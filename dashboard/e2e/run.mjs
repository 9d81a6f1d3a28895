// End-to-end test of the dashboard in headless Chromium (Debian's `chromium`, driven by playwright-core;
// nothing is downloaded). See dashboard/README.md, "End-to-end test".
//
//   CAIRN_URL=http://127.0.0.1:4701 CAIRN_ADMIN_EMAIL=ops@example.com CAIRN_ADMIN_PASSWORD=... node e2e/run.mjs
//
// Logs in; checks a stale access token costs exactly one refresh, a refresh answered 429 keeps the
// session and is retried after Retry-After, and two tabs without Web Locks refresh once between them;
// creates a tenant, suspends and resumes it, issues a key (copy checked, and a failed copy), stores
// memories through the SDK (two of them associated), finds them in the memory browser, opens one's
// details and graph, edits it, deletes it and restores it from the trash, measures each page's paint and
// load times, rotates a key, revokes the first and checks the tenant view shows the API's 401 message,
// then deletes the tenant. A screenshot per step goes to CAIRN_ARTIFACTS (secrets masked). Chromium
// cannot reach anything but loopback (host resolver rules and a dead proxy for every other host), and
// every request the page makes must stay on loopback; console errors (CSP violations included), 5xx
// answers and 4xx answers a step does not expect fail the run. The test tenant is deleted at the end,
// also when a step fails.
import { createHmac } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const BASE = (process.env.CAIRN_URL ?? "http://127.0.0.1:4701").replace(/\/+$/, "");
const EMAIL = process.env.CAIRN_ADMIN_EMAIL;
const PASSWORD = process.env.CAIRN_ADMIN_PASSWORD;
// As given (the caller's per-run directory), else a new directory per run under e2e/artifacts; nothing
// in it is deleted, files of this run's names are overwritten.
const ARTIFACTS = resolve(
  process.env.CAIRN_ARTIFACTS || join(here, "artifacts", new Date().toISOString().replace(/[:.]/g, "-")),
);
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const KEEP_TENANT = process.env.CAIRN_E2E_KEEP_TENANT === "1";
const SEED = Number(process.env.CAIRN_E2E_SEED ?? 0);
// Enforced only when set (the test suite runs on busy machines); the timings are always printed.
const PAINT_BUDGET_MS = process.env.CAIRN_E2E_PAINT_BUDGET_MS ? Number(process.env.CAIRN_E2E_PAINT_BUDGET_MS) : null;
const TIMEOUT = Number(process.env.CAIRN_E2E_TIMEOUT_MS ?? 15000);

const A11Y = process.env.CAIRN_E2E_A11Y !== "0";
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

function fail(message) {
  console.error(`\ne2e: FAILED: ${message}`);
  process.exitCode = 1;
}

if (!EMAIL || !PASSWORD) {
  fail("set CAIRN_ADMIN_EMAIL and CAIRN_ADMIN_PASSWORD (an operator made with `cairn admin create`)");
  process.exit(1);
}
if (!LOOPBACK.has(new URL(BASE).hostname)) {
  fail(`CAIRN_URL must be on loopback (127.0.0.1, localhost or [::1]), not ${BASE}`);
  process.exit(1);
}
if (!existsSync(CHROMIUM)) {
  fail(`no Chromium at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM`);
  process.exit(1);
}
if (PAINT_BUDGET_MS !== null && !(PAINT_BUDGET_MS > 0)) {
  fail(`CAIRN_E2E_PAINT_BUDGET_MS must be a positive number of milliseconds, not ${process.env.CAIRN_E2E_PAINT_BUDGET_MS}`);
  process.exit(1);
}
mkdirSync(ARTIFACTS, { recursive: true });

// ---------------------------------------------------------------------------------------------------
// The SDK: its built dist when there is one, else its source bundled here with esbuild.

async function loadSdk() {
  const sdk = resolve(here, "../../sdk/typescript");
  const dist = join(sdk, "dist/index.js");
  if (existsSync(dist) && existsSync(join(sdk, "node_modules/openapi-fetch"))) {
    return { sdk: await import(pathToFileURL(dist).href), from: "sdk/typescript/dist" };
  }
  const { build } = await import("esbuild");
  const out = join(mkdtempSync(join(tmpdir(), "cairn-e2e-sdk-")), "sdk.mjs");
  await build({
    entryPoints: [join(sdk, "src/index.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node18",
    outfile: out,
    nodePaths: [resolve(here, "../node_modules")],
    logLevel: "warning",
  });
  return { sdk: await import(pathToFileURL(out).href), from: "sdk/typescript/src (bundled)" };
}

// ---------------------------------------------------------------------------------------------------
// Steps

const results = [];
let stepNo = 0;
/** The step running now: requests are attributed to it (for its expected 4xx). */
let currentStep = "start";
let page;
let browser;

/** Secrets on screen (a new key's secret, a pasted key): masked in every screenshot. */
function secretLocators() {
  return [page.getByTestId("new-key-secret"), page.getByTestId("tenant-key-input")];
}

async function shot(name) {
  const file = join(ARTIFACTS, `${String(stepNo).padStart(2, "0")}-${name}.png`);
  await page.screenshot({ path: file, fullPage: true, mask: secretLocators(), maskColor: "#444" });
  return file;
}

async function step(name, fn) {
  stepNo++;
  currentStep = name;
  const started = Date.now();
  process.stdout.write(`e2e: ${String(stepNo).padStart(2, "0")} ${name} … `);
  try {
    await fn();
    await shot(name);
    if (A11Y) await checkA11y(name);
    const unexpected = unexpected4xx(name);
    check(unexpected.length === 0, `unexpected 4xx answer(s): ${unexpected.join(", ")}`);
    const ms = Date.now() - started;
    results.push({ name, ok: true, ms });
    console.log(`ok (${ms} ms)`);
  } catch (err) {
    results.push({ name, ok: false, error: String(err?.message ?? err) });
    console.log("FAILED");
    try {
      await shot(`${name}-FAILED`);
      const alert = await page.locator("[data-testid=alert]").textContent({ timeout: 1000 }).catch(() => "");
      if (alert) console.error(`e2e: the page's alert said: ${alert}`);
    } catch {
      /* the screenshot is a courtesy */
    }
    throw new Error(`step ${stepNo} “${name}”: ${err?.message ?? err}`);
  }
}

function check(cond, message) {
  if (!cond) throw new Error(message);
}

/**
 * axe-core's WCAG 2.1 A/AA rules on the page as it is (evaluated through the DevTools protocol, so the
 * page's CSP does not apply to it). Each violation is recorded once per rule and element.
 */
async function checkA11y(name) {
  const found = await page.evaluate(async (source) => {
    if (!window.axe) (0, eval)(source);
    const result = await window.axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 5),
    }));
  }, AXE_SOURCE);
  for (const v of found) {
    for (const target of v.targets) {
      const key = `${v.id} ${target}`;
      if (a11ySeen.has(key)) continue;
      a11ySeen.add(key);
      a11yViolations.push({ step: name, ...v, target });
      console.error(`\ne2e: accessibility (${name}): ${v.id} [${v.impact}] ${v.help}: ${target}`);
    }
  }
}

/** The open modal dialog (closed ones stay in the DOM). */
function dialog() {
  return page.locator("dialog[open]");
}

async function ready(id) {
  await page.waitForSelector(`[data-testid=page-${id}][data-ready=true]`, { timeout: TIMEOUT });
}

async function go(hash) {
  await page.evaluate((h) => {
    location.hash = h;
  }, hash);
}

async function alertText() {
  return ((await page.locator("[data-testid=alert]").textContent()) ?? "").replace(/×$/, "").trim();
}

// ---------------------------------------------------------------------------------------------------
// Responses: every one is recorded with the step that made the request. A 4xx fails the run unless the
// step expects it (method, path and status below); a 5xx always does.

const EXPECTED_4XX = {
  // The stale access token is refused once per request in flight; the refresh then succeeds.
  "token-refreshed": [{ status: 401, method: "GET", path: /^\/admin\/v1\/(?!refresh$)/ }],
  // The tenant view with the revoked key: the API's 401.
  "key-refused": [
    { status: 401, method: "GET", path: /^\/api\/v1\// },
    { status: 401, method: "POST", path: /^\/api\/v1\/recall$/ },
  ],
  // A session whose refresh token is refused: the stale access token's 401, then the refresh's.
  "session-ended": [
    { status: 401, method: "GET", path: /^\/admin\/v1\/(?!refresh$)/ },
    { status: 401, method: "POST", path: /^\/admin\/v1\/refresh$/ },
  ],
  // The refresh is answered 429 (by the test, standing in for the per-address limit).
  "refresh-throttled": [{ status: 429, method: "POST", path: /^\/admin\/v1\/refresh$/ }],
};

const responses = [];
const requestStep = new WeakMap();

/** The 4xx answers to requests of step `name` (every step's when null) it does not expect, not yet reported. */
function unexpected4xx(name) {
  const found = responses.filter((r) => {
    if ((name !== null && r.step !== name) || r.status < 400 || r.status >= 500 || r.reported) return false;
    const allowed = EXPECTED_4XX[r.step] ?? [];
    return !allowed.some((a) => a.status === r.status && a.method === r.method && a.path.test(r.path));
  });
  for (const r of found) r.reported = true;
  return found.map((r) => `${r.status} ${r.method} ${r.path}${name === null ? ` (${r.step})` : ""}`);
}

function calls(name, method, path) {
  return responses.filter((r) => r.step === name && r.method === method && r.path === path).length;
}

// ---------------------------------------------------------------------------------------------------

/** The test tenant, deleted at the end through the admin API if the run did not get to delete it. */
const cleanup = { name: "", id: "", done: false, problem: "" };
let tenantId = "";
let sdkModule = null;

const offLoopback = [];
const consoleErrors = [];
const serverErrors = [];
const timings = [];
const a11yViolations = [];
const a11ySeen = new Set();

/** A browser context whose requests, responses, console errors and page errors are all recorded. */
async function newContext(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, serviceWorkers: "block", ...options });
  context.setDefaultTimeout(TIMEOUT);
  context.on("request", (req) => {
    requestStep.set(req, currentStep);
    const url = new URL(req.url());
    if (url.protocol === "data:" || url.protocol === "blob:" || url.protocol === "about:") return;
    if (!LOOPBACK.has(url.hostname)) {
      offLoopback.push(req.url());
      console.error(`\ne2e: request off loopback: ${req.method()} ${req.url()}`);
    }
  });
  context.on("response", (res) => {
    const req = res.request();
    const url = new URL(res.url());
    if (url.protocol !== "http:" && url.protocol !== "https:") return;
    const entry = { step: requestStep.get(req) ?? currentStep, status: res.status(), method: req.method(), path: url.pathname };
    responses.push(entry);
    if (entry.status >= 500) serverErrors.push(`${entry.status} ${entry.method} ${res.url()} (${entry.step})`);
  });
  context.on("page", (p) => {
    p.on("console", (msg) => {
      if (msg.type() !== "error") return;
      const text = msg.text();
      // The browser logs every 4xx fetch as "Failed to load resource": each response is checked against
      // the step's expected 4xx instead (see EXPECTED_4XX).
      if (/Failed to load resource: the server responded with a status of 4\d\d/.test(text)) return;
      consoleErrors.push(text);
      console.error(`\ne2e: console error: ${text}`);
    });
    p.on("pageerror", (err) => {
      consoleErrors.push(`uncaught: ${err.message}`);
      console.error(`\ne2e: page error: ${err.message}`);
    });
  });
  return context;
}

async function main() {
  const { sdk, from: sdkFrom } = await loadSdk();
  sdkModule = sdk;
  console.log(`e2e: dashboard ${BASE}/dashboard/, Chromium ${CHROMIUM}, SDK from ${sdkFrom}, artifacts ${ARTIFACTS}`);

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      // Nothing but loopback, enforced by the browser: no name resolves except the loopback ones, and
      // every other host (IP literals included) goes to a proxy on a closed loopback port (Chromium
      // never proxies loopback itself).
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
      "--proxy-server=http://127.0.0.1:9",
      "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
      // No background traffic.
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-default-apps",
      "--disable-sync",
      "--disable-domain-reliability",
      "--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication",
      "--metrics-recording-only",
      "--disable-dev-shm-usage",
      "--no-sandbox",
    ],
  });
  await networkGuard();
  const context = await newContext();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE });
  page = await context.newPage();

  const run = Date.now().toString(36) + Math.random().toString(36).slice(2, 6);
  const marker = `kestrel${run.replace(/[^a-z]/g, "")}${run.length}`;
  const tenantName = `e2e-${run}`;
  let secret = "";
  let prefix = "";
  let api;
  const mem = {};
  const editedContent = `Edited: ${marker} decided PostgreSQL 16 with pgvector for the whole zephyr project`;

  // Log in
  await step("login-form", async () => {
    await page.goto(`${BASE}/dashboard/`, { waitUntil: "load" });
    await ready("login");
    // Keyboard: the first Tab reaches the skip link, which moves focus to the page's heading.
    await page.keyboard.press("Tab");
    check((await page.evaluate(() => document.activeElement?.textContent)) === "Skip to content", "the first Tab does not reach the skip link");
    await page.keyboard.press("Enter");
    check((await page.evaluate(() => document.activeElement?.tagName)) === "H1", "the skip link does not move focus to the heading");
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  });
  await step("logged-in", async () => {
    await page.getByTestId("login-submit").click();
    await ready("tenants");
    check((await page.getByTestId("admin-email").textContent()) === EMAIL, "the header does not show the operator");
    const stored = await page.evaluate(() => JSON.parse(sessionStorage.getItem("cairn.admin") ?? "null"));
    check(stored?.access && stored?.refresh, "the tokens are not in sessionStorage");
  });

  // The access token refreshes on a 401 (once), with the refresh token
  await step("token-refreshed", async () => {
    const before = await page.evaluate(() => JSON.parse(sessionStorage.getItem("cairn.admin")));
    await page.evaluate(() => {
      const s = JSON.parse(sessionStorage.getItem("cairn.admin"));
      sessionStorage.setItem("cairn.admin", JSON.stringify({ ...s, access: "not-a-valid-token" }));
    });
    const refreshed = page.waitForResponse((r) => r.url().endsWith("/admin/v1/refresh"));
    await page.reload({ waitUntil: "load" });
    check((await refreshed).status() === 200, "the refresh was refused");
    await ready("tenants");
    const after = await page.evaluate(() => JSON.parse(sessionStorage.getItem("cairn.admin")));
    check(after && after.access !== "not-a-valid-token" && after.refresh !== before.refresh, "the tokens were not replaced");
    check((await alertText()) === "", `an error shows after the refresh: ${await alertText()}`);
    await page.waitForTimeout(500); // a second refresh, if any, would have started by now
    const refreshes = calls("token-refreshed", "POST", "/admin/v1/refresh");
    check(refreshes === 1, `${refreshes} calls of /admin/v1/refresh, not exactly one`);
    const refused = responses.filter((r) => r.step === "token-refreshed" && r.status === 401).length;
    check(refused >= 1, "the stale access token was not refused (no 401)");
    console.log(`(${refused} request(s) refused, 1 refresh) `);
  });

  // A refresh answered 429 keeps the session (the access token still works), says so in the alert
  // region, and is tried again after Retry-After: then the tokens are replaced and the note goes.
  await step("refresh-throttled", async () => {
    const before = await page.evaluate(() => JSON.parse(sessionStorage.getItem("cairn.admin")));
    let throttled = 0;
    const throttle = async (route) => {
      if (throttled++ > 0) return route.continue();
      return route.fulfill({
        status: 429,
        headers: { "content-type": "application/json", "retry-after": "2" },
        body: JSON.stringify({ status: "error", code: 429, message: "Too many requests from this address" }),
      });
    };
    await page.route("**/admin/v1/refresh", throttle);
    try {
      // The access token is about to expire (as far as the page knows): the first request refreshes.
      await page.evaluate(() => {
        const s = JSON.parse(sessionStorage.getItem("cairn.admin"));
        sessionStorage.setItem("cairn.admin", JSON.stringify({ ...s, accessExp: Date.now() + 5000 }));
      });
      await page.reload({ waitUntil: "load" });
      await page.waitForFunction(() =>
        (document.querySelector("[data-testid=alert]")?.textContent ?? "").includes("Could not renew your session (HTTP 429"),
      );
      const shown = await alertText();
      check(shown.includes("Too many requests") && shown.includes("trying again in 2 s"), `the alert says “${shown}”`);
      await ready("tenants"); // the requests went through with the current access token
      const kept = await page.evaluate(() => JSON.parse(sessionStorage.getItem("cairn.admin")));
      check(kept?.refresh === before.refresh, "the session did not survive a 429 from /admin/v1/refresh");
      await page.waitForFunction(
        (old) => JSON.parse(sessionStorage.getItem("cairn.admin") ?? "null")?.refresh !== old,
        before.refresh,
        { timeout: 10000 },
      );
      await page.waitForFunction(() => (document.querySelector("[data-testid=alert]")?.textContent ?? "") === "");
    } finally {
      await page.unroute("**/admin/v1/refresh", throttle);
    }
    const after = await page.evaluate(() => JSON.parse(sessionStorage.getItem("cairn.admin")));
    check(after && after.refresh !== before.refresh && after.access !== before.access, "the retried refresh did not replace the tokens");
    const refreshes = calls("refresh-throttled", "POST", "/admin/v1/refresh");
    check(refreshes === 2, `${refreshes} calls of /admin/v1/refresh, not two (the 429 and the retry)`);
  });

  // Two tabs of one session without Web Locks (as on plain http from a LAN host): reloaded at once with
  // the access token about to expire, they refresh once between them and end up with the same tokens.
  await step("tabs-without-web-locks", async () => {
    const other = await newContext();
    try {
      await other.addInitScript(() => {
        Object.defineProperty(Navigator.prototype, "locks", { get: () => undefined, configurable: true });
      });
      const first = await other.newPage();
      await first.goto(`${BASE}/dashboard/#/login`, { waitUntil: "load" });
      await first.waitForSelector("[data-testid=page-login][data-ready=true]");
      check((await first.evaluate(() => navigator.locks)) === undefined, "navigator.locks is still there");
      await first.getByLabel("Email").fill(EMAIL);
      await first.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await first.getByTestId("login-submit").click();
      await first.waitForSelector("[data-testid=page-tenants][data-ready=true]");
      // A tab opened from this one starts with a copy of its sessionStorage: the same session.
      const [second] = await Promise.all([
        other.waitForEvent("page"),
        first.evaluate(() => void window.open(location.href)),
      ]);
      await second.waitForSelector("[data-testid=page-tenants][data-ready=true]");
      const tabs = [first, second];
      const stored = () => Promise.all(tabs.map((t) => t.evaluate(() => JSON.parse(sessionStorage.getItem("cairn.admin")))));
      const [a, b] = await stored();
      check(a?.refresh && a.refresh === b?.refresh, "the second tab does not share the first's session");
      const before = calls("tabs-without-web-locks", "POST", "/admin/v1/refresh");
      for (const t of tabs) {
        await t.evaluate(() => {
          const s = JSON.parse(sessionStorage.getItem("cairn.admin"));
          sessionStorage.setItem("cairn.admin", JSON.stringify({ ...s, accessExp: Date.now() + 5000 }));
        });
      }
      await Promise.all(tabs.map((t) => t.reload({ waitUntil: "load" })));
      await Promise.all(tabs.map((t) => t.waitForSelector("[data-testid=page-tenants][data-ready=true]")));
      for (const t of tabs) {
        await t.waitForFunction((old) => JSON.parse(sessionStorage.getItem("cairn.admin") ?? "null")?.refresh !== old, a.refresh);
      }
      await first.waitForTimeout(500); // a second refresh, if any, would have started by now
      const [x, y] = await stored();
      check(x?.refresh && x.refresh === y?.refresh && x.access === y?.access, "the tabs ended up with different tokens");
      const refreshes = calls("tabs-without-web-locks", "POST", "/admin/v1/refresh") - before;
      check(refreshes === 1, `${refreshes} calls of /admin/v1/refresh from the two tabs, not exactly one`);
      for (const t of tabs) {
        const shown = ((await t.locator("[data-testid=alert]").textContent()) ?? "").trim();
        check(shown === "", `a tab shows an error: ${shown}`);
      }
    } finally {
      await other.close();
    }
  });

  // Create a tenant; suspend and resume it
  await step("tenant-created", async () => {
    await page.getByTestId("tenant-name").fill(tenantName);
    cleanup.name = tenantName;
    await page.getByTestId("create-tenant").click();
    await page.waitForSelector(`h1:has-text("Tenant ${tenantName}")`);
    await ready("tenant");
    tenantId = decodeURIComponent(new URL(page.url()).hash.split("/")[2] ?? "");
    check(/^[0-9a-f-]{36}$/.test(tenantId), `no tenant id in ${page.url()}`);
    cleanup.id = tenantId;
    await page.getByTestId("usage").waitFor();
  });
  await step("tenant-suspended", async () => {
    await page.getByTestId("suspend-tenant").click();
    await dialog().getByLabel(/Reason/).fill("e2e check");
    await dialog().getByTestId("confirm-button").click();
    await page.locator("[data-testid=tenant-overview] .badge-suspended").waitFor();
  });
  await step("tenant-resumed", async () => {
    await page.getByTestId("resume-tenant").click();
    await page.locator("[data-testid=tenant-overview] .badge-active").waitFor();
  });

  // Issue a key (the secret is shown once)
  await step("key-issued", async () => {
    await page.getByTestId("key-name").fill("e2e key");
    await page.getByTestId("scope-admin").check();
    await page.getByTestId("issue-key").click();
    const box = page.getByTestId("new-key-secret");
    await box.waitFor();
    secret = await box.inputValue();
    check(/^cairn_/.test(secret), `unexpected secret shape: ${secret.slice(0, 10)}…`);
    prefix = secret.split("_")[1] ?? "";
    await page.locator(`tr[data-key-prefix="${prefix}"]`).waitFor();
    await page.evaluate(() => navigator.clipboard.writeText("not the secret"));
    await page.getByTestId("copy-button").click();
    await page.getByRole("button", { name: "Copied" }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    check(copied === secret, "the clipboard does not hold the secret after “Copy secret”");
    // Neither the clipboard API nor execCommand works: the button says so, not “Copied”.
    await page.evaluate(() => {
      window.__e2eSaved = [Clipboard.prototype.writeText, Document.prototype.execCommand];
      Clipboard.prototype.writeText = () => Promise.reject(new DOMException("denied", "NotAllowedError"));
      Document.prototype.execCommand = () => false;
    });
    await page.getByTestId("copy-button").click();
    await page.getByTestId("copy-failed").waitFor();
    const said = (await page.getByTestId("copy-failed").textContent()) ?? "";
    check(said.includes("Copy failed — select the text and copy it"), `the failed copy says “${said}”`);
    check((await page.getByRole("button", { name: "Copied" }).count()) === 0, "“Copied” shows after a failed copy");
    await page.evaluate(() => {
      [Clipboard.prototype.writeText, Document.prototype.execCommand] = window.__e2eSaved;
      delete window.__e2eSaved;
    });
    await page.getByTestId("copy-button").click();
    await page.getByRole("button", { name: "Copied" }).waitFor();
    check((await page.getByTestId("copy-failed").count()) === 0, "the failure note stays after a copy that worked");
  });

  // Store memories through the SDK, two of them associated (and one more hop)
  await step("sdk-stored", async () => {
    api = sdk.createCairnClient({ baseUrl: BASE, token: secret });
    const store = (body) => sdk.unwrap(api.POST("/api/v1/memories", { body }));
    mem.a = await store({
      content: `We chose PostgreSQL over MongoDB for ${marker}: we need ACID transactions`,
      type: "Decision",
      importance: 0.9,
      tags: ["e2e", "database"],
      user_id: "user-e2e",
    });
    mem.b = await store({ content: `PostgreSQL runs with pgvector for ${marker} embeddings`, tags: ["e2e"], importance: 0.7 });
    mem.c = await store({ content: `The ${marker} team benchmarks pgvector indexes every Friday`, tags: ["e2e", "ops"] });
    mem.d = await store({ content: `Deploys of ${marker} go out on Tuesdays`, tags: ["ops"], type: "Habit" });
    mem.e = await store({ content: `An unrelated note about lunch on ${marker} day`, tags: ["misc"] });
    await sdk.unwrap(
      api.POST("/api/v1/associations", {
        body: { memory1_id: mem.a.id, memory2_id: mem.b.id, type: "LEADS_TO", strength: 0.8 },
      }),
    );
    await sdk.unwrap(
      api.POST("/api/v1/associations", {
        body: { memory1_id: mem.b.id, memory2_id: mem.c.id, type: "RELATES_TO", strength: 0.6 },
      }),
    );
    // Two quality reports of the tenant's own (keyword mode: embeddings may be off), for the operator's chart.
    const probes = [{ query: `which database did ${marker} choose`, expected: [mem.a.id] }];
    for (const k of [1, 5]) await sdk.unwrap(api.POST("/api/v1/eval", { body: { probes, k, mode: "keyword" } }));
    if (SEED > 0) await seed(api, sdk, SEED);
  });

  // Open the tenant view with the key just issued
  await step("tenant-view", async () => {
    await page.getByTestId("open-tenant-with-key").click();
    await ready("memories");
    check(((await page.getByTestId("tenant-label").textContent()) ?? "").includes(tenantName), "the header does not name the tenant");
  });

  // Find the memories with the search box (keyword mode: embeddings may be off)
  await step("search-results", async () => {
    await page.getByTestId("search-query").fill(marker);
    await page.getByTestId("search-mode").selectOption("keyword");
    await page.getByTestId("search-query").press("Enter");
    await page.locator(`[data-testid=results] li[data-memory-id="${mem.a.id}"]`).waitFor();
    await ready("memories");
    const ids = await page.locator("[data-testid=results] li").evaluateAll((els) => els.map((e) => e.getAttribute("data-memory-id")));
    for (const k of ["a", "b", "c", "d", "e"]) check(ids.includes(mem[k].id), `memory ${k} is not among the results`);
    const comps = await page.locator(`li[data-memory-id="${mem.a.id}"] .components`).textContent();
    check(/keyword/.test(comps ?? "") && /recency/.test(comps ?? ""), `score components missing: ${comps}`);
  });

  // A memory's details
  await step("memory-details", async () => {
    await page.locator(`li[data-memory-id="${mem.a.id}"] [data-testid=result-link]`).click();
    await ready("memory");
    check((await page.getByTestId("memory-content").textContent()) === mem.a.content, "the memory page shows other content");
    await page.locator("[data-testid=history] li[data-event-type=created]").waitFor();
  });

  // Its graph: the associated memory appears (and the next hop at depth 2)
  await step("graph-depth-1", async () => {
    await page.getByTestId("open-graph").click();
    await ready("graph");
    await page.locator(`[data-testid=related-table] tr[data-memory-id="${mem.b.id}"]`).waitFor();
    await page.locator(`[data-testid=graph-svg] [data-node-id="${mem.b.id}"]`).waitFor();
    check((await page.locator(`[data-testid=graph-svg] [data-edge-type="LEADS_TO"]`).count()) === 1, "no LEADS_TO edge drawn");
    check((await page.locator(`[data-testid=related-table] tr[data-memory-id="${mem.c.id}"]`).count()) === 0, "depth 1 shows a memory two hops away");
  });
  await step("graph-depth-2", async () => {
    await page.getByTestId("graph-depth").selectOption("2");
    await page.locator(`[data-testid=related-table] tr[data-memory-id="${mem.c.id}"]`).waitFor();
    await ready("graph");
    const text = (await page.getByTestId("graph-svg").textContent()) ?? "";
    check(text.includes("LEADS_TO 0.80") && text.includes("RELATES_TO 0.60"), `edge labels missing: ${text.slice(0, 200)}`);
  });

  // Edit it: the new content shows and history lists the change
  await step("memory-edited", async () => {
    const look = { params: { path: { id: mem.a.id }, query: { touch: false } } };
    // The search above counted its results as accesses, which the server writes about once a second
    // (coalesced): wait until the count has settled, so only this step's own looks could move it.
    let seen = await sdk.unwrap(api.GET("/api/v1/memories/{id}", look));
    for (let tries = 0; tries < 10; tries++) {
      await new Promise((r) => setTimeout(r, 1500));
      const again = await sdk.unwrap(api.GET("/api/v1/memories/{id}", look));
      if (again.access_count === seen.access_count) break;
      seen = again;
    }
    await go(`#/memory/${mem.a.id}`);
    await ready("memory");
    await page.getByTestId("edit-memory").click();
    await page.getByTestId("edit-content").fill(editedContent);
    await page.getByTestId("edit-tags").fill("e2e, database, reviewed");
    await page.getByTestId("save-memory").click();
    await page.waitForSelector(`[data-testid=memory-content]:text-is("${editedContent}")`);
    await ready("memory");
    const updated = page.locator("[data-testid=history] li[data-event-type=updated]");
    await updated.first().waitFor();
    const change = (await updated.first().textContent()) ?? "";
    check(change.includes("content") && change.includes("Edited:"), `history does not show the content change: ${change.slice(0, 200)}`);
    const fresh = await sdk.unwrap(api.GET("/api/v1/memories/{id}", look));
    check(fresh.content === editedContent, "the API does not have the edit");
    check(fresh.access_count === seen.access_count, `looking at a memory on the dashboard counted as an access (${seen.access_count} -> ${fresh.access_count})`);
  });

  // Delete it
  await step("memory-deleted", async () => {
    await page.getByTestId("delete-memory").click();
    await dialog().getByTestId("confirm-button").click();
    await page.getByTestId("deleted-banner").waitFor();
    const gone = await api.GET("/api/v1/memories/{id}", { params: { path: { id: mem.a.id } } });
    check(gone.response.status === 404, `a deleted memory reads ${gone.response.status}, not 404`);
  });

  // Restore it from the undo window (the trash)
  await step("trash", async () => {
    await page.getByRole("link", { name: "Trash", exact: true }).first().click();
    await ready("trash");
    await page.locator(`[data-testid=trash-table] tr[data-memory-id="${mem.a.id}"]`).waitFor();
  });
  await step("memory-restored", async () => {
    await page.locator(`tr[data-memory-id="${mem.a.id}"] [data-testid=trash-restore]`).click();
    await page.getByTestId("restored").waitFor();
    await page.getByTestId("restored").getByRole("link").click();
    await ready("memory");
    check((await page.getByTestId("memory-content").textContent()) === editedContent, "the restored memory lost its edit");
    await page.locator("[data-testid=history] li[data-event-type=restored]").waitFor();
    await page.locator("[data-testid=history] li[data-event-type=deleted]").waitFor();
  });

  // Jobs and usage pages render with this tenant's data
  await step("jobs", async () => {
    await go("#/jobs");
    await ready("jobs");
    await page.getByTestId("pipeline-embedding").waitFor();
  });
  await step("consolidation-run", async () => {
    await page.getByTestId("run-consolidation").click();
    await page.locator("[data-testid=runs-table] tr[data-run-id]").first().waitFor();
    await page.getByTestId("run-details").waitFor();
  });
  await step("overview", async () => {
    await go("#/overview");
    await ready("overview");
    await page.getByTestId("chart-requests").waitFor();
  });

  // Paint and load times of each page (a full load of each)
  await step("timings", async () => {
    const pages = [
      ["tenants", "#/tenants"],
      ["tenant", `#/tenants/${tenantId}`],
      ["audit", "#/audit"],
      ["overview", "#/overview"],
      ["memories", "#/memories"],
      ["memory", `#/memory/${mem.a.id}`],
      ["graph", `#/graph/${mem.a.id}`],
      ["trash", "#/trash"],
      ["jobs", "#/jobs"],
      ["tenant-keys", "#/keys"],
    ];
    for (const [id, hash] of pages) {
      await go(hash);
      await page.reload({ waitUntil: "load" });
      await ready(id);
      const t = await page.evaluate(() => {
        const paint = Object.fromEntries(performance.getEntriesByType("paint").map((e) => [e.name, e.startTime]));
        const nav = performance.getEntriesByType("navigation")[0];
        return {
          fp: paint["first-paint"] ?? null,
          fcp: paint["first-contentful-paint"] ?? null,
          dcl: nav ? nav.domContentLoadedEventEnd : null,
          load: nav ? nav.loadEventEnd : null,
          ready: performance.now(),
        };
      });
      timings.push({ page: id, ...t });
    }
    await page.evaluate(() => {
      location.hash = "#/tenants";
    });
    if (PAINT_BUDGET_MS !== null) {
      const slow = timings.filter((t) => (t.fcp ?? Infinity) > PAINT_BUDGET_MS);
      check(slow.length === 0, `first contentful paint over ${PAINT_BUDGET_MS} ms: ${slow.map((t) => t.page).join(", ")}`);
    }
  });

  // Rotate a second key: the new secret is shown once, the old one stops (no grace period)
  let rotatedSecret = "";
  let oldSecret = "";
  await step("key-rotated", async () => {
    await go(`#/tenants/${tenantId}`);
    await ready("tenant");
    await page.getByTestId("key-name").fill("rotate me");
    await page.getByTestId("scope-admin").uncheck();
    await page.getByTestId("scope-write").uncheck();
    await page.getByTestId("issue-key").click();
    await page.waitForFunction((first) => {
      const v = document.querySelector("[data-testid=new-key-secret]")?.value;
      return v && v !== first;
    }, secret);
    oldSecret = await page.getByTestId("new-key-secret").inputValue();
    const oldPrefix = oldSecret.split("_")[1];
    await page.locator(`tr[data-key-prefix="${oldPrefix}"]`).getByTestId("rotate-key").click();
    await dialog().getByLabel("The old secret keeps working for").selectOption("0");
    await dialog().getByTestId("confirm-button").click();
    await page.waitForFunction((old) => {
      const v = document.querySelector("[data-testid=new-key-secret]")?.value;
      return v && v !== old;
    }, oldSecret);
    rotatedSecret = await page.getByTestId("new-key-secret").inputValue();
    check(((await page.getByTestId("new-key").textContent()) ?? "").includes(`replaces ${oldPrefix}`), "the new secret does not say what it replaces");
    await page.locator(`tr[data-key-prefix="${rotatedSecret.split("_")[1]}"]`).waitFor();
    const probe = (token) => sdk.createCairnClient({ baseUrl: BASE, token }).GET("/api/v1/stats", {});
    check((await probe(rotatedSecret)).response.status === 200, "the rotated key does not work");
    check((await probe(oldSecret)).response.status === 401, "the replaced key still works");
    await page.getByRole("button", { name: "Done (hide the secret)" }).click();
    await page.getByTestId("new-key").waitFor({ state: "detached" });
  });

  // The tenant view from the sign-in page, with a pasted key
  await step("tenant-key-login", async () => {
    await page.getByTestId("close-tenant").click();
    await go("#/login");
    await ready("login");
    await page.getByTestId("signed-in-as").waitFor();
    await page.getByLabel("Tenant API key").fill(secret);
    await page.getByTestId("tenant-key-submit").click();
    await ready("overview");
    check(((await page.getByTestId("tenant-label").textContent()) ?? "").includes(prefix), "the header does not name the key");
    await go("#/keys");
    await ready("tenant-keys");
    await page.locator(`tr[data-key-prefix="${prefix}"]`).waitFor();
  });

  // A key scoped to one end user, issued from the keys page: it lists that end user's memories only, and what
  // it stores shows its scope beside its key on the memory page
  await step("scoped-key", async () => {
    await page.getByTestId("key-name").fill("user-e2e only");
    await page.getByTestId("scope-admin").uncheck();
    await page.getByTestId("key-user-ids").fill("user-e2e");
    await page.getByTestId("issue-key").click();
    await page.waitForFunction((first) => {
      const v = document.querySelector("[data-testid=new-key-secret]")?.value;
      return v && v !== first;
    }, secret);
    const scoped = await page.getByTestId("new-key-secret").inputValue();
    const row = page.locator(`tr[data-key-prefix="${scoped.split("_")[1]}"]`);
    await row.waitFor();
    check(((await row.getByTestId("key-scopes").textContent()) ?? "").includes("users: user-e2e"), "the table does not show the key's scope");
    const client = sdk.createCairnClient({ baseUrl: BASE, token: scoped });
    const listed = await client.GET("/api/v1/memories", { params: { query: { limit: 100 } } });
    check(listed.response.status === 200, `the scoped key cannot list: ${listed.response.status}`);
    const mems = listed.data.memories;
    check(mems.length > 0 && mems.every((m) => m.user_id === "user-e2e"), `the scoped key sees other end users' memories: ${JSON.stringify(mems.map((m) => m.user_id))}`);
    const all = await sdk.createCairnClient({ baseUrl: BASE, token: secret }).GET("/api/v1/memories", { params: { query: { limit: 1 } } });
    check(all.data.total > listed.data.total, "the tenant holds no memory outside user-e2e to hide");
    await page.getByRole("button", { name: "Done (hide the secret)" }).click();
    await page.getByTestId("new-key").waitFor({ state: "detached" });
    const stored = await client.POST("/api/v1/memories", { body: { content: "stored through the scoped key" } });
    check(stored.response.status === 201 && stored.data.user_id === "user-e2e", `the scoped key cannot store: ${stored.response.status}`);
    await go(`#/memory/${stored.data.id}`);
    await ready("memory");
    const details = (await page.getByTestId("memory-details").textContent()) ?? "";
    check(details.includes("scoped to users: user-e2e"), `the memory page does not show the storing key's scope: ${details}`);
    const created = (await page.locator("[data-testid=history] li[data-event-type=created]").textContent()) ?? "";
    check(created.includes("scoped to users: user-e2e"), `the history does not show the scope: ${created}`);
    await go("#/keys");
    await ready("tenant-keys");
  });

  // The tenant's top end users (admin-scoped key): the memories stored for user-e2e are counted
  await step("end-users", async () => {
    await go("#/overview");
    await ready("overview");
    await page.getByTestId("end-users-button").click();
    const row = page.locator('[data-testid=end-users] tbody tr[data-end-user="user-e2e"]');
    await row.waitFor();
    const memories = Number(((await row.locator("td").nth(1).textContent()) ?? "0").replace(/[^0-9]/g, ""));
    check(memories >= 1, `user-e2e holds ${memories} memories in the end-users table`);
    // By requests: the stores and the scoped key's listing above were made for user-e2e
    await page.getByTestId("end-users-requests-button").click();
    await page.locator("[data-testid=end-users] caption", { hasText: "most requests first" }).waitFor();
    const busiest = page.locator('[data-testid=end-users] tbody tr[data-end-user="user-e2e"]');
    await busiest.waitFor();
    const requests = Number(((await busiest.locator("td").nth(4).textContent()) ?? "0").replace(/[^0-9]/g, ""));
    check(requests >= 2, `user-e2e made ${requests} requests in the end-users table`);
  });

  // Webhooks (tenant view, admin-scoped key): register a receiver on loopback (the signing secret shown once),
  // an event arrives signed with it, the delivery log shows it, and the endpoint can be paused
  await step("webhooks", async () => {
    const received = [];
    const receiver = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204);
        res.end();
      });
    });
    await new Promise((done) => receiver.listen(0, "127.0.0.1", done));
    try {
      const hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;
      await go("#/webhooks");
      await ready("webhooks");
      await page.getByTestId("webhook-url").fill(hookUrl);
      await page.getByTestId("webhook-create").click();
      const box = page.getByTestId("webhook-secret");
      await box.waitFor();
      const hookSecret = await box.inputValue();
      check(hookSecret.startsWith("whsec_"), `unexpected signing secret: ${hookSecret.slice(0, 8)}…`);
      await page.locator("tr[data-webhook-id] .badge-active").waitFor();
      const stored = await sdk.createCairnClient({ baseUrl: BASE, token: secret }).POST("/api/v1/memories", {
        body: { content: "A webhook tells the receiver about this one" },
      });
      check(stored.response.status === 201, `storing a memory answered ${stored.response.status}`);
      const deadline = Date.now() + TIMEOUT;
      while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      check(received.length >= 1, "no webhook reached the receiver");
      const got = received[0];
      const signed = `${got.headers["webhook-id"]}.${got.headers["webhook-timestamp"]}.${got.body}`;
      const expected = createHmac("sha256", Buffer.from(hookSecret.slice("whsec_".length), "base64")).update(signed).digest("base64");
      check(got.headers["webhook-signature"] === `v1,${expected}`, "the webhook's signature does not verify with the secret shown");
      check(JSON.parse(got.body).type === "memory.created", `unexpected event: ${got.body.slice(0, 80)}`);
      await page.getByRole("button", { name: "Done (hide the secret)" }).click();
      await page.getByTestId("webhook-log").first().click();
      await page.locator("[data-testid=webhook-deliveries] tbody tr[data-status=delivered]").first().waitFor();
      await page.getByTestId("webhook-toggle").first().click();
      await page.locator("tr[data-webhook-id] .badge-paused").waitFor();
    } finally {
      receiver.close();
    }
  });

  // Revoke the key in the admin view
  await step("key-revoked", async () => {
    await go(`#/tenants/${tenantId}`);
    await ready("tenant");
    const row = page.locator(`tr[data-key-prefix="${prefix}"]`);
    await row.getByTestId("revoke-key").click();
    await dialog().getByTestId("confirm-button").click();
    await row.locator(".badge-revoked").waitFor();
    check(((await page.getByTestId("status").textContent()) ?? "").includes("revoked"), "no confirmation of the revocation");
  });

  // An operator's look at the tenant's memories and jobs, without a key of its own (audited)
  await step("operator-look", async () => {
    await page.getByTestId("look-button").click();
    await page.locator("[data-testid=look-memories] tbody tr[data-memory-id]").first().waitFor();
    await page.locator("[data-testid=look-jobs] tbody tr[data-queue]").first().waitFor();
    const shown = await page.locator("[data-testid=look-memories] tbody tr").count();
    check(shown >= 1 && shown <= 10, `the look shows ${shown} memories`);
  });

  // The tenant's retrieval-quality reports, charted (an audited look)
  await step("operator-quality", async () => {
    await page.getByTestId("quality-button").click();
    await page.getByTestId("quality-chart").waitFor();
    const rows = await page.locator("[data-testid=quality-runs] tbody tr[data-run-id]").count();
    check(rows === 2, `the quality panel lists ${rows} runs, not the tenant's two`);
    const label = (await page.locator("[data-testid=quality-chart] svg").getAttribute("aria-label")) ?? "";
    check(label.includes("over 2 runs"), `the chart does not describe the two runs: ${label}`);
  });

  // The service's queues across tenants
  await step("queues", async () => {
    await go("#/queues");
    await ready("queues");
    await page.getByTestId("periodic-table").waitFor();
    const text = (await page.getByTestId("page-queues").textContent()) ?? "";
    check(text.includes("Every queue") && text.includes("Per tenant"), `the queues page lacks its sections: ${text.slice(0, 200)}`);
    await go(`#/tenants/${tenantId}`);
    await ready("tenant");
  });

  await step("audit-log", async () => {
    await page.getByRole("link", { name: "Audit log of this tenant" }).click();
    await ready("audit");
    const actions = await page.locator("[data-testid=audit-table] tbody tr td:nth-child(3)").allTextContents();
    for (const a of ["tenant.create", "tenant.suspend", "tenant.resume", "key.create", "key.revoke", "tenant.memories.read", "tenant.jobs.read", "tenant.eval.read"]) {
      check(actions.includes(a), `the audit log of the tenant lacks ${a} (has ${actions.join(", ")})`);
    }
  });

  // The tenant view now shows the API's 401 message
  await step("key-refused", async () => {
    const refused = page.waitForResponse((r) => r.url().includes("/api/v1/") && r.status() === 401);
    await go("#/memories");
    const res = await refused;
    const body = await res.json();
    check(body?.status === "error" && body?.code === 401 && body?.message, `not the error envelope: ${JSON.stringify(body)}`);
    await page.waitForFunction(
      (msg) => (document.querySelector("[data-testid=alert]")?.textContent ?? "").includes(msg),
      body.message,
    );
    const shown = await alertText();
    check(shown.includes(body.message) && shown.includes("401"), `the alert says “${shown}”, not “${body.message}”`);
    await page.getByTestId("sign-in-again").waitFor();
    const viaSdk = await api.GET("/api/v1/stats", {});
    check(viaSdk.response.status === 401, `the SDK with the revoked key got ${viaSdk.response.status}`);
    console.log(`(API said: “${body.message}”) `);
  });

  // Delete the tenant (confirmation by typing its name)
  if (!KEEP_TENANT) {
    await step("tenant-deleted", async () => {
      await page.getByTestId("close-tenant").click();
      await go(`#/tenants/${tenantId}`);
      await ready("tenant");
      await page.getByTestId("delete-tenant").click();
      check(await dialog().getByTestId("confirm-button").isDisabled(), "delete is possible without typing the name");
      await page.keyboard.press("Escape");
      await dialog().waitFor({ state: "hidden" });
      await page.getByTestId("delete-tenant").click();
      await dialog().getByTestId("confirm-text").fill(tenantName);
      if (A11Y) await checkA11y("delete-dialog");
      await dialog().getByTestId("confirm-button").click();
      await ready("tenants");
      check(((await page.getByTestId("status").textContent()) ?? "").includes("being deleted"), "no confirmation of the deletion");
      cleanup.done = true;
    });
  }

  // A session whose refresh is refused ends: back to the sign-in page, saying why
  await step("session-ended", async () => {
    await go("#/tenants");
    await ready("tenants");
    await page.evaluate(() => {
      const s = JSON.parse(sessionStorage.getItem("cairn.admin"));
      sessionStorage.setItem("cairn.admin", JSON.stringify({ ...s, access: "expired", refresh: "crt_not-a-refresh-token" }));
    });
    await page.reload({ waitUntil: "load" });
    await ready("login");
    await page.getByTestId("session-notice").waitFor();
    check((await page.evaluate(() => sessionStorage.getItem("cairn.admin"))) === null, "the dead session is still stored");
  });

  await browser.close();
}

/**
 * The browser's own guard: a host name and a non-loopback IP literal both fail to load, in a context
 * of their own (before the request recording starts). 192.0.2.1 is TEST-NET-1: never routed.
 */
async function networkGuard() {
  const context = await browser.newContext();
  try {
    const probe = await context.newPage();
    for (const url of ["http://example.com/", "http://192.0.2.1/"]) {
      const error = await probe.goto(url, { timeout: 5000 }).then(
        () => null,
        (err) => String(err?.message ?? err).match(/net::[A-Z_]+/)?.[0] ?? "failed",
      );
      if (!error) throw new Error(`the browser reached ${url}: the loopback-only guard does not hold`);
    }
  } finally {
    await context.close();
  }
  console.log("e2e: browser guard holds: only loopback is reachable");
}

/** Deletes the test tenant through the admin API if the run created it and did not delete it. */
async function deleteLeftoverTenant() {
  if (KEEP_TENANT || cleanup.done || !cleanup.name || !sdkModule) return;
  const sdk = sdkModule;
  try {
    const anonymous = sdk.createCairnClient({ baseUrl: BASE });
    const pair = await sdk.unwrap(anonymous.POST("/admin/v1/login", { body: { email: EMAIL, password: PASSWORD } }));
    const adminApi = sdk.createCairnClient({ baseUrl: BASE, token: pair.access_token });
    let id = cleanup.id;
    for (let offset = 0; !id; offset += 500) {
      const listing = await sdk.unwrap(adminApi.GET("/admin/v1/tenants", { params: { query: { limit: 500, offset } } }));
      id = listing.tenants.find((t) => t.name === cleanup.name)?.id ?? "";
      if (!listing.has_more) break;
    }
    if (!id) {
      console.log(`e2e: cleanup: no tenant ${cleanup.name} was created`);
    } else {
      const { response } = await adminApi.DELETE("/admin/v1/tenants/{id}", { params: { path: { id } } });
      if (response.status === 202 || response.status === 404) {
        console.log(`e2e: cleanup: tenant ${cleanup.name} (${id}) deleted (HTTP ${response.status})`);
      } else {
        cleanup.problem = `deleting tenant ${cleanup.name} (${id}) answered HTTP ${response.status}`;
      }
    }
    await adminApi.POST("/admin/v1/logout", {}).catch(() => {});
  } catch (err) {
    cleanup.problem = `could not delete tenant ${cleanup.name}: ${err?.message ?? err}`;
  }
}

async function seed(api, sdk, n) {
  const started = Date.now();
  const words = ["postgres", "deploy", "latency", "budget", "review", "incident", "schema", "cache", "queue", "index", "agent", "customer"];
  let done = 0;
  while (done < n) {
    const size = Math.min(500, n - done);
    const memories = Array.from({ length: size }, (_, i) => {
      const k = done + i;
      return {
        content: `Seed ${k} of the bulk load: ${words[k % 12]} ${words[(k * 7) % 12]} note number ${k} about ${words[(k * 5) % 12]}`,
        tags: [`bulk-${k % 20}`],
        importance: (k % 10) / 10,
      };
    });
    await sdk.unwrap(api.POST("/api/v1/memories/batch", { body: { memories } }));
    done += size;
    if (done % 10000 === 0) process.stdout.write(`[${done}] `);
  }
  process.stdout.write(`(seeded ${n} in ${((Date.now() - started) / 1000).toFixed(0)} s) `);
}

function report() {
  if (timings.length) {
    console.log("\ne2e: page timings (ms from navigation start; full load of each page):");
    console.log("  page          first-paint  first-contentful-paint  DOMContentLoaded  load  data-ready");
    for (const t of timings) {
      const f = (v) => (v === null || v === undefined ? "—" : v.toFixed(0)).padStart(6);
      console.log(`  ${t.page.padEnd(12)}  ${f(t.fp)}       ${f(t.fcp)}                  ${f(t.dcl)}       ${f(t.load)}  ${f(t.ready)}`);
    }
  }
  if (timings.length && PAINT_BUDGET_MS === null) {
    console.log("  (no paint budget enforced: set CAIRN_E2E_PAINT_BUDGET_MS to fail on a slow first contentful paint)");
  }
  writeFileSync(
    join(ARTIFACTS, "results.json"),
    JSON.stringify({ base: BASE, results, timings, responses, offLoopback, consoleErrors, serverErrors, a11yViolations }, null, 2),
  );
  const problems = [];
  if (offLoopback.length) problems.push(`${offLoopback.length} request(s) left loopback: ${offLoopback.slice(0, 5).join(", ")}`);
  if (consoleErrors.length) problems.push(`${consoleErrors.length} console error(s): ${consoleErrors.slice(0, 5).join(" | ")}`);
  if (a11yViolations.length) {
    problems.push(`${a11yViolations.length} accessibility violation(s): ${[...new Set(a11yViolations.map((v) => v.id))].join(", ")}`);
  }
  const stray = unexpected4xx(null);
  if (stray.length) problems.push(`${stray.length} unexpected 4xx answer(s): ${stray.slice(0, 5).join(", ")}`);
  if (cleanup.problem) problems.push(`cleanup: ${cleanup.problem}`);
  if (serverErrors.length) problems.push(`${serverErrors.length} server error(s): ${serverErrors.slice(0, 5).join(", ")}`);
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed + (problems.length ? 1 : 0);
  for (const p of problems) fail(p);
  console.log(`\ne2e: screenshots in ${ARTIFACTS}`);
  console.log(`e2e: ${passed} passed, ${failed} failed`);
}

try {
  await main();
} catch (err) {
  fail(err?.message ?? String(err));
} finally {
  await browser?.close().catch(() => {});
  await deleteLeftoverTenant();
  report();
  process.exit(process.exitCode ?? 0);
}
