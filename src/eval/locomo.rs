//! `cairn eval locomo`: evidence recall of `/api/v1/recall` on LoCoMo conversations.
//!
//! Each conversation goes into a fresh tenant (created through DATABASE_URL), one memory per dialog turn
//! ("Speaker: text", with `--with-captions` followed by "and shared <caption>." where the turn shared an image;
//! the session's date as the memory's time; the dia_id in metadata; with `--as-messages` one memory per sentence
//! of a turn, as a messenger's short messages), stored through the HTTP API. Every
//! question is asked through `/api/v1/recall`; a question's evidence turns found in the top k give recall@k
//! (share of its evidence), hit@k (any), and MRR; and at session level (the figure MemPalace and others
//! publish for LoCoMo), the share of the evidence's sessions among the sessions of the top-k turns.
//! Turns with identical text are one memory (the service deduplicates), standing for all their dia_ids (as
//! messages, only within a turn).
//! Nothing here is tuned to LoCoMo.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use chrono::{NaiveDateTime, TimeZone, Utc};
use serde::Deserialize;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::memory::content_hash;
use crate::store::Db;

#[derive(Debug, Deserialize)]
struct Sample {
    sample_id: String,
    conversation: serde_json::Map<String, Value>,
    qa: Vec<Qa>,
}

#[derive(Debug, Deserialize)]
struct Qa {
    question: String,
    #[serde(default)]
    evidence: Vec<String>,
    category: u8,
}

#[derive(Debug, Deserialize)]
struct Turn {
    speaker: String,
    dia_id: String,
    text: String,
    /// The caption of an image the turn shared (BLIP's): part of the turn as LoCoMo renders it.
    #[serde(default)]
    blip_caption: Option<String>,
}

/// A turn as a memory's content: `Speaker: text`, and where it shared an image and `captions` is on, LoCoMo's own
/// rendering of that (`… and shared a photo of ….`, as its evaluation code writes a turn), so what the image
/// showed is part of what was said, as a chat client storing the caption would keep it.
fn turn_content(turn: &Turn, captions: bool) -> String {
    let mut content = format!("{}: {}", turn.speaker, turn.text);
    if let Some(caption) = turn.blip_caption.as_deref().map(str::trim).filter(|c| captions && !c.is_empty()) {
        content.push_str(&format!(" and shared {}.", caption.trim_end_matches('.')));
    }
    content.chars().take(crate::memory::MAX_CONTENT_CHARS).collect()
}

/// One stored turn: content, time, the dia_ids that content stands for, its session (the episode) and its
/// place in it.
struct TurnMemory {
    content: String,
    at: chrono::DateTime<Utc>,
    dias: Vec<String>,
    episode: String,
    sequence: i64,
}

/// One conversation's turns.
struct Turns {
    memories: Vec<TurnMemory>,
    known: HashSet<String>,
    /// Whether a content may be stored more than once (`--as-messages`: in each turn that said it).
    repeats: bool,
}

fn session_time(text: &str) -> Option<chrono::DateTime<Utc>> {
    let cleaned = text.trim().replace("  ", " ");
    NaiveDateTime::parse_from_str(&cleaned, "%I:%M %p on %d %B, %Y").ok().map(|t| Utc.from_utc_datetime(&t))
}

/// A turn's text as the messages a messenger's user would have typed it in: its sentences (cut after `.`, `!` or
/// `?` followed by whitespace), each sent on its own (`--as-messages`).
fn messages(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if matches!(c, '.' | '!' | '?') && chars.peek().is_some_and(|(_, n)| n.is_whitespace()) {
            let end = at + c.len_utf8();
            while chars.peek().is_some_and(|(_, n)| n.is_whitespace()) {
                chars.next();
            }
            if let Some(&(next, _)) = chars.peek() {
                out.push(&text[start..end]);
                start = next;
            }
        }
    }
    out.push(&text[start..]);
    out.retain(|m| !m.trim().is_empty());
    if out.is_empty() {
        vec![text]
    } else {
        out
    }
}

