//! `cairn eval longmemeval`: session and turn recall of `/api/v1/recall` on LongMemEval questions.
//!
//! Reads the official files as distributed (`longmemeval_s.json`, `longmemeval_oracle.json`: a list of
//! questions, each with its own haystack of sessions). Each question's haystack goes into a fresh tenant named
//! after the question (`--reuse-tenants` asks again those an earlier `--keep-tenants` run left): one memory per
//! turn (a turn longer than the service stores unsummarised is stored as consecutive parts), each session an
//! episode in order, the session's date as its turns' time (one second apart). The question is asked through
//! `/api/v1/recall` with `question_date` as its `reference_time`, so "last week" counts back from the day it is
//! asked.
//!
//! Metrics, per question type and overall, as LongMemEval's own retrieval evaluation computes them from a
//! turn ranking: the sessions of the results in rank order, deduplicated; `any@k` when one of the answer
//! sessions is among the first k of them, `all@k` when all are; `ndcg@10` over those first 10 sessions (an
//! answer session is relevant); `turn@10` the share of the turns marked `has_answer` among the top 10
//! results (questions without such turns left out of it). Nothing here is tuned to LongMemEval.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use chrono::{DateTime, NaiveDateTime, Utc};
use serde::Deserialize;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::memory::content_hash;
use crate::memory::summarize::SUMMARIZE_OVER;
use crate::store::Db;

#[derive(Debug, Deserialize)]
struct Question {
    question_id: String,
    question_type: String,
    question: String,
    question_date: String,
    #[serde(default)]
    answer_session_ids: Vec<String>,
    haystack_dates: Vec<String>,
    haystack_session_ids: Vec<String>,
    haystack_sessions: Vec<Vec<Turn>>,
}

#[derive(Debug, Deserialize)]
struct Turn {
    #[serde(default)]
    role: String,
    content: String,
    #[serde(default)]
    has_answer: bool,
}

/// A turn's place: its session's index in the haystack and its own index in the session.
type TurnId = (usize, usize);

/// One memory to store: its text, time, episode and place, and the turns it stands for (identical texts
/// are one memory).
struct Part {
    content: String,
    at: DateTime<Utc>,
    session: usize,
    sequence: usize,
    turns: Vec<TurnId>,
}

/// A question's haystack as memories, and the turns that hold its answer.
struct Haystack {
    parts: Vec<Part>,
    answer_turns: HashSet<TurnId>,
}

/// LongMemEval's dates: "2023/05/20 (Sat) 02:21".
fn parse_date(text: &str) -> Option<DateTime<Utc>> {
    let mut words = text.split_whitespace();
    let (day, time) = (words.next()?, words.last().unwrap_or("00:00"));
    NaiveDateTime::parse_from_str(&format!("{day} {time}"), "%Y/%m/%d %H:%M").ok().map(|t| t.and_utc())
}

/// `text` in pieces of at most `max` characters, cut at whitespace where there is some.
fn pieces(text: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while rest.chars().count() > max {
        let cut = rest.char_indices().nth(max).map_or(rest.len(), |(i, _)| i);
        let at = rest[..cut].rfind(char::is_whitespace).filter(|&i| i > 0).unwrap_or(cut);
        out.push(rest[..at].trim_end().to_owned());
        rest = rest[at..].trim_start();
    }
    if !rest.is_empty() {
        out.push(rest.to_owned());
    }
    out
}

