#!/usr/bin/env bash
# Run every test: prepares the machine (scripts/setup.sh), then `cargo test --locked`. Arguments go to cargo,
# e.g. `scripts/test.sh --test api -- recall`. The tests create their own databases from DATABASE_URL, so it must
# name a superuser (the default from setup.sh does).
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

printf '[test] cargo test --locked --no-fail-fast%s (target: %s)\n' "${*:+ $*}" "$CARGO_TARGET_DIR" >&2
status=0
cargo test --locked --no-fail-fast "$@" || status=$?

elapsed=$((SECONDS - start))
printf '[test] %s: exit %d, total wall time %dm%02ds\n' "$([[ $status -eq 0 ]] && echo passed || echo FAILED)" \
  "$status" $((elapsed / 60)) $((elapsed % 60)) >&2
exit "$status"
