//! SQL surface of Gink muids, stored as `uuid`: pack, unpack (sql/muid.sql), accessors, text, and
//! `muid_new` with the server's medallion and a server-wide strictly increasing timeline.

use crate::postgres::errors;
use crate::postgres::timestamptz;
use crate::rules::muid::{self as layout, Field, Muid, Next, Pace, Timeline, RUN_AHEAD_LIMIT_US};
use crate::rules::time;
use crate::rules::watermark::Family;
use crate::server::high_water::{self, Marked};
use crate::server::shmem::{OlderLayouts, Shared};
use crate::server::watermark;
use crate::server::{clock_wait, identity, promotion, standby};
use pgrx::prelude::*;
use pgrx::{pg_sys, PgSqlErrorCode, Uuid};
use std::ffi::{c_char, c_void, CStr, CString};

/// GUC check hook: refuses a value `muid_new` could not use, at SET time.
#[pg_guard]
pub unsafe extern "C-unwind" fn check_medallion(
    newval: *mut *mut c_char,
    _extra: *mut *mut c_void,
    _source: pg_sys::GucSource::Type,
) -> bool {
    // SAFETY: PostgreSQL passes a valid pointer to the new value, a C string or NULL.
    let value = unsafe { *newval };
    if value.is_null() {
        return true;
    }
    let text = unsafe { CStr::from_ptr(value) }.to_string_lossy();
    if text.is_empty() || layout::parse_medallion(&text).is_some() {
        return true;
    }
    let detail = format!(
        "A medallion is an integer from 0 to {} (0x{:X}), in decimal or 0x-prefixed hex; nodes draw theirs from 0x{:X} to 0x{:X}.",
        layout::MEDALLION_MAX - 1,
        layout::MEDALLION_MAX - 1,
        layout::NODE_MEDALLION_MIN,
        layout::NODE_MEDALLION_MAX
    );
    if let Ok(detail) = CString::new(detail) {
        // SAFETY: PostgreSQL reports and frees the detail right after the hook returns.
        unsafe { pg_sys::GUC_check_errdetail_string = pg_sys::pstrdup(detail.as_ptr()) };
    }
    false
}

/// This server's medallion: the setting, or 40 bits folded from the cluster's system identifier,
/// timeline and a number drawn at every server start (`identity::server_identity`), in the range
/// nodes draw from.
/// An explicit one is refused after a copy or promotion until set apart (`promotion`).
fn medallion() -> i64 {
    let explicit = identity::explicit_medallion();
    promotion::refuse_until_set_apart(promotion::IdentityOf::Muid, explicit.unwrap_or(-1), "muid_new");
    OLDER_LAYOUTS.refuse("muid_new");
    explicit.unwrap_or_else(|| layout::medallion_from_system_identifier(identity::server_identity()))
}

// ---- the generator ---------------------------------------------------------------------------

/// One timeline for the whole server: every session's `muid_new` takes the next µs from it.
static TIMELINE: Marked<Timeline> =
    Marked::new(c"comb_ext muid timeline v2", c"comb_ext muid mark writer v1", c"comb_ext_muid", Timeline::new());

/// 0.3.0's timeline, of another layout (`shmem::OlderLayouts`).
static OLDER_LAYOUTS: OlderLayouts = OlderLayouts::new(&[c"comb_ext muid timeline v1"]);

/// How far bursts may push the timeline ahead. Used only under the timeline's lock, never under its
/// own (every version must keep it so): a library without it (0.4.0, beside this one after a
/// package upgrade) moves the timeline without it.
static PACE: Shared<Pace> = Shared::new(c"comb_ext muid pace v1", c"comb_ext_muid_pace", Pace::new());

pub const SHARED_MEMORY_BYTES: usize = TIMELINE.size() + PACE.size();

/// A new muid of this server's medallion: its timestamp is the wall clock in µs, strictly
/// increasing across every session of the server (one µs past the last when the clock has not
/// moved on), so no two calls ever share one. Bursts run ahead of the clock by at most
/// `RUN_AHEAD_LIMIT_US`; past that a call waits for the clock.
#[pg_extern(volatile, parallel_restricted)]
fn muid_new(offset: default!(i32, 0)) -> Uuid {
    standby::refuse_in_recovery("muid_new", "medallion");
    let medallion = medallion();
    // Attached before the timeline's lock is taken, so that no error is raised with it held.
    let pace = PACE.as_ptr();
    let mut wait = None;
    loop {
        let clock = watermark::clock();
        let (next, now) = high_water::update(&TIMELINE, "muid_new", |timeline| {
            let now = clock.now_us();
            // SAFETY: the pace lives in shared memory for the server's life, and every library
            // version uses it only here, under the timeline's lock.
            let next = unsafe { (*pace).next(timeline, now, time::monotonic_us) };
            (next, now)
        });
        match next {
            // Made again, past the floor, if a watermark was taken meanwhile (src/server/watermark.rs).
            Next::Issue(timestamp) if watermark::hold(Family::Muid, now) => {
                return pack("muid_new", timestamp, medallion, offset)
            }
            Next::Issue(_) => {}
            Next::Wait { us } => wait
                .get_or_insert_with(|| clock_wait::ClockWait::pacing("muid_new", RUN_AHEAD_LIMIT_US))
                .sleep_until(now + us, now),
            Next::Exhausted => errors::datetime_out_of_range(format!(
                "muid_new: the system clock is past the last muid timestamp ({} µs since 1970)",
                layout::TIMESTAMP_MAX - 1
            )),
        }
    }
}

