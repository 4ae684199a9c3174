//! `ito nostr id | verify | filter | sign`: one event JSON object (or
//! template) per line, streamed in bounded memory on every core by
//! `ito::nostr::batch`; `ito nostr nip19` for bech32 strings.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use ito::nostr::batch::{self, Check, Verdict};
use ito::nostr::{self, ClientMessage, Event, Filter, Set, TagFilter};

use crate::io::{line_col, line_failure, open_inputs, stream_lines, Failure, Output};
use crate::IoArgs;

#[derive(Subcommand)]
pub(crate) enum NostrCommand {
    /// Print the computed NIP-01 id of each event (one per input line).
    Id(IoArgs),
    /// Check each event's id (and Schnorr signature); report bad events as
    /// `file:line:col: reason` and exit non-zero if any fails.
    Verify(VerifyArgs),
    /// Print the events (input lines, verbatim) that match a REQ's filters
    /// or a filter built from flags.
    Filter(FilterArgs),
    /// Sign event templates (`{"created_at","kind","tags","content"}`, one
    /// per line) and print the signed events as NIP-01 JSON. The key comes
    /// from a file or an environment variable, never from an argument.
    #[cfg(feature = "schnorr")]
    Sign(SignArgs),
    /// NIP-19 strings: `npub`, `nsec`, `note`, `nprofile`, `nevent`, `naddr`.
    #[command(subcommand)]
    Nip19(crate::nip19::Nip19Command),
}

/// Where the secret key comes from: a file, or an environment variable.
#[cfg(feature = "schnorr")]
#[derive(Args)]
pub(crate) struct KeyArgs {
    /// Read the secret key (64 hex digits or `nsec1…`) from FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "key_env")]
    key_file: Option<PathBuf>,
    /// Read the secret key from the environment variable NAME.
    #[arg(long, value_name = "NAME", default_value = "NOSTR_SECRET_KEY")]
    key_env: String,
}

#[cfg(feature = "schnorr")]
impl KeyArgs {
    /// The key; errors name the file or variable, never its contents.
    pub(crate) fn load(&self) -> Result<nostr::SecretKey, Failure> {
        // Key text is overwritten before its memory is freed.
        let (source, bytes) = match &self.key_file {
            Some(path) => {
                let name = path.display().to_string();
                let bytes = std::fs::read(path)
                    .map_err(|e| Failure::msg(format!("{name}: cannot read: {e}")))?;
                (name, zeroize::Zeroizing::new(bytes))
            }
            None => {
                let value = std::env::var(&self.key_env).map_err(|_| {
                    Failure::msg(format!(
                        "no secret key: set {} or pass --key-file FILE (keys are never taken from arguments)",
                        self.key_env
                    ))
                })?;
                (
                    format!("${}", self.key_env),
                    zeroize::Zeroizing::new(value.into_bytes()),
                )
            }
        };
        let text = std::str::from_utf8(&bytes)
            .map_err(|_| Failure::msg(format!("{source}: the secret key is not text")))?;
        nostr::SecretKey::parse(text).map_err(|e| Failure::msg(format!("{source}: {e}")))
    }
}

#[cfg(feature = "schnorr")]
#[derive(Args)]
pub(crate) struct SignArgs {
    #[command(flatten)]
    io: IoArgs,
    #[command(flatten)]
    key: KeyArgs,
}

#[derive(Args)]
pub(crate) struct VerifyArgs {
    #[command(flatten)]
    io: IoArgs,
    /// Check only ids, not signatures.
    #[arg(long)]
    id_only: bool,
}

#[derive(Args)]
pub(crate) struct FilterArgs {
    #[command(flatten)]
    io: IoArgs,
    /// A file holding `["REQ", sub, filter, ...]` (or one filter object): an
    /// event passes when any filter matches.
    #[arg(long, value_name = "REQ.json", conflicts_with_all = ["kinds", "authors", "ids", "since", "until", "tag"])]
    req: Option<PathBuf>,
    /// Event kinds, comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "K,K")]
    kinds: Vec<u16>,
    /// Author public keys (64 lowercase hex digits), comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "HEX,HEX")]
    authors: Vec<String>,
    /// Event ids (64 lowercase hex digits), comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "HEX,HEX")]
    ids: Vec<String>,
    /// Earliest created_at (unix seconds, inclusive).
    #[arg(long, value_name = "T")]
    since: Option<u64>,
    /// Latest created_at (unix seconds, inclusive).
    #[arg(long, value_name = "T")]
    until: Option<u64>,
    /// A tag condition `x=v1,v2`: some tag named x has its first value in the list (repeatable).
    #[arg(long, value_name = "x=V,V")]
    tag: Vec<String>,
}

