//! `y = x·Wᵀ + b` for a handful of rows of `x` (one query's tokens), `W` stored as the model stores it (`[out, in]`,
//! row-major), on AVX-512.
//!
//! A general matrix multiply (candle's, through the `gemm` crate) packs both operands into panels before it
//! multiplies. For a batch of texts that cost is spread over hundreds of rows; for one query of a dozen tokens it is
//! paid for the whole weight matrix every call, and it is most of the call (measured on MiniLM's three layer shapes,
//! 12 rows, one thread: 93-398 µs through candle, 43-203 µs here). Each output here is the dot product of a row of `x`
//! with a row of `W`, both contiguous, in tiles of up to 12 rows × 2 outputs whose 24 accumulators stay in registers:
//! nothing is packed, and for up to 12 rows the weights are read once (more rows read them once per 12).
//!
//! Hand-written because no maintained crate offers a small-`m`, transposed-`B` kernel without packing; kept apart
//! from the service so the test profile can build it optimised (unoptimised intrinsics are slower than the library).
//! Outside x86-64 with AVX-512F, or for shapes it does not take, [`linear`] declines and the caller multiplies as
//! before. Sums are taken in a different order than the library's, so results differ by float rounding only.

/// Most rows [`linear`] takes: past this the library's packing pays for itself.
pub const MAX_ROWS: usize = 32;

