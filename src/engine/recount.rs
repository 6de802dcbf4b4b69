//! A work item's solutions counted another way, for audits: the set of
//! solutions an item stands for, described plainly ([`ItemSet`]: for each
//! row the columns its queen may take, a weight, a weighing rule), and a
//! count of that set that shares no code with either engine
//! ([`recount`]).
//!
//! An engine says what one of its items stands for
//! ([`Join::describe`](super::join::Join::describe)); the recount lists
//! every placement of the east rows and of the west rows by a plain
//! row-by-row search on the board (no quarter table, no glue, no pattern),
//! and counts the pairs that share no column or diagonal by splitting both
//! lists on one line at a time (no bit-sliced counter), weighing each
//! solution by the same rule. An item whose tally differs from its
//! recount was counted wrong, whatever the cause: a table, a glue, a pair
//! counter, a weight.
//!
//! Measured (2-core Intel Xeon VM, `audit 24 --items 10 --seed 1`): 0.9 to
//! 53 s per item on 2 threads, 0.6 to 3.4 times the join's time for the
//! item on one; 7.5 minutes in all, the join's layout included.

/// The solutions an item stands for, and how it weighs them: one or more
/// [`Part`]s (a join item of an odd board shares its west half between
/// several frames), each a set of boards, summed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemSet {
    /// The board size.
    pub n: usize,
    /// The parts, summed.
    pub parts: Vec<Part>,
    /// How each solution is weighed.
    pub weighing: Weighing,
}

/// One set of boards: the solutions whose queen in row `r` stands on a
/// column of `columns[r]`, each counted `weight` times (by the rule).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// For each row, the columns its queen may take (bit `c` for column
    /// `c`).
    pub columns: Vec<u64>,
    /// The boards each solution stands for.
    pub weight: u64,
}

/// How a solution of an item is weighed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weighing {
    /// Each solution counts once (times the part's weight).
    Plain,
    /// The join's fold of the two diagonal reflections (even boards): a
    /// solution counts `2^k` when its east half (columns `0..n/2`) has no
    /// queen on either long diagonal, `k` being its west half's queens on
    /// them, plus `2^k` when its west half has none, `k` the east half's;
    /// the part's weight is halved (it stands for a row set and its
    /// mirror image, counted both ways round).
    Reflected,
}

/// The weighted count of the solutions in `set`: each part's rows split
/// into two groups (those whose queen may stand in the east columns
/// `0..n/2`, and the others), every placement of each group listed by a
/// plain row-by-row search, and the pairs of placements that share no
/// column or diagonal counted by `pairs`, on the current rayon pool:
/// no table, glue, pattern or pair counter of the join's.
pub fn recount(set: &ItemSet) -> u128 {
    set.parts
        .iter()
        .map(|part| {
            let solutions = weighed(set.n, &part.columns, set.weighing);
            match set.weighing {
                Weighing::Plain => u128::from(part.weight) * solutions,
                Weighing::Reflected => u128::from(part.weight / 2) * solutions,
            }
        })
        .sum()
}

/// Queens placed on some rows: the columns and diagonals they take
/// (rising `r + c`, falling `r - c + n - 1`), and how many stand on the
/// long diagonals in the east columns (`0..n/2`) and in the others.
#[derive(Clone, Copy, Debug, Default)]
struct Placed {
    columns: u64,
    rising: u64,
    falling: u64,
    long: [u32; 2],
}

impl Placed {
    /// Whether `self` and `other` share no column or diagonal.
    #[inline(always)]
    fn apart(&self, other: &Placed) -> bool {
        (self.columns & other.columns)
            | (self.rising & other.rising)
            | (self.falling & other.falling)
            == 0
    }
}

/// Every placement of one queen on each of `rows`, in the columns
/// `allowed` gives them, no two attacking.
fn placements(n: usize, allowed: &[u64], rows: &[usize]) -> Vec<Placed> {
    fn grow(n: usize, allowed: &[u64], rows: &[usize], placed: Placed, out: &mut Vec<Placed>) {
        let Some((&row, rest)) = rows.split_first() else {
            out.push(placed);
            return;
        };
        let mut free = allowed[row] & !placed.columns;
        while free != 0 {
            let column = free.trailing_zeros() as usize;
            free &= free - 1;
            let (rise, fall) = (1u64 << (row + column), 1u64 << (row + n - 1 - column));
            if (placed.rising & rise) | (placed.falling & fall) == 0 {
                let mut long = placed.long;
                long[usize::from(2 * column >= n)] +=
                    u32::from(column == row || column + row == n - 1);
                let next = Placed {
                    columns: placed.columns | 1 << column,
                    rising: placed.rising | rise,
                    falling: placed.falling | fall,
                    long,
                };
                grow(n, allowed, rest, next, out);
            }
        }
    }
    let mut out = Vec::new();
    grow(n, allowed, rows, Placed::default(), &mut out);
    out
}

/// The solutions of one part, weighed by `weighing` (before its weight).
fn weighed(n: usize, allowed: &[u64], weighing: Weighing) -> u128 {
    let east_columns = (1u64 << (n / 2)) - 1;
    let (east_rows, west_rows): (Vec<usize>, Vec<usize>) =
        (0..n).partition(|&row| allowed[row] & east_columns != 0);
    let mut east = placements(n, allowed, &east_rows);
    let mut west = placements(n, allowed, &west_rows);
    let splits = split_order(&east, &west);
    pairs(&mut east, &mut west, &splits, weighing)
}

/// A column or diagonal both sides may take, to split the placements by.
#[derive(Clone, Copy, Debug)]
enum Line {
    Column(u32),
    Rising(u32),
    Falling(u32),
}

