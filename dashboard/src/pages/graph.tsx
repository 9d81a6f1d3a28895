// A memory's associations (GET /api/v1/memories/{id}/related), 1–3 hops, drawn as a radial graph in
// inline SVG: the memory in the middle, one ring per hop, edges labelled with type and strength.
import { useState } from "preact/hooks";
import { tenant, unwrap, type Schemas } from "../api.ts";
import { href } from "../router.ts";
import { Empty, Field, fmtScore, Loading, Page, SelectField, Table, truncate, useLoad } from "../ui.tsx";

const W = 900;
const H = 620;
const PALETTE = ["#1f6feb", "#b35900", "#1a7f37", "#a40e26", "#8250df", "#0a7d8c", "#9a6700", "#bf3989", "#57606a"];

function colorOf(type: string, types: string[]): string {
  const i = types.indexOf(type);
  return PALETTE[(i < 0 ? 0 : i) % PALETTE.length]!;
}

interface Node {
  id: string;
  content: string;
  depth: number;
  x: number;
  y: number;
  strength: number;
}

interface Edge {
  id: string;
  from: string;
  to: string;
  type: string;
  strength: number;
}

export function layout(center: { id: string; content: string }, related: Schemas["RelatedMemory"][]): { nodes: Node[]; edges: Edge[] } {
  const cx = W / 2;
  const cy = H / 2;
  const maxDepth = Math.max(1, ...related.map((r) => r.depth));
  const ring = (Math.min(W, H) / 2 - 40) / maxDepth;
  const nodes = new Map<string, Node>();
  nodes.set(center.id, { id: center.id, content: center.content, depth: 0, x: cx, y: cy, strength: 1 });
  const angle = new Map<string, number>([[center.id, -Math.PI / 2]]);
  for (let d = 1; d <= maxDepth; d++) {
    const level = related.filter((r) => r.depth === d);
    // Keep children near their parents: order by the parent's angle.
    const parentAngle = (r: Schemas["RelatedMemory"]) => {
      const last = r.path[r.path.length - 1];
      const parent = last ? (last.from === r.memory.id ? last.to : last.from) : center.id;
      return angle.get(parent) ?? 0;
    };
    level.sort((a, b) => parentAngle(a) - parentAngle(b) || b.path_strength - a.path_strength);
    const first = level[0];
    const offset = d === 1 || !first ? -Math.PI / 2 : parentAngle(first);
    level.forEach((r, i) => {
      const a = offset + (2 * Math.PI * i) / Math.max(1, level.length);
      angle.set(r.memory.id, a);
      const radius = ring * d * (level.length > 14 && i % 2 ? 0.88 : 1);
      nodes.set(r.memory.id, {
        id: r.memory.id,
        content: r.memory.content,
        depth: d,
        x: cx + radius * Math.cos(a),
        y: cy + radius * Math.sin(a),
        strength: r.path_strength,
      });
    });
  }
  const edges = new Map<string, Edge>();
  for (const r of related) {
    for (const step of r.path) {
      if (!edges.has(step.association_id) && nodes.has(step.from) && nodes.has(step.to)) {
        edges.set(step.association_id, { id: step.association_id, from: step.from, to: step.to, type: step.type, strength: step.strength });
      }
    }
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

export function GraphPage(props: { id: string; query: URLSearchParams }) {
  const id = props.id;
  const [depth, setDepth] = useState(Number(props.query.get("depth")) || 1);
  const [minStrength, setMinStrength] = useState("0");
  const [types, setTypes] = useState("");
  const [limit, setLimit] = useState("50");
  const [applied, setApplied] = useState({ minStrength: "0", types: "", limit: "50" });
  const center = useLoad(() => unwrap(tenant.GET("/api/v1/memories/{id}", { params: { path: { id }, query: { touch: false } } })), [id]);
  const related = useLoad(() => {
    const typeList = applied.types
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
    return unwrap(
      tenant.GET("/api/v1/memories/{id}/related", {
        params: {
          path: { id },
          query: {
            depth,
            limit: Number(applied.limit),
            min_strength: Number(applied.minStrength) || 0,
            ...(typeList.length ? { types: typeList } : {}),
          },
        },
      }),
    );
  }, [id, depth, applied]);

  const c = center.data;
  const rel = related.data?.related ?? [];
  const graph = c ? layout({ id: c.id, content: c.content }, rel) : null;
  const edgeTypes = graph ? [...new Set(graph.edges.map((e) => e.type))].sort() : [];
  const labels = graph ? graph.nodes.length <= 40 : false;
  const byId = new Map(graph?.nodes.map((n) => [n.id, n]) ?? []);

  return (
    <Page id="graph" title="Associations" ready={!center.loading && !related.loading}>
      <p>
        <a href={href("memory", id)}>← Memory</a>
      </p>
      <form
        class="inline-form card"
        aria-label="Traversal"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ minStrength, types, limit });
        }}
      >
        <SelectField label="Depth (hops)" value={String(depth)} options={["1", "2", "3"]} onChange={(v) => setDepth(Number(v))} testid="graph-depth" />
        <Field label="Minimum strength">
          {(fid) => <input id={fid} type="number" min={0} max={1} step={0.05} value={minStrength} onInput={(e) => setMinStrength(e.currentTarget.value)} class="narrow" />}
        </Field>
        <Field label="Edge types" hint="comma-separated; empty: all">
          {(fid, hint) => <input id={fid} aria-describedby={hint} value={types} onInput={(e) => setTypes(e.currentTarget.value)} />}
        </Field>
        <SelectField label="Most memories" value={limit} options={["25", "50", "100", "200"]} onChange={setLimit} />
        <button type="submit">Apply</button>
      </form>

      {!graph ? (
        center.loading ? <Loading what="memory" /> : null
      ) : (
        <>
          <p class="muted" data-testid="graph-summary">
            {rel.length} related memor{rel.length === 1 ? "y" : "ies"} within {depth} hop{depth === 1 ? "" : "s"}
            {related.loading ? " (loading…)" : ""}
          </p>
          <div class="graph-wrap card">
            <svg
              viewBox={`0 0 ${W} ${H}`}
              class="graph"
              role="group"
              aria-label={`Association graph of the memory, ${graph.nodes.length - 1} related memories`}
              data-testid="graph-svg"
            >
              {depth >= 1 &&
                [1, 2, 3]
                  .filter((d) => d <= Math.max(...graph.nodes.map((n) => n.depth)))
                  .map((d) => {
                    const n = graph.nodes.find((x) => x.depth === d);
                    const r = n ? Math.hypot(n.x - W / 2, n.y - H / 2) : 0;
                    return <circle key={d} cx={W / 2} cy={H / 2} r={r} class="ring" />;
                  })}
              <g class="edges">
                {graph.edges.map((e) => {
                  const a = byId.get(e.from)!;
                  const b = byId.get(e.to)!;
                  const color = colorOf(e.type, edgeTypes);
                  return (
                    <g key={e.id} class="edge" data-edge-type={e.type}>
                      <line
                        x1={a.x}
                        y1={a.y}
                        x2={b.x}
                        y2={b.y}
                        stroke={color}
                        stroke-width={1 + 4 * e.strength}
                        stroke-opacity={0.35 + 0.55 * e.strength}
                        marker-end="url(#arrow)"
                      >
                        <title>{`${e.type} ${e.strength.toFixed(2)}`}</title>
                      </line>
                      {labels && (
                        <text x={(a.x + b.x) / 2} y={(a.y + b.y) / 2 - 4} class="edge-label" fill={color} text-anchor="middle">
                          {e.type} {e.strength.toFixed(2)}
                        </text>
                      )}
                    </g>
                  );
                })}
              </g>
              <g class="nodes">
                {graph.nodes.map((n) => {
                  const shown = labels || n.depth === 0;
                  const visible = truncate(n.content, 28);
                  const where = n.depth === 0 ? "this memory" : `${n.depth} hop${n.depth === 1 ? "" : "s"} away`;
                  // The accessible name starts with the visible label (WCAG 2.5.3).
                  const name = `${shown ? `${visible}, ` : ""}${where}: ${truncate(n.content, 120)}`;
                  return (
                  <a key={n.id} href={n.depth === 0 ? href("memory", n.id) : href("graph", n.id)} aria-label={name} data-node-id={n.id} class="node-link">
                    <circle cx={n.x} cy={n.y} r={n.depth === 0 ? 14 : 9} class={n.depth === 0 ? "node node-center" : `node node-d${n.depth}`}>
                      <title>{n.content}</title>
                    </circle>
                    {shown && (
                      <text x={n.x} y={n.y + (n.depth === 0 ? 30 : 22)} text-anchor="middle" class="node-label">
                        {visible}
                      </text>
                    )}
                  </a>
                  );
                })}
              </g>
              <defs>
                <marker id="arrow" viewBox="0 0 10 10" refX="18" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                  <path d="M 0 0 L 10 5 L 0 10 z" class="arrow" />
                </marker>
              </defs>
            </svg>
            {edgeTypes.length > 0 && (
              <ul class="legend" aria-label="Edge types">
                {edgeTypes.map((t) => (
                  <li key={t}>
                    <svg width="18" height="8" aria-hidden="true">
                      <line x1="0" y1="4" x2="18" y2="4" stroke={colorOf(t, edgeTypes)} stroke-width="3" />
                    </svg>
                    {t} ({graph.edges.filter((e) => e.type === t).length})
                  </li>
                ))}
              </ul>
            )}
          </div>
          {rel.length === 0 && !related.loading ? (
            <Empty>No associations{Number(applied.minStrength) > 0 ? " at this strength" : ""}.</Empty>
          ) : (
            <Table
              testid="related-table"
              caption="Related memories, strongest path first"
              captionShown
              columns={["Memory", ["Hops", "num"], ["Path strength", "num"], "Path"]}
            >
              {rel.map((r) => (
                <tr key={r.memory.id} data-memory-id={r.memory.id}>
                  <td>
                    <a href={href("memory", r.memory.id)}>{truncate(r.memory.content, 120)}</a>
                  </td>
                  <td class="num">{r.depth}</td>
                  <td class="num">{fmtScore(r.path_strength)}</td>
                  <td>
                    {r.path.map((s, i) => (
                      <span key={s.association_id}>
                        {i > 0 ? " → " : ""}
                        <span class="edge-chip" title={`${s.from} → ${s.to}`}>
                          {s.type} {s.strength.toFixed(2)}
                        </span>
                      </span>
                    ))}
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </>
      )}
    </Page>
  );
}