fn turns(sample: &Sample, captions: bool, as_messages: bool) -> anyhow::Result<Turns> {
    let mut by_hash: HashMap<String, usize> = HashMap::new();
    let mut memories: Vec<TurnMemory> = Vec::new();
    let mut known = HashSet::new();
    let mut sessions: Vec<(u32, &Value)> = sample
        .conversation
        .iter()
        .filter_map(|(k, v)| k.strip_prefix("session_").and_then(|n| n.parse::<u32>().ok()).map(|n| (n, v)))
        .collect();
    sessions.sort_by_key(|(n, _)| *n);
    for (n, value) in sessions {
        let when = sample
            .conversation
            .get(&format!("session_{n}_date_time"))
            .and_then(Value::as_str)
            .and_then(session_time)
            .with_context(|| format!("{}: session {n} has no readable date", sample.sample_id))?;
        let turns: Vec<Turn> =
            serde_json::from_value(value.clone()).with_context(|| format!("{}: session {n}", sample.sample_id))?;
        let mut place = 0_i64;
        for turn in turns {
            known.insert(turn.dia_id.clone());
            let pieces = if as_messages { messages(&turn.text) } else { vec![turn.text.as_str()] };
            for (k, piece) in pieces.into_iter().enumerate() {
                // A caption goes with the first message of its turn.
                let blip_caption = turn.blip_caption.clone().filter(|_| k == 0);
                let message = Turn {
                    speaker: turn.speaker.clone(),
                    dia_id: turn.dia_id.clone(),
                    text: piece.to_owned(),
                    blip_caption,
                };
                let content = turn_content(&message, captions);
                // Turns keep their order within a session: one second apart.
                let at = when + chrono::Duration::seconds(place);
                // As messages, a short message repeated in another turn ("Thanks, Mel!") is a memory of its own
                // in its own place: one for both would stand for the evidence of every turn that said it.
                let identity = if as_messages { format!("{}\n{content}", message.dia_id) } else { content.clone() };
                let hash = content_hash(&identity);
                match by_hash.get(&hash) {
                    Some(&index) => memories[index].dias.push(message.dia_id),
                    None => {
                        by_hash.insert(hash, memories.len());
                        // Each session is an episode, its turns in order, as a chat client would store them.
                        let episode = format!("{}-session-{n}", sample.sample_id);
                        memories.push(TurnMemory { content, at, dias: vec![message.dia_id], episode, sequence: place });
                    }
                }
                place += 1;
            }
        }
    }
    Ok(Turns { memories, known, repeats: as_messages })
}

/// Evidence ids as given, split on ';' and whitespace, keeping only ids of existing turns.
fn clean_evidence(raw: &[String], known: &HashSet<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for id in raw.iter().flat_map(|e| e.split([';', ',', ' '])).map(str::trim).filter(|s| !s.is_empty()) {
        if known.contains(id) && !out.iter().any(|o| o == id) {
            out.push(id.to_owned());
        }
    }
    out
}

const KS: [usize; 4] = [1, 5, 10, 20];

#[derive(Default, Clone)]
struct Totals {
    questions: usize,
    recall: [f64; 4],
    hit: [f64; 4],
    /// Session-level recall@k: the share of the evidence's sessions among the sessions of the top k.
    session: [f64; 4],
    mrr: f64,
    latencies: Vec<Duration>,
}

/// The session of a dia_id ("D8:6" is turn 6 of session 8): the part before the colon.
fn session_of(dia: &str) -> &str {
    dia.split_once(':').map_or(dia, |(s, _)| s)
}

impl Totals {
    fn add(&mut self, evidence: &[String], ranked: &[Vec<String>], latency: Duration) {
        self.questions += 1;
        self.latencies.push(latency);
        for (slot, k) in KS.iter().enumerate() {
            let top: HashSet<&String> = ranked.iter().take(*k).flatten().collect();
            let found = evidence.iter().filter(|e| top.contains(e)).count();
            self.recall[slot] += found as f64 / evidence.len() as f64;
            self.hit[slot] += if found > 0 { 1.0 } else { 0.0 };
            let sessions: HashSet<&str> = top.iter().map(|d| session_of(d)).collect();
            let wanted: HashSet<&str> = evidence.iter().map(|d| session_of(d)).collect();
            self.session[slot] +=
                wanted.iter().filter(|s| sessions.contains(*s)).count() as f64 / wanted.len().max(1) as f64;
        }
        if let Some(rank) = ranked.iter().position(|ids| ids.iter().any(|id| evidence.contains(id))) {
            self.mrr += 1.0 / (rank + 1) as f64;
        }
    }

    fn merge(&mut self, other: &Totals) {
        self.questions += other.questions;
        for i in 0..4 {
            self.recall[i] += other.recall[i];
            self.hit[i] += other.hit[i];
            self.session[i] += other.session[i];
        }
        self.mrr += other.mrr;
        self.latencies.extend(other.latencies.iter().copied());
    }

