//! NIP-19's type-length-value records: one byte of type, one byte of length,
//! then the value. Types: 0 special (a pubkey, an event id or an
//! identifier), 1 relay, 2 author, 3 kind (32-bit big-endian). Readers skip
//! types they do not know, so later NIPs can add records.

use super::Error;

/// One record: its type, its value, and its offset in the payload.
pub(super) struct Record<'a> {
    pub(super) tlv_type: u8,
    pub(super) value: &'a [u8],
    pub(super) offset: usize,
}

impl Record<'_> {
    /// The value, which must be exactly `N` bytes.
    pub(super) fn array<const N: usize>(&self) -> Result<[u8; N], Error> {
        self.value.try_into().map_err(|_| Error::TlvLength {
            offset: self.offset,
            tlv_type: self.tlv_type,
            expected: N,
            found: self.value.len(),
        })
    }

    /// The value as UTF-8 text.
    pub(super) fn text(&self) -> Result<String, Error> {
        String::from_utf8(self.value.to_vec()).map_err(|_| Error::TlvUtf8 {
            offset: self.offset,
            tlv_type: self.tlv_type,
        })
    }
}

/// The records of `payload`, in order; an error if one runs past the end.
pub(super) fn records(payload: &[u8]) -> impl Iterator<Item = Result<Record<'_>, Error>> {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= payload.len() {
            return None;
        }
        let offset = at;
        let record = match (payload.get(at), payload.get(at + 1)) {
            (Some(&tlv_type), Some(&len)) => {
                payload
                    .get(at + 2..at + 2 + len as usize)
                    .map(|value| Record {
                        tlv_type,
                        value,
                        offset,
                    })
            }
            _ => None,
        };
        match record {
            Some(r) => {
                at += 2 + r.value.len();
                Some(Ok(r))
            }
            None => {
                at = payload.len();
                Some(Err(Error::TlvTruncated { offset }))
            }
        }
    })
}

/// Appends one record.
pub(super) fn write(dst: &mut Vec<u8>, tlv_type: u8, value: &[u8]) -> Result<(), Error> {
    let len = u8::try_from(value.len()).map_err(|_| Error::TlvTooLong {
        tlv_type,
        length: value.len(),
    })?;
    dst.extend_from_slice(&[tlv_type, len]);
    dst.extend_from_slice(value);
    Ok(())
}