fn haystack(q: &Question) -> anyhow::Result<Haystack> {
    if q.haystack_sessions.len() != q.haystack_session_ids.len() || q.haystack_dates.len() != q.haystack_sessions.len()
    {
        bail!(
            "question {}: haystack_sessions, haystack_session_ids and haystack_dates differ in length",
            q.question_id
        );
    }
    let mut parts: Vec<Part> = Vec::new();
    let mut by_hash: HashMap<String, usize> = HashMap::new();
    let mut answer_turns = HashSet::new();
    for (s, (session, date)) in q.haystack_sessions.iter().zip(&q.haystack_dates).enumerate() {
        let when = parse_date(date).with_context(|| format!("question {}: unreadable date {date:?}", q.question_id))?;
        let mut sequence = 0;
        for (t, turn) in session.iter().enumerate() {
            if turn.has_answer {
                answer_turns.insert((s, t));
            }
            // A turn longer than what the service stores whole (content governance summarises more than
            // SUMMARIZE_OVER characters, keeping the original aside) is stored in consecutive parts, as a chat
            // client storing long turns would: every word stays in a memory's own content and vector (the
            // model reads about 1,000 characters of a text at most anyway).
            for piece in pieces(&turn.content, SUMMARIZE_OVER) {
                match by_hash.get(&content_hash(&piece)) {
                    Some(&i) => parts[i].turns.push((s, t)),
                    None => {
                        by_hash.insert(content_hash(&piece), parts.len());
                        let at = when + chrono::Duration::seconds(sequence as i64);
                        parts.push(Part { content: piece, at, session: s, sequence, turns: vec![(s, t)] });
                        sequence += 1;
                    }
                }
            }
        }
    }
    Ok(Haystack { parts, answer_turns })
}

/// Up to `n` questions taken in turn from each question type (in file order), so a small run covers them all.
fn choose(questions: Vec<Question>, n: Option<usize>) -> Vec<Question> {
    let Some(n) = n else { return questions };
    let mut by_type: BTreeMap<String, std::collections::VecDeque<Question>> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for q in questions {
        if !by_type.contains_key(&q.question_type) {
            order.push(q.question_type.clone());
        }
        by_type.entry(q.question_type.clone()).or_default().push_back(q);
    }
    let mut out = Vec::new();
    while out.len() < n && by_type.values().any(|v| !v.is_empty()) {
        for kind in &order {
            if out.len() < n {
                out.extend(by_type.get_mut(kind).and_then(|v| v.pop_front()));
            }
        }
    }
    out
}

const KS: [usize; 3] = [1, 5, 10];

#[derive(Default)]
struct Totals {
    questions: usize,
    any: [f64; 3],
    all: [f64; 3],
    ndcg: f64,
    /// Turn recall@10 summed over the questions that have answer turns, and their number.
    turn: f64,
    with_turns: usize,
    latencies: Vec<Duration>,
}

/// What one question's ranking scored.
#[derive(Debug, PartialEq)]
struct Scored {
    any: [bool; 3],
    all: [bool; 3],
    ndcg: f64,
    turn: Option<f64>,
}

/// Scores a ranking: `ranked` holds, per result in rank order, the turns it stands for; `session_ids` names
/// the haystack's sessions.
fn score(ranked: &[Vec<TurnId>], session_ids: &[String], gold: &[String], answer_turns: &HashSet<TurnId>) -> Scored {
    let mut sessions: Vec<&str> = Vec::new();
    for &(s, _) in ranked.iter().flatten() {
        let id = session_ids[s].as_str();
        if !sessions.contains(&id) {
            sessions.push(id);
        }
    }
    let gold: HashSet<&str> = gold.iter().map(String::as_str).collect();
    let mut any = [false; 3];
    let mut all = [false; 3];
    for (slot, k) in KS.iter().enumerate() {
        let top: HashSet<&str> = sessions.iter().take(*k).copied().collect();
        any[slot] = gold.iter().any(|g| top.contains(g));
        all[slot] = !gold.is_empty() && gold.iter().all(|g| top.contains(g));
    }
    let discount = |i: usize| 1.0 / ((i + 2) as f64).log2();
    let dcg: f64 =
        sessions.iter().take(10).enumerate().filter(|(_, s)| gold.contains(*s)).map(|(i, _)| discount(i)).sum();
    let ideal: f64 = (0..gold.len().min(10)).map(discount).sum();
    let ndcg = if ideal > 0.0 { dcg / ideal } else { 0.0 };
    let turn = (!answer_turns.is_empty()).then(|| {
        let top: HashSet<&TurnId> = ranked.iter().take(10).flatten().collect();
        answer_turns.iter().filter(|t| top.contains(t)).count() as f64 / answer_turns.len() as f64
    });
    Scored { any, all, ndcg, turn }
}

