//! The column splits a half's glue walks: the k-subsets of every column
//! set the frames use, listed once.

use super::frames::Frame;

/// The k-subsets of every column set the frames use, listed once: the
/// column splits a half's glue walks.
#[derive(Clone, Debug, Default)]
pub(in crate::engine::join) struct Splits {
    /// `lists[columns][k]`, empty for the sets no frame uses.
    pub(in crate::engine::join) lists: Vec<Vec<Vec<u32>>>,
}

impl Splits {
    pub(in crate::engine::join) fn new(h: usize, frames: &[Frame]) -> Splits {
        let mut lists = vec![Vec::new(); 1 << h];
        for frame in frames {
            for columns in [frame.east.columns, frame.west.columns] {
                let slot: &mut Vec<Vec<u32>> = &mut lists[columns as usize];
                if slot.is_empty() {
                    *slot = (0..=h as u32)
                        .map(|k| subsets(columns, k).collect())
                        .collect();
                }
            }
        }
        Splits { lists }
    }

    /// The bytes the lists take.
    pub(in crate::engine::join) fn bytes(&self) -> u64 {
        let lists = self.lists.iter().flatten().map(|list| 4 * list.len() + 24);
        (lists.sum::<usize>() + 24 * self.lists.len()) as u64
    }

    /// The k-subsets of `columns` (a set some frame uses).
    pub(in crate::engine::join) fn of(&self, columns: u32, k: u32) -> &[u32] {
        &self.lists[columns as usize][k as usize]
    }
}

/// The subsets of `set` with `k` members: Gosper's walk over k-subsets of
/// `0..|set|`, each spread onto the members of `set`.
pub(in crate::engine::join) fn subsets(set: u32, k: u32) -> impl Iterator<Item = u32> {
    let size = set.count_ones();
    let first = if k == 0 { 0 } else { (1u32 << k) - 1 };
    let end = 1u64 << size;
    let mut next = (k <= size).then_some(first);
    std::iter::from_fn(move || {
        let current = next?;
        next = if current == 0 {
            None
        } else {
            // The next k-subset in order (Gosper's hack).
            let low = current & current.wrapping_neg();
            let ripple = current + low;
            let successor = (((ripple ^ current) >> 2) / low) | ripple;
            (u64::from(successor) < end).then_some(successor)
        };
        Some(spread(u64::from(current), u64::from(set)) as u32)
    })
}

/// Bit i of `bits` placed on the i-th member of `set` (a software PDEP).
pub(in crate::engine::join) fn spread(mut bits: u64, set: u64) -> u64 {
    let (mut out, mut members) = (0, set);
    while bits != 0 && members != 0 {
        let member = members & members.wrapping_neg();
        if bits & 1 != 0 {
            out |= member;
        }
        bits >>= 1;
        members ^= member;
    }
    out
}
