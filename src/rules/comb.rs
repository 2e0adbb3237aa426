//! COMB GUIDs: a clock value overlaid on the bytes of a GUID that sort first (RT.Comb 4.0.3, Jimmy
//! Nilsson's SQL Server COMB, and seed 001's ticks COMB).
//!
//! Every format is a clock plus a byte order: the clock's big-endian field occupies the most
//! significant bytes of the format's order, so values sort by time in the database that uses it.

use super::order::Order;
use super::time::{US_PER_DAY, US_PER_MS};
use std::fmt;

/// 1900-01-01 00:00:00 UTC, day 0 of SQL Server `datetime`.
const SQL_EPOCH_UNIX_US: i64 = -2_208_988_800_000_000;
/// 1/300 s units in a day: the largest valid time-of-day field, meaning the next midnight.
const T300_PER_DAY: u64 = 25_920_000;
/// The sqldatetime field keeps two bytes of days.
const SQL_DAYS: u64 = 65_536;
/// The sqldatetime clock's last unit: 2079-06-07 00:00:00 UTC, the midnight that ends day 65535.
/// Day 65536 does not fit in two bytes, so its only encoding is day 65535 with time of day
/// 25,920,000: the encoding every midnight also has as the end of the day before it (SQL Server and
/// RT.Comb's decoder read a time of day of 25,920,000 as the next midnight; `floor` returns it).
/// The clock's range therefore ends with this one microsecond, and decode, encode, `floor` and the
/// range bounds share it: every value that decodes has a time that encodes, and `floor` has a value
/// for every time a value can decode to (ids holding it once sorted past every bound).
const SQL_LAST_UNITS: u64 = SQL_DAYS * T300_PER_DAY;
/// 0001-01-01 and 10000-01-01 00:00:00 UTC: .NET `DateTime`'s range.
const DOTNET_MIN_UNIX_US: i64 = -62_135_596_800_000_000;
const DOTNET_END_UNIX_US: i64 = 253_402_300_800_000_000;
/// The last millisecond of a 48-bit field, 10889-08-02 05:31:50.655 UTC. PostgreSQL 18's
/// `uuidv7(interval)` takes times from 1970-01-01 to this instant inclusive (its
/// `UUIDV7_MAX_TIMESTAMP`, `(2^48 - 1) * 1000` µs), so its last millisecond holds one microsecond:
/// as the sqldatetime clock's last unit, the range ends with it.
const UUIDV7_LAST_UNITS: u64 = (1 << 48) - 1;
const TICKS_PER_US: u64 = 10;
/// Sub-unit counter of the generator, in the bits that sort right after the time field. Twelve
/// bits leave 62 random bits in a v4 or v7 layout (74 - 12), as in PostgreSQL 18's `uuidv7()`.
const COUNTER_BITS: u32 = 12;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Clock {
    /// Milliseconds since 1970-01-01 as 48 bits, to the end of .NET `DateTime` (RT.Comb
    /// `UnixDateTimeStrategy`).
    Unix,
    /// The same field over PostgreSQL 18's range for UUIDv7, to 10889-08-02 05:31:50.655 UTC
    /// (`UUIDV7_LAST_UNITS`): the ids its `uuidv7(interval)` makes and `uuid_extract_timestamp` reads.
    UnixUuidV7,
    /// Two bytes of days since 1900-01-01, four bytes of 1/300 s since midnight (SQL Server
    /// `datetime`, RT.Comb `SqlDateTimeStrategy`).
    SqlDateTime,
    /// .NET `DateTime.Ticks`, 100 ns since 0001-01-01, as 64 bits (seed 001).
    Ticks,
}

/// `$body` with `$format` a constant: one match arm per format, each expanding `$body` with `$name`
/// bound to that format. With the callees `#[inline(always)]`, each arm folds the format's tables
/// (time bytes, fixed bits, counter slots) to a few loads and stores instead of walking them on
/// every call: the hot paths (generating, masking) use it.
macro_rules! with_format_constant {
    ($format:expr, |$name:ident| $body:expr) => {
        with_format_constant!(@arms $format, $name, $body,
            PostgreSql SqlServer Legacy Binary PostgreSqlSqlDateTime BinarySqlDateTime Ticks UuidV7)
    };
    (@arms $format:expr, $name:ident, $body:expr, $($variant:ident)*) => {
        match $format {
            $(Format::$variant => {
                let $name = Format::$variant;
                $body
            })*
        }
    };
}
pub(crate) use with_format_constant;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    PostgreSql,
    SqlServer,
    Legacy,
    Binary,
    PostgreSqlSqlDateTime,
    BinarySqlDateTime,
    Ticks,
    /// RFC 9562 UUIDv7 as PostgreSQL 18's `uuidv7()` lays it out: the postgresql placement with
    /// version 7 and the 12 bits after the millisecond holding its fraction.
    UuidV7,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CombError {
    /// The time cannot be written in the clock's field.
    TimeOutOfRange { clock: Clock, unix_us: i64 },
    /// No value of the clock has a time at or after `unix_us` (it is inside the range, but after the
    /// start of the clock's last unit). The sqldatetime clock's last unit is one microsecond long, so
    /// it never gives this.
    AfterLastUnit { clock: Clock, unix_us: i64 },
    /// The field read from a GUID is not a time the clock defines.
    InvalidField { clock: Clock, field: u64 },
    /// A uuid decoded as `uuidv7` is not an RFC 9562 version 7 uuid.
    NotUuidV7 { version: u8, variant: u8 },
}

