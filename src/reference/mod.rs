//! The textbook solvers, kept small and readable.
//!
//! They are the oracles the fast engine is tested against for small n, the
//! baselines it is benchmarked against, and the place to learn the algorithm.
//! All search row by row with no symmetry; they differ only in how they
//! remember which squares are attacked: hash sets ([`set_based`]), a board
//! scanned square by square ([`board_scan`]), or bit masks ([`bitmask`]).
//! [`classify`] sorts solutions into symmetry classes by brute force.

pub mod bitmask;
pub mod board_scan;
pub mod classify;
pub mod set_based;