impl Totals {
    fn add(&mut self, s: &Scored, latency: Duration) {
        self.questions += 1;
        for i in 0..3 {
            self.any[i] += f64::from(u8::from(s.any[i]));
            self.all[i] += f64::from(u8::from(s.all[i]));
        }
        self.ndcg += s.ndcg;
        if let Some(t) = s.turn {
            self.turn += t;
            self.with_turns += 1;
        }
        self.latencies.push(latency);
    }

    fn merge(&mut self, o: &Totals) {
        self.questions += o.questions;
        for i in 0..3 {
            self.any[i] += o.any[i];
            self.all[i] += o.all[i];
        }
        self.ndcg += o.ndcg;
        self.turn += o.turn;
        self.with_turns += o.with_turns;
        self.latencies.extend(o.latencies.iter().copied());
    }

    /// The figures, `any@1=… any@5=… any@10=… all@5=… all@10=… turn@10=… ndcg@10=…`.
    fn figures(&self) -> String {
        let n = self.questions.max(1) as f64;
        format!(
            "any@1={:.3} any@5={:.3} any@10={:.3} all@5={:.3} all@10={:.3} turn@10={:.3} ndcg@10={:.3}",
            self.any[0] / n,
            self.any[1] / n,
            self.any[2] / n,
            self.all[1] / n,
            self.all[2] / n,
            self.turn / self.with_turns.max(1) as f64,
            self.ndcg / n
        )
    }

    fn detail(&self) -> String {
        format!(
            "all@1={:.3} questions with answer turns={} p50={:.1}ms p95={:.1}ms",
            self.all[0] / self.questions.max(1) as f64,
            self.with_turns,
            super::percentile_ms(&self.latencies, 0.5),
            super::percentile_ms(&self.latencies, 0.95)
        )
    }
}

/// Options of one evaluation run.
pub struct EvalOptions<'a> {
    pub data: &'a Path,
    pub url: &'a str,
    pub mode: &'a str,
    pub keep_tenants: bool,
    /// Results asked per question (default 50: the sessions at k = 10 need more than ten turns).
    pub limit: Option<u16>,
    /// At most this many questions, taken in turn from each question type.
    pub questions: Option<usize>,
    /// Ask the questions of the tenants a run with `keep_tenants` left (the newest of each question's), storing
    /// nothing: a change of ranking is measured in minutes instead of the hour the embeddings take. Those tenants
    /// are kept again.
    pub reuse_tenants: bool,
}

/// The tenant an earlier run kept for the question named `name` (from [`super::kept_tenants`]), a new key for it, and
/// which turns each of its memories stands for (found by content hash, in one query). Fails unless the tenant
/// holds exactly this haystack's parts (another file's haystack for the same question, or turns cut
/// differently, would otherwise be scored as misses).
async fn reuse(
    db: &Db,
    kept: &HashMap<String, Uuid>,
    name: &str,
    hay: &Haystack,
) -> anyhow::Result<(Uuid, String, HashMap<String, Vec<TurnId>>)> {
    let tenant =
        *kept.get(name).with_context(|| format!("no kept tenant named {name}-…: run once with --keep-tenants"))?;
    let mut tx = db.begin_tenant(tenant).await?;
    let held: i64 = crate::store::stats::pipeline_counts(&mut tx, crate::store::stats::Pipeline::Embedding)
        .await?
        .iter()
        .map(|(_, n)| n)
        .sum();
    if held != hay.parts.len() as i64 {
        bail!("tenant {tenant} ({name}) holds {held} memories, its haystack {} parts: store it again", hay.parts.len());
    }
    let hashes: Vec<String> = hay.parts.iter().map(|p| content_hash(&p.content)).collect();
    let found = crate::store::memories::find_visible(&mut tx, &hashes).await?;
    tx.commit().await?;
    let mut turns = HashMap::new();
    for (part, hash) in hay.parts.iter().zip(&hashes) {
        let id = found
            .get(hash)
            .with_context(|| format!("tenant {tenant} ({name}) lacks a memory of its haystack: store it again"))?;
        turns.insert(id.to_string(), part.turns.clone());
    }
    // Each reuse adds a key named "eval" to the tenant: the earlier ones' secrets are not kept anywhere.
    let key = super::eval_key(db, tenant).await?;
    Ok((tenant, key, turns))
}

