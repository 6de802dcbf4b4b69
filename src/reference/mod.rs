//! The textbook solvers, kept small and readable.
//!
//! They are the oracles the fast engine is tested against for small n, the
//! baselines it is benchmarked against, and the place to learn the algorithm.
//! Both search row by row with no symmetry; they differ only in how they
//! remember which squares are attacked.

pub mod board_scan;
pub mod set_based;
