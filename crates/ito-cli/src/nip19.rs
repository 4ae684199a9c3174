//! `ito nostr nip19 decode | encode`: NIP-19 strings to JSON in nostr-tools'
//! `decode` shape (`{"type":…,"data":…}`), and values to strings.

use clap::{Args, Subcommand};
use ito::nostr::nip19::{self, AddressPointer, EventPointer, Nip19, ProfilePointer};
use serde_json::json;

use crate::io::{outln, read_inputs, Failure};

#[derive(Subcommand)]
pub(crate) enum Nip19Command {
    /// Decode NIP-19 strings (the arguments, or one per line of stdin) and
    /// print one JSON object per string: `{"type":"npub","data":"<hex>"}`,
    /// pointers as objects (nostr-tools' shapes, bytes as hex).
    Decode(DecodeArgs),
    /// Encode a value as a NIP-19 string.
    #[command(subcommand)]
    Encode(EncodeCommand),
}

#[derive(Args)]
pub(crate) struct DecodeArgs {
    /// Strings to decode (stdin, one per line, when none).
    strings: Vec<String>,
}

#[derive(Subcommand)]
pub(crate) enum EncodeCommand {
    /// A public key (64 hex digits) as `npub1…`.
    Npub {
        /// The public key.
        pubkey: String,
    },
    /// An event id (64 hex digits) as `note1…`.
    Note {
        /// The event id.
        id: String,
    },
    /// The secret key (from --key-file or --key-env, never an argument) as `nsec1…`.
    #[cfg(feature = "schnorr")]
    Nsec(crate::nostr::KeyArgs),
    /// A public key with relays as `nprofile1…`.
    Nprofile {
        /// The public key (64 hex digits).
        pubkey: String,
        /// A relay URL (repeatable).
        #[arg(long = "relay", value_name = "URL")]
        relays: Vec<String>,
    },
    /// An event id with relays, author and kind as `nevent1…`.
    Nevent {
        /// The event id (64 hex digits).
        id: String,
        /// A relay URL (repeatable).
        #[arg(long = "relay", value_name = "URL")]
        relays: Vec<String>,
        /// The author's public key (64 hex digits).
        #[arg(long, value_name = "HEX")]
        author: Option<String>,
        /// The event kind.
        #[arg(long, value_name = "K")]
        kind: Option<u32>,
    },
    /// An addressable event's coordinate as `naddr1…`.
    Naddr {
        /// The `d` tag's value (may be empty).
        #[arg(long, value_name = "D")]
        identifier: String,
        /// The author's public key (64 hex digits).
        #[arg(long, value_name = "HEX")]
        pubkey: String,
        /// The event kind.
        #[arg(long, value_name = "K")]
        kind: u32,
        /// A relay URL (repeatable).
        #[arg(long = "relay", value_name = "URL")]
        relays: Vec<String>,
    },
}

pub(crate) fn run(cmd: Nip19Command) -> Result<(), Failure> {
    match cmd {
        Nip19Command::Decode(args) => decode(&args),
        Nip19Command::Encode(cmd) => {
            let encoded = encode(cmd)?;
            outln!("{encoded}");
            Ok(())
        }
    }
}

fn decode(args: &DecodeArgs) -> Result<(), Failure> {
    let show = |name: &str, line: usize, s: &str| -> Result<(), Failure> {
        let value = nip19::decode(s).map_err(|e| {
            let col = e.offset().map_or(1, |at| s[..at].chars().count() + 1);
            Failure::msg(format!("{name}:{line}:{col}: {e}"))
        })?;
        outln!("{}", to_json(&value));
        Ok(())
    };
    if !args.strings.is_empty() {
        for (i, s) in args.strings.iter().enumerate() {
            show(&format!("<argument {}>", i + 1), 1, s)?;
        }
        return Ok(());
    }
    for input in read_inputs(&[])? {
        for (n, line) in input.data.split(|&b| b == b'\n').enumerate() {
            let line = String::from_utf8_lossy(line);
            let s = line.trim();
            if !s.is_empty() {
                show(&input.name, n + 1, s)?;
            }
        }
    }
    Ok(())
}

/// nostr-tools' `decode` result, bytes as lowercase hex.
fn to_json(value: &Nip19) -> serde_json::Value {
    let hex = |b: &[u8; 32]| ito::hex::encode(b);
    let data = match value {
        Nip19::Npub(b) | Nip19::Note(b) => json!(hex(b)),
        Nip19::Nsec(secret) => json!(hex(secret.expose())),
        Nip19::Nprofile(p) => json!({ "pubkey": hex(&p.pubkey), "relays": p.relays }),
        Nip19::Nevent(p) => {
            let mut o = json!({ "id": hex(&p.id), "relays": p.relays });
            if let Some(author) = &p.author {
                o["author"] = json!(hex(author));
            }
            if let Some(kind) = p.kind {
                o["kind"] = json!(kind);
            }
            o
        }
        Nip19::Naddr(p) => json!({
            "identifier": p.identifier,
            "pubkey": hex(&p.pubkey),
            "kind": p.kind,
            "relays": p.relays,
        }),
    };
    json!({ "type": value.prefix(), "data": data })
}

fn hex32(what: &str, text: &str) -> Result<[u8; 32], Failure> {
    ito::hex::decode_array::<32>(text.as_bytes())
        .map_err(|e| Failure::msg(format!("{what}: not 64 hex digits ({e})")))
}

fn encode(cmd: EncodeCommand) -> Result<String, Failure> {
    let failed = |e: nip19::Error| Failure::msg(e.to_string());
    Ok(match cmd {
        EncodeCommand::Npub { pubkey } => nip19::encode_npub(&hex32("pubkey", &pubkey)?),
        EncodeCommand::Note { id } => nip19::encode_note(&hex32("id", &id)?),
        #[cfg(feature = "schnorr")]
        EncodeCommand::Nsec(key) => nip19::encode_nsec(&key.load()?.secret_bytes()),
        EncodeCommand::Nprofile { pubkey, relays } => ProfilePointer {
            pubkey: hex32("pubkey", &pubkey)?,
            relays,
        }
        .encode()
        .map_err(failed)?,
        EncodeCommand::Nevent {
            id,
            relays,
            author,
            kind,
        } => EventPointer {
            id: hex32("id", &id)?,
            relays,
            author: author.map(|a| hex32("--author", &a)).transpose()?,
            kind,
        }
        .encode()
        .map_err(failed)?,
        EncodeCommand::Naddr {
            identifier,
            pubkey,
            kind,
            relays,
        } => AddressPointer {
            identifier,
            pubkey: hex32("--pubkey", &pubkey)?,
            kind,
            relays,
        }
        .encode()
        .map_err(failed)?,
    })
}
