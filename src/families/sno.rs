//! SQL surface of sno: the fixed-length 10-byte type `sno` (its I/O, comparison, hash and sort
//! support functions; sql/sno_type.sql and sql/sno_operators.sql declare the type and classes
//! around them), accessors, the builder, and the server-wide generator behind `sno_new`.

use crate::postgres::btree_cmp::{btree_cmp, value_bytes};
use crate::postgres::errors;
use crate::postgres::setting;
use crate::postgres::sort_support::Abbreviate;
use crate::postgres::timestamptz::{self, shown};
use crate::rules::range;
use crate::rules::sno::{self as layout, Generator, Next, Parts, SequenceBounds};
use crate::rules::watermark::Family;
use crate::server::high_water::{self, Marked};
use crate::server::watermark;
use crate::server::{clock_wait, identity, promotion, standby};
use pgrx::callconv::{Arg, ArgAbi, BoxRet, FcInfo};
use pgrx::pg_sys;
use pgrx::pgrx_sql_entity_graph::metadata::{
    ArgumentError, ReturnsError, ReturnsRef, SqlMappingRef, SqlTranslatable, TypeOrigin,
};
use pgrx::prelude::*;
use pgrx::{GucSetting, Internal, PgMemoryContexts, PgSqlErrorCode};
use std::ffi::{c_int, CStr, CString};

/// A sno value: the 10 bytes PostgreSQL stores, passed by reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Sno([u8; layout::LEN]);

impl Sno {
    pub fn from_bytes(bytes: [u8; layout::LEN]) -> Sno {
        Sno(bytes)
    }

    pub fn bytes(self) -> [u8; layout::LEN] {
        self.0
    }
}

impl IntoDatum for Sno {
    fn into_datum(self) -> Option<pg_sys::Datum> {
        // SAFETY: CurrentMemoryContext is always valid inside a function call.
        let bytes = unsafe { PgMemoryContexts::CurrentMemoryContext.palloc_slice::<u8>(layout::LEN) };
        bytes.copy_from_slice(&self.0);
        Some(bytes.as_ptr().into())
    }

    fn type_oid() -> pg_sys::Oid {
        pgrx::wrappers::regtypein("sno")
    }
}

impl FromDatum for Sno {
    unsafe fn from_polymorphic_datum(datum: pg_sys::Datum, is_null: bool, _: pg_sys::Oid) -> Option<Sno> {
        (!is_null).then(|| Sno(*value_bytes(datum)))
    }
}

unsafe impl<'fcx> ArgAbi<'fcx> for Sno {
    unsafe fn unbox_arg_unchecked(arg: Arg<'_, 'fcx>) -> Self {
        // SAFETY: pgrx calls this only for an argument of SQL type sno.
        unsafe { errors::strict_arg(arg) }
    }
}

unsafe impl BoxRet for Sno {
    unsafe fn box_into<'fcx>(self, fcinfo: &mut FcInfo<'fcx>) -> pgrx::datum::Datum<'fcx> {
        match self.into_datum() {
            Some(datum) => unsafe { fcinfo.return_raw_datum(datum) },
            None => fcinfo.return_null(),
        }
    }
}

unsafe impl SqlTranslatable for Sno {
    const TYPE_IDENT: &'static str = pgrx::pgrx_resolved_type!(Sno);
    const TYPE_ORIGIN: TypeOrigin = TypeOrigin::ThisExtension;
    const ARGUMENT_SQL: Result<SqlMappingRef, ArgumentError> = Ok(SqlMappingRef::literal("sno"));
    const RETURN_SQL: Result<ReturnsRef, ReturnsError> = Ok(ReturnsRef::One(SqlMappingRef::literal("sno")));
}

// ---- settings (registered in lib.rs) -------------------------------------------------------

pub static SEQUENCE_MIN: GucSetting<i32> = GucSetting::<i32>::new(0);
pub static SEQUENCE_MAX: GucSetting<i32> = GucSetting::<i32>::new(u16::MAX as i32);