    fn percentile(&self, p: f64) -> f64 {
        super::percentile_ms(&self.latencies, p)
    }

    fn line(&self, label: &str) -> String {
        let n = self.questions.max(1) as f64;
        format!(
            "{label}: n={} recall@1={:.3} recall@5={:.3} recall@10={:.3} recall@20={:.3} hit@1={:.3} hit@5={:.3} hit@10={:.3} hit@20={:.3} session@1={:.3} session@5={:.3} session@10={:.3} mrr={:.3} p50={:.1}ms p95={:.1}ms",
            self.questions,
            self.recall[0] / n, self.recall[1] / n, self.recall[2] / n, self.recall[3] / n,
            self.hit[0] / n, self.hit[1] / n, self.hit[2] / n, self.hit[3] / n,
            self.session[0] / n, self.session[1] / n, self.session[2] / n,
            self.mrr / n, self.percentile(0.5), self.percentile(0.95)
        )
    }
}

/// Options of one evaluation run.
pub struct EvalOptions<'a> {
    pub data: &'a Path,
    pub url: &'a str,
    pub mode: &'a str,
    pub keep_tenants: bool,
    /// Sweep the fusion weights offline (see [`sweep`]).
    pub sweep: bool,
    /// Results asked for per question (default 20; 100 with the sweep, which needs each question's top 100).
    pub limit: Option<u16>,
    /// Whether a turn that shared an image carries its caption ([`turn_content`]; `--with-captions`).
    pub captions: bool,
    /// Whether each turn is stored as its sentences, one message each ([`messages`]; `--as-messages`).
    pub as_messages: bool,
    /// Ask the questions of the tenants a run of the same file and form kept (the newest of each
    /// conversation's), storing nothing; those tenants are kept again.
    pub reuse_tenants: bool,
}

/// The name of a conversation's tenant: its sample id, and the form its turns were stored in (a kept tenant of
/// one form is never asked as another).
fn tenant_name(sample_id: &str, opts: &EvalOptions<'_>) -> String {
    let captions = if opts.captions { "captions-" } else { "" };
    let messages = if opts.as_messages { "messages-" } else { "" };
    format!("eval-locomo-{captions}{messages}{sample_id}")
}

