//! What the benches that load a live server share: percentiles, random text, and a client's latencies.

#![allow(dead_code)] // each bench uses its part

pub mod corpus;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::Rng;

/// The `p` quantile of sorted samples (NaN when there are none).
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// Resident memory of a process (`"self"` or a pid) in MiB, from `/proc` (0 where there is none).
pub fn rss_mib(process: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{process}/status")).unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    kb / 1024.0
}

/// CPU seconds (user + system) used so far by this process and, summed, by every process named `postgres`
/// (the database's backends and helpers), from `/proc`: how the machine's cores were shared.
pub fn cpu_seconds() -> (f64, f64) {
    // Clock ticks per second: 100 on every Linux this runs on (`getconf CLK_TCK`).
    const TICKS: f64 = 100.0;
    let ticks = |pid: &str| -> Option<(String, f64)> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let (name, rest) = stat.split_once(" (")?.1.rsplit_once(") ")?;
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let used: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
        Some((name.to_string(), used / TICKS))
    };
    let own = ticks("self").map(|(_, s)| s).unwrap_or(0.0);
    let postgres = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().filter(|n| n.bytes().all(|b| b.is_ascii_digit())).map(String::from))
        .filter_map(|pid| ticks(&pid))
        .filter(|(name, _)| name == "postgres")
        .map(|(_, s)| s)
        .sum();
    (own, postgres)
}

/// `n` random letters and digits.
pub fn alnum(n: usize) -> String {
    rand::thread_rng().sample_iter(&rand::distributions::Alphanumeric).take(n).map(char::from).collect()
}

/// The latencies (ms, sorted) of `clients` clients each sending the request `build` makes for its `i`-th send,
/// pausing `pause` between sends, for `duration`; only successful answers count.
pub async fn latencies<B>(clients: usize, duration: Duration, pause: Duration, build: B) -> Vec<f64>
where
    B: Fn(u64) -> reqwest::RequestBuilder + Send + Sync + Clone + 'static,
{
    let samples = Arc::new(Mutex::new(Vec::new()));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let (build, samples) = (build.clone(), samples.clone());
        tasks.push(tokio::spawn(async move {
            let mut i = 0_u64;
            while started.elapsed() < duration {
                i += 1;
                let t = Instant::now();
                if let Ok(res) = build(i).send().await {
                    let ok = res.status().is_success();
                    let _ = res.bytes().await;
                    if ok {
                        samples.lock().unwrap().push(t.elapsed().as_secs_f64() * 1000.0);
                    }
                }
                tokio::time::sleep(pause).await;
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let mut ms = std::mem::take(&mut *samples.lock().unwrap());
    ms.sort_by(f64::total_cmp);
    ms
}
