#!/usr/bin/env bash
# Regenerates Cairn's SDKs from openapi/openapi.json:
#   sdk/typescript/src/schema.d.ts   openapi-typescript (pinned in sdk/typescript/package-lock.json)
#   sdk/python/                      openapi-python-client + ruff (pinned in sdk/requirements-tools.txt),
#                                    configured by sdk/python-config.yaml and sdk/python-templates/
#
#   sdk/generate.sh            install the pinned tools (once), then regenerate both SDKs in place
#   sdk/generate.sh --check    regenerate into a temporary directory and compare with the committed files;
#                              exits 1 naming every drifted file
#   sdk/generate.sh --install  install the pinned tools, the Python SDK into the venv (editable) and build
#                              the TypeScript client (dist/): what sdk/tests/live.py and live.mjs need
#   sdk/generate.sh --tools    install the pinned tools only
#
# The tools are installed once: the venv ($CAIRN_SDK_VENV, default $HOME/.cache/cairn/sdk-venv) and
# sdk/typescript/node_modules are reinstalled only when sdk/requirements-tools.txt or
# sdk/typescript/package-lock.json change, so every mode works offline once they are in place.
set -euo pipefail

SDK="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$SDK")"
SPEC="$ROOT/openapi/openapi.json"
TS="$SDK/typescript"
VENV="${CAIRN_SDK_VENV:-$HOME/.cache/cairn/sdk-venv}"
REQUIREMENTS="$SDK/requirements-tools.txt"

export PIP_DISABLE_PIP_VERSION_CHECK=1 NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false