// ---- pack, accessors, text -------------------------------------------------------------------

fn pack(function: &str, timestamp: i64, medallion: i64, offset: i32) -> Uuid {
    match (Muid { timestamp, medallion, offset }).pack() {
        Ok(bytes) => Uuid::from_bytes(bytes),
        Err(field) => {
            let value = match field {
                Field::Timestamp => timestamp,
                Field::Medallion => medallion,
            };
            errors::field_out_of_range(
                function,
                field.name(),
                value,
                &format!("0 to {}, or -1 (Gink's sentinel, all bits set)", field.max()),
            )
        }
    }
}

/// The smallest muid of the muid watermark's µs (src/server/watermark.rs): every `muid_new()` below it
/// belongs to a transaction that has ended, and none made after this call is below it.
#[pg_extern(volatile, parallel_restricted)]
fn muid_watermark() -> Uuid {
    pack("muid_watermark", watermark::watermark_us("muid_watermark", Family::Muid), 0, 0)
}

/// A muid from its three fields (Gink's `Muid(timestamp, medallion, offset)`).
#[pg_extern(immutable, strict, parallel_safe, name = "muid_pack")]
fn muid_pack(timestamp: i64, medallion: i64, offset: default!(i32, 0)) -> Uuid {
    pack("muid_pack", timestamp, medallion, offset)
}

/// `muid_pack` with the time as a `timestamptz`; 'infinity' is Gink's -1 sentinel.
#[pg_extern(immutable, strict, parallel_safe, name = "muid_pack")]
fn muid_pack_time(timestamp: TimestampWithTimeZone, medallion: i64, offset: default!(i32, 0)) -> Uuid {
    let us = if timestamp.is_infinity() {
        Some(-1)
    } else {
        timestamptz::unix_us(timestamp).filter(|us| (0..layout::TIMESTAMP_MAX).contains(us))
    };
    match us {
        Some(us) => pack("muid_pack", us, medallion, offset),
        None => errors::datetime_out_of_range(format!(
            "muid_pack: timestamp {timestamp} is out of range for a muid: valid range is 1970-01-01 00:00:00+00 \
             to 2112-09-17 23:53:47.370494+00 ({} µs), or infinity for Gink's -1 sentinel",
            layout::TIMESTAMP_MAX - 1
        )),
    }
}

/// The smallest muid whose `muid_timestamp` is at or after `ts`, for range and partition bounds
/// (`id >= muid_floor(lower) AND id < muid_floor(upper)`; pg_partman's `p_time_encoder`). Never an
/// error: before 1970 it is the smallest muid, past the last µs the first of the 'infinity' sentinel.
#[pg_extern(immutable, strict, parallel_safe)]
fn muid_floor(ts: TimestampWithTimeZone) -> Uuid {
    Uuid::from_bytes(layout::floor(timestamptz::floor_unix_us(ts)))
}

/// The timestamp field as Gink's integer: µs since 1970, or -1 for the sentinel.
#[pg_extern(immutable, strict, parallel_safe)]
fn muid_timestamp_us(id: Uuid) -> i64 {
    Muid::unpack(id.as_bytes()).timestamp
}

/// The timestamp as a `timestamptz`; the -1 sentinel is 'infinity'.
#[pg_extern(immutable, strict, parallel_safe)]
fn muid_timestamp(id: Uuid) -> TimestampWithTimeZone {
    let us = Muid::unpack(id.as_bytes()).timestamp;
    if us == -1 {
        TimestampWithTimeZone::positive_infinity()
    } else {
        timestamptz::from_unix_us(us)
    }
}

/// The medallion (the node), or -1 for the sentinel.
#[pg_extern(immutable, strict, parallel_safe)]
fn muid_medallion(id: Uuid) -> i64 {
    Muid::unpack(id.as_bytes()).medallion
}

#[pg_extern(immutable, strict, parallel_safe)]
fn muid_offset(id: Uuid) -> i32 {
    Muid::unpack(id.as_bytes()).offset
}

/// Canonical text: 34 characters, upper case, `TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO`.
#[pg_extern(immutable, strict, parallel_safe)]
fn muid_text(id: Uuid) -> String {
    layout::to_text(id.as_bytes())
}

/// A muid from canonical text (either case) or the spec's short forms.
#[pg_extern(immutable, strict, parallel_safe)]
fn muid_parse(text: &str) -> Uuid {
    match layout::parse(text) {
        Some(bytes) => Uuid::from_bytes(bytes),
        None => errors::raise(
            PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
            format!("invalid input syntax for a muid: \"{text}\""),
            Some("A muid is TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO in hex (13, 11 and 8 digits), or TTTTTTTTTTTTT-MMMMMMMMMMM, or TTTTTTTTTTTTT."),
        ),
    }
}
