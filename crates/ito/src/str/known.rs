//! [`Known`]: what is known about a string's two facts, each of which may be
//! known true, known false, or not known yet.
//!
//! ```text
//! bit   3         2          1         0
//!       SAFE_NO   ASCII_NO   SAFE_YES  ASCII_YES
//! ```
//!
//! A fact is known true when its `YES` bit is set, known false when its
//! `NO` bit is set, and unknown when neither is (both never are). The
//! all-zero byte is "nothing known", which is what a fresh heap header
//! holds; the fully known value `f` (a `simd::facts` result) is
//! `f | (!f & 3) << 2`, so "ASCII and JSON safe, known" is `facts::ALL`.
//!
//! Concatenation is a three-valued AND per fact: the result is known true
//! when every piece is known true, and known false as soon as one piece is
//! known false, whatever the others are:
//!
//! ```text
//! and(a, b) = (a & b & YES) | ((a | b) & NO)
//! ```
//!
//! Learning is a union (`a | b`): every value ever stored is true of the
//! same immutable bytes, so knowledge from two sources never conflicts.

use crate::simd::facts;

/// What is known about a string's facts (see the module doc).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Known(u8);

const YES: u8 = facts::ALL;
const NO: u8 = facts::ALL << 2;

impl Known {
    /// Nothing known.
    pub(crate) const UNKNOWN: Known = Known(0);

    /// Both facts known, with the values `f` (`facts::ASCII | facts::JSON_SAFE`
    /// bits).
    #[inline(always)]
    pub(crate) const fn all(f: u8) -> Known {
        let f = f & YES;
        Known(f | (!f & YES) << 2)
    }

    /// Only the JSON-safe fact known, with the value `safe`.
    #[inline(always)]
    pub(crate) const fn json_safe(safe: bool) -> Known {
        Known(if safe {
            facts::JSON_SAFE
        } else {
            facts::JSON_SAFE << 2
        })
    }

    /// The raw byte (what the heap header stores).
    #[inline(always)]
    pub(crate) const fn bits(self) -> u8 {
        self.0
    }

    /// From a byte made by [`Known::bits`].
    #[inline(always)]
    pub(crate) const fn from_bits(b: u8) -> Known {
        debug_assert!(b & !(YES | NO) == 0 && b & (b >> 2) == 0);
        Known(b)
    }

    /// The concatenation of strings with these facts (three-valued AND).
    #[inline(always)]
    pub(crate) const fn and(self, o: Known) -> Known {
        Known((self.0 & o.0 & YES) | ((self.0 | o.0) & NO))
    }

    /// Both pieces of knowledge about the same bytes (a union).
    #[inline(always)]
    pub(crate) const fn learn(self, o: Known) -> Known {
        Known(self.0 | o.0)
    }

    /// The value of `fact` (`facts::ASCII` or `facts::JSON_SAFE`), if known.
    #[inline(always)]
    pub(crate) const fn get(self, fact: u8) -> Option<bool> {
        if self.0 & fact != 0 {
            Some(true)
        } else if self.0 & (fact << 2) != 0 {
            Some(false)
        } else {
            None
        }
    }

    /// The values of both facts, when both are known.
    #[cfg(test)]
    #[inline(always)]
    pub(crate) const fn complete(self) -> Option<u8> {
        if (self.0 | self.0 >> 2) & YES == YES {
            Some(self.0 & YES)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair of the nine states against the per-fact definition.
    #[test]
    fn and_and_learn_are_three_valued() {
        let per_fact = [None, Some(false), Some(true)];
        let mk = |a: Option<bool>, s: Option<bool>| {
            let part = |v: Option<bool>, fact: u8| match v {
                None => 0,
                Some(true) => fact,
                Some(false) => fact << 2,
            };
            Known(part(a, facts::ASCII) | part(s, facts::JSON_SAFE))
        };
        let and3 = |x: Option<bool>, y: Option<bool>| match (x, y) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        };
        for a1 in per_fact {
            for s1 in per_fact {
                let k1 = mk(a1, s1);
                assert_eq!(Known::from_bits(k1.bits()), k1);
                assert_eq!(k1.get(facts::ASCII), a1);
                assert_eq!(k1.get(facts::JSON_SAFE), s1);
                for a2 in per_fact {
                    for s2 in per_fact {
                        let k2 = mk(a2, s2);
                        let want = mk(and3(a1, a2), and3(s1, s2));
                        assert_eq!(k1.and(k2), want, "{k1:?} and {k2:?}");
                    }
                }
            }
        }
        for f in 0..=facts::ALL {
            let k = Known::all(f);
            assert_eq!(k.complete(), Some(f));
            assert_eq!(Known::UNKNOWN.learn(k), k);
            assert_eq!(Known::json_safe(f & facts::JSON_SAFE != 0).learn(k), k);
            assert_eq!(Known::json_safe(true).complete(), None);
        }
        assert_eq!(Known::all(facts::ALL).bits(), facts::ALL);
        assert_eq!(Known::UNKNOWN.complete(), None);
    }
}
