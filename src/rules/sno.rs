//! sno (muyo/sno v1.2.1): 10 bytes, big-endian. Bits 79..41 count 4 ms units since
//! 2010-01-01T00:00:00Z (floored), bit 40 is the tick-tock bit, byte 5 the metabyte, bytes 6-7 the
//! partition and bytes 8-9 the sequence. Byte order is time order.
//!
//! Text is sixteen 5-bit groups, most significant first, over `23456789abcdefghijklmnopqrstuvwx`.
//! That is RFC 4648 base32 bit order with another alphabet, and 80 bits need no padding, so
//! `data-encoding` does it with a custom specification.

use super::high_water;
use data_encoding::{Encoding, Specification};
use std::sync::LazyLock;

pub const LEN: usize = 10;
pub const TEXT_LEN: usize = 16;
pub const ALPHABET: &str = "23456789abcdefghijklmnopqrstuvwx";
/// 2010-01-01 00:00:00 UTC in unix µs.
pub const EPOCH_UNIX_US: i64 = 1_262_304_000_000_000;
pub const UNIT_US: i64 = 4_000;
/// The last 39-bit unit: 2079-09-07T15:47:35.548Z.
pub const MAX_UNITS: u64 = (1 << 39) - 1;
/// sno's smallest sequence pool per generator.
pub const MIN_POOL: u32 = 4;

static BASE32: LazyLock<Encoding> = LazyLock::new(|| {
    let mut spec = Specification::new();
    spec.symbols.push_str(ALPHABET);
    spec.encoding().expect("32 distinct ASCII symbols are a valid base32 specification")
});

/// Meta and partition (bytes 5-7) of the first sno a sort converts: the reference its abbreviated
/// keys compare the others' with.
pub type KeyReference = [u8; 3];

pub fn key_reference(id: &[u8; LEN]) -> KeyReference {
    [id[5], id[6], id[7]]
}

/// A sort's abbreviated key: 64 bits that order as the snos do wherever two keys differ. Bytes 0-4
/// (time unit and tick) lead. Meta and partition come next only as their order against `reference`
/// (2 bits): the snos of one server share them, and then the low 22 bits hold the sequence, so the
/// keys of a burst, one 4 ms unit per thousands of ids, still differ. Other snos keep the top 22 of
/// their 24 meta and partition bits there. (A plain prefix, bytes 0-7, would tie for a whole unit;
/// skipping meta and partition outright would put (t, meta 1, seq 5) before (t, meta 0, seq 9).)
pub fn abbreviated(id: &[u8; LEN], reference: &KeyReference) -> u64 {
    let head = u64::from_be_bytes([0, 0, 0, id[0], id[1], id[2], id[3], id[4]]);
    let meta_partition = u32::from_be_bytes([0, id[5], id[6], id[7]]);
    let reference = u32::from_be_bytes([0, reference[0], reference[1], reference[2]]);
    let (class, low) = match meta_partition.cmp(&reference) {
        std::cmp::Ordering::Less => (0, u64::from(meta_partition >> 2)),
        std::cmp::Ordering::Equal => (1, u64::from(u16::from_be_bytes([id[8], id[9]]))),
        std::cmp::Ordering::Greater => (2, u64::from(meta_partition >> 2)),
    };
    (head << 24) | (class << 22) | low
}

/// The partition of a server without the setting: its system identifier (random at initdb) folded
/// to 16 bits, so unconfigured servers differ with high odds.
pub fn partition_from_system_identifier(id: u64) -> u16 {
    (id ^ (id >> 16) ^ (id >> 32) ^ (id >> 48)) as u16
}

/// The fields of a sno.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parts {
    /// 4 ms units since 2010-01-01, at most `MAX_UNITS`.
    pub units: u64,
    pub tick: bool,
    pub meta: u8,
    pub partition: u16,
    pub sequence: u16,
}

pub fn encode(parts: &Parts) -> [u8; LEN] {
    debug_assert!(parts.units <= MAX_UNITS);
    let block = ((parts.units & MAX_UNITS) << 1) | parts.tick as u64;
    let mut id = [0u8; LEN];
    id[..5].copy_from_slice(&block.to_be_bytes()[3..]);
    id[5] = parts.meta;
    id[6..8].copy_from_slice(&parts.partition.to_be_bytes());
    id[8..].copy_from_slice(&parts.sequence.to_be_bytes());
    id
}

