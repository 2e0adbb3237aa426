//! Gink muids (seed 002, Gink's muid.py): 128 bits, big-endian, a 52-bit timestamp (µs since
//! 1970), a 44-bit medallion (the node) and a 32-bit offset stored as two's complement, so byte
//! order is the order of (timestamp, medallion, offset as unsigned). Packed muids are `uuid`s.
//!
//! Gink writes -1 for a timestamp or medallion with every bit set (its "global" sentinel): packing
//! -1 sets all the field's bits, and unpacking all bits set gives -1.

use super::high_water;

pub const TIMESTAMP_BITS: u32 = 52;
pub const MEDALLION_BITS: u32 = 44;
/// Largest timestamp and medallion a muid holds. All bits set is also Gink's -1 sentinel: packing
/// either gives the same bits, and unpacking them gives -1, as in Gink.
pub const TIMESTAMP_MAX: i64 = (1 << TIMESTAMP_BITS) - 1;
pub const MEDALLION_MAX: i64 = (1 << MEDALLION_BITS) - 1;
const TIMESTAMP_ALL: u64 = (1 << TIMESTAMP_BITS) - 1;
const MEDALLION_ALL: u64 = (1 << MEDALLION_BITS) - 1;
/// Medallions a node draws for itself (the spec: 0x10000000000 to 0x1FFFFFFFFFF).
pub const NODE_MEDALLION_MIN: i64 = 0x100_0000_0000;
pub const NODE_MEDALLION_MAX: i64 = 0x1FF_FFFF_FFFF;
/// Canonical text: 13, 11 and 8 upper-case hex digits joined by '-'.
pub const TEXT_LEN: usize = 34;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Muid {
    /// µs since 1970, or -1.
    pub timestamp: i64,
    /// The node, or -1.
    pub medallion: i64,
    pub offset: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Timestamp,
    Medallion,
}

impl Field {
    pub fn name(self) -> &'static str {
        match self {
            Field::Timestamp => "timestamp",
            Field::Medallion => "medallion",
        }
    }

    pub fn max(self) -> i64 {
        match self {
            Field::Timestamp => TIMESTAMP_MAX,
            Field::Medallion => MEDALLION_MAX,
        }
    }
}

/// A field's bits: -1 is all bits set, 0..=max itself, anything else out of range.
fn field_bits(value: i64, field: Field) -> Result<u64, Field> {
    match value {
        -1 => Ok(match field {
            Field::Timestamp => TIMESTAMP_ALL,
            Field::Medallion => MEDALLION_ALL,
        }),
        v => super::range::check(field.name(), v, 0, field.max()).map(|v| v as u64).map_err(|_| field),
    }
}

fn field_value(bits: u64, all: u64) -> i64 {
    if bits == all {
        -1
    } else {
        bits as i64
    }
}

/// The smallest muid whose time is at or after `unix_us` (None: +infinity), for range bounds and
/// partition bounds: medallion and offset 0 under the time. Total: a time before 1970 gives the
/// smallest muid, and one past the last µs gives the smallest muid of Gink's sentinel time, which
/// `muid_timestamp` reads as 'infinity'.
pub fn floor(unix_us: Option<i64>) -> [u8; 16] {
    let timestamp = match unix_us {
        Some(us) if us < TIMESTAMP_MAX => us.max(0),
        _ => -1,
    };
    Muid { timestamp, medallion: 0, offset: 0 }.pack().expect("0..TIMESTAMP_MAX or -1 packs")
}

impl Muid {
    /// The 16 bytes, or the field that is out of range.
    pub fn pack(&self) -> Result<[u8; 16], Field> {
        let timestamp = field_bits(self.timestamp, Field::Timestamp)? as u128;
        let medallion = field_bits(self.medallion, Field::Medallion)? as u128;
        let value = timestamp << 76 | medallion << 32 | self.offset as u32 as u128;
        Ok(value.to_be_bytes())
    }

    pub fn unpack(bytes: &[u8; 16]) -> Muid {
        let value = u128::from_be_bytes(*bytes);
        Muid {
            timestamp: field_value((value >> 76) as u64, TIMESTAMP_ALL),
            medallion: field_value((value >> 32) as u64 & MEDALLION_ALL, MEDALLION_ALL),
            offset: value as u32 as i32,
        }
    }
}