/// The partition this server writes: the setting, or 16 bits folded from the system identifier,
/// the timeline and a number drawn at every server start (`identity::server_identity`), so that
/// servers left unconfigured, and copies of them, still differ with high odds.
/// An explicit one is refused after a copy or promotion until set apart (`promotion`).
fn partition() -> u16 {
    let configured = setting::int(&identity::SNO_PARTITION);
    promotion::refuse_until_set_apart(promotion::IdentityOf::Sno, configured.into(), "sno_new");
    OLDER_LAYOUTS.refuse("sno_new");
    match configured {
        -1 => layout::partition_from_system_identifier(identity::server_identity()),
        // The setting's range is -1..65535.
        partition => partition as u16,
    }
}

fn sequence_bounds() -> SequenceBounds {
    let (min, max) = (setting::int(&SEQUENCE_MIN), setting::int(&SEQUENCE_MAX));
    SequenceBounds::new(min as u16, max as u16).unwrap_or_else(|| {
        errors::raise(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            format!(
                "comb_ext.sno_sequence_min ({min}) and comb_ext.sno_sequence_max ({max}) leave no valid sequence pool: \
                 sno needs at least {} sequence numbers (max >= min + {})",
                layout::MIN_POOL,
                layout::MIN_POOL - 1
            ),
            None,
        )
    })
}

// ---- the generator ---------------------------------------------------------------------------

/// One sno generator for the whole server: every session draws from it, so no two sessions ever
/// hold the same (time, tick, sequence), whatever their number.
static GENERATOR: Marked<Generator> =
    Marked::new(c"comb_ext sno generator v2", c"comb_ext sno mark writer v1", c"comb_ext_sno", Generator::new());

pub const SHARED_MEMORY_BYTES: usize = GENERATOR.size();

/// 0.3.0's generator, of another layout (`shmem::OlderLayouts`).
static OLDER_LAYOUTS: crate::server::shmem::OlderLayouts =
    crate::server::shmem::OlderLayouts::new(&[c"comb_ext sno generator v1"]);

fn range_text() -> String {
    format!("{} to {}", shown(layout::EPOCH_UNIX_US), shown(layout::last_unix_us()))
}

/// A new sno: the next (unit, tick, sequence) of the server's generator, read under its lock
/// with the clock read inside it, so lock order is time order. Waits outside the lock.
#[pg_extern(volatile, parallel_restricted, requires = ["sno_type"])]
fn sno_new(meta: default!(i32, 0)) -> Sno {
    standby::refuse_in_recovery("sno_new", "sno partition");
    let meta = field("sno_new", "meta", meta, u8::MAX as i32) as u8;
    let partition = partition();
    let bounds = sequence_bounds();
    let mut wait = None;
    loop {
        let clock = watermark::clock();
        let step = high_water::update(&GENERATOR, "sno_new", |generator| {
            let now = clock.now_us();
            layout::units(now).map(|units| (generator.next(units, bounds), now)).ok_or(now)
        });
        match step {
            Ok((Next::Issue { units, tick, sequence }, now)) => {
                // Made again, past the floor, if a watermark was taken meanwhile (src/server/watermark.rs).
                if watermark::hold(Family::Sno, now) {
                    return Sno(layout::encode(&Parts { units, tick, meta, partition, sequence }));
                }
            }
            Ok((Next::WaitUntil { units }, now)) => wait
                .get_or_insert_with(|| clock_wait::ClockWait::new("sno_new"))
                .sleep_until(layout::unix_us(units), now),
            Err(now) => errors::datetime_out_of_range(format!(
                "sno_new: the system clock reads {}, outside sno's range: valid range is {}",
                shown(now),
                range_text()
            )),
        }
    }
}

// ---- text and binary I/O -------------------------------------------------------------------

/// Text input. Bad text is a 22P02 error, or on PostgreSQL 16+ a soft error for callers that ask
/// for one (`pg_input_is_valid`, COPY ... ON_ERROR).
#[pg_extern(immutable, strict, parallel_safe)]
fn sno_in(input: &CStr, fcinfo: pg_sys::FunctionCallInfo) -> Sno {
    if let Some(id) = layout::from_text(input.to_bytes()) {
        return Sno(id);
    }
    let code = PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION;
    let message = format!("invalid input syntax for type sno: \"{}\"", input.to_string_lossy());
    let hint = "A sno is 16 characters of 23456789abcdefghijklmnopqrstuvwx (lower case).";
    // SAFETY: fcinfo is this call's own.
    if unsafe { crate::postgres::compat::save_soft_error(fcinfo, code, &message, Some(hint)) } {
        return Sno([0; layout::LEN]);
    }
    errors::raise(code, message, Some(hint))
}

