//! Pairs counted on a GPU (the cargo feature `gpu`): wgpu on whatever
//! Vulkan, Metal or DX12 driver the machine has, any vendor's GPU or a
//! software one (Mesa's lavapipe, which CI tests on). The CPU keeps
//! gluing halves and sorts each pair job (two lists, `count_into` in
//! `pairs/mod.rs`) long enough to pay for its transfers into the sieve's
//! buckets, as for its own count; the GPU counts the buckets that may
//! pair, cut into tasks (`plan.rs`) on bit-sliced blocks as the CPU paths
//! count them (`pairs.wgsl`). Shorter jobs stay on the CPU. Every worker
//! thread submits its own jobs, so the GPU's queue holds as many as there
//! are threads.
//!
//! Counts are exact: integers only, u32 sums per workgroup bounded by
//! how the host cuts the lists (`pairs.wgsl`), added on the host in u64.
//! Without the feature, [`Gpu`] has no value and [`Gpu::open`] says how
//! to build one.

#[cfg(feature = "gpu")]
mod device;
#[cfg(feature = "gpu")]
mod plan;

#[cfg(feature = "gpu")]
pub use device::Gpu;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_on_a_node_take_its_gpus_in_turn_and_a_software_adapter_last() {
        // Two GPUs and lavapipe: the GPUs, in turn.
        let node = [true, false, true];
        let taken: Vec<_> = (0..5).map(|rank| for_rank(rank, &node)).collect();
        assert_eq!(taken, [Some(0), Some(2), Some(0), Some(2), Some(0)]);
        // Only software: it, shared.
        assert_eq!(for_rank(3, &[false]), Some(0));
        assert_eq!(for_rank(1, &[false, false]), Some(1));
        assert_eq!(for_rank(0, &[]), None);
    }
}

/// The GPU memory the pair jobs in flight hold at most where a count
/// names none (`--gpu-memory`) and the adapter reports none (wgpu does
/// not; Vulkan's heaps are asked, [`GPU_MEMORY_SHARE`]): 1 GiB, a sliver
/// of a data-centre GPU's, a share of a small one's; each thread holds
/// one job, 42 MiB at most.
pub const GPU_MEMORY_DEFAULT: u64 = 1 << 30;

/// Where the driver reports its largest device-local heap (Vulkan), the
/// default `--gpu-memory` is this share of it, at least
/// [`GPU_MEMORY_LEAST`]: a quarter, leaving the rest to whatever else
/// runs on the GPU (other ranks of an MPI run on the node, each with a
/// bound of its own).
pub const GPU_MEMORY_SHARE: u64 = 4;

/// The least `--gpu-memory`: one job at its largest (two sides of
/// [`GPU_SIDE_MOST`] patterns, 32 MiB, and a dispatch's 10 MiB of tasks,
/// ranges and sums) with room to spare.
pub const GPU_MEMORY_LEAST: u64 = 64 << 20;

/// The most patterns a side of a GPU job holds (16 MiB): longer sides
/// are cut, each piece a job. The join's longest lists hold about four
/// million.
pub const GPU_SIDE_MOST: usize = 1 << 21;

/// Why no GPU counts: each says how to get one (the job names the flag,
/// `--gpu` or `--gpu-device <K>`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GpuError {
    /// This build has no GPU counter.
    #[error(
        "this nqueens was built without the cargo feature `gpu`: build it with \
         `cargo build --release --features gpu`"
    )]
    NotBuilt,
    /// No driver offers an adapter.
    #[error(
        "no GPU adapter: no Vulkan, Metal or DX12 driver answered (install your GPU's \
         Vulkan driver; on Debian or Ubuntu, libvulkan1 is the loader and \
         mesa-vulkan-drivers a software adapter)"
    )]
    NoAdapter,
    /// The adapter asked for is not there.
    #[error("must be in 0..={last}: this machine has {found} GPU adapter(s)", last = found.saturating_sub(1))]
    NoSuchDevice {
        /// The index asked for.
        asked: usize,
        /// How many adapters there are.
        found: usize,
    },
    /// The adapter refused a device.
    #[error("the adapter {adapter} failed: {why}")]
    Failed {
        /// The adapter's name.
        adapter: String,
        /// What it said.
        why: String,
    },
}

/// Which adapter a count takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Adapter {
    /// The one the drivers prefer: a discrete GPU first (`--gpu`).
    #[default]
    Preferred,
    /// The K-th of those the drivers offer, from 0 (`--gpu-device K`).
    Index(usize),
    /// That of an MPI rank, the K-th on its node: the node's GPUs taken in
    /// turn ([`for_rank`]).
    Rank(usize),
}

/// The adapter the `rank`-th rank on a node takes among adapters of which
/// `hardware` says which are GPUs (not a driver running on the CPU, such
/// as lavapipe beside an NVIDIA GPU): the GPUs in turn, or every adapter
/// in turn where none is one; `None` where there is no adapter.
pub fn for_rank(rank: usize, hardware: &[bool]) -> Option<usize> {
    let gpus: Vec<usize> = (0..hardware.len()).filter(|&i| hardware[i]).collect();
    match gpus.len() {
        0 if hardware.is_empty() => None,
        0 => Some(rank % hardware.len()),
        found => Some(gpus[rank % found]),
    }
}

/// What a count on the GPU reports: the adapter, its backend, the pairs
/// it compared and the share of the time it was busy.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuReport {
    /// The adapter's name, as its driver gives it ("NVIDIA H200",
    /// "llvmpipe (LLVM 15.0.6, 256 bits)").
    pub adapter: String,
    /// Vulkan, Metal or DX12.
    pub backend: String,
    /// Pairs of halves compared on the GPU.
    pub pairs: u64,
    /// Seconds at least one job was on the GPU.
    pub busy_s: f64,
}

/// The GPU this build cannot have: no value of it exists.
#[cfg(not(feature = "gpu"))]
#[derive(Debug)]
pub enum Gpu {}

#[cfg(not(feature = "gpu"))]
impl Gpu {
    /// Never: this build has no GPU counter ([`GpuError::NotBuilt`]).
    pub fn open(_adapter: Adapter, _memory: Option<u64>) -> Result<Gpu, GpuError> {
        Err(GpuError::NotBuilt)
    }

    /// Whether a job of `sliced` × `streamed` pairs goes to the GPU.
    pub(super) fn takes(&self, _sliced: usize, _streamed: usize, _weights: u64) -> bool {
        match *self {}
    }

    /// The pairs of the buckets `sliced` and `stream` with no common
    /// bit, weighted.
    pub(super) fn count(
        &self,
        _sliced: super::sieve::Buckets,
        _stream: super::sieve::Buckets,
        _bits: usize,
        _weights: u64,
    ) -> u64 {
        match *self {}
    }

    /// What it did so far.
    pub fn report(&self) -> GpuReport {
        match *self {}
    }
}
