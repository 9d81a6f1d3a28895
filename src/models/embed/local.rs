//! Local sentence embeddings: a BERT-family sentence-transformers model run on the CPU with candle.
//!
//! [`LocalEmbedder`] loads a sentence-transformers model directory as published on the Hugging Face hub
//! (`all-MiniLM-L6-v2`; also `bge-small-en-v1.5`, `e5-small-v2`, `gte-small` and other BERT encoders) and computes
//! what Python's `SentenceTransformer.encode` computes, so vectors made here can be mixed with vectors made there.
//! `tests/embed_reference.rs` checks this against reference vectors (cosine >= 0.999).
//!
//! What is matched to sentence-transformers, and why:
//!
//! - **Padding and truncation.** `tokenizer.json` supplies the vocabulary, normaliser and special tokens, but its own
//!   padding and truncation settings are replaced, as sentence-transformers replaces them (it calls the tokenizer with
//!   `padding=True, truncation="longest_first", max_length=max_seq_length`). all-MiniLM-L6-v2's file pads every text
//!   to a fixed 128 tokens and cuts at 128; sentence-transformers pads each batch only to its longest text and cuts at
//!   `max_seq_length` (256 for that model). Keeping the file's settings would shorten texts of 129-256 tokens and
//!   change their vectors. Both happen on the right (the Hugging Face default sides); the limit includes `[CLS]` and
//!   `[SEP]`, as in Python.
//! - **`max_seq_length`** is read from `sentence_bert_config.json`. Without that file it is 256 (a Cairn choice;
//!   sentence-transformers would use `min(max_position_embeddings, model_max_length)`). Either way it is capped at
//!   the model's `max_position_embeddings`, beyond which BERT has no position embeddings.
//! - **Text preparation.** Each text is trimmed (Python's `str.strip()`) and lowercased only when
//!   `sentence_bert_config.json` sets `do_lower_case`. Uncased models lowercase in the tokenizer anyway.
//! - **Encoder.** candle's `BertModel` in F32 on the CPU; an input of at most 32 tokens in all (one query) runs
//!   through `models::embed::bert` instead, the same model over the same weights whose dense layers skip the general
//!   multiply's repacking (where the CPU has AVX-512F). The attention mask hides padding from the real tokens.
//!   `token_type_ids` are all zero, which is what the tokenizer produces for a single sentence.
//! - **Pooling** follows the Pooling module's `config.json` (`1_Pooling/` unless `modules.json` names another
//!   folder), with the arithmetic of `sentence_transformers.models.Pooling`. `cls` takes the first token. `mean`
//!   averages the real tokens' hidden states, excluding padding, with the count clamped at 1e-9. `max` takes the
//!   per-dimension maximum after setting padding positions to -1e9. `mean_sqrt_len` divides the sum by the square
//!   root of the count. Exactly one mode must be set: concatenated modes are rejected, so every vector has
//!   `hidden_size` dimensions.
//! - **Normalisation.** Each vector is divided by its L2 norm (clamped at 1e-12, as in
//!   `torch.nn.functional.normalize`), whether or not `modules.json` lists a `Normalize` module (gte-small, for
//!   one, does not). This is a documented Cairn choice: Cairn compares vectors by cosine, which scale does not
//!   change, and for unit vectors the dot product equals the cosine. A `modules.json` that lists any other module (`Dense`, for example) is rejected, because
//!   skipping it would produce vectors in a different space.
//!
//! A text's real tokens attend only to each other, so its vector does not depend on which batch it is in (apart
//! from float rounding). Each call to [`LocalEmbedder::embed_batch`] runs one forward pass. The work is CPU-bound
//! and synchronous, so async code should call it through `tokio::task::spawn_blocking`.

use std::borrow::Cow;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, ensure, Context, Result};
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config as BertConfig};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use tokenizers::{
    Encoding, PaddingDirection, PaddingParams, PaddingStrategy, Tokenizer, TruncationDirection, TruncationParams,
    TruncationStrategy,
};

use super::bert::Bert;

