// Proves the TypeScript SDK (sdk/typescript, built to dist/ by `sdk/generate.sh --install`) usable against
// a running Cairn. Every call goes through createCairnClient and unwrap; every answer is checked.
// Input by environment: CAIRN_URL (e.g. http://127.0.0.1:4545), CAIRN_ADMIN_EMAIL, CAIRN_ADMIN_PASSWORD.
// The script signs in as that operator, creates a tenant and a key for it, exercises the memory API with
// the key, and deletes the tenant again (also when a step fails). One line per step; exit 1 naming the
// step that failed.
//
//   node sdk/tests/live.mjs
import { randomUUID } from "node:crypto";

let sdk;
try {
  sdk = await import("../typescript/dist/index.js");
} catch (error) {
  console.error(`FAIL setup: cannot import sdk/typescript/dist/index.js (${error.message}); run sdk/generate.sh --install`);
  process.exit(1);
}
const { createCairnClient, unwrap, CairnError } = sdk;

class StepFailed extends Error {}

let step = "setup";
const fail = (why) => {
  throw new StepFailed(`${step}: ${why}`);
};
const check = (condition, why) => {
  if (!condition) fail(why);
};
const ok = (detail) => console.log(`ok   ${step}: ${detail}`);
const near = (a, b) => Math.abs(a - b) < 1e-6;
const sameSet = (a, b) => a.length === b.length && [...a].every((x) => b.includes(x));

/** The CairnError a call should have failed with, checked against `status` and the error envelope. */
async function expectError(call, status) {
  try {
    const data = await unwrap(call);
    fail(`expected HTTP ${status}, got a success: ${JSON.stringify(data).slice(0, 300)}`);
  } catch (error) {
    if (error instanceof StepFailed) throw error;
    if (!(error instanceof CairnError)) fail(`expected a CairnError, got ${error}`);
    check(error.status === status, `expected HTTP ${status}, got ${error.status}: ${JSON.stringify(error.body)}`);
    check(error.code === status, `envelope code ${error.code}, not ${status}`);
    check(error.body?.status === "error", `envelope status ${JSON.stringify(error.body?.status)}, not "error"`);
    check(typeof error.message === "string" && error.message.length > 0, "envelope message is empty");
    return error;
  }
}

/** What went wrong in the current step: a failed check, an unexpected error answer, or an exception. */
function describe(error) {
  if (error instanceof StepFailed) return error.message;
  if (error instanceof CairnError) {
    return `${step}: unexpected HTTP ${error.status} (code ${error.code}): ${error.message}`;
  }
  return `${step}: unexpected exception: ${error?.stack ?? error}`;
}

function env(name) {
  const value = process.env[name];
  if (!value) {
    console.error(`FAIL setup: ${name} is not set (need CAIRN_URL, CAIRN_ADMIN_EMAIL, CAIRN_ADMIN_PASSWORD)`);
    process.exit(1);
  }
  return value;
}

const baseUrl = env("CAIRN_URL");
const email = env("CAIRN_ADMIN_EMAIL");
const password = env("CAIRN_ADMIN_PASSWORD");
const run = randomUUID().replaceAll("-", "").slice(0, 12);

let admin;
let tenant;
let failed;

try {
  // a. The operator: sign in, create a tenant, issue it a key.
  step = "admin login";
  const tokens = await unwrap(
    createCairnClient({ baseUrl }).POST("/admin/v1/login", { body: { email, password } }),
  );
  check(tokens.access_token && tokens.token_type === "Bearer", `token_type ${tokens.token_type}`);
  check(tokens.admin.email.toLowerCase() === email.toLowerCase(), `signed in as ${tokens.admin.email}`);
  ok(`access token for ${tokens.admin.email}, expires in ${tokens.expires_in}s`);
  admin = createCairnClient({ baseUrl, token: tokens.access_token });

  step = "create tenant";
  const name = `sdk-live-ts-${run}`;
  tenant = await unwrap(admin.POST("/admin/v1/tenants", { body: { name } }));
  check(tenant.name === name, `name ${tenant.name}, not ${name}`);
  check(tenant.status === "active", `status ${tenant.status}, not active`);
  ok(`${tenant.name} (${tenant.id}), plan ${tenant.plan}`);

  step = "issue tenant key";
  const created = await unwrap(
    admin.POST("/admin/v1/tenants/{id}/keys", {
      params: { path: { id: tenant.id } },
      body: { scopes: ["read", "write"], name: "sdk live check" },
    }),
  );
  check(created.api_key.startsWith("cairn_"), "the secret does not start with cairn_");
  check(created.key.tenant_id === tenant.id, `key of tenant ${created.key.tenant_id}`);
  check(["read", "write"].every((s) => created.key.scopes.includes(s)), `scopes ${created.key.scopes}`);
  ok(`key ${created.key.prefix} with scopes ${created.key.scopes.join(",")}`);

  await tenantSteps(createCairnClient({ baseUrl, token: created.api_key }));
} catch (error) {
  failed = describe(error);
}

