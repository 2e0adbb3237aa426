//! The identity a server derives its default sno partition and muid medallion from.
//!
//! A standby or clone made with `pg_basebackup`, a `cp -a` of a data directory or a disk snapshot
//! has its source's system identifier (random at initdb), and often its timeline too. So a number
//! drawn at random at every server start is mixed in: every copy differs from its source once it
//! has started, as upstream sno's default partition changes across restarts. The system identifier
//! and the timeline stay in, so that a promoted clone differs even were the draw to repeat.

use std::collections::BTreeSet;

/// 2^64 / golden ratio: consecutive timelines land far apart in every folded field.
const TIMELINE_MIX: u64 = 0x9E37_79B9_7F4A_7C15;

/// The value the defaults are folded from: the system identifier, with the timeline and this
/// server start's random draw mixed in.
pub fn server_identity(system_identifier: u64, timeline: u32, start_nonce: u64) -> u64 {
    system_identifier ^ u64::from(timeline.saturating_sub(1)).wrapping_mul(TIMELINE_MIX) ^ start_nonce
}

/// Where a data directory lives: its inode, its birth time and the machine's id (`/etc/machine-id`, 0 if
/// none). A `cp -a`, a `pg_basebackup` or a restored file-level backup makes a new directory: a new birth
/// time, which no copying tool can set, on any volume (a fresh file system gives the copy the source's inode
/// number: the first directories made on two new ext4 volumes are alike). A disk image started on another
/// machine has another machine id. A block-level clone keeps all three, and is not told apart
/// (docs/guarantees.md, the copy signals).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    pub inode: u64,
    pub machine: u128,
    /// The directory's birth time (statx's btime), ns since 1970; 0 where the file system keeps none, or
    /// in a record written before it was kept (0.5.0's origin, identity v1).
    pub born: u64,
}

impl Origin {
    /// The same directory: the same inode and machine, and the same birth time where both sides know it.
    pub fn same_as(&self, other: &Origin) -> bool {
        self.inode == other.inode
            && self.machine == other.machine
            && (self.born == 0 || other.born == 0 || self.born == other.born)
    }
}

/// The record 0.5.0 kept in `comb_ext/origin`: where the data directory was when `uid8_new` last
/// ran, and, once it had been found elsewhere (a copy), when that was first seen (unix µs). Read
/// once, into an `IdentityRecord`, by a server moved on from 0.5.0.
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
        Some(OriginRecord { origin: Origin { inode, machine, born: 0 }, copied_at })
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

/// Where a server runs: its data directory's origin, its system identifier and its WAL timeline. A
/// copy of a data directory changes the origin (a `cp -a`, a restored backup, an image on another
/// machine), a `pg_upgrade` the system identifier, a promotion the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub origin: Origin,
    pub system_identifier: u64,
    pub timeline: u32,
}

impl Place {
    /// The same place: the same directory (`Origin::same_as`), system identifier and timeline.
    pub fn same_as(&self, other: &Place) -> bool {
        self.origin.same_as(&other.origin)
            && self.system_identifier == other.system_identifier
            && self.timeline == other.timeline
    }
}

/// The settings that set one server's ids apart from another's, in `IdentityRecord`'s order.
pub const IDENTITY_SETTINGS: [&str; 3] = ["comb_ext.sno_partition", "comb_ext.medallion", "comb_ext.uid8_cluster_id"];

/// A setting as a check sees it: a digest of its value, and whether a copy must not go on with it
/// (an explicit sno partition or medallion; uid8's cluster id always: 16 values, none drawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdentitySetting {
    pub digest: u64,
    pub must_change_on_copy: bool,
}

impl IdentitySetting {
    /// A setting whose value, as a number (`'0x10'` and `'16'` are one medallion), is `value`.
    pub fn of(value: i64, must_change_on_copy: bool) -> IdentitySetting {
        IdentitySetting { digest: setting_digest(&value.to_string()), must_change_on_copy }
    }
}

/// FNV-1a of a setting's value as text: the record compares values, it does not keep them.
pub fn setting_digest(value: &str) -> u64 {
    value.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The record in `comb_ext/identity`: the place the identity settings were last checked at, and
/// for each setting, the digests of every value it had on the server when a copy or promotion was
/// first seen there (the session's, the configuration files', each database's and role's). While the
/// place stays the same, the setting is refused in any backend whose value has one of those
/// digests: only a value set after the copy or promotion was seen is accepted, not a configuration
/// file's time, and a session, role or database still at one of the source's values is refused
/// even once another one has been set apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdentityRecord {
    pub place: Place,
    pub copied: [BTreeSet<u64>; 3],
}