pub fn decode(id: &[u8; LEN]) -> Parts {
    let mut block = [0u8; 8];
    block[3..].copy_from_slice(&id[..5]);
    let block = u64::from_be_bytes(block);
    Parts {
        units: block >> 1,
        tick: block & 1 == 1,
        meta: id[5],
        partition: u16::from_be_bytes([id[6], id[7]]),
        sequence: u16::from_be_bytes([id[8], id[9]]),
    }
}

/// The 16 characters of a sno's text form.
pub fn to_text(id: &[u8; LEN]) -> [u8; TEXT_LEN] {
    let mut text = [0u8; TEXT_LEN];
    BASE32.encode_mut(id, &mut text);
    text
}

/// A sno from its text form: exactly 16 characters of the alphabet, nothing else (sno's own
/// decoder accepts any 16 bytes and decodes foreign characters to garbage).
pub fn from_text(text: &[u8]) -> Option<[u8; LEN]> {
    if text.len() != TEXT_LEN {
        return None;
    }
    let mut id = [0u8; LEN];
    BASE32.decode_mut(text, &mut id).ok()?;
    Some(id)
}

/// The unit holding `unix_us`, or `None` outside 2010-01-01 .. the end of the last unit.
pub fn units(unix_us: i64) -> Option<u64> {
    if unix_us < EPOCH_UNIX_US {
        return None;
    }
    let units = ((unix_us - EPOCH_UNIX_US) / UNIT_US) as u64;
    (units <= MAX_UNITS).then_some(units)
}

/// The first µs of a unit (what a sno's time decodes to: floored to 4 ms).
pub fn unix_us(units: u64) -> i64 {
    EPOCH_UNIX_US + (units.min(MAX_UNITS) as i64) * UNIT_US
}

/// The last µs any sno can hold: the end of the last unit.
pub fn last_unix_us() -> i64 {
    unix_us(MAX_UNITS) + UNIT_US - 1
}

/// The smallest sno whose time is at or after `unix_us`: the all-zero sno for any time before
/// 2010, `None` after the start of the last unit (no sno is that late).
pub fn floor(unix_us: i64) -> Option<[u8; LEN]> {
    let after_epoch = unix_us.saturating_sub(EPOCH_UNIX_US).max(0);
    let units = (after_epoch as u64).div_ceil(UNIT_US as u64);
    (units <= MAX_UNITS).then(|| encode(&Parts { units, tick: false, meta: 0, partition: 0, sequence: 0 }))
}

/// The share of the 16-bit sequence pool a generator may use (sno's sequence sharding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SequenceBounds {
    min: u16,
    max: u16,
}

impl SequenceBounds {
    pub const FULL: SequenceBounds = SequenceBounds { min: 0, max: u16::MAX };

    /// Bounds holding at least sno's minimum pool of 4, or `None`.
    pub fn new(min: u16, max: u16) -> Option<SequenceBounds> {
        (max as u32 >= min as u32 + MIN_POOL - 1).then_some(SequenceBounds { min, max })
    }

    pub fn min(self) -> u16 {
        self.min
    }

    pub fn max(self) -> u16 {
        self.max
    }
}

/// What the generator does for a call at a given unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    Issue {
        units: u64,
        tick: bool,
        sequence: u16,
    },
    /// Nothing can be issued before the clock reaches `units`: call again then.
    WaitUntil {
        units: u64,
    },
}

/// sno's generator state machine, with the clock passed in so tests drive it. Plain integers and
/// `repr(C)`: one instance lives in shared memory for the whole server.
///
/// - Each new unit restarts the sequence at the lower bound; past the upper bound the caller waits
///   for the next unit.
/// - On a backwards clock step the tick-tock bit toggles and generation goes on at once, in the
///   other timeline, which was used only up to `wall_safe`.
/// - A step back to or before `wall_safe` (a second regression into the same past) waits until the
///   clock reaches `wall_hi` (the last unit issued: the current tick goes on there) or passes
///   `wall_safe` (the other tick is free there: toggle again), whichever comes first.
///
/// What each tick holds, for any state written by this or an older library version (the fields
/// and their meaning are shared across versions): the other tick only units up to `wall_safe`;
/// the current tick only units up to `wall_hi`, and in `wall_hi` only sequences below
/// `next_sequence`; since the last regression (or restart) only units below `reserved`.
///
/// `next_sequence` is absolute, not an offset from the lower bound, so callers that disagree
/// about the bounds (sessions with different settings) still never issue a sequence twice.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Generator {
    /// The unit of the last issue.
    wall_hi: u64,
    /// The highest unit reached before the last regression.
    wall_safe: u64,
    next_sequence: u32,
    /// Regressions so far; the tick-tock bit is the lowest bit.
    drifts: u32,
    /// Every unit issued in the current tick since the last regression is below this
    /// (`rules::high_water`); with `wall_safe` and `drifts` it is what a restart resumes from.
    reserved: u64,
}