// c. Clean up, whatever happened above.
if (admin && tenant) {
  step = "delete tenant";
  try {
    const deleted = await unwrap(admin.DELETE("/admin/v1/tenants/{id}", { params: { path: { id: tenant.id } } }));
    check(["deleting", "deleted"].includes(deleted.status), `status ${deleted.status}`);
    ok(`${deleted.name} is ${deleted.status}`);
  } catch (error) {
    failed ??= describe(error);
  }
}

if (failed) {
  console.error(`FAIL ${failed}`);
  process.exit(1);
}
console.log("live.mjs: every step passed");

async function tenantSteps(api) {
  // b. The tenant's key: store, batch, recall, associate, traverse, update, get, delete, page, errors.
  step = "store memory";
  const content = `Chose PostgreSQL over MongoDB for run ${run}: we need ACID transactions`;
  const stored = await unwrap(
    api.POST("/api/v1/memories", {
      body: {
        content,
        tags: ["sdk-live", "database"],
        type: "Decision",
        importance: 0.8,
        metadata: { source: "live.mjs", run },
      },
    }),
  );
  check(stored.content === content, `content ${stored.content}`);
  check(sameSet(stored.tags, ["sdk-live", "database"]), `tags ${stored.tags}`);
  check(stored.type === "Decision", `type ${stored.type}`);
  check(near(stored.importance, 0.8), `importance ${stored.importance}`);
  check(stored.metadata.source === "live.mjs" && stored.metadata.run === run, `metadata ${JSON.stringify(stored.metadata)}`);
  ok(`${stored.id} type=${stored.type} tags=${[...stored.tags].sort()} importance=${stored.importance}`);

  step = "batch store";
  const batch = await unwrap(
    api.POST("/api/v1/memories/batch", {
      body: {
        memories: [
          // Mentions PostgreSQL too, but is tagged and typed otherwise: recall's filters leave it out.
          { content: `PostgreSQL vacuum runs nightly at two for run ${run}`, tags: ["sdk-live", "ops"], type: "Context", importance: 0.4 },
          { content: `Redis is the session cache for run ${run}`, tags: ["sdk-live", "cache"], type: "Context" },
          { content: `Deploys go out on Tuesdays for run ${run}`, tags: ["sdk-live", "process"], type: "Habit" },
        ],
      },
    }),
  );
  check(batch.stored === 3 && batch.memory_ids.length === 3, `stored ${batch.stored}, ids ${batch.memory_ids}`);
  check(batch.memories.map((m) => m.id).join() === batch.memory_ids.join(), "memories are not in memory_ids' order");
  const [vacuumId, redisId, deploysId] = batch.memory_ids;
  ok(`${batch.stored} memories: ${batch.memory_ids.join(", ")}`);

  step = "recall with filters";
  const recalled = await unwrap(
    api.POST("/api/v1/recall", {
      body: { query: "PostgreSQL", mode: "keyword", tags: ["database"], types: ["Decision"] },
    }),
  );
  const found = recalled.results.map((hit) => hit.memory.id);
  check(found.includes(stored.id), `the stored memory ${stored.id} is not among ${found}`);
  check(!found.includes(vacuumId), `the memory tagged ops (${vacuumId}) passed the tags/types filter`);
  const unfiltered = await unwrap(api.POST("/api/v1/recall", { body: { query: "PostgreSQL", mode: "keyword" } }));
  const unfilteredIds = unfiltered.results.map((hit) => hit.memory.id);
  check(unfilteredIds.includes(stored.id) && unfilteredIds.includes(vacuumId), `unfiltered recall found ${unfilteredIds}`);
  ok(`mode=${recalled.mode}: tags+types found ${found.length} (${stored.id}), without filters ${unfilteredIds.length}`);

  step = "associate";
  const { association } = await unwrap(
    api.POST("/api/v1/associations", {
      body: { memory1_id: stored.id, memory2_id: redisId, type: "RELATES_TO", strength: 0.7 },
    }),
  );
  check(association.memory1_id === stored.id && association.memory2_id === redisId, "wrong endpoints");
  check(association.type === "RELATES_TO", `type ${association.type}`);
  check(near(association.strength, 0.7), `strength ${association.strength}`);
  ok(`${association.id}: ${stored.id} RELATES_TO ${redisId} (${association.strength})`);

  step = "traverse related";
  const related = await unwrap(
    api.GET("/api/v1/memories/{id}/related", { params: { path: { id: stored.id }, query: { depth: 1 } } }),
  );
  check(related.memory_id === stored.id, `memory_id ${related.memory_id}`);
  const reached = related.related.find((r) => r.memory.id === redisId);
  check(reached, `${redisId} not among ${related.related.map((r) => r.memory.id)}`);
  check(reached.depth === 1, `depth ${reached.depth}`);
  check(reached.path.length === 1 && reached.path[0].association_id === association.id, "path");
  ok(`${related.count} related: ${redisId} at depth 1 over ${association.id}`);

  step = "update memory";
  const updated = await unwrap(
    api.PATCH("/api/v1/memories/{id}", {
      params: { path: { id: stored.id } },
      body: { importance: 0.3, tags: ["sdk-live", "database", "updated"] },
    }),
  );
  check(near(updated.importance, 0.3), `importance ${updated.importance}`);
  check(updated.tags.includes("updated"), `tags ${updated.tags}`);
  ok(`importance 0.8 -> ${updated.importance}, tags ${[...updated.tags].sort()}`);

  step = "get memory";
  const got = await unwrap(api.GET("/api/v1/memories/{id}", { params: { path: { id: stored.id } } }));
  check(near(got.importance, 0.3), `importance ${got.importance}, the update was not kept`);
  check(sameSet(got.tags, ["sdk-live", "database", "updated"]), `tags ${got.tags}`);
  check(got.content === content, `content ${got.content}`);
  ok(`${got.id} importance=${got.importance} tags=${[...got.tags].sort()}`);

  step = "delete memory";
  const deleted = await unwrap(
    api.DELETE("/api/v1/memories/{id}", { params: { path: { id: deploysId }, query: { hard: true } } }),
  );
  check(deleted.deleted && deleted.hard && deleted.id === deploysId, `answer ${JSON.stringify(deleted)}`);
  await expectError(api.GET("/api/v1/memories/{id}", { params: { path: { id: deploysId } } }), 404);
  ok(`${deploysId} deleted (hard=${deleted.hard}); GET answers 404`);

  step = "page listing";
  const remaining = [stored.id, vacuumId, redisId];
  const first = await unwrap(api.GET("/api/v1/memories", { params: { query: { limit: 2, offset: 0 } } }));
  const second = await unwrap(api.GET("/api/v1/memories", { params: { query: { limit: 2, offset: 2 } } }));
  const firstIds = first.memories.map((m) => m.id);
  const secondIds = second.memories.map((m) => m.id);
  check(first.total === 3 && second.total === 3, `total ${first.total}/${second.total}, not 3`);
  check(first.count === 2 && first.has_more, `page 1: count ${first.count}, has_more ${first.has_more}`);
  check(second.count === 1 && !second.has_more, `page 2: count ${second.count}, has_more ${second.has_more}`);
  check(!firstIds.some((id) => secondIds.includes(id)), `pages overlap: ${firstIds} / ${secondIds}`);
  check(sameSet([...firstIds, ...secondIds], remaining), "the pages are not the remaining memories");
  ok(`total=${first.total}: offset 0 -> ${first.count} (has_more), offset 2 -> ${second.count} (last)`);

  step = "404 error envelope";
  const missing = randomUUID();
  let error = await expectError(api.GET("/api/v1/memories/{id}", { params: { path: { id: missing } } }), 404);
  ok(`GET ${missing}: CairnError status=${error.status} code=${error.code} message=${JSON.stringify(error.message)}`);

  step = "400 error envelope";
  error = await expectError(api.POST("/api/v1/memories", { body: { content: "", tags: ["sdk-live"] } }), 400);
  check(error.message.includes("content"), `the message does not name the field content: ${error.message}`);
  ok(`empty content: CairnError status=${error.status} code=${error.code} message=${JSON.stringify(error.message)}`);
}