/// v3 keeps every value a setting had (digests joined by commas); v2 kept one, the checking session's,
/// and v1 (earlier 0.6.0 builds) had no birth time either (read with 0 there).
const IDENTITY_VERSION: &str = "identity v3";
const IDENTITY_VERSION_2: &str = "identity v2";
const IDENTITY_VERSION_1: &str = "identity v1";

impl IdentityRecord {
    pub fn to_text(&self) -> String {
        let copied = self.copied.each_ref().map(|digests| {
            if digests.is_empty() {
                "-".to_string()
            } else {
                digests.iter().map(|d| format!("{d:016x}")).collect::<Vec<_>>().join(",")
            }
        });
        format!(
            "{IDENTITY_VERSION} {} {} {:032x} {} {} {}\n",
            self.place.origin.inode,
            self.place.origin.born,
            self.place.origin.machine,
            self.place.system_identifier,
            self.place.timeline,
            copied.join(" ")
        )
    }

    /// The record in a file's text, or None if it is not exactly what `to_text` writes (or a v2 or v1
    /// record: one digest per setting at most).
    pub fn from_text(text: &str) -> Option<IdentityRecord> {
        fn number<T: std::str::FromStr + ToString>(field: &str) -> Option<T> {
            field.parse().ok().filter(|n: &T| n.to_string() == field)
        }
        let line = text.strip_suffix('\n')?;
        // The fields past the birth time, the birth time, and how many digests a setting may have: v3 and
        // v2 have the birth time second, v1 none (0); v3 lists digests, v2 and v1 kept one.
        let with_birth_time = |rest: &str, most: usize| -> Option<(Vec<String>, u64, usize)> {
            let mut fields: Vec<String> = rest.strip_prefix(' ')?.split(' ').map(str::to_string).collect();
            if fields.len() != 8 {
                return None;
            }
            let born = number(&fields.remove(1))?;
            Some((fields, born, most))
        };
        let (fields, born, most) = if let Some(rest) = line.strip_prefix(IDENTITY_VERSION) {
            with_birth_time(rest, usize::MAX)?
        } else if let Some(rest) = line.strip_prefix(IDENTITY_VERSION_2) {
            with_birth_time(rest, 1)?
        } else {
            let fields = line.strip_prefix(IDENTITY_VERSION_1)?.strip_prefix(' ')?.split(' ').map(str::to_string);
            (fields.collect(), 0, 1)
        };
        if fields.len() != 7 {
            return None;
        }
        let machine = Some(&fields[1]).filter(|m| m.len() == 32).and_then(|m| u128::from_str_radix(m, 16).ok())?;
        let place = Place {
            origin: Origin { inode: number(&fields[0])?, machine, born },
            system_identifier: number(&fields[2])?,
            timeline: number(&fields[3])?,
        };
        let mut copied: [BTreeSet<u64>; 3] = Default::default();
        for (digests, field) in copied.iter_mut().zip(&fields[4..]) {
            if field == "-" {
                continue;
            }
            let listed: Vec<&str> = field.split(',').collect();
            if listed.len() > most {
                return None;
            }
            for digest in listed {
                // Written in ascending order, each once, 16 hex digits.
                let value = Some(digest).filter(|d| d.len() == 16).and_then(|d| u64::from_str_radix(d, 16).ok())?;
                if digests.last().is_some_and(|&last| last >= value) {
                    return None;
                }
                digests.insert(value);
            }
        }
        Some(IdentityRecord { place, copied })
    }
}

/// What a data directory holds of earlier identity checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Past {
    /// No check ran here: the extension is being created (or was made by a version that kept no
    /// record), so the place is taken as it is.
    FirstCheck,
    /// The extension's catalog says a version that keeps the record created or updated it, but
    /// `comb_ext/identity` is not there: the server's files were not carried with its catalog
    /// (`pg_upgrade`, a restore of the catalog without `comb_ext/`), so where it ran before is
    /// unknown, and it is taken as found elsewhere.
    Lost,
    Checked(IdentityRecord),
}