/// Ingests, waits for embeddings, asks every question; prints the figures. `db` creates (and afterwards
/// deletes) the tenants.
pub async fn run(db: &Db, opts: EvalOptions<'_>) -> anyhow::Result<()> {
    if opts.sweep && opts.limit.is_some_and(|l| l < 100) {
        bail!("--sweep rescores each question's top 100: leave --limit out (or set it to 100)");
    }
    let samples: Vec<Sample> =
        serde_json::from_slice(&std::fs::read(opts.data).with_context(|| format!("reading {}", opts.data.display()))?)
            .context("parsing the LoCoMo file")?;
    let client = reqwest::Client::builder().timeout(Duration::from_secs(120)).build()?;
    if let Ok(path) = std::env::var("CAIRN_EVAL_DUMP") {
        // The side file of what each result id is (written as the turns are stored) starts empty.
        let _ = std::fs::remove_file(format!("{path}.memories"));
    }
    let mut by_category: BTreeMap<u8, Totals> = BTreeMap::new();
    // Categories 1-4 per conversation, in file order (for the tuning/held-out split).
    let mut by_conversation: Vec<(String, Totals)> = Vec::new();
    let mut asked: Vec<Asked> = Vec::new();
    let mut created: Vec<Uuid> = Vec::new();
    let kept = match opts.reuse_tenants {
        true => super::kept_tenants(db, "eval-locomo-").await?,
        false => HashMap::new(),
    };
    let outcome = async {
        super::wait_until_ready(&client, opts.url).await?;
        for sample in &samples {
            let turns = turns(sample, opts.captions, opts.as_messages)?;
            let name = tenant_name(&sample.sample_id, &opts);
            let (key, memory_dias) = match opts.reuse_tenants {
                true => {
                    let tenant = *kept
                        .get(&name)
                        .with_context(|| format!("no kept tenant named {name}-…: run once with --keep-tenants"))?;
                    created.push(tenant);
                    let key = super::eval_key(db, tenant).await?;
                    let dias = stored(&client, opts.url, &key, &turns).await?;
                    (key, dias)
                }
                false => {
                    let (tenant, key) = super::eval_tenant(db, &name).await?;
                    created.push(tenant);
                    let dias = ingest(&client, opts.url, &key, &turns).await?;
                    (key, dias)
                }
            };
            super::wait_for_embeddings(db, &created[created.len() - 1..], |_| {}).await?;
            let mut conversation = Totals::default();
            for qa in &sample.qa {
                let evidence = clean_evidence(&qa.evidence, &turns.known);
                if evidence.is_empty() {
                    continue;
                }
                let started = Instant::now();
                let limit = opts.limit.map_or(if opts.sweep { 100 } else { 20 }, usize::from);
                let answered = ask(&client, opts.url, &key, &qa.question, opts.mode, limit, &memory_dias).await?;
                let ranked: Vec<Vec<String>> = answered.iter().take(20).map(|a| a.dias.clone()).collect();
                by_category.entry(qa.category).or_default().add(&evidence, &ranked, started.elapsed());
                if (1..=4).contains(&qa.category) {
                    conversation.add(&evidence, &ranked, started.elapsed());
                    if opts.sweep {
                        asked.push(Asked {
                            conversation: by_conversation.len(),
                            category: qa.category,
                            question: qa.question.clone(),
                            evidence: evidence.clone(),
                            answered,
                        });
                    }
                }
            }
            by_conversation.push((sample.sample_id.clone(), conversation));
            eprintln!("[eval] {}: {} memories, {} questions", sample.sample_id, turns.memories.len(), sample.qa.len());
        }
        anyhow::Ok(())
    }
    .await;
    if !opts.keep_tenants && !opts.reuse_tenants {
        super::delete_tenants(db, &created).await?;
    }
    outcome?;
    let mut main = Totals::default();
    for (category, totals) in &by_category {
        println!("{}", totals.line(&format!("category {category}")));
        if (1..=4).contains(category) {
            main.merge(totals);
        }
    }
    println!("{}", main.line("categories 1-4 (detail)"));
    for (id, totals) in &by_conversation {
        println!("{}", totals.line(&format!("conversation {id}, categories 1-4")));
    }
    // Tune on the first three conversations, judge on the others: a gain only the first part shows is fitted.
    if by_conversation.len() > 3 {
        for (label, range) in
            [("conversations 1-3 (tuning)", 0..3), ("conversations 4+ (held out)", 3..by_conversation.len())]
        {
            let mut part = Totals::default();
            for (_, t) in &by_conversation[range] {
                part.merge(t);
            }
            let n = part.questions.max(1) as f64;
            println!(
                "{label}: n={} recall@10={:.3} recall@5={:.3} session@10={:.3} session@5={:.3} mrr={:.3}",
                part.questions,
                part.recall[2] / n,
                part.recall[1] / n,
                part.session[2] / n,
                part.session[1] / n,
                part.mrr / n
            );
        }
    }
    let n = main.questions.max(1) as f64;
    if opts.sweep {
        if opts.mode != "hybrid" {
            println!(
                "sweep skipped: its rescoring assumes hybrid mode with weighted fusion (mode here: {})",
                opts.mode
            );
        } else {
            // Each question was asked for 100 results (a wider candidate pool than the 20 of a plain run).
            sweep(&asked);
            // For experiments outside the service (CAIRN_EVAL_DUMP=FILE): one JSON line per question, with its
            // category, conversation, evidence and ranked candidates (dia ids and score components).
            if let Ok(path) = std::env::var("CAIRN_EVAL_DUMP") {
                let lines: Vec<String> = asked
                    .iter()
                    .map(|q| {
                        let answered: Vec<Value> = q
                            .answered
                            .iter()
                            .map(|a| json!({"id": a.id, "dias": a.dias, "score": a.score, "components": a.components}))
                            .collect();
                        json!({"conversation": q.conversation, "category": q.category, "question": q.question,
                               "evidence": q.evidence, "answered": answered})
                        .to_string()
                    })
                    .collect();
                std::fs::write(&path, lines.join("\n")).with_context(|| format!("writing {path}"))?;
            }
        }
    }
    if let Some(limit) = opts.limit.filter(|l| *l < 20) {
        println!("(asked {limit} results per question: the figures at k above {limit} count those {limit} only)");
    }
    println!(
        "categories 1-4: recall@1={:.3} recall@5={:.3} recall@10={:.3} recall@20={:.3} mrr={:.3} session@1={:.3} session@5={:.3} session@10={:.3}",
        main.recall[0] / n,
        main.recall[1] / n,
        main.recall[2] / n,
        main.recall[3] / n,
        main.mrr / n,
        main.session[0] / n,
        main.session[1] / n,
        main.session[2] / n
    );
    Ok(())
}

