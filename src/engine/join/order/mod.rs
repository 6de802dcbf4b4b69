//! Which item is where: the layout of the items before the table is
//! filled and the memory plan ([`layout`]), what each item costs and the
//! order that interleaves them by cost ([`cost`], fitted offline on the
//! measurements of `fit`), the items past `LISTED_TO` drawn from a fixed
//! pseudo-random order ([`slots`]), and what an item stands for, in
//! words, for an audit ([`describe`]).

pub(in crate::engine::join) mod cost;
pub(in crate::engine::join) mod describe;
#[cfg(test)]
mod fit;
pub(in crate::engine::join) mod layout;
pub(in crate::engine::join) mod slots;

pub use self::describe::Described;
pub use self::layout::MemoryPlan;
pub(in crate::engine::join) use self::layout::{count_items, Layout, Order};
