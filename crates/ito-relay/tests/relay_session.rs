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
