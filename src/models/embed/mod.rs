//! Embedders: one trait, chosen by configuration (`CAIRN_EMBEDDER`), loaded in the background.
//!
//! The server starts answering before the model is ready: an [`EmbedderSlot`] is empty until loading
//! finishes, and recall falls back to keywords (or answers 503 for `mode=semantic`) meanwhile.

mod bert;
pub mod calibrate;
pub mod local;
pub mod openai;

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock, RwLock};

/// Future returned by [`Embedder::embed`].
pub type EmbedFuture<'a> = Pin<Box<dyn Future<Output = anyhow::Result<Vec<Vec<f32>>>> + Send + 'a>>;

/// Turns texts into unit-length vectors of a fixed dimension.
pub trait Embedder: Send + Sync {
    /// The model's name, stored with each vector (`embedding_model`).
    fn model(&self) -> &str;
    /// The vector dimension.
    fn dimension(&self) -> usize;
    /// Embeds a batch; the result has one vector per text, in order.
    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a>;
}

/// The local sentence-transformers model, run on the blocking pool (it is CPU-bound).
pub struct LocalModel {
    inner: Arc<local::LocalEmbedder>,
    name: String,
}

impl LocalModel {
    pub fn new(inner: local::LocalEmbedder) -> Self {
        let name = inner.model_name();
        Self { inner: Arc::new(inner), name }
    }
}

impl Embedder for LocalModel {
    fn model(&self) -> &str {
        &self.name
    }

    fn dimension(&self) -> usize {
        self.inner.dimension()
    }

    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a> {
        let inner = self.inner.clone();
        let texts = texts.to_vec();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
                inner.embed_batch(&refs)
            })
            .await?
        })
    }
}

/// Where the deployment's embedder lives once loaded.
#[derive(Clone)]
pub struct EmbedderSlot {
    ready: Arc<OnceLock<Arc<dyn Embedder>>>,
    state: Arc<RwLock<SlotState>>,
    /// Embedding jobs one process should run at once: 1 for a local model (CPU-bound, and one forward pass
    /// already uses every core; two jobs would also sweep the same pending rows), more for a remote server.
    concurrency: usize,
    /// The embedder's cosine scale, measured once it is ready ([`calibrate`]).
    calibration: Arc<tokio::sync::OnceCell<calibrate::Calibration>>,
    /// When measuring it last failed: tried again at most once a minute.
    calibration_failed: Arc<std::sync::Mutex<Option<std::time::Instant>>>,
    /// Told whenever the state changes ([`EmbedderSlot::settled`]).
    changed: Arc<tokio::sync::Notify>,
}

impl Default for EmbedderSlot {
    fn default() -> Self {
        Self {
            ready: Arc::default(),
            state: Arc::default(),
            concurrency: 1,
            calibration: Arc::default(),
            calibration_failed: Arc::default(),
            changed: Arc::default(),
        }
    }
}

/// What the slot holds, for health and error messages.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum SlotState {
    /// No embedder is configured (`CAIRN_EMBEDDER=none`).
    #[default]
    Disabled,
    Loading,
    Ready,
    /// Loading failed; the message says why.
    Failed(String),
}

impl EmbedderSlot {
    /// A slot that will stay empty.
    pub fn disabled() -> Self {
        Self::default()
    }

    /// A slot whose embedder is loading: it settles when [`EmbedderSlot::fill`] is called.
    pub fn loading() -> Self {
        let slot = Self::default();
        slot.set_state(SlotState::Loading);
        slot
    }

    /// A slot holding `embedder` already.
    pub fn ready(embedder: Arc<dyn Embedder>) -> Self {
        let slot = Self::default();
        slot.fill(embedder);
        slot
    }

    /// Embedding jobs to run at once in one process.
    pub fn concurrency(&self) -> usize {
        self.concurrency
    }

    /// Whether the embedder computes on this machine's cores (a local model, one job at a time), so that
    /// other background work competes with it. False for a remote server and for no embedder.
    pub fn is_local(&self) -> bool {
        self.concurrency == 1 && self.state() != SlotState::Disabled
    }