/// Canonical text of packed bytes: `TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO`, upper case.
pub fn to_text(bytes: &[u8; 16]) -> String {
    let value = u128::from_be_bytes(*bytes);
    format!("{:013X}-{:011X}-{:08X}", value >> 76, (value >> 32) as u64 & MEDALLION_ALL, value as u32)
}

/// Packed bytes from text: the canonical form in either case, or the spec's short forms
/// `TTTTTTTTTTTTT-MMMMMMMMMMM` (offset 0) and `TTTTTTTTTTTTT` (medallion and offset 0). Exactly
/// those widths of hex digits and nothing else: no sign, prefix, space or underscore.
pub fn parse(text: &str) -> Option<[u8; 16]> {
    let mut groups = text.split('-');
    let timestamp = hex_group(groups.next()?, 13)?;
    let medallion = groups.next().map_or(Some(0), |g| hex_group(g, 11))?;
    let offset = groups.next().map_or(Some(0), |g| hex_group(g, 8))?;
    if groups.next().is_some() {
        return None;
    }
    Some((((timestamp as u128) << 76) | ((medallion as u128) << 32) | offset as u128).to_be_bytes())
}

fn hex_group(group: &str, width: usize) -> Option<u64> {
    if group.len() != width || !group.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u64::from_str_radix(group, 16).ok()
}

/// A medallion as the `comb_ext.medallion` setting writes it: decimal, or hex with a 0x prefix,
/// surrounding spaces ignored, from 0 to `MEDALLION_MAX - 1` (all bits set is Gink's sentinel, not a node).
pub fn parse_medallion(text: &str) -> Option<i64> {
    let text = text.trim();
    let (digits, radix) = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => (hex, 16),
        None => (text, 10),
    };
    // from_str_radix alone would also take a sign.
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let value = i64::from_str_radix(digits, radix).ok()?;
    (0..MEDALLION_MAX).contains(&value).then_some(value)
}

/// The medallion of a server without the setting: 40 bits folded from its system identifier
/// (random at initdb), in the range nodes draw theirs from.
pub fn medallion_from_system_identifier(id: u64) -> i64 {
    NODE_MEDALLION_MIN | ((id ^ (id >> 40)) & 0xFF_FFFF_FFFF) as i64
}

/// Timestamps for `muid_new`: strictly increasing µs across every call of one server, from the
/// wall clock when it is ahead, else one µs past the last (so a burst or a clock step back runs
/// ahead of the clock until it catches up, never repeating a timestamp). Plain data for shared
/// memory; its layout is shared with older library versions (docs/upgrading.md: "Upgrading the package under
/// a running server").
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timeline {
    last: i64,
    /// Every timestamp issued is below this (`rules::high_water`): what a restart resumes from.
    reserved: i64,
}

/// How far past the pace clock ([`Pace`]) bursts may push the timeline. Two seconds: a statement of
/// up to 2,000,000 calls (the size benches/ids.sh and benches/generation_ab.sh time) starting at
/// the clock never reaches it on any machine, as it issues at most 2,000,000 µs.
pub const RUN_AHEAD_LIMIT_US: i64 = 2_000_000;

/// A caller stopped at the limit waits until the timeline is this far below it, so that a batch of
/// about 10,000 calls goes through after each wait: latch waits count whole milliseconds, and a
/// wait per call would collapse the rate at the limit to about a thousand a second.
pub const PACE_SLACK_US: i64 = 10_000;

/// What the timeline gives a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    Issue(i64),
    /// Nothing issued: ask again after this many µs (the timeline is at the pace's limit).
    Wait {
        us: i64,
    },
    /// The next timestamp would be all bits set (the sentinel): nothing left to issue.
    Exhausted,
}

impl Timeline {
    pub const fn new() -> Self {
        Timeline { last: -1, reserved: 0 }
    }

    /// The next timestamp with the wall clock at `now_unix_us`, if it is at most `ceiling`.
    pub fn next(&mut self, now_unix_us: i64, ceiling: i64) -> Next {
        let next = now_unix_us.max(self.last + 1).max(0);
        if next >= TIMESTAMP_MAX {
            return Next::Exhausted;
        }
        if next > ceiling {
            return Next::Wait { us: next - ceiling + PACE_SLACK_US };
        }
        self.last = next;
        self.reserved = high_water::reserve(self.reserved, next, now_unix_us, high_water::WINDOW_US);
        Next::Issue(next)
    }
}

