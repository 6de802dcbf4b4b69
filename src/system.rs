//! What the operating system tells about this process and machine: the
//! process's peak memory (reported with every count), the memory
//! available now (the join's default memory limit) and in all (recorded
//! with a rating), the CPU time a process or thread has used (bench's
//! children, MPI's ranks). Linux only, but for the CPU times (any Unix);
//! `None` elsewhere.

/// The process's peak resident memory so far (Linux: `VmHWM`).
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The memory this machine has available now (Linux: `MemAvailable`).
pub fn available_memory() -> Option<u64> {
    meminfo("MemAvailable:")
}

/// The memory this machine has in all (Linux: `MemTotal`).
pub fn total_memory() -> Option<u64> {
    meminfo("MemTotal:")
}

/// A field of `/proc/meminfo`, in bytes.
fn meminfo(field: &str) -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with(field))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// CPU time of this process so far (user + system, all threads), in seconds.
pub fn process_cpu_s() -> Option<f64> {
    rusage_s(libc::RUSAGE_SELF)
}

/// CPU time of the calling thread so far (user + system), in seconds
/// (Linux: `RUSAGE_THREAD`; `None` elsewhere).
pub fn thread_cpu_s() -> Option<f64> {
    #[cfg(target_os = "linux")]
    return rusage_s(libc::RUSAGE_THREAD);
    #[cfg(not(target_os = "linux"))]
    return None;
}

fn rusage_s(who: libc::c_int) -> Option<f64> {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::uninit();
    // SAFETY: getrusage fills the struct it is given when it returns 0.
    let rc = unsafe { libc::getrusage(who, usage.as_mut_ptr()) };
    if rc != 0 {
        return None;
    }
    // SAFETY: rc == 0, so the struct was written.
    let usage = unsafe { usage.assume_init() };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    Some(seconds(usage.ru_utime) + seconds(usage.ru_stime))
}

/// This computer's host name (`unknown` where the OS does not say).
pub fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname writes at most
    // that many bytes.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return "unknown".to_string();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// The CPU's model name from /proc/cpuinfo (`unknown CPU` elsewhere).
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, model)| model.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string())
}
