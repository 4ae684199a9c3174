//! One SVG bar chart per area: ito's speed-up over each peer, one bar per
//! build mode, on a log scale with the 1× line marked.
//!
//! The chart carries its own white background and dark text, so it reads
//! the same on GitHub's light and dark themes.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::env::Run;
use super::Area;

const WIDTH: u32 = 960;
const LABEL_W: i32 = 390;
const ROW_H: i32 = 34;
const TOP: i32 = 70;
const BOTTOM: i32 = 56;
const RIGHT: i32 = 70;

const INK: RGBColor = RGBColor(0x24, 0x29, 0x2f);
const MUTED: RGBColor = RGBColor(0x57, 0x60, 0x6a);
const GRID: RGBColor = RGBColor(0xd0, 0xd7, 0xde);
/// Bar colours per run, mid-tone so they hold up on any page.
const BARS: [RGBColor; 2] = [RGBColor(0x3b, 0x7d, 0xd8), RGBColor(0xe0, 0x7b, 0x39)];

fn font(size: u32, color: RGBColor) -> TextStyle<'static> {
    ("sans-serif", size).into_font().color(&color)
}

/// The SVG text of `area`'s chart for `runs` (`None` when the area has no
/// rows).
pub fn svg(area: &Area, runs: &[Run]) -> Option<String> {
    let rows: Vec<_> = runs[0]
        .rows
        .iter()
        .filter(|r| r.area == area.slug)
        .collect();
    if rows.is_empty() {
        return None;
    }
    let ratio_of = |run: &Run, i: usize| {
        let like = rows[i];
        run.rows
            .iter()
            .find(|r| r.area == like.area && r.work == like.work && r.peer == like.peer)
            .map(|r| r.ratio)
    };
    let all: Vec<f64> = runs
        .iter()
        .flat_map(|run| (0..rows.len()).filter_map(move |i| ratio_of(run, i)))
        .collect();
    let lo = all.iter().copied().fold(0.5f64, f64::min) / 1.15;
    let hi = all.iter().copied().fold(2.0f64, f64::max) * 1.35;
    let (llo, lhi) = (lo.log10(), hi.log10());

    let height = (TOP + BOTTOM + ROW_H * rows.len() as i32) as u32;
    let x0 = LABEL_W;
    let x1 = WIDTH as i32 - RIGHT;
    let x_of = |v: f64| x0 + ((v.log10() - llo) / (lhi - llo) * (x1 - x0) as f64) as i32;

    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        root.draw(&Rectangle::new(
            [(0, 0), (WIDTH as i32 - 1, height as i32 - 1)],
            GRID.stroke_width(1),
        ))
        .ok()?;
        root.draw(&Text::new(
            format!("{}: ito's speed-up over each peer", area.title),
            (16, 14),
            font(20, INK),
        ))
        .ok()?;
        root.draw(&Text::new(
            "× faster (peer time / ito time), log scale; right of the 1× line, ito is faster",
            (16, 40),
            font(13, MUTED),
        ))
        .ok()?;

        // Legend, top right.
        let mut lx = WIDTH as i32 - 16;
        for (k, run) in runs.iter().enumerate().rev() {
            let label = run.mode.clone();
            let w = 8 * label.len() as i32 + 24;
            lx -= w;
            root.draw(&Rectangle::new(
                [(lx, 42), (lx + 14, 54)],
                BARS[k % 2].filled(),
            ))
            .ok()?;
            root.draw(&Text::new(label, (lx + 18, 42), font(13, INK)))
                .ok()?;
        }

        // Grid and ticks.
        let plot_bottom = TOP + ROW_H * rows.len() as i32;
        for t in [
            0.1, 0.2, 0.3, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 30.0, 50.0, 100.0, 200.0, 300.0,
            500.0,
        ] {
            if t < lo || t > hi {
                continue;
            }
            let x = x_of(t);
            let style = if t == 1.0 {
                MUTED.stroke_width(2)
            } else {
                GRID.stroke_width(1)
            };
            root.draw(&PathElement::new(
                vec![(x, TOP - 6), (x, plot_bottom)],
                style,
            ))
            .ok()?;
            root.draw(&Text::new(
                format!("{t}×"),
                (x, plot_bottom + 8),
                font(12, MUTED).pos(Pos::new(HPos::Center, VPos::Top)),
            ))
            .ok()?;
        }

        // Bars.
        let bar_h = ((ROW_H - 10) / runs.len() as i32).min(16);
        for (i, row) in rows.iter().enumerate() {
            let y = TOP + ROW_H * i as i32;
            root.draw(&Text::new(
                format!("{} — vs {}", row.work, row.peer),
                (x0 - 10, y + ROW_H / 2),
                font(13, INK).pos(Pos::new(HPos::Right, VPos::Center)),
            ))
            .ok()?;
            for (k, run) in runs.iter().enumerate() {
                let Some(v) = ratio_of(run, i) else { continue };
                let top = y + 5 + bar_h * k as i32;
                let (a, b) = (x_of(1.0).min(x_of(v)), x_of(1.0).max(x_of(v)));
                root.draw(&Rectangle::new(
                    [(a, top), (b.max(a + 2), top + bar_h - 2)],
                    BARS[k % 2].filled(),
                ))
                .ok()?;
                let (lx, anchor) = if v >= 1.0 {
                    (b + 4, HPos::Left)
                } else {
                    (a - 4, HPos::Right)
                };
                root.draw(&Text::new(
                    format!("{v:.2}×"),
                    (lx, top + (bar_h - 2) / 2),
                    font(12, INK).pos(Pos::new(anchor, VPos::Center)),
                ))
                .ok()?;
            }
        }

        // Provenance.
        let who: Vec<String> = runs
            .iter()
            .map(|r| format!("{}: {} UTC, {}", r.mode, r.date, r.commit))
            .collect();
        root.draw(&Text::new(
            format!(
                "{}, {} cores — {}",
                runs[0].cpu,
                runs[0].cores,
                who.join("; ")
            ),
            (16, height as i32 - 20),
            font(11, MUTED),
        ))
        .ok()?;
        root.present().ok()?;
    }
    Some(text)
}
