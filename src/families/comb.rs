//! SQL surface of the COMB family: argument conversion and error reports around `rules::comb`.

use crate::postgres::enum_arg::enum_arg;
use crate::postgres::errors;
use crate::postgres::timestamptz::{self, shown};
use crate::rules::comb::{self as layout, CombError, Format, Generator};
use crate::rules::random::ProcessRng;
use crate::rules::watermark::Family;
use crate::server::watermark;
use pgrx::prelude::*;
use pgrx::{Internal, Uuid};
use std::cell::RefCell;

/// The `comb_format` enum; labels are the SQL names, hence the lower-case variants.
#[allow(non_camel_case_types)]
#[derive(PostgresEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum comb_format {
    postgresql,
    sqlserver,
    legacy,
    binary,
    postgresql_sqldatetime,
    binary_sqldatetime,
    ticks,
    uuidv7,
}

impl From<comb_format> for Format {
    fn from(format: comb_format) -> Format {
        match format {
            comb_format::postgresql => Format::PostgreSql,
            comb_format::sqlserver => Format::SqlServer,
            comb_format::legacy => Format::Legacy,
            comb_format::binary => Format::Binary,
            comb_format::postgresql_sqldatetime => Format::PostgreSqlSqlDateTime,
            comb_format::binary_sqldatetime => Format::BinarySqlDateTime,
            comb_format::ticks => Format::Ticks,
            comb_format::uuidv7 => Format::UuidV7,
        }
    }
}

enum_arg!(
    /// A `comb_format` argument, read through `postgres::enum_arg`'s cache.
    FormatArg,
    comb_format,
    Format,
    "comb_format"
);

