//! The folder a sweep writes into, and how its files reach the disk.
//!
//! After each point every file is written again. The ones that must agree
//! row for row ([`TOGETHER`]: the CSV, the JSON and the README that counts
//! their points) change together, by one rename: each generation is
//! written whole into `.sweep-data/gen-K/`, and the symbolic link
//! `.sweep-data/current` is renamed over to point at it; `sweep.csv`,
//! `sweep.json` and `README.md` in the folder are links through `current`.
//! Whenever a sweep stops, even by SIGKILL, the three are read from one
//! generation (200 kills, `scripts/bench-kill-loop.sh`). When the sweep
//! ends, or on Ctrl-C or SIGTERM, the last generation's files are moved
//! over the links (a kill in between leaves a file and links of that same
//! generation) and `.sweep-data` goes. The plots are written beside them
//! through a temporary and a rename each; the next sweep into the folder
//! removes what a SIGKILL left behind.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Context;

use super::super::machine::Machine;
use crate::cli::UsageError;

/// The files a sweep writes (plots only where the points make them).
pub const SWEEP_FILES: [&str; 6] = [
    "sweep.csv",
    "sweep.json",
    "README.md",
    "speedup.svg",
    "time_vs_n.svg",
    "efficiency_vs_depth.svg",
];

/// The files that change together, by one rename (see the module's text).
pub const TOGETHER: [&str; 3] = ["sweep.csv", "sweep.json", "README.md"];

/// The ending of the sweep's temporary files.
const TEMPORARY: &str = ".nqueens-tmp";

/// The hidden folder of the generations of [`TOGETHER`] files.
const DATA: &str = ".sweep-data";

/// A sweep's output folder.
pub struct Folder {
    path: PathBuf,
    /// Held while files are being written, so that an interrupt waits for
    /// a write to finish; counts the generations written.
    writing: Mutex<usize>,
}

impl Folder {
    /// The folder for a sweep: `out` if given (refused if it holds another
    /// sweep, unless `force`, which removes that sweep's files), else a new
    /// `results/<date>-<host>-<time>` folder. Created, checked writable and
    /// cleared of stale temporaries before anything runs.
    ///
    /// # Errors
    /// A [`UsageError`] naming `--out` if the folder holds another sweep or
    /// cannot be written.
    pub fn prepare(out: Option<PathBuf>, force: bool, machine: &Machine) -> anyhow::Result<Folder> {
        let path = match out {
            Some(path) => {
                let previous: Vec<&str> = SWEEP_FILES
                    .into_iter()
                    .filter(|f| path.join(f).symlink_metadata().is_ok())
                    .collect();
                if !previous.is_empty() && !force {
                    return Err(usage(
                        &path,
                        format!(
                            "holds another sweep ({}); choose another folder, or add --force to replace it",
                            previous.join(", ")
                        ),
                    ));
                }
                for file in previous {
                    std::fs::remove_file(path.join(file))
                        .with_context(|| format!("cannot remove {}", path.join(file).display()))?;
                }
                // A killed sweep's generations.
                let data = path.join(DATA);
                if data.exists() {
                    std::fs::remove_dir_all(&data)
                        .with_context(|| format!("cannot remove {}", data.display()))?;
                }
                path
            }
            None => fresh_default(machine),
        };
        std::fs::create_dir_all(&path)
            .map_err(|e| usage(&path, format!("cannot be created: {e}")))?;
        let probe = path.join(format!(".probe{TEMPORARY}"));
        std::fs::write(&probe, "")
            .and_then(|()| std::fs::remove_file(&probe))
            .map_err(|e| usage(&path, format!("cannot be written: {e}")))?;
        let folder = Folder {
            path,
            writing: Mutex::new(0),
        };
        folder.remove_temporaries();
        Ok(folder)
    }

    /// The folder's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes the files (name, text): the [`TOGETHER`] ones as one new
    /// generation, switched to by one rename; the others each through a
    /// temporary and a rename.
    pub fn write(&self, files: &[(&str, String)]) -> anyhow::Result<()> {
        let mut generation = self.writing.lock().unwrap_or_else(|e| e.into_inner());
        let cannot = |path: &Path| format!("cannot write {}", path.display());
        let data = self.path.join(DATA);
        let next = data.join(format!("gen-{}", *generation + 1));
        std::fs::create_dir_all(&next).with_context(|| cannot(&next))?;
        for (name, text) in files.iter().filter(|(n, _)| TOGETHER.contains(n)) {
            std::fs::write(next.join(name), text).with_context(|| cannot(&next.join(name)))?;
        }
        if *generation == 0 {
            // The links first, dangling until `current` exists: the three
            // appear together with it.
            for name in TOGETHER {
                let target = self.path.join(name);
                let through = Path::new(DATA).join("current").join(name);
                std::os::unix::fs::symlink(&through, &target).with_context(|| cannot(&target))?;
            }
        }
        // The switch: `current` names the new generation, in one rename.
        let current = data.join("current");
        let link = data.join(format!("current{TEMPORARY}"));
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(next.file_name().expect("gen-K"), &link)
            .with_context(|| cannot(&link))?;
        std::fs::rename(&link, &current).with_context(|| cannot(&current))?;
        if *generation > 0 {
            let _ = std::fs::remove_dir_all(data.join(format!("gen-{generation}")));
        }
        *generation += 1;
        for (name, text) in files.iter().filter(|(n, _)| !TOGETHER.contains(n)) {
            let target = self.path.join(name);
            let tmp = self
                .path
                .join(format!(".{name}.{}{TEMPORARY}", std::process::id()));
            std::fs::write(&tmp, text).with_context(|| cannot(&tmp))?;
            std::fs::rename(&tmp, &target).with_context(|| cannot(&target))?;
        }
        Ok(())
    }

