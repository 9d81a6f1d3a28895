//! Retrieval-quality evaluations run against a live server through the HTTP API.
//!
//! What they share: a throwaway tenant with a key per conversation, batches stored through
//! `/api/v1/memories/batch`, waiting until the worker has embedded them, questions asked through
//! `/api/v1/recall`, and latency percentiles.

pub mod locomo;
pub mod longmemeval;

use std::time::{Duration, Instant};

use anyhow::{bail, Context};
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
pub(crate) async fn store_batch(
    client: &reqwest::Client,
    url: &str,
    key: &str,
    items: Vec<Value>,
    repeats: bool,
) -> anyhow::Result<Vec<String>> {
    // Absent (null) is the endpoint's default: a content the tenant holds is that memory.
    let on_duplicate = repeats.then_some("store");
    let res = client
        .post(format!("{url}/api/v1/memories/batch"))
        .bearer_auth(key)
        .json(&json!({ "memories": items, "on_duplicate": on_duplicate }))
        .send()
        .await?;
    let status = res.status();
    let body: Value = res.json().await?;
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

/// One result of a question: the memory's id, its score and its score components.
pub(crate) struct Hit {
    pub id: String,
    pub score: f64,
    pub components: Value,
}

/// Asks `/api/v1/recall` with `body`; the results in rank order.
pub(crate) async fn recall(client: &reqwest::Client, url: &str, key: &str, body: &Value) -> anyhow::Result<Vec<Hit>> {
    let res = client.post(format!("{url}/api/v1/recall")).bearer_auth(key).json(body).send().await?;
    let status = res.status();
    let body: Value = res.json().await?;
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
