#!/usr/bin/env bash
# Run every test: prepares the machine (scripts/setup.sh), then `cargo test --locked`. Arguments go to cargo,
# e.g. `scripts/test.sh --test api -- recall`. The tests create their own databases from DATABASE_URL, so it must
# name a superuser (the default from setup.sh does); each database is owned by the non-superuser cairn_owner,
# which the server's migrations and control plane run as, as in production.
set -euo pipefail

start=$SECONDS
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

# sqlx's query! macros talk to DATABASE_URL at compile time unless told to use the committed .sqlx/ data.
if [[ -d .sqlx ]]; then
  export SQLX_OFFLINE="${SQLX_OFFLINE:-true}"
fi

# schemathesis fuzzes the live API from its OpenAPI document (tests/api/fuzz.rs): a pinned version in a venv
# under the cache, installed once from PyPI.
CAIRN_SCHEMATHESIS_VERSION="${CAIRN_SCHEMATHESIS_VERSION:-4.32.5}"
fuzz_venv="$HOME/.cache/cairn/fuzz-venv"
if ! "$fuzz_venv/bin/schemathesis" --version 2>/dev/null | grep -qF "$CAIRN_SCHEMATHESIS_VERSION"; then
  printf '[test] installing schemathesis %s into %s\n' "$CAIRN_SCHEMATHESIS_VERSION" "$fuzz_venv" >&2
  python3 -m venv "$fuzz_venv"
  "$fuzz_venv/bin/pip" install -q "schemathesis==$CAIRN_SCHEMATHESIS_VERSION" >&2
fi
export CAIRN_SCHEMATHESIS="$fuzz_venv/bin/schemathesis"

# The generated SDKs' tools (pinned, installed once into $HOME/.cache/cairn/sdk-venv and node_modules), the
# Python SDK installed into that venv and the TypeScript client built: tests/api/sdk.rs runs scripts that use
# only them against a live server, and checks that the committed clients match openapi/openapi.json.
bash sdk/generate.sh --install
export CAIRN_SDK_PYTHON="${CAIRN_SDK_VENV:-$HOME/.cache/cairn/sdk-venv}/bin/python"

# The dashboard's pinned build tools (esbuild, playwright-core; npm ci once) and Debian's Chromium, which its
# end-to-end test drives headless (Playwright never downloads a browser here).
bash dashboard/build.sh --install
# playwright-core refuses Node older than 20 (Debian 12's own nodejs is 18).
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if ((node_major < 20)); then
  printf '[test] Node.js 20 or newer is needed (found %s): the SDK and dashboard tests run under it\n' \
    "$(node --version 2>/dev/null || echo none)" >&2
  exit 1
fi
if ! command -v chromium >/dev/null; then
  printf '[test] installing Debian chromium for the dashboard end-to-end test\n' >&2
  if [[ $(id -u) -eq 0 ]]; then apt_get=(apt-get); else apt_get=(sudo -n apt-get); fi
  if ! DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y -q chromium >/dev/null; then
    "${apt_get[@]}" update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y -q chromium >/dev/null
  fi
fi
export CHROMIUM="${CHROMIUM:-$(command -v chromium)}"

printf '[test] cargo test --locked --no-fail-fast%s (target: %s)\n' "${*:+ $*}" "$CARGO_TARGET_DIR" >&2
status=0
cargo test --locked --no-fail-fast "$@" || status=$?

elapsed=$((SECONDS - start))
printf '[test] %s: exit %d, total wall time %dm%02ds\n' "$([[ $status -eq 0 ]] && echo passed || echo FAILED)" \
  "$status" $((elapsed / 60)) $((elapsed % 60)) >&2
exit "$status"