/// `max_seq_length` when the directory has no `sentence_bert_config.json`.
const DEFAULT_MAX_SEQ_LENGTH: usize = 256;
/// Where sentence-transformers saves the Pooling module when `modules.json` does not say otherwise.
const DEFAULT_POOLING_DIR: &str = "1_Pooling";
/// sentence-transformers clamps the token count at this value (`torch.clamp(sum_mask, min=1e-9)`).
const MIN_TOKEN_COUNT: f32 = 1e-9;
/// `torch.nn.functional.normalize` divides by `max(norm, eps)` with this eps.
const NORM_EPS: f32 = 1e-12;
/// Max pooling sets padding positions to this value before taking the maximum.
const MAX_POOL_PADDING: f64 = -1e9;
/// A tensor that every BERT checkpoint has. Its name tells whether the weights are under a `bert.` prefix.
const PROBE_TENSOR: &str = "embeddings.word_embeddings.weight";

/// A sentence-transformers BERT model loaded for CPU inference.
///
/// Safe to share between threads (`Send + Sync`): the models' `forward` and tokenization take `&self`.
pub struct LocalEmbedder {
    /// candle's BERT, for batches.
    model: BertModel,
    /// The same weights (shared, not copied) in `Bert`, for inputs of at most `cairn_dense::MAX_ROWS` tokens.
    short: Bert,
    tokenizer: Tokenizer,
    pooling: Pooling,
    normalize: bool,
    lowercase: bool,
    dimension: usize,
    name: String,
    device: Device,
}

// Fails to compile if a future candle or tokenizers release makes the embedder unsafe to share between threads.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<LocalEmbedder>();
};

/// How token vectors become one sentence vector (`sentence_transformers.models.Pooling`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pooling {
    Cls,
    Mean,
    Max,
    MeanSqrtLen,
}

/// The parts of `modules.json` that matter here.
struct Pipeline {
    transformer_dir: PathBuf,
    pooling_dir: PathBuf,
    normalize: bool,
}

/// One entry of `modules.json`.
#[derive(Deserialize)]
struct ModuleEntry {
    #[serde(default)]
    path: String,
    #[serde(rename = "type")]
    kind: String,
}

/// `sentence_bert_config.json`.
#[derive(Default, Deserialize)]
struct SentenceBertConfig {
    max_seq_length: Option<usize>,
    #[serde(default)]
    do_lower_case: bool,
}

/// The Pooling module's `config.json`. Missing keys take the defaults of the Python constructor.
#[derive(Deserialize)]
struct PoolingConfig {
    word_embedding_dimension: Option<usize>,
    pooling_mode: Option<String>,
    #[serde(default)]
    pooling_mode_cls_token: bool,
    #[serde(default = "yes")]
    pooling_mode_mean_tokens: bool,
    #[serde(default)]
    pooling_mode_max_tokens: bool,
    #[serde(default)]
    pooling_mode_mean_sqrt_len_tokens: bool,
    #[serde(default)]
    pooling_mode_weightedmean_tokens: bool,
    #[serde(default)]
    pooling_mode_lasttoken: bool,
}

fn yes() -> bool {
    true
}

impl LocalEmbedder {
    /// Loads the model in `dir` (a sentence-transformers directory: `config.json`, `tokenizer.json`,
    /// `model.safetensors`, `1_Pooling/config.json`, optionally `modules.json` and `sentence_bert_config.json`).
    ///
    /// Errors name the file that is missing or malformed, or the setting that is not supported.
    pub fn load(dir: &Path) -> Result<Self> {
        ensure!(dir.is_dir(), "model directory {} does not exist", dir.display());
        let pipeline = read_pipeline(dir)?;
        let config = read_bert_config(&required_file(&pipeline.transformer_dir, "config.json")?)?;
        let pooling = read_pooling(&pipeline.pooling_dir, config.hidden_size)?;
        let sbert = read_sentence_bert_config(&pipeline.transformer_dir)?;
        let max_len = sbert.max_seq_length.unwrap_or(DEFAULT_MAX_SEQ_LENGTH).min(config.max_position_embeddings);
        let tokenizer = load_tokenizer(&required_file(&pipeline.transformer_dir, "tokenizer.json")?, max_len)?;
        let device = Device::Cpu;
        let (model, short) =
            load_model(&required_file(&pipeline.transformer_dir, "model.safetensors")?, &config, &device)?;
        Ok(Self {
            model,
            short,
            tokenizer,
            pooling,
            normalize: pipeline.normalize,
            lowercase: sbert.do_lower_case,
            dimension: config.hidden_size,
            name: dir_name(dir),
            device,
        })
    }

