// A development server standing in for the binary: serves the built dashboard under /dashboard (with
// the binary's Content-Security-Policy) and proxies every other path to a running Cairn.
//
//   CAIRN_UPSTREAM=http://127.0.0.1:4700 PORT=4701 node dev-server.mjs
//
// Listens on 127.0.0.1 only. Rebuild dist/ (./build.sh) to see source changes; files are read per request.
import { readFile } from "node:fs/promises";
import http from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dist = process.env.DASHBOARD_DIST ?? join(here, "dist");
const upstream = new URL(process.env.CAIRN_UPSTREAM ?? "http://127.0.0.1:4700");
const port = Number(process.env.PORT ?? 4701);
const host = process.env.HOST ?? "127.0.0.1";

if (!["127.0.0.1", "localhost", "[::1]", "::1"].includes(upstream.hostname)) {
  console.error(`dev-server: CAIRN_UPSTREAM must be on loopback, not ${upstream.hostname}`);
  process.exit(2);
}

// Exactly the binary's (src/api/dashboard.rs).
export const CSP =
  "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const FILES = {
  "/dashboard": ["index.html", "text/html; charset=utf-8"],
  "/dashboard/": ["index.html", "text/html; charset=utf-8"],
  "/dashboard/index.html": ["index.html", "text/html; charset=utf-8"],
  "/dashboard/app.js": ["app.js", "text/javascript; charset=utf-8"],
  "/dashboard/app.css": ["app.css", "text/css; charset=utf-8"],
};

async function serveAsset(req, res, path) {
  const entry = FILES[path];
  if (!entry || (req.method !== "GET" && req.method !== "HEAD")) {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ status: "error", code: 404, message: `no such dashboard file: ${path}` }));
    return;
  }
  const [file, type] = entry;
  try {
    const body = await readFile(join(dist, file));
    res.writeHead(200, {
      "content-type": type,
      "content-length": body.length,
      "content-security-policy": CSP,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cache-control": "no-cache",
    });
    res.end(req.method === "HEAD" ? undefined : body);
  } catch (err) {
    res.writeHead(500, { "content-type": "text/plain" });
    res.end(`dashboard not built (${err.code ?? err}); run dashboard/build.sh`);
  }
}

function proxy(req, res) {
  const headers = { ...req.headers, host: upstream.host };
  const out = http.request(
    {
      protocol: upstream.protocol,
      hostname: upstream.hostname.replace(/^\[|\]$/g, ""),
      port: upstream.port || 80,
      method: req.method,
      path: req.url,
      headers,
    },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  out.on("error", (err) => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
    res.end(JSON.stringify({ status: "error", code: 502, message: `dev-server: upstream ${upstream.origin}: ${err.message}` }));
  });
  req.pipe(out);
}

const server = http.createServer((req, res) => {
  const path = new URL(req.url ?? "/", "http://x").pathname;
  if (path === "/dashboard" || path.startsWith("/dashboard/")) void serveAsset(req, res, path);
  else proxy(req, res);
});

server.listen(port, host, () => {
  console.log(`dev-server: http://${host}:${port}/dashboard/ (API proxied to ${upstream.origin})`);
});

for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
