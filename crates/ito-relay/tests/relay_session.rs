//! A seeded sample of the `relay_conn` fuzz target's scenarios
//! (tests/scenario): random client frames through `Relay::session` on a
//! `MemoryStore`, every answer checked against the documented invariants
//! (one `OK` per `EVENT`/`AUTH`, `EOSE` or `CLOSED` per `REQ`, one `NOTICE`
//! per unreadable frame, direct messages only to their parties, ...).

mod common;
mod scenario;

use common::Rng;

#[test]
fn seeded_scenarios_keep_the_invariants() {
    let mut rng = Rng(0x5eed_2026);
    let mut actions = 0;
    for _ in 0..150 {
        let bytes: Vec<u8> = (0..rng.below(1200)).map(|_| rng.next() as u8).collect();
        let scenario = scenario::Scenario::from_bytes(&bytes);
        actions += scenario.actions.len().min(48);
        scenario::run(&scenario);
    }
    assert!(actions > 2000, "only {actions} actions");
}

/// `Session::settled` waits for a `REQ`'s whole stored part: its events
/// and its `EOSE` are all queued when it resolves (the query's count ends
/// on the query's thread, after `EOSE`, not when the query starts).
#[test]
fn settled_waits_for_the_whole_stored_part() {
    use ito_relay::{Config, EventStore, MemoryStore, Relay};
    use std::sync::Arc;
    let k = common::keys(1);
    let now = common::now();
    // Long enough to stream that `settled`'s polling (every 200 µs) would
    // see a count ended early.
    let text = "x".repeat(2000);
    let events: Vec<Vec<u8>> = (0..3000)
        .map(|i| common::sign(&k[0], now - 5000 + i, 1, &[], &format!("{i} {text}")))
        .collect();
    let store = MemoryStore::new();
    let refs: Vec<&[u8]> = events.iter().map(|e| e.as_slice()).collect();
    store.write_batch(&refs, now).unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut config = Config::default();
        config.limits.max_limit = 3000;
        // Nothing reads until `settled` resolves: the whole answer fits.
        config.limits.max_outbound_bytes = 64 << 20;
        let relay = Relay::new(Arc::new(store), config);
        for round in 0..5 {
            let mut session = relay.session(None);
            session.receive(format!(r#"["REQ","s{round}",{{"kinds":[1]}}]"#).as_bytes());
            session.settled().await;
            let frames = session.take_frames();
            assert_eq!(frames.len(), 3001, "round {round}");
            assert_eq!(frames[3000], format!(r#"["EOSE","s{round}"]"#));
        }
    });
}