/// [`high_water::WINDOW_US`] in units.
const WINDOW_UNITS: i64 = high_water::WINDOW_US / UNIT_US;

impl high_water::Persisted for Generator {
    const NAME: &'static str = "sno";
    const WINDOW: i64 = WINDOW_UNITS;
    type Record = [i64; 3];

    fn record(&self) -> [i64; 3] {
        [self.reserved as i64, self.wall_safe as i64, self.drifts as i64]
    }

    /// The record of the later regression covers every earlier one: after a step back the
    /// generator issues in a tick only past what that tick held (it toggles only once the clock
    /// is past `wall_safe`, the highest unit issued before). Within one regression, the larger
    /// reservation and the larger `wall_safe` (only ever one of them differs).
    fn merge(a: &[i64; 3], b: &[i64; 3]) -> [i64; 3] {
        match a[2].cmp(&b[2]) {
            std::cmp::Ordering::Greater => *a,
            std::cmp::Ordering::Less => *b,
            std::cmp::Ordering::Equal => [a[0].max(b[0]), a[1].max(b[1]), a[2]],
        }
    }

    fn position(&self) -> i64 {
        self.wall_hi as i64
    }

    // Its position is the clock's reading, or the last one while the clock is behind it.
    const RUNS_AHEAD: bool = false;

    fn clock(now_us: i64) -> i64 {
        now_us.saturating_sub(EPOCH_UNIX_US).max(0) / UNIT_US
    }

    fn raise_reservation(&mut self, to: i64) {
        self.reserved = self.reserved.max(to.max(0) as u64);
    }

    fn reservation_unix_us(reservation: i64) -> i64 {
        reservation.saturating_mul(UNIT_US).saturating_add(EPOCH_UNIX_US)
    }

    /// The current tick holds values below `reserved` only, the other one up to `wall_safe`:
    /// resume as if the unit before `reserved` were full. A clock that reads behind it now is a
    /// regression like any other (toggle, or wait if it is not past `wall_safe`).
    /// Every field as the generator can hold it: units of the format's range (the reservation up
    /// to a window past its end) and at most a day past the clock, and a 32-bit regression count.
    fn check(&[reserved, wall_safe, drifts]: &[i64; 3], now_us: i64) -> Result<(), String> {
        let limit = |format_max: i64| high_water::ahead_limit(now_us, EPOCH_UNIX_US, UNIT_US, format_max);
        let unit = "4 ms units since 2010-01-01";
        high_water::check_range("reservation", reserved, 1, limit(MAX_UNITS as i64 + 2 * WINDOW_UNITS), unit)?;
        high_water::check_range("highest unit before the last step back", wall_safe, 0, limit(MAX_UNITS as i64), unit)?;
        high_water::check_range("count of steps back", drifts, 0, u32::MAX as i64, "steps")
    }

    fn resume(&mut self, [reserved, wall_safe, drifts]: [i64; 3]) {
        if reserved <= 0 {
            return;
        }
        *self = Generator {
            wall_hi: reserved as u64 - 1,
            wall_safe: wall_safe as u64,
            next_sequence: u32::MAX,
            drifts: drifts as u32,
            reserved: reserved as u64,
        };
    }
}

impl Generator {
    pub const fn new() -> Self {
        Generator { wall_hi: 0, wall_safe: 0, next_sequence: 0, drifts: 0, reserved: 0 }
    }

    pub fn next(&mut self, now: u64, bounds: SequenceBounds) -> Next {
        if now < self.wall_hi {
            if now <= self.wall_safe {
                // Both ticks may hold `now`: the other one up to `wall_safe`, the current one from
                // wherever its run since the last regression began (not recorded: the layout is
                // shared with older library versions) up to `wall_hi`. The first unit free for
                // sure is the earlier of `wall_safe + 1` (toggle again there: the other tick is
                // free above it) and `wall_hi` (go on in the current tick after its last
                // sequence). After a small step back following a large one, that is `wall_hi`,
                // a few units away, not `wall_safe + 1`, which can be as far as the first step.
                return Next::WaitUntil { units: self.wall_safe.saturating_add(1).min(self.wall_hi) };
            }
            self.wall_safe = self.wall_hi;
            self.drifts = self.drifts.wrapping_add(1);
            // The new tick was used only up to the old wall_safe: reserve afresh from here.
            self.reserved = 0;
            return self.start_unit(now, bounds);
        }
        if now > self.wall_hi {
            return self.start_unit(now, bounds);
        }
        let sequence = self.next_sequence.max(bounds.min as u32);
        if sequence > bounds.max as u32 {
            return Next::WaitUntil { units: now + 1 };
        }
        self.next_sequence = sequence + 1;
        self.issue(now, sequence as u16)
    }

