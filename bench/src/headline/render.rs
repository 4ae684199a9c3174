//! `REPORT.md` from the runs present: one table per area, portable and
//! native side by side when both runs exist, and the Python section.

use std::fmt::Write as _;

use super::env::Run;
use super::{Row, AREAS};

/// A time per operation, in the unit that keeps three or four digits.
pub fn time(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{:.2} ms", ns / 1e6)
    }
}

/// A ratio with its interquartile range: `3.31× (3.25–3.40)`.
pub fn ratio(row: &Row) -> String {
    format!(
        "**{:.2}×** ({:.2}–{:.2})",
        row.ratio, row.ratio_lo, row.ratio_hi
    )
}

/// One line naming a run's machine and build.
pub fn provenance(run: &Run) -> String {
    format!(
        "{mode}: {cpu}, {cores} cores, kernel {kernel}, {rustc}, {date} UTC, commit `{commit}`, \
         load {l0:.1} → {l1:.1}{quick}",
        mode = run.mode,
        cpu = run.cpu,
        cores = run.cores,
        kernel = run.kernel,
        rustc = run.rustc,
        date = run.date,
        commit = run.commit,
        l0 = run.load.0,
        l1 = run.load.1,
        quick = if run.quick {
            " (quick mode: figures not meaningful)"
        } else {
            ""
        },
    )
}

fn find<'a>(run: &'a Run, like: &Row) -> Option<&'a Row> {
    run.rows
        .iter()
        .find(|r| r.area == like.area && r.work == like.work && r.peer == like.peer)
}

/// Every row's ratio per run, one line each: the table the README shows.
pub fn summary(runs: &[Run]) -> String {
    let mut md = String::from("| area | work | peer |");
    for run in runs {
        let _ = write!(md, " ito speed-up ({}) |", run.mode);
    }
    md.push_str("\n|---|---|---|");
    for _ in runs {
        md.push_str("--:|");
    }
    md.push('\n');
    for area in AREAS {
        for row in runs[0].rows.iter().filter(|r| r.area == area.slug) {
            let _ = write!(md, "| {} | {} | {} |", area.title, row.work, row.peer);
            for run in runs {
                match find(run, row) {
                    Some(r) => {
                        let _ = write!(md, " {:.2}× |", r.ratio);
                    }
                    None => md.push_str(" — |"),
                }
            }
            md.push('\n');
        }
    }
    md
}

/// The whole `REPORT.md` for `runs` (portable first when present).
pub fn markdown(runs: &[Run]) -> String {
    let mut md = String::new();
    let first = &runs[0];
    md.push_str("# ito: headline benchmarks\n\n");
    md.push_str(
        "Written by `cargo run --release -p ito-bench --bin report` (source: \
         `bench/src/headline/`). Every row is ito and a peer doing the same work in \
         one process, timed in alternating rounds; times are each contender's best \
         round per operation, and the ratio is peer time / ito time of those best \
         rounds (**above 1: ito is faster**), with the interquartile range of the \
         per-round ratios in brackets. The lab notebook with older figures and their methods is \
         [`bench/RESULTS.md`](../RESULTS.md).\n\n",
    );
    md.push_str("Runs shown:\n\n");
    for run in runs {
        let _ = writeln!(md, "- {}", provenance(run));
    }
    let loaded = runs
        .iter()
        .any(|r| r.load.0.max(r.load.1) > r.cores as f64 * 0.5);
    if loaded {
        md.push_str(
            "\nThe host was shared and loaded during these runs (load averages above): \
             absolute times are inflated and ranges wider than on a quiet machine; \
             the ratios, taken round by round, are the steadier figure.\n",
        );
    }
    md.push_str("\n## Summary\n\n");
    md.push_str(&summary(runs));
    for area in AREAS {
        let rows: Vec<&Row> = first.rows.iter().filter(|r| r.area == area.slug).collect();
        if rows.is_empty() {
            continue;
        }
        let _ = write!(md, "\n## {}\n\n{}\n\n", area.title, area.about);
        let _ = writeln!(md, "![{} chart]({}.svg)\n", area.title, area.slug);
        md.push_str("| work | peer |");
        for run in runs {
            let _ = write!(
                md,
                " ito ({m}) | peer ({m}) | ito speed-up ({m}) |",
                m = run.mode
            );
        }
        md.push_str("\n|---|---|");
        for _ in runs {
            md.push_str("--:|--:|--:|");
        }
        md.push('\n');
        for row in rows {
            let _ = write!(md, "| {} | {} |", row.work, row.peer);
            for run in runs {
                match find(run, row) {
                    Some(r) => {
                        let _ = write!(
                            md,
                            " {} | {} | {} |",
                            time(r.ito_ns),
                            time(r.peer_ns),
                            ratio(r)
                        );
                    }
                    None => md.push_str(" — | — | — |"),
                }
            }
            md.push('\n');
        }
        md.push('\n');
        for run in runs {
            let _ = writeln!(
                md,
                "<sub>{}: {}, {} cores, {} UTC, commit {}</sub><br>",
                run.mode, run.cpu, run.cores, run.date, run.commit
            );
        }
    }
    // The relay benchmark's section, written by `relay_load report`.
    if let Ok(relay) =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/report/relay.md"))
    {
        md.push('\n');
        md.push_str(&relay);
    }
    md.push_str("\n## Python\n\n");
    for run in runs {
        let _ = writeln!(
            md,
            "{}:\n\n```text\n{}\n```\n",
            run.mode,
            run.python.trim_end()
        );
    }
    md
}
