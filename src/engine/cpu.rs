//! What this CPU runs: the one place that detects instruction-set
//! features, and the one switch, [`Simd`], that picks an engine's path.
//!
//! Each engine lists its paths and what each needs
//! ([`Backtrack::PATHS`](super::backtrack::Backtrack::PATHS),
//! [`Join::PATHS`](super::join::Join::PATHS)); this module says which this
//! CPU runs ([`available`]), the fastest of them ([`fastest`]), and refuses
//! one it cannot ([`check`]). The features are detected once and cached
//! (`is_x86_feature_detected!` caches them itself), the environment once a
//! process.

use std::collections::BTreeSet;
use std::io::Write;
use std::sync::{Mutex, OnceLock};

use serde::{Deserialize, Serialize};

use crate::problem::Error;

/// The environment variable that keeps every engine on its portable path
/// where the path is not asked for: set to anything but `0`, it is a
/// synonym of `--simd none` (a path asked for by name wins). For testing
/// the portable paths on machines with vector units.
pub const NO_LANES_VAR: &str = "NQUEENS_NO_LANES";

/// The instruction-set paths the engines have: the one switch (`--simd`)
/// for both. Which paths an engine has, and what each needs of the CPU,
/// the engine says in its [`Path`] list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Simd {
    /// No hand-written vector code (the compiler may still vectorize;
    /// POPCNT is used where the CPU has it): any CPU.
    None,
    /// 256-bit registers (x86-64 with AVX2, BMI1, BMI2 and POPCNT).
    Avx2,
    /// 512-bit registers (x86-64 with AVX-512).
    Avx512,
    /// 128-bit registers (aarch64).
    Neon,
}

impl Simd {
    /// Every path, in the order `--help` lists them.
    pub const ALL: [Simd; 4] = [Simd::Avx512, Simd::Avx2, Simd::Neon, Simd::None];

    /// The path's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Simd::None => "none",
            Simd::Avx2 => "avx2",
            Simd::Avx512 => "avx512",
            Simd::Neon => "neon",
        }
    }

    /// The path called `name`, if there is one.
    pub fn named(name: &str) -> Option<Simd> {
        Simd::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl std::fmt::Display for Simd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One path of an engine: the instruction set, what it needs of the CPU,
/// and whether this CPU has it.
#[derive(Clone, Copy, Debug)]
pub struct Path {
    /// The instruction set.
    pub simd: Simd,
    /// What it needs, e.g. `AVX-512 F and CD`.
    pub needs: &'static str,
    /// Whether this CPU has it (detected once, cached).
    pub detect: fn() -> bool,
}

/// The path without hand-written vector code, which every engine has.
pub const PORTABLE: Path = Path {
    simd: Simd::None,
    needs: "nothing",
    detect: || true,
};

/// The fastest of an engine's `paths` this CPU runs: the widest it has
/// (AVX-512, then AVX2, then NEON), or [`Simd::None`] where it has none or
/// [`NO_LANES_VAR`] is set.
pub fn fastest(paths: &[Path]) -> Simd {
    if vectors_off() {
        return Simd::None;
    }
    [Simd::Avx512, Simd::Avx2, Simd::Neon]
        .into_iter()
        .find(|&simd| paths.iter().any(|p| p.simd == simd && (p.detect)()))
        .unwrap_or(Simd::None)
}

/// The paths of `paths` this CPU runs, widest first.
pub fn available(paths: &[Path]) -> Vec<Simd> {
    let mut here: Vec<Simd> = paths
        .iter()
        .filter(|p| (p.detect)())
        .map(|p| p.simd)
        .collect();
    here.sort_by_key(|s| Simd::ALL.iter().position(|x| x == s));
    here
}

/// `Ok` if `engine` (its name in a message) runs on `simd` here.
///
/// # Errors
/// [`Error::SimdUnavailable`], saying whether the engine lacks the path or
/// the CPU what it needs, and naming the paths this CPU runs it on.
pub fn check(engine: &'static str, paths: &[Path], simd: Simd) -> Result<(), Error> {
    let reason = match paths.iter().find(|p| p.simd == simd) {
        None => format!("the {engine} has no {simd} path"),
        Some(path) if !(path.detect)() => format!(
            "the {engine}'s {simd} path needs {}, which this CPU lacks",
            path.needs
        ),
        Some(_) => return Ok(()),
    };
    let available = available(paths)
        .iter()
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(", ");
    Err(Error::SimdUnavailable {
        simd: simd.name(),
        reason,
        engine,
        available,
    })
}

/// Whether [`NO_LANES_VAR`] asks for the portable paths (read once).
pub fn vectors_off() -> bool {
    static OFF: OnceLock<bool> = OnceLock::new();
    *OFF.get_or_init(|| std::env::var_os(NO_LANES_VAR).is_some_and(|v| v != "0"))
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

/// What the join's AVX-512 pair counter needs: AVX-512 F and VPOPCNTDQ,
/// and the scalar POPCNT and BMI (every AVX-512 CPU has them).
pub const AVX512_PAIRS_NEEDS: &str = "AVX-512 F and VPOPCNTDQ, POPCNT, BMI1 and BMI2";

/// Whether the CPU has [`AVX512_PAIRS_NEEDS`].
pub fn avx512_pairs() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vpopcntdq")
            && std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// What the AVX2 paths need: AVX2, BMI1, BMI2 and POPCNT (every CPU with
/// AVX2 has the other three).
pub const AVX2_NEEDS: &str = "AVX2, BMI1, BMI2 and POPCNT";

/// Whether the CPU has [`AVX2_NEEDS`].
pub fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// What the NEON paths need: an aarch64 CPU (NEON is part of the
/// architecture there).
pub const NEON_NEEDS: &str = "NEON (an aarch64 CPU)";

/// Whether the CPU has [`NEON_NEEDS`].
pub fn neon() -> bool {
    cfg!(target_arch = "aarch64")
}

/// For tests: whether `simd`, one of `paths` (of the engine part `what`,
/// e.g. `pair counter`), runs here, a skip said as [`runs_or_skips`] says
/// it; `false` for a path not among `paths`. Not part of the API.
#[doc(hidden)]
pub fn path_runs_in(paths: &[Path], simd: Simd, what: &str, test: &str) -> bool {
    paths
        .iter()
        .find(|p| p.simd == simd)
        .is_some_and(|p| runs_or_skips((p.detect)(), test, &format!("{simd} {what}"), p.needs))
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
