//! Whole JSON documents: writing typed structs and `serde_json::Value`
//! with `json::to_vec`, and reading them with `json::from_slice`, against
//! serde_json and sonic-rs.

use std::hint::black_box;

use serde::de::DeserializeOwned;
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
            byte-identical with serde_json first), and read back from the \
            document's bytes by each side's `from_slice` into the same types. \
            `Value` rows have no sonic-rs column: its users would hold \
            sonic-rs's own `Value`.",
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

/// Reading `text` into `T` with each side's `from_slice` (results compared
/// first, through their serde_json rendering).
fn read_case<T: DeserializeOwned + Serialize>(r: &mut Runner, work: &str, text: &str, sonic: bool) {
    if !r.wants(work) {
        return;
    }
    let bytes = text.as_bytes();
    let ours: T = ito::json::from_slice(bytes).unwrap();
    let theirs: T = serde_json::from_slice(bytes).unwrap();
    assert_eq!(
        serde_json::to_vec(&ours).unwrap(),
        serde_json::to_vec(&theirs).unwrap(),
        "ito and serde_json read different values"
    );
    let mut contenders = vec![
        op("ito", || {
            drop(black_box(
                ito::json::from_slice::<T>(black_box(bytes)).unwrap(),
            ));
        }),
        op("serde_json", || {
            drop(black_box(
                serde_json::from_slice::<T>(black_box(bytes)).unwrap(),
            ));
        }),
    ];
    if sonic {
        contenders.push(op("sonic-rs", || {
            drop(black_box(
                sonic_rs::from_slice::<T>(black_box(bytes)).unwrap(),
            ));
        }));
    }
    r.case(work, contenders);
}

fn run(r: &mut Runner) {
    read_case::<Twitter>(r, "read twitter, typed", crate::TWITTER, true);
    read_case::<Citm>(r, "read citm, typed", crate::CITM, true);
    read_case::<Value>(r, "read twitter, Value", crate::TWITTER, false);

    let twitter: Twitter = serde_json::from_str(crate::TWITTER).unwrap();
    let citm: Citm = serde_json::from_str(crate::CITM).unwrap();
    write_case(r, "write twitter, typed", &twitter, true);
    write_case(r, "write citm, typed", &citm, true);
    let twitter: Value = serde_json::from_str(crate::TWITTER).unwrap();
    let citm: Value = serde_json::from_str(crate::CITM).unwrap();
    write_case(r, "write twitter, Value", &twitter, false);
    write_case(r, "write citm, Value", &citm, false);
}
