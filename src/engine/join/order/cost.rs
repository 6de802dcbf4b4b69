//! The cost model: what a work item takes, in nanoseconds on one thread of
//! the reference machine (the 2-core Intel Xeon dev VM, AVX-512 pair
//! counter), fitted offline on every item of n = 16..20 timed one by one
//! (`scripts/fit-costs.py`, results/2026-12-02-vm-costs). Shards, MPI's
//! hand-outs, the ETA's share and the forecast's sample all weigh items by
//! it; a timed sample on another machine only scales its seconds per
//! nanosecond. The constants are part of the items' [`FORMAT`](crate::engine::join::FORMAT):
//! changing them changes the order, so it bumps it.
//!
//! No model of the bound's terms follows an item's time closely: the terms
//! bound what the glue may try and the pairs it may compare, not how many
//! halves survive the midline, and items with the same terms (mirror
//! images) differ by 0.73x to 1.5x. So the items are also put in an order
//! in which every stretch is a sample of all sizes ([`interleave`]): a
//! shard, a hand-out or the part of a count done so far then takes its
//! share of the time whatever the model gets wrong about one size against
//! another.
//!
//! Everything here is computed with IEEE arithmetic alone (no `exp` or
//! `ln` from the platform's libm, whose last bits differ between systems):
//! every machine must sort the items, and cut the shards, alike.

use crate::engine::join::count::burnside;
use crate::engine::join::count::items::Bound;

/// The power model of a pair item, per parity of n (even, odd):
/// nanoseconds = e^c (glue + 1)^a (pairs + 1)^b. Fitted by least squares
/// on the logs: even on n = 18, 20 (the boards that fold in the
/// reflections), odd on n = 17, 19. Median error of one item 16-24%,
/// about what repeating an item gives.
const PAIR_MODEL: [(f64, f64, f64); 2] = [
    (-2.649_4, 0.420_4, 0.542_3), // e^-23.3727 s = e^(-23.3727 + ln 1e9) ns
    (4.160_3, -0.099_7, 0.451_2), // e^-16.563 s
];

/// A pair item's estimated nanoseconds.
pub(in crate::engine::join) fn pair(bound: &Bound, n: usize) -> f64 {
    let (c, a, b) = PAIR_MODEL[n % 2];
    exp(c + a * ln(bound.glue as f64 + 1.0) + b * ln(bound.pairs + 1.0))
}

/// A fixed-point item's estimated nanoseconds ([`burnside::fixed_item`]).
/// The half turn's items (the first n) grow about e^1.05 per n; those
/// whose first queen's image attacks it at once (a corner, or the middle
/// column of an odd board) take a microsecond. The quarter turn's grow
/// about e^0.53 per n. Fitted (ln ns = c + d n, on each kind's mean item)
/// on n = 16..20: a half-turn item 0.59 ms at n = 16, 4.5 ms at 18, 39 ms
/// at 20 (0.87 and 6.7 ms at 17 and 19), a quarter-turn item 2-19 µs.
pub(in crate::engine::join) fn fixed(n: usize, item: usize) -> f64 {
    let nf = n as f64;
    let (half_turn, column) = burnside::search_of(n, item);
    if !half_turn {
        return exp(-0.708 + 0.526 * nf);
    }
    if column == 0 || column == n - 1 || (n % 2 == 1 && column == n / 2) {
        return 1e3;
    }
    match n.is_multiple_of(2) {
        true => exp(-3.516 + 1.049 * nf),
        false => exp(-3.542 + 1.017 * nf),
    }
}

/// The ranks of `len` items sorted by cost (largest first) in the order
/// that visits them as the van der Corput sequence does: rank r at the
/// place whose bits, reversed, are r. Any stretch of that order is a
/// sample stratified by cost (a stretch of 2^j aligned places holds every
/// 2^(b-j)-th rank), so contiguous shards and hand-outs hold the same mix
/// of large and small items, and a count's progress by items is its
/// progress by time. The largest item (rank 0) still comes first.
pub(in crate::engine::join) fn interleave(len: usize) -> impl Iterator<Item = usize> {
    let bits = usize::BITS - len.saturating_sub(1).leading_zeros();
    (0..1usize << bits)
        .map(move |place| {
            place
                .reverse_bits()
                .checked_shr(usize::BITS - bits)
                .unwrap_or(0)
        })
        .filter(move |&rank| rank < len)
}

