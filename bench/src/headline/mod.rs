//! The headline report (`cargo run --release -p ito-bench --bin report`):
//! the rows a user would pick ito for, measured in one process against the
//! peers they would otherwise use, written as `REPORT.md` tables and one SVG
//! chart per area.
//!
//! An area is a name, a title and a function that adds its cases to a
//! [`Runner`]; [`AREAS`] lists them in report order. To add an area, write
//! a module with an `AREA` constant and put it in the list.

pub mod chart;
pub mod env;
pub mod measure;
pub mod render;

mod hex;
mod interning;
mod json_docs;
mod json_strings;
mod nostr;
mod strings;

pub use measure::{batch, op, Budget, Contender, Row};

/// One table and one chart of the report.
pub struct Area {
    /// File-name-safe short name (`json-strings`): the chart is `<slug>.svg`.
    pub slug: &'static str,
    /// The table's heading.
    pub title: &'static str,
    /// One or two sentences under the heading: inputs and how peers were
    /// called.
    pub about: &'static str,
    /// Adds the area's cases to the runner.
    pub run: fn(&mut Runner),
}

/// Every area, in report order.
pub const AREAS: &[Area] = &[
    json_strings::AREA,
    json_docs::AREA,
    strings::AREA,
    interning::AREA,
    nostr::AREA,
    hex::AREA,
];

/// Collects the rows of the areas it runs.
pub struct Runner {
    budget: Budget,
    only: Option<String>,
    area: &'static str,
    /// Every row measured so far.
    pub rows: Vec<Row>,
}

impl Runner {
    /// A runner that measures every case whose `area/work` contains `only`
    /// (all cases when `None`).
    pub fn new(budget: Budget, only: Option<String>) -> Self {
        Runner {
            budget,
            only,
            area: "",
            rows: Vec::new(),
        }
    }

    /// Run one area's cases.
    pub fn area(&mut self, area: &Area) {
        self.area = area.slug;
        (area.run)(self);
    }

    /// Whether a case of the current area would be measured (areas skip
    /// building inputs for filtered-out cases).
    pub fn wants(&self, work: &str) -> bool {
        match &self.only {
            None => true,
            Some(only) => format!("{}/{work}", self.area).contains(only.as_str()),
        }
    }

    /// Measure one case: `contenders[0]` is ito, the rest are peers.
    pub fn case(&mut self, work: &str, contenders: Vec<Contender<'_>>) {
        if !self.wants(work) {
            return;
        }
        let rows = measure::compare(&self.budget, self.area, work, contenders);
        for row in &rows {
            eprintln!(
                "  {:<14} {:<44} vs {:<24} {:>6.2}x  ({} / {})",
                row.area,
                row.work,
                row.peer,
                row.ratio,
                render::time(row.ito_ns),
                render::time(row.peer_ns)
            );
        }
        self.rows.extend(rows);
    }
}