/// Stores the turns (batches of 500); returns memory id -> the dia_ids it stands for.
async fn ingest(
    client: &reqwest::Client,
    url: &str,
    key: &str,
    turns: &Turns,
) -> anyhow::Result<HashMap<String, Vec<String>>> {
    let mut dias = HashMap::new();
    let mut side = side_file()?;
    for chunk in turns.memories.chunks(500) {
        let items: Vec<Value> = chunk
            .iter()
            .map(|m| {
                json!({"content": m.content, "created_at": m.at.to_rfc3339(), "episode_id": m.episode,
                    "sequence_number": m.sequence, "metadata": {"dia_id": m.dias[0], "dia_ids": m.dias}})
            })
            .collect();
        for (id, m) in super::store_batch(client, url, key, items, turns.repeats).await?.into_iter().zip(chunk) {
            note_memory(&mut side, &id, &m.episode, m.sequence, &m.content)?;
            dias.insert(id, m.dias.clone());
        }
    }
    Ok(dias)
}

/// The memories a kept tenant holds (listed through the API with `key`), each with the dia_ids it stands for
/// (its metadata, as [`ingest`] stored it). Fails unless they are exactly `turns`' memories: a tenant of another
/// file or form would be scored as misses.
async fn stored(
    client: &reqwest::Client,
    url: &str,
    key: &str,
    turns: &Turns,
) -> anyhow::Result<HashMap<String, Vec<String>>> {
    let mut dias = HashMap::new();
    let mut side = side_file()?;
    // Each memory by its place, with its dia_ids and text (trimmed: the service trims what it stores); each
    // place is matched once, so a repeated place cannot stand for a missing one.
    let mut expected: HashMap<(String, i64), (&[String], &str)> = turns
        .memories
        .iter()
        .map(|m| ((m.episode.clone(), m.sequence), (m.dias.as_slice(), m.content.trim())))
        .collect();
    loop {
        let page: Value = client
            .get(format!("{url}/api/v1/memories"))
            .bearer_auth(key)
            .query(&[("limit", "200"), ("offset", &dias.len().to_string())])
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        let memories = page["memories"].as_array().context("memories")?;
        for m in memories {
            let (id, content) = (m["id"].as_str().context("id")?, m["content"].as_str().unwrap_or_default());
            let (episode, sequence) = (m["episode_id"].as_str().unwrap_or_default(), m["sequence_number"].as_i64());
            let found: Vec<String> = m["metadata"]["dia_ids"]
                .as_array()
                .map(|ids| ids.iter().filter_map(|d| d.as_str().map(str::to_owned)).collect())
                .unwrap_or_default();
            let sequence = sequence.unwrap_or(-1);
            if expected
                .remove(&(episode.to_owned(), sequence))
                .is_none_or(|(dias, text)| dias != found.as_slice() || text != content.trim())
            {
                bail!("the kept tenant holds a memory this file's turns do not ({id}): store it again");
            }
            note_memory(&mut side, id, episode, sequence, content)?;
            dias.insert(id.to_owned(), found);
        }
        if memories.is_empty() || !page["has_more"].as_bool().unwrap_or(false) {
            break;
        }
    }
    if !expected.is_empty() {
        bail!(
            "the kept tenant lacks {} of this file's {} memories: store it again",
            expected.len(),
            turns.memories.len()
        );
    }
    Ok(dias)
}

/// Beside the dump (`CAIRN_EVAL_DUMP`), what each result id is: its episode, place and text, for rescoring the
/// neighbour lift offline at other reaches. Appended to, once per conversation.
fn side_file() -> anyhow::Result<Option<(String, std::fs::File)>> {
    let Ok(path) = std::env::var("CAIRN_EVAL_DUMP") else { return Ok(None) };
    let side = format!("{path}.memories");
    let file =
        std::fs::OpenOptions::new().create(true).append(true).open(&side).with_context(|| format!("opening {side}"))?;
    Ok(Some((side, file)))
}

