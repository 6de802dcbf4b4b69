//! The GPU pair counter on wgpu: the adapter opened once, the shader
//! compiled once, and each pair job (both sides in the sieve's buckets)
//! its buffers, its tasks in dispatches (`plan.rs`), and the workgroups'
//! sums read back.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Condvar, Mutex};
use std::time::{Duration, Instant};

use wgpu::util::DeviceExt;

use super::super::sieve::Buckets;
use super::super::CHUNK;
use super::plan::{self, Dispatch, MOST_RANGES, STRETCH, TILE};
use super::{Adapter, GpuError, GpuReport, GPU_SIDE_MOST};
use super::{GPU_MEMORY_DEFAULT, GPU_MEMORY_LEAST, GPU_MEMORY_SHARE};

// A pattern goes to the shader as its bytes: two u32 words, low first.
const _: () = assert!(cfg!(target_endian = "little"));

/// The words a buffer is made of, sent as their bytes.
///
/// # Safety
/// No padding, and every byte pattern a value.
unsafe trait Word: Copy {}
// SAFETY: plain integers.
unsafe impl Word for u32 {}
// SAFETY: plain integers.
unsafe impl Word for u64 {}

/// Chunks of a 64-bit pattern, the most a table holds (`MOST_CHUNKS` in
/// `pairs.wgsl`).
const MOST_CHUNKS: usize = 13;

/// The most weight bits a job may have: a workgroup's u32 sum counts at
/// most TILE × STRETCH = 2^22 pairs, each weighing up to 2^9.
const MOST_WEIGHT_BITS: u32 = 9;

/// The most tasks a dispatch takes: 4 MiB of them, and 1 MiB of sums on
/// the GPU and as much read back.
const MOST_TASKS: usize = 1 << 18;

/// Workgroups in a row of a dispatch's grid (each dimension's limit is
/// 65,535): 8 rows at most.
const GRID_ROW: usize = 1 << 15;

/// From this many pairs a job goes to the GPU, unless NQUEENS_GPU_ALL=1
/// sends every one: shorter jobs cost less on the CPU than their
/// transfers and a submission (tens of microseconds).
const GPU_FROM_PAIRS: u64 = 1 << 26;

/// A GPU the join counts pairs on.
pub struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
    adapter: String,
    backend: String,
    /// Every job to the GPU, whatever its length (NQUEENS_GPU_ALL=1).
    all: bool,
    pairs: AtomicU64,
    /// The jobs on it: their bytes within `--gpu-memory`, and how long it
    /// was busy.
    flight: Flight,
}

/// The jobs on the GPU: the bytes they hold, kept within a bound (a job
/// waits for room before it makes its buffers), and how long at least one
/// was there (since when, and before).
struct Flight {
    bound: u64,
    now: Mutex<InFlight>,
    freed: Condvar,
}

#[derive(Default)]
struct InFlight {
    bytes: u64,
    since: Option<Instant>,
    busy: Duration,
}

