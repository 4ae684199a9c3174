//! Input, output and diagnostics shared by every subcommand: read files or
//! stdin, write stdout or an atomically replaced `-o FILE`, report errors as
//! `file:line:col: message`, and show progress on a terminal.

use std::fs;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One input: its display name (`<stdin>` or the path) and its bytes.
pub(crate) struct Input {
    pub(crate) name: String,
    pub(crate) data: Vec<u8>,
}

/// Read every named file, or stdin when the list is empty or names `-`.
pub(crate) fn read_inputs(files: &[PathBuf]) -> Result<Vec<Input>, Failure> {
    if files.is_empty() {
        return Ok(vec![read_stdin()?]);
    }
    files
        .iter()
        .map(|path| {
            if path.as_os_str() == "-" {
                return read_stdin();
            }
            let name = path.display().to_string();
            fs::read(path)
                .map(|data| Input {
                    name: name.clone(),
                    data,
                })
                .map_err(|e| Failure::msg(format!("{name}: cannot read: {e}")))
        })
        .collect()
}

fn read_stdin() -> Result<Input, Failure> {
    let mut data = Vec::new();
    io::stdin()
        .lock()
        .read_to_end(&mut data)
        .map_err(|e| Failure::msg(format!("<stdin>: cannot read: {e}")))?;
    Ok(Input {
        name: "<stdin>".to_string(),
        data,
    })
}

/// `println!` that ends the process quietly with status 0 when stdout is a
/// closed pipe (and with a message and status 1 on other write errors),
/// where `println!` would panic.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::io::print_line(format_args!($($arg)*))
    };
}
pub(crate) use outln;

pub(crate) fn print_line(args: std::fmt::Arguments<'_>) {
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        let failure = Failure::write(e);
        if !failure.closed_pipe {
            eprintln!("{}", failure.message);
        }
        std::process::exit(if failure.closed_pipe { 0 } else { 1 });
    }
}

/// One input opened for streaming: its display name, a reader, and its
/// size when known (files; not stdin).
pub(crate) struct Source {
    pub(crate) name: String,
    pub(crate) reader: Box<dyn Read>,
    pub(crate) len: Option<u64>,
}

/// Open every named file (all up front, so a missing file fails before any
/// output), or stdin when the list is empty or names `-`.
pub(crate) fn open_inputs(files: &[PathBuf]) -> Result<Vec<Source>, Failure> {
    let stdin = || Source {
        name: "<stdin>".to_string(),
        reader: Box::new(io::stdin().lock()),
        len: None,
    };
    if files.is_empty() {
        return Ok(vec![stdin()]);
    }
    files
        .iter()
        .map(|path| {
            if path.as_os_str() == "-" {
                return Ok(stdin());
            }
            let name = path.display().to_string();
            let file = fs::File::open(path)
                .map_err(|e| Failure::msg(format!("{name}: cannot read: {e}")))?;
            let len = file.metadata().ok().map(|m| m.len());
            Ok(Source {
                name,
                reader: Box::new(file),
                len,
            })
        })
        .collect()
}

/// `name:line:col: message` for an error at byte `offset` of one line.
pub(crate) fn line_failure(
    name: &str,
    line_no: usize,
    line: &[u8],
    offset: usize,
    message: impl std::fmt::Display,
) -> Failure {
    let (_, col) = line_col(line, offset);
    Failure::msg(format!("{name}:{line_no}:{col}: {message}"))
}