#[pg_extern(immutable, strict, parallel_safe)]
fn sno_out(id: Sno) -> CString {
    // Sixteen alphabet characters: never a NUL.
    CString::new(layout::to_text(&id.0).to_vec()).unwrap_or_default()
}

/// Binary input: exactly the 10 raw bytes.
#[pg_extern(immutable, strict, parallel_safe)]
fn sno_recv(buf: Internal) -> Sno {
    let mut id = [0u8; layout::LEN];
    // SAFETY: PostgreSQL passes a receive function a valid StringInfo; pq_copymsgbytes raises
    // an ERROR (not a crash) when fewer than 10 bytes are left.
    unsafe {
        if let Some(buf) = buf.unwrap() {
            pg_sys::pq_copymsgbytes(buf.cast_mut_ptr(), id.as_mut_ptr().cast(), layout::LEN as c_int);
        }
    }
    Sno(id)
}

#[pg_extern(immutable, strict, parallel_safe)]
fn sno_send(id: Sno) -> Vec<u8> {
    id.0.to_vec()
}

#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_to_bytea(id: Sno) -> Vec<u8> {
    id.0.to_vec()
}

#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_from_bytea(bytes: &[u8]) -> Sno {
    match <[u8; layout::LEN]>::try_from(bytes) {
        Ok(id) => Sno(id),
        Err(_) => errors::raise(
            PgSqlErrorCode::ERRCODE_INVALID_BINARY_REPRESENTATION,
            format!("invalid sno: bytea of {} bytes: a sno is exactly {} bytes", bytes.len(), layout::LEN),
            None,
        ),
    }
}

// ---- accessors, builder and range bound ------------------------------------------------------

/// A field value checked against 0..=max, else a 22003 error naming the field and range.
fn field(function: &str, name: &'static str, value: i32, max: i32) -> i32 {
    match range::check(name, value as i64, 0, max as i64) {
        Ok(_) => value,
        Err(e) => errors::out_of_range(function, &e),
    }
}

/// The time of a sno: the first µs of its 4 ms unit.
#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_time(id: Sno) -> TimestampWithTimeZone {
    timestamptz::from_unix_us(layout::unix_us(layout::decode(&id.0).units))
}

#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_meta(id: Sno) -> i32 {
    layout::decode(&id.0).meta as i32
}

#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_partition(id: Sno) -> i32 {
    layout::decode(&id.0).partition as i32
}

#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_sequence(id: Sno) -> i32 {
    layout::decode(&id.0).sequence as i32
}

#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_tick(id: Sno) -> bool {
    layout::decode(&id.0).tick
}

/// sno's `NewWithTime` with every field given: for migrations and tests.
#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_from_parts(
    ts: TimestampWithTimeZone,
    meta: i32,
    partition: i32,
    sequence: i32,
    tick: default!(bool, false),
) -> Sno {
    let units = timestamptz::unix_us(ts).and_then(layout::units).unwrap_or_else(|| {
        errors::datetime_out_of_range(format!(
            "sno_from_parts: timestamp {ts} is out of range for sno: valid range is {}",
            range_text()
        ))
    });
    let meta = field("sno_from_parts", "meta", meta, u8::MAX as i32) as u8;
    let partition = field("sno_from_parts", "partition", partition, u16::MAX as i32) as u16;
    let sequence = field("sno_from_parts", "sequence", sequence, u16::MAX as i32) as u16;
    Sno(layout::encode(&Parts { units, tick, meta, partition, sequence }))
}

/// The smallest sno in the 4 ms unit of the sno watermark (src/server/watermark.rs): every `sno_new()`
/// below it belongs to a transaction that has ended, and none made after this call is below it.
#[pg_extern(volatile, parallel_restricted, requires = ["sno_type"])]
fn sno_watermark() -> Sno {
    // Below sno's epoch (a prepared transaction with no record holds W at 1970): its smallest id.
    let at = watermark::watermark_us("sno_watermark", Family::Sno).max(layout::EPOCH_UNIX_US);
    match layout::units(at).and_then(|units| layout::floor(layout::unix_us(units))) {
        Some(id) => Sno(id),
        None => errors::datetime_out_of_range(format!(
            "sno_watermark: the watermark {} is outside sno's range: valid range is {}",
            shown(at),
            range_text()
        )),
    }
}

