// Sessions and API clients. Everything goes through the generated TypeScript client (sdk/typescript),
// same-origin: the admin API with an operator's JWT (refreshed before expiry, and once on a 401), the
// tenant API with a tenant API key. Both live in sessionStorage only.
import {
  CairnError,
  createCairnClient,
  unwrap,
  type CairnClient,
  type Schemas,
} from "../../sdk/typescript/src/index.ts";
import { Store } from "./store.ts";

export { CairnError, unwrap };
export type { Schemas };

const BASE = typeof location === "undefined" ? "" : location.origin;

const ADMIN_KEY = "cairn.admin";
const TENANT_KEY = "cairn.tenant";

export interface AdminSession {
  access: string;
  refresh: string;
  /** Epoch ms when the access token expires. */
  accessExp: number;
  refreshExp: number;
  email: string;
}

export interface TenantSession {
  key: string;
  /** What the user called it (tenant name, or the key's prefix). */
  label: string;
  tenantId?: string;
}

function load<T>(name: string): T | null {
  try {
    const raw = sessionStorage.getItem(name);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function save(name: string, value: unknown): void {
  if (value === null) sessionStorage.removeItem(name);
  else sessionStorage.setItem(name, JSON.stringify(value));
}

export const adminSession = new Store<AdminSession | null>(load<AdminSession>(ADMIN_KEY));
export const tenantSession = new Store<TenantSession | null>(load<TenantSession>(TENANT_KEY));
adminSession.subscribe((s) => save(ADMIN_KEY, s));
tenantSession.subscribe((s) => save(TENANT_KEY, s));

/** Set when a session ends by itself (expired refresh), shown on the sign-in page. */
export const sessionNotice = new Store<string | null>(null);

// ---------------------------------------------------------------------------------------------------
// Admin: login, refresh, logout

/** Unauthenticated client: login and refresh. */
const anonymous: CairnClient = createCairnClient({ baseUrl: BASE });

function fromPair(pair: Schemas["TokenPair"]): AdminSession {
  const now = Date.now();
  return {
    access: pair.access_token,
    refresh: pair.refresh_token,
    accessExp: now + pair.expires_in * 1000,
    refreshExp: now + pair.refresh_expires_in * 1000,
    email: pair.admin.email,
  };
}

export async function login(email: string, password: string): Promise<void> {
  const pair = await unwrap(anonymous.POST("/admin/v1/login", { body: { email, password } }));
  sessionNotice.set(null);
  adminSession.set(fromPair(pair));
}

// Tabs opened from this one start with a copy of its sessionStorage, so several tabs may hold the same
// session. A refresh token is good for one use (a second use revokes the session), so:
// - tabs tell each other new tokens (a BroadcastChannel): a tab holding the replaced refresh token takes
//   them over instead of refreshing again; a tab that was loading then asks for them when it starts;
// - tabs refresh one at a time: under a Web Lock where the browser has them (secure contexts: https, or
//   http on localhost/127.0.0.1); elsewhere (plain http on a LAN host) a claim over the channel stands
//   in for it. That is best effort (see README): it narrows the race between tabs refreshing at the same
//   instant, it cannot close it; the worst case is a session ended by reuse, and signing in again. A tab
//   already exchanging a token says so ("committed") to any tab that claims it or asks about it, so a tab
//   that was still loading when the claim went out (a channel hears nothing sent before it existed) waits
//   for the tokens instead of presenting the old one.
type SessionMessage =
  | { kind: "tokens"; old: string; next: AdminSession | null }
  | { kind: "ask"; token: string }
  | { kind: "claim"; token: string; tab: string; committed?: boolean }
  | { kind: "release"; token: string; tab: string };

const TAB = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
/** Refresh tokens other tabs said they are exchanging: token -> [tab, when]. */
const claims = new Map<string, Claim[]>();
type Claim = { tab: string; at: number; committed?: boolean };
/** Refresh tokens this tab is exchanging with the server right now. */
const exchanging = new Set<string>();
const CLAIM_WINDOW_MS = 10_000;
/** How long a tab waits after claiming a token before it exchanges it, for other tabs' claims to arrive. */
const CLAIM_SETTLE_MS = 300;
/** What replaced each refresh token this tab has seen replaced (its refreshes and others'; null: signed out). */
const successors = new Map<string, AdminSession | null>();

/** The newest session that `token` led to, as far as this tab knows (undefined: none known). */
function successorOf(token: string): AdminSession | null | undefined {
  let found: AdminSession | null | undefined;
  for (let t = token, hops = 0; successors.has(t) && hops < 1000; hops++) {
    found = successors.get(t) ?? null;
    if (!found) break;
    t = found.refresh;
  }
  return found;
}

const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel("cairn-admin-session");

function announce(old: string, next: AdminSession | null): void {
  successors.set(old, next);
  channel?.postMessage({ kind: "tokens", old, next } satisfies SessionMessage);
}

if (channel) {
  channel.onmessage = (e: MessageEvent<SessionMessage>) => {
    const m = e.data;
    if (m?.kind === "claim") {
      const now = Date.now();
      const live = (claims.get(m.token) ?? []).filter((c) => now - c.at < CLAIM_WINDOW_MS);
      claims.set(m.token, [...live, { tab: m.tab, at: now, committed: m.committed }]);
      if (exchanging.has(m.token)) commit(m.token);
    } else if (m?.kind === "release") {
      const rest = (claims.get(m.token) ?? []).filter((c) => c.tab !== m.tab);
      if (rest.length) claims.set(m.token, rest);
      else claims.delete(m.token);
    } else if (m?.kind === "tokens") {
      claims.delete(m.old);
      successors.set(m.old, m.next);
      const mine = adminSession.get();
      if (mine && (mine.refresh === m.old || successors.has(mine.refresh))) {
        const next = successorOf(mine.refresh);
        if (next !== undefined) adminSession.set(next);
      }
    } else if (m?.kind === "ask") {
      const next = successorOf(m.token);
      if (next !== undefined) channel.postMessage({ kind: "tokens", old: m.token, next } satisfies SessionMessage);
      else if (exchanging.has(m.token)) commit(m.token);
    }
  };
  // A tab (re)loading while another refreshed missed its message: ask whether these tokens were replaced.
  const start = adminSession.get();
  if (start) channel.postMessage({ kind: "ask", token: start.refresh } satisfies SessionMessage);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Tells the other tabs that this one is exchanging `token` now: they wait for its tokens. */
function commit(token: string): void {
  channel?.postMessage({ kind: "claim", token, tab: TAB, committed: true } satisfies SessionMessage);
}

/** Whether another tab claimed `token` (within the window; with `which`, only such a claim). */
function claimedElsewhere(token: string, which?: (claim: Claim) => boolean): boolean {
  const now = Date.now();
  return (claims.get(token) ?? []).some((c) => now - c.at < CLAIM_WINDOW_MS && (!which || which(c)));
}

/** Waits (up to the claim window) for the tab that claimed `token` to share new tokens; whether it did. */
async function awaitOtherTab(token: string): Promise<boolean> {
  const until = Date.now() + CLAIM_WINDOW_MS;
  while (Date.now() < until && claimedElsewhere(token)) {
    if (adminSession.get()?.refresh !== token) return true;
    await sleep(100);
  }
  return adminSession.get()?.refresh !== token;
}

/**
 * Runs `fn` (which refreshes `token`) as the only tab doing so: under a Web Lock, else after claiming the
 * token over the channel. When another tab is refreshing it instead, waits for its tokens.
 */
async function exclusively(token: string, fn: () => Promise<boolean>): Promise<boolean> {
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  if (locks) return await locks.request("cairn-admin-refresh", fn);
  if (!channel) return fn(); // no channel: no other tab to coordinate with
  // Another tab is already at it: wait for its tokens (the session stays either way).
  if (claimedElsewhere(token)) return awaitOtherTab(token);
  channel.postMessage({ kind: "claim", token, tab: TAB } satisfies SessionMessage);
  try {
    await sleep(CLAIM_SETTLE_MS);
    // Tabs that claimed at once: the one ordered first refreshes, the others wait for its tokens; a tab
    // already exchanging the token goes first whatever its order.
    if (claimedElsewhere(token, (c) => c.committed || c.tab < TAB)) return await awaitOtherTab(token);
    exchanging.add(token);
    commit(token);
    return await fn();
  } finally {
    exchanging.delete(token);
    channel.postMessage({ kind: "release", token, tab: TAB } satisfies SessionMessage);
  }
}

// A refresh that fails for a passing reason (429, 5xx, network) keeps the session: the access token may
// well still be good. It is tried again later, not at once (Retry-After when the server gives one).
/** Why the session could not be renewed just now (shown in the alert region), or null. */
export const refreshTrouble = new Store<string | null>(null);
let failures = 0;
/** No refresh before this (epoch ms), after a failed one. */
let notBefore = 0;

function retryAfterMs(response: Response): number | null {
  const header = response.headers.get("Retry-After");
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

function postpone(why: string, wait: number | null, retryByTimer: boolean): void {
  failures++;
  const backoff = Math.min(60_000, 5_000 * 2 ** (failures - 1));
  const delay = Math.min(15 * 60_000, Math.max(1_000, wait ?? backoff));
  notBefore = Date.now() + delay;
  const session = adminSession.get();
  const left = session ? session.accessExp - Date.now() : 0;
  const still =
    left >= 90_000
      ? ` Your sign-in stays valid for about ${Math.round(left / 60_000)} min.`
      : left > 0
        ? " Your sign-in stays valid for less than a minute."
        : " Your sign-in has expired: requests fail until it is renewed.";
  const next = retryByTimer
    ? `trying again in ${Math.ceil(delay / 1000)} s`
    : "the next request tries again";
  refreshTrouble.set(`Could not renew your session (${why}); ${next}.${still}`);
  clearTimeout(refreshTimer);
  if (retryByTimer) refreshTimer = setTimeout(() => void refreshAdmin(), delay);
}

let refreshing: Promise<boolean> | null = null;

/**
 * Exchanges the refresh token for a new pair, once at a time (each refresh token is good for one use).
 * True when the session has new tokens; false when it has not (ended on a 401/400, or kept after a
 * passing failure).
 */
export function refreshAdmin(): Promise<boolean> {
  if (refreshing) return refreshing;
  const before = adminSession.get();
  if (!before) return Promise.resolve(false);
  if (Date.now() < notBefore) return Promise.resolve(false);
  refreshing = exclusively(before.refresh, async () => {
    // Another tab may have refreshed this session while we waited: its message arrives first.
    await sleep(30);
    const session = adminSession.get();
    if (!session) return false;
    if (session.refresh !== before.refresh) return true;
    let result;
    try {
      result = await anonymous.POST("/admin/v1/refresh", { body: { refresh_token: session.refresh } });
    } catch {
      // Network trouble. The server may or may not have used the token; presenting it again at once
      // would be a certain reuse if it did. Keep the session; a later request tries again.
      postpone("the server could not be reached", null, false);
      return false;
    }
    const { data, error, response } = result;
    if (response.ok && data) {
      const next = fromPair(data);
      announce(session.refresh, next);
      adminSession.set(next);
      return true;
    }
    if (response.status === 401 || response.status === 400) {
      endAdmin("Your session has ended: sign in again.");
      return false;
    }
    // 429 (refresh shares the per-address limit with login), 5xx, anything else: keep the session.
    const message = (error as { message?: string } | undefined)?.message;
    postpone(`HTTP ${response.status}${message ? `: ${message}` : ""}`, retryAfterMs(response), true);
    return false;
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

export function endAdmin(notice?: string): void {
  adminSession.set(null);
  if (notice) sessionNotice.set(notice);
  if (!tenantSession.get()) location.hash = "#/login";
}

export async function logout(): Promise<void> {
  const session = adminSession.get();
  if (session) {
    try {
      await admin.POST("/admin/v1/logout", {});
    } catch {
      /* signing out locally is what matters */
    }
    announce(session.refresh, null);
  }
  adminSession.set(null);
  location.hash = "#/login";
}

let refreshTimer: ReturnType<typeof setTimeout> | undefined;
adminSession.subscribe(scheduleRefresh);
scheduleRefresh(adminSession.get());

/** On every new session state (login, new tokens, end): forget past failures, plan the next refresh. */
function scheduleRefresh(session: AdminSession | null): void {
  clearTimeout(refreshTimer);
  failures = 0;
  notBefore = 0;
  if (refreshTrouble.get() !== null) refreshTrouble.set(null);
  if (!session) return;
  // About a minute before expiry (half-way for short tokens), spread a little between tabs.
  const lifetime = session.accessExp - Date.now();
  const early = lifetime > 120_000 ? 60_000 + Math.random() * 20_000 : lifetime / 2;
  refreshTimer = setTimeout(() => void refreshAdmin(), Math.max(1000, lifetime - early));
}

function withBearer(request: Request, token: string | undefined): Request {
  const copy = new Request(request);
  if (token) copy.headers.set("Authorization", `Bearer ${token}`);
  return copy;
}

async function adminFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request && !init ? input : new Request(input, init);
  const session = adminSession.get();
  if (session && session.accessExp - Date.now() < 15_000) await refreshAdmin();
  const retry = request.clone();
  const used = adminSession.get()?.access;
  const first = await fetch(withBearer(request, used));
  if (first.status !== 401 || !adminSession.get()) return first;
  // Once: refresh (unless a call in parallel already has: its tokens serve), then replay the request;
  // a second 401 stands.
  if (adminSession.get()?.access === used && !(await refreshAdmin())) return first;
  const now = adminSession.get()?.access;
  if (!now || now === used) return first;
  return fetch(withBearer(retry, now));
}

/** The admin API (`/admin/v1`), as the signed-in operator. */
export const admin: CairnClient = createCairnClient({ baseUrl: BASE, fetch: adminFetch });

// ---------------------------------------------------------------------------------------------------
// Tenant: an API key pasted by the user (or handed over from the admin view)

/** The tenant API (`/api/v1`), with the key of the tenant view. */
export const tenant: CairnClient = createCairnClient({
  baseUrl: BASE,
  token: () => tenantSession.get()?.key,
});

export function openTenant(key: string, label: string, tenantId?: string): void {
  tenantSession.set({ key: key.trim(), label, tenantId });
}

export function forgetTenant(): void {
  tenantSession.set(null);
}

/** The message to show for a failure: the error envelope's message where there is one. */
export function messageOf(err: unknown): string {
  if (err instanceof CairnError) return `${err.message} (HTTP ${err.status})`;
  if (err instanceof Error) return err.message;
  return String(err);
}
