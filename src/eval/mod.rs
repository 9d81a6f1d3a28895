//! Retrieval-quality evaluations run against a live server through the HTTP API.
//!
//! What they share: a throwaway tenant with a key per conversation, batches stored through
//! `/api/v1/memories/batch`, waiting until the worker has embedded them, questions asked through
//! `/api/v1/recall`, and latency percentiles.

pub mod locomo;
pub mod longmemeval;

use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use backon::{ExponentialBuilder, Retryable};
use serde_json::{json, Value};
use uuid::Uuid;

use crate::store::stats::{self, Pipeline};
use crate::store::{tenants, Db};

/// Creates a tenant on the unlimited plan (named `name` plus a random suffix) and a read/write key for it.
pub(crate) async fn eval_tenant(db: &Db, name: &str) -> anyhow::Result<(Uuid, String)> {
    let tenant = tenants::create_tenant(
        db.owner(),
        &format!("{name}-{}", Uuid::new_v4().simple()),
        "unlimited",
        &Default::default(),
    )
    .await?;
    Ok((tenant.id, eval_key(db, tenant.id).await?))
}

/// The newest active tenant of each name [`eval_tenant`] gave (`<name>-<32 hex digits>`) whose name starts with
/// `prefix`: the tenants earlier runs kept, by name.
pub(crate) async fn kept_tenants(db: &Db, prefix: &str) -> anyhow::Result<std::collections::HashMap<String, Uuid>> {
    let mut newest = std::collections::HashMap::new();
    let mut offset = 0;
    loop {
        // Oldest first: a later tenant of the same name replaces an earlier one.
        let (page, total) = tenants::list_tenants(db.owner(), Some("active"), 500, offset).await?;
        if page.is_empty() {
            break;
        }
        offset += page.len() as i64;
        for row in page {
            let name = &row.tenant.name;
            if let Some((base, suffix)) = name.rsplit_once('-') {
                if base.starts_with(prefix) && suffix.len() == 32 && suffix.bytes().all(|b| b.is_ascii_hexdigit()) {
                    newest.insert(base.to_owned(), row.tenant.id);
                }
            }
        }
        if offset >= total {
            break;
        }
    }
    Ok(newest)
}

/// A new read/write key named "eval" for `tenant`.
pub(crate) async fn eval_key(db: &Db, tenant: Uuid) -> anyhow::Result<String> {
    let new = crate::tenancy::NewKey {
        scopes: vec!["read".to_owned(), "write".to_owned()],
        name: Some("eval".into()),
        ..Default::default()
    };
    Ok(crate::auth::create_key(db.owner(), tenant, &new).await?.1)
}

/// Deletes the evaluation's tenants and everything they hold.
pub(crate) async fn delete_tenants(db: &Db, ids: &[Uuid]) -> anyhow::Result<()> {
    for id in ids {
        tenants::delete_tenant(db.owner(), *id, crate::queue::TENANT_QUEUES).await?;
    }
    Ok(())
}

/// Stores one batch (`items` as `/api/v1/memories/batch` takes them; with `repeats`, a content the tenant holds
/// is stored again, `on_duplicate: store`); the new memories' ids in order.
pub async fn store_batch(
    client: &reqwest::Client,
    url: &str,
    key: &str,
    items: Vec<Value>,
    repeats: bool,
) -> anyhow::Result<Vec<String>> {
    // Absent (null) is the endpoint's default: a content the tenant holds is that memory.
    let on_duplicate = repeats.then_some("store");
    let body = json!({ "memories": items, "on_duplicate": on_duplicate });
    let (status, body) = post(client, url, key, "/api/v1/memories/batch", &body).await?;
    if status.as_u16() != 201 {
        bail!("storing a batch failed ({status}): {body}");
    }
    Ok(body["memory_ids"]
        .as_array()
        .context("memory_ids")?
        .iter()
        .map(|id| id.as_str().unwrap_or_default().to_owned())
        .collect())
}

/// The first pause before a request the server put off is sent again; each further one doubles, with jitter.
const FIRST_RETRY: Duration = Duration::from_millis(500);
/// How many times a put-off request is sent again: pauses of about 0.5 + 1 + … + 16 s, half a minute in all.
const RETRIES: usize = 6;
/// The longest pause a `Retry-After` can ask for.
const LONGEST_RETRY_AFTER: Duration = Duration::from_secs(30);