    fn start_unit(&mut self, now: u64, bounds: SequenceBounds) -> Next {
        self.wall_hi = now;
        self.next_sequence = bounds.min as u32 + 1;
        self.issue(now, bounds.min)
    }

    fn issue(&mut self, units: u64, sequence: u16) -> Next {
        // `units` is the clock's unit, or the last one while the clock is behind it: never ahead.
        self.reserved = high_water::reserve(self.reserved as i64, units as i64, units as i64, WINDOW_UNITS) as u64;
        Next::Issue { units, tick: self.tick(), sequence }
    }

    fn tick(&self) -> bool {
        self.drifts & 1 == 1
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn abbreviated_keys_of_one_server_differ_by_sequence() {
        let reference = [0, 0x12, 0x34];
        let id =
            |units: u64, sequence: u16| encode(&Parts { units, tick: false, meta: 0, partition: 0x1234, sequence });
        assert!(abbreviated(&id(7, 1), &reference) < abbreviated(&id(7, 2), &reference));
        assert!(abbreviated(&id(7, 65535), &reference) < abbreviated(&id(8, 0), &reference));
        assert_eq!(abbreviated(&id(7, 5), &reference), (7 << 1) << 24 | 1 << 22 | 5);
    }

    proptest! {
        #[test]
        fn abbreviated_keys_never_contradict_byte_order(
            ids in proptest::collection::vec((0u64..4, any::<bool>(), 0u8..3, 0u16..3, any::<u16>()), 2..40),
            reference in (0u8..3, 0u16..3),
        ) {
            // Few distinct times, metas and partitions, so ties and every class turn up.
            let ids: Vec<[u8; LEN]> = ids
                .into_iter()
                .map(|(units, tick, meta, partition, sequence)| encode(&Parts { units, tick, meta, partition, sequence }))
                .collect();
            let reference = key_reference(&encode(&Parts {
                units: 0, tick: false, meta: reference.0, partition: reference.1, sequence: 0,
            }));
            for a in &ids {
                for b in &ids {
                    let (ka, kb) = (abbreviated(a, &reference), abbreviated(b, &reference));
                    if ka != kb {
                        prop_assert_eq!(ka.cmp(&kb), a.cmp(b));
                    }
                }
            }
        }
    }

    #[test]
    fn marks_outside_the_format_or_a_day_past_the_clock_are_refused() {
        use high_water::Persisted;
        let now_units = 500_000_000i64;
        let now = unix_us(now_units as u64);
        let day = high_water::MAX_AHEAD_US / UNIT_US;
        for good in [[now_units + WINDOW_UNITS, 0, 0], [1, now_units + day, u32::MAX as i64], [now_units + day, 7, 3]] {
            assert_eq!(Generator::check(&good, now), Ok(()), "{good:?}");
        }
        for bad in [
            [0, 0, 0],
            [-1, 0, 0],
            [i64::MIN, 0, 0],
            [i64::MAX, 0, 0],
            [now_units + day + 1, 0, 0],
            // wall_safe = -1 once made every call wait for unit 0 (wall_safe + 1 wrapped): a spin.
            [now_units, -1, 0],
            [now_units, now_units + day + 1, 0],
            [now_units, 0, -1],
            [now_units, 0, u32::MAX as i64 + 1],
        ] {
            assert!(Generator::check(&bad, now).is_err(), "{bad:?}");
        }
        // Near the format's end the format bounds the mark, not the clock.
        let late = unix_us(MAX_UNITS);
        assert!(Generator::check(&[MAX_UNITS as i64 + 2 * WINDOW_UNITS, 0, 0], late).is_ok());
        assert!(Generator::check(&[MAX_UNITS as i64 + 2 * WINDOW_UNITS + 1, 0, 0], late).is_err());
        assert!(Generator::check(&[1, MAX_UNITS as i64 + 1, 0], late).is_err());
    }

    #[test]
    fn derived_partition_folds_all_64_bits() {
        assert_eq!(partition_from_system_identifier(0), 0);
        assert_eq!(partition_from_system_identifier(0x0001_0000_0000_0000), 1);
        assert_eq!(partition_from_system_identifier(0x1234_0000_0000_0000 | 0x1234), 0);
        // 0x657a_aba7_09c5_4b87: the XOR of its four 16-bit chunks.
        assert_eq!(partition_from_system_identifier(0x657a_aba7_09c5_4b87), 0x657a ^ 0xaba7 ^ 0x09c5 ^ 0x4b87);
    }

    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn issue(generator: &mut Generator, now: u64, bounds: SequenceBounds) -> (u64, bool, u16) {
        match generator.next(now, bounds) {
            Next::Issue { units, tick, sequence } => (units, tick, sequence),
            wait => panic!("expected an issue at {now}, got {wait:?}"),
        }
    }

    /// Calls at each clock reading in turn (full pool), and what each must issue: (unit, tick, sequence).
    fn expect_issues(generator: &mut Generator, steps: &[(u64, (u64, bool, u16))]) {
        for &(now, expected) in steps {
            assert_eq!(issue(generator, now, SequenceBounds::FULL), expected, "at clock {now}");
        }
    }

    #[test]
    fn layout_puts_each_field_in_its_bytes() {
        let parts = Parts { units: 0x12_3456_789a, tick: true, meta: 0xbc, partition: 0xdef0, sequence: 0x1357 };
        let id = encode(&parts);
        assert_eq!(id, [0x24, 0x68, 0xac, 0xf1, 0x35, 0xbc, 0xde, 0xf0, 0x13, 0x57]);
        assert_eq!(decode(&id), parts);
    }

    #[test]
    fn text_round_trips_and_rejects_other_characters() {
        assert_eq!(&to_text(&[0; LEN]), b"2222222222222222");
        assert_eq!(&to_text(&[0xff; LEN]), b"xxxxxxxxxxxxxxxx");
        assert_eq!(from_text(b"xxxxxxxxxxxxxxxx"), Some([0xff; LEN]));
        for bad in [&b"2222222222222221"[..], b"222222222222222y", b"222222222222222A", b"222222222222222", b""] {
            assert_eq!(from_text(bad), None, "{:?}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn time_range_is_2010_to_2079() {
        assert_eq!(units(EPOCH_UNIX_US), Some(0));
        assert_eq!(units(EPOCH_UNIX_US - 1), None);
        assert_eq!(units(last_unix_us()), Some(MAX_UNITS));
        assert_eq!(units(last_unix_us() + 1), None);
        // 2079-09-07T15:47:35.548Z
        assert_eq!(unix_us(MAX_UNITS), 3_461_327_255_548_000);
    }

    #[test]
    fn floor_is_the_first_value_at_or_after_the_time() {
        assert_eq!(floor(i64::MIN), Some([0; LEN]));
        assert_eq!(floor(EPOCH_UNIX_US), Some([0; LEN]));
        assert_eq!(decode(&floor(EPOCH_UNIX_US + 1).unwrap()).units, 1);
        assert_eq!(decode(&floor(EPOCH_UNIX_US + UNIT_US).unwrap()).units, 1);
        assert_eq!(decode(&floor(unix_us(MAX_UNITS)).unwrap()).units, MAX_UNITS);
        assert_eq!(floor(unix_us(MAX_UNITS) + 1), None);
    }

    #[test]
    fn bounds_need_a_pool_of_four() {
        assert!(SequenceBounds::new(0, 2).is_none());
        assert!(SequenceBounds::new(10, 5).is_none());
        assert_eq!(SequenceBounds::new(0, 3).map(|b| (b.min(), b.max())), Some((0, 3)));
        assert!(SequenceBounds::new(65532, 65535).is_some());
    }

    #[test]
    fn sequence_restarts_at_the_lower_bound_each_unit() {
        let steps = [
            (10, (10, false, 0)),
            (10, (10, false, 1)),
            (10, (10, false, 2)),
            (11, (11, false, 0)),
            (15, (15, false, 0)),
        ];
        expect_issues(&mut Generator::new(), &steps);
    }

    #[test]
    fn sharded_bounds_stay_inside_their_share_and_wait_past_it() {
        let shard = SequenceBounds::new(100, 103).unwrap();
        let mut generator = Generator::new();
        let drawn: Vec<u16> = (0..4).map(|_| issue(&mut generator, 7, shard).2).collect();
        assert_eq!(drawn, [100, 101, 102, 103]);
        assert_eq!(generator.next(7, shard), Next::WaitUntil { units: 8 });
        assert_eq!(issue(&mut generator, 8, shard), (8, false, 100));
    }

    #[test]
    fn a_used_up_pool_waits_for_the_next_unit_and_never_repeats() {
        let mut generator = Generator::new();
        for expected in 0..=u16::MAX {
            assert_eq!(issue(&mut generator, 3, SequenceBounds::FULL).2, expected);
        }
        for _ in 0..3 {
            assert_eq!(generator.next(3, SequenceBounds::FULL), Next::WaitUntil { units: 4 });
        }
        assert_eq!(issue(&mut generator, 4, SequenceBounds::FULL), (4, false, 0));
    }

    #[test]
    fn first_regression_toggles_the_tick_without_waiting() {
        let mut generator = Generator::new();
        expect_issues(&mut generator, &[(100, (100, false, 0)), (100, (100, false, 1))]);
        // The clock steps back 10 units (40 ms): same sequence numbers, other timeline.
        expect_issues(&mut generator, &[(90, (90, true, 0)), (90, (90, true, 1))]);
        // Back through the units already used before the step: still the other timeline.
        expect_issues(&mut generator, &[(100, (100, true, 0)), (101, (101, true, 0))]);
    }

    #[test]
    fn second_regression_into_the_same_past_waits_until_past_it() {
        let mut generator = Generator::new();
        let full = SequenceBounds::FULL;
        issue(&mut generator, 100, full);
        assert_eq!(issue(&mut generator, 90, full), (90, true, 0));
        assert_eq!(issue(&mut generator, 95, full), (95, true, 0));
        // Back again, to units both timelines may have used: wait until the clock reaches unit 95,
        // the last one issued, and go on there in the same tick.
        assert_eq!(generator.next(80, full), Next::WaitUntil { units: 95 });
        assert_eq!(generator.next(94, full), Next::WaitUntil { units: 95 });
        assert_eq!(issue(&mut generator, 95, full), (95, true, 1));
        assert_eq!(issue(&mut generator, 101, full), (101, true, 0));
    }

    #[test]
    fn a_small_step_back_after_a_large_one_waits_only_for_the_last_unit_issued() {
        // An hour is 900,000 units; then the clock steps back 10 ms (2.5 units, so 3).
        let mut generator = Generator::new();
        let full = SequenceBounds::FULL;
        let hour = 900_000;
        issue(&mut generator, 5 * hour, full);
        assert_eq!(issue(&mut generator, 4 * hour, full), (4 * hour, true, 0));
        assert_eq!(issue(&mut generator, 4 * hour + 10, full), (4 * hour + 10, true, 0));
        // It waited until 5 * hour + 1 (an hour) before; unit 4 * hour + 10 is three units away.
        assert_eq!(generator.next(4 * hour + 7, full), Next::WaitUntil { units: 4 * hour + 10 });
        assert_eq!(issue(&mut generator, 4 * hour + 10, full), (4 * hour + 10, true, 1));
        // A full pool in that unit waits for the next one, as always.
        let shard = SequenceBounds::new(0, 3).unwrap();
        issue(&mut generator, 4 * hour + 10, shard);
        issue(&mut generator, 4 * hour + 10, shard);
        assert_eq!(generator.next(4 * hour + 10, shard), Next::WaitUntil { units: 4 * hour + 11 });
        // Where wall_safe + 1 comes first, the wait ends there with a toggle.
        let mut generator = Generator::new();
        issue(&mut generator, 100, full);
        issue(&mut generator, 90, full);
        issue(&mut generator, 150, full);
        assert_eq!(issue(&mut generator, 120, full), (120, false, 0));
        assert_eq!(generator.next(110, full), Next::WaitUntil { units: 120 });
    }

    #[test]
    fn a_restart_behind_the_last_restart_waits_only_for_its_mark() {
        // Restarted an hour back (toggle), then restarted again a second further back: the mark of
        // the first restart's run is what it waits for, not the hour-old wall_safe.
        use high_water::Persisted;
        let full = SequenceBounds::FULL;
        let hour = 900_000;
        let mut generator = Generator::new();
        issue(&mut generator, 5 * hour, full);
        let mut first = Generator::new();
        first.resume(generator.record());
        assert_eq!(issue(&mut first, 4 * hour, full), (4 * hour, true, 0));
        issue(&mut first, 4 * hour + 100, full);
        let mark = first.record()[0] as u64;
        let mut second = Generator::new();
        second.resume(first.record());
        assert_eq!(second.next(4 * hour + 50, full), Next::WaitUntil { units: mark - 1 });
        assert_eq!(second.next(mark - 1, full), Next::WaitUntil { units: mark });
        assert_eq!(issue(&mut second, mark, full), (mark, true, 0));
    }

    #[test]
    fn second_regression_after_the_clock_caught_up_toggles_back() {
        let mut generator = Generator::new();
        let full = SequenceBounds::FULL;
        issue(&mut generator, 100, full);
        issue(&mut generator, 90, full);
        issue(&mut generator, 120, full);
        // Tick false was used only up to unit 100, so a step back to 110 may use it again.
        assert_eq!(issue(&mut generator, 110, full), (110, false, 0));
        assert_eq!(generator.next(105, full), Next::WaitUntil { units: 110 });
    }

    /// The logic of the library versions before waits were shortened: a step back to or before
    /// `wall_safe` waited until `wall_safe + 1`. Both versions share one state in shared memory
    /// during a package upgrade, so the property tests mix them.
    fn next_old(generator: &mut Generator, now: u64, bounds: SequenceBounds) -> Next {
        if now < generator.wall_hi && now <= generator.wall_safe {
            return Next::WaitUntil { units: generator.wall_safe.saturating_add(1) };
        }
        generator.next(now, bounds)
    }

    /// Clock steps of every size: small ones both ways, steps back of tens of units to an hour
    /// (900,000 units), jumps ahead.
    fn clock_step() -> impl Strategy<Value = i64> {
        prop_oneof![4 => -8i64..=8, 2 => -200i64..=-9, 1 => -900_000i64..=-201, 1 => 9i64..=2_000]
    }

    proptest! {
        /// Any clock walk with steps back of every size, some calls by the old logic: no value
        /// twice; and a wait with the clock behind the last unit issued lasts only until the clock
        /// reaches a unit that tick (the current one) actually used, while both ticks have used a
        /// unit at or after the clock (so neither is known to be free there).
        #[test]
        fn waits_end_at_a_unit_used_and_no_value_repeats_with_old_logic_mixed_in(
            steps in proptest::collection::vec((clock_step(), 1usize..12, proptest::bool::weighted(0.2)), 1..120),
            pool in 4u16..8,
        ) {
            let bounds = SequenceBounds::new(0, pool - 1).unwrap();
            let mut generator = Generator::new();
            let mut clock: i64 = 2_000_000;
            let mut seen = HashSet::new();
            // The highest unit each tick has issued.
            let mut highest = [None::<u64>; 2];
            let mut last: Option<(u64, bool)> = None;
            for (step, calls, old) in steps {
                clock = (clock + step).max(0);
                for _ in 0..calls {
                    let (units, tick, sequence) = loop {
                        let next = if old { next_old(&mut generator, clock as u64, bounds) } else { generator.next(clock as u64, bounds) };
                        match next {
                            Next::Issue { units, tick, sequence } => break (units, tick, sequence),
                            Next::WaitUntil { units } => {
                                prop_assert!(units as i64 > clock);
                                let (last_units, last_tick) = last.expect("a wait follows an issue");
                                if (clock as u64) < last_units && !old {
                                    prop_assert!(units <= last_units, "waits for {units}, past the last unit issued {last_units}");
                                    prop_assert_eq!(generator.tick(), last_tick);
                                    for used in highest {
                                        prop_assert!(used.is_some_and(|u| u >= clock as u64), "waits though a tick is free at {}", clock);
                                    }
                                } else if !old {
                                    prop_assert_eq!(units as i64, clock + 1);
                                }
                                clock = units as i64;
                            }
                        }
                    };
                    prop_assert_eq!(units, clock as u64);
                    prop_assert!(seen.insert((units, tick, sequence)), "issued twice: {:?}", (units, tick, sequence));
                    let h = &mut highest[tick as usize];
                    *h = Some(h.map_or(units, |u| u.max(units)));
                    last = Some((units, tick));
                }
            }
        }

        /// Any clock walk, forwards and backwards, with the caller waiting when told to: no
        /// (unit, tick, sequence) is ever issued twice, and every sequence is inside the bounds.
        #[test]
        fn no_clock_walk_issues_a_value_twice(
            steps in proptest::collection::vec((-60i64..=8, 1usize..40), 1..80),
            min in 0u16..20,
            pool in 4u16..40,
        ) {
            let bounds = SequenceBounds::new(min, min + pool - 1).unwrap();
            let mut generator = Generator::new();
            let mut clock: i64 = 1_000;
            let mut seen = HashSet::new();
            for (step, calls) in steps {
                clock = (clock + step).max(0);
                for _ in 0..calls {
                    let (units, tick, sequence) = loop {
                        match generator.next(clock as u64, bounds) {
                            Next::Issue { units, tick, sequence } => break (units, tick, sequence),
                            Next::WaitUntil { units } => {
                                prop_assert!(units as i64 > clock);
                                clock = units as i64;
                            }
                        }
                    };
                    prop_assert_eq!(units, clock as u64);
                    prop_assert!((bounds.min()..=bounds.max()).contains(&sequence));
                    prop_assert!(seen.insert((units, tick, sequence)), "issued twice: {:?}", (units, tick, sequence));
                }
            }
        }

        /// The same with restarts, and marks written as `high_water::update` writes them: ahead
        /// when due (here at random, as a writer may be slow), and before a value the mark on disk
        /// does not cover; the state takes the reservation of a mark that covers it. A restart
        /// resumes a new generator from the mark on disk, wherever the clock then is.
        #[test]
        fn no_clock_walk_with_restarts_issues_a_value_twice(
            steps in proptest::collection::vec(
                (prop_oneof![3 => -700i64..=400, 1 => clock_step()], 1usize..300, proptest::bool::weighted(0.2), any::<bool>()),
                1..60,
            ),
            write_ahead in proptest::collection::vec(any::<bool>(), 64),
        ) {
            use high_water::Persisted;
            let mut generator = Generator::new();
            let mut disk = generator.record();
            let mut writes = write_ahead.iter().cycle();
            let mut clock: i64 = 1_000_000;
            let mut seen = HashSet::new();
            for (step, calls, restart, old) in steps {
                clock = (clock + step).max(0);
                if restart {
                    generator = Generator::new();
                    generator.resume(disk);
                }
                for _ in 0..calls {
                    let (units, tick, sequence) = loop {
                        let next = if old {
                            next_old(&mut generator, clock as u64, SequenceBounds::FULL)
                        } else {
                            generator.next(clock as u64, SequenceBounds::FULL)
                        };
                        match next {
                            Next::Issue { units, tick, sequence } => break (units, tick, sequence),
                            Next::WaitUntil { units } => clock = units as i64,
                        }
                    };
                    let record = generator.record();
                    if !high_water::covers::<Generator>(&disk, &record)
                        || (high_water::due::<Generator>(&disk, generator.position(), || clock) && *writes.next().unwrap())
                    {
                        let next = high_water::next_mark::<Generator>(Some(&disk), &record, generator.position(), clock);
                        prop_assert!(high_water::covers::<Generator>(&next, &disk), "{next:?} after {disk:?}");
                        disk = next;
                    }
                    if high_water::may_raise::<Generator>(&disk, &generator.record()) {
                        generator.raise_reservation(disk[0]);
                    }
                    prop_assert!(high_water::covers::<Generator>(&disk, &generator.record()));
                    if tick == (disk[2] & 1 == 1) {
                        prop_assert!((units as i64) < disk[0], "issued at {units}, at or past the mark {}", disk[0]);
                    }
                    prop_assert!(seen.insert((units, tick, sequence)), "issued twice: {:?}", (units, tick, sequence));
                }
            }
        }
    }

    #[test]
    fn a_restart_with_the_clock_set_back_toggles_the_tick_and_writes_its_mark_once_a_window() {
        use high_water::Persisted;
        const W: u64 = WINDOW_UNITS as u64;
        let mut generator = Generator::new();
        assert_eq!(issue(&mut generator, 1_000, SequenceBounds::FULL), (1_000, false, 0));
        assert_eq!(generator.record(), [1_000 + WINDOW_UNITS, 0, 0]);
        // The mark moves only when a unit reaches it.
        issue(&mut generator, 1_000 + W - 1, SequenceBounds::FULL);
        assert_eq!(generator.record(), [1_000 + WINDOW_UNITS, 0, 0]);
        issue(&mut generator, 1_000 + W, SequenceBounds::FULL);
        assert_eq!(generator.record(), [1_000 + 2 * WINDOW_UNITS, 0, 0]);
        // Restarted with the clock an hour back (900,000 units): the other tick, at once.
        let mut restarted = Generator::new();
        restarted.resume(generator.record());
        assert_eq!(issue(&mut restarted, 1_000, SequenceBounds::FULL), (1_000, true, 0));
        assert_eq!(restarted.record(), [1_000 + WINDOW_UNITS, 1_000 + 2 * WINDOW_UNITS - 1, 1]);
        // Restarted with the clock where it was: the unit before the mark counts as full.
        let mut restarted = Generator::new();
        restarted.resume(generator.record());
        let mark = 1_000 + 2 * W;
        assert_eq!(restarted.next(mark - 1, SequenceBounds::FULL), Next::WaitUntil { units: mark });
        assert_eq!(issue(&mut restarted, mark, SequenceBounds::FULL), (mark, false, 0));
        // Nothing on disk yet: a fresh generator.
        let mut fresh = Generator::new();
        fresh.resume([0, 0, 0]);
        assert_eq!(fresh, Generator::new());
    }
}
