//! Whole JSON documents: writing typed structs and `serde_json::Value`
//! with `json::to_vec`, against serde_json and sonic-rs.
//!
//! Reading rows join this area when `ito::json::from_slice` exists.

use std::hint::black_box;

use serde::Serialize;
use serde_json::Value;

use super::{op, Area, Runner};
use crate::docs::{Citm, Twitter};

/// The area.
pub const AREA: Area = Area {
    slug: "json-documents",
    title: "JSON documents",
    about: "twitter.json and citm_catalog.json as typed structs (derived as a \
            serde user writes them) and as `serde_json::Value`, rendered compact \
            into a fresh `Vec` by each side's `to_vec` (output checked \
            byte-identical with serde_json first). `Value` rows have no sonic-rs \
            column: its users would hold sonic-rs's own `Value`.",
    run,
};

/// `sonic`: whether sonic-rs is a fair peer. It is not for
/// `serde_json::Value`, which sonic-rs users would replace with its own
/// `Value`; serializing serde_json's through sonic-rs is not its fast path.
fn write_case<T: Serialize>(r: &mut Runner, work: &str, value: &T, sonic: bool) {
    if !r.wants(work) {
        return;
    }
    assert_eq!(
        ito::json::to_vec(value).unwrap(),
        serde_json::to_vec(value).unwrap(),
        "ito and serde_json disagree"
    );
    let mut contenders = vec![
        op("ito", || {
            drop(black_box(ito::json::to_vec(black_box(value)).unwrap()));
        }),
        op("serde_json", || {
            drop(black_box(serde_json::to_vec(black_box(value)).unwrap()));
        }),
    ];
    if sonic {
        contenders.push(op("sonic-rs", || {
            drop(black_box(sonic_rs::to_vec(black_box(value)).unwrap()));
        }));
    }
    r.case(work, contenders);
}

fn run(r: &mut Runner) {
    let twitter: Twitter = serde_json::from_str(crate::TWITTER).unwrap();
    let citm: Citm = serde_json::from_str(crate::CITM).unwrap();
    write_case(r, "write twitter, typed", &twitter, true);
    write_case(r, "write citm, typed", &citm, true);
    let twitter: Value = serde_json::from_str(crate::TWITTER).unwrap();
    let citm: Value = serde_json::from_str(crate::CITM).unwrap();
    write_case(r, "write twitter, Value", &twitter, false);
    write_case(r, "write citm, Value", &citm, false);
}
