#!/usr/bin/env python3
"""Static checks of deploy/ against the source tree (Docker is not available on the build machine).

    python3 deploy/check.py              # check deploy/: one line per failure, exit 1 on any
    python3 deploy/check.py --self-test  # break copies of deploy/; exit 1 unless every break is caught

What is checked: every YAML file under deploy/ parses; the compose file (a pinned pgvector image, one service
each for `cairn migrate`, `serve` and `worker`, the two logins, the init script's login role, healthchecks,
start-up order, hardening); the Kubernetes manifests (images, resources, probes against the routes in src/api,
ports, the Secret's keys, which login each workload gets, security contexts, the kustomization); every
environment variable set for cairn is one the binary reads (clap `env = "..."` in src/); the Dockerfile's
final stage (a non-root user, the cairn binary as its entrypoint, the port); the README's Citus section places
every table of migrations/. Needs Python 3 and PyYAML only.
"""

import argparse
import re
import shutil
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent

# The subcommands deploy/ runs, one service or workload each.
ROLES = ("migrate", "serve", "worker")
# Probe routes: liveness must not need the database (an outage must not restart every pod); readiness pings it.
LIVENESS_PATHS = {"/livez"}
READINESS_PATHS = {"/health", "/api/v1/ready"}
# What the tenant pool's login must not be (the server's start-up check, Db::check_app_role, refuses them too).
FORBIDDEN_ROLE_OPTIONS = ("SUPERUSER", "CREATEROLE", "BYPASSRLS", "REPLICATION", "CREATEDB", "INHERIT")
APP_ROLE = "cairn_app"
ANY_ADDRESS = ("0.0.0.0", "::")
URL = re.compile(
    r"^postgres(?:ql)?://(?P<user>[^:@/]+)(?::(?P<password>.*))?@(?P<host>[^:/@]+)(?::(?P<port>\d+))?/(?P<db>[^?]+)"
)


def parse_url(value):
    """The parts of a Postgres URL (None when it is not one)."""
    match = URL.match(value or "")
    return match.groupdict() if match else None


def split_image(image):
    """(repository, tag, digest) of an image reference."""
    digest = None
    if "@" in image:
        image, digest = image.split("@", 1)
    tag = None
    if ":" in image.rsplit("/", 1)[-1]:
        image, tag = image.rsplit(":", 1)
    return image, tag, digest


def pinned(image):
    """Whether an image names a fixed tag or digest (not `latest`, not untagged)."""
    _, tag, digest = split_image(image)
    return bool(digest or (tag and tag != "latest"))


def flag_value(args, flag):
    for i, arg in enumerate(args):
        if arg == flag and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(flag + "="):
            return arg.split("=", 1)[1]
    return None


def listen_of(args):
    """(host, port) of a `--listen HOST:PORT` argument, or None."""
    value = flag_value(args, "--listen")
    if value is None:
        return None
    host, _, port = value.rpartition(":")
    return host.strip("[]"), int(port) if port.isdigit() else None


def dig(value, *keys):
    """value[k1][k2]..., {} where a level is missing."""
    for key in keys:
        value = (value or {}).get(key) if isinstance(value, dict) else None
    return value if value is not None else {}


class Source:
    """What the binary reads and serves, taken from the source tree."""

    def __init__(self, root):
        text = {path: path.read_text() for path in sorted((root / "src").rglob("*.rs"))}
        self.env = set()
        for body in text.values():
            self.env.update(re.findall(r'\benv\s*=\s*"([A-Za-z0-9_]+)"', body))
        # tracing_subscriber's EnvFilter::try_from_default_env reads RUST_LOG.
        if any("from_default_env" in body for body in text.values()):
            self.env.add("RUST_LOG")
        api = root / "src" / "api"
        self.api_text = "\n".join(body for path, body in text.items() if api in path.parents)
        # The command line's clap structs (settings.rs holds the plain settings built from them: no flags).
        config = "\n".join((root / "src" / "config" / name).read_text() for name in ("mod.rs", "app.rs", "db.rs"))
        block = re.search(r"pub enum Command \{(.*?)\n\}", config, re.S)
        variants = re.findall(r"^    ([A-Z]\w*)\b", block.group(1), re.M) if block else []
        self.subcommands = {v.lower() for v in variants}
        self.fields = set(re.findall(r"pub (\w+):", config))
        self.binary = re.search(r'^name\s*=\s*"([^"]+)"', (root / "Cargo.toml").read_text(), re.M).group(1)
        self.tables = set()
        for migration in sorted((root / "migrations").glob("*.sql")):
            self.tables.update(re.findall(r"\bCREATE TABLE (?:IF NOT EXISTS )?(\w+)", migration.read_text(), re.I))

    def has_route(self, path):
        return f'"{path}"' in self.api_text