impl Clock {
    pub const fn name(self) -> &'static str {
        match self {
            Clock::Unix => "unix",
            Clock::UnixUuidV7 => "unix (uuidv7)",
            Clock::SqlDateTime => "sqldatetime",
            Clock::Ticks => "ticks",
        }
    }

    /// Bytes the clock's field takes in the GUID.
    pub const fn field_len(self) -> usize {
        match self {
            Clock::Ticks => 8,
            _ => 6,
        }
    }

    /// Times the clock can encode, as [start, end) in unix µs.
    pub const fn range(self) -> (i64, i64) {
        match self {
            Clock::Unix => (0, DOTNET_END_UNIX_US),
            // Through 10889-08-02 05:31:50.655 inclusive, as PostgreSQL 18 checks it.
            Clock::UnixUuidV7 => (0, UUIDV7_LAST_UNITS as i64 * US_PER_MS + 1),
            // Through 2079-06-07 00:00:00 inclusive (SQL_LAST_UNITS).
            Clock::SqlDateTime => (SQL_EPOCH_UNIX_US, SQL_EPOCH_UNIX_US + SQL_DAYS as i64 * US_PER_DAY + 1),
            Clock::Ticks => (DOTNET_MIN_UNIX_US, DOTNET_END_UNIX_US),
        }
    }

    pub const fn range_text(self) -> &'static str {
        match self {
            Clock::Unix => "1970-01-01 00:00:00 UTC to 9999-12-31 23:59:59.999999 UTC",
            Clock::UnixUuidV7 => "1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC",
            Clock::SqlDateTime => "1900-01-01 00:00:00 UTC to 2079-06-07 00:00:00 UTC",
            Clock::Ticks => "0001-01-01 00:00:00 UTC to 9999-12-31 23:59:59.999999 UTC",
        }
    }

    /// What an ERROR about the clock's range adds as its DETAIL: for uuidv7, that the range is
    /// PostgreSQL 18's (its `uuidv7(interval)` says "UUID version 7 supports timestamps from
    /// 1970-01-01 to approximately year 10889.").
    pub const fn range_detail(self) -> Option<&'static str> {
        match self {
            Clock::UnixUuidV7 => Some(
                "UUID version 7 holds 48 bits of milliseconds since 1970-01-01, so it supports timestamps from \
                 1970-01-01 to 10889-08-02 05:31:50.655 UTC, as PostgreSQL 18's uuidv7(interval) does; \
                 infinite timestamps are not supported.",
            ),
            _ => None,
        }
    }

    pub const fn unit_text(self) -> &'static str {
        match self {
            Clock::Unix | Clock::UnixUuidV7 => "1 ms",
            Clock::SqlDateTime => "1/300 s",
            Clock::Ticks => "100 ns",
        }
    }

    /// The clock unit containing `unix_us`, counted linearly from the clock's epoch
    /// (for sqldatetime: days * 25,920,000 + 1/300 s units), so that "the next unit" is `+ 1`.
    pub fn units(self, unix_us: i64) -> Result<u64, CombError> {
        let (start, end) = self.range();
        if unix_us < start || unix_us >= end {
            return Err(CombError::TimeOutOfRange { clock: self, unix_us });
        }
        let since_start = (unix_us - start) as u64;
        Ok(match self {
            Clock::Unix | Clock::UnixUuidV7 => since_start / US_PER_MS as u64,
            Clock::SqlDateTime => {
                let days = since_start / US_PER_DAY as u64;
                let micros_of_day = since_start % US_PER_DAY as u64;
                days * T300_PER_DAY + micros_of_day * 3 / 10_000
            }
            Clock::Ticks => since_start * TICKS_PER_US,
        })
    }

    /// How far into its unit `unix_us` is, in 1/2^bits of the unit, rounded down (RFC 9562
    /// method 3, as PostgreSQL 18 fills `rand_a`). Ticks are finer than the microsecond clock
    /// that feeds them, so their fraction is always 0.
    pub fn fraction(self, unix_us: i64, bits: u32) -> Result<u32, CombError> {
        self.units(unix_us)?;
        let since_start = (unix_us - self.range().0) as u64;
        // Position in the unit as (numerator, unit length), both in a common sub-µs unit.
        let (into_unit, unit_len) = match self {
            Clock::Unix | Clock::UnixUuidV7 => (since_start % US_PER_MS as u64, US_PER_MS as u64),
            Clock::SqlDateTime => (since_start % US_PER_DAY as u64 * 3 % 10_000, 10_000),
            Clock::Ticks => return Ok(0),
        };
        Ok(((into_unit << bits) / unit_len) as u32)
    }

    /// The first whole microsecond of a unit: the smallest `t` with `units(t) == units`.
    pub fn unix_us(self, units: u64) -> i64 {
        let (start, _) = self.range();
        let offset = match self {
            Clock::Unix | Clock::UnixUuidV7 => units * US_PER_MS as u64,
            Clock::SqlDateTime => {
                let days = units / T300_PER_DAY;
                let t300 = units % T300_PER_DAY;
                days * US_PER_DAY as u64 + (t300 * 10_000).div_ceil(3)
            }
            Clock::Ticks => units / TICKS_PER_US,
        };
        start + offset as i64
    }

    /// The last unit that starts inside the clock's range (for sqldatetime, 2079-06-07 00:00:00, and
    /// for uuidv7, 10889-08-02 05:31:50.655, units of which only the first microsecond is in the
    /// range: `SQL_LAST_UNITS`, `UUIDV7_LAST_UNITS`).
    pub fn max_units(self) -> u64 {
        let (start, end) = self.range();
        let span_us = (end - start) as u64;
        match self {
            Clock::Unix => span_us / US_PER_MS as u64 - 1,
            Clock::UnixUuidV7 => UUIDV7_LAST_UNITS,
            Clock::SqlDateTime => SQL_LAST_UNITS,
            Clock::Ticks => span_us * TICKS_PER_US - 1,
        }
    }

    /// The unit as the clock writes it in a GUID (right-aligned in a u64). Every sqldatetime unit
    /// is written as its day and time of day below 25,920,000, as SQL Server writes a `datetime`
    /// (and RT.Comb its COMBs), except the last: 2079-06-07 00:00:00 has no day of its own in two
    /// bytes and is day 65535's 25,920,000.
    fn field(self, units: u64) -> u64 {
        match self {
            Clock::SqlDateTime if units == SQL_LAST_UNITS => ((SQL_DAYS - 1) << 32) | T300_PER_DAY,
            Clock::SqlDateTime => ((units / T300_PER_DAY) << 32) | (units % T300_PER_DAY),
            Clock::Unix | Clock::UnixUuidV7 | Clock::Ticks => units,
        }
    }

    /// Inverse of `field`. A sqldatetime time of day of exactly one day is accepted as the next
    /// midnight (SQL Server does the same; on day 65535 it is `SQL_LAST_UNITS`, still in the
    /// range); anything the clock does not define is an error.
    fn units_from_field(self, field: u64) -> Result<u64, CombError> {
        let units = match self {
            Clock::SqlDateTime => {
                let t300 = field & 0xFFFF_FFFF;
                if t300 > T300_PER_DAY {
                    return Err(CombError::InvalidField { clock: self, field });
                }
                (field >> 32) * T300_PER_DAY + t300
            }
            Clock::Unix | Clock::UnixUuidV7 | Clock::Ticks => field,
        };
        if units > self.max_units() {
            return Err(CombError::InvalidField { clock: self, field });
        }
        Ok(units)
    }
}