/// A request the server put off (503: shed or stopped by the statement timeout; 429: over a limit): nothing of it
/// was done, so it may be sent again as it was.
struct PutOff {
    status: reqwest::StatusCode,
    body: Value,
    /// What its `Retry-After` asked for (whole seconds, at most [`LONGEST_RETRY_AFTER`]).
    retry_after: Option<Duration>,
}

enum Failure {
    PutOff(PutOff),
    Other(anyhow::Error),
}

/// Posts `body` to `path` with `key`; the answer's status and JSON body. A request the server puts off (503 or 429)
/// is sent again after a pause that doubles from half a second ([`RETRIES`] times; never shorter than its
/// `Retry-After`, which counts up to [`LONGEST_RETRY_AFTER`]): an evaluation storing thousands of memories on a busy machine (a batch stopped by
/// the statement timeout while the worker embeds beside it) goes on instead of losing an hour's ingest. The
/// answer given up on is returned as it came, for the caller to report.
async fn post(
    client: &reqwest::Client,
    url: &str,
    key: &str,
    path: &str,
    body: &Value,
) -> anyhow::Result<(reqwest::StatusCode, Value)> {
    let attempt = || async {
        let res = client
            .post(format!("{url}{path}"))
            .bearer_auth(key)
            .json(body)
            .send()
            .await
            .map_err(|e| Failure::Other(e.into()))?;
        let status = res.status();
        let retry_after = res
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok())
            .map(|secs| Duration::from_secs(secs).min(LONGEST_RETRY_AFTER));
        // A proxy's 503 need not be JSON: its text stands for the body then.
        let text = res.text().await.map_err(|e| Failure::Other(e.into()))?;
        let answer = serde_json::from_str(&text).unwrap_or(Value::String(text));
        match status {
            reqwest::StatusCode::SERVICE_UNAVAILABLE | reqwest::StatusCode::TOO_MANY_REQUESTS => {
                Err(Failure::PutOff(PutOff { status, body: answer, retry_after }))
            }
            _ => Ok((status, answer)),
        }
    };
    let backoff = ExponentialBuilder::default()
        .with_min_delay(FIRST_RETRY)
        .with_factor(2.0)
        .with_jitter()
        .with_max_times(RETRIES);
    let outcome = attempt
        .retry(backoff)
        .when(|f: &Failure| matches!(f, Failure::PutOff(_)))
        // Never sooner than the server asked; `None` (the retries spent) stays `None`.
        .adjust(|f: &Failure, next: Option<Duration>| match f {
            Failure::PutOff(PutOff { retry_after: Some(asked), .. }) => next.map(|n| n.max(*asked)),
            _ => next,
        })
        .notify(|f: &Failure, after: Duration| {
            if let Failure::PutOff(p) = f {
                tracing::warn!(status = p.status.as_u16(), path, retry_in_ms = after.as_millis() as u64,
                    message = %p.body["message"], "the server put a request off; sending it again");
            }
        })
        .await;
    match outcome {
        Ok(answer) => Ok(answer),
        Err(Failure::PutOff(p)) => Ok((p.status, p.body)),
        Err(Failure::Other(e)) => Err(e),
    }
}

/// Memories of one tenant still waiting for their embedding, and for their enrichment.
pub(crate) async fn pending_background(db: &Db, tenant: Uuid) -> anyhow::Result<(i64, i64)> {
    let mut tx = db.begin_tenant(tenant).await?;
    let embedding = stats::pipeline_counts(&mut tx, Pipeline::Embedding).await?;
    let enrichment = stats::pipeline_counts(&mut tx, Pipeline::Enrichment).await?;
    tx.commit().await?;
    let waiting = |counts: &[(String, i64)]| counts.iter().find(|(state, _)| state == "pending").map_or(0, |c| c.1);
    Ok((waiting(&embedding), waiting(&enrichment)))
}