impl Flight {
    fn new(bound: u64) -> Flight {
        Flight {
            bound,
            now: Mutex::new(InFlight::default()),
            freed: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, InFlight> {
        self.now.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until a job of `bytes` fits (or nothing else is on the GPU:
    /// a job larger than the bound runs alone), then lets it on.
    fn enter(&self, bytes: u64) {
        let mut now = self.lock();
        while now.bytes > 0 && now.bytes + bytes > self.bound {
            now = self.freed.wait(now).unwrap_or_else(|e| e.into_inner());
        }
        if now.bytes == 0 {
            now.since = Some(Instant::now());
        }
        now.bytes += bytes;
    }

    /// A job of `bytes` done.
    fn leave(&self, bytes: u64) {
        let mut now = self.lock();
        now.bytes -= bytes;
        if now.bytes == 0 {
            if let Some(since) = now.since.take() {
                now.busy += since.elapsed();
            }
        }
        self.freed.notify_all();
    }

    /// Seconds at least one job was on the GPU, so far.
    fn busy_s(&self) -> f64 {
        let now = self.lock();
        let running = now.since.map_or(Duration::ZERO, |since| since.elapsed());
        (now.busy + running).as_secs_f64()
    }
}

/// The GPU bytes a job of `sliced` × `stream` patterns in `buckets`
/// buckets a side holds at most: both sides, and its largest dispatch's
/// tasks, ranges and sums (twice: on the GPU and read back) and words. A
/// tile of a bucket meets at most two runs of stream ranges for every
/// STRETCH patterns of the stream, and one more; a bucket's ranges are at
/// most one per stream bucket and one per stretch.
fn job_bytes(sliced: usize, stream: usize, buckets: usize) -> u64 {
    let stretches = stream.div_ceil(STRETCH);
    let tiles = sliced.div_ceil(TILE).saturating_add(buckets);
    let tasks = MOST_TASKS.min(tiles.saturating_mul(2 * stretches + 1));
    let ranges = MOST_RANGES.min(buckets.saturating_mul(buckets + stretches));
    let patterns = 8 * (sliced.min(GPU_SIDE_MOST) + stream.min(GPU_SIDE_MOST));
    (patterns + 16 * tasks + 8 * ranges + 2 * 4 * tasks + 24) as u64
}

/// The default bound of the jobs in flight on `adapter`: a
/// [`GPU_MEMORY_SHARE`] of its largest device-local heap where its
/// driver is Vulkan's (at least [`GPU_MEMORY_LEAST`]), else
/// [`GPU_MEMORY_DEFAULT`].
fn default_memory(adapter: &wgpu::Adapter) -> u64 {
    device_local_bytes(adapter).map_or(GPU_MEMORY_DEFAULT, |heap| {
        (heap / GPU_MEMORY_SHARE).max(GPU_MEMORY_LEAST)
    })
}

/// The largest device-local memory heap of a Vulkan adapter, as its
/// driver reports it; `None` on other backends or none reported.
fn device_local_bytes(adapter: &wgpu::Adapter) -> Option<u64> {
    // SAFETY: the adapter is only read (one property query), nothing made
    // from it or destroyed, and the guard is dropped before it is used
    // again.
    let hal = unsafe { adapter.as_hal::<wgpu::hal::api::Vulkan>() }?;
    let instance = hal.shared_instance().raw_instance();
    // SAFETY: the physical device is the instance's own, alive while the
    // adapter is.
    let properties =
        unsafe { instance.get_physical_device_memory_properties(hal.raw_physical_device()) };
    // VK_MEMORY_HEAP_DEVICE_LOCAL_BIT
    const DEVICE_LOCAL: u32 = 0x1;
    properties
        .memory_heaps_as_slice()
        .iter()
        .filter(|heap| heap.flags.as_raw() & DEVICE_LOCAL != 0)
        .map(|heap| heap.size)
        .max()
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gpu")
            .field("adapter", &self.adapter)
            .field("backend", &self.backend)
            .finish_non_exhaustive()
    }
}

impl Gpu {
    /// The adapter `adapter` says, with the counter's shader compiled on
    /// it, its jobs in flight holding at most `memory` bytes on it
    /// (`None`: [`default_memory`]).
    pub fn open(adapter: Adapter, memory: Option<u64>) -> Result<Gpu, GpuError> {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let every = || pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
        let adapter = match adapter {
            Adapter::Preferred => {
                pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
                    power_preference: wgpu::PowerPreference::HighPerformance,
                    ..Default::default()
                }))
                .map_err(|_| GpuError::NoAdapter)?
            }
            Adapter::Index(asked) => {
                let mut adapters = every();
                let found = adapters.len();
                if found == 0 {
                    return Err(GpuError::NoAdapter);
                }
                if asked >= found {
                    return Err(GpuError::NoSuchDevice { asked, found });
                }
                adapters.swap_remove(asked)
            }
            Adapter::Rank(rank) => {
                let mut adapters = every();
                let hardware: Vec<bool> = adapters
                    .iter()
                    .map(|a| a.get_info().device_type != wgpu::DeviceType::Cpu)
                    .collect();
                let taken = super::for_rank(rank, &hardware).ok_or(GpuError::NoAdapter)?;
                adapters.swap_remove(taken)
            }
        };
        let info = adapter.get_info();
        let memory = memory.unwrap_or_else(|| default_memory(&adapter));
        // One line, whatever the driver wrote.
        let failed = |why: String| GpuError::Failed {
            adapter: info.name.clone(),
            why: why.split_whitespace().collect::<Vec<_>>().join(" "),
        };
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("nqueens pairs"),
            required_limits: wgpu::Limits::downlevel_defaults(),
            ..Default::default()
        }))
        .map_err(|e| failed(e.to_string()))?;
        // A shader or pipeline the adapter refuses is an error of the
        // open, said once, not a panic of wgpu's default handler.
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::include_wgsl!("pairs.wgsl"));
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("pairs"),
            layout: None,
            module: &module,
            entry_point: Some("count"),
            compilation_options: Default::default(),
            cache: None,
        });
        if let Some(error) = pollster::block_on(scope.pop()) {
            return Err(failed(error.to_string()));
        }
        Ok(Gpu {
            device,
            queue,
            pipeline,
            adapter: info.name.clone(),
            backend: info.backend.to_string(),
            all: std::env::var_os("NQUEENS_GPU_ALL").is_some_and(|v| v == "1"),
            pairs: AtomicU64::new(0),
            flight: Flight::new(memory),
        })
    }

    /// The most bytes its jobs in flight hold.
    pub fn memory_bound(&self) -> u64 {
        self.flight.bound
    }

    /// Whether a job of `sliced` × `streamed` pairs weighted by the bits
    /// of `weights` goes to the GPU.
    pub(in crate::engine::join::count::pairs) fn takes(
        &self,
        sliced: usize,
        streamed: usize,
        weights: u64,
    ) -> bool {
        let long = (sliced as u64).saturating_mul(streamed as u64) >= GPU_FROM_PAIRS;
        (self.all || long) && weights.count_ones() <= MOST_WEIGHT_BITS
    }

    /// The pairs of `sliced` and `stream` (the sieve's buckets of
    /// patterns of `bits` bits, at most [`GPU_SIDE_MOST`] a side) with no
    /// common bit, each counted 2^k times for the k bits of `weights` its
    /// `stream` pattern has (at most [`MOST_WEIGHT_BITS`]: see
    /// [`Gpu::takes`]).
    ///
    /// # Panics
    /// If the GPU fails mid-count (lost, out of memory): a count cannot
    /// go on without the pairs it was given.
    pub(in crate::engine::join::count::pairs) fn count(
        &self,
        sliced: Buckets,
        stream: Buckets,
        bits: usize,
        weights: u64,
    ) -> u64 {
        self.count_in((sliced, stream), (bits, weights), MOST_TASKS)
    }

    /// [`Gpu::count`] in dispatches of at most `most_tasks` tasks.
    fn count_in(
        &self,
        (sliced, stream): (Buckets, Buckets),
        (bits, weights): (usize, u64),
        most_tasks: usize,
    ) -> u64 {
        assert!(
            weights.count_ones() <= MOST_WEIGHT_BITS,
            "weights {weights:#x}"
        );
        let lens = (sliced.patterns.len(), stream.patterns.len());
        assert!(
            lens.0.max(lens.1) <= GPU_SIDE_MOST,
            "a side of {lens:?} patterns"
        );
        if lens.0 == 0 || lens.1 == 0 {
            return 0;
        }
        let bytes = job_bytes(lens.0, lens.1, sliced.len());
        self.flight.enter(bytes);
        let chunks = bits.div_ceil(CHUNK).clamp(1, MOST_CHUNKS) as u32;
        let sides = (
            self.patterns(sliced.patterns),
            self.patterns(stream.patterns),
        );
        let mut total = 0;
        plan::plan(sliced, stream, most_tasks, |dispatch| {
            total += self.dispatch((&sides.0, &sides.1), dispatch, (chunks, weights));
        });
        drop(sides);
        self.flight.leave(bytes);
        self.pairs.fetch_add(
            (lens.0 as u64).saturating_mul(lens.1 as u64),
            Ordering::Relaxed,
        );
        total
    }

    /// A buffer holding `words`.
    fn buffer<T: Word>(&self, label: &str, words: &[T], usage: wgpu::BufferUsages) -> wgpu::Buffer {
        // SAFETY: a Word has no padding, and every byte pattern is a u8.
        let bytes = unsafe {
            std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), std::mem::size_of_val(words))
        };
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytes,
                usage,
            })
    }

    /// A storage buffer holding `patterns`.
    fn patterns(&self, patterns: &[u64]) -> wgpu::Buffer {
        self.buffer("patterns", patterns, wgpu::BufferUsages::STORAGE)
    }

    /// One dispatch: its tasks on the sides `a` (sliced) and `b`.
    fn dispatch(
        &self,
        (a, b): (&wgpu::Buffer, &wgpu::Buffer),
        dispatch: &Dispatch,
        (chunks, weights): (u32, u64),
    ) -> u64 {
        let tasks = dispatch.tasks.len();
        let groups = (tasks.min(GRID_ROW), tasks.div_ceil(GRID_ROW));
        // The tasks as pairs of words (tile; ranges), then the ranges.
        let plan: Vec<u32> = dispatch
            .tasks
            .iter()
            .flatten()
            .chain(dispatch.ranges.iter().flatten())
            .copied()
            .collect();
        let job: [u32; 6] = [
            tasks as u32,
            chunks,
            weights as u32,
            (weights >> 32) as u32,
            2 * tasks as u32,
            0,
        ];
        let job = self.buffer("job", &job, wgpu::BufferUsages::UNIFORM);
        let plan = self.buffer("plan", &plan, wgpu::BufferUsages::STORAGE);
        let sums_size = (tasks * 4) as u64;
        let sums = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("sums"),
            size: sums_size,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let read = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("sums read back"),
            size: sums_size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("pairs"),
            layout: &self.pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: job.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: a.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: b.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: plan.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: sums.as_entire_binding(),
                },
            ],
        });
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &bind, &[]);
            pass.dispatch_workgroups(groups.0 as u32, groups.1 as u32, 1);
        }
        encoder.copy_buffer_to_buffer(&sums, 0, &read, 0, sums_size);
        let submitted = self.queue.submit([encoder.finish()]);
        let (sender, mapped) = mpsc::channel();
        read.slice(..)
            .map_async(wgpu::MapMode::Read, move |result| {
                // The receiver waits below; it is there.
                let _ = sender.send(result);
            });
        let waited = self.device.poll(wgpu::PollType::Wait {
            submission_index: Some(submitted),
            timeout: None,
        });
        let result = mapped
            .recv()
            .map_err(|e| e.to_string())
            .and_then(|r| r.map_err(|e| e.to_string()));
        if let Err(why) = waited.map_err(|e| e.to_string()).and(result) {
            panic!("the GPU {} failed counting pairs: {why}", self.adapter);
        }
        let view = match read.slice(..).get_mapped_range() {
            Ok(view) => view,
            Err(why) => panic!("the GPU {} failed counting pairs: {why}", self.adapter),
        };
        let total = view
            .chunks_exact(4)
            .map(|w| u64::from(u32::from_le_bytes([w[0], w[1], w[2], w[3]])))
            .sum();
        drop(view);
        read.unmap();
        total
    }

    /// What it did so far.
    pub fn report(&self) -> GpuReport {
        GpuReport {
            adapter: self.adapter.clone(),
            backend: self.backend.clone(),
            pairs: self.pairs.load(Ordering::Relaxed),
            busy_s: self.flight.busy_s(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::join::count::pairs::count_naive_weighted;
    use crate::engine::join::count::pairs::sieve::{self, MOST_KEY_BITS};
    use std::sync::OnceLock;

    /// The GPU the tests count on, taking every job: none is a skip,
    /// said once, unless NQUEENS_REQUIRE_GPU=1 (CI on lavapipe), where it
    /// fails.
    pub(crate) fn gpu() -> Option<&'static Gpu> {
        static GPU: OnceLock<Option<Gpu>> = OnceLock::new();
        GPU.get_or_init(|| match Gpu::open(Adapter::Preferred, None) {
            Ok(gpu) => Some(Gpu { all: true, ..gpu }),
            Err(why) if std::env::var_os("NQUEENS_REQUIRE_GPU").is_some_and(|v| v == "1") => {
                panic!("NQUEENS_REQUIRE_GPU=1 and no GPU: {why}")
            }
            Err(why) => {
                eprintln!("skipped: the GPU tests have no GPU here ({why})");
                None
            }
        })
        .as_ref()
    }

    /// Patterns of `bits` bits, about a third of them set (SplitMix64).
    fn patterns(len: usize, bits: usize, seed: u64) -> Vec<u64> {
        let mut state = seed;
        let mut next = || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mask = u64::MAX >> (64 - bits);
        (0..len).map(|_| next() & next() & mask).collect()
    }

    /// Whole sides, a bucket each.
    fn count_whole(
        gpu: &Gpu,
        (a, b): (&[u64], &[u64]),
        bits: usize,
        weights: u64,
        most: usize,
    ) -> u64 {
        sieve::whole((a, b), |a, b| gpu.count_in((a, b), (bits, weights), most))
    }

    #[test]
    fn jobs_wait_for_room_within_the_gpu_memory_bound() {
        use std::sync::Arc;
        // The largest job fits the least bound the count accepts.
        let largest = job_bytes(GPU_SIDE_MOST, GPU_SIDE_MOST, 1 << MOST_KEY_BITS);
        assert!(largest <= super::super::GPU_MEMORY_LEAST, "{largest}");
        assert_eq!(
            job_bytes(usize::MAX / 16, usize::MAX / 16, usize::MAX / 16),
            largest
        );
        let flight = Arc::new(Flight::new(100));
        flight.enter(60);
        let waiting = {
            let flight = Arc::clone(&flight);
            std::thread::spawn(move || {
                flight.enter(60);
                flight.lock().bytes
            })
        };
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(
            !waiting.is_finished(),
            "60 + 60 bytes held under a bound of 100"
        );
        flight.leave(60);
        assert_eq!(waiting.join().unwrap(), 60);
        // Alone, a job larger than the bound runs.
        flight.leave(60);
        flight.enter(500);
        flight.leave(500);
        assert!(flight.busy_s() > 0.0);
    }

    #[test]
    fn a_workgroups_sum_never_passes_u32() {
        assert!(((TILE * STRETCH) as u64) << MOST_WEIGHT_BITS < 1 << 32);
        assert!(((TILE * STRETCH) as u64) << (MOST_WEIGHT_BITS + 1) >= 1 << 32);
    }

    #[test]
    fn the_gpu_counts_what_the_double_loop_counts() {
        let Some(gpu) = gpu() else { return };
        let lens = [1, 7, 255, 256, 257, 1000, 2049];
        for (i, &a_len) in lens.iter().enumerate() {
            for (j, &b_len) in lens.iter().enumerate() {
                // Both u32 words of a pattern: 40 and 60 bits.
                let bits = if (i + j) % 2 == 0 { 40 } else { 60 };
                let a = patterns(a_len, bits, 2 * (i * 7 + j) as u64);
                let mut b = patterns(b_len, bits, 2 * (i * 7 + j) as u64 + 1);
                // An empty pattern meets every lane: the blocks' lanes past the end
                // must not count.
                b[0] = 0;
                for weights in [0, 1 << 3 | 1 << 38, 1 << 33 | 1 << 50 | 1 << 59] {
                    let expected = count_naive_weighted(&a, &b, weights);
                    assert_eq!(
                        count_whole(gpu, (&a, &b), bits, weights, MOST_TASKS),
                        expected,
                        "{a_len} x {b_len}, {bits} bits, weights {weights:#x}"
                    );
                }
            }
        }
        let report = gpu.report();
        assert!(report.pairs > 0 && report.busy_s > 0.0, "{report:?}");
    }

    #[test]
    fn jobs_cut_in_many_dispatches_count_the_same() {
        let Some(gpu) = gpu() else { return };
        // Streams past a workgroup's stretch (16,384), too.
        let (a, b) = (patterns(1000, 50, 11), patterns(40_000, 50, 12));
        for weights in [0, 1 << 7 | 1 << 44] {
            let expected = count_naive_weighted(&a, &b, weights);
            for most in [1, 2, 5, 11] {
                let counted = count_whole(gpu, (&a, &b), 50, weights, most);
                assert_eq!(counted, expected, "{most}");
            }
        }
    }

    #[test]
    fn sieved_jobs_on_the_gpu_count_what_the_double_loop_counts() {
        use crate::engine::cpu::Simd;
        use crate::engine::join::count::pairs::{count_by_weight, count_on, sieve, Counter};
        let Some(gpu) = gpu() else { return };
        let counter = Counter {
            simd: Simd::None,
            gpu: Some(gpu),
        };
        // Patterns holding each of bits 0..8 about half the time, so that the
        // sieve keys on them, and few others, so that many pairs are
        // disjoint.
        let thin = |len, seed| -> Vec<u64> {
            let (x, y) = (patterns(len, 44, seed), patterns(len, 44, seed + 100));
            let dense = patterns(len, 64, seed + 200);
            (0..len)
                .map(|i| x[i] & y[i] | (dense[i] | dense[i] >> 8) & 0xff)
                .collect()
        };
        for (i, &(a_len, b_len)) in [(20_000, 12_000), (9_000, 30_000)].iter().enumerate() {
            let (a, mut b) = (thin(a_len, 2 * i as u64), thin(b_len, 2 * i as u64 + 1));
            let key = sieve::Key::choose(&a, &b, (44, 0), false);
            assert!(key.len() > 0, "no key for {a_len} x {b_len}");
            assert_eq!(
                count_on(counter, &a, &b, 44),
                count_naive_weighted(&a, &b, 0)
            );
            let weights = 1 << 3 | 1 << 40;
            let expected = count_naive_weighted(&a, &b, weights);
            assert_eq!(count_by_weight(counter, &a, &mut b, 44, weights), expected);
        }
    }

    #[test]
    fn a_vulkan_gpus_default_memory_bound_is_a_share_of_its_heap() {
        let Some(gpu) = gpu() else { return };
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let preferred = wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        };
        let adapter = pollster::block_on(instance.request_adapter(&preferred))
            .expect("the adapter the GPU tests opened");
        let heap = device_local_bytes(&adapter);
        if adapter.get_info().backend == wgpu::Backend::Vulkan {
            let heap = heap.expect("a Vulkan driver reports its heaps");
            assert!(heap > 0);
            let bound = (heap / GPU_MEMORY_SHARE).max(GPU_MEMORY_LEAST);
            assert_eq!(default_memory(&adapter), bound);
            assert_eq!(
                gpu.memory_bound(),
                bound,
                "the tests' GPU, opened without a bound"
            );
        } else {
            assert_eq!(heap, None);
            assert_eq!(gpu.memory_bound(), GPU_MEMORY_DEFAULT);
        }
    }

    #[test]
    fn an_adapter_past_the_last_is_refused_naming_the_flag() {
        let err = Gpu::open(Adapter::Index(1 << 20), None).unwrap_err();
        match &err {
            GpuError::NoSuchDevice { asked, .. } => assert_eq!(*asked, 1 << 20),
            GpuError::NoAdapter => {}
            other => panic!("{other:?}"),
        }
        assert!(err.to_string().contains("adapter"), "{err}");
    }
}
