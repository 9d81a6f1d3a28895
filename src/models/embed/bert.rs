//! The BERT encoder the local embedder runs on one short input (at most `cairn_dense::MAX_ROWS` tokens in all):
//! candle-transformers' `bert.rs` (MIT / Apache-2.0, candle 0.11.1) trimmed to that use (no dropout, a rank-2 mask
//! only, weights already past any `bert.` prefix), its dense layers multiplying through [`Dense`], which hands the
//! rows to `cairn_dense` instead of the general matrix multiply. Batches run through candle's own `BertModel`,
//! which holds the same weight tensors. The operations are candle's in candle's order; only the dense layers' sums
//! are taken in another order (the tests below: within 1e-4 of candle's `Linear`).

use candle_core::{CpuStorage, DType, Result, Storage, Tensor, D};
use candle_nn::{embedding, layer_norm, Embedding, LayerNorm, Linear, Module, VarBuilder};
use candle_transformers::models::bert::{Config, HiddenAct};

/// A dense layer: candle's `Linear`, except that up to `cairn_dense::MAX_ROWS` rows go through `cairn_dense`
/// where this CPU runs it.
pub struct Dense {
    linear: Linear,
    inputs: usize,
    outputs: usize,
}

impl Dense {
    fn load(inputs: usize, outputs: usize, vb: VarBuilder) -> Result<Self> {
        Ok(Self { linear: candle_nn::linear(inputs, outputs, vb)?, inputs, outputs })
    }

    /// `xs·Wᵀ + b` by the small-row kernel, or None where it does not apply.
    fn small(&self, xs: &Tensor) -> Result<Option<Tensor>> {
        let rows = xs.elem_count() / self.inputs.max(1);
        if xs.dims().last() != Some(&self.inputs)
            || rows > cairn_dense::MAX_ROWS
            || xs.dtype() != DType::F32
            || !xs.device().is_cpu()
        {
            return Ok(None);
        }
        let Some(bias) = self.linear.bias() else { return Ok(None) };
        let (x_storage, x_layout) = xs.storage_and_layout();
        let (w_storage, w_layout) = self.linear.weight().storage_and_layout();
        let (b_storage, b_layout) = bias.storage_and_layout();
        let (Storage::Cpu(CpuStorage::F32(x)), Storage::Cpu(CpuStorage::F32(w)), Storage::Cpu(CpuStorage::F32(b))) =
            (&*x_storage, &*w_storage, &*b_storage)
        else {
            return Ok(None);
        };
        let (Some((x0, x1)), Some((w0, w1)), Some((b0, b1))) =
            (x_layout.contiguous_offsets(), w_layout.contiguous_offsets(), b_layout.contiguous_offsets())
        else {
            return Ok(None);
        };
        let mut out = vec![0.0_f32; rows * self.outputs];
        if !cairn_dense::linear(&x[x0..x1], &w[w0..w1], &b[b0..b1], rows, self.inputs, self.outputs, &mut out) {
            return Ok(None);
        }
        let mut dims = xs.dims().to_vec();
        if let Some(last) = dims.last_mut() {
            *last = self.outputs;
        }
        Ok(Some(Tensor::from_vec(out, dims, xs.device())?))
    }
}

impl Module for Dense {
    fn forward(&self, xs: &Tensor) -> Result<Tensor> {
        match self.small(xs)? {
            Some(ys) => Ok(ys),
            None => self.linear.forward(xs),
        }
    }
}

fn activate(act: HiddenAct, xs: &Tensor) -> Result<Tensor> {
    match act {
        HiddenAct::Gelu => xs.gelu_erf(),
        HiddenAct::GeluApproximate => xs.gelu(),
        HiddenAct::Relu => xs.relu(),
    }
}

struct Embeddings {
    word: Embedding,
    position: Embedding,
    token_type: Embedding,
    layer_norm: LayerNorm,
}

