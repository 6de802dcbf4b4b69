//! What a pair item stands for, in plain terms: the set of solutions its
//! tally weighs ([`ItemSet`]), for an audit to recount another way, and a
//! line saying so for people.

use crate::engine::join::count::frames::{Fold, Frame};
use crate::engine::join::count::items::Item;
use crate::engine::join::Join;
use crate::engine::recount::{ItemSet, Part, Weighing};

/// A work item described: the solutions it weighs, and how, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Described {
    /// The solutions and their weighing.
    pub set: ItemSet,
    /// The item in words: its rows, fixed queens, weight and rule.
    pub text: String,
}

impl Join {
    /// What work item `index` stands for, if it joins pairs; `None` for the
    /// items that count the rotations' fixed points ([`burnside::items`](crate::engine::join::count::burnside::items))
    /// and for indices past the last item.
    pub fn describe(&self, index: usize) -> Option<Described> {
        // A drawn item stands for all the pair items of its block.
        let items: Vec<Item> = self
            .order
            .items_of(index)
            .filter(|i| i.fixed_index().is_none())
            .collect();
        let first = items.first()?;
        let group = |item: &Item| &self.frames[self.groups[item.group as usize].clone()];
        let reflected = group(first)[0].fold == Fold::MirrorAndFlip
            && group(first)[0].forbidden == (0, 0)
            && self.reflect;
        let parts = items
            .iter()
            .flat_map(|item| {
                group(item).iter().map(|frame| Part {
                    columns: self.rows_columns(frame, item),
                    weight: u64::from(item.weight),
                })
            })
            .collect();
        let set = ItemSet {
            n: self.n,
            parts,
            weighing: if reflected {
                Weighing::Reflected
            } else {
                Weighing::Plain
            },
        };
        let text = items
            .iter()
            .map(|item| self.words(group(item), item, reflected))
            .collect::<Vec<_>>()
            .join("; ");
        Some(Described { set, text })
    }

    /// The board rows of the item's rows: north bit j is row j, south bit
    /// j row n - h + j.
    fn board_rows(&self, (north, south): (u32, u32)) -> Vec<usize> {
        let bits = |set: u32, first: usize| {
            (0..self.h)
                .filter(move |j| set >> j & 1 == 1)
                .map(move |j| first + j)
        };
        bits(north, 0).chain(bits(south, self.n - self.h)).collect()
    }

    /// The middle queens of an odd board's frame: the middle row's
    /// (h, column) and the middle column's (row, h); the centre for the
    /// centre frame.
    fn middle_queens(&self, frame: &Frame) -> (usize, usize) {
        let h = self.h;
        let all = (1u32 << h) - 1;
        let missing = |set: u32, first: usize| {
            (set != all).then(|| first + (!set & all).trailing_zeros() as usize)
        };
        let column = missing(frame.east.columns, frame.east.c0)
            .or(missing(frame.west.columns, frame.west.c0))
            .unwrap_or(h);
        let row = missing(frame.north, 0)
            .or(missing(frame.south, h + 1))
            .unwrap_or(h);
        (column, row)
    }

    /// For each board row, the columns its queen may take in `frame` for
    /// `item`: the item's rows on the side glued once (east for a mirror
    /// frame, else west), the frame's other quarter rows on the other
    /// side, and on an odd board the middle row and column's queens where
    /// the frame put them.
    fn rows_columns(&self, frame: &Frame, item: &Item) -> Vec<u64> {
        let side = |c0: usize, columns: u32| u64::from(columns) << c0;
        let (east, west) = (
            side(frame.east.c0, frame.east.columns),
            side(frame.west.c0, frame.west.columns),
        );
        let (own, other) = match frame.fold {
            Fold::MirrorAndFlip => (east, west),
            Fold::None => (west, east),
        };
        let rows = (u32::from(item.north), u32::from(item.south));
        let mut columns = vec![0u64; self.n];
        for row in self.board_rows((frame.north, frame.south)) {
            columns[row] = other;
        }
        for row in self.board_rows(rows) {
            columns[row] = own;
        }
        if self.n % 2 == 1 {
            let (column, row) = self.middle_queens(frame);
            columns[self.h] = 1 << column;
            columns[row] = 1 << self.h;
        }
        columns
    }

    fn words(&self, frames: &[Frame], item: &Item, reflected: bool) -> String {
        let first = &frames[0];
        let rows = self.board_rows((u32::from(item.north), u32::from(item.south)));
        let list = |values: &[usize], between: &str| {
            values
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(between)
        };
        let mut text = match first.fold {
            Fold::MirrorAndFlip => format!("east queens on rows {{{}}}", list(&rows, " ")),
            Fold::None => format!("west queens on rows {{{}}}", list(&rows, " ")),
        };
        if self.n % 2 == 1 {
            let (_, row) = self.middle_queens(first);
            if first.fold == Fold::MirrorAndFlip {
                text.push_str(", a queen in the centre");
            } else {
                let columns: Vec<usize> = frames.iter().map(|f| self.middle_queens(f).0).collect();
                text.push_str(&format!(
                    ", the middle column's queen on row {row}, the middle row's on column {} ({} frames)",
                    list(&columns, " or "),
                    frames.len()
                ));
            }
        }
        text.push_str(&format!(", weight {}", item.weight));
        if reflected {
            text.push_str(", the diagonal reflections folded in");
        }
        text
    }
}
