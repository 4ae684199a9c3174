//! What a run records about itself: the machine, the build, the source
//! and the load, next to its rows.

use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::Row;

/// One run of the report binary, as written to `<mode>.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Run {
    /// `portable` or `native` (`-C target-cpu=native`).
    pub mode: String,
    /// CPU model name.
    pub cpu: String,
    /// Logical cores available to the process.
    pub cores: usize,
    /// The SIMD kernel ito chose (`ito::Kernel::best()`).
    pub kernel: String,
    /// `rustc --version`.
    pub rustc: String,
    /// UTC date and time the run started, `YYYY-MM-DD HH:MM`.
    pub date: String,
    /// `git rev-parse --short HEAD`, `-dirty` when tracked files differ.
    pub commit: String,
    /// 1-minute load average at the start and at the end.
    pub load: (f64, f64),
    /// Whether this was a `--quick` run (figures not meant to be read).
    pub quick: bool,
    /// Wall time of the run, seconds.
    pub seconds: f64,
    /// The measured rows.
    pub rows: Vec<Row>,
    /// The output of `bench/python/bench.py`, or why it was skipped.
    pub python: String,
}

/// The build mode this binary was compiled in: `native` when the build
/// guarantees more than the target's baseline SIMD (as
/// `-C target-cpu=native` does on any x86-64 with AVX2), else `portable`.
pub fn build_mode() -> &'static str {
    if cfg!(any(target_feature = "avx2", target_feature = "sve")) {
        "native"
    } else {
        "portable"
    }
}

/// CPU model name (`/proc/cpuinfo`).
pub fn cpu() -> String {
    crate::cpu_name()
}

/// Logical cores available.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The 1-minute load average (0 where `/proc/loadavg` is missing).
pub fn load() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0)
}

fn output(cmd: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(cmd).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The checked-out commit, with `-dirty` when tracked files differ.
pub fn commit() -> String {
    let Some(head) = output("git", &["rev-parse", "--short=10", "HEAD"]) else {
        return "unknown".into();
    };
    let dirty = output("git", &["status", "--porcelain", "--untracked-files=no"])
        .is_some_and(|s| !s.is_empty());
    if dirty {
        format!("{head}-dirty")
    } else {
        head
    }
}

/// `rustc --version`.
pub fn rustc() -> String {
    output("rustc", &["--version"]).unwrap_or_else(|| "rustc (unknown)".into())
}

/// The current UTC time as `YYYY-MM-DD HH:MM`.
pub fn now_utc() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn date_has_the_civil_shape() {
        let d = super::now_utc();
        assert_eq!(d.len(), 16, "{d}");
        assert!(d.starts_with("20"), "{d}");
        assert_eq!(&d[4..5], "-");
    }
}