/// Streams every input through `ito::nostr::batch::for_each_line` with progress;
/// `sink` sees (input name, line number, line, result).
pub(crate) fn stream_lines<T: Send>(
    inputs: Vec<Source>,
    unit: &'static str,
    work: impl Fn(&[u8]) -> T + Sync,
    mut sink: impl FnMut(&str, usize, &[u8], T) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let total = inputs.iter().map(|s| s.len).sum::<Option<u64>>();
    let mut progress = Progress::counting(total, unit);
    for source in inputs {
        let name = source.name;
        // The sink's Failure travels through the engine's io::Error.
        let mut failed = None;
        let read = ito::nostr::batch::for_each_line(
            source.reader,
            ito::nostr::batch::DEFAULT_CHUNK,
            &work,
            |n, line, r| {
                progress.items(line.len() as u64 + 1, 1);
                sink(&name, n, line, r).map_err(|f| {
                    failed = Some(f);
                    io::Error::other("stopped")
                })
            },
        );
        if let Some(failure) = failed {
            progress.finish();
            return Err(failure);
        }
        read.map_err(|e| Failure::msg(format!("{name}: cannot read: {e}")))?;
    }
    progress.finish();
    Ok(())
}

/// Where results go: stdout, or a temporary file renamed over `-o FILE` only
/// when the whole command succeeded (so a failure leaves nothing
/// half-written).
pub(crate) struct Output {
    target: Option<(PathBuf, PathBuf)>, // (temporary, final)
    writer: Box<dyn Write>,
}

impl Output {
    pub(crate) fn open(path: Option<&Path>) -> Result<Output, Failure> {
        match path {
            None => Ok(Output {
                target: None,
                writer: Box::new(io::BufWriter::with_capacity(1 << 16, io::stdout())),
            }),
            Some(path) => {
                let dir = match path.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                    _ => PathBuf::from("."),
                };
                let file_name = path
                    .file_name()
                    .ok_or_else(|| Failure::msg(format!("{}: not a file name", path.display())))?;
                let tmp = dir.join(format!(
                    ".{}.ito-tmp-{}",
                    file_name.to_string_lossy(),
                    std::process::id()
                ));
                let file = fs::File::create(&tmp)
                    .map_err(|e| Failure::msg(format!("{}: cannot create: {e}", tmp.display())))?;
                Ok(Output {
                    target: Some((tmp, path.to_path_buf())),
                    writer: Box::new(io::BufWriter::with_capacity(1 << 16, file)),
                })
            }
        }
    }

    /// Write a chunk of output.
    pub(crate) fn write(&mut self, bytes: &[u8]) -> Result<(), Failure> {
        self.writer.write_all(bytes).map_err(Failure::write)
    }

    /// Flush and, for `-o FILE`, atomically move the result into place.
    pub(crate) fn commit(mut self) -> Result<(), Failure> {
        self.writer.flush().map_err(Failure::write)?;
        if let Some((tmp, dest)) = self.target.take() {
            // Drop the writer (closing the file) before renaming.
            self.writer = Box::new(io::sink());
            fs::rename(&tmp, &dest).map_err(|e| {
                let _ = fs::remove_file(&tmp);
                Failure::msg(format!("{}: cannot replace: {e}", dest.display()))
            })?;
        }
        Ok(())
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        // Not committed: throw the partial temporary file away.
        if let Some((tmp, _)) = self.target.take() {
            self.writer = Box::new(io::sink());
            let _ = fs::remove_file(tmp);
        }
    }
}

/// A command failure: the message printed to stderr before exiting with
/// status 1, or a closed output pipe, which ends the command quietly with
/// status 0 (as Unix tools do under `| head`).
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) message: String,
    pub(crate) closed_pipe: bool,
}

impl Failure {
    pub(crate) fn msg(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            closed_pipe: false,
        }
    }

    /// A failed write: quiet for a closed pipe, a message otherwise.
    pub(crate) fn write(e: io::Error) -> Failure {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure {
                message: String::new(),
                closed_pipe: true,
            }
        } else {
            Failure::msg(format!("cannot write output: {e}"))
        }
    }

    /// `name:line:col: message` for an error at byte `offset` of `data`.
    pub(crate) fn at(
        name: &str,
        data: &[u8],
        offset: usize,
        message: impl std::fmt::Display,
    ) -> Failure {
        let (line, col) = line_col(data, offset);
        Failure::msg(format!("{name}:{line}:{col}: {message}"))
    }
}

