//! The identity a server derives its default sno partition and muid medallion from.
//!
//! A standby or clone made with `pg_basebackup` has its source's system identifier (random at
//! initdb). A clone promoted to a primary moves to a new timeline, so the timeline is folded in:
//! timeline 1, every server that was never promoted, keeps the system identifier unchanged (so no
//! existing server's default changes), and each later timeline mixes in a different constant.

/// 2^64 / golden ratio: consecutive timelines land far apart in every folded field.
const TIMELINE_MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// The value the defaults are folded from: the system identifier, with the timeline mixed in.
pub fn server_identity(system_identifier: u64, timeline: u32) -> u64 {
    system_identifier ^ u64::from(timeline.saturating_sub(1)).wrapping_mul(TIMELINE_MIX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{muid, sno};

    #[test]
    fn timeline_1_is_the_system_identifier() {
        assert_eq!(server_identity(0x657a_aba7_09c5_4b87, 1), 0x657a_aba7_09c5_4b87);
        assert_eq!(server_identity(42, 0), 42);
    }

    #[test]
    fn a_promoted_clone_derives_other_defaults_than_its_source() {
        let id = 0x657a_aba7_09c5_4b87;
        for timeline in 2..200u32 {
            let (source, clone) = (server_identity(id, 1), server_identity(id, timeline));
            assert_ne!(sno::partition_from_system_identifier(source), sno::partition_from_system_identifier(clone));
            assert_ne!(muid::medallion_from_system_identifier(source), muid::medallion_from_system_identifier(clone));
        }
    }
}
