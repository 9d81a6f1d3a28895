// The memory browser: a recall form (POST /api/v1/recall) and its results with their score components.
import { useEffect, useState } from "preact/hooks";
import { tenant, tenantSession, unwrap, type Schemas } from "../api.ts";
import { href } from "../router.ts";
import { Empty, Field, fmtScore, MEMORY_KINDS, MEMORY_TYPES, Page, SelectField, Time, truncate, useAction } from "../ui.tsx";

interface Form {
  query: string;
  mode: string;
  tags: string;
  tag_mode: string;
  type: string;
  memory_type: string;
  since: string;
  until: string;
  user_id: string;
  agent_id: string;
  run_id: string;
  sort: string;
  limit: string;
  include_archived: boolean;
}

const EMPTY: Form = {
  query: "",
  mode: "hybrid",
  tags: "",
  tag_mode: "any",
  type: "",
  memory_type: "",
  since: "",
  until: "",
  user_id: "",
  agent_id: "",
  run_id: "",
  sort: "",
  limit: "20",
  include_archived: false,
};

// Kept while the tab lives, so that coming back from a memory shows the same search.
let lastForm: Form = { ...EMPTY };
let lastResult: { params: Schemas["RecallParams"]; response: Schemas["RecallResponse"]; hits: Schemas["RecallHit"][] } | null = null;

// Another key is another tenant: forget the last search.
tenantSession.subscribe(() => {
  lastForm = { ...EMPTY };
  lastResult = null;
});

function toParams(f: Form): Schemas["RecallParams"] {
  const p: Schemas["RecallParams"] = { limit: Number(f.limit) || 20, tags: [], types: [], exclude_tags: [] };
  const s = (v: string) => v.trim() || undefined;
  if (s(f.query)) p.query = f.query.trim();
  p.mode = f.mode as Schemas["RecallParams"]["mode"];
  const tags = f.tags
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  if (tags.length) {
    p.tags = tags;
    p.tag_mode = f.tag_mode as Schemas["RecallParams"]["tag_mode"];
  }
  if (f.type) p.types = [f.type];
  if (f.memory_type) p.memory_type = f.memory_type as Schemas["RecallParams"]["memory_type"];
  if (s(f.since)) p.since = f.since.trim();
  if (s(f.until)) p.until = f.until.trim();
  if (s(f.user_id)) p.user_id = f.user_id.trim();
  if (s(f.agent_id)) p.agent_id = f.agent_id.trim();
  if (s(f.run_id)) p.run_id = f.run_id.trim();
  if (f.sort) p.sort = f.sort as Schemas["RecallParams"]["sort"];
  if (f.include_archived) p.include_archived = true;
  return p;
}

const COMPONENTS: [keyof Schemas["ScoreComponents"], string][] = [
  ["relevance", "relevance"],
  ["semantic", "semantic"],
  ["keyword", "keyword"],
  ["coverage", "coverage"],
  ["rerank", "rerank"],
  ["importance", "importance"],
  ["recency", "recency"],
  ["confidence", "confidence"],
  ["credibility", "credibility"],
  ["tag_match", "tag match"],
  ["time_match", "time match"],
  ["quality", "quality"],
  ["neighbour", "neighbour"],
  ["question", "question share (lowers)"],
  ["speaker", "named speaker (raises)"],
];

