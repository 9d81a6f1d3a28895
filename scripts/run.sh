#!/usr/bin/env bash
# Build and run the Cairn server locally: the HTTP API with in-process workers. `cairn serve` applies its own
# migrations at start-up. Arguments are passed on to `cairn serve`, e.g. `scripts/run.sh --help`.
#
# Environment (read by cairn itself; see `cairn serve --help` for the rest):
#   DATABASE_URL   Postgres to use; default from scripts/setup.sh (postgres://postgres@127.0.0.1:5432/cairn)
#   CAIRN_LISTEN   address to listen on; default 127.0.0.1:4545
#   RUST_LOG       log filter, e.g. info or cairn=debug
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

# sqlx's query! macros talk to DATABASE_URL at compile time unless told to use the committed .sqlx/ data.
if [[ -d .sqlx ]]; then
  export SQLX_OFFLINE="${SQLX_OFFLINE:-true}"
fi

printf '[run] cargo build --release --bin cairn (target: %s)\n' "$CARGO_TARGET_DIR" >&2
cargo build --release --bin cairn
printf '[run] exec cairn serve%s (CAIRN_LISTEN=%s)\n' "${*:+ $*}" "${CAIRN_LISTEN:-unset, default 127.0.0.1:4545}" >&2
exec "$CARGO_TARGET_DIR/release/cairn" serve "$@"
