//! Signed test events: deterministic keys from a seed, ids from the
//! serde_json oracle (not from ito), BIP-340 signatures from secp256k1.

use secp256k1::{schnorr, Keypair};
use serde_json::json;
use sha2::{Digest, Sha256};

/// The key pair numbered `seed` (a valid secret key for every seed).
pub(crate) fn keypair(seed: u64) -> Keypair {
    let mut secret = [0u8; 32];
    secret[0] = 1;
    secret[24..].copy_from_slice(&seed.to_be_bytes());
    Keypair::from_secret_bytes(secret).expect("valid secret key")
}

/// The x-only public key of `keypair(seed)`, as 64 lowercase hex digits.
pub(crate) fn pubkey_hex(seed: u64) -> String {
    ito::hex::encode(&keypair(seed).x_only_public_key().0.to_byte_array())
}

/// A compact event JSON object signed by `keypair(seed)`.
pub(crate) fn signed_event(
    seed: u64,
    created_at: u64,
    kind: u16,
    tags: &[Vec<String>],
    content: &str,
) -> String {
    let pubkey = pubkey_hex(seed);
    let canonical = json!([0, pubkey, created_at, kind, tags, content]).to_string();
    let id: [u8; 32] = Sha256::digest(canonical.as_bytes()).into();
    let sig = schnorr::sign_no_aux_rand(&id, &keypair(seed));
    json!({
        "id": ito::hex::encode(&id),
        "pubkey": pubkey,
        "created_at": created_at,
        "kind": kind,
        "tags": tags,
        "content": content,
        "sig": ito::hex::encode(&sig.to_byte_array()),
    })
    .to_string()
}
