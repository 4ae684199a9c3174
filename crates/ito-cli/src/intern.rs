//! `ito intern stats`: how much interning a stream of strings would save.

use std::time::Instant;

use clap::{Args, Subcommand};
use ito::intern::Stats;

use crate::io::{read_inputs, Failure, Output, Progress};
use crate::IoArgs;

#[derive(Subcommand)]
pub(crate) enum InternCommand {
    /// Count distinct strings, duplicates and the bytes interning would save.
    Stats(StatsArgs),
}

#[derive(Args)]
pub(crate) struct StatsArgs {
    #[command(flatten)]
    io: IoArgs,
    /// Read every string (keys and values) of JSON documents instead of lines.
    #[arg(long)]
    json: bool,
    /// How many of the most repeated strings to list.
    #[arg(long, default_value_t = 10)]
    top: usize,
}

pub(crate) fn run(cmd: InternCommand) -> Result<(), Failure> {
    match cmd {
        InternCommand::Stats(args) => stats(&args),
    }
}

fn stats(args: &StatsArgs) -> Result<(), Failure> {
    let inputs = read_inputs(&args.io.files)?;
    let mut out = Output::open(args.io.output.as_deref())?;
    let progress = Progress::new(inputs.iter().map(|i| i.data.len() as u64).sum());
    let started = Instant::now();
    let mut stats = Stats::new();
    for input in &inputs {
        if args.json {
            for literal in ito::json::literals(&input.data) {
                let (_, value) = literal
                    .map_err(|e| Failure::at(&input.name, &input.data, e.offset(), e.kind()))?;
                stats.add(&value);
            }
        } else {
            let text = std::str::from_utf8(&input.data).map_err(|e| {
                Failure::at(&input.name, &input.data, e.valid_up_to(), "invalid UTF-8")
            })?;
            for line in text.lines() {
                stats.add(line);
            }
        }
        progress.advance(input.data.len() as u64);
    }
    let elapsed = started.elapsed();
    progress.finish();

    let unit = if args.json { "strings" } else { "lines" };
    let saved_pct = 100.0 * stats.bytes_saved() as f64 / stats.total_bytes().max(1) as f64;
    let rows = [
        (unit, stats.total().to_string()),
        ("distinct", stats.distinct().to_string()),
        ("duplicates", stats.duplicates().to_string()),
        ("bytes in total", stats.total_bytes().to_string()),
        ("bytes distinct", stats.distinct_bytes().to_string()),
        (
            "bytes saved",
            format!("{} ({saved_pct:.1}%)", stats.bytes_saved()),
        ),
        (
            "time",
            format!(
                "{:.1} ms ({:.0} {unit}/s)",
                elapsed.as_secs_f64() * 1e3,
                stats.total() as f64 / elapsed.as_secs_f64().max(1e-9)
            ),
        ),
    ];
    let mut report = String::new();
    for (label, value) in rows {
        report.push_str(&format!("{:<16}{value}\n", format!("{label}:")));
    }
    let top = stats.top(args.top);
    if !top.is_empty() {
        report.push_str("most repeated:\n");
        for (s, count) in top {
            let mut shown = Vec::new();
            ito::json::quote(&mut shown, truncate(s, 60));
            report.push_str(&format!(
                "  {count:>10}  {}\n",
                String::from_utf8_lossy(&shown)
            ));
        }
    }
    out.write(report.as_bytes())?;
    out.commit()
}

/// At most `max` characters of `s`.
fn truncate(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((end, _)) => &s[..end],
        None => s,
    }
}