/// Stores `q`'s haystack through the API with `key`; which turns each new memory stands for.
async fn store_haystack(
    client: &reqwest::Client,
    url: &str,
    key: &str,
    q: &Question,
    hay: &Haystack,
) -> anyhow::Result<HashMap<String, Vec<TurnId>>> {
    let mut turns = HashMap::new();
    for chunk in hay.parts.chunks(500) {
        let items: Vec<Value> = chunk
            .iter()
            .map(|p| {
                json!({"content": p.content, "created_at": p.at.to_rfc3339(),
                       "episode_id": q.haystack_session_ids[p.session], "sequence_number": p.sequence,
                       "metadata": {"session_id": q.haystack_session_ids[p.session],
                                    "role": q.haystack_sessions[p.session][p.turns[0].1].role}})
            })
            .collect();
        for (id, p) in super::store_batch(client, url, key, items, false).await?.into_iter().zip(chunk) {
            turns.insert(id, p.turns.clone());
        }
    }
    Ok(turns)
}

/// A stored question: its tenant's key, and which turns each memory stands for.
struct Stored {
    key: String,
    turns: HashMap<String, Vec<TurnId>>,
    answer_turns: HashSet<TurnId>,
}

fn bar(len: u64, what: &str) -> indicatif::ProgressBar {
    indicatif::ProgressBar::new(len).with_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{spinner}} {what} {{pos}}/{{len}} {{wide_bar}} {{elapsed}}"
        ))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    )
}