/// Waits until every memory of `tenants` has its embedding and its enrichment (or failed): the store as
/// recall will see it once the background work is done (enrichment waits for the embedding, `jobs::EmbedFirst`).
/// Gives up when ten minutes pass without one of them getting done (no worker with a model running).
/// `progress` hears the pending embeddings.
///
/// A tenant found done is not asked again (nothing is stored meanwhile), and the pause between two looks grows
/// with the tenants still asked about (50 ms each, at least 250 ms): counting 60 tenants four times a second took
/// most of a core from the Postgres the worker writes to.
pub(crate) async fn wait_for_embeddings(db: &Db, tenants: &[Uuid], progress: impl Fn(i64)) -> anyhow::Result<()> {
    let mut last = (i64::MAX, Instant::now());
    let mut waiting: Vec<(Uuid, i64)> = tenants.iter().map(|&id| (id, 0)).collect();
    loop {
        let (mut embeddings, mut enrichments) = (0, 0);
        for (id, left) in &mut waiting {
            let (e, n) = pending_background(db, *id).await?;
            (embeddings, enrichments, *left) = (embeddings + e, enrichments + n, e + n);
        }
        waiting.retain(|(_, left)| *left > 0);
        progress(embeddings);
        let pending = embeddings + enrichments;
        if pending == 0 {
            return Ok(());
        }
        if pending < last.0 {
            last = (pending, Instant::now());
        } else if last.1.elapsed() > Duration::from_secs(600) {
            bail!(
                "{embeddings} memories have waited ten minutes for an embedding and {enrichments} for their enrichment: \
                 is a worker with a model running?"
            );
        }
        tokio::time::sleep(Duration::from_millis((50 * waiting.len() as u64).max(250))).await;
    }
}

/// How long an evaluation waits for the server to be ready before it asks anything.
const READY_WITHIN: Duration = Duration::from_secs(600);

/// Waits until the server at `url` can serve every request (`GET /api/v1/ready`: its database answers and its
/// embedding model is loaded, or none is configured). A question asked before the model has loaded is answered
/// by keywords alone (with a `notice`) and counted as if the service had ranked it: `--reuse-tenants` asks at
/// once, while its own server is still loading the model, and so does a run against a server just started
/// (`--url`). A model that failed to load, or a server not ready within ten minutes, ends the run with why.
pub async fn wait_until_ready(client: &reqwest::Client, url: &str) -> anyhow::Result<()> {
    let deadline = Instant::now() + READY_WITHIN;
    loop {
        let last = match client.get(format!("{url}/api/v1/ready")).send().await {
            Ok(res) if res.status().is_success() => return Ok(()),
            Ok(res) => {
                let status = res.status();
                let body: Value = res.json().await.unwrap_or_default();
                if body["embedder"] == "failed" {
                    bail!("the server at {url} has no embedding model: it failed to load (see the server's log)");
                }
                format!("{status}: {body}")
            }
            Err(err) => err.to_string(),
        };
        if Instant::now() >= deadline {
            bail!("the server at {url} was not ready within {} s (GET /api/v1/ready: {last})", READY_WITHIN.as_secs());
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// One result of a question: the memory's id, its score and its score components.
pub struct Hit {
    pub id: String,
    pub score: f64,
    pub components: Value,
}

/// Asks `/api/v1/recall` with `body`; the results in rank order.
pub async fn recall(client: &reqwest::Client, url: &str, key: &str, body: &Value) -> anyhow::Result<Vec<Hit>> {
    let (status, body) = post(client, url, key, "/api/v1/recall", body).await?;
    if !status.is_success() {
        bail!("recall failed ({status}): {body}");
    }
    Ok(body["results"]
        .as_array()
        .context("results")?
        .iter()
        .map(|r| Hit {
            id: r["memory"]["id"].as_str().unwrap_or_default().to_owned(),
            score: r["score"].as_f64().unwrap_or_default(),
            components: r["score_components"].clone(),
        })
        .collect())
}

/// The `p` quantile (0..=1) of `latencies` in milliseconds, 0 when there are none.
pub(crate) fn percentile_ms(latencies: &[Duration], p: f64) -> f64 {
    let mut ms: Vec<f64> = latencies.iter().map(|d| d.as_secs_f64() * 1000.0).collect();
    if ms.is_empty() {
        return 0.0;
    }
    ms.sort_by(f64::total_cmp);
    ms[((ms.len() as f64 - 1.0) * p).round() as usize]
}

/// A question's text as the recall endpoint takes it (at most its query length).
pub(crate) fn query_text(question: &str) -> String {
    question.chars().take(crate::recall::MAX_QUERY_CHARS).collect()
}