    /// Length of every vector: the model's `hidden_size` (384 for all-MiniLM-L6-v2).
    pub fn dimension(&self) -> usize {
        self.dimension
    }

    /// The model directory's name, e.g. `all-MiniLM-L6-v2`.
    pub fn model_name(&self) -> String {
        self.name.clone()
    }

    /// Embeds `texts` and returns one vector per text, in order.
    ///
    /// As sentence-transformers does, the texts go through the model shortest first, in groups of similar
    /// length ([`length_groups`]), each group padded only to its own longest text: a batch mixing short and long
    /// texts no longer pads every short one to the longest. Texts longer than `max_seq_length` tokens are
    /// truncated. An empty slice returns an empty vector without running the model. CPU-bound; blocks.
    pub fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let mut out: Vec<Vec<f32>> = vec![Vec::new(); texts.len()];
        for group in length_groups(texts) {
            let members: Vec<&str> = group.iter().map(|&i| texts[i]).collect();
            for (i, vector) in group.into_iter().zip(self.forward(&members)?) {
                out[i] = vector;
            }
        }
        Ok(out)
    }

    /// One forward pass over `texts`, padded to the longest of them.
    fn forward(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let encodings = self.tokenize(texts)?;
        let (input_ids, attention_mask) = batch_tensors(&encodings, &self.device)?;
        let token_type_ids = input_ids.zeros_like()?;
        // One query's tokens through the kernel that skips the general multiply's repacking; batches through
        // candle's own model (the same weights).
        let hidden = if input_ids.elem_count() <= cairn_dense::MAX_ROWS && cairn_dense::available() {
            self.short.forward(&input_ids, &token_type_ids, &attention_mask)?
        } else {
            self.model.forward(&input_ids, &token_type_ids, Some(&attention_mask))?
        };
        // Always unit length (the `Embedder` promise), whether or not the directory lists `Normalize`: cosine
        // rankings are unchanged by scale, and unit vectors make dot product and cosine the same.
        let pooled = l2_normalize(&pool(self.pooling, &hidden, &attention_mask)?)?;
        Ok(pooled.to_vec2::<f32>()?)
    }

    /// Trims (and lowercases, when configured) like sentence-transformers, then tokenizes the batch.
    fn tokenize(&self, texts: &[&str]) -> Result<Vec<Encoding>> {
        let inputs: Vec<Cow<'_, str>> = texts
            .iter()
            .map(|text| {
                let text = text.trim();
                if self.lowercase {
                    Cow::Owned(text.to_lowercase())
                } else {
                    Cow::Borrowed(text)
                }
            })
            .collect();
        let count = inputs.len();
        self.tokenizer.encode_batch(inputs, true).map_err(|e| anyhow!("tokenizing a batch of {count} texts: {e}"))
    }
}

impl fmt::Debug for LocalEmbedder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalEmbedder")
            .field("model", &self.name)
            .field("dimension", &self.dimension)
            .field("pooling", &self.pooling)
            .field("normalize", &self.normalize)
            .finish_non_exhaustive()
    }
}

/// Reads `modules.json`. Without it, the model files, `1_Pooling/` and normalisation are assumed.
fn read_pipeline(dir: &Path) -> Result<Pipeline> {
    let path = dir.join("modules.json");
    let mut pipeline =
        Pipeline { transformer_dir: dir.to_path_buf(), pooling_dir: dir.join(DEFAULT_POOLING_DIR), normalize: true };
    let Some(modules) = read_optional_json::<Vec<ModuleEntry>>(&path)? else {
        return Ok(pipeline);
    };
    pipeline.normalize = false;
    for module in &modules {
        match module.kind.rsplit('.').next().unwrap_or("") {
            "Transformer" => pipeline.transformer_dir = dir.join(&module.path),
            "Pooling" => pipeline.pooling_dir = dir.join(&module.path),
            "Normalize" => pipeline.normalize = true,
            _ => bail!(
                "{}: module {} is not supported (only Transformer, Pooling and Normalize)",
                path.display(),
                module.kind
            ),
        }
    }
    Ok(pipeline)
}

