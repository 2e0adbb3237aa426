//! Error reports shared by every SQL-facing module: one SQLSTATE per kind of bad input, and a
//! message that names the value and the valid range.

use crate::rules::range::OutOfRange;
use pgrx::callconv::Arg;
use pgrx::pg_sys::errcodes::PgSqlErrorCode;
use pgrx::pg_sys::panic::ErrorReport;
use pgrx::{FromDatum, PgLogLevel};

/// Raise an ERROR; never returns.
pub fn raise(code: PgSqlErrorCode, message: String, hint: Option<&str>) -> ! {
    raise_with(code, message, None, hint)
}

/// Raise an ERROR with an optional DETAIL and HINT; never returns.
fn raise_with(code: PgSqlErrorCode, message: String, detail: Option<&str>, hint: Option<&str>) -> ! {
    let mut report = ErrorReport::new(code, message, "comb_ext");
    if let Some(detail) = detail {
        report = report.set_detail(detail);
    }
    if let Some(hint) = hint {
        report = report.set_hint(hint);
    }
    report.report(PgLogLevel::ERROR);
    unreachable!("an ERROR report does not return")
}

/// A LOG line for the server log. Reported directly, not through `pgrx::log!`: on 13, pgrx filters
/// levels by number before PostgreSQL sees them, and LOG (15) is below WARNING (19), the default
/// log_min_messages, so the line was dropped; PostgreSQL's own check ranks LOG above WARNING for the
/// server log.
pub fn log_to_server(message: String) {
    ErrorReport::new(PgSqlErrorCode::ERRCODE_SUCCESSFUL_COMPLETION, message, "comb_ext").report(PgLogLevel::LOG);
}

/// 22008: a time outside what the format can hold.
pub fn datetime_out_of_range(message: String) -> ! {
    datetime_out_of_range_detailed(message, None)
}

/// 22008 with a DETAIL where the range has a reason worth saying (uuidv7's is PostgreSQL 18's).
pub fn datetime_out_of_range_detailed(message: String, detail: Option<&str>) -> ! {
    raise_with(PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW, message, detail, None)
}

/// 22003: a field outside its range, naming the function, the field, the value and the range.
pub fn field_out_of_range(function: &str, field: &str, value: i64, range: &str) -> ! {
    raise(
        PgSqlErrorCode::ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
        format!("{function}: {field} {value} is out of range: valid range is {range}"),
        None,
    )
}

/// 22003 for a field that failed `rules::range::check`.
pub fn out_of_range(function: &str, error: &OutOfRange) -> ! {
    field_out_of_range(function, error.field, error.value, &error.range_text())
}

/// 22P02: text that is not the form it is read as (a position or a length named in `message`).
pub fn invalid_text(message: String, hint: &str) -> ! {
    raise(PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION, message, Some(hint))
}

/// 22023: an argument that names something that does not exist or breaks a rule (an encoding, a prefix).
pub fn invalid_parameter(message: String, hint: Option<&str>) -> ! {
    raise(PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE, message, hint)
}

/// An argument of one of our types, unboxed. Functions taking them are STRICT, so PostgreSQL never
/// passes NULL; were one to arrive anyway, the call ends in a 22004 error, not a panic.
///
/// SAFETY: `arg` must hold a Datum of the SQL type `T` converts from.
pub unsafe fn strict_arg<T: FromDatum>(arg: Arg<'_, '_>) -> T {
    match unsafe { arg.unbox_arg_using_from_datum() } {
        Some(value) => value,
        None => raise(PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED, "unexpected NULL argument".into(), None),
    }
}