    /// Moves the last generation's files over their links and removes the
    /// generations: the folder as a finished sweep leaves it.
    pub fn finish(&self) -> anyhow::Result<()> {
        let _writing = self.writing.lock().unwrap_or_else(|e| e.into_inner());
        self.settle()
    }

    fn settle(&self) -> anyhow::Result<()> {
        let data = self.path.join(DATA);
        let Ok(generation) = std::fs::read_link(data.join("current")) else {
            return Ok(());
        };
        for name in TOGETHER {
            let (from, to) = (data.join(&generation).join(name), self.path.join(name));
            std::fs::rename(&from, &to)
                .with_context(|| format!("cannot write {}", to.display()))?;
        }
        std::fs::remove_dir_all(&data).with_context(|| format!("cannot remove {}", data.display()))
    }

    /// Waits for a write in progress, settles the last generation and
    /// removes every temporary file of a sweep from the folder (this one's
    /// or a killed one's); the folder stays locked for writes until the
    /// process ends.
    pub fn interrupt(&self) {
        let writing = self.writing.lock().unwrap_or_else(|e| e.into_inner());
        let _ = self.settle();
        self.remove_temporaries();
        std::mem::forget(writing);
    }

    fn remove_temporaries(&self) {
        let Ok(entries) = std::fs::read_dir(&self.path) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            // Ours, and those of earlier versions (`.sweep.csv.<pid>.<ns>.tmp`).
            let older = name.ends_with(".tmp")
                && SWEEP_FILES
                    .iter()
                    .any(|f| name.starts_with(&format!(".{f}.")));
            if name.starts_with('.') && (name.ends_with(TEMPORARY) || older) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// `results/<date>-<host>-<hhmmss>`, with `-2`, `-3`… if that is taken.
fn fresh_default(machine: &Machine) -> PathBuf {
    let base = format!("{}-{}-{}", machine.date, machine.host, machine.time);
    let results = PathBuf::from("results");
    let mut path = results.join(&base);
    let mut counter = 2;
    while path.exists() {
        path = results.join(format!("{base}-{counter}"));
        counter += 1;
    }
    path
}

fn usage(path: &Path, rule: String) -> anyhow::Error {
    UsageError {
        value: path.display().to_string(),
        flag: "--out <DIR>",
        rule,
    }
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine() -> Machine {
        Machine::detect()
    }

    #[test]
    fn a_folder_with_another_sweep_is_refused_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("sweep");
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("sweep.csv"), "old").unwrap();
        std::fs::write(out.join("notes.txt"), "mine").unwrap();
        let err = Folder::prepare(Some(out.clone()), false, &machine())
            .err()
            .unwrap();
        assert!(err.to_string().contains("--force"), "{err}");
        let folder = Folder::prepare(Some(out.clone()), true, &machine()).unwrap();
        assert!(!out.join("sweep.csv").exists());
        assert!(out.join("notes.txt").exists(), "only the sweep's files go");
        folder
            .write(&[("sweep.csv", "a".into()), ("sweep.json", "b".into())])
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("sweep.json")).unwrap(),
            "b"
        );
    }

    #[test]
    fn stale_temporaries_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().to_path_buf();
        for name in [
            ".sweep.csv.123.nqueens-tmp",
            ".sweep.csv.4242.1234567.tmp",
            ".README.md.9.nqueens-tmp",
            ".keep.tmp",
            "data.tmp",
        ] {
            std::fs::write(out.join(name), "x").unwrap();
        }
        let folder = Folder::prepare(Some(out.clone()), false, &machine()).unwrap();
        folder.interrupt();
        let mut left: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        left.sort();
        assert_eq!(left, vec![".keep.tmp".to_string(), "data.tmp".to_string()]);
    }

    #[test]
    fn an_unwritable_folder_is_a_usage_error_before_anything_runs() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a-file");
        std::fs::write(&file, "x").unwrap();
        let err = Folder::prepare(Some(file.join("sub")), false, &machine())
            .err()
            .unwrap();
        assert!(
            err.is::<UsageError>() && err.to_string().contains("--out"),
            "{err}"
        );
    }
}
