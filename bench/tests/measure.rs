//! The report's timing harness: the ratio points the right way and its
//! ratio is the one of the best times shown.

use std::hint::black_box;

use ito_bench::headline::measure::{compare, op, Budget};

#[test]
fn slower_peer_gets_a_ratio_above_one() {
    let budget = Budget::quick();
    let data: Vec<u64> = (0..256).collect();
    let rows = compare(
        &budget,
        "test",
        "sum",
        vec![
            op("ito", || {
                black_box(black_box(&data[..16]).iter().sum::<u64>());
            }),
            op("peer", || {
                black_box(black_box(&data[..]).iter().map(|x| x * 3 + 1).sum::<u64>());
            }),
        ],
    );
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(
        (row.area.as_str(), row.work.as_str(), row.peer.as_str()),
        ("test", "sum", "peer")
    );
    assert!(row.ratio > 1.0, "{row:?}");
    assert!(row.peer_ns > row.ito_ns, "{row:?}");
    assert!(row.ratio_lo <= row.ratio_hi, "{row:?}");
    assert!(
        (row.ratio - row.peer_ns / row.ito_ns).abs() < 1e-9,
        "{row:?}"
    );
    assert!(row.rounds >= budget.min_rounds);
}