impl Embeddings {
    fn load(vb: VarBuilder, c: &Config) -> Result<Self> {
        Ok(Self {
            word: embedding(c.vocab_size, c.hidden_size, vb.pp("word_embeddings"))?,
            position: embedding(c.max_position_embeddings, c.hidden_size, vb.pp("position_embeddings"))?,
            token_type: embedding(c.type_vocab_size, c.hidden_size, vb.pp("token_type_embeddings"))?,
            layer_norm: layer_norm(c.hidden_size, c.layer_norm_eps, vb.pp("LayerNorm"))?,
        })
    }

    fn forward(&self, input_ids: &Tensor, token_type_ids: &Tensor) -> Result<Tensor> {
        let (_, len) = input_ids.dims2()?;
        let xs = (self.word.forward(input_ids)? + self.token_type.forward(token_type_ids)?)?;
        let positions = Tensor::arange(0u32, len as u32, input_ids.device())?;
        self.layer_norm.forward(&xs.broadcast_add(&self.position.forward(&positions)?)?)
    }
}

struct Layer {
    query: Dense,
    key: Dense,
    value: Dense,
    attention_out: Dense,
    attention_norm: LayerNorm,
    intermediate: Dense,
    act: HiddenAct,
    output: Dense,
    output_norm: LayerNorm,
    heads: usize,
    head_size: usize,
}

impl Layer {
    fn load(vb: VarBuilder, c: &Config) -> Result<Self> {
        let (h, att) = (c.hidden_size, vb.pp("attention"));
        Ok(Self {
            query: Dense::load(h, h, att.pp("self").pp("query"))?,
            key: Dense::load(h, h, att.pp("self").pp("key"))?,
            value: Dense::load(h, h, att.pp("self").pp("value"))?,
            attention_out: Dense::load(h, h, att.pp("output").pp("dense"))?,
            attention_norm: layer_norm(h, c.layer_norm_eps, att.pp("output").pp("LayerNorm"))?,
            intermediate: Dense::load(h, c.intermediate_size, vb.pp("intermediate").pp("dense"))?,
            act: c.hidden_act,
            output: Dense::load(c.intermediate_size, h, vb.pp("output").pp("dense"))?,
            output_norm: layer_norm(h, c.layer_norm_eps, vb.pp("output").pp("LayerNorm"))?,
            heads: c.num_attention_heads,
            head_size: h / c.num_attention_heads,
        })
    }

    /// `[batch, len, hidden]` to `[batch, heads, len, head_size]`.
    fn split_heads(&self, xs: &Tensor) -> Result<Tensor> {
        let (batch, len, _) = xs.dims3()?;
        xs.reshape((batch, len, self.heads, self.head_size))?.transpose(1, 2)?.contiguous()
    }

    /// Self-attention and its output layer. (A function of its own, as in candle, so that the queries, keys,
    /// values and scores are freed before the feed-forward part allocates.)
    fn attend(&self, xs: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let q = self.split_heads(&self.query.forward(xs)?)?;
        let k = self.split_heads(&self.key.forward(xs)?)?;
        let v = self.split_heads(&self.value.forward(xs)?)?;
        let scores = (q.matmul(&k.t()?)? / (self.head_size as f64).sqrt())?.broadcast_add(mask)?;
        let probs = candle_nn::ops::softmax(&scores, D::Minus1)?;
        let context = probs.matmul(&v)?.transpose(1, 2)?.contiguous()?.flatten_from(D::Minus2)?;
        self.attention_norm.forward(&(self.attention_out.forward(&context)? + xs)?)
    }

    fn forward(&self, xs: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let attended = self.attend(xs, mask)?;
        let inner = activate(self.act, &self.intermediate.forward(&attended)?)?;
        self.output_norm.forward(&(self.output.forward(&inner)? + attended)?)
    }
}

/// A BERT encoder: token ids to the last layer's hidden states.
pub struct Bert {
    embeddings: Embeddings,
    layers: Vec<Layer>,
}