    pub fn get(&self) -> Option<Arc<dyn Embedder>> {
        self.ready.get().cloned()
    }

    /// The embedder's cosine scale against the reference model's ([`calibrate`]): measured once, by
    /// embedding the probe sentences, as soon as the embedder is ready (or when first asked for). Without
    /// an embedder, or while the measurement fails (retried at most once a minute), the identity.
    pub async fn calibration(&self) -> calibrate::Calibration {
        if let Some(c) = self.calibration.get() {
            return *c;
        }
        let Some(embedder) = self.get() else { return calibrate::Calibration::default() };
        let recently_failed = self
            .calibration_failed
            .lock()
            .map(|f| f.is_some_and(|at| at.elapsed() < std::time::Duration::from_secs(60)))
            .unwrap_or(false);
        if recently_failed {
            return calibrate::Calibration::default();
        }
        let measured = self
            .calibration
            .get_or_try_init(|| async {
                let probes: Vec<String> = calibrate::PROBES.iter().map(|p| (*p).to_owned()).collect();
                let vectors = embedder.embed(&probes).await?;
                let measured = calibrate::Calibration::measure(&vectors);
                match measured {
                    Some(c) => tracing::info!(model = %embedder.model(), mean = c.mean, spread = c.spread, "embedding scale measured"),
                    None => tracing::warn!(model = %embedder.model(), "the embedding model's cosines do not spread; scoring them on the reference scale"),
                }
                anyhow::Ok(measured.unwrap_or_default())
            })
            .await;
        match measured {
            Ok(c) => *c,
            Err(err) => {
                tracing::warn!(
                    error = format!("{err:#}"),
                    "could not measure the embedding scale; trying again in a minute"
                );
                if let Ok(mut failed) = self.calibration_failed.lock() {
                    *failed = Some(std::time::Instant::now());
                }
                calibrate::Calibration::default()
            }
        }
    }

    pub fn state(&self) -> SlotState {
        self.state.read().map(|s| s.clone()).unwrap_or(SlotState::Loading)
    }

    fn set_state(&self, state: SlotState) {
        if let Ok(mut s) = self.state.write() {
            *s = state;
        }
        self.changed.notify_waiters();
    }

    /// Resolves once the slot is not loading (ready, failed, or disabled) with that state.
    pub async fn settled(&self) -> SlotState {
        loop {
            let changed = self.changed.notified();
            let mut changed = std::pin::pin!(changed);
            // Registered before the state is read, so that a change in between is not missed.
            changed.as_mut().enable();
            let state = self.state();
            if state != SlotState::Loading {
                return state;
            }
            changed.await;
        }
    }

