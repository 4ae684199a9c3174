//! The headline report: ito against the peers users would otherwise pick,
//! measured in one process on this machine.
//!
//! ```text
//! cargo run --release -p ito-bench --bin report                 # ~3 min; writes bench/report/
//! RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target/native \
//!   cargo run --release -p ito-bench --bin report               # the native column
//! cargo run --release -p ito-bench --bin report -- --quick --out target/report-quick
//! ```
//!
//! Each run writes `<out>/<mode>.json` (`portable` or `native`, from the
//! build; `--mode` overrides), then renders `<out>/REPORT.md` and one
//! `<out>/<area>.svg` per area from every run file present, so a portable
//! and a native run become two columns. Options:
//!
//! - `--quick`: a few rounds per case (for CI: proves every case runs).
//! - `--out DIR`: where to write (default `bench/report`).
//! - `--only TEXT`: only cases whose `area/work` contains TEXT.
//! - `--mode NAME`: the run's column name instead of the detected one.
//! - `--render`: measure nothing; re-render from the run files in `--out`.
//! - `--no-python`: skip `bench/python/bench.py`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use ito_bench::headline::env::{self, Run};
use ito_bench::headline::{chart, render, Budget, Runner, AREAS};

struct Args {
    quick: bool,
    out: PathBuf,
    only: Option<String>,
    mode: String,
    render_only: bool,
    python: bool,
}

fn usage() -> ! {
    eprintln!(
        "usage: report [--quick] [--out DIR] [--only TEXT] [--mode NAME] [--render] [--no-python]"
    );
    std::process::exit(2)
}

fn args() -> Args {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut a = Args {
        quick: false,
        out: root.join("report"),
        only: None,
        mode: env::build_mode().to_owned(),
        render_only: false,
        python: true,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--quick" => a.quick = true,
            "--out" => a.out = it.next().unwrap_or_else(|| usage()).into(),
            "--only" => a.only = Some(it.next().unwrap_or_else(|| usage())),
            "--mode" => a.mode = it.next().unwrap_or_else(|| usage()),
            "--render" => a.render_only = true,
            "--no-python" => a.python = false,
            _ => usage(),
        }
    }
    a
}

/// Run `bench/python/bench.py` with the `python3` on PATH (or
/// `$ITO_PYTHON`) when it can import ito_codecs and the peers.
fn python(quick: bool) -> String {
    let py = std::env::var("ITO_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/bench.py");
    let probe = Command::new(&py)
        .args([
            "-c",
            "import ito_codecs, orjson, msgspec, nostr_sdk, coincurve",
        ])
        .output();
    match probe {
        Ok(out) if out.status.success() => {}
        _ => {
            return format!(
                "skipped: `{py}` cannot import ito_codecs and its peers (orjson, msgspec, \
                 nostr-sdk, coincurve); build the wheel (crates/ito-py) and \
                 `pip install orjson msgspec nostr-sdk coincurve` to include this section"
            )
        }
    }
    let mut cmd = Command::new(&py);
    cmd.arg(&script);
    if quick {
        cmd.args(["--rounds", "2", "--events", "100"]);
    }
    match cmd.output() {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).into_owned(),
        Ok(out) => format!(
            "bench.py failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => format!("bench.py could not start: {e}"),
    }
}

fn measure(a: &Args) -> Run {
    let budget = if a.quick {
        Budget::quick()
    } else {
        Budget::full()
    };
    let started = Instant::now();
    let load_before = env::load();
    let date = env::now_utc();
    eprintln!(
        "report: {} build, {} cores, {}",
        a.mode,
        env::cores(),
        env::cpu()
    );
    let mut runner = Runner::new(budget, a.only.clone());
    for area in AREAS {
        runner.area(area);
    }
    let python = if a.python {
        eprintln!("report: python");
        python(a.quick)
    } else {
        "skipped (--no-python)".into()
    };
    Run {
        mode: a.mode.clone(),
        cpu: env::cpu(),
        cores: env::cores(),
        kernel: format!("{:?}", ito::Kernel::best()),
        rustc: env::rustc(),
        date,
        commit: env::commit(),
        load: (load_before, env::load()),
        quick: a.quick,
        seconds: started.elapsed().as_secs_f64(),
        rows: runner.rows,
        python,
    }
}

fn main() -> std::io::Result<()> {
    let a = args();
    std::fs::create_dir_all(&a.out)?;
    if !a.render_only {
        let run = measure(&a);
        let file = a.out.join(format!("{}.json", run.mode));
        std::fs::write(&file, serde_json::to_string_pretty(&run)? + "\n")?;
        eprintln!(
            "report: {} rows in {:.0} s -> {}",
            run.rows.len(),
            run.seconds,
            file.display()
        );
    }
    // Every run file present, portable first, then the others by name.
    let mut runs: Vec<Run> = Vec::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(&a.out)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort_by_key(|p| (p.file_stem().is_none_or(|s| s != "portable"), p.clone()));
    for p in names {
        let text = std::fs::read_to_string(&p)?;
        match serde_json::from_str::<Run>(&text) {
            Ok(run) => runs.push(run),
            Err(e) => eprintln!("report: {} skipped ({e})", p.display()),
        }
    }
    if runs.is_empty() {
        eprintln!("report: no run files in {}", a.out.display());
        std::process::exit(1);
    }
    for area in AREAS {
        if let Some(svg) = chart::svg(area, &runs) {
            std::fs::write(a.out.join(format!("{}.svg", area.slug)), svg)?;
        }
    }
    std::fs::write(a.out.join("REPORT.md"), render::markdown(&runs))?;
    eprintln!("report: wrote {}", a.out.join("REPORT.md").display());
    Ok(())
}