/// Whether [`linear`] runs on this CPU.
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Writes `out[i·n + j] = b[j] + Σₖ x[i·k + c]·w[j·k + c]` for `m` rows of `x` (`m·k` values), `w` of `n` rows of `k`,
/// `b` of `n`, and returns true; returns false without touching `out` when this CPU lacks AVX-512F or the shape is
/// not one it takes (`m` in 1..=[`MAX_ROWS`], `k` a multiple of 16, `n` even). Splits the outputs over rayon's
/// threads when there are enough of them to share.
///
/// # Panics
/// When the shape is one it takes on this CPU and a slice is shorter than the shape says.
pub fn linear(x: &[f32], w: &[f32], b: &[f32], m: usize, k: usize, n: usize, out: &mut [f32]) -> bool {
    if !(1..=MAX_ROWS).contains(&m) || k == 0 || !k.is_multiple_of(16) || n == 0 || !n.is_multiple_of(2) || !available()
    {
        return false;
    }
    let (Some(xs), Some(ws), Some(os)) = (m.checked_mul(k), n.checked_mul(k), m.checked_mul(n)) else {
        return false;
    };
    assert!(x.len() >= xs && w.len() >= ws && b.len() >= n && out.len() >= os, "slices shorter than the shape");
    #[cfg(target_arch = "x86_64")]
    {
        // One task per thread, each of at least about 128 outputs (an even number of them), so that a split never
        // costs more than it saves.
        let threads = rayon::current_num_threads().min(n / 128).max(1);
        if threads == 1 {
            // SAFETY: AVX-512F was detected above; the lengths were checked above.
            unsafe { avx512::columns(x, w, b, m, k, n, 0, n, out) };
            return true;
        }
        let per = n.div_ceil(threads).next_multiple_of(2);
        let parts: Vec<(usize, Vec<f32>)> = {
            use rayon::prelude::*;
            (0..n)
                .into_par_iter()
                .step_by(per)
                .map(|from| {
                    let to = (from + per).min(n);
                    let mut part = vec![0.0; m * (to - from)];
                    // SAFETY: as above; `part` holds m rows of `to - from`.
                    unsafe { avx512::columns(x, w, b, m, k, to - from, from, to, &mut part) };
                    (from, part)
                })
                .collect()
        };
        for (from, part) in parts {
            let width = part.len() / m;
            for (i, row) in part.chunks_exact(width).enumerate() {
                out[i * n + from..i * n + from + width].copy_from_slice(row);
            }
        }
        true
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (x, w, b, out);
        false
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    /// Outputs `from..to` of `m` rows into `out`, whose rows are `stride` wide (output `j` at column `j - from`).
    ///
    /// # Safety
    /// AVX-512F must be available; `k % 16 == 0`, `(to - from) % 2 == 0`, and the slices as long as the shape says.
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx512f")]
    pub unsafe fn columns(
        x: &[f32],
        w: &[f32],
        b: &[f32],
        m: usize,
        k: usize,
        stride: usize,
        from: usize,
        to: usize,
        out: &mut [f32],
    ) {
        let mut i = 0;
        while i < m {
            let rows = (m - i).min(12);
            let (x, out) = (&x[i * k..], &mut out[i * stride..]);
            match rows {
                12 => tile::<12>(x, w, b, k, stride, from, to, out),
                11 => tile::<11>(x, w, b, k, stride, from, to, out),
                10 => tile::<10>(x, w, b, k, stride, from, to, out),
                9 => tile::<9>(x, w, b, k, stride, from, to, out),
                8 => tile::<8>(x, w, b, k, stride, from, to, out),
                7 => tile::<7>(x, w, b, k, stride, from, to, out),
                6 => tile::<6>(x, w, b, k, stride, from, to, out),
                5 => tile::<5>(x, w, b, k, stride, from, to, out),
                4 => tile::<4>(x, w, b, k, stride, from, to, out),
                3 => tile::<3>(x, w, b, k, stride, from, to, out),
                2 => tile::<2>(x, w, b, k, stride, from, to, out),
                _ => tile::<1>(x, w, b, k, stride, from, to, out),
            }
            i += rows;
        }
    }

    /// `R` rows against outputs `from..to`, two at a time: 2·R accumulators of 16 lanes, reduced at the end.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn tile<const R: usize>(
        x: &[f32],
        w: &[f32],
        b: &[f32],
        k: usize,
        stride: usize,
        from: usize,
        to: usize,
        out: &mut [f32],
    ) {
        debug_assert!(x.len() >= R * k && w.len() >= to * k && out.len() >= (R - 1) * stride + (to - from));
        let (xp, wp) = (x.as_ptr(), w.as_ptr());
        let mut j = from;
        while j + 2 <= to {
            let mut acc0 = [_mm512_setzero_ps(); R];
            let mut acc1 = [_mm512_setzero_ps(); R];
            let (w0, w1) = (wp.add(j * k), wp.add((j + 1) * k));
            let mut c = 0;
            while c < k {
                let a = _mm512_loadu_ps(w0.add(c));
                let bb = _mm512_loadu_ps(w1.add(c));
                for r in 0..R {
                    let xv = _mm512_loadu_ps(xp.add(r * k + c));
                    acc0[r] = _mm512_fmadd_ps(xv, a, acc0[r]);
                    acc1[r] = _mm512_fmadd_ps(xv, bb, acc1[r]);
                }
                c += 16;
            }
            for r in 0..R {
                out[r * stride + j - from] = b[j] + _mm512_reduce_add_ps(acc0[r]);
                out[r * stride + j + 1 - from] = b[j + 1] + _mm512_reduce_add_ps(acc1[r]);
            }
            j += 2;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(x: &[f32], w: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
        let mut out = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                let dot: f64 = (0..k).map(|c| f64::from(x[i * k + c]) * f64::from(w[j * k + c])).sum();
                out[i * n + j] = (dot + f64::from(b[j])) as f32;
            }
        }
        out
    }

    /// Deterministic values in [-1, 1).
    fn values(len: usize, seed: u32) -> Vec<f32> {
        let mut s = seed.wrapping_mul(2_654_435_761).max(1);
        (0..len)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                (s as f32 / u32::MAX as f32) * 2.0 - 1.0
            })
            .collect()
    }

    #[test]
    fn every_row_count_and_split_matches_the_plain_sum() {
        if !available() {
            eprintln!("skipped: this CPU has no AVX-512F, so linear() declines and nothing here runs");
            return;
        }
        for (k, n) in [(16, 2), (384, 384), (384, 1536), (1536, 384), (48, 258)] {
            for m in 1..=MAX_ROWS {
                let (x, w, b) = (values(m * k, 1 + m as u32), values(n * k, 2), values(n, 3));
                let mut out = vec![f32::NAN; m * n];
                assert!(linear(&x, &w, &b, m, k, n, &mut out), "m={m} k={k} n={n} declined");
                for (got, want) in out.iter().zip(reference(&x, &w, &b, m, k, n)) {
                    assert!((got - want).abs() <= 1e-4 * (1.0 + want.abs()), "m={m} k={k} n={n}: {got} vs {want}");
                }
            }
        }
    }

    #[test]
    fn shapes_it_does_not_take_are_declined_untouched() {
        let mut out = vec![7.0; 64 * 4];
        for (m, k, n) in [(0, 16, 2), (MAX_ROWS + 1, 16, 2), (1, 15, 2), (1, 16, 3)] {
            let (x, w, b) = (values(64 * 16, 1), values(4 * 16, 2), values(4, 3));
            assert!(!linear(&x, &w, &b, m, k, n, &mut out));
            assert!(out.iter().all(|v| *v == 7.0));
        }
    }
}