    pub fn fill(&self, embedder: Arc<dyn Embedder>) {
        let _ = self.ready.set(embedder);
        self.set_state(SlotState::Ready);
        // The scale is measured now, so no recall pays for it.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let slot = self.clone();
            runtime.spawn(async move {
                slot.calibration().await;
            });
        }
    }

    /// Loads the local model from `dir` on the blocking pool; the slot fills when done. A model whose
    /// dimension differs from `expected_dim` is refused (`Failed`), never silently used.
    pub fn load_local_in_background(&self, dir: std::path::PathBuf, expected_dim: usize) {
        self.set_state(SlotState::Loading);
        let slot = self.clone();
        tokio::task::spawn_blocking(move || {
            let started = std::time::Instant::now();
            match local::LocalEmbedder::load(&dir).and_then(|m| check_dimension(m, expected_dim)) {
                Ok(model) => {
                    tracing::info!(model = %model.model_name(), dim = model.dimension(), elapsed_ms = started.elapsed().as_millis() as u64, "embedding model ready");
                    slot.fill(Arc::new(LocalModel::new(model)));
                }
                Err(err) => {
                    tracing::error!(error = format!("{err:#}"), dir = %dir.display(), "embedding model failed to load");
                    slot.set_state(SlotState::Failed(format!("{err:#}")));
                }
            }
        });
    }

    /// The slot a deployment's configuration asks for, loading in the background. Refuses at once a local
    /// model whose `config.json` declares another dimension than the deployment's.
    pub fn from_config(settings: &crate::config::EmbedSettings) -> anyhow::Result<Self> {
        let slot = Self::disabled();
        match settings {
            crate::config::EmbedSettings::None => {}
            crate::config::EmbedSettings::Local { dir, dim } => {
                if let Some(declared) = declared_dimension(dir) {
                    anyhow::ensure!(
                        declared == *dim,
                        "the model in {} produces {declared}-dimensional vectors but CAIRN_EMBEDDING_DIM is {dim}",
                        dir.display(),
                    );
                }
                slot.load_local_in_background(dir.clone(), *dim);
            }
            crate::config::EmbedSettings::OpenAi(config) => {
                slot.load_openai_in_background(config.clone())?;
                return Ok(Self { concurrency: 4, ..slot });
            }
        }
        Ok(slot)
    }

    /// Starts the OpenAI-compatible embedder; a probe request in the background checks the server and the
    /// dimension before the slot fills. A server that cannot be reached, or answers 429 or 5xx (say it restarts
    /// with the deployment), is probed again, 1-2 s after the first failure and up to a minute apart, the slot
    /// loading meanwhile; any other answer (another dimension, 401, 404: a configuration no retry mends) fails
    /// the slot with its reason.
    pub fn load_openai_in_background(&self, config: crate::config::OpenAiConfig) -> anyhow::Result<()> {
        self.load_openai_with_pauses(
            config,
            // The jitter adds up to the delay again: 1-2 s at first, 30-60 s at the cap.
            backon::ExponentialBuilder::default()
                .with_min_delay(std::time::Duration::from_secs(1))
                .with_max_delay(std::time::Duration::from_secs(30))
                .with_jitter()
                .without_max_times(),
        )
    }

    /// [`Self::load_openai_in_background`], its probes paced by `pauses`.
    pub fn load_openai_with_pauses(
        &self,
        config: crate::config::OpenAiConfig,
        pauses: backon::ExponentialBuilder,
    ) -> anyhow::Result<()> {
        use backon::Retryable;
        // The probe makes one request a try (these pauses are its retries: one warning a try in the log).
        let prober = openai::OpenAiEmbedder::new(crate::config::OpenAiConfig { retries: 0, ..config.clone() })?;
        let embedder = Arc::new(openai::OpenAiEmbedder::new(config)?);
        self.set_state(SlotState::Loading);
        let slot = self.clone();
        tokio::spawn(async move {
            let probe = vec!["dimension check".to_owned()];
            let probed = (|| prober.embed(&probe))
                .retry(pauses)
                .when(crate::models::endpoint::Failure::may_pass)
                .notify(|err: &anyhow::Error, wait| {
                    tracing::warn!(error = format!("{err:#}"), ?wait, "embedding server not ready; probing again")
                })
                .await;
            match probed {
                Ok(_) => {
                    tracing::info!(model = %embedder.model(), "embedding server ready");
                    slot.fill(embedder);
                }
                Err(err) => {
                    tracing::error!(error = format!("{err:#}"), "embedding server check failed");
                    slot.set_state(SlotState::Failed(format!("{err:#}")));
                }
            }
        });
        Ok(())
    }
}

/// `hidden_size` from a model directory's `config.json`, if it can be read.
fn declared_dimension(dir: &std::path::Path) -> Option<usize> {
    let text = std::fs::read_to_string(dir.join("config.json")).ok()?;
    let config: serde_json::Value = serde_json::from_str(&text).ok()?;
    config.get("hidden_size")?.as_u64().map(|d| d as usize)
}

fn check_dimension(model: local::LocalEmbedder, expected: usize) -> anyhow::Result<local::LocalEmbedder> {
    anyhow::ensure!(
        model.dimension() == expected,
        "the model produces {}-dimensional vectors but the deployment is configured for {expected} \
         (CAIRN_EMBEDDING_DIM, and the database's vector column)",
        model.dimension()
    );
    Ok(model)
}