usage() { sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
say() { echo "sdk/generate.sh: $*" >&2; }

hash_of() { sha256sum "$1" | cut -d' ' -f1; }

install_python_tools() {
    local stamp="$VENV/.cairn-requirements.sha256" want
    want="$(hash_of "$REQUIREMENTS")"
    if [[ -x "$VENV/bin/python" && "$(cat "$stamp" 2>/dev/null)" == "$want" ]] && "$VENV/bin/python" -c '' 2>/dev/null; then
        return
    fi
    local python="${PYTHON:-python3}"
    if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        say "$python is missing or older than 3.11 (openapi-python-client 0.29 and the generated SDK need 3.11+)"
        exit 1
    fi
    say "installing the pinned Python tools into $VENV"
    if ! "$VENV/bin/python" -c '' 2>/dev/null; then
        rm -rf "$VENV"
        mkdir -p "$(dirname "$VENV")"
        "$python" -m venv "$VENV"
    fi
    "$VENV/bin/python" -m pip install --quiet --requirement "$REQUIREMENTS"
    echo "$want" >"$stamp"
}

install_node_tools() {
    local stamp="$TS/node_modules/.cairn-package-lock.sha256" want
    want="$(hash_of "$TS/package-lock.json")"
    if [[ "$(cat "$stamp" 2>/dev/null)" == "$want" ]]; then
        return
    fi
    say "installing the pinned Node tools (npm ci in sdk/typescript)"
    (cd "$TS" && npm ci --prefer-offline --no-audit --no-fund --loglevel=error >&2)
    echo "$want" >"$stamp"
}

install_tools() {
    install_python_tools
    install_node_tools
}

# Writes both SDKs' generated files under $1: $1/typescript/src/schema.d.ts and $1/python/.
generate_into() {
    local out="$1" log
    mkdir -p "$out/typescript/src"
    log="$(mktemp)"
    if ! "$TS/node_modules/.bin/openapi-typescript" "$SPEC" --output "$out/typescript/src/schema.d.ts" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        say "openapi-typescript failed"
        exit 1
    fi
    # openapi-python-client warns (and leaves out) what it cannot express; show its warnings, not its chatter.
    if ! (cd "$out" && PATH="$VENV/bin:$PATH" openapi-python-client generate \
        --path "$SPEC" \
        --config "$SDK/python-config.yaml" \
        --custom-template-path "$SDK/python-templates" \
        --meta uv \
        --output-path "$out/python") >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        say "openapi-python-client failed"
        exit 1
    fi
    grep '^WARNING' "$log" | sed 's/^WARNING/  openapi-python-client: warning:/' >&2 || true
    rm -f "$log"
    if [[ ! -f "$out/python/cairn_client/__init__.py" ]]; then
        say "openapi-python-client wrote no cairn_client package"
        exit 1
    fi
}

# The files of a generated tree, relative to it, leaving out caches and build output.
tree_files() {
    (cd "$1" && find . \( -name __pycache__ -o -name .ruff_cache -o -name .mypy_cache -o -name .pytest_cache \
        -o -name '*.egg-info' -o -name build -o -name dist -o -name .venv \) -prune -o -type f -print |
        sed 's|^\./||' | LC_ALL=C sort)
}

WORK=""
cleanup() { if [[ -n "$WORK" ]]; then rm -rf "$WORK"; fi; }
trap cleanup EXIT

check() {
    local tmp drift=() f
    WORK="$(mktemp -d)"
    tmp="$WORK"
    generate_into "$tmp"
    if ! cmp -s "$tmp/typescript/src/schema.d.ts" "$TS/src/schema.d.ts"; then
        drift+=("sdk/typescript/src/schema.d.ts")
    fi
    if [[ ! -d "$SDK/python" ]]; then
        drift+=("sdk/python/ (missing)")
    else
        while IFS= read -r f; do
            drift+=("sdk/python/$f (extra: not generated)")
        done < <(LC_ALL=C comm -13 <(tree_files "$tmp/python") <(tree_files "$SDK/python"))
        while IFS= read -r f; do
            drift+=("sdk/python/$f (missing)")
        done < <(LC_ALL=C comm -23 <(tree_files "$tmp/python") <(tree_files "$SDK/python"))
        while IFS= read -r f; do
            cmp -s "$tmp/python/$f" "$SDK/python/$f" || drift+=("sdk/python/$f")
        done < <(LC_ALL=C comm -12 <(tree_files "$tmp/python") <(tree_files "$SDK/python"))
    fi
    if ((${#drift[@]})); then
        say "the SDKs differ from what openapi/openapi.json generates (${#drift[@]} files):"
        printf '  %s\n' "${drift[@]}" >&2
        say "run sdk/generate.sh and commit the result"
        exit 1
    fi
    echo "sdk/generate.sh: the SDKs match openapi/openapi.json"
}

generate() {
    local tmp
    WORK="$(mktemp -d)"
    tmp="$WORK"
    generate_into "$tmp"
    # (Unchanged files keep their time, so that `--install` does not rebuild dist/ for nothing.)
    cmp -s "$tmp/typescript/src/schema.d.ts" "$TS/src/schema.d.ts" || cp "$tmp/typescript/src/schema.d.ts" "$TS/src/schema.d.ts"
    rm -rf "$SDK/python"
    cp -R "$tmp/python" "$SDK/python"
    echo "sdk/generate.sh: regenerated sdk/typescript/src/schema.d.ts and sdk/python/"
}

# The Python SDK, installed editable into the venv, and the TypeScript client's dist/.
install_sdks() {
    local where
    where="$("$VENV/bin/python" -I -c 'import cairn_client, os; print(os.path.dirname(os.path.abspath(cairn_client.__file__)))' 2>/dev/null || true)"
    if [[ "$where" != "$SDK/python/cairn_client" ]]; then
        say "installing sdk/python into $VENV (editable)"
        # uv_build runs the uv-build executable it finds on PATH.
        PATH="$VENV/bin:$PATH" "$VENV/bin/python" -m pip install --quiet --no-deps --no-build-isolation --editable "$SDK/python"
    fi
    local built="$TS/dist/index.js" stale=0 f
    if [[ ! -f "$built" || ! -f "$TS/dist/schema.d.ts" ]]; then
        stale=1
    else
        for f in "$TS"/src/* "$TS/tsconfig.json" "$TS/package.json"; do
            [[ "$f" -nt "$built" ]] && stale=1
        done
    fi
    if ((stale)); then
        say "building sdk/typescript (npm run build)"
        (cd "$TS" && npm run --silent build >&2)
    fi
    echo "sdk/generate.sh: installed: $VENV/bin/python imports cairn_client; sdk/typescript/dist is built"
}

case "${1:-}" in
"") install_tools && generate ;;
--check)
    # Never installs: tests run this beside others that use node_modules and the venv (npm ci would pull
    # them away); scripts/test.sh installs first.
    if [[ ! -x "$TS/node_modules/.bin/openapi-typescript" || ! -x "$VENV/bin/openapi-python-client" ]]; then
        say "the pinned tools are not installed: run sdk/generate.sh --install (scripts/test.sh does)"
        exit 1
    fi
    check
    ;;
--install) install_tools && install_sdks ;;
--tools) install_tools ;;
-h | --help) usage ;;
*)
    usage >&2
    exit 2
    ;;
esac