pub(crate) fn run(cmd: NostrCommand) -> Result<(), Failure> {
    match cmd {
        NostrCommand::Id(args) => ids(&args),
        NostrCommand::Verify(args) => verify(&args),
        NostrCommand::Filter(args) => filter(&args),
        #[cfg(feature = "schnorr")]
        NostrCommand::Sign(args) => sign(&args),
        NostrCommand::Nip19(cmd) => crate::nip19::run(cmd),
    }
}

#[cfg(feature = "schnorr")]
fn sign(args: &SignArgs) -> Result<(), Failure> {
    let key = args.key.load()?;
    let inputs = open_inputs(&args.io.files)?;
    let mut out = Output::open(args.io.output.as_deref())?;
    stream_lines(
        inputs,
        "events",
        |line| {
            (!is_blank(line)).then(|| {
                nostr::UnsignedEvent::parse(line).map(|template| {
                    let mut json = Vec::with_capacity(line.len() + 256);
                    template.sign(&key).to_json(&mut json);
                    json.push(b'\n');
                    json
                })
            })
        },
        |name, n, line, signed| match signed {
            None => Ok(()),
            Some(Ok(json)) => out.write(&json),
            Some(Err(e)) => Err(line_failure(name, n, line, e.offset(), e)),
        },
    )?;
    out.commit()
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'))
}

fn ids(args: &IoArgs) -> Result<(), Failure> {
    let inputs = open_inputs(&args.files)?;
    let mut out = Output::open(args.output.as_deref())?;
    let mut line_out = [b'\n'; 65];
    stream_lines(
        inputs,
        "events",
        |line| (!is_blank(line)).then(|| Event::parse(line).map(|e| nostr::event_id(&e))),
        |name, n, line, id| match id {
            None => Ok(()),
            Some(Ok(id)) => {
                let hex: [u8; 64] = ito::hex::encode_array(&id);
                line_out[..64].copy_from_slice(&hex);
                out.write(&line_out)
            }
            Some(Err(e)) => Err(line_failure(name, n, line, e.offset(), e)),
        },
    )?;
    out.commit()
}

fn verify(args: &VerifyArgs) -> Result<(), Failure> {
    let check = if args.id_only || !Check::Signature.is_available() {
        Check::Id
    } else {
        Check::Signature
    };
    let inputs = open_inputs(&args.io.files)?;
    let mut out = Output::open(args.io.output.as_deref())?;
    let (mut good, mut bad) = (0u64, 0u64);
    stream_lines(
        inputs,
        "events",
        |line| (!is_blank(line)).then(|| batch::verify_one(line, check)),
        |name, n, line, verdict| {
            let Some(verdict) = verdict else {
                return Ok(());
            };
            // `file:line:col: reason`, like every other error of the CLI:
            // a parse error points at its byte, a verdict on the whole
            // event (id, signature) at the event's first column.
            let mut col = 1;
            let reason = match verdict {
                Verdict::Ok => {
                    good += 1;
                    return Ok(());
                }
                Verdict::BadId => {
                    let event = Event::parse(line).map_err(|e| Failure::msg(e.to_string()))?;
                    format!(
                        "id mismatch: the event says {}, its contents hash to {}",
                        ito::hex::encode(&event.id),
                        ito::hex::encode(&nostr::event_id(&event))
                    )
                }
                Verdict::BadSignature => "invalid Schnorr signature".to_string(),
                Verdict::Invalid(e) => {
                    col = line_col(line, e.offset()).1;
                    e.to_string()
                }
                other => format!("{other:?}"),
            };
            bad += 1;
            out.write(format!("{name}:{n}:{col}: {reason}\n").as_bytes())
        },
    )?;
    let what = match check {
        Check::Id => "ids checked",
        Check::Signature => "ids and signatures checked",
    };
    eprintln!("{} events: {good} ok, {bad} bad ({what})", good + bad);
    out.commit()?;
    if bad > 0 {
        return Err(Failure::msg(format!("{bad} bad event(s)")));
    }
    Ok(())
}

