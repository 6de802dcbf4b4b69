//! What this CPU runs: the one place that detects instruction-set
//! features, and the one switch that keeps every engine on its portable
//! path, for both engines.
//!
//! Each engine names its own paths (the backtracker's
//! [`Kernel`](super::backtrack::kernel::Kernel), the join's
//! [`PairCounter`](super::join::pairs::PairCounter)) and asks this module
//! whether the CPU runs them; the features are detected once and cached
//! (`is_x86_feature_detected!` caches them itself), the environment once a
//! process.

use std::collections::BTreeSet;
use std::io::Write;
use std::sync::{Mutex, OnceLock};

/// The environment variable that keeps every engine on its portable path
/// where the default path is chosen: set to anything but `0`, the backtracker
/// counts on its scalar kernel and the join on its portable pair counter.
/// For testing the portable paths on machines with AVX-512; a path asked
/// for by name is not affected.
pub const NO_LANES_VAR: &str = "NQUEENS_NO_LANES";

/// The instruction-set paths the engines have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Simd {
    /// No hand-written vector code: any CPU.
    None,
    /// 512-bit registers (x86-64 with AVX-512).
    Avx512,
}

impl Simd {
    /// The path's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Simd::None => "none",
            Simd::Avx512 => "avx512",
        }
    }
}

impl std::fmt::Display for Simd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether [`NO_LANES_VAR`] asks for the portable paths (read once).
pub fn vectors_off() -> bool {
    static OFF: OnceLock<bool> = OnceLock::new();
    *OFF.get_or_init(|| std::env::var_os(NO_LANES_VAR).is_some_and(|v| v != "0"))
}

/// The widest path the engines may choose by default: [`Simd::Avx512`]
/// where the CPU runs both engines' AVX-512 code and [`NO_LANES_VAR`] is
/// not set, else [`Simd::None`].
pub fn default_simd() -> Simd {
    if !vectors_off() && avx512_lanes() && avx512_pairs() {
        Simd::Avx512
    } else {
        Simd::None
    }
}

/// What the backtracker's lanes kernel needs: AVX-512 F and CD.
pub const AVX512_LANES_NEEDS: &str = "AVX-512 F and CD";

/// Whether the CPU has [`AVX512_LANES_NEEDS`].
pub fn avx512_lanes() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512cd")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// What the join's AVX-512 pair counter needs: AVX-512 F and VPOPCNTDQ.
pub const AVX512_PAIRS_NEEDS: &str = "AVX-512 F and VPOPCNTDQ";

/// Whether the CPU has [`AVX512_PAIRS_NEEDS`].
pub fn avx512_pairs() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vpopcntdq")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// For tests, the one way a path this CPU lacks is skipped: `true` when
/// `available`; otherwise says `SKIPPED {test} on the {path}: this CPU
/// lacks {needs}` on stderr (straight to the file descriptor, which the
/// test harness does not capture; once per test and path) and returns
/// `false`. Not part of the API.
#[doc(hidden)]
pub fn runs_or_skips(available: bool, test: &str, path: &str, needs: &str) -> bool {
    static SAID: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    if available {
        return true;
    }
    let line = format!("SKIPPED {test} on the {path}: this CPU lacks {needs}");
    let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
    if said.insert(line.clone()) {
        let _ = writeln!(std::io::stderr(), "{line}");
    }
    false
}
