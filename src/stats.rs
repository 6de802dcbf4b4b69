//! The crate's one random stream and one standard error: what Knuth's
//! estimator, the join's sketches and shuffle, the timed samples, the audit's
//! draw and the machine rating share.
//!
//! Nothing here names an engine or an executor.

/// SplitMix64 (Steele, Lea and Flood): a small, fast, repeatable stream,
/// plenty for probe paths, sample draws and an audit's choice of items.
/// The same seed gives the same numbers on every machine.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The stream from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// A number in `0..bound` (`bound` > 0) by multiply-shift: uniform to
    /// within `bound / 2^64`, no division.
    pub fn below(&mut self, bound: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }

    /// A number in `0..bound` (`bound` > 0) as the remainder of the next
    /// number: what the join's sketches and the audit's draw were seeded
    /// with, kept so that a seed picks the same items as before.
    pub fn below_by_remainder(&mut self, bound: u64) -> u64 {
        self.next_u64() % bound
    }

    /// A number in `[0, 1]`.
    pub fn unit(&mut self) -> f64 {
        self.next_u64() as f64 / u64::MAX as f64
    }
}

/// A 64-bit mixing function (SplitMix64's finaliser): every input bit
/// flips about half the output bits.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The mean of a sample and its standard error, gathered one value at a
/// time (Welford's update: no cancellation when the values are close).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moments {
    count: usize,
    mean: f64,
    /// The sum of squared differences from the running mean.
    squares: f64,
}

impl Moments {
    /// The moments of `values`.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Moments {
        let mut moments = Moments::default();
        values.into_iter().for_each(|v| moments.push(v));
        moments
    }

    /// Adds a value.
    pub fn push(&mut self, value: f64) {
        self.count += 1;
        let delta = value - self.mean;
        self.mean += delta / self.count as f64;
        self.squares += delta * (value - self.mean);
    }

    /// The values added.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Their mean (0 for none).
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// The standard error of the mean (the sample's standard deviation
    /// over the root of its size; 0 below two values).
    pub fn standard_error(&self) -> f64 {
        if self.count < 2 {
            return 0.0;
        }
        let k = self.count as f64;
        (self.squares / (k - 1.0) / k).sqrt()
    }

    /// The standard error relative to the mean (0 when the mean is not
    /// positive).
    pub fn relative_error(&self) -> f64 {
        match self.mean > 0.0 {
            true => self.standard_error() / self.mean,
            false => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_splitmix64() {
        // The first outputs for seed 0 of the reference implementation.
        let mut s = SplitMix64::new(0);
        assert_eq!(s.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(s.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn draws_stay_below_their_bound() {
        let mut s = SplitMix64::new(7);
        for bound in [1u64, 2, 3, 1000, u64::MAX] {
            assert!(s.below(bound) < bound);
            assert!(s.below_by_remainder(bound) < bound);
        }
        let u = s.unit();
        assert!((0.0..=1.0).contains(&u));
    }

    #[test]
    fn the_standard_error_is_the_textbook_one() {
        let m = Moments::of([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(m.count(), 8);
        assert!((m.mean() - 5.0).abs() < 1e-12);
        // Sample variance 32/7; standard error sqrt(32/7/8).
        assert!((m.standard_error() - (32.0f64 / 7.0 / 8.0).sqrt()).abs() < 1e-12);
        assert!((m.relative_error() - m.standard_error() / 5.0).abs() < 1e-12);
        assert_eq!(Moments::of([3.0]).standard_error(), 0.0);
        assert_eq!(Moments::of([0.0, 0.0]).relative_error(), 0.0);
    }
}
