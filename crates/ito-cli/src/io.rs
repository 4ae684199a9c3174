//! Input, output and diagnostics shared by every subcommand: read files or
//! stdin, write stdout or an atomically replaced `-o FILE`, report errors as
//! `file:line:col: message`, and show progress on a terminal.

use std::fs;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

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
        self.writer
            .write_all(bytes)
            .map_err(|e| Failure::msg(format!("cannot write output: {e}")))
    }

    /// Flush and, for `-o FILE`, atomically move the result into place.
    pub(crate) fn commit(mut self) -> Result<(), Failure> {
        self.writer
            .flush()
            .map_err(|e| Failure::msg(format!("cannot write output: {e}")))?;
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
/// status 1.
#[derive(Debug)]
pub(crate) struct Failure(pub(crate) String);

impl Failure {
    pub(crate) fn msg(message: impl Into<String>) -> Failure {
        Failure(message.into())
    }

    /// `name:line:col: message` for an error at byte `offset` of `data`.
    pub(crate) fn at(
        name: &str,
        data: &[u8],
        offset: usize,
        message: impl std::fmt::Display,
    ) -> Failure {
        let (line, col) = line_col(data, offset);
        Failure(format!("{name}:{line}:{col}: {message}"))
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

/// Progress on stderr for long runs, only when stderr is a terminal.
pub(crate) struct Progress(Option<indicatif::ProgressBar>);

impl Progress {
    /// Inputs smaller than this finish too fast for a bar to be useful.
    const THRESHOLD: u64 = 4 << 20;

    pub(crate) fn new(total_bytes: u64) -> Progress {
        if total_bytes < Self::THRESHOLD || !io::stderr().is_terminal() {
            return Progress(None);
        }
        let bar = indicatif::ProgressBar::new(total_bytes);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
        ) {
            bar.set_style(style);
        }
        Progress(Some(bar))
    }

    pub(crate) fn advance(&self, bytes: u64) {
        if let Some(bar) = &self.0 {
            bar.inc(bytes);
        }
    }

    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.0 {
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