/// This backend's generators (one per format, for per-session monotonicity) and its RNG.
struct Session {
    rng: ProcessRng,
    generators: [Generator; Format::ALL.len()],
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

fn backend_pid() -> i32 {
    // SAFETY: MyProcPid is a plain int PostgreSQL sets at process start and never frees.
    unsafe { pg_sys::MyProcPid }
}

/// Draws 16 random bytes from this backend's CSPRNG.
fn random_bytes() -> [u8; 16] {
    let pid = backend_pid();
    SESSION.with_borrow_mut(|session| session_for(session, pid).rng.bytes16(pid))
}

fn session_for(session: &mut Option<Session>, pid: i32) -> &mut Session {
    session.get_or_insert_with(|| Session { rng: ProcessRng::new(pid), generators: Format::ALL.map(Generator::new) })
}

fn generate(format: Format) -> Uuid {
    let pid = backend_pid();
    loop {
        let now = watermark::clock_us();
        let result = SESSION.with_borrow_mut(|session| {
            let session = session_for(session, pid);
            let random = session.rng.bytes16(pid);
            // Format::ALL lists the variants in declaration order.
            session.generators[format as usize].next(now, random)
        });
        match result {
            // Made again, past the floor, if a watermark was taken meanwhile (src/server/watermark.rs).
            Ok(id) if watermark::hold(Family::Comb, now) => return Uuid::from_bytes(id),
            Ok(_) => {}
            Err(error) => report("comb_uuid", format, error),
        }
    }
}

/// The unix µs of a `timestamptz`, or a 22008 error for ±infinity.
fn unix_us(function: &str, ts: TimestampWithTimeZone, format: Format) -> i64 {
    match timestamptz::unix_us(ts) {
        Some(us) => us,
        None => errors::datetime_out_of_range_detailed(
            format!(
                "{function}: timestamp {ts} is out of range for comb_format {}: valid range is {}",
                format.name(),
                format.clock().range_text()
            ),
            format.clock().range_detail(),
        ),
    }
}

fn report(function: &str, format: Format, error: CombError) -> ! {
    report_for(function, None, format, error)
}

fn decode_error(function: &str, id: Uuid, format: Format, error: CombError) -> ! {
    report_for(function, Some(id), format, error)
}

/// The ERROR for `error`, naming the uuid it was read from when there is one.
fn report_for(function: &str, id: Option<Uuid>, format: Format, error: CombError) -> ! {
    let value = id.map(|id| format!("uuid {id}")).unwrap_or_else(|| "the value".into());
    match error {
        CombError::TimeOutOfRange { clock, unix_us } => errors::datetime_out_of_range_detailed(
            format!(
                "{function}: timestamp {} is out of range for comb_format {}: valid range is {}",
                shown(unix_us),
                format.name(),
                clock.range_text()
            ),
            clock.range_detail(),
        ),
        CombError::AfterLastUnit { clock, unix_us } => errors::datetime_out_of_range_detailed(
            format!(
                "{function}: no comb_format {} value has a time at or after {}: valid range is {} to {}",
                format.name(),
                shown(unix_us),
                shown(clock.range().0),
                shown(clock.unix_us(clock.max_units()))
            ),
            clock.range_detail(),
        ),
        CombError::InvalidField { .. } => errors::datetime_out_of_range(format!(
            "{function}: {value} does not hold a valid {} COMB: {error}",
            format.name()
        )),
        CombError::NotUuidV7 { .. } => errors::raise(
            pgrx::PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
            format!("{function}: {value} is not a comb_format {} value: {error}", format.name()),
            Some("A uuidv7 value has version nibble 7 (the 13th hex digit) and variant bits 10."),
        ),
    }
}

/// The smallest COMB of `format` in the clock unit of the comb watermark (src/server/watermark.rs): every
/// `comb_uuid()` or `comb_uuid(format)` below it belongs to a transaction that has ended, and
/// none made after this call is below it. Compare in the format's order (`#<#` for the SQL Server
/// formats).
#[pg_extern(volatile, parallel_restricted)]
fn comb_watermark(format: default!(FormatArg, "'postgresql'")) -> Uuid {
    watermark_of(format.into())
}

fn watermark_of(format: Format) -> Uuid {
    let at = watermark::watermark_us("comb_watermark", Family::Comb);
    let clock = format.clock();
    match clock.units(at).and_then(|units| layout::floor(clock.unix_us(units), format)) {
        Ok(id) => Uuid::from_bytes(id),
        Err(error) => report("comb_watermark", format, error),
    }
}

/// A new COMB in the default format (postgresql) from the wall clock.
#[pg_extern(volatile, parallel_restricted, name = "comb_uuid")]
fn comb_uuid_default() -> Uuid {
    generate(Format::PostgreSql)
}

/// A new COMB in `format` from the wall clock.
#[pg_extern(volatile, parallel_restricted, name = "comb_uuid")]
fn comb_uuid_format(format: FormatArg) -> Uuid {
    generate(format.into())
}

/// `comb_uuid('sqlserver')`: PostgreSQL cannot choose between `comb_format` and `timestamptz` for
/// an untyped literal, but it prefers a `text` candidate, so this overload takes the literal and
/// reads it as a format name.
#[pg_extern(volatile, parallel_restricted, name = "comb_uuid")]
fn comb_uuid_named(format: &str) -> Uuid {
    match Format::from_name(format) {
        Some(format) => generate(format),
        None => errors::raise(
            pgrx::PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
            format!(
                "comb_uuid: \"{format}\" is not a comb_format: valid values are {}",
                Format::ALL.map(Format::name).join(", ")
            ),
            Some("To stamp a given time, pass a timestamptz: comb_uuid('2024-01-01 12:00+00'::timestamptz)."),
        ),
    }
}

/// A new COMB for a given time (RT.Comb `Create(DateTime)`): random bytes with `ts`, and its
/// fraction of the clock unit in the counter bits.
#[pg_extern(volatile, parallel_safe, name = "comb_uuid")]
fn comb_uuid_at(ts: TimestampWithTimeZone, format: default!(FormatArg, "'postgresql'")) -> Uuid {
    at(ts, format.into())
}

fn at(ts: TimestampWithTimeZone, format: Format) -> Uuid {
    let us = unix_us("comb_uuid", ts, format);
    match layout::at(random_bytes(), us, format) {
        Ok(id) => Uuid::from_bytes(id),
        Err(error) => report("comb_uuid", format, error),
    }
}

/// `base` with `ts` written over the format's time bytes (RT.Comb `Create(Guid, DateTime)`).
#[pg_extern(immutable, strict, parallel_safe)]
fn comb_stamp(base: Uuid, ts: TimestampWithTimeZone, format: default!(FormatArg, "'postgresql'")) -> Uuid {
    stamp(base, ts, format.into())
}

fn stamp(base: Uuid, ts: TimestampWithTimeZone, format: Format) -> Uuid {
    let us = unix_us("comb_stamp", ts, format);
    match layout::stamp(*base, us, format) {
        Ok(id) => Uuid::from_bytes(id),
        Err(error) => report("comb_stamp", format, error),
    }
}

/// The time embedded in a COMB.
#[pg_extern(immutable, strict, parallel_safe)]
fn comb_timestamp(id: Uuid, format: default!(FormatArg, "'postgresql'")) -> TimestampWithTimeZone {
    timestamp_of("comb_timestamp", id, format.into())
}

fn timestamp_of(function: &str, id: Uuid, format: Format) -> TimestampWithTimeZone {
    match layout::timestamp(&id, format) {
        Ok(us) => timestamptz::from_unix_us(us),
        Err(error) => decode_error(function, id, format, error),
    }
}

/// `comb_timestamp(id, format, strict)`: with `strict` false, NULL for an id that holds no time of the
/// format (where the two-argument form fails: 22P02 for a uuid that is not version 7 read as
/// `uuidv7`, 22008 for a field no clock value has), so a column holding ids of other kinds can be
/// decoded whole (docs/adopting.md). With `strict` true it is the two-argument form. There is no
/// DEFAULT: with one, `comb_timestamp(id, format)` would match both forms and be ambiguous.
#[pg_extern(immutable, strict, parallel_safe, name = "comb_timestamp")]
fn comb_timestamp_with_strict(id: Uuid, format: FormatArg, strict: bool) -> Option<TimestampWithTimeZone> {
    timestamp_unless_strict("comb_timestamp", id, format.into(), strict)
}

fn timestamp_unless_strict(function: &str, id: Uuid, format: Format, strict: bool) -> Option<TimestampWithTimeZone> {
    if strict {
        return Some(timestamp_of(function, id, format));
    }
    layout::timestamp(&id, format).ok().map(timestamptz::from_unix_us)
}

/// The smallest COMB, in the format's order, whose `comb_timestamp` is at or after `ts`.
#[pg_extern(immutable, strict, parallel_safe)]
fn comb_floor(ts: TimestampWithTimeZone, format: default!(FormatArg, "'postgresql'")) -> Uuid {
    floor("comb_floor", ts, format.into())
}

fn floor(function: &str, ts: TimestampWithTimeZone, format: Format) -> Uuid {
    let us = unix_us(function, ts, format);
    match layout::floor(us, format) {
        Ok(id) => Uuid::from_bytes(id),
        Err(error) => report(function, format, error),
    }
}

/// `comb_floor` and `comb_timestamp` of one format, under names of their own with one argument: tools
/// that take a function by name and pass it one value, with no format, call these (pg_partman's
/// `p_time_encoder`/`p_time_decoder`, TimescaleDB's `partition_func`; docs/partitioning.md).
/// Each decoder also has the `(id, strict)` form of `comb_timestamp(id, format, strict)`.
macro_rules! per_format {
    ($($format:ident: $floor:ident, $timestamp:ident, $timestamp_with_strict:ident = $name:tt;)*) => {$(
        #[pg_extern(immutable, strict, parallel_safe)]
        fn $floor(ts: TimestampWithTimeZone) -> Uuid {
            floor(stringify!($floor), ts, Format::$format)
        }

        #[pg_extern(immutable, strict, parallel_safe)]
        fn $timestamp(id: Uuid) -> TimestampWithTimeZone {
            timestamp_of(stringify!($timestamp), id, Format::$format)
        }

        #[pg_extern(immutable, strict, parallel_safe, name = $name)]
        fn $timestamp_with_strict(id: Uuid, strict: bool) -> Option<TimestampWithTimeZone> {
            timestamp_unless_strict(stringify!($timestamp), id, Format::$format, strict)
        }
    )*};
}

per_format! {
    PostgreSql: comb_floor_postgresql, comb_timestamp_postgresql,
        comb_timestamp_postgresql_with_strict = "comb_timestamp_postgresql";
    SqlServer: comb_floor_sqlserver, comb_timestamp_sqlserver,
        comb_timestamp_sqlserver_with_strict = "comb_timestamp_sqlserver";
    Legacy: comb_floor_legacy, comb_timestamp_legacy, comb_timestamp_legacy_with_strict = "comb_timestamp_legacy";
    Binary: comb_floor_binary, comb_timestamp_binary, comb_timestamp_binary_with_strict = "comb_timestamp_binary";
    PostgreSqlSqlDateTime: comb_floor_postgresql_sqldatetime, comb_timestamp_postgresql_sqldatetime,
        comb_timestamp_postgresql_sqldatetime_with_strict = "comb_timestamp_postgresql_sqldatetime";
    BinarySqlDateTime: comb_floor_binary_sqldatetime, comb_timestamp_binary_sqldatetime,
        comb_timestamp_binary_sqldatetime_with_strict = "comb_timestamp_binary_sqldatetime";
    Ticks: comb_floor_ticks, comb_timestamp_ticks, comb_timestamp_ticks_with_strict = "comb_timestamp_ticks";
    UuidV7: comb_floor_uuidv7, comb_timestamp_uuidv7, comb_timestamp_uuidv7_with_strict = "comb_timestamp_uuidv7";
}

/// Seed 001's `IsComb` marker check.
#[pg_extern(immutable, strict, parallel_safe)]
fn comb_is_ticks(id: Uuid) -> bool {
    layout::is_ticks_comb(&id)
}

/// A time bound of a range scan, open where `ts` is ±infinity.
fn bound(ts: TimestampWithTimeZone) -> layout::Bound {
    match timestamptz::unix_us(ts) {
        Some(us) => layout::Bound::At(us),
        None if ts.is_neg_infinity() => layout::Bound::BeforeAll,
        None => layout::Bound::AfterAll,
    }
}

/// `comb_floor`, except that times the format cannot hold map past the matching end of its order
/// (all-zero or all-one bytes), so that open-ended ranges (`'infinity'`, a lower bound before
/// 1970) work.
#[pg_extern(immutable, strict, parallel_safe)]
fn comb_range_bound(ts: TimestampWithTimeZone, format: FormatArg) -> Uuid {
    range_bound(ts, format.into())
}

fn range_bound(ts: TimestampWithTimeZone, format: Format) -> Uuid {
    Uuid::from_bytes(layout::range_bound(bound(ts), format))
}

/// The lower bound of `comb_in_range(id, lower, upper, format)` in the format's order; NULL when
/// either time is (strict), so that the planner's rewrite is NULL exactly when the call is.
#[pg_extern(immutable, strict, parallel_safe)]
fn comb_range_lower(lower: TimestampWithTimeZone, upper: TimestampWithTimeZone, format: FormatArg) -> Uuid {
    let _ = upper;
    range_bound(lower, format.into())
}

/// The upper (exclusive) bound of `comb_in_range(id, lower, upper, format)`; see `comb_range_lower`.
#[pg_extern(immutable, strict, parallel_safe)]
fn comb_range_upper(lower: TimestampWithTimeZone, upper: TimestampWithTimeZone, format: FormatArg) -> Uuid {
    let _ = lower;
    range_bound(upper, format.into())
}

/// True when the time embedded in `id` lies in [lower, upper). The planner support function
/// rewrites it into comparisons that index scans and partition pruning use.
#[pg_extern(immutable, strict, parallel_safe, support = comb_in_range_support)]
fn comb_in_range(
    id: Uuid,
    lower: TimestampWithTimeZone,
    upper: TimestampWithTimeZone,
    format: default!(FormatArg, "'postgresql'"),
) -> bool {
    in_range(id, lower, upper, format.into())
}

fn in_range(id: Uuid, lower: TimestampWithTimeZone, upper: TimestampWithTimeZone, format: Format) -> bool {
    layout::in_range(
        &id,
        &layout::range_bound(bound(lower), format),
        &layout::range_bound(bound(upper), format),
        format,
    )
}

/// Planner support for `comb_in_range`: answers `SupportRequestSimplify` with
/// `id >= bound(lower) AND id < bound(upper)` in the operators of the format's order (see
/// `planner`), so btree and BRIN indexes and partition pruning serve it.
#[pg_extern(immutable, strict, parallel_safe)]
fn comb_in_range_support(request: Internal) -> Internal {
    // SAFETY: PostgreSQL calls a support function with a valid request node; every pointer read
    // comes from it or from catalog look-ups that return valid objects or InvalidOid.
    // Declining is a NULL pointer, not an SQL NULL (which PostgreSQL would reject).
    let rewritten = unsafe { crate::postgres::planner::in_range_simplified(request, range_bound) };
    Internal::from(Some(pg_sys::Datum::from(rewritten.unwrap_or(std::ptr::null_mut()))))
}