impl Bert {
    /// The weights under `vb` (already past any `bert.` prefix).
    pub fn load(vb: VarBuilder, c: &Config) -> Result<Self> {
        let embeddings = Embeddings::load(vb.pp("embeddings"), c)?;
        let layers = (0..c.num_hidden_layers)
            .map(|i| Layer::load(vb.pp(format!("encoder.layer.{i}")), c))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self { embeddings, layers })
    }

    /// Hidden states `[batch, len, hidden]`; `attention_mask` `[batch, len]` is 1 for real tokens, 0 for padding.
    pub fn forward(&self, input_ids: &Tensor, token_type_ids: &Tensor, attention_mask: &Tensor) -> Result<Tensor> {
        let mut xs = self.embeddings.forward(input_ids, token_type_ids)?;
        // Padding gets the most negative float added to its scores, as in transformers' extended attention mask.
        let mask = attention_mask.unsqueeze(1)?.unsqueeze(1)?.to_dtype(xs.dtype())?;
        let mask = ((mask.ones_like()? - &mask)? * f64::from(f32::MIN))?;
        for layer in &self.layers {
            xs = layer.forward(&xs, &mask)?;
        }
        Ok(xs)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use candle_core::Device;

    use super::*;

    /// A dense layer of `inputs` -> `outputs` with seeded random weights, and candle's `Linear` over the same ones.
    fn layers(inputs: usize, outputs: usize) -> (Dense, Linear) {
        let dev = Device::Cpu;
        let weight = Tensor::randn(0f32, 0.05, (outputs, inputs), &dev).unwrap();
        let bias = Tensor::randn(0f32, 0.05, outputs, &dev).unwrap();
        let tensors = HashMap::from([("weight".to_owned(), weight.clone()), ("bias".to_owned(), bias.clone())]);
        let vb = VarBuilder::from_tensors(tensors, DType::F32, &dev);
        (Dense::load(inputs, outputs, vb).unwrap(), Linear::new(weight, Some(bias)))
    }

    #[test]
    fn dense_layers_match_candles_linear_on_both_sides_of_the_row_limit() {
        for (inputs, outputs) in [(384, 384), (384, 1536), (1536, 384), (30, 7)] {
            let (dense, linear) = layers(inputs, outputs);
            let max = cairn_dense::MAX_ROWS;
            for (batch, rows) in [(1, 1), (1, 12), (2, 10), (1, max), (1, max + 1), (1, 64)] {
                let xs = Tensor::randn(0f32, 1.0, (batch, rows, inputs), &Device::Cpu).unwrap();
                let (ours, theirs) = (dense.forward(&xs).unwrap(), linear.forward(&xs).unwrap());
                assert_eq!(ours.dims(), theirs.dims());
                let diff = (ours - theirs).unwrap().abs().unwrap().max_all().unwrap().to_scalar::<f32>().unwrap();
                assert!(diff < 1e-4, "{inputs}->{outputs}, {batch}x{rows} rows: differs by {diff}");
            }
        }
    }

    #[test]
    fn a_short_input_takes_the_kernel_where_the_cpu_has_it() {
        let (dense, _) = layers(384, 384);
        let one = Tensor::randn(0f32, 1.0, (1, 12, 384), &Device::Cpu).unwrap();
        let long = Tensor::randn(0f32, 1.0, (1, cairn_dense::MAX_ROWS + 1, 384), &Device::Cpu).unwrap();
        assert_eq!(dense.small(&one).unwrap().is_some(), cairn_dense::available());
        assert!(dense.small(&long).unwrap().is_none(), "past MAX_ROWS the library multiplies");
        // A strided view is not handed to the kernel (it reads rows as contiguous).
        let strided = Tensor::randn(0f32, 1.0, (1, 384, 12), &Device::Cpu).unwrap().transpose(1, 2).unwrap();
        assert!(dense.small(&strided).unwrap().is_none());
    }
}
