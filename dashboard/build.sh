#!/usr/bin/env bash
# Builds the dashboard into dist/ (index.html, app.js, app.css; committed, embedded by the Rust build).
#   ./build.sh            install the pinned tools if needed (npm ci) and rebuild dist/
#   ./build.sh --check    build into a temporary directory and fail, naming the files, if dist/ differs;
#                         never installs (other tests may be using node_modules at the same time)
#   ./build.sh --install  npm ci, only when package-lock.json changed since the last install (a quiet
#                         no-op otherwise)
# The install is stamped with package-lock.json's hash in node_modules/.cairn-package-lock.sha256.
set -euo pipefail
cd "$(dirname "$0")"

export NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false

STAMP=node_modules/.cairn-package-lock.sha256
FILES=(index.html app.js app.css)

lock_hash() { sha256sum package-lock.json | cut -d' ' -f1; }

installed() { [[ -x node_modules/.bin/esbuild && "$(cat "$STAMP" 2>/dev/null)" == "$(lock_hash)" ]]; }

install() {
  installed && return 0
  echo "dashboard: installing the pinned tools (npm ci)" >&2
  npm ci --prefer-offline --no-audit --no-fund --loglevel=error >&2
  lock_hash >"$STAMP"
}

case "${1:-}" in
  --install)
    install
    exit 0
    ;;
  --check)
    # The tools must be there (npm ci by hand leaves no stamp: fine); a stamp of another lock is stale.
    stamp="$(cat "$STAMP" 2>/dev/null || true)"
    if [[ ! -x node_modules/.bin/esbuild || (-n "$stamp" && "$stamp" != "$(lock_hash)") ]]; then
      echo "dashboard: run scripts/test.sh (or npm ci in dashboard/) first" >&2
      exit 1
    fi
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    node build.mjs "$tmp"
    stale=()
    for f in "${FILES[@]}"; do
      if ! cmp -s "$tmp/$f" "dist/$f"; then
        stale+=("dist/$f")
      fi
    done
    extra=$(find dist -type f 2>/dev/null | sed 's#^dist/##' | grep -vxF -e index.html -e app.js -e app.css || true)
    if [ -n "$extra" ]; then
      echo "dashboard: unexpected files in dist/: $extra" >&2
      exit 1
    fi
    if [ ${#stale[@]} -gt 0 ]; then
      echo "dashboard: dist is stale (rebuild with dashboard/build.sh and commit): ${stale[*]}" >&2
      exit 1
    fi
    echo "dashboard: dist is up to date (${FILES[*]})"
    exit 0
    ;;
  "") ;;
  *)
    sed -n '2,8p' "$(basename "$0")" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac

install
rm -rf dist
node build.mjs dist
for f in "${FILES[@]}"; do
  printf '%8d  dist/%s\n' "$(wc -c < "dist/$f")" "$f"
done