/// Writes what memory `id` is (its episode, place and text) to the side file, if there is one.
fn note_memory(
    side: &mut Option<(String, std::fs::File)>,
    id: &str,
    episode: &str,
    sequence: i64,
    content: &str,
) -> anyhow::Result<()> {
    if let Some((path, f)) = side.as_mut() {
        use std::io::Write;
        let line = json!({"id": id, "episode": episode, "sequence": sequence, "content": content});
        writeln!(f, "{line}").with_context(|| format!("writing {path}"))?;
    }
    Ok(())
}

/// One result of a question: the dia_ids it stands for, its score and its score components.
struct Answered {
    id: String,
    dias: Vec<String>,
    score: f64,
    components: Value,
}

/// Asks one question; returns, per result in rank order, the dia_ids it stands for.
async fn ask(
    client: &reqwest::Client,
    url: &str,
    key: &str,
    question: &str,
    mode: &str,
    limit: usize,
    dias: &HashMap<String, Vec<String>>,
) -> anyhow::Result<Vec<Answered>> {
    let body = json!({"query": super::query_text(question), "mode": mode, "limit": limit});
    Ok(super::recall(client, url, key, &body)
        .await?
        .into_iter()
        .map(|hit| Answered {
            dias: dias.get(&hit.id).cloned().unwrap_or_default(),
            id: hit.id,
            score: hit.score,
            components: hit.components,
        })
        .collect())
}

/// A question kept for the sweep: its conversation, evidence and answered candidates.
struct Asked {
    conversation: usize,
    category: u8,
    question: String,
    evidence: Vec<String>,
    answered: Vec<Answered>,
}

/// The weights a sweep ranks by: `a` of the cosine in relevance (`relevance = a·semantic + (1-a)·keyword`),
/// `w_rel` of relevance beside the priors (importance 0.12, recency 0.08, confidence and credibility 0.03 each,
/// as the service weighs them; the service's own share of relevance is 0.70/0.96 = 0.729), `t` of `time_match`
/// and `cov` of `coverage` (beside relevance and the priors, which sum to 1), the neighbour lift's `lift` (each
/// result moves that share of the way up to the best score of its episode's neighbours,
/// `score_components.neighbour`, as the service scored them), and, after the lift, what a result's share of
/// question costs it (`question`) and what a line of the speaker the question names gains (`speaker`); the
/// service reports both components whatever its own weights.
#[derive(Clone, Copy)]
struct Weights {
    a: f64,
    w_rel: f64,
    t: f64,
    cov: f64,
    lift: f64,
    question: f64,
    speaker: f64,
}

impl Weights {
    /// The service's own.
    fn service() -> Self {
        use crate::recall::score::{SEMANTIC_WEIGHT, W_COVERAGE, W_NEIGHBOUR, W_QUESTION, W_SPEAKER, W_TIME};
        Self {
            a: SEMANTIC_WEIGHT,
            w_rel: 0.70 / 0.96,
            t: W_TIME / 0.96,
            cov: W_COVERAGE / 0.96,
            lift: W_NEIGHBOUR,
            question: W_QUESTION,
            speaker: W_SPEAKER,
        }
    }
}

/// Recall@10 of `asked` ranked by `w`.
fn recall_at_10(asked: &[&Asked], w: Weights) -> f64 {
    let get = |c: &Value, k: &str| c.get(k).and_then(Value::as_f64);
    let mut total = 0.0;
    for q in asked {
        let mut scored: Vec<(f64, &Vec<String>)> = q
            .answered
            .iter()
            .map(|x| {
                let c = &x.components;
                let relevance = match (get(c, "semantic"), get(c, "keyword")) {
                    (Some(s), Some(k)) => w.a * s + (1.0 - w.a) * k,
                    (Some(s), None) => w.a * s,
                    (None, Some(k)) => (1.0 - w.a) * k,
                    (None, None) => 0.0,
                };
                let priors = 0.12 * get(c, "importance").unwrap_or(0.5)
                    + 0.08 * get(c, "recency").unwrap_or(0.5)
                    + 0.03 * get(c, "confidence").unwrap_or(0.5)
                    + 0.03 * get(c, "credibility").unwrap_or(0.5);
                let time = w.t * get(c, "time_match").unwrap_or(0.0);
                let coverage = w.cov * get(c, "coverage").unwrap_or(0.0);
                // Divided by the weights present, as the service blends: `neighbour` is on its scale.
                let present = 1.0
                    + if get(c, "time_match").is_some() { w.t } else { 0.0 }
                    + if get(c, "coverage").is_some() { w.cov } else { 0.0 };
                let own = (w.w_rel * relevance + (1.0 - w.w_rel) / 0.26 * priors + time + coverage) / present;
                let lifted = match get(c, "neighbour") {
                    Some(n) if n > own => own + w.lift * (n - own),
                    _ => own,
                };
                let after =
                    w.speaker * get(c, "speaker").unwrap_or(0.0) - w.question * get(c, "question").unwrap_or(0.0);
                (lifted + after, &x.dias)
            })
            .collect();
        scored.sort_by(|x, y| y.0.total_cmp(&x.0));
        let top: HashSet<&String> = scored.iter().take(10).flat_map(|(_, d)| d.iter()).collect();
        total += q.evidence.iter().filter(|e| top.contains(e)).count() as f64 / q.evidence.len() as f64;
    }
    total / asked.len().max(1) as f64
}

