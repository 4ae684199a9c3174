//! Every limit the relay enforces, with its default, in one place; the
//! NIP-11 document is printed from the same values.

use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

/// The relay's limits. Each has a named behaviour when exceeded.
///
/// ```
/// let limits = ito_relay::Limits::default();
/// assert_eq!(limits.max_limit, 500);
/// assert_eq!(limits.max_subid_length, 64);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest client message in bytes; larger gets a `NOTICE` (twice as
    /// large closes the connection).
    pub max_message_length: usize,
    /// Open subscriptions per connection; one more `REQ` gets `CLOSED`.
    pub max_subscriptions: usize,
    /// Filters per `REQ`/`COUNT`; more gets `CLOSED`.
    pub max_filters: usize,
    /// The most stored events one filter returns (also the `limit` of a
    /// filter without one).
    pub max_limit: u64,
    /// Tags per event; more is `OK false` `invalid:`.
    pub max_event_tags: usize,
    /// Subscription id length (NIP-01 fixes 64).
    pub max_subid_length: usize,
    /// Open connections; one more gets HTTP 503.
    pub max_connections: usize,
    /// `EVENT`s per second per connection (a bucket of one second's
    /// worth); more is `OK false` `rate-limited:`.
    pub events_per_second: u32,
    /// Bytes queued for one connection's socket; a reader that lets more
    /// pile up is disconnected.
    pub max_outbound_bytes: usize,
    /// `EVENT`s of one connection being verified or written at once; at
    /// the bound the relay stops reading the connection until one is
    /// answered (backpressure through TCP, nothing refused).
    pub max_events_in_flight: usize,
    /// `REQ`s and `COUNT`s of one connection waiting for or running their
    /// stored part at once; more gets `CLOSED` `rate-limited:`.
    pub max_queries_in_flight: usize,
    /// Stored queries (`REQ`s' stored parts, `COUNT`s) running at once
    /// over all connections (default: twice the cores); more wait their
    /// turn in order, and a running one gives its worker to them every
    /// 10 ms (time slices).
    pub query_workers: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_message_length: 128 * 1024,
            max_subscriptions: 32,
            max_filters: 10,
            max_limit: 500,
            max_event_tags: 2000,
            max_subid_length: 64,
            max_connections: 10_000,
            events_per_second: 100,
            max_outbound_bytes: 4 << 20,
            max_events_in_flight: 256,
            max_queries_in_flight: 8,
            query_workers: std::thread::available_parallelism().map_or(2, |n| n.get()) * 2,
        }
    }
}

/// Everything `ito relay serve` is configured with.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen.
    pub listen: SocketAddr,
    /// The limits.
    pub limits: Limits,
    /// NIP-11 `name`.
    pub name: String,
    /// NIP-11 `description`.
    pub description: String,
    /// How often expired events are purged (NIP-40).
    pub purge_interval: Duration,
    /// NIP-42 `AUTH` (off by default): when on, each connection gets a
    /// challenge, and kinds 4 and 1059 are served only to a connection
    /// authenticated as their author or a `p`-tagged recipient (see the
    /// crate docs). When off, `AUTH` is answered `OK false` `restricted:`
    /// and every event is served to anyone.
    pub auth: bool,
    /// The URL clients reach the relay at (`wss://relay.example.com`),
    /// whose host an `AUTH` event's `relay` tag must name; when `None`,
    /// the host the client connected to (its `Host` header) is used.
    pub relay_url: Option<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 7777)),
            limits: Limits::default(),
            name: "ito relay".to_owned(),
            description: "A Nostr relay on ito".to_owned(),
            purge_interval: Duration::from_secs(60),
            auth: false,
            relay_url: None,
        }
    }
}

