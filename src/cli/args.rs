//! The arguments of `count`, `solve` and `verify`, and the parsers that
//! check each value with a message naming its range.

use std::path::PathBuf;

use nqueens::engine::join::{Adapter, JoinLayout, BUDGET_STEP_S};
use nqueens::exec::shard::MAX_SHARDS;
use nqueens::job::ShardRun;
use nqueens::{Algorithm, Options, Run, Simd, Symmetry, MAX_N};

use super::UsageError;

/// The most threads `--threads` accepts.
pub const MAX_THREADS: usize = 1024;

/// The flags that change what a count runs, the same on `count` and
/// `estimate` (so that the two always agree): turned into the library's
/// [`Options`] and resolved by its [`Job`](nqueens::Job).
#[derive(clap::Args)]
pub struct JobFlags {
    /// Counting algorithm [default: the faster engine for N on this CPU:
    /// join from n = 10 (odd: 11) with AVX-512, 12 (odd: 13) without, else
    /// parallel; parallel
    /// whenever --depth or --symmetry is given].
    #[arg(long, value_name = "A", value_enum)]
    pub algo: Option<Algorithm>,
    /// Symmetry used by the parallel algorithm [default: full].
    #[arg(long, value_name = "S", value_enum)]
    pub symmetry: Option<Symmetry>,
    /// Worker threads for the parallel and join algorithms [default: all
    /// logical cores].
    #[arg(long, value_name = "T", value_parser = parse_threads, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// The most memory the join may plan for, or the parallel algorithm's
    /// plan may take, e.g. 512M or 8G (K, M, G, T: powers of 1024); the
    /// join fills larger row sets and shares more of them where it leaves
    /// room [default: the join, the memory available now; parallel, 1G].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_memory: Option<u64>,
    /// Rows placed in each subproblem of the parallel algorithm, 1..=N, as
    /// long as the plan fits in 1 GiB (or --max-memory) [default: the
    /// smallest depth with 64 subproblems per thread].
    #[arg(long, value_name = "K", value_parser = parse_depth, allow_negative_numbers = true)]
    pub depth: Option<usize>,
    #[command(flatten)]
    pub simd: SimdFlag,
    /// The join's layout: `table` (every item listed and costed, quarter
    /// cells read from a table filled first; n up to 25) or `searched`
    /// (items drawn from their index, each row set filled as it is first
    /// needed and shared while memory allows, the cells of the largest
    /// searched one at a time)
    /// [default: table to n = 25, searched past it]. Implies --algo join.
    #[arg(long, value_name = "LAYOUT", value_parser = parse_layout)]
    pub layout: Option<JoinLayout>,
}

impl JobFlags {
    /// The options the flags ask for. `--algo auto` is no `--algo`; a
    /// symmetry asked for takes the backtracker, unless a journal to resume
    /// may decide (`resumable`: its plan comes first).
    pub fn options(&self, resumable: bool) -> Options {
        let algorithm = match self.algo.filter(|&a| a != Algorithm::Auto) {
            Some(algorithm) => algorithm,
            None if self.symmetry.is_some() && !resumable => Algorithm::Parallel,
            None => Algorithm::Auto,
        };
        Options::default()
            .with_algorithm(algorithm)
            .with_symmetry(self.symmetry.unwrap_or_default())
            .with_depth(self.depth)
            .with_simd(self.simd.path())
            .with_max_memory(self.max_memory)
            .with_layout(self.layout)
    }

    /// The threads asked for, else every logical core.
    pub fn threads(&self) -> usize {
        self.threads.unwrap_or_else(num_cpus::get)
    }

    /// Refuses the flags given that do not apply to `algorithm`, the
    /// algorithm the job resolved.
    pub fn check(&self, algorithm: Algorithm) -> Result<(), UsageError> {
        self.check_search(algorithm)?;
        let pooled_only = [
            ("--threads <T>", self.threads.map(|t| t.to_string())),
            ("--max-memory <SIZE>", self.max_memory.map(nqueens::bytes)),
            ("--simd <PATH>", self.simd.path().map(|s| s.to_string())),
        ];
        reject_serial(algorithm, pooled_only)
    }

    /// Refuses the backtracker's own flags (--depth, --symmetry) given
    /// for another algorithm. (`estimate` takes the pooled engines' flags
    /// with a serial search, and says it runs on one thread.)
    pub fn check_search(&self, algorithm: Algorithm) -> Result<(), UsageError> {
        let parallel_only = [
            ("--depth <K>", self.depth.map(|k| k.to_string())),
            ("--symmetry <S>", self.symmetry.map(|s| s.to_string())),
        ];
        reject_parallel_only(algorithm, parallel_only)
    }
}

