//! Secret keys: generating, parsing, deriving the public key, and keeping
//! the secret out of memory dumps and logs.
//!
//! A [`SecretKey`] holds a secp256k1 key pair (the secret scalar and its
//! x-only public key, computed once), so signing many events with one key
//! pays for the point multiplication of key derivation once. The pair is
//! overwritten with a fixed dummy key when the value is dropped (a volatile
//! write followed by a compiler fence, the method of the `zeroize` crate);
//! byte copies handed out or made while parsing live in
//! [`zeroize::Zeroizing`] buffers. `Debug` and `Display` print
//! `[redacted]`, and no error message quotes any part of the input a key
//! was parsed from.

use std::fmt;

use secp256k1::Keypair;
use zeroize::Zeroizing;

/// A Nostr secret key (a secp256k1 scalar) with its x-only public key.
///
/// ```
/// use ito::nostr::SecretKey;
/// let key = SecretKey::from_hex("0000000000000000000000000000000000000000000000000000000000000003")?;
/// assert_eq!(ito::hex::encode(&key.public_key()),
///            "f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9");
/// assert_eq!(format!("{key:?} {key}"), "[redacted] [redacted]");
/// # Ok::<(), ito::nostr::KeyError>(())
/// ```
#[derive(Clone)]
pub struct SecretKey {
    keypair: Keypair,
    public: [u8; 32],
}

/// Why a secret key could not be made. Messages never contain the key or any
/// part of the text it was read from.
///
/// ```
/// use ito::nostr::{KeyError, SecretKey};
/// let err = SecretKey::from_hex("00").unwrap_err();
/// assert_eq!(err, KeyError::Length { found: 2 });
/// assert_eq!(err.to_string(), "a secret key is 64 hex digits, found 2 characters");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyError {
    /// The text is not 64 characters (or the bytes not 32).
    Length {
        /// Characters (or bytes) found.
        found: usize,
    },
    /// A byte that is not a hex digit, at this offset (the byte itself is
    /// not reported).
    HexDigit {
        /// Offset of the byte, from 0.
        offset: usize,
    },
    /// Zero, or not below the secp256k1 group order.
    OutOfRange,
    /// The text is an `nsec` string that does not decode.
    #[cfg(feature = "nip19")]
    Nip19(super::nip19::Error),
    /// The operating system's random source failed.
    Random(getrandom::Error),
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyError::Length { found } => {
                write!(f, "a secret key is 64 hex digits, found {found} characters")
            }
            KeyError::HexDigit { offset } => {
                write!(f, "secret key: not a hex digit at byte {offset}")
            }
            KeyError::OutOfRange => {
                f.write_str("secret key: zero or not below the secp256k1 group order")
            }
            #[cfg(feature = "nip19")]
            KeyError::Nip19(e) => write!(f, "secret key: {e}"),
            KeyError::Random(e) => write!(f, "the system random source failed: {e}"),
        }
    }
}

impl std::error::Error for KeyError {}

impl SecretKey {
    /// A fresh key from the operating system's random source.
    ///
    /// ```
    /// let a = ito::nostr::SecretKey::generate()?;
    /// let b = ito::nostr::SecretKey::generate()?;
    /// assert_ne!(a.public_key(), b.public_key());
    /// # Ok::<(), ito::nostr::KeyError>(())
    /// ```
    pub fn generate() -> Result<SecretKey, KeyError> {
        let mut bytes = Zeroizing::new([0u8; 32]);
        loop {
            getrandom::fill(bytes.as_mut()).map_err(KeyError::Random)?;
            // A random 256-bit number is a valid scalar except with
            // probability about 2^-128; draw again then.
            if let Ok(key) = SecretKey::from_bytes(&bytes) {
                return Ok(key);
            }
        }
    }

    /// The key whose scalar is these 32 big-endian bytes.
    ///
    /// ```
    /// use ito::nostr::{KeyError, SecretKey};
    /// assert!(SecretKey::from_bytes(&[1; 32]).is_ok());
    /// assert_eq!(SecretKey::from_bytes(&[0; 32]).unwrap_err(), KeyError::OutOfRange);
    /// ```
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<SecretKey, KeyError> {
        let keypair = Keypair::from_secret_bytes(*bytes).map_err(|_| KeyError::OutOfRange)?;
        let public = keypair.x_only_public_key().0.to_byte_array();
        Ok(SecretKey { keypair, public })
    }

    /// [`SecretKey::from_bytes`] for a slice, which must be 32 bytes long.
    ///
    /// ```
    /// use ito::nostr::{KeyError, SecretKey};
    /// assert_eq!(SecretKey::from_slice(&[1; 31]).unwrap_err(), KeyError::Length { found: 31 });
    /// ```
    pub fn from_slice(bytes: &[u8]) -> Result<SecretKey, KeyError> {
        let array: &[u8; 32] = bytes
            .try_into()
            .map_err(|_| KeyError::Length { found: bytes.len() })?;
        SecretKey::from_bytes(array)
    }