export function ScoreComponents(props: { components: Schemas["ScoreComponents"] }) {
  const present = COMPONENTS.filter(([k]) => typeof props.components[k] === "number");
  return (
    <dl class="components" aria-label="Score components">
      {present.map(([k, label]) => {
        const v = props.components[k] as number;
        return (
          <div key={k} class="component">
            <dt>{label}</dt>
            <dd>
              <span class="component-bar" aria-hidden="true">
                <svg viewBox="0 0 40 6" width="40" height="6">
                  <rect x="0" y="0" width="40" height="6" class="meter-track" />
                  <rect x="0" y="0" width={Math.max(0, Math.min(1, v)) * 40} height="6" class="meter-fill" />
                </svg>
              </span>
              {fmtScore(v)}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

export function MemoriesPage() {
  const [form, setForm] = useState<Form>(lastForm);
  const [result, setResult] = useState(lastResult);
  const [ready, setReady] = useState(false);
  // Open at first when the kept search has filters; then the user's to toggle.
  const [filtersOpen] = useState(() =>
    Boolean(form.tags || form.type || form.memory_type || form.since || form.until || form.user_id || form.agent_id || form.run_id),
  );

  const [search, searching] = useAction(async (more?: boolean) => {
    const params = more && result ? { ...result.params, offset: (result.params.offset ?? 0) + result.hits.length } : toParams(form);
    const response = await unwrap(tenant.POST("/api/v1/recall", { body: params }));
    const hits = more && result ? [...result.hits, ...response.results] : response.results;
    const next = { params: more && result ? result.params : params, response, hits };
    lastResult = next;
    lastForm = form;
    setResult(next);
    setReady(true);
  });

  // On arrival: the last search again (fresh), or the latest memories (no query: filters and ordering).
  useEffect(() => {
    void search().finally(() => setReady(true));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const put = (k: keyof Form) => (value: string) => setForm({ ...form, [k]: value });
  const set = (k: keyof Form) => (e: { currentTarget: HTMLInputElement }) => put(k)(e.currentTarget.value);

  return (
    <Page id="memories" title="Memories" ready={ready && !searching}>
      <form
        class="card search"
        role="search"
        aria-label="Recall memories"
        onSubmit={(e) => {
          e.preventDefault();
          void search();
        }}
      >
        <div class="search-row">
          <Field label="Search" class="grow">
            {(id) => (
              <input
                id={id}
                type="search"
                value={form.query}
                maxLength={1000}
                placeholder="What are you looking for?"
                onInput={set("query")}
                data-testid="search-query"
              />
            )}
          </Field>
          <SelectField
            label="Mode"
            value={form.mode}
            options={["hybrid", "semantic", "keyword", "associative"]}
            onChange={put("mode")}
            testid="search-mode"
          />
          <button type="submit" class="primary" disabled={searching} data-testid="search-submit">
            Search
          </button>
        </div>
        <details open={filtersOpen}>
          <summary>Filters</summary>
          <div class="filters">
            <Field label="Tags" hint="comma-separated">
              {(id, hint) => <input id={id} aria-describedby={hint} value={form.tags} onInput={set("tags")} data-testid="search-tags" />}
            </Field>
            <SelectField label="Tag mode" value={form.tag_mode} options={["any", "all"]} onChange={put("tag_mode")} />
            <SelectField label="Type" value={form.type} options={[["", "any"], ...MEMORY_TYPES]} onChange={put("type")} testid="search-type" />
            <SelectField label="Memory type" value={form.memory_type} options={[["", "any"], ...MEMORY_KINDS]} onChange={put("memory_type")} />
            <Field label="Since" hint="a time phrase (“last week”) or ISO 8601">
              {(id, hint) => <input id={id} aria-describedby={hint} value={form.since} onInput={set("since")} data-testid="search-since" />}
            </Field>
            <Field label="Until" hint="inclusive of a named day or period">
              {(id, hint) => <input id={id} aria-describedby={hint} value={form.until} onInput={set("until")} />}
            </Field>
            <Field label="User id">{(id) => <input id={id} value={form.user_id} onInput={set("user_id")} data-testid="search-user" />}</Field>
            <Field label="Agent id">{(id) => <input id={id} value={form.agent_id} onInput={set("agent_id")} />}</Field>
            <Field label="Run id">{(id) => <input id={id} value={form.run_id} onInput={set("run_id")} />}</Field>
            <SelectField
              label="Order"
              value={form.sort}
              options={[
                ["", "default"],
                "score",
                ["time_desc", "newest first"],
                ["time_asc", "oldest first"],
              ]}
              onChange={put("sort")}
            />
            <SelectField label="Results" value={form.limit} options={["10", "20", "50", "100"]} onChange={put("limit")} />
            <label class="check">
              <input
                type="checkbox"
                checked={form.include_archived}
                onChange={(e) => setForm({ ...form, include_archived: e.currentTarget.checked })}
              />
              Include archived and expired
            </label>
          </div>
        </details>
      </form>

      {result && (
        <section aria-labelledby="results-h">
          <h2 id="results-h" class="results-head">
            {result.hits.length} result{result.hits.length === 1 ? "" : "s"}
            <span class="muted"> · mode {result.response.mode}</span>
          </h2>
          {result.response.notice && (
            <p class="notice" data-testid="recall-notice">
              {result.response.notice}
            </p>
          )}
          {result.hits.length === 0 ? (
            <Empty>Nothing matched.</Empty>
          ) : (
            <ol class="results" data-testid="results">
              {result.hits.map((hit) => (
                <li key={hit.memory.id} class="result" data-memory-id={hit.memory.id}>
                  <div class="result-main">
                    <a href={href("memory", hit.memory.id)} class="result-content" data-testid="result-link">
                      {truncate(hit.memory.content, 280)}
                    </a>
                    <p class="result-meta">
                      <span class="badge">{hit.memory.type}</span>
                      {hit.memory.memory_type === "short_term" && <span class="badge">short-term</span>}
                      {hit.memory.archived_at && <span class="badge badge-archived">archived</span>}
                      {hit.memory.tags.map((t) => (
                        <span key={t} class="tag">
                          {t}
                        </span>
                      ))}
                      <Time iso={hit.memory.created_at} />
                      {hit.memory.user_id && <span>user {hit.memory.user_id}</span>}
                      <a href={href("graph", hit.memory.id)} aria-label={`Graph of ${truncate(hit.memory.content, 40)}`}>
                        graph
                      </a>
                    </p>
                  </div>
                  <div class="result-score">
                    <div class="score" title="Overall score">
                      <span class="visually-hidden">Score </span>
                      {fmtScore(hit.score)}
                    </div>
                    <div class="muted small">{hit.match_type}</div>
                    <ScoreComponents components={hit.score_components} />
                  </div>
                </li>
              ))}
            </ol>
          )}
          {result.response.has_more && (
            <button type="button" onClick={() => void search(true)} disabled={searching}>
              More results
            </button>
          )}
        </section>
      )}
    </Page>
  );
}