impl Format {
    pub const ALL: [Format; 8] = [
        Format::PostgreSql,
        Format::SqlServer,
        Format::Legacy,
        Format::Binary,
        Format::PostgreSqlSqlDateTime,
        Format::BinarySqlDateTime,
        Format::Ticks,
        Format::UuidV7,
    ];

    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The SQL label of the `comb_format` enum.
    pub const fn name(self) -> &'static str {
        match self {
            Format::PostgreSql => "postgresql",
            Format::SqlServer => "sqlserver",
            Format::Legacy => "legacy",
            Format::Binary => "binary",
            Format::PostgreSqlSqlDateTime => "postgresql_sqldatetime",
            Format::BinarySqlDateTime => "binary_sqldatetime",
            Format::Ticks => "ticks",
            Format::UuidV7 => "uuidv7",
        }
    }

    pub const fn clock(self) -> Clock {
        match self {
            Format::PostgreSql | Format::SqlServer | Format::Binary => Clock::Unix,
            // PostgreSQL 18's range, not RT.Comb's: its uuidv7(interval) makes ids up to year 10889.
            Format::UuidV7 => Clock::UnixUuidV7,
            Format::Legacy | Format::PostgreSqlSqlDateTime | Format::BinarySqlDateTime => Clock::SqlDateTime,
            Format::Ticks => Clock::Ticks,
        }
    }

    /// The order the format's values are meant to be sorted in.
    pub const fn order(self) -> Order {
        match self {
            Format::PostgreSql | Format::PostgreSqlSqlDateTime | Format::UuidV7 => Order::Bytes,
            Format::SqlServer | Format::Legacy | Format::Ticks => Order::SqlServer,
            Format::Binary | Format::BinarySqlDateTime => Order::DotNetBytes,
        }
    }

    /// String bytes holding the time field, most significant first: the first bytes of the order.
    pub fn time_positions(self) -> &'static [usize] {
        &self.order().significance()[..self.clock().field_len()]
    }

    /// Bits of string byte `position` that are not random: the v4 or v7 version nibble and variant
    /// bits, or seed 001's marker nibble.
    pub(crate) const fn fixed_bits(self, position: usize) -> u8 {
        match (self, position) {
            (Format::Ticks, 7) => 0xF0,
            (Format::Ticks, _) => 0,
            (_, 6) => 0xF0,
            (_, 8) => 0xC0,
            _ => 0,
        }
    }

    /// Width of the generator's sub-unit counter. The ticks clock has no spare bits to give (its
    /// layout keeps only 60 random bits), but it counts in 100 ns while the wall clock gives 1 µs:
    /// the sub-microsecond ticks serve as its counter.
    const fn counter_bits(self) -> u32 {
        match self {
            Format::Ticks => 0,
            _ => COUNTER_BITS,
        }
    }

    /// A random GUID with the format's fixed bits set: v4 (v7) version and variant, or the ticks
    /// marker.
    pub fn random_base(self, random: [u8; 16]) -> [u8; 16] {
        let mut id = random;
        self.set_fixed_bits(&mut id);
        id
    }

    pub(crate) fn set_fixed_bits(self, id: &mut [u8; 16]) {
        let version = match self {
            Format::Ticks => {
                id[7] = 0xC0 | (id[7] & 0x0F);
                return;
            }
            Format::UuidV7 => 0x70,
            _ => 0x40,
        };
        id[6] = version | (id[6] & 0x0F);
        id[8] = 0x80 | (id[8] & 0x3F);
    }

    /// Whether `id` has the fixed bits `set_fixed_bits` gives.
    pub(crate) fn has_fixed_bits(self, id: &[u8; 16]) -> bool {
        let mut expected = *id;
        self.set_fixed_bits(&mut expected);
        expected == *id
    }

    fn write_units(self, id: &mut [u8; 16], units: u64) {
        self.write_field(id, self.clock().field(units));
    }

    fn write_field(self, id: &mut [u8; 16], field: u64) {
        let field = field.to_be_bytes();
        let len = self.clock().field_len();
        for (&position, &byte) in self.time_positions().iter().zip(&field[8 - len..]) {
            id[position] = byte;
        }
    }

    fn read_units(self, id: &[u8; 16]) -> Result<u64, CombError> {
        let mut field = 0u64;
        for &position in self.time_positions() {
            field = field << 8 | id[position] as u64;
        }
        self.clock().units_from_field(field)
    }

    /// The counter's bits: the free (non-fixed) bits right after the time field in the format's
    /// order, as (string byte, mask of the bits used, shift of the lowest used bit).
    fn counter_slots(self) -> impl Iterator<Item = (usize, u8, u32)> {
        let mut remaining = self.counter_bits();
        self.order().significance()[self.clock().field_len()..].iter().map_while(move |&position| {
            if remaining == 0 {
                return None;
            }
            // Fixed bits are always the high ones, so the free bits are the low `width`.
            let width = (!self.fixed_bits(position)).count_ones();
            let take = width.min(remaining);
            remaining -= take;
            let shift = width - take;
            Some((position, (((1u16 << take) - 1) as u8) << shift, shift))
        })
    }

    /// The counter's bits in each string byte (0 outside them), in one pass over its slots.
    pub(crate) fn counter_masks(self) -> [u8; 16] {
        let mut masks = [0u8; 16];
        for (position, mask, _) in self.counter_slots() {
            masks[position] = mask;
        }
        masks
    }

    /// XOR `value`'s low `counter_bits()` bits into the counter's bits, most significant first.
    pub(crate) fn xor_counter(self, id: &mut [u8; 16], value: u32) {
        let mut remaining = self.counter_bits();
        for (position, mask, shift) in self.counter_slots() {
            remaining -= mask.count_ones();
            id[position] ^= ((value >> remaining) as u8) << shift & mask;
        }
    }

    fn write_counter(self, id: &mut [u8; 16], counter: u32) {
        let mut remaining = self.counter_bits();
        for (position, mask, shift) in self.counter_slots() {
            remaining -= mask.count_ones();
            let part = ((counter >> remaining) as u8) << shift & mask;
            id[position] = (id[position] & !mask) | part;
        }
    }
}

/// RT.Comb `Create(Guid, DateTime)`: `base` with the time written over the format's time bytes
/// (and seed 001's marker nibble set for ticks, version 7 and the variant for uuidv7). Every
/// other bit of `base` is kept.
pub fn stamp(base: [u8; 16], unix_us: i64, format: Format) -> Result<[u8; 16], CombError> {
    let units = format.clock().units(unix_us)?;
    let mut id = base;
    format.write_units(&mut id, units);
    if matches!(format, Format::Ticks | Format::UuidV7) {
        format.set_fixed_bits(&mut id);
    }
    Ok(id)
}

/// A new value for a given time from random bytes: the time, and in the counter bits the time's
/// fraction of its clock unit (as `uuidv7()` does), so that values sort by the exact time given.
pub fn at(random: [u8; 16], unix_us: i64, format: Format) -> Result<[u8; 16], CombError> {
    let clock = format.clock();
    let mut id = format.random_base(random);
    format.write_units(&mut id, clock.units(unix_us)?);
    format.write_counter(&mut id, clock.fraction(unix_us, format.counter_bits())?);
    Ok(id)
}

/// The time embedded in `id`: the first microsecond of its clock unit. A `uuidv7` must be an
/// RFC 9562 version 7 uuid.
pub fn timestamp(id: &[u8; 16], format: Format) -> Result<i64, CombError> {
    if format == Format::UuidV7 && (id[6] >> 4 != 7 || id[8] >> 6 != 0b10) {
        return Err(CombError::NotUuidV7 { version: id[6] >> 4, variant: id[8] >> 6 });
    }
    Ok(format.clock().unix_us(format.read_units(id)?))
}