    /// The key from 64 hex digits (either case).
    ///
    /// ```
    /// use ito::nostr::{KeyError, SecretKey};
    /// let hex = "7f7ff03d123792d6ac594bfa67bf6d0c0ab55b6b1fdb6249303fe861f1ccba9a";
    /// assert!(SecretKey::from_hex(hex).is_ok());
    /// assert!(SecretKey::from_hex(&hex.to_uppercase()).is_ok());
    /// let bad = hex.replace('d', "x");
    /// assert_eq!(SecretKey::from_hex(&bad).unwrap_err(), KeyError::HexDigit { offset: 7 });
    /// ```
    pub fn from_hex(hex: &str) -> Result<SecretKey, KeyError> {
        if hex.len() != 64 {
            return Err(KeyError::Length {
                found: hex.chars().count(),
            });
        }
        let mut bytes = Zeroizing::new([0u8; 32]);
        for (i, pair) in hex.as_bytes().chunks_exact(2).enumerate() {
            let digit = |at: usize| {
                (pair[at] as char)
                    .to_digit(16)
                    .map(|d| d as u8)
                    .ok_or(KeyError::HexDigit { offset: 2 * i + at })
            };
            bytes[i] = digit(0)? << 4 | digit(1)?;
        }
        SecretKey::from_bytes(&bytes)
    }

    /// The key from text as people store it: 64 hex digits or (with the
    /// `nip19` feature) an `nsec1…` string, surrounding whitespace ignored.
    /// This is also [`FromStr`](std::str::FromStr).
    ///
    /// ```
    /// use ito::nostr::SecretKey;
    /// let a: SecretKey = "  0000000000000000000000000000000000000000000000000000000000000003\n".parse()?;
    /// # #[cfg(feature = "nip19")] {
    /// let b = SecretKey::parse("nsec1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqps52s3re")?;
    /// assert_eq!(a.public_key(), b.public_key());
    /// # }
    /// # Ok::<(), ito::nostr::KeyError>(())
    /// ```
    pub fn parse(text: &str) -> Result<SecretKey, KeyError> {
        let text = text.trim();
        #[cfg(feature = "nip19")]
        if text
            .as_bytes()
            .get(..5)
            .is_some_and(|p| p.eq_ignore_ascii_case(b"nsec1"))
        {
            let secret = super::nip19::decode_nsec(text).map_err(KeyError::Nip19)?;
            return SecretKey::from_bytes(secret.expose());
        }
        SecretKey::from_hex(text)
    }

    /// The x-only public key (what events carry as `pubkey`).
    ///
    /// ```
    /// let key = ito::nostr::SecretKey::from_bytes(&[1; 32])?;
    /// assert_eq!(key.public_key().len(), 32);
    /// # Ok::<(), ito::nostr::KeyError>(())
    /// ```
    #[inline]
    pub fn public_key(&self) -> [u8; 32] {
        self.public
    }

    /// The public key as 64 lowercase hex digits.
    ///
    /// ```
    /// let key = ito::nostr::SecretKey::from_hex("0000000000000000000000000000000000000000000000000000000000000003")?;
    /// assert_eq!(key.public_key_hex(), "f9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9");
    /// # Ok::<(), ito::nostr::KeyError>(())
    /// ```
    pub fn public_key_hex(&self) -> String {
        crate::hex::encode(&self.public)
    }

    /// The secret scalar's 32 bytes, in a buffer zeroed when dropped (for
    /// storing the key, e.g. as `nsec`).
    ///
    /// ```
    /// let key = ito::nostr::SecretKey::from_bytes(&[7; 32])?;
    /// assert_eq!(*key.secret_bytes(), [7; 32]);
    /// # Ok::<(), ito::nostr::KeyError>(())
    /// ```
    pub fn secret_bytes(&self) -> Zeroizing<[u8; 32]> {
        Zeroizing::new(self.keypair.to_secret_bytes())
    }

    /// A BIP-340 signature over a 32-byte message (an event id) with fresh
    /// auxiliary randomness from the operating system. Should the random
    /// source fail, the auxiliary input is 32 zero bytes, which BIP-340
    /// allows: the nonce is still derived from the key and the message.
    ///
    /// ```
    /// let key = ito::nostr::SecretKey::from_bytes(&[1; 32])?;
    /// let sig = key.sign_hash(&[9; 32]);
    /// assert_ne!(sig, key.sign_hash(&[9; 32])); // fresh randomness each time
    /// # Ok::<(), ito::nostr::KeyError>(())
    /// ```
    pub fn sign_hash(&self, hash: &[u8; 32]) -> [u8; 64] {
        let mut aux = Zeroizing::new([0u8; 32]);
        if getrandom::fill(aux.as_mut()).is_err() {
            aux.fill(0);
        }
        self.sign_hash_with_aux_rand(hash, &aux)
    }

    /// [`SecretKey::sign_hash`] with the caller's auxiliary randomness
    /// (deterministic: for test vectors and reproducible output).
    ///
    /// ```
    /// // BIP-340 test vector 0.
    /// let key = ito::nostr::SecretKey::from_hex("0000000000000000000000000000000000000000000000000000000000000003")?;
    /// let sig = key.sign_hash_with_aux_rand(&[0; 32], &[0; 32]);
    /// assert_eq!(ito::hex::encode(&sig), "e907831f80848d1069a5371b402410364bdf1c5f8307b0084c55f1ce2dca821525f66a4a85ea8b71e482a74f382d2ce5ebeee8fdb2172f477df4900d310536c0");
    /// # Ok::<(), ito::nostr::KeyError>(())
    /// ```
    pub fn sign_hash_with_aux_rand(&self, hash: &[u8; 32], aux_rand: &[u8; 32]) -> [u8; 64] {
        secp256k1::schnorr::sign_with_aux_rand(hash, &self.keypair, aux_rand).to_byte_array()
    }
}

impl Drop for SecretKey {
    fn drop(&mut self) {
        self.keypair.non_secure_erase();
    }
}

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl fmt::Display for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl std::str::FromStr for SecretKey {
    type Err = KeyError;

    fn from_str(s: &str) -> Result<SecretKey, KeyError> {
        SecretKey::parse(s)
    }
}
