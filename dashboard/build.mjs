// Builds dist/index.html, dist/app.js and dist/app.css from src/ (deterministically: same sources and
// pinned esbuild, same bytes). Usage: node build.mjs OUTDIR
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = resolve(process.argv[2] ?? join(here, "dist"));
mkdirSync(out, { recursive: true });

const common = {
  bundle: true,
  minify: true,
  legalComments: "none",
  sourcemap: false,
  logLevel: "warning",
  absWorkingDir: here,
  charset: "utf8",
};

await build({
  ...common,
  entryPoints: ["src/main.tsx"],
  outfile: join(out, "app.js"),
  format: "iife",
  platform: "browser",
  target: ["es2020", "chrome100", "firefox100", "safari15"],
  jsx: "automatic",
  jsxImportSource: "preact",
  // The SDK's source imports openapi-fetch; bundle the dashboard's pinned copy, whatever sdk/ has installed.
  alias: { "openapi-fetch": "./node_modules/openapi-fetch" },
  define: { "process.env.NODE_ENV": '"production"' },
});

await build({
  ...common,
  entryPoints: ["src/app.css"],
  outfile: join(out, "app.css"),
  loader: { ".css": "css" },
  target: ["chrome100", "firefox100", "safari15"],
});

copyFileSync(join(here, "src/index.html"), join(out, "index.html"));