class Checker:
    def __init__(self, deploy, root=ROOT):
        self.deploy = Path(deploy).resolve()
        self.src = Source(Path(root))
        self.passed = 0
        self.failures = []
        self.docker_uid = None

    def where(self, path, detail=None):
        label = "deploy/" + Path(path).resolve().relative_to(self.deploy).as_posix()
        return f"{label} ({detail})" if detail else label

    def check(self, ok, where, message):
        """Counts a passed check, or records a failure line; returns whether it passed."""
        if ok:
            self.passed += 1
        else:
            self.failures.append(f"{where}: {message}")
        return bool(ok)

    def run(self):
        parsed = self.check_yaml()
        self.check_dockerfile()
        self.check_compose(parsed)
        self.check_kubernetes(parsed)
        self.check_readme()
        return self

    def check_env_names(self, names, where):
        for name in sorted(names):
            self.check(
                name in self.src.env,
                where,
                f"environment variable {name} is not one cairn reads (no `env = \"{name}\"` in src/)",
            )

    def check_command(self, args, where):
        """The subcommand and every `--flag` exist in src/config/."""
        if not self.check(args, where, "no command: which of `cairn migrate|serve|worker` runs here?"):
            return
        self.check(args[0] in self.src.subcommands, where, f"`{args[0]}` is not a cairn subcommand")
        for arg in args[1:]:
            if arg.startswith("--"):
                field = arg[2:].split("=", 1)[0].replace("-", "_")
                self.check(field in self.src.fields, where, f"`{arg}` is not an option of cairn (src/config/)")

    # -- YAML

    def check_yaml(self):
        parsed = {}
        files = sorted(p for p in self.deploy.rglob("*") if p.suffix in (".yml", ".yaml"))
        self.check(files, "deploy/", "no YAML files")
        for path in files:
            try:
                docs = [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
            except yaml.YAMLError as err:
                self.check(False, self.where(path), f"does not parse: {' '.join(str(err).split())}")
                continue
            if self.check(docs, self.where(path), "holds no YAML document"):
                parsed[path] = docs
        return parsed

    # -- Dockerfile

    def check_dockerfile(self):
        path = self.deploy / "Dockerfile"
        if not self.check(path.exists(), "deploy/", "Dockerfile is missing"):
            return
        where = self.where(path)
        instructions, heredoc = [], None
        for line in path.read_text().replace("\\\n", " ").splitlines():
            if heredoc:
                heredoc = None if line.strip() == heredoc else heredoc
                continue
            if line.strip() and not line.strip().startswith("#"):
                instructions.append(line.strip())
                # A heredoc's body (a script fed to RUN) holds no instructions.
                opened = re.search(r"<<-?['\"]?(\w+)['\"]?", line)
                heredoc = opened.group(1) if opened else None
        args, stages = {}, []
        for line in instructions:
            word, _, rest = line.partition(" ")
            word = word.upper()
            if word == "ARG" and not stages:
                name, _, default = rest.partition("=")
                args[name.strip()] = default.strip()
            if word == "FROM":
                stages.append([])
            if stages:
                stages[-1].append((word, rest.strip()))
        if not self.check(stages, where, "no FROM"):
            return
        for stage in stages:
            image = re.sub(r"\$\{(\w+)\}", lambda m: args.get(m.group(1), m.group(0)), stage[0][1].split()[0])
            self.check(pinned(image), where, f"base image {image} is not pinned (no tag, or `latest`)")

        final = stages[-1]
        users = [rest for word, rest in final if word == "USER"]
        user = users[-1].split(":")[0] if users else None
        self.check(user not in (None, "0", "root"), where, "the final stage runs as root (add a non-root USER)")
        if user and user.isdigit():
            self.docker_uid = int(user)
        self.check(self.docker_uid is not None, where, "the final USER is not a numeric uid (runAsNonRoot needs one)")
        copied = [rest.split()[-1] for word, rest in final if word == "COPY"]
        binary = [dest for dest in copied if Path(dest).name == self.src.binary]
        self.check(binary, where, f"the final stage copies no `{self.src.binary}` binary")
        entry = self.exec_form(final, "ENTRYPOINT", where)
        if entry is not None:
            program = entry[0] if entry else ""
            ok = program == self.src.binary or program in binary
            self.check(ok, where, f"ENTRYPOINT runs {program!r}, not the {self.src.binary} binary")
            if program == self.src.binary and binary:
                self.check(
                    str(Path(binary[0]).parent) in ("/usr/local/bin", "/usr/bin", "/bin"),
                    where,
                    f"ENTRYPOINT names `{program}` but the binary is copied to {binary[0]}, not on PATH",
                )
        cmd = self.exec_form(final, "CMD", where)
        if cmd is not None:
            self.check_command(cmd, where + " CMD")
            listen = listen_of(cmd)
            exposed = [int(p.split("/")[0]) for word, rest in final if word == "EXPOSE" for p in rest.split()]
            if self.check(listen, where, "CMD has no --listen"):
                self.check(listen[0] in ANY_ADDRESS, where, f"CMD listens on {listen[0]}, unreachable from outside")
                self.check(listen[1] in exposed, where, f"CMD listens on port {listen[1]} but EXPOSE says {exposed}")
        envs = set()
        for word, rest in final:
            if word == "ENV":
                envs.update(re.findall(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=", rest))
        self.check_env_names(envs, where + " ENV")
        build = " ".join(rest for stage in stages for word, rest in stage if word == "RUN")
        self.check("--locked" in build, where, "the build is not `cargo build --locked`")
        ignore = self.deploy / "Dockerfile.dockerignore"
        if self.check(ignore.exists(), where, "no Dockerfile.dockerignore: the whole repository, target/ too, is sent"):
            patterns = {line.strip().strip("/") for line in ignore.read_text().splitlines()}
            for needed in ("target", ".git"):
                self.check(needed in patterns, self.where(ignore), f"does not exclude {needed}")

    def exec_form(self, stage, word, where):
        found = [rest for w, rest in stage if w == word]
        if not self.check(found, where, f"the final stage has no {word}"):
            return None
        try:
            value = yaml.safe_load(found[-1])
        except yaml.YAMLError:
            value = None
        if not self.check(isinstance(value, list), where, f'{word} is not in exec form (["..."])'):
            return None
        return value

    # -- compose

    def check_compose(self, parsed):
        path = self.deploy / "docker-compose.yml"
        if not self.check(path in parsed, "deploy/", "docker-compose.yml is missing or does not parse"):
            return
        where = self.where(path)
        services = parsed[path][0].get("services") or {}

        def command(name):
            value = services[name].get("command") or []
            return value.split() if isinstance(value, str) else [str(v) for v in value]

        def env(name):
            raw = services[name].get("environment") or {}
            if isinstance(raw, list):
                raw = dict(item.split("=", 1) if "=" in item else (item, None) for item in raw)
            return {k: (str(v) if v is not None else None) for k, v in raw.items()}

        def depends(name):
            value = services[name].get("depends_on") or {}
            if isinstance(value, list):
                return {dep: "service_started" for dep in value}
            return {dep: (cfg or {}).get("condition", "service_started") for dep, cfg in value.items()}

        by_role = {}
        for name in services:
            args = command(name)
            if args and args[0] in ROLES:
                by_role.setdefault(args[0], []).append(name)
        roles = {}
        for role in ROLES:
            names = by_role.get(role, [])
            found = f"found {names or 'none'}"
            if self.check(len(names) == 1, where, f"expected one service running `cairn {role}`, {found}"):
                roles[role] = names[0]
        cairn_services = [name for names in by_role.values() for name in names]

        # The image, the build, the command line, the environment and the hardening of every cairn service.
        repos = set()
        for name in cairn_services:
            svc, here = services[name], self.where(path, name)
            image = svc.get("image")
            if self.check(image, here, "no image"):
                repos.add(split_image(image)[0])
                self.check(pinned(image), here, f"image {image} is `latest` or has no tag")
            build = svc.get("build")
            if build:
                context = build.get("context", ".") if isinstance(build, dict) else build
                dockerfile = build.get("dockerfile", "Dockerfile") if isinstance(build, dict) else "Dockerfile"
                built = (path.parent / context / dockerfile).resolve()
                ok = built == (self.deploy / "Dockerfile").resolve()
                self.check(ok, here, f"builds {dockerfile} in {context}, not deploy/Dockerfile")
            self.check_command(command(name), here)
            self.check_env_names(env(name), here)
            self.check(svc.get("read_only") is True, here, "root filesystem not read-only (read_only: true)")
            tmpfs = [str(t).split(":")[0] for t in svc.get("tmpfs") or []]
            self.check("/tmp" in tmpfs, here, "no tmpfs on /tmp beside read_only")
            self.check("ALL" in (svc.get("cap_drop") or []), here, "capabilities not dropped (cap_drop: [ALL])")
            self.check(
                "no-new-privileges:true" in (svc.get("security_opt") or []),
                here,
                "no `security_opt: [no-new-privileges:true]`",
            )
            self.check(
                svc.get("user") in (None, str(self.docker_uid), f"{self.docker_uid}:{self.docker_uid}"),
                here,
                f"user {svc.get('user')!r} overrides the image's non-root user",
            )
        self.check(len(repos) <= 1, where, f"migrate, serve and worker use different images: {sorted(repos)}")

        # Postgres: the host every DATABASE_URL names.
        owner_urls = {name: parse_url(env(name).get("DATABASE_URL")) for name in cairn_services}
        for name, url in owner_urls.items():
            self.check(url, self.where(path, name), "DATABASE_URL is missing or not a postgres:// URL")
        hosts = {url["host"] for url in owner_urls.values() if url}
        pg_name = next(iter(hosts)) if len(hosts) == 1 else None
        if not self.check(pg_name in services, where, f"DATABASE_URL's hosts {sorted(hosts)} are not one service"):
            return
        pg, pg_where, pg_env = services[pg_name], self.where(path, pg_name), env(pg_name)
        image = pg.get("image", "")
        repo, tag, digest = split_image(image)
        self.check("pgvector" in repo, pg_where, f"image {image} has no pgvector (use pgvector/pgvector)")
        self.check(
            digest or (tag and re.match(r"^\d+\.\d+\.\d+-pg\d+", tag)),
            pg_where,
            f"image {image} is not pinned to a pgvector release (e.g. pgvector/pgvector:0.8.0-pg16)",
        )
        major = re.search(r"pg(\d+)", tag or "")
        self.check(major and int(major.group(1)) >= 15, pg_where, f"image {image}: Cairn needs PostgreSQL 15 or later")
        health = " ".join(map(str, dig(pg, "healthcheck").get("test") or []))
        self.check("pg_isready" in health, pg_where, "no pg_isready healthcheck (the other services wait for it)")

        # The owner's login (POSTGRES_USER: the image's superuser) and the tenant pool's login.
        owner_user = pg_env.get("POSTGRES_USER", "postgres")
        for name, url in owner_urls.items():
            if not url:
                continue
            here = self.where(path, name)
            self.check(url["user"] == owner_user, here, f"DATABASE_URL's user {url['user']} is not POSTGRES_USER")
            self.check(
                url["password"] == pg_env.get("POSTGRES_PASSWORD"),
                here,
                "DATABASE_URL's password is not the postgres service's POSTGRES_PASSWORD",
            )
            self.check(
                url["db"] == pg_env.get("POSTGRES_DB", owner_user),
                here,
                f"DATABASE_URL names database {url['db']}, not POSTGRES_DB",
            )
        init = self.check_init_script(pg, pg_env, pg_where)
        for role in ("serve", "worker"):
            if role not in roles:
                continue
            name = roles[role]
            here = self.where(path, name)
            app = parse_url(env(name).get("CAIRN_APP_DATABASE_URL"))
            missing = "CAIRN_APP_DATABASE_URL (the tenant pool's login) is missing: cairn refuses to start"
            if not self.check(app, here, missing):
                continue
            self.check(
                app["user"] != owner_user,
                here,
                f"CAIRN_APP_DATABASE_URL logs in as {app['user']}, the owner's user: "
                "it could RESET ROLE past row-level security",
            )
            owner = owner_urls.get(name)
            if owner:
                self.check(
                    (app["host"], app["db"]) == (owner["host"], owner["db"]),
                    here,
                    "CAIRN_APP_DATABASE_URL and DATABASE_URL name different databases",
                )
            if init:
                login, password_var, _ = init
                self.check(
                    app["user"] == login,
                    here,
                    f"CAIRN_APP_DATABASE_URL logs in as {app['user']}, but the init script creates {login}",
                )
                if password_var:
                    self.check(
                        app["password"] == pg_env.get(password_var),
                        here,
                        f"CAIRN_APP_DATABASE_URL's password is not the {password_var} the init script sets",
                    )
        for name in pg_env:
            if name.startswith("CAIRN_") and init:
                self.check(f"${name}" in init[2], pg_where, f"{name} is set but the init script does not read it")

        # Start-up order: postgres healthy, then the migrations, then the API and the workers.
        if "migrate" in roles:
            migrate, here = roles["migrate"], self.where(path, roles["migrate"])
            self.check(command(migrate) == ["migrate"], here, f"command {command(migrate)} is not [migrate]")
            self.check(
                depends(migrate).get(pg_name) == "service_healthy",
                here,
                f"does not wait for {pg_name} (condition: service_healthy)",
            )
            restart = str(services[migrate].get("restart", "no"))
            self.check(restart in ("no", "on-failure"), here, "restarts after it completes")
            for role in ("serve", "worker"):
                if role in roles:
                    self.check(
                        depends(roles[role]).get(migrate) == "service_completed_successfully",
                        self.where(path, roles[role]),
                        f"does not wait for {migrate} (condition: service_completed_successfully)",
                    )
        if "serve" in roles:
            self.check_compose_api(services[roles["serve"]], command(roles["serve"]), self.where(path, roles["serve"]),
                                   has_worker="worker" in roles)

    def check_compose_api(self, svc, args, here, has_worker):
        listen = listen_of(args)
        if self.check(listen, here, "serve without --listen: it listens on 127.0.0.1, unreachable from outside"):
            self.check(listen[0] in ANY_ADDRESS, here, f"listens on {listen[0]}, unreachable from other containers")
            published = [str(p).rsplit(":", 1)[-1] for p in svc.get("ports") or []]
            self.check(str(listen[1]) in published, here, f"listens on {listen[1]} but publishes {published}")
        if has_worker:
            ok = flag_value(args, "--workers") == "none"
            self.check(ok, here, "runs the job queues too (--workers none: the worker service runs them)")
        test = " ".join(map(str, dig(svc, "healthcheck").get("test") or []))
        allowed = LIVENESS_PATHS | READINESS_PATHS
        paths = [p for p in sorted(allowed) if re.search(re.escape(p) + r"\b(?!/)", test)]
        if self.check(paths, here, f"no healthcheck on {sorted(allowed)}"):
            for p in paths:
                self.check(self.src.has_route(p), here, f"healthcheck path {p} is not a route in src/api")
            if listen:
                self.check(str(listen[1]) in test, here, f"the healthcheck does not use the listen port {listen[1]}")

    def check_init_script(self, pg, pg_env, where):
        """Checks the postgres init script; returns (login role, the variable holding its password, its text)."""
        mounts = [str(v) for v in pg.get("volumes") or []]
        init = [m for m in mounts if "/docker-entrypoint-initdb.d/" in m]
        if not self.check(init, where, "no init script in /docker-entrypoint-initdb.d (who creates the tenant login?)"):
            return None
        script = self.deploy / init[0].split(":")[0]
        if not self.check(script.exists(), where, f"mounts {init[0].split(':')[0]}, which does not exist"):
            return None
        here = self.where(script)
        text = script.read_text()
        self.check("ON_ERROR_STOP=1" in text, here, "psql runs without ON_ERROR_STOP=1: a failed statement would pass")
        for var in sorted(set(re.findall(r"\$\{?([A-Z_][A-Z0-9_]*)", text))):
            self.check(var in pg_env, here, f"reads ${var}, which the postgres service does not set")
        statements = [" ".join(s.split()) for s in text.split(";")]
        created = {}
        for s in statements:
            m = re.search(r"\bCREATE ROLE (\w+)\s*(.*)", s, re.I)
            if m:
                created[m.group(1)] = m.group(2).upper().split()
        logins = [name for name, options in created.items() if "LOGIN" in options]
        if not self.check(len(logins) == 1, here, f"expected one LOGIN role (the tenant pool's): {logins or 'none'}"):
            return None
        if APP_ROLE in created:
            # Created here ahead of the first migration, so the grant can precede it: as that migration would.
            for bad in ("LOGIN", "SUPERUSER", "BYPASSRLS"):
                self.check(bad not in created[APP_ROLE], here, f"{APP_ROLE} is created {bad}")
        login = logins[0]
        options = created[login]
        self.check("NOINHERIT" in options, here, f"{login} is not NOINHERIT: it would hold {APP_ROLE}'s rights at once")
        for bad in FORBIDDEN_ROLE_OPTIONS:
            self.check(bad not in options, here, f"{login} is created {bad}")
        granted = set()
        for s in statements:
            m = re.search(rf"\bALTER (?:ROLE|USER) {login}\b(.*)", s, re.I)
            if m:
                for bad in FORBIDDEN_ROLE_OPTIONS:
                    self.check(bad not in m.group(1).upper().split(), here, f"ALTER ROLE makes {login} {bad}")
            m = re.search(rf"\bGRANT (.+?) TO {login}\b", s, re.I)
            if m:
                ok = " ON " not in f" {m.group(1).upper()} "
                self.check(ok, here, f"grants {login} privileges of its own ({m.group(0)})")
                granted.update(role.strip() for role in m.group(1).split(","))
        self.check(
            granted == {APP_ROLE},
            here,
            f"{login} must be a member of {APP_ROLE} only, is granted {sorted(granted) or 'nothing'}",
        )
        password = re.search(r'-v\s+pw="\$\{?(\w+)\}?"', text)
        self.check(password and "PASSWORD :'pw'" in text, here, f"cannot tell which variable holds {login}'s password")
        return login, password.group(1) if password else None, text

    # -- Kubernetes

    def check_kubernetes(self, parsed):
        k8s = self.deploy / "k8s"
        if not self.check(k8s.is_dir(), "deploy/", "k8s/ is missing"):
            return
        docs = [(path, doc) for path, ds in parsed.items() if path.parent == k8s for doc in ds if isinstance(doc, dict)]
        secrets = self.check_secrets(docs)

        workloads = []
        for path, doc in docs:
            kind = doc.get("kind")
            if kind in ("Deployment", "StatefulSet", "DaemonSet", "Job"):
                pod = dig(doc, "spec", "template", "spec")
            elif kind == "CronJob":
                pod = dig(doc, "spec", "jobTemplate", "spec", "template", "spec")
            else:
                continue
            workloads.append((path, doc, pod, self.where(path, f"{kind} {dig(doc, 'metadata').get('name')}")))
        by_role, repos = {}, set()
        for path, doc, pod, here in workloads:
            for c, chere, args, env, repo in self.check_workload(doc, pod, here, secrets):
                if repo:
                    repos.add(repo)
                if args and args[0] in ROLES:
                    by_role.setdefault(args[0], []).append((doc, c, chere, args, env))
        where = self.where(k8s)
        self.check(len(repos) <= 1, where, f"the workloads use different images: {sorted(repos)}")
        for role in ROLES:
            found = len(by_role.get(role, []))
            self.check(found == 1, where, f"expected one workload running `cairn {role}`, found {found}")

        # Which login each workload gets: migrations the owner's only; the API and the workers both.
        owner_ref, app_ref = ("secret", "DATABASE_URL"), ("secret", "CAIRN_APP_DATABASE_URL")
        for doc, c, chere, args, env in by_role.get("migrate", []):
            self.check(doc.get("kind") == "Job", chere, "migrations run as a Deployment (a Job runs them once)")
            ok = env.get("DATABASE_URL") == owner_ref
            self.check(ok, chere, "DATABASE_URL (the owner's login) is not the secret's DATABASE_URL")
            ok = "CAIRN_APP_DATABASE_URL" not in env
            self.check(ok, chere, "migrations do not need the tenant pool's login (CAIRN_APP_DATABASE_URL)")
        for role in ("serve", "worker"):
            for doc, c, chere, args, env in by_role.get(role, []):
                ok = env.get("DATABASE_URL") == owner_ref
                self.check(ok, chere, "DATABASE_URL (the owner's login) is not the secret's DATABASE_URL")
                app = env.get("CAIRN_APP_DATABASE_URL")
                if self.check(app, chere, "CAIRN_APP_DATABASE_URL (the tenant pool's login) is not set"):
                    self.check(
                        app == app_ref,
                        chere,
                        f"CAIRN_APP_DATABASE_URL comes from {app[0]} {app[1]!r}, not the secret's "
                        "CAIRN_APP_DATABASE_URL (the owner's login would bypass row-level security)",
                    )
        for doc, c, chere, args, env in by_role.get("serve", []):
            self.check_api(c, chere, args, has_worker=bool(by_role.get("worker")))
            ok = "CAIRN_JWT_SECRET" in env
            self.check(ok, chere, "no CAIRN_JWT_SECRET: each pod would sign admin tokens with a key of its own")

        self.check_services(docs, workloads)
        self.check_kustomization(k8s / "kustomization.yaml", parsed, repos)

    def check_secrets(self, docs):
        """{name: {key: value}} of the Secrets (the example is the contract for the keys manifests ask for)."""
        secrets = {}
        for path, doc in docs:
            if doc.get("kind") != "Secret":
                continue
            name = dig(doc, "metadata").get("name")
            data = {**(doc.get("data") or {}), **(doc.get("stringData") or {})}
            secrets[name] = data
            here = self.where(path, f"Secret {name}")
            self.check_env_names(data, here)
            owner, app = parse_url(data.get("DATABASE_URL")), parse_url(data.get("CAIRN_APP_DATABASE_URL"))
            if self.check(owner and app, here, "needs DATABASE_URL and CAIRN_APP_DATABASE_URL, both postgres:// URLs"):
                ok = owner["user"] != app["user"]
                self.check(ok, here, "CAIRN_APP_DATABASE_URL logs in as DATABASE_URL's user (the owner)")
                ok = (owner["host"], owner["port"], owner["db"]) == (app["host"], app["port"], app["db"])
                self.check(ok, here, "DATABASE_URL and CAIRN_APP_DATABASE_URL name different databases")
        return secrets

    def check_workload(self, doc, pod, here, secrets):
        """Checks a pod spec; yields (container, label, cairn arguments, env, image repository) per container."""
        containers = pod.get("containers") or []
        if not self.check(containers, here, "no containers"):
            return
        ok = pod.get("automountServiceAccountToken") is False
        self.check(ok, here, "mounts a service account token (automountServiceAccountToken: false)")
        sc = pod.get("securityContext") or {}
        self.check(sc.get("runAsNonRoot") is True, here, "securityContext.runAsNonRoot is not true")
        uid = sc.get("runAsUser")
        if self.docker_uid is None:
            self.check(isinstance(uid, int) and uid > 0, here, f"securityContext.runAsUser {uid} is not a non-root uid")
        else:
            ok = uid == self.docker_uid
            self.check(ok, here, f"securityContext.runAsUser {uid} is not the image's user {self.docker_uid}")
        ok = dig(sc, "seccompProfile").get("type") == "RuntimeDefault"
        self.check(ok, here, "no seccompProfile RuntimeDefault")
        if doc.get("kind") == "Deployment":
            selector = dig(doc, "spec", "selector", "matchLabels")
            labels = dig(doc, "spec", "template", "metadata", "labels")
            ok = selector and all(labels.get(k) == v for k, v in selector.items())
            self.check(ok, here, "selector.matchLabels does not match the pod template's labels")
        if doc.get("kind") == "Job":
            ok = pod.get("restartPolicy") in ("Never", "OnFailure")
            self.check(ok, here, "restartPolicy must be Never or OnFailure")
        for c in containers:
            chere = f"{here} container {c.get('name')}"
            image, repo = c.get("image"), None
            if self.check(image, chere, "no image"):
                repo = split_image(image)[0]
                self.check(pinned(image), chere, f"image {image} is `latest` or has no tag")
            resources = c.get("resources") or {}
            for kind in ("cpu", "memory"):
                self.check(dig(resources, "requests").get(kind), chere, f"no resources.requests.{kind}")
            # A memory limit bounds a leak. No CPU limit on purpose: the request reserves the CPU, and a limit
            # would only throttle embedding batches on an otherwise idle node.
            self.check(dig(resources, "limits").get("memory"), chere, "no resources.limits.memory")
            csc = c.get("securityContext") or {}
            ok = csc.get("allowPrivilegeEscalation") is False
            self.check(ok, chere, "allowPrivilegeEscalation is not false")
            self.check(csc.get("readOnlyRootFilesystem") is True, chere, "readOnlyRootFilesystem is not true")
            ok = "ALL" in (dig(csc, "capabilities").get("drop") or [])
            self.check(ok, chere, "capabilities.drop lacks ALL")
            # With `command`, its first word is the program (cairn) and the rest comes before `args`.
            args = [str(a) for a in list(c.get("command") or [])[1:] + list(c.get("args") or [])]
            self.check_command(args, chere)
            env = self.container_env(c, chere, secrets)
            self.check_env_names(env, chere)
            yield c, chere, args, env, repo

    def container_env(self, c, chere, secrets):
        """{name: ("value", v) | ("secret", key) | ("other", None)} of a container, its secret references checked."""
        env = {}
        for item in c.get("env") or []:
            name = item.get("name")
            ref = dig(item, "valueFrom").get("secretKeyRef")
            if ref:
                secret, key = ref.get("name"), ref.get("key")
                known = secret in secrets
                if self.check(known, chere, f"{name} refers to Secret {secret}, which secret.example.yaml lacks"):
                    if ref.get("optional") and key not in secrets[secret]:
                        # An optional key may stay out of the template, as a commented line.
                        text = (self.deploy / "k8s" / "secret.example.yaml").read_text()
                        ok = f"# {key}:" in text
                        self.check(ok, chere, f"optional key {key} is not documented in secret.example.yaml")
                    else:
                        ok = key in secrets[secret]
                        self.check(ok, chere, f"{name} refers to key {key}, which Secret {secret} does not hold")
                env[name] = ("secret", key)
            elif "valueFrom" in item:
                env[name] = ("other", None)
            else:
                env[name] = ("value", item.get("value"))
        for item in c.get("envFrom") or []:
            ref = item.get("secretRef")
            if ref and self.check(ref.get("name") in secrets, chere, f"envFrom Secret {ref.get('name')} is unknown"):
                for key in secrets[ref["name"]]:
                    env.setdefault((item.get("prefix") or "") + key, ("secret", key))
        return env

    def check_api(self, c, chere, args, has_worker):
        listen = listen_of(args)
        if not self.check(listen, chere, "serve without --listen: it listens on 127.0.0.1, out of the probes' reach"):
            return
        self.check(listen[0] in ANY_ADDRESS, chere, f"listens on {listen[0]}, unreachable from outside the pod")
        if has_worker:
            ok = flag_value(args, "--workers") == "none"
            self.check(ok, chere, "runs the job queues too (--workers none: the worker Deployment runs them)")
        ports = {p.get("name"): p.get("containerPort") for p in c.get("ports") or []}
        ok = listen[1] in ports.values()
        self.check(ok, chere, f"listens on {listen[1]} but declares containerPort {sorted(ports.values())}")
        for probe, allowed in (("livenessProbe", LIVENESS_PATHS), ("readinessProbe", READINESS_PATHS)):
            http = dig(c, probe).get("httpGet")
            if not self.check(http, chere, f"no {probe} (httpGet on {' or '.join(sorted(allowed))})"):
                continue
            path, port = http.get("path"), http.get("port")
            self.check(path in allowed, chere, f"{probe} on {path}: use {' or '.join(sorted(allowed))}")
            self.check(self.src.has_route(path), chere, f"{probe} path {path} is not a route in src/api")
            resolved = ports.get(port) if isinstance(port, str) else port
            self.check(resolved == listen[1], chere, f"{probe} port {port!r} is not the listen port {listen[1]}")

    def check_services(self, docs, workloads):
        templates = [(dig(doc, "spec", "template", "metadata", "labels"), pod, doc) for _, doc, pod, _ in workloads]
        for path, doc in docs:
            kind = doc.get("kind")
            if kind not in ("Service", "PodDisruptionBudget"):
                continue
            here = self.where(path, f"{kind} {dig(doc, 'metadata').get('name')}")
            spec = doc.get("spec") or {}
            selector = dig(spec, "selector")
            if kind == "PodDisruptionBudget":
                selector = dig(selector, "matchLabels")
            matched = [
                (pod, d)
                for labels, pod, d in templates
                if selector and all(labels.get(k) == v for k, v in selector.items())
            ]
            if not self.check(matched, here, f"selector {selector} matches no workload"):
                continue
            if kind == "Service":
                ports = {p.get("name"): p.get("containerPort") for pod, _ in matched
                         for c in pod.get("containers") or [] for p in c.get("ports") or []}
                for port in spec.get("ports") or []:
                    target = port.get("targetPort", port.get("port"))
                    ok = target in ports if isinstance(target, str) else target in ports.values()
                    self.check(ok, here, f"targetPort {target!r} is no container port of the selected pods")
            else:
                replicas = min(dig(d, "spec").get("replicas", 1) for _, d in matched)
                minimum = spec.get("minAvailable")
                if isinstance(minimum, int):
                    ok = minimum < replicas
                    self.check(ok, here, f"minAvailable {minimum} with {replicas} replicas blocks every node drain")

    def check_kustomization(self, path, parsed, repos):
        if not self.check(path in parsed, "deploy/k8s/", "kustomization.yaml is missing or does not parse"):
            return
        here = self.where(path)
        kustomization = parsed[path][0]
        listed = list(kustomization.get("resources") or [])
        for resource in listed:
            self.check((path.parent / resource).exists(), here, f"lists {resource}, which does not exist")
        # The Secret template is left out on purpose: the real Secret is created by hand, outside git.
        for manifest in sorted(path.parent.iterdir()):
            if manifest.suffix in (".yaml", ".yml") and manifest != path and ".example." not in manifest.name:
                self.check(manifest.name in listed, here, f"does not list {manifest.name}")
        images = kustomization.get("images") or []
        for repo in sorted(repos):
            entries = [i for i in images if i.get("name") == repo]
            if self.check(entries, here, f"no images: entry for {repo} (the registry and release to deploy)"):
                tag = str(entries[0].get("newTag") or "")
                ok = entries[0].get("digest") or (tag and tag != "latest")
                self.check(ok, here, f"images: {repo} deploys `{tag or 'latest'}`: pin a release tag or a digest")


    def check_readme(self):
        """The README's Citus section places every table the migrations create."""
        path = self.deploy / "README.md"
        if not self.check(path.exists(), "deploy/", "README.md is missing"):
            return
        section = re.search(r"^## Scale-out with Citus\n(.*?)(?=^## |\Z)", path.read_text(), re.S | re.M)
        if not self.check(section, self.where(path), "no section `## Scale-out with Citus`"):
            return
        for table in sorted(self.src.tables):
            self.check(
                f"`{table}`" in section.group(1),
                self.where(path),
                f"the Citus section does not place table {table} (created in migrations/)",
            )


# -- self-test: each mutation breaks a fresh copy of deploy/, and some failure line must say so.

MUTATIONS = [
    # (what, file, old text, new text, a substring of the failure line expected)
    ("a typo'd env var in compose", "docker-compose.yml",
     "    CAIRN_JWT_SECRET: ${", "    CAIRN_JWT_SECRT: ${", "CAIRN_JWT_SECRT"),
    ("a typo'd env var in k8s", "k8s/api.yaml",
     "- name: CAIRN_METRICS_TOKEN", "- name: CAIRN_METRIC_TOKEN", "CAIRN_METRIC_TOKEN"),
    ("a typo'd DATABASE_URL in k8s", "k8s/worker.yaml",
     "- name: DATABASE_URL", "- name: DATABSE_URL", "DATABSE_URL"),
    ("a typo'd flag", "k8s/worker.yaml", '"--queues"', '"--queue"', "`--queue`"),
    ("an unknown subcommand", "k8s/migrate-job.yaml", 'args: ["migrate"]', 'args: ["migrations"]', "`migrations`"),
    ("the liveness probe removed", "k8s/api.yaml",
     "          livenessProbe:\n", "          startupProbe:\n", "no livenessProbe"),
    ("liveness on a path that needs the database", "k8s/api.yaml",
     "path: /livez", "path: /health", "livenessProbe on /health"),
    ("readiness on a route that does not exist", "k8s/api.yaml",
     "path: /api/v1/ready", "path: /readyz", "/readyz is not a route"),
    ("a probe on another port", "k8s/api.yaml",
     "              path: /api/v1/ready\n              port: http",
     "              path: /api/v1/ready\n              port: 8080",
     "readinessProbe port 8080"),
    ("the container port not the listen port", "k8s/api.yaml",
     "containerPort: 4545", "containerPort: 8080", "declares containerPort"),
    ("a :latest image", "k8s/worker.yaml", "image: cairn:0.1.0", "image: cairn:latest", "cairn:latest"),
    ("another image for one workload", "k8s/migrate-job.yaml",
     "image: cairn:0.1.0", "image: other/cairn:0.1.0", "different images"),
    ("kustomize deploying latest", "k8s/kustomization.yaml", 'newTag: "0.1.0"', "newTag: latest", "deploys `latest`"),
    ("a manifest missing from the kustomization", "k8s/kustomization.yaml",
     "  - worker.yaml\n", "", "does not list worker.yaml"),
    ("the API on the owner's login", "k8s/api.yaml",
     "                  key: CAIRN_APP_DATABASE_URL", "                  key: DATABASE_URL",
     "CAIRN_APP_DATABASE_URL comes from secret 'DATABASE_URL'"),
    ("the Secret's tenant login being the owner", "k8s/secret.example.yaml",
     "postgres://cairn_login:CHANGE_ME_TOO@", "postgres://cairn:CHANGE_ME_TOO@", "DATABASE_URL's user (the owner)"),
    ("migrations on the tenant login", "k8s/migrate-job.yaml",
     "                  key: DATABASE_URL", "                  key: CAIRN_APP_DATABASE_URL",
     "DATABASE_URL (the owner's login) is not"),
    ("a Secret key that does not exist", "k8s/worker.yaml",
     "                  key: CAIRN_APP_DATABASE_URL", "                  key: APP_URL", "key APP_URL"),
    ("the memory limit removed", "k8s/worker.yaml",
     "            limits:\n              memory: 1536Mi\n", "", "no resources.limits.memory"),
    ("root allowed", "k8s/api.yaml", "runAsNonRoot: true", "runAsNonRoot: false", "runAsNonRoot"),
    ("a writable root filesystem", "k8s/migrate-job.yaml",
     "readOnlyRootFilesystem: true", "readOnlyRootFilesystem: false", "readOnlyRootFilesystem"),
    ("a Service aimed at no port", "k8s/api.yaml",
     "      targetPort: http", "      targetPort: web", "targetPort 'web'"),
    ("a YAML syntax error", "k8s/worker.yaml", "kind: Deployment", "kind: [Deployment", "does not parse"),
    ("the postgres image unpinned", "docker-compose.yml",
     "image: pgvector/pgvector:0.8.0-pg16", "image: pgvector/pgvector:pg16", "not pinned to a pgvector release"),
    ("postgres without pgvector", "docker-compose.yml",
     "image: pgvector/pgvector:0.8.0-pg16", "image: postgres:16.4", "has no pgvector"),
    ("the compose API on the owner's login", "docker-compose.yml",
     "CAIRN_APP_DATABASE_URL: postgres://cairn_login:", "CAIRN_APP_DATABASE_URL: postgres://cairn:",
     "the owner's user"),
    ("the API not waiting for the migrations", "docker-compose.yml",
     "        condition: service_completed_successfully\n\n  cairn-worker:",
     "        condition: service_started\n\n  cairn-worker:", "(condition: service_completed_successfully)"),
    ("the API healthcheck removed", "docker-compose.yml",
     "    healthcheck:\n      test:\n        - CMD\n        - bash",
     "    x-healthcheck:\n      test:\n        - CMD\n        - bash",
     "no healthcheck"),
    ("the migrate service running serve", "docker-compose.yml",
     'command: ["migrate"]', 'command: ["serve"]', "one service running `cairn migrate`"),
    ("a compose image tagged latest", "docker-compose.yml",
     "image: cairn:local", "image: cairn:latest", "cairn:latest"),
    ("the tenant login INHERIT", "postgres-init.sh", "LOGIN NOINHERIT", "LOGIN INHERIT", "not NOINHERIT"),
    ("the tenant login BYPASSRLS", "postgres-init.sh",
     "NOBYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION", "BYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION",
     "cairn_login is created BYPASSRLS"),
    ("cairn_app BYPASSRLS", "postgres-init.sh",
     "NOLOGIN NOSUPERUSER NOBYPASSRLS", "NOLOGIN NOSUPERUSER BYPASSRLS", "cairn_app is created BYPASSRLS"),
    ("the tenant login in another role", "postgres-init.sh",
     "GRANT cairn_app TO cairn_login;", "GRANT cairn_app, pg_read_all_data TO cairn_login;", "pg_read_all_data"),
    ("the image running as root", "Dockerfile", "USER 10001:10001", "USER root", "runs as root"),
    ("an entrypoint that is not cairn", "Dockerfile",
     'ENTRYPOINT ["cairn"]', 'ENTRYPOINT ["/bin/sh", "-c"]', "ENTRYPOINT runs '/bin/sh'"),
    ("the image exposing another port", "Dockerfile", "EXPOSE 4545", "EXPOSE 8080", "EXPOSE says [8080]"),
    ("a table missing from the Citus section", "README.md",
     "| `job_schedule` | no | coordinator |\n", "", "does not place table job_schedule"),
]


def self_test():
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "deploy"

        def fresh():
            if copy.exists():
                shutil.rmtree(copy)
            shutil.copytree(ROOT / "deploy", copy)

        fresh()
        clean = Checker(copy).run().failures
        if clean:
            problems.append("the unmodified copy of deploy/ fails:\n  " + "\n  ".join(clean))
        for what, rel, old, new, expected in MUTATIONS:
            fresh()
            target = copy / rel
            text = target.read_text()
            if old not in text:
                problems.append(f"{what}: {old!r} is no longer in deploy/{rel}: update MUTATIONS")
                continue
            target.write_text(text.replace(old, new, 1))
            found = Checker(copy).run().failures
            if not any(expected in line for line in found):
                problems.append(f"{what} (deploy/{rel}) was not caught: no failure mentions {expected!r}; got {found}")
    for line in problems:
        print(line)
    if problems:
        print(f"deploy self-test: {len(problems)} of {len(MUTATIONS) + 1} cases failed")
        return 1
    print(f"deploy self-test: the unmodified copy passes and all {len(MUTATIONS)} mutations are caught")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--self-test", action="store_true", help="check that broken copies of deploy/ fail")
    parser.add_argument("--deploy", type=Path, default=ROOT / "deploy", help="the deploy/ directory to check")
    options = parser.parse_args()
    if options.self_test:
        return self_test()
    checker = Checker(options.deploy).run()
    for line in checker.failures:
        print(line)
    if checker.failures:
        print(f"deploy check: {len(checker.failures)} failed, {checker.passed} passed")
        return 1
    print(f"deploy check: {checker.passed} checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