/// Whether the extension at `version` (`pg_extension.extversion`) has a record on disk: from 0.6.0
/// on, `CREATE EXTENSION` and `ALTER EXTENSION UPDATE` write it (0.5.0 wrote `comb_ext/origin`
/// only when `uid8_new` ran, earlier versions nothing).
pub fn version_keeps_record(version: &str) -> bool {
    !["0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0"].contains(&version)
}

/// A running server that holds an identity value on this machine (`server::live_copies`): its
/// postmaster's pid, the start time its `postmaster.pid` gives (the third line), and its data
/// directory. A copy that no signal tells from its source (a block-level clone started on the same
/// machine) still runs beside it as another postmaster with another data directory path, so the one
/// that holds a value refuses it to the other while it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveHolder {
    pub pid: u32,
    pub started: String,
    pub data_directory: String,
}

impl LiveHolder {
    /// `holder v1 <pid> <start time> <data directory>`: the directory last, as it may hold spaces.
    pub fn to_text(&self) -> String {
        format!("holder v1 {} {} {}\n", self.pid, self.started, self.data_directory)
    }

    pub fn from_text(text: &str) -> Option<LiveHolder> {
        let line = text.strip_suffix('\n')?;
        let rest = line.strip_prefix("holder v1 ")?;
        let (pid, rest) = rest.split_once(' ')?;
        let (started, data_directory) = rest.split_once(' ')?;
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        if !digits(pid) || !digits(started) || !data_directory.starts_with('/') || data_directory.contains('\n') {
            return None;
        }
        Some(LiveHolder {
            pid: pid.parse().ok()?,
            started: started.to_string(),
            data_directory: data_directory.to_string(),
        })
    }
}

/// Who holds an identity value on this machine, as the registry file says.
#[derive(Debug, PartialEq, Eq)]
pub enum Holding {
    /// No one, or a server that no longer runs (or a record that cannot be read): this server takes it.
    Free,
    /// This server.
    Ours,
    /// Another server that runs now: the value is refused here while it does.
    Other(LiveHolder),
}

/// Who holds the value whose registry file holds `recorded`, for the server `me`; `runs` says
/// whether a recorded server still runs (its pid alive and its `postmaster.pid` naming it).
pub fn holding(recorded: Option<&str>, me: &LiveHolder, runs: impl FnOnce(&LiveHolder) -> bool) -> Holding {
    match recorded.and_then(LiveHolder::from_text) {
        Some(holder) if &holder == me => Holding::Ours,
        Some(holder) if runs(&holder) => Holding::Other(holder),
        _ => Holding::Free,
    }
}

/// The name of the registry file for one identity value of the server with `system_identifier`.
pub fn holder_file_name(system_identifier: u64, setting: usize, digest: u64) -> String {
    format!("{system_identifier:016x}-{setting}-{digest:016x}")
}