/// Parses `config.json` into candle's BERT config. Only `model_type: "bert"` (or none) is accepted.
fn read_bert_config(path: &Path) -> Result<BertConfig> {
    let mut value: serde_json::Value = read_json(path)?;
    if let Some(model_type) = value.get("model_type").and_then(serde_json::Value::as_str) {
        ensure!(model_type == "bert", "{}: model_type {model_type:?} is not supported (only bert)", path.display());
    }
    canonicalise_hidden_act(&mut value);
    serde_json::from_value(value).with_context(|| format!("{}: not a BERT config candle can load", path.display()))
}

/// candle knows `gelu` (exact, erf), `geluapproximate` (tanh) and `relu`; maps the Hugging Face names of the tanh
/// approximation onto candle's.
fn canonicalise_hidden_act(config: &mut serde_json::Value) {
    let Some(act) = config.get_mut("hidden_act") else {
        return;
    };
    if matches!(act.as_str(), Some("gelu_new" | "gelu_pytorch_tanh" | "gelu_fast")) {
        *act = serde_json::Value::from("geluapproximate");
    }
}

/// Reads the pooling mode from `<pooling_dir>/config.json` and checks it against the model's hidden size.
fn read_pooling(pooling_dir: &Path, hidden_size: usize) -> Result<Pooling> {
    let path = required_file(pooling_dir, "config.json")?;
    let config: PoolingConfig = read_json(&path)?;
    if let Some(dimension) = config.word_embedding_dimension {
        ensure!(
            dimension == hidden_size,
            "{}: word_embedding_dimension {dimension} differs from the model's hidden_size {hidden_size}",
            path.display()
        );
    }
    config.mode().with_context(|| format!("{}: unsupported pooling", path.display()))
}

impl PoolingConfig {
    /// The single pooling mode this config selects.
    fn mode(&self) -> Result<Pooling> {
        if let Some(name) = &self.pooling_mode {
            return match name.to_lowercase().as_str() {
                "cls" => Ok(Pooling::Cls),
                "mean" => Ok(Pooling::Mean),
                "max" => Ok(Pooling::Max),
                other => bail!("pooling_mode {other:?} is not supported (cls, mean, max)"),
            };
        }
        ensure!(
            !self.pooling_mode_weightedmean_tokens && !self.pooling_mode_lasttoken,
            "weighted-mean and last-token pooling are not supported"
        );
        let modes = [
            (self.pooling_mode_cls_token, Pooling::Cls),
            (self.pooling_mode_mean_tokens, Pooling::Mean),
            (self.pooling_mode_max_tokens, Pooling::Max),
            (self.pooling_mode_mean_sqrt_len_tokens, Pooling::MeanSqrtLen),
        ];
        let mut selected = modes.iter().filter(|(on, _)| *on).map(|(_, mode)| *mode);
        match (selected.next(), selected.next()) {
            (Some(mode), None) => Ok(mode),
            (None, _) => bail!("no pooling mode is set"),
            (Some(_), Some(_)) => bail!("several pooling modes are set; concatenated pooling is not supported"),
        }
    }
}

/// Reads `sentence_bert_config.json` if present; its absence means the defaults.
fn read_sentence_bert_config(transformer_dir: &Path) -> Result<SentenceBertConfig> {
    let config: Option<SentenceBertConfig> = read_optional_json(&transformer_dir.join("sentence_bert_config.json"))?;
    Ok(config.unwrap_or_default())
}