#[derive(clap::Args)]
pub struct CountArgs {
    /// Board size, 1..=32.
    #[arg(value_parser = parse_n, allow_negative_numbers = true)]
    pub n: usize,
    #[command(flatten)]
    pub job: JobFlags,
    /// Also report the unique solutions (A002562) and their symmetry classes
    /// (needs --symmetry full, the default).
    #[arg(long)]
    pub unique: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Keep a crash-safe journal of finished work in FILE; run again with
    /// the same FILE to resume (the depth and symmetry come from it).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Count only shard I of M (1 <= I <= M), balanced by estimated cost;
    /// needs --out. Sum the shards with `nqueens merge`.
    #[arg(long, value_name = "I/M", value_parser = parse_shard, requires = "out")]
    pub shard: Option<(usize, usize)>,
    /// Where --shard writes its result (JSON).
    #[arg(long, value_name = "FILE", requires = "shard")]
    pub out: Option<PathBuf>,
    /// Run across MPI ranks (under mpirun or srun): rank 0 hands out work
    /// and prints; needs a build with the cargo feature "mpi".
    #[arg(long)]
    pub mpi: bool,
    #[command(flatten)]
    pub gpu: GpuFlags,
}

/// `--gpu` and its settings, on `count` and `estimate`.
#[derive(clap::Args)]
pub struct GpuFlags {
    /// Count the join's long pair jobs on a GPU (any Vulkan, Metal or DX12
    /// driver, through wgpu): implies --algo join; needs a build with the
    /// cargo feature "gpu".
    #[arg(long)]
    pub gpu: bool,
    /// Which GPU adapter --gpu takes, from 0 [default: the one the drivers
    /// prefer, a discrete GPU first].
    #[arg(long, value_name = "K", requires = "gpu")]
    pub gpu_device: Option<usize>,
    /// The most GPU memory --gpu's pair jobs in flight may hold, e.g. 512M
    /// or 4G, at least 64M [default: a quarter of the GPU's memory where
    /// its driver is Vulkan's, else 1G].
    #[arg(long, value_name = "SIZE", value_parser = parse_size, requires = "gpu")]
    pub gpu_memory: Option<u64>,
}

impl GpuFlags {
    /// `options` with the GPU asked for: `--gpu-device K`, else under
    /// `--mpi` the node's GPUs taken in turn by the ranks on it, else the
    /// adapter the drivers prefer.
    pub fn apply(&self, options: Options, mpi: bool) -> Options {
        let adapter = match (self.gpu_device, mpi) {
            (Some(k), _) => Adapter::Index(k),
            (None, true) => Adapter::Rank(rank_on_node()),
            (None, false) => Adapter::Preferred,
        };
        options
            .with_gpu(self.gpu.then_some(adapter))
            .with_gpu_memory(self.gpu_memory)
    }
}

impl CountArgs {
    /// How the count runs: journal, shard (MPI's workers are added by
    /// rank 0, which knows them).
    pub fn run(&self) -> Run {
        Run {
            checkpoint: self.checkpoint.clone(),
            shard: self
                .shard
                .zip(self.out.clone())
                .map(|((index, shards), out)| ShardRun { index, shards, out }),
            mpi_ranks: None,
        }
    }

    /// The job flags' options with the GPU asked for (`resumable`: as
    /// [`JobFlags::options`]; the GPU as [`GpuFlags::apply`]).
    pub fn options(&self, resumable: bool) -> Options {
        self.gpu.apply(self.job.options(resumable), self.mpi)
    }
}