/// The smallest value, in the format's order, whose `timestamp` is at or after `unix_us`; so
/// `floor(t1) <= id < floor(t2)` exactly when `t1 <= timestamp(id) < t2`.
pub fn floor(unix_us: i64, format: Format) -> Result<[u8; 16], CombError> {
    let clock = format.clock();
    let mut units = clock.units(unix_us)?;
    if clock.unix_us(units) < unix_us {
        units += 1;
        if units > clock.max_units() {
            return Err(CombError::AfterLastUnit { clock, unix_us });
        }
    }
    let mut id = [0u8; 16];
    if clock == Clock::SqlDateTime && units > 0 && units % T300_PER_DAY == 0 {
        // A midnight has two encodings: the previous day's time of day 25,920,000 (valid, as in
        // SQL Server) sorts before the day's 0, so it is the smallest value of that time. The last
        // one, 2079-06-07 00:00:00, has only that encoding (`SQL_LAST_UNITS`).
        format.write_field(&mut id, (units / T300_PER_DAY - 1) << 32 | T300_PER_DAY);
    } else {
        format.write_units(&mut id, units);
    }
    if format == Format::UuidV7 {
        // The smallest valid UUIDv7 of the millisecond: it decodes, and no v7 of it sorts lower.
        format.set_fixed_bits(&mut id);
    }
    Ok(id)
}

/// A time bound of a range scan: finite and within the clock, or open on either side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    BeforeAll,
    At(i64),
    AfterAll,
}

/// `floor`, with times the format cannot hold mapped past the matching end of its order (all
/// zero bytes, all one bytes), so that `[range_bound(t1), range_bound(t2))` selects the values
/// made in [t1, t2) whatever t1 and t2 are.
pub fn range_bound(bound: Bound, format: Format) -> [u8; 16] {
    match bound {
        Bound::BeforeAll => [0; 16],
        Bound::AfterAll => [0xFF; 16],
        Bound::At(unix_us) => match floor(unix_us, format) {
            Ok(id) => id,
            Err(_) if unix_us < format.clock().range().0 => [0; 16],
            Err(_) => [0xFF; 16],
        },
    }
}

/// Whether `id` lies in [lower, upper) in the format's order: for a valid COMB, whether its time
/// lies in the range the bounds were made from.
pub fn in_range(id: &[u8; 16], lower: &[u8; 16], upper: &[u8; 16], format: Format) -> bool {
    let order = format.order();
    order.cmp(id, lower).is_ge() && order.cmp(id, upper).is_lt()
}

/// Seed 001's `IsComb`: the high nibble of .NET byte 6 (string byte 7) is 0xC.
pub fn is_ticks_comb(id: &[u8; 16]) -> bool {
    id[7] & 0xC0 == 0xC0
}

/// One session's generator for one format: values strictly increase in the format's order.
///
/// The counter bits carry the time's fraction of its clock unit (RFC 9562 method 3, as PostgreSQL
/// 18's `uuidv7()`), so values from all sessions interleave in real time; when that would not
/// exceed the session's last value, the last counter + 1; past its top the generator borrows the
/// next unit. A clock that steps back is ignored until it passes the last value: values keep
/// increasing and carry the later time meanwhile.
#[derive(Clone, Debug)]
pub struct Generator {
    format: Format,
    last: Option<(u64, u32)>,
}

impl Generator {
    pub const fn new(format: Format) -> Self {
        Generator { format, last: None }
    }

    pub fn next(&mut self, now_unix_us: i64, random: [u8; 16]) -> Result<[u8; 16], CombError> {
        with_format_constant!(self.format, |format| self.next_in(format, now_unix_us, random))
    }

    #[inline(always)]
    fn next_in(&mut self, format: Format, now_unix_us: i64, random: [u8; 16]) -> Result<[u8; 16], CombError> {
        let clock = format.clock();
        let now = (clock.units(now_unix_us)?, clock.fraction(now_unix_us, format.counter_bits())?);
        let (units, counter) = match self.last {
            Some(last) if now <= last => {
                let (last_units, last_counter) = last;
                let counter = last_counter + 1;
                if counter >> format.counter_bits() == 0 {
                    (last_units, counter)
                } else if last_units < clock.max_units() {
                    (last_units + 1, 0)
                } else {
                    return Err(CombError::TimeOutOfRange { clock, unix_us: clock.unix_us(last_units) });
                }
            }
            _ => now,
        };
        let mut id = format.random_base(random);
        format.write_units(&mut id, units);
        format.write_counter(&mut id, counter);
        self.last = Some((units, counter));
        Ok(id)
    }
}

