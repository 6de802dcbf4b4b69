//! Counting the join's items: the frames the queens outside the quarters
//! leave (`frames`), the work items and their bounds (`items`), the
//! column splits the glue walks (`splits`), the quarter tables
//! ([`quarter`]), the halves glued and their pairs counted (`glue`, the
//! hot part, over the pair counters of [`pairs`]), and the rotations' fixed
//! points ([`burnside`]).

pub mod burnside;
pub(in crate::engine::join) mod frames;
pub(in crate::engine::join) mod glue;
pub(in crate::engine::join) mod items;
pub mod pairs;
pub mod quarter;
pub(in crate::engine::join) mod splits;

pub(in crate::engine::join) use self::frames::Frame;
pub(in crate::engine::join) use self::glue::{RUN, SEARCHED_FILL_MOST};
pub(in crate::engine::join) use self::quarter::{QuarterTable, RowCache, Source};
pub(in crate::engine::join) use self::splits::Splits;