/// ln x for x > 0 (x ≤ 0 gives -inf), by IEEE arithmetic alone: x = 2^e m
/// with m in [1, 2), then ln m = 2 atanh s, s = (m - 1) / (m + 1) in
/// [0, 1/3], summed to 1e-15.
fn ln(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    let (mut m, mut e) = (x, 0i32);
    while m >= 2.0 {
        m /= 2.0;
        e += 1;
    }
    while m < 1.0 {
        m *= 2.0;
        e -= 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let (mut term, mut sum) = (s, 0.0);
    for k in 0..16 {
        sum += term / f64::from(2 * k + 1);
        term *= s2;
    }
    2.0 * sum + f64::from(e) * std::f64::consts::LN_2
}

/// e^x by IEEE arithmetic alone: e^x = 2^k e^r with |r| ≤ ln 2 / 2, e^r by
/// its Taylor series. Saturates to 0 and +inf beyond the f64 range.
fn exp(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x > 709.0 {
        return f64::INFINITY;
    }
    if x < -708.0 {
        return 0.0;
    }
    let k = (x / std::f64::consts::LN_2).round();
    let r = x - k * std::f64::consts::LN_2;
    let (mut term, mut sum) = (1.0, 1.0);
    for i in 1..20 {
        term *= r / f64::from(i);
        sum += term;
    }
    // 2^k, k in [-1022, 1023] here, built from its exponent bits (k below
    // -1022 in two steps).
    let two_to = |k: i64| f64::from_bits(((k + 1023) as u64) << 52);
    let k = k as i64;
    if k < -1022 {
        sum * two_to(k + 60) * two_to(-60)
    } else {
        sum * two_to(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logarithms_and_exponentials_agree_with_the_platforms() {
        for &x in &[1e-9, 0.1, 0.5, 1.0, 1.5, 2.0, 3.0, 1e3, 2.5e18, 1e300] {
            let (ours, platform) = (ln(x), x.ln());
            assert!(
                (ours - platform).abs() <= 1e-13 * platform.abs().max(1.0),
                "ln {x}"
            );
        }
        for &x in &[-700.0, -20.0, -1.0, -0.3, 0.0, 0.3, 1.0, 12.5, 40.0, 700.0] {
            let (ours, platform) = (exp(x), x.exp());
            assert!((ours - platform).abs() <= 1e-13 * platform, "exp {x}");
        }
        assert_eq!(ln(0.0), f64::NEG_INFINITY);
        assert_eq!(exp(1e4), f64::INFINITY);
        assert_eq!(exp(-1e4), 0.0);
    }

    #[test]
    fn interleaving_keeps_every_item_and_stratifies_every_stretch() {
        for len in [0, 1, 2, 3, 7, 8, 9, 1000, 4097] {
            let sorted: Vec<usize> = (0..len).collect();
            let order: Vec<usize> = interleave(len).collect();
            let mut seen = order.clone();
            seen.sort_unstable();
            assert_eq!(seen, sorted, "{len} items");
            if len > 0 {
                assert_eq!(order[0], 0, "the largest first");
            }
        }
        // Any stretch of 64 places of 4097 holds about 64 evenly spread
        // ranks: as many in each eighth of the ranks, give or take 2 (the
        // sorted order puts them all in one eighth).
        let order: Vec<usize> = interleave(4097).collect();
        for start in [0, 1, 100, 1000, 2047, 4000] {
            let mut eighths = [0i32; 8];
            for &rank in &order[start..(start + 64).min(order.len())] {
                eighths[rank * 8 / 4097] += 1;
            }
            assert!(
                eighths.iter().all(|&e| (6..=10).contains(&e)),
                "{start}: {eighths:?}"
            );
        }
    }

    #[test]
    fn fixed_point_items_cost_as_measured_within_a_factor_of_two() {
        // Measured on the reference machine (results/2026-12-02-vm-costs):
        // a half-turn item of n = 20 in column 5, 42 ms; a corner, 1.6 µs;
        // a quarter-turn item of n = 18, 7.1 µs.
        let within = |cost: f64, measured_ns: f64| (0.5..2.0).contains(&(cost / measured_ns));
        assert!(within(fixed(20, 5), 42e6));
        assert!(within(fixed(20, 0), 1.6e3));
        assert!(within(fixed(18, 18 + 4), 7.1e3));
    }
}