/// Loads `tokenizer.json` and replaces its padding and truncation with sentence-transformers' settings.
fn load_tokenizer(path: &Path, max_len: usize) -> Result<Tokenizer> {
    ensure!(max_len > 2, "max_seq_length {max_len} leaves no room for text between [CLS] and [SEP]");
    let mut tokenizer = Tokenizer::from_file(path).map_err(|e| anyhow!("loading {}: {e}", path.display()))?;
    let padding = PaddingParams {
        strategy: PaddingStrategy::BatchLongest,
        direction: PaddingDirection::Right,
        pad_to_multiple_of: None,
        ..tokenizer.get_padding().cloned().unwrap_or_default()
    };
    tokenizer.with_padding(Some(padding));
    let truncation = TruncationParams {
        direction: TruncationDirection::Right,
        max_length: max_len,
        strategy: TruncationStrategy::LongestFirst,
        stride: 0,
    };
    tokenizer.with_truncation(Some(truncation)).map_err(|e| anyhow!("{}: truncation: {e}", path.display()))?;
    Ok(tokenizer)
}

/// Loads the BERT weights, with or without the `bert.` prefix some checkpoints use, into candle's model and into
/// `Bert`: both hold the same tensors (a tensor's clone shares its storage), so the weights are in memory once.
fn load_model(path: &Path, config: &BertConfig, device: &Device) -> Result<(BertModel, Bert)> {
    let tensors =
        candle_core::safetensors::load(path, device).with_context(|| format!("reading {}", path.display()))?;
    // In F32 once, here: a VarBuilder converting on each read would give each model its own copy.
    let tensors = tensors
        .into_iter()
        .map(|(name, t)| Ok((name, t.to_dtype(DType::F32)?)))
        .collect::<Result<std::collections::HashMap<_, _>>>()?;
    let vb = VarBuilder::from_tensors(tensors, DType::F32, device);
    let vb = if vb.contains_tensor(PROBE_TENSOR) {
        vb
    } else if vb.contains_tensor(&format!("bert.{PROBE_TENSOR}")) {
        vb.pp("bert")
    } else {
        bail!("{} has neither {PROBE_TENSOR} nor bert.{PROBE_TENSOR}: not a BERT checkpoint", path.display());
    };
    let loading = || format!("loading BERT weights from {}", path.display());
    Ok((BertModel::load(vb.clone(), config).with_context(loading)?, Bert::load(vb, config).with_context(loading)?))
}

/// Characters a group of [`length_groups`] may hold, counting each text as its longest member (a text past
/// about 1,200 characters is cut at `max_seq_length` tokens anyway, so it counts as 1,200): about sixteen texts
/// of the longest kind, or many more short ones.
const GROUP_CHARS: usize = 16 * 1200;
/// Texts per forward pass at most.
const GROUP_TEXTS: usize = 64;

/// The indexes of `texts`, shortest first, cut into groups whose padded size (members × longest member, in
/// characters) stays within [`GROUP_CHARS`] and which hold at most [`GROUP_TEXTS`] texts.
fn length_groups(texts: &[&str]) -> Vec<Vec<usize>> {
    let cost = |i: usize| texts[i].trim().chars().count().clamp(1, 1200);
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_by_key(|&i| cost(i));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group: Vec<usize> = Vec::new();
    for i in order {
        // Sorted ascending: the newcomer is the group's longest.
        if !group.is_empty() && ((group.len() + 1) * cost(i) > GROUP_CHARS || group.len() == GROUP_TEXTS) {
            groups.push(std::mem::take(&mut group));
        }
        group.push(i);
    }
    if !group.is_empty() {
        groups.push(group);
    }
    groups
}

/// Stacks the (equal-length, padded) encodings into `input_ids` and `attention_mask` tensors of shape
/// `(batch, seq_len)`, dtype u32.
fn batch_tensors(encodings: &[Encoding], device: &Device) -> Result<(Tensor, Tensor)> {
    let seq_len = encodings.first().map_or(0, Encoding::len);
    let mut ids = Vec::with_capacity(encodings.len() * seq_len);
    let mut mask = Vec::with_capacity(encodings.len() * seq_len);
    for encoding in encodings {
        ensure!(encoding.len() == seq_len, "tokenizer returned unpadded encodings ({} vs {seq_len})", encoding.len());
        ids.extend_from_slice(encoding.get_ids());
        mask.extend_from_slice(encoding.get_attention_mask());
    }
    let shape = (encodings.len(), seq_len);
    Ok((Tensor::from_vec(ids, shape, device)?, Tensor::from_vec(mask, shape, device)?))
}

