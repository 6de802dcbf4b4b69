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

    /// Adds every value of `other` (Chan, Golub and LeVeque's update).
    pub fn merge(&mut self, other: &Moments) {
        if other.count == 0 {
            return;
        }
        let count = self.count + other.count;
        let delta = other.mean - self.mean;
        let share = other.count as f64 / count as f64;
        self.squares += other.squares + delta * delta * self.count as f64 * share;
        self.mean += delta * share;
        self.count = count;
    }
}

/// The mean value of a population's units, some of which fall into
/// strata and the rest worth nothing, from two samples: a large, cheap
/// census that says which stratum each unit drawn falls into (with
/// replacement), and a small, dear sample of values drawn within each
/// stratum. The mean is each stratum's share of the census times its
/// sample's mean (post-stratification): where values differ more between
/// strata than within them, far narrower than one sample's mean over all
/// the units, and units worth nothing (a join's empty slots) cost no
/// dear draws at all.
///
/// A stratum whose sample holds fewer than [`Strata::POOLED`] values is
/// pooled with its neighbours (in the strata's order) until the pool
/// holds that many: its mean would say more about the draw than about
/// the stratum, and a stratum the sample missed has none.
#[derive(Clone, Debug, PartialEq)]
pub struct Strata {
    /// Census draws that fell into each stratum.
    census: Vec<u64>,
    /// Census draws in all, those worth nothing included.
    drawn: u64,
    samples: Vec<Moments>,
}

/// A mean and its standard error.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Estimate {
    /// The mean.
    pub mean: f64,
    /// Its standard error.
    pub standard_error: f64,
}

impl Strata {
    /// The fewest values a pool of strata is measured by.
    pub const POOLED: usize = 4;

    /// Strata with `census[s]` of `drawn` census draws each (`drawn` at
    /// least their sum: the rest are worth nothing), no values yet.
    pub fn new(census: Vec<u64>, drawn: u64) -> Strata {
        assert!(
            census.iter().sum::<u64>() <= drawn,
            "a census draws each unit into one stratum at most"
        );
        let samples = vec![Moments::default(); census.len()];
        Strata {
            census,
            drawn,
            samples,
        }
    }

    /// Adds a value drawn within stratum `stratum`.
    pub fn push(&mut self, stratum: usize, value: f64) {
        self.samples[stratum].push(value);
    }

    /// Stratum `stratum`'s share of the census.
    pub fn share(&self, stratum: usize) -> f64 {
        self.census[stratum] as f64 / self.drawn.max(1) as f64
    }

    /// The values added.
    pub fn sampled(&self) -> usize {
        self.samples.iter().map(Moments::count).sum()
    }

    /// The pools the strata are measured in, in order: each stratum's
    /// share of the census and its values, neighbours pooled until each
    /// pool holds [`Strata::POOLED`] values (or all of them).
    fn pools(&self) -> Vec<(f64, Moments)> {
        let drawn = self.drawn.max(1) as f64;
        let mut pools: Vec<(f64, Moments)> = Vec::new();
        let mut open = (0.0, Moments::default());
        for (&census, sample) in self.census.iter().zip(&self.samples) {
            open.0 += census as f64 / drawn;
            open.1.merge(sample);
            if open.1.count() >= Self::POOLED {
                pools.push(std::mem::take(&mut open));
            }
        }
        // A thin tail joins the last full pool (or stands alone).
        match pools.last_mut() {
            Some(last) => {
                last.0 += open.0;
                last.1.merge(&open.1);
            }
            None => pools.push(open),
        }
        pools
    }

    /// The mean value of a unit, and its standard error: the pools'
    /// sampling errors, and the census's own (its shares are drawn too).
    pub fn mean(&self) -> Estimate {
        let pools = self.pools();
        let mean: f64 = pools.iter().map(|(share, m)| share * m.mean()).sum();
        let sampled: f64 = pools
            .iter()
            .map(|(share, m)| (share * m.standard_error()).powi(2))
            .sum();
        // One census draw is worth its pool's mean (nothing outside them).
        let squares: f64 = pools
            .iter()
            .map(|(share, m)| share * m.mean().powi(2))
            .sum();
        let census = (squares - mean * mean).max(0.0) / self.drawn.max(1) as f64;
        Estimate {
            mean,
            standard_error: (sampled + census).sqrt(),
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
    fn merged_moments_are_those_of_all_the_values() {
        let values = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        let mut merged = Moments::of(values[..3].iter().copied());
        merged.merge(&Moments::of(values[3..].iter().copied()));
        merged.merge(&Moments::default());
        let all = Moments::of(values);
        assert_eq!(merged.count(), all.count());
        assert!((merged.mean() - all.mean()).abs() < 1e-12);
        assert!((merged.standard_error() - all.standard_error()).abs() < 1e-12);
    }

    #[test]
    fn strata_weigh_each_mean_by_its_share_of_the_census() {
        // Half the census is worth nothing, a quarter 10, a quarter 30:
        // the sample's lopsided draw (six of the 30s, four of the 10s)
        // does not move the mean, and values alike within each stratum
        // leave only the census's error.
        let mut strata = Strata::new(vec![25, 25], 100);
        (0..4).for_each(|_| strata.push(0, 10.0));
        (0..6).for_each(|_| strata.push(1, 30.0));
        let estimate = strata.mean();
        assert!((estimate.mean - 10.0).abs() < 1e-12);
        assert_eq!(strata.sampled(), 10);
        // Census draws worth 0, 10 or 30 (shares 1/2, 1/4, 1/4): variance
        // 250 - 100 = 150 per draw, over 100 draws.
        assert!((estimate.standard_error - 1.5f64.sqrt()).abs() < 1e-12);
        // One mean over all ten values would have said 22 per stratum unit.
        let one = Moments::of([10.0; 4].into_iter().chain([30.0; 6]));
        assert!((one.mean() * 0.5 - estimate.mean).abs() > 0.9);
    }

    #[test]
    fn thin_strata_are_pooled_with_their_neighbours() {
        // The first stratum's one value and the empty third are pooled
        // with the next full ones; no stratum the sample missed counts as
        // worth nothing.
        let mut strata = Strata::new(vec![10, 30, 20, 40], 100);
        strata.push(0, 1.0);
        (0..3).for_each(|_| strata.push(1, 1.0));
        (0..4).for_each(|_| strata.push(3, 3.0));
        let pools = strata.pools();
        assert_eq!(pools.len(), 2);
        assert!((pools[0].0 - 0.4).abs() < 1e-12 && pools[0].1.count() == 4);
        assert!((pools[1].0 - 0.6).abs() < 1e-12 && pools[1].1.count() == 4);
        assert!((strata.mean().mean - (0.4 + 0.6 * 3.0)).abs() < 1e-12);
        // Too few values for any pool: one pool of all.
        let mut few = Strata::new(vec![50, 50], 100);
        few.push(1, 2.0);
        assert_eq!(few.pools().len(), 1);
        assert!((few.mean().mean - 2.0).abs() < 1e-12);
        assert_eq!(Strata::new(vec![0, 0], 0).mean(), Estimate::default());
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