/// Bounds how far bursts push the timeline ahead, measured on a clock that never steps back: the
/// monotonic clock plus the largest lead of the wall clock over it seen since the server started
/// (that lead changes only when the wall clock is stepped or slewed). So after a step back the pace
/// clock goes on from where the wall clock was, and the timeline's lead over the stepped clock is
/// not counted against the limit. Plain data for shared memory, used only under the timeline's lock.
///
/// The monotonic clock is read only where it can matter, not at every call (a read costs about as
/// much as the rest of a call): once per [`PACE_REFRESH_US`] of the wall clock, to keep the lead up
/// to date for a step back to come, and when the next timestamp is more than the limit past the
/// wall clock (the pace clock is at least the wall clock, so only then can its limit bind).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pace {
    /// The pace clock minus the monotonic clock (µs).
    offset: i64,
    /// The last timestamp this pace let through.
    allowed: i64,
    /// The wall clock when `offset` was last brought up to date.
    refreshed: i64,
}

/// How often (µs of the wall clock) the pace reads the monotonic clock while nothing else needs it:
/// the lead it keeps for a step back is at most this old.
pub const PACE_REFRESH_US: i64 = 1_000;

impl Default for Pace {
    fn default() -> Self {
        Self::new()
    }
}

impl Pace {
    pub const fn new() -> Self {
        Pace { offset: i64::MIN, allowed: i64::MIN, refreshed: i64::MIN }
    }

    /// The next timestamp of `timeline`, with the wall clock at `wall_us` (unix µs) and the monotonic
    /// clock read by `monotonic` (µs) when needed: issued if it is at most [`RUN_AHEAD_LIMIT_US`]
    /// past the pace clock.
    #[inline]
    pub fn next(&mut self, timeline: &mut Timeline, wall_us: i64, monotonic: impl FnOnce() -> i64) -> Next {
        let candidate = wall_us.max(timeline.last.saturating_add(1));
        // The common case, in a few comparisons: the pace let the last timestamp through, its lead
        // is fresh, and the next is within the limit of the wall clock (which is at most the pace
        // clock), so the limit cannot bind.
        if timeline.last == self.allowed
            && wall_us < self.refreshed.saturating_add(PACE_REFRESH_US)
            && candidate <= wall_us.saturating_add(RUN_AHEAD_LIMIT_US)
        {
            return self.let_through(timeline.next(wall_us, i64::MAX));
        }
        self.next_measured(timeline, wall_us, monotonic())
    }

    /// `next` where the monotonic clock is needed, read at `monotonic_us`.
    #[inline(never)]
    fn next_measured(&mut self, timeline: &mut Timeline, wall_us: i64, monotonic_us: i64) -> Next {
        self.offset = self.offset.max(wall_us.saturating_sub(monotonic_us));
        self.refreshed = self.refreshed.max(wall_us);
        if timeline.last != self.allowed {
            // Moved by something the pace did not govern: a restart's resume from the mark (whose
            // lead may be a clock set back across the restart), or a library without the pace
            // beside this one after a package upgrade. The next timestamp is let through, as if
            // the timeline were at the limit: it goes on at once, and bursts before a restart do
            // not gain a second allowance after it.
            let found = (timeline.last + 1).saturating_sub(RUN_AHEAD_LIMIT_US).saturating_sub(monotonic_us);
            self.offset = self.offset.max(found);
        }
        let ceiling = monotonic_us.saturating_add(self.offset).saturating_add(RUN_AHEAD_LIMIT_US);
        self.let_through(timeline.next(wall_us, ceiling))
    }

    #[inline]
    fn let_through(&mut self, next: Next) -> Next {
        if let Next::Issue(timestamp) = next {
            self.allowed = timestamp;
        }
        next
    }
}

impl high_water::Persisted for Timeline {
    const NAME: &'static str = "muid";
    const WINDOW: i64 = high_water::WINDOW_US;
    type Record = [i64; 1];

    fn record(&self) -> [i64; 1] {
        [self.reserved]
    }

    fn position(&self) -> i64 {
        self.last
    }

    fn clock(now_us: i64) -> i64 {
        now_us
    }