/// Pools `hidden` (batch, seq_len, hidden_size) into (batch, hidden_size), ignoring padding.
fn pool(mode: Pooling, hidden: &Tensor, attention_mask: &Tensor) -> Result<Tensor> {
    let mask = attention_mask.to_dtype(DType::F32)?.unsqueeze(2)?;
    match mode {
        Pooling::Cls => Ok(hidden.narrow(1, 0, 1)?.squeeze(1)?),
        Pooling::Mean => {
            let (sum, count) = masked_sum(hidden, &mask)?;
            Ok(sum.broadcast_div(&count)?)
        }
        Pooling::MeanSqrtLen => {
            let (sum, count) = masked_sum(hidden, &mask)?;
            Ok(sum.broadcast_div(&count.sqrt()?)?)
        }
        Pooling::Max => {
            // 0 where there is a token, -1e9 where there is padding.
            let padding = mask.affine(-MAX_POOL_PADDING, MAX_POOL_PADDING)?;
            Ok(hidden.broadcast_mul(&mask)?.broadcast_add(&padding)?.max(1)?)
        }
    }
}

/// Sum of the real tokens' vectors (batch, hidden_size) and their count (batch, 1), clamped at 1e-9.
fn masked_sum(hidden: &Tensor, mask: &Tensor) -> Result<(Tensor, Tensor)> {
    let sum = hidden.broadcast_mul(mask)?.sum(1)?;
    let count = mask.sum(1)?.clamp(MIN_TOKEN_COUNT, f32::MAX)?;
    Ok((sum, count))
}

/// Divides each row by its L2 norm, clamped at 1e-12 like `torch.nn.functional.normalize`.
fn l2_normalize(vectors: &Tensor) -> Result<Tensor> {
    let norms = vectors.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(NORM_EPS, f32::MAX)?;
    Ok(vectors.broadcast_div(&norms)?)
}

/// Path of `name` in `dir`, or an error naming the missing file.
fn required_file(dir: &Path, name: &str) -> Result<PathBuf> {
    let path = dir.join(name);
    ensure!(path.is_file(), "model directory {} has no {name} (looked for {})", dir.display(), path.display());
    Ok(path)
}

/// Reads and parses a JSON file, naming it in any error.
fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T> {
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

/// Like [`read_json`], but a missing file is `None`.
fn read_optional_json<T: DeserializeOwned>(path: &Path) -> Result<Option<T>> {
    if path.is_file() {
        read_json(path).map(Some)
    } else {
        Ok(None)
    }
}

/// The directory's last component (`all-MiniLM-L6-v2`); for paths like `.` that have none, the canonical path's.
fn dir_name(dir: &Path) -> String {
    let canonical = dir.canonicalize().ok();
    dir.file_name()
        .or_else(|| canonical.as_deref().and_then(Path::file_name))
        .map_or_else(|| dir.display().to_string(), |name| name.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_grouped_shortest_first_within_a_padded_budget() {
        let long = "x".repeat(5000);
        let mut texts: Vec<&str> = vec![long.as_str(); 20];
        texts.extend(["a"; 100]);
        texts.push("medium text");
        let groups = length_groups(&texts);
        let mut seen: Vec<usize> = groups.iter().flatten().copied().collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..texts.len()).collect::<Vec<_>>(), "every text exactly once");
        // The 100 one-letter texts come first, 64 to a pass; the long ones 16 to a pass (cut at 1,200 characters).
        assert_eq!(groups.iter().map(Vec::len).collect::<Vec<_>>(), [64, 37, 16, 4]);
        assert!(groups[0].iter().all(|&i| texts[i] == "a"));
        assert!(groups[2].iter().all(|&i| texts[i].len() == 5000));
        assert!(length_groups(&[]).is_empty());
    }
}
