// Disjoint pairs of two pattern lists, weighted, on bit-sliced blocks as
// the CPU paths count them (pairs/blocks.rs). The host sorts both lists
// into the sieve's buckets (pairs/sieve.rs) and cuts the work into tasks
// (gpu/plan.rs): a tile of at most 256 patterns of one bucket of the
// sliced side, against a run of stream ranges (the buckets it may pair
// with) of at most STRETCH = 16,384 patterns in all. A workgroup takes a
// task. It builds in shared memory, for every block of 32 patterns of
// the tile and every chunk of 5 bits, the 32 ANDs of "the block's
// patterns that lack these bits" (a u32 a block, bit i its pattern i).
// Each invocation then takes patterns `s` of the ranges, read as one
// list: per block, one table entry per chunk ANDed and a popcount count
// the 32 pairs, about 3 operations a chunk for 32 pairs, where testing
// each pair takes 5 or 6. A count is weighed by 2^k, k the bits of
// `weights` that `s` holds. A pattern is a u64 as two u32 words (low,
// high).
//
// No u64 atomics in WGSL: a workgroup's u32 sum counts at most
// TILE * STRETCH = 2^22 pairs, each weighing at most 2^popcount(weights):
// the host sends no job with more than MOST_WEIGHT_BITS (9) weight bits,
// so every sum stays below 2^32, and adds the workgroups' sums in u64
// (gpu/device.rs).

const LANES: u32 = 32u;
const BLOCKS: u32 = 8u;
const TILE: u32 = 256u; // LANES * BLOCKS: one pattern an invocation
const CHUNK: u32 = 5u;
const VALUES: u32 = 32u; // 1 << CHUNK
const MOST_CHUNKS: u32 = 13u; // 64 bits

struct Job {
    tasks: u32,
    chunks: u32,
    weights: vec2<u32>,
    // Where the ranges start in `plan`.
    ranges_at: u32,
}

@group(0) @binding(0) var<uniform> job: Job;
@group(0) @binding(1) var<storage, read> sliced: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read> stream: array<vec2<u32>>;
// The tasks, then the ranges, in one buffer (every adapter binds four
// storage buffers, not always more). Task k: plan[2k] its tile's first
// pattern and length, plan[2k + 1] its ranges `first..end`. Range r:
// plan[ranges_at + r], the stream's first pattern of it and the one past
// its last.
@group(0) @binding(3) var<storage, read> plan: array<vec2<u32>>;
@group(0) @binding(4) var<storage, read_write> sums: array<u32>;

// lacking[block * 64 + bit]: the block's patterns without `bit`.
var<workgroup> lacking: array<atomic<u32>, 512>;
// table[(block * MOST_CHUNKS + chunk) * VALUES + value]
var<workgroup> table: array<u32, 3328>;
var<workgroup> total: atomic<u32>;

// Bits 5c..5c+4 of the pattern `s`.
fn chunk_of(s: vec2<u32>, c: u32) -> u32 {
    let shift = c * CHUNK;
    var v = 0u;
    if shift < 32u {
        v = s.x >> shift;
        if shift > 27u {
            v |= s.y << (32u - shift);
        }
    } else {
        v = s.y >> (shift - 32u);
    }
    return v & (VALUES - 1u);
}

@compute @workgroup_size(256)
fn count(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    // The dispatch is a grid at least as large as the task list: the
    // workgroups past its end have nothing to do (the same for all of a
    // workgroup's invocations, so the barriers below stay uniform).
    let index = group.y * groups.x + group.x;
    if index >= job.tasks {
        return;
    }
    let tile = plan[2u * index];
    let start = tile.x;
    let tile_len = tile.y;
    atomicStore(&lacking[lane], 0u);
    atomicStore(&lacking[lane + TILE], 0u);
    if lane == 0u {
        atomicStore(&total, 0u);
    }
    workgroupBarrier();

    // Each invocation's pattern of the tile sets its bit in the words of
    // the bits it lacks (a pattern past the end lacks none: the valid
    // lanes below leave it out).
    let block = lane / LANES;
    let bit_of_lane = 1u << (lane % LANES);
    if lane < tile_len {
        let a = sliced[start + lane];
        var lacks = ~a.x;
        while lacks != 0u {
            let b = firstTrailingBit(lacks);
            atomicOr(&lacking[block * 64u + b], bit_of_lane);
            lacks &= lacks - 1u;
        }
        lacks = ~a.y;
        while lacks != 0u {
            let b = firstTrailingBit(lacks);
            atomicOr(&lacking[block * 64u + 32u + b], bit_of_lane);
            lacks &= lacks - 1u;
        }
    }
    workgroupBarrier();

    // The tables: chunk 0 also keeps the block's valid lanes, so that
    // every pattern's count (each looks up chunk 0) leaves out the lanes
    // past the tile's end.
    let entries = BLOCKS * job.chunks * VALUES;
    for (var e = lane; e < entries; e += TILE) {
        let k = e / (job.chunks * VALUES);
        let c = (e / VALUES) % job.chunks;
        let v = e % VALUES;
        var word = 0xffffffffu;
        if c == 0u {
            let first = k * LANES;
            let valid = min(tile_len - min(first, tile_len), LANES);
            word = select((1u << valid) - 1u, 0xffffffffu, valid == LANES);
        }
        for (var j = 0u; j < CHUNK; j++) {
            let b = c * CHUNK + j;
            if (v >> j & 1u) == 1u && b < 64u {
                word &= atomicLoad(&lacking[k * 64u + b]);
            }
        }
        table[(k * MOST_CHUNKS + c) * VALUES + v] = word;
    }
    workgroupBarrier();

    // The task's ranges as one list: invocation `lane` takes its places
    // lane, lane + TILE, …, walking the ranges as it goes (`before`: the
    // places in the ranges before range `r`).
    let own = plan[2u * index + 1u];
    let end = job.ranges_at + own.y;
    var r = job.ranges_at + own.x;
    var range = plan[min(r, end - 1u)];
    var before = 0u;
    var place = lane;
    var pairs = 0u;
    var values: array<u32, 13>;
    loop {
        while r < end && place >= before + range.y - range.x {
            before += range.y - range.x;
            r++;
            range = plan[min(r, end - 1u)];
        }
        if r >= end {
            break;
        }
        let s = stream[range.x + place - before];
        for (var c = 0u; c < job.chunks; c++) {
            values[c] = chunk_of(s, c);
        }
        var found = 0u;
        for (var k = 0u; k < BLOCKS; k++) {
            var word = 0xffffffffu;
            for (var c = 0u; c < job.chunks; c++) {
                word &= table[(k * MOST_CHUNKS + c) * VALUES + values[c]];
            }
            found += countOneBits(word);
        }
        let held = countOneBits(s.x & job.weights.x) + countOneBits(s.y & job.weights.y);
        pairs += found << held;
        place += TILE;
    }
    atomicAdd(&total, pairs);
    workgroupBarrier();
    if lane == 0u {
        sums[index] = atomicLoad(&total);
    }
}
