//! The identity a server derives its default sno partition and muid medallion from.
//!
//! A standby or clone made with `pg_basebackup`, a `cp -a` of a data directory or a disk snapshot
//! has its source's system identifier (random at initdb), and often its timeline too. So a number
//! drawn at random at every server start is mixed in: every copy differs from its source once it
//! has started, as upstream sno's default partition changes across restarts. The system identifier
//! and the timeline stay in, so that a promoted clone differs even were the draw to repeat.

/// 2^64 / golden ratio: consecutive timelines land far apart in every folded field.
const TIMELINE_MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// The value the defaults are folded from: the system identifier, with the timeline and this
/// server start's random draw mixed in.
pub fn server_identity(system_identifier: u64, timeline: u32, start_nonce: u64) -> u64 {
    system_identifier ^ u64::from(timeline.saturating_sub(1)).wrapping_mul(TIMELINE_MIX) ^ start_nonce
}

/// Where a data directory lives: its inode and the machine's id (`/etc/machine-id`, 0 if none). A
/// `cp -a`, a `pg_basebackup` or a restored file-level backup makes a new directory (a new inode),
/// and a disk image started on another machine has another machine id; a block-level clone on the
/// same machine keeps both, and is not told apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    pub inode: u64,
    pub machine: u128,
}

/// The record in `comb_ext/origin`: where the data directory was when a generator last ran, and,
/// once it has been found elsewhere (a copy), when that was first seen (unix µs) until an
/// operator has changed the configuration since.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OriginRecord {
    pub origin: Origin,
    pub copied_at: Option<i64>,
}

const ORIGIN_VERSION: &str = "origin v1";

impl OriginRecord {
    pub fn to_text(&self) -> String {
        let copied = self.copied_at.map(|t| format!(" copied-at {t}")).unwrap_or_default();
        format!("{ORIGIN_VERSION} {} {:032x}{copied}\n", self.origin.inode, self.origin.machine)
    }

    /// The record in a file's text, or None if it is not exactly what `to_text` writes.
    pub fn from_text(text: &str) -> Option<OriginRecord> {
        let fields: Vec<&str> =
            text.strip_suffix('\n')?.strip_prefix(ORIGIN_VERSION)?.strip_prefix(' ')?.split(' ').collect();
        let inode: u64 = fields.first()?.parse().ok().filter(|n: &u64| n.to_string() == fields[0])?;
        let machine = fields.get(1).filter(|m| m.len() == 32).and_then(|m| u128::from_str_radix(m, 16).ok())?;
        let copied_at = match fields.get(2..)? {
            [] => None,
            ["copied-at", t] => Some(t.parse().ok().filter(|n: &i64| n.to_string() == *t)?),
            _ => return None,
        };
        Some(OriginRecord { origin: Origin { inode, machine }, copied_at })
    }

    /// The record to keep when the data directory is at `here` at `now` (unix µs): the same,
    /// or, found elsewhere, `here` with the time the copy was first seen.
    pub fn seen_at(&self, here: Origin, now: i64) -> OriginRecord {
        if self.origin == here {
            *self
        } else {
            OriginRecord { origin: here, copied_at: Some(self.copied_at.unwrap_or(now)) }
        }
    }
}

/// A machine id's 32 hex digits (`/etc/machine-id`), or 0.
pub fn machine_id(text: &str) -> u128 {
    let text = text.trim();
    if text.len() == 32 {
        u128::from_str_radix(text, 16).unwrap_or(0)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{muid, sno};

    #[test]
    fn timeline_1_and_no_draw_is_the_system_identifier() {
        assert_eq!(server_identity(0x657a_aba7_09c5_4b87, 1, 0), 0x657a_aba7_09c5_4b87);
        assert_eq!(server_identity(42, 0, 0), 42);
        assert_eq!(server_identity(42, 1, 7), 42 ^ 7);
    }

    #[test]
    fn copies_on_one_timeline_differ_by_their_draws() {
        let id = 0x657a_aba7_09c5_4b87;
        let (source, copy) =
            (server_identity(id, 1, 0x1234_5678_9abc_def0), server_identity(id, 1, 0x1234_5678_9abc_def1));
        assert_ne!(sno::partition_from_system_identifier(source), sno::partition_from_system_identifier(copy));
        assert_ne!(muid::medallion_from_system_identifier(source), muid::medallion_from_system_identifier(copy));
    }

    #[test]
    fn origin_records_round_trip_and_a_copy_is_remembered_from_when_it_was_first_seen() {
        let here = Origin { inode: 1234, machine: 0xabc };
        let there = Origin { inode: 99, machine: 0xabc };
        let record = OriginRecord { origin: here, copied_at: None };
        assert_eq!(record.to_text(), "origin v1 1234 00000000000000000000000000000abc\n");
        for r in [record, OriginRecord { origin: there, copied_at: Some(1_700_000_000) }] {
            assert_eq!(OriginRecord::from_text(&r.to_text()), Some(r));
        }
        for bad in [
            "",
            "origin v1 1234\n",
            "origin v1 01234 00000000000000000000000000000abc\n",
            "origin v1 1234 abc\n",
            "origin v1 1234 00000000000000000000000000000abc copied-at\n",
            "origin v1 1234 00000000000000000000000000000abc copied-at 5 6\n",
            "origin v2 1234 00000000000000000000000000000abc\n",
        ] {
            assert_eq!(OriginRecord::from_text(bad), None, "{bad:?}");
        }
        assert_eq!(record.seen_at(here, 50), record);
        let copied = record.seen_at(there, 50);
        assert_eq!(copied, OriginRecord { origin: there, copied_at: Some(50) });
        // Started again, and copied again: the first sighting stays.
        assert_eq!(copied.seen_at(there, 80), copied);
        assert_eq!(copied.seen_at(here, 90).copied_at, Some(50));
        assert_eq!(machine_id("0123456789abcdef0123456789abcdef\n"), 0x0123456789abcdef0123456789abcdef);
        assert_eq!(machine_id("nonsense"), 0);
    }

    #[test]
    fn a_promoted_clone_derives_other_defaults_than_its_source() {
        let id = 0x657a_aba7_09c5_4b87;
        for timeline in 2..200u32 {
            let (source, clone) = (server_identity(id, 1, 99), server_identity(id, timeline, 99));
            assert_ne!(sno::partition_from_system_identifier(source), sno::partition_from_system_identifier(clone));
            assert_ne!(muid::medallion_from_system_identifier(source), muid::medallion_from_system_identifier(clone));
        }
    }
}
