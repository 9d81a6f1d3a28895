//! Cosine calibration: scoring must not depend on one model's cosine range.
//!
//! Every weight and threshold that reads a cosine (the semantic share of recall's score, the SIMILAR_TO
//! and consolidation thresholds) was chosen on all-MiniLM-L6-v2, whose unrelated sentences sit near 0.05
//! and paraphrases near 0.7. Other models put the same texts elsewhere: some around 0.75 for anything
//! (e5, many API models), some compressed below 0.6. A fixed set of unrelated sentences ([`PROBES`]) is
//! embedded once with the configured model; the mean and spread of their pairwise cosines place the model's
//! "unrelated" level and its scale. [`Calibration::to_reference`] maps the model's cosines onto MiniLM's
//! scale (an affine map: the model's background mean to MiniLM's, its spread to MiniLM's), so the weights
//! mean the same with any model; with MiniLM itself the map is the identity.

/// Unrelated everyday sentences (none from any evaluation set): their pairwise cosines are the model's
/// background.
pub const PROBES: [&str; 24] = [
    "The train to the coast leaves at seven in the morning.",
    "She repaired the bicycle's chain with an old screwdriver.",
    "Our quarterly revenue grew faster than the analysts expected.",
    "The soup needs more salt and a little lemon juice.",
    "He has been learning to play the cello for two years.",
    "The server returned an error after the database restarted.",
    "A heavy storm closed the mountain pass overnight.",
    "My grandmother grows tomatoes on her balcony.",
    "The museum opens a new exhibition about ancient maps.",
    "Please send the signed contract before Friday.",
    "The puppy chewed through the garden hose again.",
    "They painted the kitchen a pale shade of green.",
    "The vaccine trial enrolled three thousand volunteers.",
    "I lost my keys somewhere between the office and the gym.",
    "The orchestra tuned their instruments before the concert.",
    "Interest rates are expected to stay flat this year.",
    "The children built a sandcastle with a moat.",
    "He prefers tea without sugar in the afternoon.",
    "The new phone's battery lasts almost two days.",
    "Volcanic ash delayed flights across northern Europe.",
    "We adopted a cat from the shelter last spring.",
    "The novel follows three sisters in postwar Naples.",
    "Snow tires are required on this road in winter.",
    "The startup hired its first data engineer in March.",
];

/// The background of all-MiniLM-L6-v2 on [`PROBES`], unrelated sentences at 0.036 ± 0.072 (measured by the
/// `embed_reference` test, which fails if the local model moves away from it): the scale every weight and
/// threshold was chosen on.
pub const REFERENCE: Calibration = Calibration { mean: 0.036_491, spread: 0.071_963 };

/// A model's background: the mean and the standard deviation of the cosines between unrelated texts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibration {
    pub mean: f64,
    pub spread: f64,
}

impl Default for Calibration {
    /// The reference scale itself: the identity map.
    fn default() -> Self {
        REFERENCE
    }
}

impl Calibration {
    /// The background of `vectors` (one per probe; cosines, so their lengths do not matter); None when there
    /// are fewer than three, one is zero, or their cosines do not spread (a degenerate model: no scale to read).
    pub fn measure(vectors: &[Vec<f32>]) -> Option<Self> {
        let norm = |v: &[f32]| v.iter().map(|x| f64::from(*x).powi(2)).sum::<f64>().sqrt();
        let mut cosines = Vec::new();
        for (i, a) in vectors.iter().enumerate() {
            for b in &vectors[i + 1..] {
                let dot = a.iter().zip(b).map(|(x, y)| f64::from(*x) * f64::from(*y)).sum::<f64>();
                let lengths = norm(a) * norm(b);
                if lengths <= 0.0 {
                    return None;
                }
                cosines.push(dot / lengths);
            }
        }
        if cosines.len() < 3 {
            return None;
        }
        let n = cosines.len() as f64;
        let mean = cosines.iter().sum::<f64>() / n;
        let spread = (cosines.iter().map(|c| (c - mean).powi(2)).sum::<f64>() / n).sqrt();
        (mean.is_finite() && spread.is_finite() && spread > 1e-6).then_some(Self { mean, spread })
    }

    /// Whether this is the reference scale (within measurement noise): then nothing is mapped.
    fn is_reference(&self) -> bool {
        (self.mean - REFERENCE.mean).abs() < 1e-4 && (self.spread / REFERENCE.spread - 1.0).abs() < 1e-3
    }

    /// A cosine of this model on the reference scale.
    pub fn to_reference(&self, cosine: f64) -> f64 {
        if self.is_reference() {
            return cosine;
        }
        REFERENCE.mean + (cosine - self.mean) * REFERENCE.spread / self.spread
    }

    /// A value on the reference scale (a threshold chosen on MiniLM) as this model's cosine.
    pub fn from_reference(&self, value: f64) -> f64 {
        if self.is_reference() {
            return value;
        }
        self.mean + (value - REFERENCE.mean) * self.spread / REFERENCE.spread
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_affine_change_of_the_cosines_is_undone() {
        // A model whose cosines are 0.2 * MiniLM's + 0.75: its background sits at 0.2 * mean + 0.75.
        let squashed = Calibration { mean: 0.2 * REFERENCE.mean + 0.75, spread: 0.2 * REFERENCE.spread };
        for c in [-0.1, 0.0, 0.3, 0.55, 0.9] {
            let mapped = squashed.to_reference(0.2 * c + 0.75);
            assert!((mapped - c).abs() < 1e-9, "{c} -> {mapped}");
            assert!((squashed.from_reference(c) - (0.2 * c + 0.75)).abs() < 1e-9);
        }
        assert_eq!(REFERENCE.to_reference(0.42), 0.42);
        assert_eq!(Calibration::default(), REFERENCE);
    }

    #[test]
    fn the_background_is_the_mean_and_spread_of_pairwise_cosines() {
        let v = |x: f32, y: f32| vec![x, y];
        let s = std::f32::consts::FRAC_1_SQRT_2;
        // Cosines: (1,0)·(0,1) = 0, (1,0)·(s,s) = s, (0,1)·(s,s) = s.
        let c = Calibration::measure(&[v(1.0, 0.0), v(0.0, 1.0), v(s, s)]).unwrap();
        let s = f64::from(s);
        assert!((c.mean - 2.0 * s / 3.0).abs() < 1e-6);
        assert!(Calibration::measure(&[v(1.0, 0.0), v(1.0, 0.0), v(1.0, 0.0)]).is_none(), "no spread");
        assert!(Calibration::measure(&[v(1.0, 0.0)]).is_none());
        // Lengths do not matter.
        let long = Calibration::measure(&[v(3.0, 0.0), v(0.0, 0.5), v(2.0 * s as f32, 2.0 * s as f32)]).unwrap();
        assert!((long.mean - c.mean).abs() < 1e-6 && (long.spread - c.spread).abs() < 1e-6);
    }
}
