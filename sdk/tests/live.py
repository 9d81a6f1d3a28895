"""Proves the generated Python SDK (sdk/python, package cairn_client) usable against a running Cairn.

Every call goes through the generated client; every answer is checked. Input by environment:
CAIRN_URL (e.g. http://127.0.0.1:4545), CAIRN_ADMIN_EMAIL, CAIRN_ADMIN_PASSWORD. The script signs in
as that operator, creates a tenant and a key for it, exercises the memory API with the key, registers a webhook
(a receiver on loopback: the server must allow it, CAIRN_WEBHOOK_ALLOW_NETWORKS=127.0.0.1) and deletes
the tenant again (also when a step fails). One line per step; exit 1 naming the step that failed.

Run it with the venv that `sdk/generate.sh --install` sets up:
    $HOME/.cache/cairn/sdk-venv/bin/python sdk/tests/live.py
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import sys
import threading
import time
import traceback
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar, NoReturn, TypeVar

try:
    from cairn_client import AuthenticatedClient, Client
    from cairn_client.api.admin import (
        admin_login,
        tenant_keys_create,
        tenants_create,
        tenants_delete,
    )
    from cairn_client.api.graph import associations_create, memories_related
    from cairn_client.api.memories import (
        memories_delete,
        memories_get,
        memories_list,
        memories_store,
        memories_store_batch,
        memories_update,
    )
    from cairn_client.api.recall import recall_query
    from cairn_client.api.keys import tokens_mint
    from cairn_client.api.webhooks import webhooks_create, webhooks_list_deliveries
    from cairn_client.models import (
        AssociationInput,
        AssociationInputType,
        AssociationStored,
        BatchInput,
        BatchStored,
        CreatedKey,
        Deleted,
        EndpointParams,
        EndpointParamsEventTypesType0Item,
        ErrorBody,
        Login,
        MintedToken,
        NewToken,
        Memory,
        MemoryInput,
        MemoryInputMetadata,
        MemoryInputType,
        MemoryPage,
        MemoryPatch,
        NewKey,
        RecallParams,
        RecallParamsMode,
        RecallResponse,
        RelatedResponse,
        TenantBody,
        TenantDetail,
        TokenPair,
        Webhook,
        WebhookDeliveryPage,
    )
    from cairn_client.types import Response
except ImportError as error:  # pragma: no cover - a setup problem, not a failed step
    print(f"FAIL setup: cannot import the generated SDK ({error}); run sdk/generate.sh --install", file=sys.stderr)
    sys.exit(1)

T = TypeVar("T")


class StepFailed(Exception):
    pass


class Progress:
    """The step running now, wherever it runs (main or tenant_steps): what an unexpected exception is
    reported under."""

    def __init__(self) -> None:
        self.step = "setup"

    def begin(self, step: str) -> str:
        self.step = step
        return step


def fail(step: str, why: str) -> NoReturn:
    raise StepFailed(f"{step}: {why}")


def check(step: str, condition: bool, why: str) -> None:
    if not condition:
        fail(step, why)


def expect(step: str, response: Response[Any], status: int, model: type[T]) -> T:
    """The parsed answer of a call that should have answered `status` with a `model`."""
    body = response.content.decode("utf-8", "replace")[:500]
    if response.status_code != status:
        fail(step, f"expected HTTP {status}, got {response.status_code}: {body}")
    if not isinstance(response.parsed, model):
        fail(step, f"expected a {model.__name__}, parsed {type(response.parsed).__name__}: {body}")
    return response.parsed


def expect_error(step: str, response: Response[Any], status: int) -> ErrorBody:
    """The envelope of a call that should have failed with `status`, parsed into the generated ErrorBody."""
    error = expect(step, response, status, ErrorBody)
    check(step, error.status == "error", f'envelope status is {error.status!r}, not "error"')
    check(step, error.code == status, f"envelope code is {error.code}, not {status}")
    check(step, bool(error.message), "envelope message is empty")
    return error


def ok(step: str, detail: str) -> None:
    print(f"ok   {step}: {detail}", flush=True)


def env(name: str) -> str:
    value = os.environ.get(name, "")
    if not value:
        print(
            f"FAIL setup: {name} is not set (need CAIRN_URL, CAIRN_ADMIN_EMAIL, CAIRN_ADMIN_PASSWORD)", file=sys.stderr
        )
        sys.exit(1)
    return value


def main() -> int:
    base_url = env("CAIRN_URL").rstrip("/")
    email = env("CAIRN_ADMIN_EMAIL")
    password = env("CAIRN_ADMIN_PASSWORD")
    run = uuid.uuid4().hex[:12]
    admin: AuthenticatedClient | None = None
    tenant: TenantDetail | None = None
    failed: str | None = None
    progress = Progress()

    try:
        # a. The operator: sign in, create a tenant, issue it a key.
        step = progress.begin("admin login")
        with Client(base_url=base_url) as anonymous:
            tokens = expect(
                step,
                admin_login.sync_detailed(client=anonymous, body=Login(email=email, password=password)),
                200,
                TokenPair,
            )
        check(step, bool(tokens.access_token) and tokens.token_type == "Bearer", f"token_type {tokens.token_type!r}")
        check(step, tokens.admin.email.lower() == email.lower(), f"signed in as {tokens.admin.email!r}, not {email!r}")
        ok(step, f"access token for {tokens.admin.email}, expires in {tokens.expires_in}s")
        admin = AuthenticatedClient(base_url=base_url, token=tokens.access_token)

        step = progress.begin("create tenant")
        name = f"sdk-live-py-{run}"
        tenant = expect(step, tenants_create.sync_detailed(client=admin, body=TenantBody(name=name)), 201, TenantDetail)
        check(step, tenant.name == name, f"name {tenant.name!r}, not {name!r}")
        check(step, tenant.status == "active", f"status {tenant.status!r}, not active")
        ok(step, f"{tenant.name} ({tenant.id}), plan {tenant.plan}")

        step = progress.begin("issue tenant key")
        created = expect(
            step,
            tenant_keys_create.sync_detailed(
                tenant.id, client=admin, body=NewKey(scopes=["read", "write"], name="sdk live check")
            ),
            201,
            CreatedKey,
        )
        check(step, created.api_key.startswith("cairn_"), "the secret does not start with cairn_")
        check(step, created.key.tenant_id == tenant.id, f"key of tenant {created.key.tenant_id}, not {tenant.id}")
        check(step, {"read", "write"} <= set(created.key.scopes), f"scopes {created.key.scopes}")
        ok(step, f"key {created.key.prefix} with scopes {','.join(created.key.scopes)}")

        step = progress.begin("issue admin key")
        admin_key = expect(
            step,
            tenant_keys_create.sync_detailed(
                tenant.id, client=admin, body=NewKey(scopes=["admin"], name="sdk live webhooks")
            ),
            201,
            CreatedKey,
        )
        ok(step, f"key {admin_key.key.prefix} with scopes {','.join(admin_key.key.scopes)}")

        with AuthenticatedClient(base_url=base_url, token=created.api_key) as api:
            tenant_steps(api, run, progress)
            with AuthenticatedClient(base_url=base_url, token=admin_key.api_key) as admin_api:
                webhook_steps(api, admin_api, run, progress)
                token_steps(api, admin_api, base_url, run, progress)
    except StepFailed as error:
        failed = str(error)
    except Exception:  # an exception inside the SDK (e.g. a parse error) is a failed step too
        failed = f"{progress.step}: unexpected exception\n{traceback.format_exc()}"

    # c. Clean up, whatever happened above.
    if admin is not None and tenant is not None:
        step = progress.begin("delete tenant")
        try:
            deleted = expect(step, tenants_delete.sync_detailed(tenant.id, client=admin), 202, TenantDetail)
            check(step, deleted.status in ("deleting", "deleted"), f"status {deleted.status!r}")
            ok(step, f"{deleted.name} is {deleted.status}")
        except StepFailed as error:
            failed = failed or str(error)
        except Exception:
            failed = failed or f"{progress.step}: unexpected exception\n{traceback.format_exc()}"
    if admin is not None:
        admin.get_httpx_client().close()

    if failed:
        print(f"FAIL {failed}", file=sys.stderr)
        return 1
    print("live.py: every step passed")
    return 0


class Receiver(BaseHTTPRequestHandler):
    """A webhook receiver on loopback: keeps each request's headers and body."""

    got: ClassVar[list[tuple[dict[str, str], bytes]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        Receiver.got.append(({k.lower(): v for k, v in self.headers.items()}, body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def webhook_steps(api: AuthenticatedClient, admin_api: AuthenticatedClient, run: str, progress: Progress) -> None:
    # A webhook: registered with the admin key, an event of a store arrives signed, and the log says so.
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        step = progress.begin("register webhook")
        url = f"http://127.0.0.1:{server.server_address[1]}/hook"
        body = EndpointParams(url=url, event_types=[EndpointParamsEventTypesType0Item.MEMORY_CREATED])
        hook = expect(step, webhooks_create.sync_detailed(client=admin_api, body=body), 201, Webhook)
        secret = hook.secret if isinstance(hook.secret, str) else ""
        check(step, secret.startswith("whsec_"), "no whsec_ signing secret in the answer")
        ok(step, f"{hook.id} -> {hook.url} for {','.join(hook.event_types)}")

        step = progress.begin("webhook delivered")
        content = f"A webhook announces this memory of run {run}"
        stored = expect(step, memories_store.sync_detailed(client=api, body=MemoryInput(content=content)), 201, Memory)
        deadline = time.monotonic() + 20
        while not Receiver.got and time.monotonic() < deadline:
            time.sleep(0.1)
        check(step, bool(Receiver.got), "no webhook reached the receiver within 20 s")
        headers, raw = Receiver.got[0]
        signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + raw
        key = base64.b64decode(secret.removeprefix("whsec_"))
        expected = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
        check(step, hmac.compare_digest(headers.get("webhook-signature", ""), expected), "the signature does not verify")
        event = json.loads(raw)
        check(step, event["type"] == "memory.created", f"event type {event['type']!r}")
        check(step, event["data"]["memory_id"] == str(stored.id), f"event of memory {event['data']['memory_id']}")
        check(step, event["id"] == headers["webhook-id"], "the body's id is not the webhook-id")
        page = expect(
            step, webhooks_list_deliveries.sync_detailed(hook.id, client=admin_api), 200, WebhookDeliveryPage
        )
        deadline = time.monotonic() + 10
        while (not page.deliveries or page.deliveries[0].status != "delivered") and time.monotonic() < deadline:
            time.sleep(0.1)
            page = expect(
                step, webhooks_list_deliveries.sync_detailed(hook.id, client=admin_api), 200, WebhookDeliveryPage
            )
        check(step, page.total == 1 and page.deliveries[0].status == "delivered", f"log {page.to_dict()}")
        ok(step, f"{event['type']} signed and logged ({page.deliveries[0].attempts} attempt)")
    finally:
        server.shutdown()


def token_steps(api: AuthenticatedClient, admin_api: AuthenticatedClient, base_url: str, run: str, progress: Progress) -> None:
    # A short-lived token scoped to one end user, as a browser would hold: it stores for that end user and
    # sees nothing of the tenant's other memories.
    step = progress.begin("mint scoped token")
    end_user = f"sdk-user-{run}"
    minted = expect(
        step,
        tokens_mint.sync_detailed(client=admin_api, body=NewToken(scopes=["read", "write"], user_ids=[end_user], ttl_seconds=300)),
        201,
        MintedToken,
    )
    check(step, minted.token.startswith("cairn_tok_") and minted.expires_in == 300, f"token {minted.to_dict()}")
    ok(step, f"token for {end_user}, {minted.expires_in} s")

    step = progress.begin("scoped token stores and lists its end user only")
    outside = expect(step, memories_store.sync_detailed(client=api, body=MemoryInput(content=f"Not {end_user}'s memory, run {run}")), 201, Memory)
    with AuthenticatedClient(base_url=base_url, token=minted.token) as scoped:
        mine = expect(step, memories_store.sync_detailed(client=scoped, body=MemoryInput(content=f"{end_user} likes jasmine tea")), 201, Memory)
        check(step, mine.user_id == end_user, f"user_id {mine.user_id!r}, not the token's end user")
        page = expect(step, memories_list.sync_detailed(client=scoped, limit=50, offset=0), 200, MemoryPage)
        check(step, page.total == 1 and page.memories[0].id == mine.id, f"the token lists {page.total} memories")
        expect_error(step, memories_get.sync_detailed(outside.id, client=scoped), 404)
    ok(step, f"stored {mine.id} for {end_user}; the tenant's other memory is not found")


def tenant_steps(api: AuthenticatedClient, run: str, progress: Progress) -> None:
    # b. The tenant's key: store, batch, recall, associate, traverse, update, get, delete, page, errors.
    step = progress.begin("store memory")
    content = f"Chose PostgreSQL over MongoDB for run {run}: we need ACID transactions"
    stored = expect(
        step,
        memories_store.sync_detailed(
            client=api,
            body=MemoryInput(
                content=content,
                tags=["sdk-live", "database"],
                type_=MemoryInputType.DECISION,
                importance=0.8,
                metadata=MemoryInputMetadata.from_dict({"source": "live.py", "run": run}),
            ),
        ),
        201,
        Memory,
    )
    check(step, stored.content == content, f"content {stored.content!r}")
    check(step, set(stored.tags) == {"sdk-live", "database"}, f"tags {stored.tags}")
    check(step, stored.type_ == "Decision", f"type {stored.type_!r}")
    check(step, abs(stored.importance - 0.8) < 1e-6, f"importance {stored.importance}")
    check(step, stored.metadata.to_dict() == {"source": "live.py", "run": run}, f"metadata {stored.metadata.to_dict()}")
    ok(step, f"{stored.id} type={stored.type_} tags={','.join(sorted(stored.tags))} importance={stored.importance:g}")

    step = progress.begin("batch store")
    batch = expect(
        step,
        memories_store_batch.sync_detailed(
            client=api,
            body=BatchInput(
                memories=[
                    # Mentions PostgreSQL too, but is tagged and typed otherwise: recall's filters leave it out.
                    MemoryInput(
                        content=f"PostgreSQL vacuum runs nightly at two for run {run}",
                        tags=["sdk-live", "ops"],
                        type_=MemoryInputType.CONTEXT,
                        importance=0.4,
                    ),
                    MemoryInput(
                        content=f"Redis is the session cache for run {run}",
                        tags=["sdk-live", "cache"],
                        type_=MemoryInputType.CONTEXT,
                    ),
                    MemoryInput(
                        content=f"Deploys go out on Tuesdays for run {run}",
                        tags=["sdk-live", "process"],
                        type_=MemoryInputType.HABIT,
                    ),
                ]
            ),
        ),
        201,
        BatchStored,
    )
    check(step, batch.stored == 3 and len(batch.memory_ids) == 3, f"stored {batch.stored}, ids {batch.memory_ids}")
    check(step, [m.id for m in batch.memories] == batch.memory_ids, "memories are not in memory_ids' order")
    vacuum_id, redis_id, deploys_id = batch.memory_ids
    ok(step, f"{batch.stored} memories: {', '.join(str(i) for i in batch.memory_ids)}")

    step = progress.begin("recall with filters")
    recalled = expect(
        step,
        recall_query.sync_detailed(
            client=api,
            body=RecallParams(query="PostgreSQL", mode=RecallParamsMode.KEYWORD, tags=["database"], types=["Decision"]),
        ),
        200,
        RecallResponse,
    )
    found = [hit.memory.id for hit in recalled.results]
    check(step, stored.id in found, f"the stored memory {stored.id} is not among {found}")
    check(step, vacuum_id not in found, f"the memory tagged ops ({vacuum_id}) passed the tags/types filter")
    unfiltered = expect(
        step,
        recall_query.sync_detailed(client=api, body=RecallParams(query="PostgreSQL", mode=RecallParamsMode.KEYWORD)),
        200,
        RecallResponse,
    )
    unfiltered_ids = {hit.memory.id for hit in unfiltered.results}
    check(step, {stored.id, vacuum_id} <= unfiltered_ids, f"unfiltered recall found {sorted(map(str, unfiltered_ids))}")
    ok(
        step,
        f"mode={recalled.mode}: tags+types found {len(found)} ({stored.id}), without filters {len(unfiltered_ids)}",
    )

    step = progress.begin("associate")
    association = expect(
        step,
        associations_create.sync_detailed(
            client=api,
            body=AssociationInput(
                memory1_id=stored.id, memory2_id=redis_id, type_=AssociationInputType.RELATES_TO, strength=0.7
            ),
        ),
        201,
        AssociationStored,
    ).association
    check(step, (association.memory1_id, association.memory2_id) == (stored.id, redis_id), "wrong endpoints")
    check(step, association.type_ == "RELATES_TO", f"type {association.type_!r}")
    check(step, abs(association.strength - 0.7) < 1e-6, f"strength {association.strength}")
    ok(step, f"{association.id}: {stored.id} RELATES_TO {redis_id} ({association.strength:g})")

    step = progress.begin("traverse related")
    related = expect(step, memories_related.sync_detailed(stored.id, client=api, depth=1), 200, RelatedResponse)
    reached = {r.memory.id: r for r in related.related}
    check(step, related.memory_id == stored.id, f"memory_id {related.memory_id}")
    check(step, redis_id in reached, f"{redis_id} not among {list(reached)}")
    check(step, reached[redis_id].depth == 1, f"depth {reached[redis_id].depth}")
    check(step, len(reached[redis_id].path) == 1 and reached[redis_id].path[0].association_id == association.id, "path")
    ok(step, f"{related.count} related: {redis_id} at depth 1 over {association.id}")

    step = progress.begin("update memory")
    updated = expect(
        step,
        memories_update.sync_detailed(
            stored.id, client=api, body=MemoryPatch(importance=0.3, tags=["sdk-live", "database", "updated"])
        ),
        200,
        Memory,
    )
    check(step, abs(updated.importance - 0.3) < 1e-6, f"importance {updated.importance}")
    check(step, "updated" in updated.tags, f"tags {updated.tags}")
    ok(step, f"importance 0.8 -> {updated.importance:g}, tags {','.join(sorted(updated.tags))}")

    step = progress.begin("get memory")
    got = expect(step, memories_get.sync_detailed(stored.id, client=api), 200, Memory)
    check(step, abs(got.importance - 0.3) < 1e-6, f"importance {got.importance}, the update was not kept")
    check(step, set(got.tags) == {"sdk-live", "database", "updated"}, f"tags {got.tags}")
    check(step, got.content == content, f"content {got.content!r}")
    ok(step, f"{got.id} importance={got.importance:g} tags={','.join(sorted(got.tags))}")

    step = progress.begin("delete memory")
    deleted = expect(step, memories_delete.sync_detailed(deploys_id, client=api, hard=True), 200, Deleted)
    check(step, deleted.deleted and deleted.hard and deleted.id == deploys_id, f"answer {deleted.to_dict()}")
    expect_error(step, memories_get.sync_detailed(deploys_id, client=api), 404)
    ok(step, f"{deploys_id} deleted (hard={deleted.hard}); GET answers 404")

    step = progress.begin("page listing")
    remaining = {stored.id, vacuum_id, redis_id}
    first = expect(step, memories_list.sync_detailed(client=api, limit=2, offset=0), 200, MemoryPage)
    second = expect(step, memories_list.sync_detailed(client=api, limit=2, offset=2), 200, MemoryPage)
    first_ids = [m.id for m in first.memories]
    second_ids = [m.id for m in second.memories]
    check(step, first.total == 3 and second.total == 3, f"total {first.total}/{second.total}, not 3")
    check(step, first.count == 2 and first.has_more, f"page 1: count {first.count}, has_more {first.has_more}")
    check(step, second.count == 1 and not second.has_more, f"page 2: count {second.count}, has_more {second.has_more}")
    check(step, not set(first_ids) & set(second_ids), f"pages overlap: {first_ids} / {second_ids}")
    check(step, set(first_ids) | set(second_ids) == remaining, "the pages are not the remaining memories")
    ok(step, f"total={first.total}: offset 0 -> {first.count} (has_more), offset 2 -> {second.count} (last)")

    step = progress.begin("404 error envelope")
    missing = uuid.uuid4()
    error = expect_error(step, memories_get.sync_detailed(missing, client=api), 404)
    ok(step, f"GET {missing}: ErrorBody code={error.code} message={error.message!r}")

    step = progress.begin("400 error envelope")
    error = expect_error(
        step, memories_store.sync_detailed(client=api, body=MemoryInput(content="", tags=["sdk-live"])), 400
    )
    check(step, "content" in error.message, f"the message does not name the field content: {error.message!r}")
    ok(step, f"empty content: ErrorBody code={error.code} message={error.message!r}")


if __name__ == "__main__":
    sys.exit(main())