/// 1-based line and column (in characters, counting each invalid byte as
/// one) of byte `offset` in `data`.
pub(crate) fn line_col(data: &[u8], offset: usize) -> (usize, usize) {
    let offset = offset.min(data.len());
    let before = &data[..offset];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    // Count characters: every byte that is not a UTF-8 continuation byte.
    let col = before[line_start..]
        .iter()
        .filter(|&&b| (b & 0xC0) != 0x80)
        .count()
        + 1;
    (line, col)
}

/// Progress on stderr for long runs, only when stderr is a terminal: bytes
/// (with a bar and ETA when the total is known) and events per second.
pub(crate) struct Progress {
    bar: Option<indicatif::ProgressBar>,
    started: Instant,
    items: u64,
    unit: &'static str,
}

impl Progress {
    /// Inputs smaller than this finish too fast for a bar to be useful.
    const THRESHOLD: u64 = 4 << 20;

    /// Progress over `total_bytes`.
    pub(crate) fn new(total_bytes: u64) -> Progress {
        Progress::counting(Some(total_bytes), "")
    }

    /// Progress that also counts items (`unit`, e.g. "events") per second.
    pub(crate) fn counting(total_bytes: Option<u64>, unit: &'static str) -> Progress {
        let mut progress = Progress {
            bar: None,
            started: Instant::now(),
            items: 0,
            unit,
        };
        if total_bytes.is_some_and(|t| t < Self::THRESHOLD) || !io::stderr().is_terminal() {
            return progress;
        }
        let (bar, template) = match total_bytes {
            Some(total) => (
                indicatif::ProgressBar::new(total),
                "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta} {msg}",
            ),
            None => (
                indicatif::ProgressBar::new_spinner(),
                "{spinner} {bytes} {bytes_per_sec} {msg}",
            ),
        };
        if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        progress.bar = Some(bar);
        progress
    }

    pub(crate) fn advance(&self, bytes: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(bytes);
        }
    }

    /// Count `items` more (shown as a rate).
    pub(crate) fn items(&mut self, bytes: u64, items: u64) {
        let Some(bar) = &self.bar else { return };
        bar.inc(bytes);
        let before = self.items;
        self.items += items;
        // Refresh the text every 4096 items, not per line.
        if before >> 12 != self.items >> 12 {
            let secs = self.started.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!(
                "{} {} ({:.0} {}/s)",
                self.items,
                self.unit,
                self.items as f64 / secs,
                self.unit
            ));
        }
    }

    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_lines_and_chars() {
        let data = "ab\ncé€d\n".as_bytes();
        assert_eq!(line_col(data, 0), (1, 1));
        assert_eq!(line_col(data, 2), (1, 3));
        assert_eq!(line_col(data, 3), (2, 1));
        // 'c' (1 byte) + 'é' (2 bytes) + '€' (3 bytes): 'd' is the 4th char.
        assert_eq!(line_col(data, 3 + 1 + 2 + 3), (2, 4));
        assert_eq!(line_col(data, 10_000), (3, 1));
    }

    #[test]
    fn output_file_is_replaced_only_on_commit() {
        let dir = std::env::temp_dir().join(format!("ito-cli-io-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let dest = dir.join("out.txt");
        fs::write(&dest, b"old").unwrap();

        let mut out = Output::open(Some(&dest)).unwrap();
        out.write(b"partial").unwrap();
        drop(out); // failure path: not committed
        assert_eq!(fs::read(&dest).unwrap(), b"old");
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            1,
            "temp file left behind"
        );

        let mut out = Output::open(Some(&dest)).unwrap();
        out.write(b"new").unwrap();
        out.commit().unwrap();
        assert_eq!(fs::read(&dest).unwrap(), b"new");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }
}