impl Line {
    fn takes(self, p: &Placed) -> bool {
        match self {
            Line::Column(bit) => p.columns >> bit & 1 == 1,
            Line::Rising(bit) => p.rising >> bit & 1 == 1,
            Line::Falling(bit) => p.falling >> bit & 1 == 1,
        }
    }
}

/// The lines both sides may take, the ones that rule out the most pairs
/// first (by the share of east and west placements on them).
fn split_order(east: &[Placed], west: &[Placed]) -> Vec<Line> {
    let reach = |side: &[Placed]| {
        side.iter().fold((0u64, 0u64, 0u64), |(c, r, f), p| {
            (c | p.columns, r | p.rising, f | p.falling)
        })
    };
    let (e, w) = (reach(east), reach(west));
    let shared = [
        (e.0 & w.0, Line::Column as fn(u32) -> Line),
        (e.1 & w.1, Line::Rising as fn(u32) -> Line),
        (e.2 & w.2, Line::Falling as fn(u32) -> Line),
    ];
    let share = |side: &[Placed], line: Line| {
        side.iter().filter(|p| line.takes(p)).count() as f64 / side.len().max(1) as f64
    };
    let mut lines: Vec<(f64, Line)> = shared
        .iter()
        .flat_map(|&(bits, line)| (0..64).filter(move |b| bits >> b & 1 == 1).map(line))
        .map(|line| (share(east, line) * share(west, line), line))
        .collect();
    lines.sort_by(|a, b| b.0.total_cmp(&a.0));
    lines.into_iter().map(|(_, line)| line).collect()
}

/// Below this many pairs, a pair of lists is tested pair by pair.
const FEW_PAIRS: usize = 1024;
/// Splits deeper than this run on one thread.
const PARALLEL_DEPTH: usize = 6;

/// The weighed pairs of an east and a west placement that share no
/// column or diagonal: split by the first line in `lines` into those on
/// it and those off it (two on it attack each other: three of the four
/// combinations remain), until few pairs are left to test one by one.
fn pairs(east: &mut [Placed], west: &mut [Placed], lines: &[Line], weighing: Weighing) -> u128 {
    fn split(side: &mut [Placed], line: Line) -> (&mut [Placed], &mut [Placed]) {
        let mut off = 0;
        for i in 0..side.len() {
            if !line.takes(&side[i]) {
                side.swap(i, off);
                off += 1;
            }
        }
        side.split_at_mut(off)
    }
    fn go(
        east: &mut [Placed],
        west: &mut [Placed],
        lines: &[Line],
        depth: usize,
        weighing: Weighing,
    ) -> u128 {
        if east.is_empty() || west.is_empty() {
            return 0;
        }
        let Some((&line, rest)) = lines
            .split_first()
            .filter(|_| east.len() * west.len() > FEW_PAIRS)
        else {
            return one_by_one(east, west, weighing);
        };
        let (east_off, east_on) = split(east, line);
        let (west_off, west_on) = split(west, line);
        if depth < PARALLEL_DEPTH {
            // east_off meets both west parts: one task per west part, and
            // each needs its own order of east_off.
            let (mut east_off_copy, mut west_off_copy) = (east_off.to_vec(), west_off.to_vec());
            let ((a, b), c) = rayon::join(
                || {
                    rayon::join(
                        || go(east_off, west_off, rest, depth + 1, weighing),
                        || go(east_on, &mut west_off_copy, rest, depth + 1, weighing),
                    )
                },
                || go(&mut east_off_copy, west_on, rest, depth + 1, weighing),
            );
            a + b + c
        } else {
            go(east_off, west_on, rest, depth + 1, weighing)
                + go(east_on, west_off, rest, depth + 1, weighing)
                + go(east_off, west_off, rest, depth + 1, weighing)
        }
    }
    go(east, west, lines, 0, weighing)
}

/// The weighed pairs of `east` and `west` that share nothing, tested one
/// by one.
fn one_by_one(east: &[Placed], west: &[Placed], weighing: Weighing) -> u128 {
    let mut total = 0u128;
    for e in east {
        let count: u64 = match weighing {
            Weighing::Plain => west.iter().map(|w| u64::from(e.apart(w))).sum(),
            // A half (of the columns) with no queen on the long diagonals
            // counts 2^k, k the other half's queens on them.
            Weighing::Reflected => west
                .iter()
                .map(|w| {
                    let (east, west) = (e.long[0] + w.long[0], e.long[1] + w.long[1]);
                    let clean = |queens: u32, other: u32| u64::from(queens == 0) << other;
                    u64::from(e.apart(w)) * (clean(east, west) + clean(west, east))
                })
                .sum(),
        };
        total += u128::from(count);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oeis::known_total;

    #[test]
    fn every_column_allowed_in_every_row_counts_the_whole_board() {
        for n in 1..=10 {
            let set = ItemSet {
                n,
                parts: vec![Part {
                    columns: vec![(1u64 << n) - 1; n],
                    weight: 1,
                }],
                weighing: Weighing::Plain,
            };
            assert_eq!(Some(recount(&set)), known_total(n), "n = {n}");
        }
    }

    #[test]
    fn the_reflected_weighing_over_every_board_gives_the_total_each_way() {
        // Summed over all solutions, each half's rule alone gives the total
        // (the reflections move queens between the halves): both, twice,
        // at weight 2 (halved).
        for n in (4..=10).step_by(2) {
            let set = ItemSet {
                n,
                parts: vec![Part {
                    columns: vec![(1u64 << n) - 1; n],
                    weight: 2,
                }],
                weighing: Weighing::Reflected,
            };
            let total = known_total(n);
            assert_eq!(Some(recount(&set)), total.map(|t| 2 * t), "n = {n}");
        }
    }
}