/// One line of the sweep: its label, the values tried, and the service's weights with that value set.
type SweepLine = (&'static str, &'static [f64], fn(f64) -> Weights);

/// Sweeps the fusion weights over the questions' top 100: the best on conversations 1-3 (tuning), and what it
/// gives on the others (held out). Prints the grid. The candidates are the service's top 100, ranked with its
/// own weights and scored with its neighbours' scores: each line's value at 0 is an estimate around that
/// ranking, not a run of the service without the rule.
fn sweep(asked: &[Asked]) {
    let tuning: Vec<&Asked> = asked.iter().filter(|q| q.conversation < 3).collect();
    let held: Vec<&Asked> = asked.iter().filter(|q| q.conversation >= 3).collect();
    let both = |w: Weights| format!("{:.3}/{:.3}", recall_at_10(&tuning, w), recall_at_10(&held, w));
    let service = Weights::service();
    println!(
        "sweep (offline, over each question's top 100): a = weight of cosine in relevance, w = weight of relevance"
    );
    let mut best = (f64::MIN, 0.0, 0.0);
    for w_rel in [0.6, 0.7, 0.8, 0.9, 1.0] {
        let mut line = format!("  w={w_rel:.1}:");
        for a in [0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9] {
            let w = Weights { a, w_rel, ..service };
            let t = recall_at_10(&tuning, w);
            line.push_str(&format!(" a={a:.2} {t:.3}/{:.3}", recall_at_10(&held, w)));
            if t > best.0 {
                best = (t, a, w_rel);
            }
        }
        println!("{line}   (tuning/held-out recall@10)");
    }
    let lines: [SweepLine; 5] = [
        ("weight of time_match", &[0.0, 0.06, 0.1, 0.15, 0.2, 0.25, 0.3], |t| Weights {
            t: t / 0.96,
            ..Weights::service()
        }),
        ("neighbour lift", &[0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8], |lift| Weights { lift, ..Weights::service() }),
        ("weight of coverage (as a share of relevance's weight)", &[0.0, 0.1, 0.2, 0.3, 0.4, 0.6], |share| Weights {
            cov: share * 0.70 / 0.96,
            ..Weights::service()
        }),
        ("weight of a result's share of question (after the lift)", &[0.0, 0.03, 0.05, 0.1, 0.12, 0.15, 0.2], |q| {
            Weights { question: q, ..Weights::service() }
        }),
        (
            "weight of a line of the speaker the question names (after the lift)",
            &[0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.1],
            |s| Weights { speaker: s, ..Weights::service() },
        ),
    ];
    for (label, values, weights) in lines {
        let mut line = format!("  {label}, a={:.2}, w=0.729:", service.a);
        for &v in values {
            line.push_str(&format!(" {v:.2} {}", both(weights(v))));
        }
        println!("{line}   (tuning/held-out recall@10)");
    }
    let tuned = Weights { a: best.1, w_rel: best.2, ..service };
    println!(
        "sweep best on tuning: a={:.2} w={:.1}: tuning {:.3}, held out {:.3} (the service now, a={:.2} w=0.729: {})",
        best.1,
        best.2,
        best.0,
        recall_at_10(&held, tuned),
        service.a,
        both(service)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evidence_is_split_and_unknown_ids_dropped() {
        let known: HashSet<String> = ["D8:6", "D9:17", "D1:3"].iter().map(|s| s.to_string()).collect();
        let raw = vec!["D8:6; D9:17".to_owned(), "D1:3".to_owned(), "D99:1".to_owned(), "D1:3".to_owned()];
        assert_eq!(clean_evidence(&raw, &known), ["D8:6", "D9:17", "D1:3"]);
    }

    #[test]
    fn each_form_of_a_conversation_is_kept_in_a_tenant_of_its_own() {
        let opts = |captions, as_messages| EvalOptions {
            data: Path::new("locomo.json"),
            url: "",
            mode: "hybrid",
            keep_tenants: true,
            sweep: false,
            limit: None,
            captions,
            as_messages,
            reuse_tenants: false,
        };
        let names: HashSet<String> = [(false, false), (false, true), (true, false), (true, true)]
            .map(|(c, m)| tenant_name("conv-26", &opts(c, m)))
            .into();
        assert_eq!(names.len(), 4, "{names:?}");
        // The form comes before the sample id, so `kept_tenants` finds each by the name before its random suffix.
        assert_eq!(tenant_name("conv-26", &opts(false, true)), "eval-locomo-messages-conv-26");
        assert_eq!(tenant_name("conv-26", &opts(false, false)), "eval-locomo-conv-26");
    }

    #[test]
    fn a_turn_as_messages_is_its_sentences() {
        assert_eq!(
            messages("Hey Mel! Good to see you!  How have you been?"),
            ["Hey Mel!", "Good to see you!", "How have you been?"]
        );
        // No cut inside a word, a number or at the end; nothing empty; a text of no sentence stays whole.
        assert_eq!(messages("It cost 3.50 at e.g.the shop. "), ["It cost 3.50 at e.g.the shop. "]);
        assert_eq!(messages("Wow!! Yes"), ["Wow!!", "Yes"]);
        assert_eq!(messages("   "), ["   "]);
        assert_eq!(messages(""), [""]);
    }

    #[test]
    fn a_turn_that_shared_an_image_carries_its_caption_as_locomo_renders_it() {
        let turn: Turn = serde_json::from_value(json!({"speaker": "Ann", "dia_id": "D1:2", "text": "Look!",
            "blip_caption": "a photo of a dog on a beach.", "img_url": ["https://example.com/x.jpg"]}))
        .unwrap();
        assert_eq!(turn_content(&turn, true), "Ann: Look! and shared a photo of a dog on a beach.");
        assert_eq!(turn_content(&turn, false), "Ann: Look!");
        let plain: Turn = serde_json::from_value(json!({"speaker": "Bo", "dia_id": "D1:3", "text": "Nice"})).unwrap();
        assert_eq!(turn_content(&plain, true), "Bo: Nice");
    }

    #[test]
    fn session_dates_parse() {
        assert_eq!(session_time("1:56 pm on 8 May, 2023").unwrap().to_rfc3339(), "2023-05-08T13:56:00+00:00");
        assert!(session_time("10:37 am on 27 June, 2023").is_some());
    }

    #[test]
    fn metrics_count_shares_hits_and_reciprocal_rank() {
        let mut t = Totals::default();
        let evidence = vec!["a".to_owned(), "b".to_owned()];
        let ranked = vec![
            vec!["x".to_owned()],
            vec!["a".to_owned()],
            vec!["y".to_owned()],
            vec![],
            vec![],
            vec!["b".to_owned()],
        ];
        t.add(&evidence, &ranked, Duration::from_millis(3));
        assert_eq!((t.recall[0], t.recall[1], t.recall[2]), (0.0, 0.5, 1.0));
        assert_eq!((t.hit[0], t.hit[1]), (0.0, 1.0));
        assert!((t.mrr - 0.5).abs() < 1e-9);
    }

    #[test]
    fn session_recall_counts_the_evidence_sessions_among_the_top_turns_sessions() {
        let mut t = Totals::default();
        // Evidence in sessions 1 and 2; the top 1 is another turn of session 1, the top 5 adds one of session 2.
        let evidence = vec!["D1:3".to_owned(), "D1:4".to_owned(), "D2:9".to_owned()];
        let ranked: Vec<Vec<String>> = [vec!["D1:7"], vec!["D3:1"], vec!["D3:2"], vec!["D2:1"], vec![]]
            .iter()
            .map(|v| v.iter().map(|s| s.to_string()).collect())
            .collect();
        t.add(&evidence, &ranked, Duration::from_millis(1));
        assert_eq!((t.session[0], t.session[1]), (0.5, 1.0));
        assert_eq!(t.recall[1], 0.0, "no evidence turn itself is in the top 5");
        assert_eq!(session_of("D12:40"), "D12");
    }
}