/// Stores every question's haystack (or, with `reuse_tenants`, finds the tenants an earlier run kept), waits for
/// the embeddings, asks every question; prints the figures. `db` creates the tenants, and deletes them afterwards
/// unless `keep_tenants` or `reuse_tenants`.
pub async fn run(db: &Db, opts: EvalOptions<'_>) -> anyhow::Result<()> {
    let questions: Vec<Question> =
        serde_json::from_slice(&std::fs::read(opts.data).with_context(|| format!("reading {}", opts.data.display()))?)
            .context("parsing the LongMemEval file (a list of questions with their haystacks)")?;
    let questions = choose(questions, opts.questions);
    if questions.is_empty() {
        bail!("{} holds no questions", opts.data.display());
    }
    let client = reqwest::Client::builder().timeout(Duration::from_secs(120)).build()?;
    let mut created: Vec<Uuid> = Vec::new();
    let mut by_type: BTreeMap<String, Totals> = BTreeMap::new();
    let limit = opts.limit.map_or(50, usize::from);
    let outcome = async {
        let mut stored: Vec<Stored> = Vec::new();
        let progress = bar(questions.len() as u64, "storing haystacks");
        let mut memories = 0;
        let kept = match opts.reuse_tenants {
            true => super::kept_tenants(db, "eval-longmemeval-").await?,
            false => HashMap::new(),
        };
        for q in &questions {
            let hay = haystack(q)?;
            let name = format!("eval-longmemeval-{}", q.question_id);
            let (key, turns) = match opts.reuse_tenants {
                true => {
                    let (tenant, key, turns) = reuse(db, &kept, &name, &hay).await?;
                    created.push(tenant);
                    (key, turns)
                }
                false => {
                    let (tenant, key) = super::eval_tenant(db, &name).await?;
                    // Listed before storing: a failure part-way still deletes it.
                    created.push(tenant);
                    let turns = store_haystack(&client, opts.url, &key, q, &hay).await?;
                    (key, turns)
                }
            };
            memories += hay.parts.len();
            stored.push(Stored { key, turns, answer_turns: hay.answer_turns });
            progress.inc(1);
        }
        progress.finish_and_clear();
        eprintln!("[eval] {} questions, {memories} memories stored", questions.len());
        let started = Instant::now();
        let progress = bar(memories as u64, "embedding");
        super::wait_for_embeddings(db, &created, |pending| {
            progress.set_position((memories as i64 - pending).max(0) as u64)
        })
        .await?;
        progress.finish_and_clear();
        eprintln!("[eval] embedded in {:.1} s", started.elapsed().as_secs_f64());
        super::wait_until_ready(&client, opts.url).await?;
        let progress = bar(questions.len() as u64, "asking");
        // For experiments outside the service (CAIRN_EVAL_DUMP=FILE): one JSON line per question, with its type,
        // gold sessions and answer turns, and its ranked results (session, turns, score and score components).
        let dump_to = std::env::var_os("CAIRN_EVAL_DUMP").filter(|p| !p.is_empty()).map(std::path::PathBuf::from);
        let mut dump: Vec<String> = Vec::new();
        for (q, s) in questions.iter().zip(&stored) {
            let asked_at = parse_date(&q.question_date)
                .with_context(|| format!("question {}: unreadable question_date", q.question_id))?;
            let body = json!({"query": super::query_text(&q.question), "mode": opts.mode, "limit": limit,
                              "reference_time": asked_at.to_rfc3339()});
            let started = Instant::now();
            let hits = super::recall(&client, opts.url, &s.key, &body).await?;
            let latency = started.elapsed();
            let ranked: Vec<Vec<TurnId>> =
                hits.iter().map(|h| s.turns.get(&h.id).cloned().unwrap_or_default()).collect();
            let scored = score(&ranked, &q.haystack_session_ids, &q.answer_session_ids, &s.answer_turns);
            by_type.entry(q.question_type.clone()).or_default().add(&scored, latency);
            if dump_to.is_some() {
                let answered: Vec<Value> = hits
                    .iter()
                    .zip(&ranked)
                    .map(|(h, turns)| {
                        let session = turns.first().map(|&(s, _)| q.haystack_session_ids[s].as_str());
                        json!({"session": session, "turns": turns, "score": h.score, "components": h.components})
                    })
                    .collect();
                let mut answer_turns: Vec<&TurnId> = s.answer_turns.iter().collect();
                answer_turns.sort();
                dump.push(
                    json!({"question_id": q.question_id, "question_type": q.question_type, "question": q.question,
                           "answer_sessions": q.answer_session_ids, "answer_turns": answer_turns,
                           "answered": answered})
                    .to_string(),
                );
            }
            progress.inc(1);
        }
        progress.finish_and_clear();
        if let Some(path) = dump_to {
            // The figures are still printed when the dump cannot be written.
            if let Err(err) = std::fs::write(&path, dump.join("\n")) {
                eprintln!("[eval] could not write the dump to {}: {err}", path.display());
            }
        }
        anyhow::Ok(())
    }
    .await;
    if !opts.keep_tenants && !opts.reuse_tenants {
        super::delete_tenants(db, &created).await?;
    }
    outcome?;
    let mut overall = Totals::default();
    for (kind, totals) in &by_type {
        println!("{kind}: questions={} {} {}", totals.questions, totals.figures(), totals.detail());
        overall.merge(totals);
    }
    println!("overall detail: {} (results asked per question: {limit}, mode {})", overall.detail(), opts.mode);
    println!("longmemeval: questions={} {}", overall.questions, overall.figures());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_parse_as_the_files_write_them() {
        assert_eq!(parse_date("2023/05/20 (Sat) 02:21").unwrap().to_rfc3339(), "2023-05-20T02:21:00+00:00");
        assert!(parse_date("May 20").is_none());
    }

    #[test]
    fn long_turns_are_cut_at_whitespace_into_parts_that_fit() {
        let text = "word ".repeat(1000);
        let parts = pieces(&text, 2000);
        assert!(parts.iter().all(|p| p.chars().count() <= 2000 && !p.starts_with(' ') && !p.ends_with(' ')));
        assert_eq!(parts.concat().replace(' ', "").len(), 4000);
        assert_eq!(pieces("short", 2000), ["short"]);
        assert_eq!(pieces(&"x".repeat(4001), 2000).len(), 3);
    }

    #[test]
    fn sessions_are_deduplicated_in_rank_order() {
        let ids: Vec<String> = ["a", "b", "c", "gold1", "gold2"].iter().map(|s| s.to_string()).collect();
        let gold = vec!["gold1".to_owned(), "gold2".to_owned()];
        let answer: HashSet<TurnId> = [(3, 1), (4, 0)].into_iter().collect();
        // Results: a, a, gold1 (its answer turn), b, c, gold2 (not the answer turn).
        let ranked = vec![vec![(0, 0)], vec![(0, 1)], vec![(3, 1)], vec![(1, 0)], vec![(2, 0)], vec![(4, 2)]];
        let s = score(&ranked, &ids, &gold, &answer);
        assert_eq!(s.any, [false, true, true]);
        // The five distinct sessions are a, gold1, b, c, gold2.
        assert_eq!(s.all, [false, true, true]);
        let expected = (1.0 / 3f64.log2() + 1.0 / 6f64.log2()) / (1.0 + 1.0 / 3f64.log2());
        assert!((s.ndcg - expected).abs() < 1e-9);
        assert_eq!(s.turn, Some(0.5));
        let none = score(&ranked, &ids, &gold, &HashSet::new());
        assert_eq!(none.turn, None);
    }

    #[test]
    fn a_small_run_takes_every_question_type_in_turn() {
        let q = |id: &str, kind: &str| Question {
            question_id: id.into(),
            question_type: kind.into(),
            question: String::new(),
            question_date: String::new(),
            answer_session_ids: vec![],
            haystack_dates: vec![],
            haystack_session_ids: vec![],
            haystack_sessions: vec![],
        };
        let all = vec![q("1", "x"), q("2", "x"), q("3", "y"), q("4", "z"), q("5", "y")];
        let ids: Vec<String> = choose(all, Some(4)).into_iter().map(|q| q.question_id).collect();
        assert_eq!(ids, ["1", "3", "4", "2"]);
    }

    #[test]
    fn identical_turns_are_one_memory_standing_for_each() {
        let turn = |c: &str, a: bool| Turn { role: "user".into(), content: c.into(), has_answer: a };
        let q = Question {
            question_id: "q".into(),
            question_type: "t".into(),
            question: "?".into(),
            question_date: "2023/05/20 (Sat) 02:21".into(),
            answer_session_ids: vec!["s2".into()],
            haystack_dates: vec!["2023/05/20 (Sat) 02:21".into(), "2023/05/21 (Sun) 10:00".into()],
            haystack_session_ids: vec!["s1".into(), "s2".into()],
            haystack_sessions: vec![
                vec![turn("hi", false), turn("ok", false)],
                vec![turn("ok", false), turn("I moved", true)],
            ],
        };
        let h = haystack(&q).unwrap();
        assert_eq!(h.parts.len(), 3);
        assert_eq!(h.parts[1].turns, [(0, 1), (1, 0)]);
        assert_eq!((h.parts[2].session, h.parts[2].sequence), (1, 0));
        assert_eq!(h.answer_turns, [(1, 1)].into_iter().collect());
    }
}
