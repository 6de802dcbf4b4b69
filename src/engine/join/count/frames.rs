//! The frames of a join: what the queens outside the quarters leave to
//! it (each side's columns, the rows, the diagonals held outside, the
//! weight), the shape of the patterns an east and a west half share, and
//! the groups of frames that share their west halves.

use std::ops::Range;

/// The columns of one half: where its quarters stand, and which of their
/// columns are free.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine::join) struct Side {
    /// The board column of the quarters' first column.
    pub(in crate::engine::join) c0: usize,
    /// The free columns, as a bit set of the quarters' columns.
    pub(in crate::engine::join) columns: u32,
}

/// Which diagonals an east and a west half can share: the rising ones
/// `sum.0..sum.0 + sum.1` and the falling ones `diff.0..diff.0 + diff.1`
/// (first, count). A half's pattern holds them, rising ones in the low
/// bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine::join) struct Shape {
    pub(in crate::engine::join) sum: (usize, usize),
    pub(in crate::engine::join) diff: (usize, usize),
}

impl Shape {
    /// The diagonals shared by the columns `east` and `west` (inclusive
    /// ranges, east left of west) of the n×n board.
    pub(in crate::engine::join) fn between(
        n: usize,
        east: (usize, usize),
        west: (usize, usize),
    ) -> Shape {
        // Rising r + c: east reaches n - 1 + east.1, west starts at west.0.
        // Falling r - c + n - 1: east starts at n - 1 - east.1, west
        // reaches 2n - 2 - west.0.
        let sum = (west.0, n + east.1 - west.0);
        let diff = (n - 1 - east.1, n + east.1 - west.0);
        Shape { sum, diff }
    }

    /// The pattern's width in bits.
    pub(in crate::engine::join) fn bits(self) -> usize {
        self.sum.1 + self.diff.1
    }

    /// The pattern of a half with diagonals `(sum, diff)`.
    pub(in crate::engine::join) fn pattern(self, (sum, diff): (u64, u64)) -> u64 {
        let low = |bits: usize| (1u64 << bits) - 1;
        (sum >> self.sum.0 & low(self.sum.1))
            | (diff >> self.diff.0 & low(self.diff.1)) << self.sum.1
    }

    /// A west half's pattern `p` as an east half's, mirrored left to right:
    /// its rising and falling diagonals swapped.
    #[inline(always)]
    pub(in crate::engine::join) fn mirrored(self, p: u64) -> u64 {
        p >> self.sum.1 | (p & ((1u64 << self.sum.1) - 1)) << self.sum.1
    }

    /// The pattern bits of the n×n board's two long diagonals.
    pub(in crate::engine::join) fn long_diagonals(self, n: usize) -> u64 {
        let long = 1u64 << (n - 1);
        self.pattern((long, 0)) | self.pattern((0, long))
    }
}

/// What the queens outside the quarters leave to a join: the columns of
/// each side, the rows, the diagonals held outside, and how many boards of
/// the orbit each counted one stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine::join) struct Frame {
    pub(in crate::engine::join) east: Side,
    pub(in crate::engine::join) west: Side,
    /// North and south rows free, as bit sets of the quarters' rows.
    pub(in crate::engine::join) north: u32,
    pub(in crate::engine::join) south: u32,
    /// Diagonals held outside the quarters (rising, falling).
    pub(in crate::engine::join) forbidden: (u64, u64),
    /// Those the west half keeps off when it is glued once for a group:
    /// the middle column's queen's (all of them for a mirror frame).
    pub(in crate::engine::join) west_forbidden: (u64, u64),
    /// The middle row's queen's diagonals as pattern bits, set in the east
    /// halves when the west ones are glued once for a group (so that west
    /// halves on them pair with none).
    pub(in crate::engine::join) middle_row: u64,
    pub(in crate::engine::join) shape: Shape,
    /// The boards each counted solution stands for.
    pub(in crate::engine::join) weight: u64,
    /// Which row sets count alike.
    pub(in crate::engine::join) fold: Fold,
}

/// The symmetries of a frame that fold its items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine::join) enum Fold {
    /// The west side is the east's mirror image and the frame its own
    /// north-south flip (even n, and the centre queen of odd n): E, its
    /// complement and their flips count alike.
    MirrorAndFlip,
    /// None: the frame stands for its images (the off-centre pairs of odd
    /// n, weight 8).
    None,
}