/// What the identity settings' check decides at `here` with the settings as this session has them:
/// the record to keep, and which settings are refused. A first check takes the place as it is. At the
/// recorded place, a setting is refused while its value is one it had when the copy or promotion was
/// seen. At another place (a copy, an upgrade, a promotion), or with the record lost, every value a
/// setting has on the server that a copy must not go on with is recorded, and refused: the session's,
/// and those `everywhere` gives (the configuration files', each database's and role's), asked only then.
pub fn check_identity(
    past: Past,
    here: Place,
    settings: [IdentitySetting; 3],
    everywhere: impl FnOnce() -> [Vec<IdentitySetting>; 3],
) -> (IdentityRecord, [bool; 3]) {
    let copied = match past {
        Past::FirstCheck => Default::default(),
        Past::Checked(record) if record.place.same_as(&here) => record.copied,
        Past::Checked(_) | Past::Lost => {
            let mut everywhere = everywhere();
            std::array::from_fn(|i| {
                everywhere[i].push(settings[i]);
                everywhere[i].iter().filter(|s| s.must_change_on_copy).map(|s| s.digest).collect()
            })
        }
    };
    let refused = std::array::from_fn(|i| copied[i].contains(&settings[i].digest));
    (IdentityRecord { place: here, copied }, refused)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{muid, sno};

    #[test]
    fn holder_records_round_trip_and_bad_ones_are_none() {
        let holder = LiveHolder { pid: 4242, started: "1795852468".into(), data_directory: "/mnt/a b/data".into() };
        assert_eq!(holder.to_text(), "holder v1 4242 1795852468 /mnt/a b/data\n");
        assert_eq!(LiveHolder::from_text(&holder.to_text()), Some(holder));
        for bad in [
            "",
            "holder v1 4242 1795852468 /d",
            "holder v2 4242 1795852468 /d\n",
            "holder v1 -1 1795852468 /d\n",
            "holder v1 4242 x /d\n",
            "holder v1 4242 1795852468 relative\n",
            "holder v1 4242 1795852468\n",
            "holder v1 99999999999 1795852468 /d\n",
        ] {
            assert_eq!(LiveHolder::from_text(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_value_is_refused_only_while_another_server_that_holds_it_runs() {
        let me = LiveHolder { pid: 10, started: "100".into(), data_directory: "/clone".into() };
        let source = LiveHolder { pid: 20, started: "90".into(), data_directory: "/source".into() };
        let text = source.to_text();
        assert_eq!(holding(None, &me, |_| unreachable!()), Holding::Free);
        assert_eq!(holding(Some(&me.to_text()), &me, |_| unreachable!()), Holding::Ours);
        assert_eq!(holding(Some(&text), &me, |h| h == &source), Holding::Other(source.clone()));
        // Stopped, crashed, or its pid now another process's: this server takes the value.
        assert_eq!(holding(Some(&text), &me, |_| false), Holding::Free);
        // A record that cannot be read names no one.
        assert_eq!(holding(Some("garbage"), &me, |_| true), Holding::Free);
        // This server restarted: the same directory, another start; the old run is gone.
        let restarted = LiveHolder { started: "200".into(), ..me.clone() };
        assert_eq!(holding(Some(&me.to_text()), &restarted, |_| false), Holding::Free);
    }

    #[test]
    fn each_value_of_each_setting_of_each_server_has_its_own_file() {
        let names = [
            holder_file_name(1, 2, 0),
            holder_file_name(2, 2, 0),
            holder_file_name(1, 1, 0),
            holder_file_name(1, 2, 1),
        ];
        assert_eq!(names.iter().collect::<BTreeSet<_>>().len(), 4);
        assert_eq!(holder_file_name(0x657a_aba7_09c5_4b87, 2, 255), "657aaba709c54b87-2-00000000000000ff");
    }

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
    fn origin_records_round_trip() {
        let here = Origin { inode: 1234, machine: 0xabc, born: 0 };
        let there = Origin { inode: 99, machine: 0xabc, born: 0 };
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

    fn digests<const N: usize>(values: [u64; N]) -> BTreeSet<u64> {
        values.into_iter().collect()
    }

    #[test]
    fn identity_records_round_trip() {
        let origin = Origin { inode: 77, machine: 0xabc, born: 1_795_830_430_004_733_161 };
        let place = Place { origin, system_identifier: 7_000_000_000, timeline: 3 };
        for copied in [
            Default::default(),
            [digests([1]), digests([]), digests([u64::MAX])],
            [digests([3, 1, 2]), digests([0]), digests([])],
        ] {
            let record = IdentityRecord { place, copied };
            assert_eq!(IdentityRecord::from_text(&record.to_text()), Some(record));
        }
        assert_eq!(
            IdentityRecord { place, copied: [digests([]), digests([0x1f, 0x2]), digests([])] }.to_text(),
            "identity v3 77 1795830430004733161 00000000000000000000000000000abc 7000000000 3 - 0000000000000002,000000000000001f -\n"
        );
        // Earlier 0.6.0 builds wrote v2, one digest per setting, and v1, without the birth time either (0).
        assert_eq!(
            IdentityRecord::from_text(
                "identity v2 77 1795830430004733161 00000000000000000000000000000abc 7000000000 3 - 000000000000001f -\n"
            ),
            Some(IdentityRecord { place, copied: [digests([]), digests([0x1f]), digests([])] })
        );
        assert_eq!(
            IdentityRecord::from_text(
                "identity v1 77 00000000000000000000000000000abc 7000000000 3 - 000000000000001f -\n"
            ),
            Some(IdentityRecord {
                place: Place { origin: Origin { born: 0, ..origin }, ..place },
                copied: [digests([]), digests([0x1f]), digests([])]
            })
        );
        for bad in [
            "",
            "identity v1 77 00000000000000000000000000000abc 7000000000 3 - - \n",
            "identity v1 77 00000000000000000000000000000abc 7000000000 3 - -\n",
            "identity v1 077 00000000000000000000000000000abc 7000000000 3 - - -\n",
            "identity v1 77 00000000000000000000000000000abc 7000000000 3 - 1f -\n",
            "identity v1 77 5 00000000000000000000000000000abc 7000000000 3 - - -\n",
            "identity v1 77 00000000000000000000000000000abc 7000000000 3 - 0000000000000001,0000000000000002 -\n",
            "identity v2 77 00000000000000000000000000000abc 7000000000 3 - - -\n",
            "identity v2 77 05 00000000000000000000000000000abc 7000000000 3 - - -\n",
            "identity v2 77 -5 00000000000000000000000000000abc 7000000000 3 - - -\n",
            "identity v2 77 5 00000000000000000000000000000abc 7000000000 3 - 0000000000000001,0000000000000002 -\n",
            "identity v3 77 5 00000000000000000000000000000abc 7000000000 3 - 0000000000000002,0000000000000001 -\n",
            "identity v3 77 5 00000000000000000000000000000abc 7000000000 3 - 0000000000000001,0000000000000001 -\n",
            "identity v3 77 5 00000000000000000000000000000abc 7000000000 3 - 0000000000000001, -\n",
            "identity v3 77 5 00000000000000000000000000000abc 7000000000 3 - ,0000000000000001 -\n",
            "identity v3 77 5 00000000000000000000000000000abc 7000000000 3 - - - -\n",
            "identity v4 77 5 00000000000000000000000000000abc 7000000000 3 - - -\n",
        ] {
            assert_eq!(IdentityRecord::from_text(bad), None, "{bad:?}");
        }
    }

    /// No other value of the settings anywhere (no database or role sets its own, the files none).
    fn nowhere() -> [Vec<IdentitySetting>; 3] {
        Default::default()
    }

    #[test]
    fn a_copy_is_refused_until_the_setting_is_set_after_it_was_seen() {
        let source = Place { origin: Origin { inode: 1, machine: 9, born: 1_000 }, system_identifier: 5, timeline: 1 };
        let copy = Place { origin: Origin { inode: 2, ..source.origin }, ..source };
        // A copy on a fresh volume: the source's inode number, a new birth time.
        let copy_on_a_new_volume = Place { origin: Origin { born: 2_000, ..source.origin }, ..source };
        let promoted = Place { timeline: 2, ..source };
        let upgraded = Place { system_identifier: 6, ..source };
        let uid8 = |value: &str| IdentitySetting { digest: setting_digest(value), must_change_on_copy: true };
        let derived = |value: &str| IdentitySetting { digest: setting_digest(value), must_change_on_copy: false };
        let settings = |cluster: &str| [derived("-1"), derived(""), uid8(cluster)];
        // A first check takes the place as it is; the source goes on.
        let (first, refused) = check_identity(Past::FirstCheck, source, settings("-1"), nowhere);
        assert_eq!((&first, refused), (&IdentityRecord { place: source, copied: Default::default() }, [false; 3]));
        assert_eq!(
            check_identity(Past::Checked(first.clone()), source, settings("-1"), nowhere),
            (first.clone(), [false; 3])
        );
        for past in [Past::Checked(first.clone()), Past::Lost] {
            for elsewhere in [copy, copy_on_a_new_volume, promoted, upgraded] {
                // Found elsewhere: refused at the value it has, even one set on the source before the copy.
                for value in ["-1", "3"] {
                    let (seen, refused) = check_identity(past.clone(), elsewhere, settings(value), nowhere);
                    assert_eq!(refused, [false, false, true]);
                    assert_eq!(seen.place, elsewhere);
                    // Nothing but another value lifts it: restarts, and other settings' changes, do not.
                    let (again, refused) = check_identity(
                        Past::Checked(seen.clone()),
                        elsewhere,
                        [uid8("77"), derived("x"), uid8(value)],
                        nowhere,
                    );
                    assert_eq!(refused, [false, false, true]);
                    assert_eq!(again.copied[2], seen.copied[2]);
                    let (lifted, refused) = check_identity(Past::Checked(again), elsewhere, settings("12"), nowhere);
                    assert_eq!(refused, [false; 3]);
                    // A backend still at the copied value (a session's SET, a database's or role's
                    // setting, or the value set back) is refused, after another was accepted too.
                    let (back, refused) = check_identity(Past::Checked(lifted), elsewhere, settings(value), nowhere);
                    assert_eq!((back, refused), (seen, [false, false, true]));
                }
            }
        }
        // Explicit sno partitions and medallions must change on a copy too; derived ones differ by themselves.
        let explicit = [uid8("5"), uid8("42"), uid8("1")];
        assert_eq!(check_identity(Past::Checked(first), copy, explicit, nowhere).1, [true, true, true]);
        assert_eq!(check_identity(Past::Lost, source, explicit, nowhere).1, [true, true, true]);
    }

    #[test]
    fn a_copy_records_every_value_the_settings_have_on_the_server() {
        let source = Place { origin: Origin { inode: 1, machine: 9, born: 1_000 }, system_identifier: 5, timeline: 1 };
        let copy = Place { origin: Origin { born: 2_000, ..source.origin }, ..source };
        let explicit = |value: i64| IdentitySetting::of(value, true);
        let derived = IdentitySetting::of(-1, false);
        let first = IdentityRecord { place: source, copied: Default::default() };
        // The configuration file's medallion 100 and sno partition 21, database b's medallion 200, a role's
        // uid8 cluster id 7; a derived sno partition in another database (not recorded: it differs by itself).
        let everywhere = || [vec![explicit(21), derived], vec![explicit(100), explicit(200)], vec![explicit(7)]];
        // The first session to see the copy has derived values (and uid8's derived 0): every explicit value
        // elsewhere is recorded all the same.
        let (seen, refused) =
            check_identity(Past::Checked(first.clone()), copy, [derived, derived, explicit(0)], everywhere);
        assert_eq!(refused, [false, false, true]);
        assert_eq!(
            seen.copied.each_ref().map(|d| d.len()),
            [1, 2, 2],
            "the partition 21, the medallions 100 and 200, the cluster ids 0 and 7"
        );
        // Then each database and role is refused at its own value, until it is set apart.
        for (settings, expected) in [
            ([explicit(21), explicit(200), explicit(7)], [true, true, true]),
            ([explicit(21), explicit(100), explicit(3)], [true, true, false]),
            ([explicit(22), explicit(201), explicit(0)], [false, false, true]),
            ([derived, derived, explicit(8)], [false, false, false]),
        ] {
            // At the recorded place, the values everywhere are not asked again.
            let (kept, refused) = check_identity(Past::Checked(seen.clone()), copy, settings, || unreachable!());
            assert_eq!((&kept, refused), (&seen, expected), "{settings:?}");
        }
        // Nothing is asked at a first check, or at the place of the record.
        check_identity(Past::FirstCheck, copy, [derived, derived, explicit(0)], || unreachable!());
        check_identity(Past::Checked(first), source, [derived, derived, explicit(0)], || unreachable!());
    }

    #[test]
    fn a_birth_time_missing_on_either_side_does_not_make_a_copy() {
        // A record from before birth times were kept (0.5.0's origin, identity v1), or a file system that
        // keeps none: the inode and machine decide, as before; the record then takes the time it has now.
        let now = Place { origin: Origin { inode: 1, machine: 9, born: 1_000 }, system_identifier: 5, timeline: 1 };
        let unknown = Place { origin: Origin { born: 0, ..now.origin }, ..now };
        let settings = [IdentitySetting::of(7, true); 3];
        for (recorded, here) in [(unknown, now), (now, unknown)] {
            let record = IdentityRecord { place: recorded, copied: Default::default() };
            let (kept, refused) = check_identity(Past::Checked(record), here, settings, nowhere);
            assert_eq!((kept.place, refused), (here, [false; 3]));
        }
        let elsewhere = Place { origin: Origin { inode: 2, ..unknown.origin }, ..unknown };
        let record = IdentityRecord { place: now, copied: Default::default() };
        assert_eq!(check_identity(Past::Checked(record), elsewhere, settings, nowhere).1, [true; 3]);
    }

    #[test]
    fn a_value_is_compared_as_a_number() {
        // The adapter parses '0x10' and '16' to one medallion: one value, one digest.
        assert_eq!(IdentitySetting::of(16, true), IdentitySetting::of(16, true));
        assert_ne!(IdentitySetting::of(16, true).digest, IdentitySetting::of(-1, true).digest);
        assert_eq!(IdentitySetting::of(0, true).digest, setting_digest("0"));
    }

    #[test]
    fn versions_before_0_6_0_kept_no_record() {
        for version in ["0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0"] {
            assert!(!version_keeps_record(version), "{version}");
        }
        for version in ["0.6.0", "0.7.0", "1.0.0"] {
            assert!(version_keeps_record(version), "{version}");
        }
    }
}