#[derive(clap::Args)]
pub struct EstimateArgs {
    /// Board size, 1..=32.
    #[arg(value_parser = parse_n, allow_negative_numbers = true)]
    pub n: usize,
    #[command(flatten)]
    pub job: JobFlags,
    /// Also count the search's nodes exactly (slow: for checking the
    /// estimate, on boards up to about 18).
    #[arg(long)]
    pub exact: bool,
    /// Seconds the join may spend timing a sample of its items (to n =
    /// 25) or sketching its slots (past it), 1..=86400: a longer budget
    /// takes more of them and narrows the forecast's band (the sketch's
    /// standard error falls with the square root of the units; n = 28
    /// sketches about 300 units in 20 s on 2 threads). The backtracker's
    /// forecast takes a few seconds whatever this says.
    #[arg(long, value_name = "S", value_parser = parse_budget, default_value_t = ESTIMATE_BUDGET_S, allow_negative_numbers = true)]
    pub budget: u64,
    // The sample of items timed with their long pair jobs on a GPU, as
    // `count --gpu` would count them (boards up to 25).
    #[command(flatten)]
    pub gpu: GpuFlags,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `--simd`, on every command that counts.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct SimdFlag {
    /// Instruction-set path of whichever engine counts (the join's pair
    /// counter, the backtracker's kernel): auto is the fastest it has on
    /// this CPU; none is no hand-written vector code (NQUEENS_NO_LANES=1
    /// means none when this flag is not given). A path this CPU or the
    /// engine lacks is refused, naming the paths it has.
    #[arg(id = "simd", long = "simd", value_name = "PATH", value_enum, default_value_t = SimdArg::Auto)]
    pub arg: SimdArg,
}

impl SimdFlag {
    /// The path asked for, `None` for auto.
    pub fn path(self) -> Option<Simd> {
        self.arg.path()
    }
}

/// A value of `--simd`: a path, or auto.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SimdArg {
    /// The fastest path the engine has on this CPU.
    Auto,
    /// 512-bit registers (x86-64 with AVX-512).
    Avx512,
    /// 256-bit registers (x86-64 with AVX2, BMI1, BMI2, POPCNT).
    Avx2,
    /// 128-bit registers (aarch64).
    Neon,
    /// No hand-written vector code: any CPU.
    None,
}

impl SimdArg {
    /// The path, `None` for auto.
    pub fn path(self) -> Option<Simd> {
        match self {
            SimdArg::Auto => None,
            SimdArg::Avx512 => Some(Simd::Avx512),
            SimdArg::Avx2 => Some(Simd::Avx2),
            SimdArg::Neon => Some(Simd::Neon),
            SimdArg::None => Some(Simd::None),
        }
    }
}