    fn raise_reservation(&mut self, to: i64) {
        self.reserved = self.reserved.max(to);
    }

    fn reservation_unix_us(reservation: i64) -> i64 {
        reservation
    }

    fn check(&[reserved]: &[i64; 1], now_us: i64) -> Result<(), String> {
        let limit = high_water::ahead_limit(now_us, 0, 1, TIMESTAMP_MAX + 2 * high_water::WINDOW_US);
        high_water::check_range("reservation", reserved, 1, limit, "µs since 1970")
    }

    fn resume(&mut self, [reserved]: [i64; 1]) {
        self.last = self.last.max(reserved - 1);
        self.reserved = self.reserved.max(reserved);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn floor_is_the_smallest_muid_of_its_time_and_below_every_later_one() {
        let unpack = |us| Muid::unpack(&floor(us));
        let at_time = |timestamp| Muid { timestamp, medallion: 0, offset: 0 };
        assert_eq!(unpack(Some(1_795_564_800_000_000)), at_time(1_795_564_800_000_000));
        assert_eq!(floor(Some(-5)), [0; 16]);
        assert_eq!(floor(Some(0)), [0; 16]);
        assert_eq!(unpack(Some(TIMESTAMP_MAX - 1)).timestamp, TIMESTAMP_MAX - 1);
        // Past the last µs and +infinity: the sentinel time, medallion and offset 0.
        assert_eq!(unpack(Some(TIMESTAMP_MAX)), Muid { timestamp: -1, medallion: 0, offset: 0 });
        assert_eq!(floor(None), floor(Some(i64::MAX)));
        // Byte order: every muid of an earlier µs is below the floor, every one of its µs at or above.
        let at = 1_795_564_800_123_456;
        let last_before = Muid { timestamp: at - 1, medallion: MEDALLION_MAX, offset: -1 }.pack().unwrap();
        assert!(last_before < floor(Some(at)));
        assert!(Muid { timestamp: at, medallion: 0, offset: 1 }.pack().unwrap() > floor(Some(at)));
    }

    #[test]
    fn marks_outside_the_format_or_a_day_past_the_clock_are_refused() {
        use high_water::Persisted;
        let now = 1_764_000_000_000_000; // 2025-11-24
        assert_eq!(Timeline::check(&[now + high_water::WINDOW_US], now), Ok(()));
        assert_eq!(Timeline::check(&[now + high_water::MAX_AHEAD_US], now), Ok(()));
        // 2100-01-01 00:00 UTC, i64::MAX, nothing and less than nothing.
        for bad in [4_102_444_800_000_000, now + high_water::MAX_AHEAD_US + 1, i64::MAX, 0, -1, i64::MIN] {
            assert!(Timeline::check(&[bad], now).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_restart_resumes_past_every_timestamp_issued_whatever_the_clock() {
        use high_water::Persisted;
        let mut timeline = Timeline::new();
        let issued: Vec<i64> = (0..5).map(|i| unpaced(&mut timeline, 7_000_000 + i).unwrap()).collect();
        assert_eq!(timeline.record(), [7_000_000 + high_water::WINDOW_US]);
        for now in [0, 6_999_999, 7_000_004, 7_000_000 + high_water::WINDOW_US] {
            let mut restarted = Timeline::new();
            restarted.resume(timeline.record());
            let next = unpaced(&mut restarted, now).unwrap();
            assert!(next >= timeline.record()[0] && !issued.contains(&next), "clock {now}: {next}");
        }
    }

    #[test]
    fn medallion_setting_takes_decimal_and_0x_hex_below_the_sentinel() {
        assert_eq!(parse_medallion("0"), Some(0));
        assert_eq!(parse_medallion(" 1099511627776 "), Some(0x100_0000_0000));
        assert_eq!(parse_medallion("0x1FFFFFFFFFF"), Some(NODE_MEDALLION_MAX));
        assert_eq!(parse_medallion("0Xabc"), Some(0xABC));
        assert_eq!(parse_medallion("0xFFFFFFFFFFE"), Some(MEDALLION_MAX - 1));
        for bad in ["", "0x", "-1", "+5", "0xFFFFFFFFFFF", "17592186044415", "1e3", "0x-1", "12 34", "0b101", "ab"] {
            assert_eq!(parse_medallion(bad), None, "{bad:?}");
        }
        assert_eq!(parse_medallion("99999999999999999999999"), None);
    }

    #[test]
    fn derived_medallions_stay_in_the_node_range() {
        for id in [0, 1, u64::MAX, 7_312_345_678_901_234_567, 1 << 40] {
            let m = medallion_from_system_identifier(id);
            assert!((NODE_MEDALLION_MIN..=NODE_MEDALLION_MAX).contains(&m), "{id}: {m:#x}");
        }
        assert_ne!(medallion_from_system_identifier(1), medallion_from_system_identifier(2));
    }

    proptest! {
        #[test]
        fn medallion_text_round_trips(m in 0..MEDALLION_MAX) {
            prop_assert_eq!(parse_medallion(&m.to_string()), Some(m));
            prop_assert_eq!(parse_medallion(&format!("0x{m:X}")), Some(m));
        }
    }

    #[test]
    fn spec_example_packs_and_prints() {
        let muid = Muid { timestamp: 1_642_579_230_975_519, medallion: 1_923_190_821_165, offset: 11 };
        let bytes = muid.pack().unwrap();
        assert_eq!(to_text(&bytes), "5D5EAC793E61F-1BFC71B112D-0000000B");
        assert_eq!(Muid::unpack(&bytes), muid);
    }

    #[test]
    fn negative_offsets_are_twos_complement_and_sort_last() {
        let bytes = Muid { timestamp: 5, medallion: 7, offset: -1 }.pack().unwrap();
        assert_eq!(to_text(&bytes), "0000000000005-00000000007-FFFFFFFF");
        assert!(bytes > Muid { timestamp: 5, medallion: 7, offset: i32::MAX }.pack().unwrap());
    }

    #[test]
    fn minus_one_is_all_bits_set_both_ways() {
        let bytes = Muid { timestamp: -1, medallion: -1, offset: -1 }.pack().unwrap();
        assert_eq!(bytes, [0xff; 16]);
        assert_eq!(Muid::unpack(&bytes), Muid { timestamp: -1, medallion: -1, offset: -1 });
    }

    #[test]
    fn fields_out_of_range_are_named() {
        let muid = |timestamp, medallion| Muid { timestamp, medallion, offset: 0 };
        assert_eq!(muid(TIMESTAMP_MAX + 1, 0).pack(), Err(Field::Timestamp));
        assert_eq!(muid(-2, 0).pack(), Err(Field::Timestamp));
        assert_eq!(muid(0, MEDALLION_MAX + 1).pack(), Err(Field::Medallion));
        assert_eq!(muid(0, -2).pack(), Err(Field::Medallion));
        assert_eq!(muid(TIMESTAMP_MAX, MEDALLION_MAX).pack(), muid(-1, -1).pack());
    }

    #[test]
    fn parse_takes_canonical_text_in_either_case_and_the_short_forms() {
        let full = parse("5D5EAC793E61F-1BFC71B112D-0000000B").unwrap();
        assert_eq!(parse("5d5eac793e61f-1bfc71b112d-0000000b"), Some(full));
        let short = parse("5D5EAC793E61F-1BFC71B112D").unwrap();
        assert_eq!(to_text(&short), "5D5EAC793E61F-1BFC71B112D-00000000");
        assert_eq!(to_text(&parse("5D5EAC793E61F").unwrap()), "5D5EAC793E61F-00000000000-00000000");
        for bad in [
            "",
            "5D5EAC793E61F-",
            "5D5EAC793E61F-1BFC71B112D-",
            "05D5EAC793E61F-1BFC71B112D-000000B",
            "5D5E_AC793E61-1BFC71B112D-0000000B",
            "0x5D5EAC793E6-1BFC71B112D-0000000B",
            "+D5EAC793E61F-1BFC71B112D-0000000B",
            " 5D5EAC793E61F-1BFC71B112D-0000000B",
            "5D5EAC793E61F-1BFC71B112D-0000000B-",
            "5D5EAC793E61F1BFC71B112D0000000B",
            "5d5eac79-3e61-f1bf-c71b-112d0000000b",
            "5D5EAC793E61G-1BFC71B112D-0000000B",
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }

    /// The timeline without a pace: what a library of 0.4.0 does.
    fn unpaced(timeline: &mut Timeline, now: i64) -> Option<i64> {
        match timeline.next(now, i64::MAX) {
            Next::Issue(timestamp) => Some(timestamp),
            Next::Exhausted => None,
            wait => panic!("{wait:?} without a ceiling"),
        }
    }

    #[test]
    fn timeline_is_the_clock_or_one_past_the_last() {
        let mut timeline = Timeline::new();
        assert_eq!(unpaced(&mut timeline, 100), Some(100));
        assert_eq!(unpaced(&mut timeline, 100), Some(101));
        assert_eq!(unpaced(&mut timeline, 50), Some(102));
        assert_eq!(unpaced(&mut timeline, 200), Some(200));
        assert_eq!(unpaced(&mut timeline, TIMESTAMP_MAX - 1), Some(TIMESTAMP_MAX - 1));
        assert_eq!(unpaced(&mut timeline, 0), None);
    }

    #[test]
    fn a_timestamp_past_the_ceiling_is_not_taken() {
        let mut timeline = Timeline::new();
        assert_eq!(timeline.next(100, 100), Next::Issue(100));
        assert_eq!(timeline.next(100, 100), Next::Wait { us: 1 + PACE_SLACK_US });
        assert_eq!(timeline.next(100, 101), Next::Issue(101));
        // Nothing issued moves nothing: the reservation stays where the last issued value put it.
        assert_eq!(timeline.reserved, 100 + high_water::WINDOW_US);
    }

    /// 2025-11-24 in unix µs, and a monotonic clock of a machine up for a day.
    const WALL: i64 = 1_764_000_000_000_000;
    const MONOTONIC: i64 = 86_400_000_000;
    const HOUR: i64 = 3_600_000_000;

    /// Calls of one session, one every `ns_per_call` ns on both clocks, waiting as told (both
    /// clocks move on by the wait), for `calls` timestamps or until `stop` says so. The clocks are
    /// `(wall, monotonic)` in ns, so that calls can come faster than one a µs.
    struct Session {
        wall_ns: i64,
        monotonic_ns: i64,
        issued: Vec<i64>,
        /// How far ahead of the wall clock each timestamp was when issued.
        ahead: Vec<i64>,
        waits: usize,
    }

    impl Session {
        fn at(wall_us: i64, monotonic_us: i64) -> Self {
            Session {
                wall_ns: wall_us * 1000,
                monotonic_ns: monotonic_us * 1000,
                issued: vec![],
                ahead: vec![],
                waits: 0,
            }
        }

        fn call(&mut self, timeline: &mut Timeline, pace: &mut Pace) -> Next {
            let (wall, monotonic) = (self.wall_ns / 1000, self.monotonic_ns / 1000);
            let next = pace.next(timeline, wall, || monotonic);
            match next {
                Next::Issue(timestamp) => {
                    self.issued.push(timestamp);
                    self.ahead.push(timestamp - wall);
                }
                Next::Wait { us } => {
                    self.waits += 1;
                    self.pass(us * 1000);
                }
                Next::Exhausted => panic!("exhausted at {wall}"),
            }
            next
        }

        fn pass(&mut self, ns: i64) {
            self.wall_ns += ns;
            self.monotonic_ns += ns;
        }

        fn burst(&mut self, timeline: &mut Timeline, pace: &mut Pace, calls: usize, ns_per_call: i64) {
            let target = self.issued.len() + calls;
            while self.issued.len() < target {
                self.call(timeline, pace);
                self.pass(ns_per_call);
            }
        }

        fn strictly_increasing(&self) -> bool {
            self.issued.windows(2).all(|w| w[0] < w[1])
        }
    }

    #[test]
    fn a_burst_stops_at_the_limit_and_goes_on_in_batches() {
        let (mut timeline, mut pace) = (Timeline::new(), Pace::new());
        let mut session = Session::at(WALL, MONOTONIC);
        // 5,000,000 calls 280 ns apart (the burst of the issue: 3.6 s ahead without the pace).
        session.burst(&mut timeline, &mut pace, 5_000_000, 280);
        let most_ahead = *session.ahead.iter().max().unwrap();
        assert_eq!(most_ahead, RUN_AHEAD_LIMIT_US);
        assert!(session.strictly_increasing());
        // At the limit, each wait lets a batch through: not a wait per call.
        let at_limit = session.ahead.iter().position(|&a| a == RUN_AHEAD_LIMIT_US).unwrap();
        let batch = (5_000_000 - at_limit) / session.waits;
        assert!(batch > 10_000, "{} waits for {} calls", session.waits, 5_000_000 - at_limit);
        // ... and the timeline keeps pace with the clock there: about a µs per call.
        let elapsed_us = session.wall_ns / 1000 - WALL;
        let issued_span = session.issued[5_000_000 - 1] - session.issued[0];
        assert!(issued_span - elapsed_us <= RUN_AHEAD_LIMIT_US, "{issued_span} µs issued in {elapsed_us} µs");
        assert!(elapsed_us > 5_000_000 - RUN_AHEAD_LIMIT_US - 50_000, "{elapsed_us} µs");
    }

    #[test]
    fn a_burst_that_stays_within_the_limit_never_waits() {
        let (mut timeline, mut pace) = (Timeline::new(), Pace::new());
        let mut session = Session::at(WALL, MONOTONIC);
        // The benches' size, as fast as a call could ever be.
        session.burst(&mut timeline, &mut pace, 2_000_000, 0);
        assert_eq!(session.waits, 0);
        assert_eq!(*session.ahead.last().unwrap(), RUN_AHEAD_LIMIT_US - 1);
    }

    #[test]
    fn a_step_back_of_an_hour_goes_on_ahead_at_once_and_bursts_stay_bounded_from_the_clock_before_it() {
        let (mut timeline, mut pace) = (Timeline::new(), Pace::new());
        let mut session = Session::at(WALL, MONOTONIC);
        session.burst(&mut timeline, &mut pace, 1_000, 1_000);
        session.wall_ns -= HOUR * 1000;
        let before = *session.issued.last().unwrap();
        assert_eq!(session.call(&mut timeline, &mut pace), Next::Issue(before + 1));
        session.burst(&mut timeline, &mut pace, 3_000_000, 100);
        let most_ahead = session.ahead.iter().max().unwrap() - HOUR;
        assert_eq!(most_ahead, RUN_AHEAD_LIMIT_US);
        assert!(session.strictly_increasing());
    }

    #[test]
    fn a_timeline_resumed_ahead_of_the_clock_goes_on_at_once() {
        use high_water::Persisted;
        for lead in [1, 500_000, RUN_AHEAD_LIMIT_US, HOUR] {
            let mut timeline = Timeline::new();
            timeline.resume([WALL + lead]);
            let mut session = Session::at(WALL, MONOTONIC);
            assert_eq!(session.call(&mut timeline, &mut Pace::new()), Next::Issue(WALL + lead), "lead {lead}");
        }
        // After a quick restart (a mark up to a second ahead) bursts go on up to the limit from
        // the clock.
        let (mut timeline, mut pace) = (Timeline::new(), Pace::new());
        timeline.resume([WALL + high_water::WINDOW_US]);
        let mut session = Session::at(WALL, MONOTONIC);
        session.burst(&mut timeline, &mut pace, (RUN_AHEAD_LIMIT_US - high_water::WINDOW_US + 1) as usize, 0);
        assert_eq!((session.waits, *session.ahead.last().unwrap()), (0, RUN_AHEAD_LIMIT_US));
        assert!(matches!(session.call(&mut timeline, &mut pace), Next::Wait { .. }));
        // After a restart an hour behind, the timeline goes on from the mark at the clock's pace:
        // whatever lead bursts built before the restart is not extended by another limit's worth.
        let (mut timeline, mut pace) = (Timeline::new(), Pace::new());
        timeline.resume([WALL + HOUR]);
        let mut session = Session::at(WALL, MONOTONIC);
        session.burst(&mut timeline, &mut pace, 100_000, 100);
        let elapsed = session.wall_ns / 1000 - WALL;
        assert!(*session.issued.last().unwrap() <= WALL + HOUR + elapsed);
        assert!(session.strictly_increasing());
    }

    #[test]
    fn a_timeline_moved_by_a_library_without_the_pace_is_taken_as_found() {
        let (mut timeline, mut pace) = (Timeline::new(), Pace::new());
        let mut session = Session::at(WALL, MONOTONIC);
        session.burst(&mut timeline, &mut pace, 10, 1_000);
        // 0.4.0's muid_new, 5,000,000 calls at once.
        let old = (0..5_000_000).map(|_| unpaced(&mut timeline, WALL)).last().flatten().unwrap();
        assert_eq!(session.call(&mut timeline, &mut pace), Next::Issue(old + 1));
        assert!(matches!(session.call(&mut timeline, &mut pace), Next::Wait { .. }));
    }

    /// What a session does next: call, let time pass, or step the wall clock (µs).
    #[derive(Clone, Debug)]
    enum Event {
        Calls(u16),
        Pass(i64),
        Step(i64),
        Restart,
    }

    fn event() -> impl Strategy<Value = Event> {
        prop_oneof![
            4 => (1u16..3_000).prop_map(Event::Calls),
            2 => (0i64..3_000_000).prop_map(Event::Pass),
            1 => prop_oneof![Just(-HOUR), Just(HOUR), -3_000_000i64..3_000_000].prop_map(Event::Step),
            1 => Just(Event::Restart),
        ]
    }

    proptest! {
        /// Whatever the clocks do: no timestamp twice, none more than the limit past the pace
        /// clock (as docs/muid.md defines it), and a wait only at that limit.
        #[test]
        fn paced_timestamps_never_repeat_and_stay_within_the_limit(events in prop::collection::vec(event(), 1..60)) {
            use high_water::Persisted;
            let (mut timeline, mut pace) = (Timeline::new(), Pace::new());
            let mut session = Session::at(WALL, MONOTONIC);
            // The pace clock's offset from the monotonic clock, as specified: the largest lead of
            // the wall clock seen since the start, and where a restart resumed, less the limit.
            let mut offset = i64::MIN;
            let mut resumed_at = None;
            for event in events {
                match event {
                    Event::Calls(n) => {
                        for _ in 0..n {
                            let (wall, monotonic) = (session.wall_ns / 1000, session.monotonic_ns / 1000);
                            offset = offset.max(wall - monotonic);
                            if let Some(reserved) = resumed_at.take() {
                                offset = offset.max(reserved - RUN_AHEAD_LIMIT_US - monotonic);
                            }
                            let last = session.issued.last().copied();
                            match session.call(&mut timeline, &mut pace) {
                                Next::Issue(t) => prop_assert!(t <= monotonic + offset + RUN_AHEAD_LIMIT_US),
                                // The lead the pace keeps for a step back is up to a refresh old.
                                Next::Wait { .. } => prop_assert!(last.unwrap() + 1 > monotonic + offset + RUN_AHEAD_LIMIT_US - PACE_REFRESH_US),
                                Next::Exhausted => prop_assert!(false),
                            }
                            session.pass(300);
                        }
                    }
                    Event::Pass(us) => session.pass(us * 1000),
                    Event::Step(us) => session.wall_ns += us * 1000,
                    Event::Restart => {
                        let record = timeline.record();
                        (timeline, pace) = (Timeline::new(), Pace::new());
                        timeline.resume(record);
                        offset = i64::MIN;
                        resumed_at = Some(record[0]);
                    }
                }
            }
            prop_assert!(session.strictly_increasing());
        }
    }

    proptest! {
        #[test]
        fn pack_unpack_and_text_round_trip(timestamp in -1i64..TIMESTAMP_MAX, medallion in -1i64..MEDALLION_MAX, offset: i32) {
            let muid = Muid { timestamp, medallion, offset };
            let bytes = muid.pack().unwrap();
            prop_assert_eq!(Muid::unpack(&bytes), muid);
            let text = to_text(&bytes);
            prop_assert_eq!(text.len(), TEXT_LEN);
            prop_assert_eq!(parse(&text), Some(bytes));
            prop_assert_eq!(parse(&text.to_lowercase()), Some(bytes));
        }

        #[test]
        fn byte_order_is_field_order(a in (0i64..=TIMESTAMP_MAX, 0i64..=MEDALLION_MAX, any::<u32>()),
                                     b in (0i64..=TIMESTAMP_MAX, 0i64..=MEDALLION_MAX, any::<u32>())) {
            let pack = |(t, m, o): (i64, i64, u32)| Muid { timestamp: t, medallion: m, offset: o as i32 }.pack().unwrap();
            prop_assert_eq!(pack(a).cmp(&pack(b)), a.cmp(&b));
        }
    }
}
