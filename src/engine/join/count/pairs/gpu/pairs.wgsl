// Disjoint pairs of two pattern lists, weighted: one invocation takes one
// pattern `s` of the stream and counts the patterns `a` of the sliced side
// with a & s == 0, then weighs its count by 2^k, k the bits of `weights`
// that `s` holds. A pattern is a u64 as two u32 words (low, high). The
// workgroup loads the sliced side a tile at a time into shared memory,
// where all its invocations read it, and sums its counts into one u32.
//
// No u64 atomics in WGSL: the host bounds every sum instead. An
// invocation counts at most `sliced_len` pairs, weighed by at most
// 2^popcount(weights); a workgroup sums WORKGROUP of them. The host cuts
// the sliced side so that WORKGROUP * sliced_len * 2^popcount(weights) < 2^32
// (gpu/mod.rs, `most_sliced`), and adds the workgroups' sums in u64.

const WORKGROUP: u32 = 256u;

struct Job {
    sliced_len: u32,
    stream_len: u32,
    weights: vec2<u32>,
}

@group(0) @binding(0) var<uniform> job: Job;
@group(0) @binding(1) var<storage, read> sliced: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read> stream: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read_write> sums: array<u32>;

var<workgroup> tile: array<vec2<u32>, WORKGROUP>;
var<workgroup> total: atomic<u32>;

@compute @workgroup_size(WORKGROUP)
fn count(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    let i = group.x * WORKGROUP + lane;
    let live = i < job.stream_len;
    var s = vec2<u32>(0u, 0u);
    if live {
        s = stream[i];
    }
    if lane == 0u {
        atomicStore(&total, 0u);
    }
    workgroupBarrier();
    var pairs = 0u;
    for (var base = 0u; base < job.sliced_len; base += WORKGROUP) {
        workgroupBarrier();
        if base + lane < job.sliced_len {
            tile[lane] = sliced[base + lane];
        }
        workgroupBarrier();
        // The same bound for every invocation: the loop stays uniform.
        let tiled = min(WORKGROUP, job.sliced_len - base);
        for (var k = 0u; k < tiled; k++) {
            let a = tile[k];
            pairs += select(0u, 1u, ((a.x & s.x) | (a.y & s.y)) == 0u);
        }
    }
    if !live {
        pairs = 0u;
    }
    let held = countOneBits(s.x & job.weights.x) + countOneBits(s.y & job.weights.y);
    atomicAdd(&total, pairs << held);
    workgroupBarrier();
    if lane == 0u {
        sums[group.x] = atomicLoad(&total);
    }
}