/// The frames of the n×n board: for even n the whole board; for odd n the
/// centre queen, and one pair (Q1, Q2) per orbit of the off-centre ones.
pub(in crate::engine::join) fn frames(n: usize, h: usize) -> Vec<Frame> {
    let all = (1u32 << h) - 1;
    let square = |c0| Side { c0, columns: all };
    // East columns 0..h, west n - h..n (the middle column of odd n apart).
    let whole = Frame {
        east: square(0),
        west: square(n - h),
        north: all,
        south: all,
        forbidden: (0, 0),
        west_forbidden: (0, 0),
        middle_row: 0,
        shape: Shape::between(n, (0, h - 1), (n - h, n - 1)),
        weight: 1,
        fold: Fold::MirrorAndFlip,
    };
    if n.is_multiple_of(2) {
        return vec![whole];
    }
    let diagonals = |r: usize, c: usize| (1u64 << (r + c), 1u64 << (r + n - 1 - c));
    let centre = diagonals(h, h);
    let mut frames = vec![Frame {
        forbidden: centre,
        west_forbidden: centre,
        ..whole
    }];
    let h_signed = h as i64;
    let offsets = (-h_signed..=h_signed).filter(|&x| x != 0);
    // By the middle column's queen first, so that the frames sharing it
    // (and so their west halves) stand together.
    for b in offsets.clone() {
        for a in offsets.clone() {
            // Q1 = (h, h + a) and Q2 = (h + b, h) attack each other when
            // |a| == |b|; otherwise their orbit has 8 members.
            if a.abs() == b.abs() || (a, b) != canonical(a, b) {
                continue;
            }
            let (q1, q2) = (h as i64 + a, h as i64 + b);
            let (s1, d1) = diagonals(h, q1 as usize);
            let (s2, d2) = diagonals(q2 as usize, h);
            // The quarters' own columns and rows: east 0..h, west h+1..;
            // north 0..h, south h+1...
            let (mut east, mut west, mut north, mut south) = (all, all, all, all);
            if a < 0 {
                east &= !(1 << q1);
            } else {
                west &= !(1 << (q1 as usize - h - 1));
            }
            if b < 0 {
                north &= !(1 << q2);
            } else {
                south &= !(1 << (q2 as usize - h - 1));
            }
            frames.push(Frame {
                east: Side {
                    columns: east,
                    ..whole.east
                },
                west: Side {
                    columns: west,
                    ..whole.west
                },
                north,
                south,
                forbidden: (s1 | s2, d1 | d2),
                // Q1 in the east: the west halves need only keep off Q2
                // when glued, and are sifted for Q1 by pattern bits (its
                // diagonals the west can reach all cross the middle).
                west_forbidden: if a < 0 { (s2, d2) } else { (s1 | s2, d1 | d2) },
                middle_row: if a < 0 {
                    whole.shape.pattern((s1, d1))
                } else {
                    0
                },
                weight: 8,
                fold: Fold::None,
                ..whole
            });
        }
    }
    frames
}

/// The runs of consecutive frames that can share their west halves: the
/// off-centre frames of odd n with the same west side, rows and west
/// forbidden diagonals; every other frame alone.
pub(in crate::engine::join) fn groups(frames: &[Frame]) -> Vec<Range<usize>> {
    let shares = |a: &Frame, b: &Frame| {
        a.fold == Fold::None
            && b.fold == Fold::None
            && (a.west, a.north, a.south, a.west_forbidden)
                == (b.west, b.north, b.south, b.west_forbidden)
    };
    let mut groups: Vec<Range<usize>> = Vec::new();
    for (index, frame) in frames.iter().enumerate() {
        match groups.last_mut() {
            Some(last) if shares(&frames[last.start], frame) => last.end = index + 1,
            _ => groups.push(index..index + 1),
        }
    }
    groups
}

/// The smallest of the 8 images of the off-centre pair (a, b) under the
/// square's symmetries: the quarter turn (a, b) -> (-b, a) and the
/// transpose (a, b) -> (b, a) generate them.
pub(in crate::engine::join) fn canonical(a: i64, b: i64) -> (i64, i64) {
    let mut best = (a, b);
    let mut current = (a, b);
    for _ in 0..4 {
        current = (-current.1, current.0);
        best = best.min(current).min((current.1, current.0));
    }
    best
}