impl Config {
    /// Reads a JSON configuration: any of `listen`, `name`,
    /// `description`, `purge_interval_secs`, `auth` (a boolean),
    /// `relay_url` (a string) and a `limits` object with the
    /// fields of [`Limits`]; what is absent keeps its default. Unknown
    /// keys are errors, so a misspelt limit is not silently ignored.
    ///
    /// ```
    /// let config = ito_relay::Config::from_json(r#"{"listen":"0.0.0.0:8080","limits":{"max_limit":100}}"#)?;
    /// assert_eq!((config.listen.port(), config.limits.max_limit), (8080, 100));
    /// assert!(ito_relay::Config::from_json(r#"{"limits":{"max_limt":1}}"#).is_err());
    /// let config = ito_relay::Config::from_json(r#"{"auth":true,"relay_url":"wss://relay.example.com"}"#)?;
    /// assert!(config.auth && config.relay_url.is_some());
    /// # Ok::<(), String>(())
    /// ```
    pub fn from_json(text: &str) -> Result<Config, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let Value::Object(map) = value else {
            return Err("the configuration is not a JSON object".to_owned());
        };
        let mut config = Config::default();
        for (key, v) in &map {
            match key.as_str() {
                "listen" => {
                    config.listen = v
                        .as_str()
                        .ok_or("`listen` is not a string")?
                        .parse()
                        .map_err(|e| format!("`listen`: {e}"))?
                }
                "name" => config.name = v.as_str().ok_or("`name` is not a string")?.to_owned(),
                "description" => {
                    config.description = v
                        .as_str()
                        .ok_or("`description` is not a string")?
                        .to_owned()
                }
                "auth" => config.auth = v.as_bool().ok_or("`auth` is not a boolean")?,
                "relay_url" => {
                    let url = v.as_str().ok_or("`relay_url` is not a string")?;
                    if crate::auth::url_host(url).is_none() {
                        return Err(format!("`relay_url`: no host in `{url}`"));
                    }
                    config.relay_url = Some(url.to_owned());
                }
                "purge_interval_secs" => {
                    config.purge_interval = Duration::from_secs(uint(key, v)?.max(1))
                }
                "limits" => {
                    let Value::Object(limits) = v else {
                        return Err("`limits` is not an object".to_owned());
                    };
                    let l = &mut config.limits;
                    for (key, v) in limits {
                        let n = uint(key, v)?;
                        let size =
                            usize::try_from(n).map_err(|_| format!("`{key}` is too large"))?;
                        match key.as_str() {
                            "max_message_length" => l.max_message_length = size,
                            "max_subscriptions" => l.max_subscriptions = size,
                            "max_filters" => l.max_filters = size,
                            "max_limit" => l.max_limit = n,
                            "max_event_tags" => l.max_event_tags = size,
                            "max_connections" => l.max_connections = size,
                            "events_per_second" => {
                                l.events_per_second =
                                    u32::try_from(n).map_err(|_| format!("`{key}` is too large"))?
                            }
                            "max_outbound_bytes" => l.max_outbound_bytes = size,
                            "max_events_in_flight" => l.max_events_in_flight = size,
                            "max_queries_in_flight" => l.max_queries_in_flight = size,
                            "query_workers" => l.query_workers = size.max(1),
                            _ => return Err(format!("unknown limit `{key}`")),
                        }
                    }
                }
                _ => return Err(format!("unknown configuration key `{key}`")),
            }
        }
        Ok(config)
    }

    /// The NIP-11 relay information document. NIP-42 is listed when
    /// `auth` is on; `auth_required` stays `false` even then, since NIP-11
    /// means by it that a connection must authenticate before doing
    /// anything, and here only direct messages need it.
    ///
    /// ```
    /// let mut config = ito_relay::Config::default();
    /// let doc = config.nip11();
    /// assert!(doc.contains(r#""max_limit":500"#));
    /// assert!(doc.contains(r#""supported_nips":[1,9,11,40,45]"#));
    /// config.auth = true;
    /// assert!(config.nip11().contains(r#""supported_nips":[1,9,11,40,42,45]"#));
    /// assert!(config.nip11().contains(r#""auth_required":false"#));
    /// ```
    pub fn nip11(&self) -> String {
        let l = &self.limits;
        let nips: &[u32] = if self.auth {
            &[1, 9, 11, 40, 42, 45]
        } else {
            &[1, 9, 11, 40, 45]
        };
        json!({
            "name": self.name,
            "description": self.description,
            "software": "https://example.invalid/ito",
            "version": env!("CARGO_PKG_VERSION"),
            "supported_nips": nips,
            "limitation": {
                "max_message_length": l.max_message_length,
                "max_subscriptions": l.max_subscriptions,
                "max_filters": l.max_filters,
                "max_limit": l.max_limit,
                "max_subid_length": l.max_subid_length,
                "max_event_tags": l.max_event_tags,
                "max_connections": l.max_connections,
                "events_per_second": l.events_per_second,
                "max_outbound_bytes": l.max_outbound_bytes,
                "max_events_in_flight": l.max_events_in_flight,
                "max_queries_in_flight": l.max_queries_in_flight,
                "query_workers": l.query_workers,
                "auth_required": false,
                "payment_required": false,
                "restricted_writes": false,
            },
        })
        .to_string()
    }
}

fn uint(key: &str, v: &Value) -> Result<u64, String> {
    v.as_u64()
        .ok_or_else(|| format!("`{key}` is not a non-negative integer"))
}