fn filter(args: &FilterArgs) -> Result<(), Failure> {
    let filters = match &args.req {
        Some(path) => req_filters(path)?,
        None => vec![flag_filter(args)?],
    };
    let inputs = open_inputs(&args.io.files)?;
    let mut out = Output::open(args.io.output.as_deref())?;
    let mut invalid = 0u64;
    stream_lines(
        inputs,
        "events",
        |line| {
            if is_blank(line) {
                return Ok(false);
            }
            Event::parse(line).map(|e| nostr::matches_any(&filters, &e))
        },
        |name, n, line, matched| match matched {
            Ok(false) => Ok(()),
            Ok(true) => {
                out.write(line)?;
                out.write(b"\n")
            }
            Err(e) => {
                // Keep going: one bad line in an archive should not hide
                // the rest; the status says something was wrong.
                invalid += 1;
                eprintln!("{}", line_failure(name, n, line, e.offset(), e).message);
                Ok(())
            }
        },
    )?;
    out.commit()?;
    if invalid > 0 {
        return Err(Failure::msg(format!("{invalid} line(s) were not events")));
    }
    Ok(())
}

/// The filters of a `REQ` (or `COUNT`) message file, or of one filter
/// object, owned.
fn req_filters(path: &PathBuf) -> Result<Vec<Filter<'static>>, Failure> {
    let name = path.display().to_string();
    let data =
        std::fs::read(path).map_err(|e| Failure::msg(format!("{name}: cannot read: {e}")))?;
    let at = |e: nostr::Error| Failure::at(&name, &data, e.offset(), e);
    let first = data.iter().find(|b| !b.is_ascii_whitespace());
    let filters = if first == Some(&b'{') {
        vec![Filter::parse(&data).map_err(at)?]
    } else {
        match ClientMessage::parse(&data).map_err(at)? {
            ClientMessage::Req { filters, .. } | ClientMessage::Count { filters, .. } => filters,
            _ => {
                return Err(Failure::msg(format!(
                    "{name}: expected a REQ message or a filter object"
                )))
            }
        }
    };
    Ok(filters.into_iter().map(Filter::into_owned).collect())
}

fn flag_filter(args: &FilterArgs) -> Result<Filter<'static>, Failure> {
    let hexes = |flag: &str, list: &[String]| -> Result<Option<Set<[u8; 32]>>, Failure> {
        if list.is_empty() {
            return Ok(None);
        }
        list.iter()
            .map(|h| {
                ito::hex::decode_array_lower::<32>(h.as_bytes()).map_err(|e| {
                    Failure::msg(format!("--{flag} {h}: not 64 lowercase hex digits ({e})"))
                })
            })
            .collect::<Result<Set<_>, _>>()
            .map(Some)
    };
    let mut tags: Vec<TagFilter<'static>> = Vec::new();
    for spec in &args.tag {
        let Some((name, values)) = spec.split_once('=') else {
            return Err(Failure::msg(format!("--tag {spec}: expected x=V,V")));
        };
        let &[letter] = name.as_bytes() else {
            return Err(Failure::msg(format!(
                "--tag {spec}: the tag name must be one ASCII letter"
            )));
        };
        if !letter.is_ascii_alphabetic() {
            return Err(Failure::msg(format!(
                "--tag {spec}: the tag name must be one ASCII letter"
            )));
        }
        tags.push(TagFilter {
            name: letter,
            values: values.split(',').map(|v| v.to_string().into()).collect(),
        });
    }
    Ok(Filter {
        ids: hexes("ids", &args.ids)?,
        authors: hexes("authors", &args.authors)?,
        kinds: (!args.kinds.is_empty()).then(|| args.kinds.iter().copied().collect()),
        since: args.since,
        until: args.until,
        tags: tags.into(),
        ..Filter::default()
    })
}
