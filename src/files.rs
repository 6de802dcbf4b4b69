//! Files a user hands us, read and written with care: what is read must be
//! a regular file (a FIFO would block for ever, `/dev/zero` would fill the
//! memory) and no longer than its format allows; what is written goes
//! through a synced temporary file and a rename, into a place checked
//! before any work starts.
//!
//! Nothing here knows a file format: the callers say how long a file of
//! theirs may be and name the file in their own messages.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Why a file cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file is not what the format can be: not a regular file, or
    /// longer than any file of the format. The phrase says which.
    #[error("{0}")]
    Unfit(String),
    /// The system refused the read or the write.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// What a path names: a phrase for anything but a regular file
/// (`a FIFO`, `a directory`, `a character device`...).
fn kind(file_type: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

fn not_regular(file_type: &fs::FileType) -> FileError {
    FileError::Unfit(format!("is {}, not a regular file", kind(file_type)))
}

/// Opens `path` for reading if it is a regular file, without blocking on
/// a FIFO (non-blocking open, then the open file's own type checked).
///
/// # Errors
/// [`FileError::Unfit`] for anything but a regular file; [`FileError::Io`]
/// if it cannot be opened.
pub fn open_regular(path: &Path) -> Result<File, FileError> {
    open_with(path, OpenOptions::new().read(true))
}

/// Opens `path` with `options` (a regular file, or none if they create
/// one), without blocking on a FIFO swapped in since the path was checked:
/// non-blocking, then the open file's own type checked.
///
/// # Errors
/// [`FileError::Unfit`] for anything but a regular file; [`FileError::Io`]
/// if it cannot be opened.
pub fn open_with(path: &Path, options: &mut OpenOptions) -> Result<File, FileError> {
    regular_or_absent(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    check_regular(&file)?;
    Ok(file)
}

/// Refuses an open file that is not a regular file (one swapped in
/// between a check of its path and its opening).
///
/// # Errors
/// [`FileError::Unfit`] for anything but a regular file.
fn check_regular(file: &File) -> Result<(), FileError> {
    let file_type = file.metadata()?.file_type();
    match file_type.is_file() {
        true => Ok(()),
        false => Err(not_regular(&file_type)),
    }
}

/// Reads what is left of `file`, at most `limit` bytes: a file longer than
/// that is refused before more is read.
///
/// # Errors
/// [`FileError::Unfit`] if the file holds more than `limit` bytes (`what`
/// names the format in the message, e.g. `an nqueens shard file`);
/// [`FileError::Io`] if the read fails.
pub fn read_at_most(file: &mut File, limit: u64, what: &str) -> Result<Vec<u8>, FileError> {
    let too_long = |len: u64| {
        FileError::Unfit(format!(
            "is {} long, more than {what} can be ({})",
            crate::problem::bytes(len),
            crate::problem::bytes(limit)
        ))
    };
    let len = file.metadata()?.len();
    if len > limit {
        return Err(too_long(len));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        // It grew while it was read.
        return Err(too_long(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Reads the regular file `path`, of at most `limit` bytes.
///
/// # Errors
/// As [`open_regular`] and [`read_at_most`].
pub fn read_regular(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>, FileError> {
    read_at_most(&mut open_regular(path)?, limit, what)
}

/// The folder a file is created in: its parent, or `.` for a bare name.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Checks that `path` names a regular file or nothing (following links).
///
/// # Errors
/// [`FileError::Unfit`] for anything else there; [`FileError::Io`] if the
/// system cannot say.
pub fn regular_or_absent(path: &Path) -> Result<(), FileError> {
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(not_regular(&meta.file_type())),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// Checks, before any work, that a file can be written at `path`: if
/// something is there it is a regular file; its folder exists and a
/// temporary file can be created in it (and is removed again).
///
/// # Errors
/// [`FileError::Unfit`] for an existing path that is not a regular file,
/// or a folder that is missing or refuses a new file (named).
pub fn check_destination(path: &Path) -> Result<(), FileError> {
    regular_or_absent(path)?;
    let folder = folder_of(path);
    let refused = |e: io::Error| {
        FileError::Unfit(format!(
            "cannot be written: its folder {} {}",
            folder.display(),
            match e.kind() {
                io::ErrorKind::NotFound => "does not exist".to_string(),
                _ => format!("refuses a new file ({e})"),
            }
        ))
    };
    // A name no one else uses: processes of the same number on other
    // machines may probe a shared folder at once.
    for attempt in 0..64 {
        let probe = temporary(path, &format!("probe{attempt}"));
        match OpenOptions::new().write(true).create_new(true).open(&probe) {
            Ok(created) => {
                drop(created);
                let _ = fs::remove_file(&probe);
                return Ok(());
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(refused(e)),
        }
    }
    Err(refused(io::Error::from(io::ErrorKind::AlreadyExists)))
}

/// Whether two paths name one file: the same file if both exist (through
/// symbolic or hard links too), else the same place once their folders
/// are resolved.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (fs::metadata(a), fs::metadata(b)) {
            return (x.dev(), x.ino()) == (y.dev(), y.ino());
        }
    }
    match (resolved(a), resolved(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// Where `path` leads: its folder resolved, a dangling symbolic link
/// followed (once per level, at most 40).
fn resolved(path: &Path) -> Option<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        let folder = fs::canonicalize(folder_of(&path)).ok()?;
        let here = folder.join(path.file_name()?);
        match fs::read_link(&here) {
            Ok(target) => path = folder.join(target),
            Err(_) => return Some(here),
        }
    }
    None
}

/// A temporary file's name beside `path`, unique to this process.
fn temporary(path: &Path, purpose: &str) -> PathBuf {
    let name = path
        .file_name()
        .map_or("file".into(), |n| n.to_string_lossy());
    folder_of(path).join(format!(".{name}.{}.{purpose}", std::process::id()))
}

/// Writes `bytes` to `path` so that a reader, a crash or a power cut sees
/// the old file or the new one, never half of one: into a temporary file
/// beside it, synced, renamed over `path`, and the folder synced. A write
/// that fails leaves no temporary behind.
///
/// # Errors
/// [`FileError::Unfit`] if something other than a regular file is at
/// `path`; [`FileError::Io`] if a step fails.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    regular_or_absent(path)?;
    let tmp = temporary(path, "tmp");
    let written = (|| {
        let mut file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&tmp, path)?;
        // The rename reaches the disk with the folder's own sync.
        File::open(folder_of(path))?.sync_all()
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    Ok(written?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_files_are_refused_before_anything_is_read() {
        for path in ["/dev/zero", "/dev/null", "/"] {
            match read_regular(Path::new(path), 1 << 20, "a test file") {
                Err(FileError::Unfit(why)) => assert!(why.contains("not a regular file"), "{why}"),
                other => panic!("{path}: {other:?}"),
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid, NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
        match read_regular(&fifo, 1 << 20, "a test file") {
            Err(FileError::Unfit(why)) => assert!(why.contains("a FIFO"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(check_destination(&fifo), Err(FileError::Unfit(_))));
        assert!(matches!(
            write_atomically(&fifo, b"x"),
            Err(FileError::Unfit(_))
        ));
    }

    #[test]
    fn a_file_longer_than_its_format_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        fs::write(&path, vec![b'x'; 2000]).unwrap();
        assert!(matches!(
            read_regular(&path, 1999, "a test file"),
            Err(FileError::Unfit(_))
        ));
        assert_eq!(
            read_regular(&path, 2000, "a test file").unwrap().len(),
            2000
        );
    }

    #[test]
    fn destinations_are_checked_and_links_name_one_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a");
        assert!(check_destination(&file).is_ok());
        assert!(matches!(
            check_destination(&dir.path().join("missing/x")),
            Err(FileError::Unfit(why)) if why.contains("does not exist")
        ));
        assert!(matches!(
            check_destination(dir.path()),
            Err(FileError::Unfit(why)) if why.contains("a directory")
        ));
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            0,
            "no probe left"
        );
        // Not there yet: the same place, through a dangling link too.
        #[cfg(unix)]
        std::os::unix::fs::symlink(&file, dir.path().join("link")).unwrap();
        #[cfg(unix)]
        assert!(same_file(&file, &dir.path().join("link")));
        assert!(same_file(&file, &dir.path().join(".").join("a")));
        write_atomically(&file, b"one").unwrap();
        fs::hard_link(&file, dir.path().join("hard")).unwrap();
        assert!(same_file(&file, &dir.path().join("hard")));
        assert!(!same_file(&file, &dir.path().join("b")));
        assert_eq!(fs::read(&file).unwrap(), b"one");
    }
}
