//! The machine a count, a sweep or a rating ran on, and the build: recorded
//! with every result.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// The machine, the build and the date of a measurement.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Machine {
    pub host: String,
    pub cpu_model: String,
    pub physical_cores: usize,
    pub logical_cores: usize,
    /// The memory it has in all, when the OS says.
    #[serde(default)]
    pub memory_bytes: Option<u64>,
    pub os: String,
    pub git_revision: String,
    pub rustc: String,
    pub build_profile: String,
    /// The paths the engines count on here by default (`--simd auto`),
    /// e.g. `join avx512, backtracking avx512`.
    pub simd_auto: String,
    /// UTC, `YYYY-MM-DD`.
    pub date: String,
    /// UTC, `HHMMSS`: with the date, names a sweep's default folder.
    pub time: String,
}

impl Machine {
    pub fn detect() -> Machine {
        Machine {
            host: nqueens::system::hostname(),
            cpu_model: nqueens::system::cpu_model(),
            physical_cores: num_cpus::get_physical(),
            logical_cores: num_cpus::get(),
            memory_bytes: nqueens::system::total_memory(),
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
            git_revision: env!("NQUEENS_GIT_REVISION").to_string(),
            rustc: env!("NQUEENS_RUSTC_VERSION").to_string(),
            build_profile: build_profile(),
            simd_auto: format!(
                "join {}, backtracking {}",
                nqueens::Join::fastest(),
                nqueens::engine::backtrack::Backtrack::fastest()
            ),
            date: utc_date(SystemTime::now()),
            time: utc_time(SystemTime::now()),
        }
    }

    /// A short description for plot titles.
    pub fn title(&self) -> String {
        format!(
            "{} ({} cores / {} threads), {}",
            self.cpu_model, self.physical_cores, self.logical_cores, self.host
        )
    }

    /// A Markdown table of every field.
    pub fn markdown(&self) -> String {
        let rows = [
            ("host", self.host.as_str()),
            ("CPU", self.cpu_model.as_str()),
            ("physical cores", &self.physical_cores.to_string()),
            ("logical cores", &self.logical_cores.to_string()),
            (
                "memory",
                &self
                    .memory_bytes
                    .map_or("unknown".to_string(), nqueens::bytes),
            ),
            ("OS", self.os.as_str()),
            ("git revision", self.git_revision.as_str()),
            ("rustc", self.rustc.as_str()),
            ("build profile", self.build_profile.as_str()),
            ("SIMD (auto)", self.simd_auto.as_str()),
            ("date (UTC)", self.date.as_str()),
        ];
        let mut out = String::from("| | |\n|---|---|\n");
        for (key, value) in rows {
            out.push_str(&format!("| {key} | {value} |\n"));
        }
        out
    }
}

fn build_profile() -> String {
    let profile = env!("NQUEENS_BUILD_PROFILE");
    if profile == "release" {
        "release (lto = fat, codegen-units = 1, panic = abort)".to_string()
    } else {
        format!("{profile} (not optimized for timing)")
    }
}

/// The UTC calendar date of a time, `YYYY-MM-DD`.
pub fn utc_date(time: SystemTime) -> String {
    let days = time
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The UTC time of day, `HHMMSS`.
pub fn utc_time(time: SystemTime) -> String {
    let seconds = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) % 86_400;
    format!(
        "{:02}{:02}{:02}",
        seconds / 3600,
        seconds % 3600 / 60,
        seconds % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian (year, month, day)
/// (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_are_utc_calendar_days() {
        assert_eq!(utc_date(UNIX_EPOCH), "1970-01-01");
        let leap_day = UNIX_EPOCH + Duration::from_secs(951_782_400); // 2000-02-29
        assert_eq!(utc_date(leap_day), "2000-02-29");
        let day = UNIX_EPOCH + Duration::from_secs(1_795_996_800 + 3600); // 2026-11-30 01:00
        assert_eq!(utc_date(day), "2026-11-30");
    }
}
