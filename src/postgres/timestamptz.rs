//! `timestamptz` at the SQL boundary: PostgreSQL's µs since 2000 to and from the rules' unix µs, in
//! one place for every family.

use crate::postgres::errors;
use crate::rules::time;
use pgrx::prelude::TimestampWithTimeZone;

/// A decoded time as a `timestamptz`. Every clock of the crate decodes inside PostgreSQL's range;
/// should one not, the caller gets a 22008 error, never a panic.
pub fn from_unix_us(unix_us: i64) -> TimestampWithTimeZone {
    TimestampWithTimeZone::try_from(time::pg_from_unix_us(unix_us)).unwrap_or_else(|_| {
        errors::datetime_out_of_range(format!("{unix_us} µs since 1970 is outside the range of timestamptz"))
    })
}

/// The unix µs of a finite `timestamptz`; `None` for ±infinity.
pub fn unix_us(ts: TimestampWithTimeZone) -> Option<i64> {
    time::unix_us_from_pg(ts.into_inner())
}

/// The unix µs a floor function starts from: -infinity as `i64::MIN` (before every time, so the
/// smallest value), `None` for +infinity.
pub fn floor_unix_us(ts: TimestampWithTimeZone) -> Option<i64> {
    if ts.is_neg_infinity() {
        Some(i64::MIN)
    } else {
        unix_us(ts)
    }
}

/// A unix µs time as PostgreSQL shows a `timestamptz` in this session, for messages; any i64.
pub fn shown(unix_us: i64) -> String {
    TimestampWithTimeZone::try_from(time::pg_from_unix_us(unix_us))
        .map(|ts| ts.to_string())
        .unwrap_or_else(|_| format!("{unix_us} µs since 1970"))
}