impl fmt::Display for CombError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CombError::TimeOutOfRange { clock, unix_us } => write!(
                f,
                "time {unix_us} µs since 1970 is outside the {} clock's range, {}",
                clock.name(),
                clock.range_text()
            ),
            CombError::AfterLastUnit { clock, unix_us } => write!(
                f,
                "time {unix_us} µs since 1970 is after the start of the {} clock's last unit, {} µs",
                clock.name(),
                clock.unix_us(clock.max_units())
            ),
            CombError::NotUuidV7 { version, variant } if version != 7 => {
                write!(f, "its version nibble is {version:x}, an RFC 9562 UUIDv7's is 7 (variant {variant:02b}, of 10)")
            }
            CombError::NotUuidV7 { variant, .. } => {
                write!(f, "its variant bits are {variant:02b}, an RFC 9562 UUIDv7's are 10 (with version 7)")
            }
            CombError::InvalidField { clock, field } => match clock {
                // Every 48-bit field is in range; kept for completeness.
                Clock::UnixUuidV7 => write!(
                    f,
                    "embedded {field} ms since 1970 is past {} (at most {})",
                    clock.range_text(),
                    clock.max_units()
                ),
                Clock::Unix => write!(
                    f,
                    "embedded {field} ms since 1970 is past 9999-12-31 23:59:59.999 UTC (at most {})",
                    clock.max_units()
                ),
                Clock::SqlDateTime => write!(
                    f,
                    "embedded time of day {} (1/300 s units) exceeds one day, {T300_PER_DAY}",
                    field & 0xFFFF_FFFF
                ),
                Clock::Ticks => write!(
                    f,
                    "embedded {field} ticks are past 9999-12-31 23:59:59.9999999 UTC (at most {})",
                    clock.max_units()
                ),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn any_format() -> impl Strategy<Value = Format> {
        prop::sample::select(Format::ALL.to_vec())
    }

    #[test]
    fn clock_ranges_match_their_documented_edges() {
        assert_eq!(Clock::Unix.max_units(), 253_402_300_799_999);
        assert_eq!(Clock::UnixUuidV7.max_units(), 281_474_976_710_655);
        // Day 65535's time of day 25,920,000: 2079-06-07 00:00:00 UTC.
        assert_eq!(Clock::SqlDateTime.max_units(), 65_535 * T300_PER_DAY + T300_PER_DAY);
        assert_eq!(Clock::Ticks.max_units(), 3_155_378_975_999_999_999);
        // .NET ticks from 0001-01-01 to the Unix epoch.
        assert_eq!(Clock::Ticks.units(0).unwrap(), 621_355_968_000_000_000);
        // 2079-06-06 is day 65535, so the range ends at 2079-06-07 00:00:00 UTC, inclusive.
        assert_eq!(Clock::SqlDateTime.range().1, 3_453_321_600_000_001);
        assert_eq!(Clock::SqlDateTime.unix_us(Clock::SqlDateTime.max_units()), 3_453_321_600_000_000);
    }

    #[test]
    fn sqldatetime_truncates_to_one_300th_and_decodes_to_the_first_microsecond() {
        let clock = Clock::SqlDateTime;
        let day = 45_000i64;
        let midnight = SQL_EPOCH_UNIX_US + day * US_PER_DAY;
        // 1/300 s = 3333.33 µs: 3333 µs is still unit 0, 3334 µs is unit 1.
        assert_eq!(clock.units(midnight + 3_333).unwrap() % T300_PER_DAY, 0);
        assert_eq!(clock.units(midnight + 3_334).unwrap() % T300_PER_DAY, 1);
        assert_eq!(clock.unix_us(clock.units(midnight + 3_334).unwrap()), midnight + 3_334);
        // Unit 2 starts at 6666.67 µs: decoded as 6667.
        assert_eq!(clock.unix_us(day as u64 * T300_PER_DAY + 2), midnight + 6_667);
    }

    #[test]
    fn sqldatetime_field_of_one_whole_day_is_the_next_midnight() {
        let clock = Clock::SqlDateTime;
        let field = 7u64 << 32 | T300_PER_DAY;
        let units = clock.units_from_field(field).unwrap();
        assert_eq!(clock.unix_us(units), SQL_EPOCH_UNIX_US + 8 * US_PER_DAY);
        assert!(clock.units_from_field(7u64 << 32 | (T300_PER_DAY + 1)).is_err());
    }

    #[test]
    fn the_floor_of_a_midnight_is_its_smaller_encoding_the_previous_days_25920000() {
        let clock = Clock::SqlDateTime;
        let midnight = SQL_EPOCH_UNIX_US + US_PER_DAY; // 1900-01-02
        for format in [Format::Legacy, Format::PostgreSqlSqlDateTime, Format::BinarySqlDateTime] {
            let bound = floor(midnight, format).unwrap();
            assert_eq!(timestamp(&bound, format).unwrap(), midnight, "{format:?}");
            let mut late = [0u8; 16];
            format.write_field(&mut late, T300_PER_DAY); // day 0, time of day 25,920,000
            let mut early = [0u8; 16];
            format.write_units(&mut early, clock.units(midnight).unwrap()); // day 1, 0
            assert_eq!(bound, late, "{format:?}");
            assert!(in_range(&late, &bound, &[0xFF; 16], format), "{format:?}");
            assert!(in_range(&early, &bound, &[0xFF; 16], format), "{format:?}");
            // One microsecond later, the previous day's encoding is before the range.
            let after = floor(midnight + 1, format).unwrap();
            assert!(!in_range(&late, &after, &[0xFF; 16], format), "{format:?}");
        }
        // The day's first unit bound is unchanged elsewhere: day 0's midnight has one encoding.
        assert_eq!(floor(SQL_EPOCH_UNIX_US, Format::Legacy).unwrap(), [0u8; 16]);
    }

    const SQL_FORMATS: [Format; 3] = [Format::Legacy, Format::PostgreSqlSqlDateTime, Format::BinarySqlDateTime];
    /// 2079-06-07 00:00:00 UTC: the midnight that ends day 65535.
    const SQL_LAST_US: i64 = 3_453_321_600_000_000;

    /// A value with the sqldatetime field (day, time of day) and `rest` in every other byte.
    fn sql_value(format: Format, day: u64, t300: u64, rest: u8) -> [u8; 16] {
        let mut id = [rest; 16];
        format.write_field(&mut id, day << 32 | t300);
        id
    }

    /// `in_range` with the bounds made from `lower` and `upper` agrees with comparing the decoded
    /// time (`None` is -infinity as a lower bound, +infinity as an upper one).
    fn assert_in_range_is_the_comparison(id: &[u8; 16], format: Format, lower: Option<i64>, upper: Option<i64>) {
        let time = timestamp(id, format).unwrap();
        let lower_bound = range_bound(lower.map_or(Bound::BeforeAll, Bound::At), format);
        let upper_bound = range_bound(upper.map_or(Bound::AfterAll, Bound::At), format);
        let expected = lower.is_none_or(|l| l <= time) && upper.is_none_or(|u| time < u);
        assert_eq!(
            in_range(id, &lower_bound, &upper_bound, format),
            expected,
            "{format:?} {id:02x?} decoded {time}, range {lower:?}..{upper:?}"
        );
    }

    #[test]
    fn the_sqldatetime_clock_ends_with_day_65535s_time_of_day_25920000() {
        let clock = Clock::SqlDateTime;
        assert_eq!(clock.units(SQL_LAST_US).unwrap(), SQL_LAST_UNITS);
        assert!(clock.units(SQL_LAST_US + 1).is_err());
        assert_eq!(clock.fraction(SQL_LAST_US, 12).unwrap(), 0);
        for format in SQL_FORMATS {
            let last = sql_value(format, 65_535, T300_PER_DAY, 0);
            // RT.Comb's decoder reads it as this time too (tests/vectors/rtcomb/decode.json).
            assert_eq!(timestamp(&last, format).unwrap(), SQL_LAST_US, "{format:?}");
            // It encodes, in stamp, the generator and floor alike, and nothing later does.
            assert_eq!(stamp([0; 16], SQL_LAST_US, format).unwrap(), last, "{format:?}");
            assert!(stamp([0; 16], SQL_LAST_US + 1, format).is_err(), "{format:?}");
            let generated = Generator::new(format).next(SQL_LAST_US, [0; 16]).unwrap();
            assert_eq!(timestamp(&generated, format).unwrap(), SQL_LAST_US, "{format:?}");
            assert_eq!(floor(SQL_LAST_US, format).unwrap(), last, "{format:?}");
            // Every time after the start of day 65535's last 1/300 s has it as its floor.
            let last_unit_us = clock.unix_us(SQL_LAST_UNITS - 1);
            assert_eq!(last_unit_us, SQL_LAST_US - 3_333, "{format:?}");
            assert_eq!(floor(last_unit_us, format).unwrap(), sql_value(format, 65_535, T300_PER_DAY - 1, 0));
            assert_eq!(floor(last_unit_us + 1, format).unwrap(), last, "{format:?}");
            assert!(matches!(floor(SQL_LAST_US + 1, format), Err(CombError::TimeOutOfRange { .. })));
            assert_eq!(range_bound(Bound::At(SQL_LAST_US + 1), format), [0xFF; 16], "{format:?}");
        }
        // The values of the report: before this rule, in [2079-06-01, 2079-06-07) and not after it.
        let legacy = [0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0xFF, 0xFF, 0x01, 0x8B, 0x82, 0x00];
        let pg = [0xFF, 0xFF, 0x01, 0x8B, 0x82, 0x00, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0];
        let binary = [0x8B, 0x01, 0xFF, 0xFF, 0x00, 0x82, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0];
        let june_1 = SQL_LAST_US - 6 * US_PER_DAY;
        for (id, format) in
            [(legacy, Format::Legacy), (pg, Format::PostgreSqlSqlDateTime), (binary, Format::BinarySqlDateTime)]
        {
            assert_eq!(timestamp(&id, format).unwrap(), SQL_LAST_US, "{format:?}");
            let bounds = |l: i64, u: Bound| (range_bound(Bound::At(l), format), range_bound(u, format));
            let (l, u) = bounds(june_1, Bound::At(SQL_LAST_US));
            assert!(!in_range(&id, &l, &u, format), "{format:?}");
            let (l, u) = bounds(SQL_LAST_US, Bound::AfterAll);
            assert!(in_range(&id, &l, &u, format), "{format:?}");
        }
    }

    #[test]
    fn sqldatetime_bounds_agree_with_the_decoded_time_at_the_end_of_the_range() {
        let clock = Clock::SqlDateTime;
        // Every encoding near the end, and a few further back.
        let fields = [
            (65_535, T300_PER_DAY),
            (65_535, T300_PER_DAY - 1),
            (65_535, T300_PER_DAY - 2),
            (65_535, 1),
            (65_535, 0),
            (65_534, T300_PER_DAY),
            (65_534, T300_PER_DAY - 1),
            (0, 0),
        ];
        // Bounds: every decoded time and its neighbours, the unit starts between them (fractional
        // µs), and times past the end of the clock.
        let mut times = vec![SQL_LAST_US + 1, SQL_LAST_US + 2, SQL_LAST_US + US_PER_DAY, i64::MAX / 2];
        for &(day, t300) in &fields {
            let time = clock.unix_us(day * T300_PER_DAY + t300);
            times.extend([time - 2, time - 1, time, time + 1, time + 2, time + 3_333, time + 3_334]);
        }
        for format in SQL_FORMATS {
            for rest in [0x00, 0xFF, 0x5A] {
                for &(day, t300) in &fields {
                    let id = sql_value(format, day, t300, rest);
                    for lower in times.iter().copied().map(Some).chain([None]) {
                        for upper in times.iter().copied().map(Some).chain([None]) {
                            assert_in_range_is_the_comparison(&id, format, lower, upper);
                        }
                    }
                }
            }
            // Floor: the smallest value at or after the time, decoding to the first unit there.
            for &t in &times {
                match floor(t, format) {
                    Ok(bound) => {
                        let decoded = timestamp(&bound, format).unwrap();
                        assert!(decoded >= t && clock.units(decoded).unwrap() <= clock.units(t).unwrap() + 1);
                    }
                    Err(_) => assert!(!(SQL_EPOCH_UNIX_US..=SQL_LAST_US).contains(&t), "{format:?} floor({t})"),
                }
            }
        }
    }

    #[test]
    fn sqldatetime_bounds_agree_with_the_decoded_time_at_every_midnight() {
        let clock = Clock::SqlDateTime;
        for format in SQL_FORMATS {
            for day in 0..SQL_DAYS {
                // The midnight ending `day`, held by (day, 25,920,000) and, but for the last, (day + 1, 0).
                let midnight = clock.unix_us((day + 1) * T300_PER_DAY);
                let mut ids = vec![
                    sql_value(format, day, T300_PER_DAY, 0),
                    sql_value(format, day, T300_PER_DAY, 0xFF),
                    sql_value(format, day, T300_PER_DAY - 1, 0xFF),
                ];
                if day + 1 < SQL_DAYS {
                    ids.extend([sql_value(format, day + 1, 0, 0), sql_value(format, day + 1, 1, 0)]);
                }
                // (time, its bound as a lower one, as an upper one); None is -infinity as a lower
                // bound and infinity as an upper one.
                let times = [None, Some(midnight - 3_334), Some(midnight - 1), Some(midnight), Some(midnight + 1)];
                let bounds = times.map(|t| {
                    let lower = range_bound(t.map_or(Bound::BeforeAll, Bound::At), format);
                    let upper = range_bound(t.map_or(Bound::AfterAll, Bound::At), format);
                    (t, lower, upper)
                });
                for id in &ids {
                    let time = timestamp(id, format).unwrap();
                    for (lower, lower_bound, _) in &bounds {
                        for (upper, _, upper_bound) in &bounds {
                            let expected = lower.is_none_or(|l| l <= time) && upper.is_none_or(|u| time < u);
                            if in_range(id, lower_bound, upper_bound, format) != expected {
                                panic!("{format:?} {id:02x?} decoded {time}, range {lower:?}..{upper:?}");
                            }
                        }
                    }
                }
                // The floor of the midnight decodes to it and is its smaller encoding.
                let bound = floor(midnight, format).unwrap();
                assert_eq!(bound, sql_value(format, day, T300_PER_DAY, 0), "{format:?} day {day}");
                assert_eq!(timestamp(&bound, format).unwrap(), midnight);
            }
        }
    }

    #[test]
    fn counter_takes_the_twelve_free_bits_after_the_time() {
        let slots = |f: Format| f.counter_slots().collect::<Vec<_>>();
        assert_eq!(slots(Format::PostgreSql), vec![(6, 0x0F, 0), (7, 0xFF, 0)]);
        assert_eq!(slots(Format::SqlServer), vec![(8, 0x3F, 0), (9, 0xFC, 2)]);
        assert_eq!(slots(Format::Binary), vec![(7, 0xFF, 0), (6, 0x0F, 0)]);
        assert!(slots(Format::Ticks).is_empty());
    }

    #[test]
    fn ticks_layout_matches_seed_001() {
        // Seed 001 writes ticks most significant first at .NET bytes 10..15 then 8, 9 (.NET bytes
        // 8..15 are string bytes 8..15) and 0xC in the high nibble of .NET byte 6 = string byte 7.
        let ticks: u64 = 0x0102_0304_0506_0708;
        let mut id = [0u8; 16];
        Format::Ticks.write_units(&mut id, ticks);
        assert_eq!(&id[10..16], &[1, 2, 3, 4, 5, 6]);
        assert_eq!(&id[8..10], &[7, 8]);
        let stamped = stamp([0; 16], 0, Format::Ticks).unwrap();
        assert!(is_ticks_comb(&stamped));
        assert_eq!(stamped[7], 0xC0);
    }

    proptest! {
        #[test]
        fn decode_of_encode_floors_to_the_clock_unit(format in any_format(), seed in any::<[u8; 16]>(), frac in 0.0f64..1.0) {
            let (start, end) = format.clock().range();
            let t = start + ((end - start - 1) as f64 * frac) as i64;
            let id = stamp(seed, t, format).unwrap();
            let decoded = timestamp(&id, format).unwrap();
            prop_assert!(decoded <= t);
            // Same unit, and the first microsecond of it.
            prop_assert_eq!(format.clock().units(decoded).unwrap(), format.clock().units(t).unwrap());
            if decoded > start {
                prop_assert!(format.clock().units(decoded - 1).unwrap() < format.clock().units(t).unwrap());
            }
        }

        #[test]
        fn encode_of_decode_is_the_identity_on_valid_values(format in any_format(), seed in any::<[u8; 16]>(), unit_frac in 0.0f64..1.0) {
            // A valid value: any bytes, with a canonical time field. timestamptz holds whole
            // microseconds, so a ticks value round-trips only when its ticks are whole µs.
            let mut units = (format.clock().max_units() as f64 * unit_frac) as u64;
            if format == Format::Ticks { units -= units % 10; }
            let mut id = if matches!(format, Format::Ticks | Format::UuidV7) { format.random_base(seed) } else { seed };
            format.write_units(&mut id, units);
            let t = timestamp(&id, format).unwrap();
            prop_assert_eq!(stamp(id, t, format).unwrap(), id);
        }

        #[test]
        fn floor_bounds_exactly_the_values_at_or_after_its_time(format in any_format(), seed in any::<[u8; 16]>(), frac in 0.0f64..1.0, delta in -5_000i64..5_000) {
            let (start, end) = format.clock().range();
            let t = start + ((end - start - 1) as f64 * frac) as i64;
            let Ok(bound) = floor(t, format) else { return Ok(()); };
            let id = stamp(format.random_base(seed), (t + delta).clamp(start, end - 1), format).unwrap();
            let ts = timestamp(&id, format).unwrap();
            prop_assert_eq!(format.order().cmp(&id, &bound).is_ge(), ts >= t);
        }

        #[test]
        fn generator_strictly_increases_in_the_format_order(format in any_format(), steps in prop::collection::vec((-3_000i64..3_000, any::<[u8; 16]>()), 1..300)) {
            let mut generator = Generator::new(format);
            let mut now = 1_700_000_000_000_000i64;
            let mut previous: Option<[u8; 16]> = None;
            for (step, random) in steps {
                // Mostly forward, sometimes backwards, often within one unit.
                now += step / 3;
                let id = generator.next(now, random).unwrap();
                if let Some(p) = previous {
                    prop_assert_eq!(format.order().cmp(&p, &id), std::cmp::Ordering::Less);
                }
                // Fixed bits survive the counter.
                match format {
                    Format::Ticks => prop_assert!(is_ticks_comb(&id)),
                    Format::UuidV7 => { prop_assert_eq!(id[6] >> 4, 7); prop_assert_eq!(id[8] >> 6, 2); }
                    _ => { prop_assert_eq!(id[6] >> 4, 4); prop_assert_eq!(id[8] >> 6, 2); }
                }
                previous = Some(id);
            }
        }
    }

    #[test]
    fn range_bounds_open_at_either_end_of_the_clock() {
        for format in Format::ALL {
            let (start, end) = format.clock().range();
            assert_eq!(range_bound(Bound::At(start - 1), format), [0; 16]);
            assert_eq!(range_bound(Bound::At(end), format), [0xFF; 16]);
            assert_eq!(range_bound(Bound::At(start), format), floor(start, format).unwrap());
            let inside = stamp([0x5A; 16], start + 1_000_000, format).unwrap();
            let lower = range_bound(Bound::BeforeAll, format);
            let upper = range_bound(Bound::AfterAll, format);
            assert!(in_range(&inside, &lower, &upper, format));
            assert!(!in_range(&inside, &upper, &upper, format));
        }
    }

    proptest! {
        #[test]
        fn in_range_is_the_decoded_time_in_the_half_open_range(format in any_format(), seed in any::<[u8; 16]>(), fracs in (0.0f64..1.0, 0.0f64..1.0, 0.0f64..1.0), widths in (0i64..10_000, 0i64..10_000)) {
            let (start, end) = format.clock().range();
            let pick = |f: f64| start + ((end - start - 1) as f64 * f) as i64;
            let t = pick(fracs.0);
            let id = stamp(seed, t, format).unwrap();
            let time = timestamp(&id, format).unwrap();
            // Bounds near the value (exercising unit edges) or anywhere.
            let lower = if fracs.1 < 0.5 { t - widths.0 } else { pick(fracs.1) };
            let upper = if fracs.2 < 0.5 { t + widths.1 - 5_000 } else { pick(fracs.2) };
            let inside = in_range(&id, &range_bound(Bound::At(lower), format), &range_bound(Bound::At(upper), format), format);
            prop_assert_eq!(inside, lower <= time && time < upper);
        }
    }

    #[test]
    fn generator_borrows_the_next_unit_when_the_counter_runs_out() {
        for format in Format::ALL {
            let mut generator = Generator::new(format);
            let t = 1_700_000_000_000_000i64;
            let first_units = format.clock().units(t).unwrap();
            let mut last = [0u8; 16];
            for i in 0..5_000u32 {
                let random = [(i % 251) as u8; 16];
                let id = generator.next(t, random).unwrap();
                assert_eq!(format.order().cmp(&last, &id), std::cmp::Ordering::Less, "{format:?} at {i}");
                last = id;
            }
            let last_units = format.read_units(&last).unwrap();
            assert!(last_units > first_units, "{format:?} never borrowed");
            // 4096 values per unit, the first unit's from the clock's fraction on.
            if format != Format::Ticks {
                assert!(last_units - first_units <= 3, "{format:?} borrowed too far");
            }
        }
    }

    #[test]
    fn generator_rejects_times_outside_the_clock() {
        let mut generator = Generator::new(Format::Legacy);
        assert!(matches!(
            generator.next(Clock::SqlDateTime.range().1, [0; 16]),
            Err(CombError::TimeOutOfRange { clock: Clock::SqlDateTime, .. })
        ));
        let mut generator = Generator::new(Format::PostgreSql);
        assert!(generator.next(-1, [0; 16]).is_err());
    }

    /// Bits of a generated value that are neither time, counter nor fixed: random.
    fn random_bits(format: Format) -> u32 {
        let mut known = [0u8; 16];
        for &position in format.time_positions() {
            known[position] = 0xFF;
        }
        for (position, mask, _) in format.counter_slots() {
            known[position] |= mask;
        }
        (0..16).map(|i| (!(known[i] | format.fixed_bits(i))).count_ones()).sum()
    }

    #[test]
    fn at_least_62_random_bits_remain_except_in_seed_001s_ticks_layout() {
        for format in Format::ALL {
            let expected = if format == Format::Ticks { 60 } else { 62 };
            assert_eq!(random_bits(format), expected, "{format:?}");
        }
    }

    #[test]
    fn sessions_interleave_in_real_time_inside_a_unit() {
        // Two sessions, alternating calls 37 µs apart (so several fall in each unit and the
        // sqldatetime unit of 3333.3 µs): every value sorts by its time, whoever made it.
        for format in Format::ALL {
            let mut sessions = [Generator::new(format), Generator::new(format)];
            let start = 1_700_000_000_000_000i64;
            let mut previous: Option<[u8; 16]> = None;
            for i in 0..2_000i64 {
                let id = sessions[(i % 2) as usize].next(start + i * 37, [(i % 251) as u8; 16]).unwrap();
                if let Some(p) = previous {
                    assert_eq!(format.order().cmp(&p, &id), std::cmp::Ordering::Less, "{format:?} at {i}");
                }
                previous = Some(id);
            }
        }
    }

    #[test]
    fn the_counter_is_the_clocks_fraction_as_postgresql_18_writes_it() {
        // PostgreSQL 18: rand_a = ns_in_ms * 4096 / 1_000_000; at 0.5 ms that is 2048.
        let t = 1_700_000_000_000_500i64;
        let id = Generator::new(Format::UuidV7).next(t, [0xFF; 16]).unwrap();
        assert_eq!((id[6] & 0x0F) as u32 * 256 + id[7] as u32, 2048);
        assert_eq!(id[6] >> 4, 7);
        assert_eq!(at([0xFF; 16], t, Format::UuidV7).unwrap()[..8], id[..8]);
        // sqldatetime: 1/300 s unit; 5000 µs after midnight is unit 1 plus 1666.7 µs of 3333.3.
        let midnight = SQL_EPOCH_UNIX_US + 45_000 * US_PER_DAY;
        assert_eq!(Clock::SqlDateTime.fraction(midnight + 5_000, 12).unwrap(), 2048);
        assert_eq!(Clock::Ticks.fraction(t, 0).unwrap(), 0);
    }

    /// 10889-08-02 05:31:50.655 UTC: 2^48 - 1 ms since 1970, the last time PostgreSQL 18's
    /// `uuidv7(interval)` takes (`UUIDV7_MAX_TIMESTAMP`).
    const UUIDV7_LAST_US: i64 = 281_474_976_710_655_000;
    /// 10000-01-01 00:00:00 UTC, the end of .NET `DateTime` and of RT.Comb's unix formats.
    const DOTNET_END_US: i64 = 253_402_300_800_000_000;

    #[test]
    fn uuidv7_takes_postgresql_18s_range_to_the_48_bit_fields_last_millisecond() {
        let format = Format::UuidV7;
        // The largest v7 decodes to the field's last millisecond, as uuid_extract_timestamp reads it.
        let largest = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0xBF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF];
        assert_eq!(timestamp(&largest, format).unwrap(), UUIDV7_LAST_US);
        // So does the smallest v7 of that millisecond, and past .NET's end every field decodes.
        let mut smallest = [0u8; 16];
        smallest[..6].copy_from_slice(&[0xFF; 6]);
        assert_eq!(timestamp(&format.random_base(smallest), format).unwrap(), UUIDV7_LAST_US);
        let mut after_dotnet = [0u8; 16];
        after_dotnet[..6].copy_from_slice(&(DOTNET_END_US as u64 / 1_000).to_be_bytes()[2..]);
        assert_eq!(timestamp(&format.random_base(after_dotnet), format).unwrap(), DOTNET_END_US);
        // Its last instant encodes in stamp, at, floor and the generator; PostgreSQL 18 refuses the
        // next microsecond (ts > UUIDV7_MAX_TIMESTAMP), and so does every function here.
        assert_eq!(
            &stamp([0; 16], UUIDV7_LAST_US, format).unwrap()[..9],
            &[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x70, 0, 0x80]
        );
        assert_eq!(timestamp(&at([0x5A; 16], UUIDV7_LAST_US, format).unwrap(), format).unwrap(), UUIDV7_LAST_US);
        assert_eq!(timestamp(&floor(UUIDV7_LAST_US, format).unwrap(), format).unwrap(), UUIDV7_LAST_US);
        let mut generator = Generator::new(format);
        for _ in 0..4_096 {
            assert_eq!(timestamp(&generator.next(UUIDV7_LAST_US, [0; 16]).unwrap(), format).unwrap(), UUIDV7_LAST_US);
        }
        // The last millisecond's 4096 counter values are used up, and no millisecond follows it.
        assert!(matches!(generator.next(UUIDV7_LAST_US, [0; 16]), Err(CombError::TimeOutOfRange { .. })));
        for past in [UUIDV7_LAST_US + 1, UUIDV7_LAST_US + 999, UUIDV7_LAST_US + 1_000, i64::MAX] {
            let refused = Err(CombError::TimeOutOfRange { clock: Clock::UnixUuidV7, unix_us: past });
            assert_eq!(stamp([0; 16], past, format), refused);
            assert_eq!(at([0; 16], past, format), refused);
            assert_eq!(floor(past, format), refused);
            assert_eq!(Generator::new(format).next(past, [0; 16]), refused);
            assert_eq!(range_bound(Bound::At(past), format), [0xFF; 16]);
        }
        assert!(floor(-1, format).is_err());
        assert_eq!(range_bound(Bound::At(-1), format), [0; 16]);
        // A range bound just before the end still selects the largest v7 and its millisecond's.
        let (lower, upper) = (range_bound(Bound::At(UUIDV7_LAST_US), format), range_bound(Bound::AfterAll, format));
        assert!(in_range(&largest, &lower, &upper, format));
        assert!(!in_range(&largest, &range_bound(Bound::At(UUIDV7_LAST_US + 1), format), &upper, format));
        assert!(Clock::UnixUuidV7.range_detail().unwrap().contains("10889-08-02 05:31:50.655"));
    }

    #[test]
    fn the_rtcomb_formats_keep_the_end_of_dotnet_datetime() {
        for format in Format::ALL.into_iter().filter(|&f| f != Format::UuidV7 && f.clock() != Clock::SqlDateTime) {
            let last = DOTNET_END_US - 1;
            let id = stamp([0; 16], last, format).unwrap();
            assert_eq!(timestamp(&id, format).unwrap(), if format == Format::Ticks { last } else { last - 999 });
            assert!(
                matches!(stamp([0; 16], DOTNET_END_US, format), Err(CombError::TimeOutOfRange { .. })),
                "{format:?}"
            );
            assert!(floor(DOTNET_END_US, format).is_err(), "{format:?}");
            assert!(format.clock().range_detail().is_none());
        }
        // A unix field past .NET's end is not a postgresql COMB, though it is a valid uuidv7.
        let mut id = [0u8; 16];
        Format::PostgreSql.write_units(&mut id, DOTNET_END_US as u64 / 1_000);
        assert!(matches!(timestamp(&id, Format::PostgreSql), Err(CombError::InvalidField { clock: Clock::Unix, .. })));
    }

    #[test]
    fn uuidv7_decoding_requires_version_7_and_the_rfc_variant() {
        let t = 1_700_000_000_123_456i64;
        let id = at([0x3C; 16], t, Format::UuidV7).unwrap();
        assert_eq!(timestamp(&id, Format::UuidV7).unwrap(), t - 456);
        let v4 = at([0x3C; 16], t, Format::PostgreSql).unwrap();
        assert_eq!(timestamp(&v4, Format::UuidV7), Err(CombError::NotUuidV7 { version: 4, variant: 2 }));
        let mut wrong_variant = id;
        wrong_variant[8] &= 0x3F;
        assert!(timestamp(&wrong_variant, Format::UuidV7).is_err());
        // The floor is the millisecond's smallest valid v7, so it decodes to its own time.
        let floor = floor(t, Format::UuidV7).unwrap();
        assert_eq!(timestamp(&floor, Format::UuidV7).unwrap(), t - 456 + 1_000);
        assert_eq!(&floor[6..9], &[0x70, 0x00, 0x80]);
        // Stamping an arbitrary uuid makes it a v7.
        let stamped = stamp([0u8; 16], t, Format::UuidV7).unwrap();
        assert_eq!(timestamp(&stamped, Format::UuidV7).unwrap(), t - 456);
    }
}