#[derive(clap::Args)]
pub struct StatusArgs {
    /// A journal (--checkpoint) or a shard file (--shard --out).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The --max-memory the count was given, if any: a backtracking plan
    /// larger than 1 GiB is checked against it.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_memory: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct MergeArgs {
    /// The shard files (from `count N --shard I/M --out FILE`).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Also report the unique solutions and their classes (full symmetry).
    #[arg(long)]
    pub unique: bool,
    /// The --max-memory the shards were counted with, if any: a
    /// backtracking plan larger than 1 GiB is checked against it.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_memory: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct SolveArgs {
    /// Board size, 1..=32.
    #[arg(value_parser = parse_n, allow_negative_numbers = true)]
    pub n: usize,
    /// Stop after this many solutions.
    #[arg(long, value_name = "M", value_parser = parse_positive_u64, allow_negative_numbers = true)]
    pub limit: Option<u64>,
    /// board: rows of '.' and 'Q', a blank line between boards; columns: the
    /// queen's column in each row, space-separated, one solution per line;
    /// json: one JSON array of columns per line.
    #[arg(long, value_name = "F", value_enum, default_value_t = Format::Board)]
    pub format: Format,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Format {
    Board,
    Columns,
    Json,
}

#[derive(clap::Args)]
pub struct VerifyArgs {
    /// Largest board size to count.
    #[arg(long, value_name = "N", value_parser = parse_n, default_value = "14", allow_negative_numbers = true)]
    pub max: usize,
    /// Counting algorithm.
    #[arg(long, value_name = "A", value_enum, default_value_t)]
    pub algo: Algorithm,
    /// Worker threads for the parallel and join algorithms [default: all
    /// logical cores].
    #[arg(long, value_name = "T", value_parser = parse_threads, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// Also check the unique solutions against OEIS A002562.
    #[arg(long)]
    pub unique: bool,
    #[command(flatten)]
    pub simd: SimdFlag,
}

/// Rejects the first flag given (a `Some` value) that only the parallel
/// algorithm uses, when another algorithm is chosen: better than ignoring it.
pub fn reject_parallel_only<const N: usize>(
    algorithm: Algorithm,
    flags: [(&'static str, Option<String>); N],
) -> Result<(), UsageError> {
    reject_unless(
        algorithm == Algorithm::Parallel,
        "parallel",
        algorithm,
        flags,
    )
}

/// Rejects the first flag given that only the pooled algorithms (parallel
/// and join) use, when a serial one is chosen.
pub fn reject_serial<const N: usize>(
    algorithm: Algorithm,
    flags: [(&'static str, Option<String>); N],
) -> Result<(), UsageError> {
    reject_unless(
        algorithm.is_parallel(),
        "parallel or join",
        algorithm,
        flags,
    )
}

/// The first flag given, as a usage error, unless the flags `apply` to
/// `algorithm` (they apply only to `--algo {applies_to}`).
fn reject_unless<const N: usize>(
    apply: bool,
    applies_to: &str,
    algorithm: Algorithm,
    flags: [(&'static str, Option<String>); N],
) -> Result<(), UsageError> {
    if apply {
        return Ok(());
    }
    match flags
        .into_iter()
        .find_map(|(flag, value)| value.map(|v| (flag, v)))
    {
        Some((flag, value)) => Err(UsageError {
            value,
            flag,
            rule: format!("applies only to --algo {applies_to}, not {algorithm}"),
        }),
        None => Ok(()),
    }
}

/// A size in bytes: an integer with an optional K, M, G or T (powers of
/// 1024, an optional `iB` or `B` after it), at least 1 MiB.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let rule = || {
        "must be a size such as 512M, 8G or 1T (K, M, G, T: powers of 1024), at least 1M"
            .to_string()
    };
    let text = s.trim();
    let text = text
        .strip_suffix("iB")
        .or_else(|| text.strip_suffix('B'))
        .unwrap_or(text);
    let (digits, shift) = match text.chars().last() {
        Some('K' | 'k') => (&text[..text.len() - 1], 10),
        Some('M' | 'm') => (&text[..text.len() - 1], 20),
        Some('G' | 'g') => (&text[..text.len() - 1], 30),
        Some('T' | 't') => (&text[..text.len() - 1], 40),
        _ => (text, 0),
    };
    digits
        .trim()
        .parse::<u64>()
        .ok()
        .and_then(|v| v.checked_mul(1u64 << shift))
        .filter(|&v| v >= 1 << 20)
        .ok_or_else(rule)
}

/// `estimate`'s budget when `--budget` is not given, in seconds: the one
/// the join's sample and sketch are sized for.
const ESTIMATE_BUDGET_S: u64 = BUDGET_STEP_S as u64;

/// The most `--budget` allows: a day.
const MAX_BUDGET_S: u64 = 86_400;

/// Whole seconds, 1..=[`MAX_BUDGET_S`].
fn parse_budget(s: &str) -> Result<u64, String> {
    parse_in_range(s, 1, MAX_BUDGET_S).map_err(|rule| format!("{rule} (seconds)"))
}

pub fn parse_n(s: &str) -> Result<usize, String> {
    parse_in_range(s, 1, MAX_N as u64).map(|v| v as usize)
}

pub fn parse_threads(s: &str) -> Result<usize, String> {
    parse_in_range(s, 1, MAX_THREADS as u64).map(|v| v as usize)
}

/// Any count of rows; `count` checks it against the board size.
fn parse_depth(s: &str) -> Result<usize, String> {
    s.trim()
        .parse::<usize>()
        .map_err(|_| "must be an integer in 1..=N, the board size".to_string())
}

/// `table` or `searched`; the job checks it against the board size.
fn parse_layout(s: &str) -> Result<JoinLayout, String> {
    s.trim()
        .parse()
        .map_err(|_| "must be `table` (n up to 25) or `searched`".to_string())
}

/// `I/M`: shard I of M, 1 <= I <= M <= MAX_SHARDS.
fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let rule = || format!("must be I/M with 1 <= I <= M <= {MAX_SHARDS}, e.g. 3/8");
    let (i, m) = s.split_once('/').ok_or_else(rule)?;
    let i = parse_in_range(i, 1, MAX_SHARDS as u64).map_err(|_| rule())? as usize;
    let m = parse_in_range(m, 1, MAX_SHARDS as u64).map_err(|_| rule())? as usize;
    if i > m {
        return Err(rule());
    }
    Ok((i, m))
}

fn parse_positive_u64(s: &str) -> Result<u64, String> {
    parse_in_range(s, 1, u64::MAX)
}

/// An integer in `min..=max`, with a message naming the range otherwise.
pub fn parse_in_range(s: &str, min: u64, max: u64) -> Result<u64, String> {
    let rule = || {
        if max == u64::MAX {
            format!("must be an integer, at least {min}")
        } else {
            format!("must be an integer in {min}..={max}")
        }
    };
    s.trim()
        .parse::<u64>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(rule)
}

/// This process's rank among the MPI ranks on its node, as the launcher
/// says (OpenMPI, Slurm, MPICH and Intel MPI each in their own variable):
/// 0 where none does.
fn rank_on_node() -> usize {
    [
        "OMPI_COMM_WORLD_LOCAL_RANK",
        "SLURM_LOCALID",
        "MPI_LOCALRANKID",
        "PMI_LOCAL_RANK",
    ]
    .iter()
    .find_map(|name| std::env::var(name).ok()?.trim().parse().ok())
    .unwrap_or(0)
}