/// The smallest sno whose `sno_time` is at or after `ts`, for range scans:
/// `id >= sno_floor(lower) AND id < sno_floor(upper)`. Any time before 2010 gives the smallest sno.
#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_floor(ts: TimestampWithTimeZone) -> Sno {
    match timestamptz::floor_unix_us(ts).and_then(layout::floor) {
        Some(id) => Sno(id),
        None => errors::datetime_out_of_range(format!(
            "sno_floor: no sno has a time at or after {ts}: the last is {}",
            shown(layout::unix_us(layout::MAX_UNITS))
        )),
    }
}

// ---- comparison, hashing, sort support -----------------------------------------------------

// Btree support function 1, `sno_cmp(a, b)` (declared in sql/sno_operators.sql), without pgrx's
// wrapper: byte order is time order.
btree_cmp!(sno_cmp_wrapper, pg_finfo_sno_cmp_wrapper, layout::LEN, |a, b| a.cmp(b));

#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_eq(a: Sno, b: Sno) -> bool {
    a == b
}

#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_ne(a: Sno, b: Sno) -> bool {
    a != b
}

#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_lt(a: Sno, b: Sno) -> bool {
    a < b
}

#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_le(a: Sno, b: Sno) -> bool {
    a <= b
}

#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_gt(a: Sno, b: Sno) -> bool {
    a > b
}

#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_ge(a: Sno, b: Sno) -> bool {
    a >= b
}

/// State function of `min(sno)`.
#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_smaller(a: Sno, b: Sno) -> Sno {
    a.min(b)
}

/// State function of `max(sno)`.
#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_larger(a: Sno, b: Sno) -> Sno {
    a.max(b)
}

unsafe extern "C-unwind" {
    /// PostgreSQL's hash function for byte strings (`hash_any` is a macro around it), as
    /// `uuid_hash` uses: hash values stay those of the server's own hashing.
    #[link_name = "hash_bytes"]
    fn postgres_hash_bytes(k: *const u8, keylen: c_int) -> u32;
    #[link_name = "hash_bytes_extended"]
    fn postgres_hash_bytes_extended(k: *const u8, keylen: c_int, seed: u64) -> u64;
}

/// Hash support function 1.
#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_hash(id: Sno) -> i32 {
    // SAFETY: reads the 10 bytes of a local array.
    unsafe { postgres_hash_bytes(id.0.as_ptr(), layout::LEN as c_int) as i32 }
}

/// Hash support function 2 (seeded, for hash partitioning).
#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_hash_extended(id: Sno, seed: i64) -> i64 {
    // SAFETY: reads the 10 bytes of a local array.
    unsafe { postgres_hash_bytes_extended(id.0.as_ptr(), layout::LEN as c_int, seed as u64) as i64 }
}

/// Full comparator: byte order. Only reads bytes, so it cannot raise an error or panic.
unsafe extern "C-unwind" fn sno_fastcmp(a: pg_sys::Datum, b: pg_sys::Datum, _: pg_sys::SortSupport) -> c_int {
    value_bytes::<{ layout::LEN }>(a).cmp(value_bytes(b)) as c_int
}

struct SnoKey;

impl Abbreviate for SnoKey {
    type Reference = layout::KeyReference;

    unsafe fn reference(datum: pg_sys::Datum) -> Self::Reference {
        layout::key_reference(value_bytes(datum))
    }

    unsafe fn key(datum: pg_sys::Datum, reference: &Self::Reference) -> u64 {
        layout::abbreviated(value_bytes(datum), reference)
    }
}

/// Btree support function 2: sort support with abbreviated keys.
#[pg_extern(immutable, strict, parallel_safe, requires = ["sno_type"])]
fn sno_sortsupport(ssup: Internal) {
    crate::postgres::sort_support::install::<SnoKey>(ssup, sno_fastcmp);
}
