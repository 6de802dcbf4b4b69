//! Pairs counted on a GPU (the cargo feature `gpu`): wgpu on whatever
//! Vulkan, Metal or DX12 driver the machine has, any vendor's GPU or a
//! software one (Mesa's lavapipe, which CI tests on). The CPU keeps
//! gluing halves; a pair job (two lists, `count_into` in `pairs/mod.rs`)
//! long enough to pay for its transfers goes to the GPU whole, shorter ones
//! to the CPU's path and its sieve. Every worker thread submits its own
//! jobs, so the GPU's queue holds as many as there are threads. The
//! shader counts on bit-sliced blocks as the CPU paths do (`pairs.wgsl`);
//! the sieve's buckets stay on the CPU side for now.
//!
//! Counts are exact: integers only, u32 sums per workgroup bounded by
//! how the host cuts the lists (`pairs.wgsl`), added on the host in u64.
//! Without the feature, [`Gpu`] has no value and [`Gpu::open`] says how
//! to build one.

#[cfg(feature = "gpu")]
mod device;

#[cfg(feature = "gpu")]
pub use device::Gpu;

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
    pub fn open(_device: Option<usize>) -> Result<Gpu, GpuError> {
        Err(GpuError::NotBuilt)
    }

    /// Whether a job of `sliced` × `streamed` pairs goes to the GPU.
    pub(super) fn takes(&self, _sliced: usize, _streamed: usize, _weights: u64) -> bool {
        match *self {}
    }

    /// The pairs of `sliced` and `stream` with no common bit, weighted.
    pub(super) fn count(
        &self,
        _sliced: &[u64],
        _stream: &[u64],
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
