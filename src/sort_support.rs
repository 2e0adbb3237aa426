//! Sort support shared by the btree operator classes: a full comparator, and abbreviated keys
//! compared as unsigned integers, abandoned as `uuid.c` abandons its own when a cardinality
//! estimate shows the keys rarely decide anything (a bulk of ids made in one burst shares its
//! leading bytes: one sno key covers about 25,000 ids of a server's 4 ms unit).

use pgrx::{pg_guard, pg_sys, Internal, PgMemoryContexts};
use std::ffi::{c_double, c_int};

pub type Comparator = unsafe extern "C-unwind" fn(pg_sys::Datum, pg_sys::Datum, pg_sys::SortSupport) -> c_int;

/// A type's abbreviated key: an unsigned integer whose order agrees with the full comparator
/// wherever two keys differ (equal keys may still hold different values).
pub trait Abbreviate {
    /// SAFETY: `datum` is a non-null value of the operator class's type.
    unsafe fn key(datum: pg_sys::Datum) -> u64;
}

/// lib/hyperloglog.h's `hyperLogLogState` (the same in every supported major; pgrx does not bind it).
#[repr(C)]
struct HyperLogLog {
    register_width: u8,
    n_registers: usize,
    alpha_mm: c_double,
    hashes: *mut u8,
    arr_size: usize,
}

/// Per-sort state, in the sort's memory context: how many keys were made, and a HyperLogLog
/// estimate of how many of them differ.
#[repr(C)]
struct Estimate {
    input_count: f64,
    estimating: bool,
    cardinality: HyperLogLog,
}

unsafe extern "C-unwind" {
    // PostgreSQL's own. Only initHyperLogLog allocates; the others compute on memory we own and
    // never raise an error, so the per-row path needs no guard.
    fn initHyperLogLog(state: *mut HyperLogLog, bwidth: u8);
    fn addHyperLogLog(state: *mut HyperLogLog, hash: u32);
    fn estimateHyperLogLog(state: *mut HyperLogLog) -> c_double;
    fn hash_bytes_uint32(k: u32) -> u32;
}

unsafe extern "C-unwind" fn convert<A: Abbreviate>(
    original: pg_sys::Datum,
    ssup: pg_sys::SortSupport,
) -> pg_sys::Datum {
    let key = A::key(original);
    let estimate = (*ssup).ssup_extra.cast::<Estimate>();
    if !estimate.is_null() && (*estimate).estimating {
        (*estimate).input_count += 1.0;
        // Both halves count, as uuid.c folds its key before hashing.
        addHyperLogLog(&mut (*estimate).cardinality, hash_bytes_uint32(key as u32 ^ (key >> 32) as u32));
    }
    pg_sys::Datum::from(key as usize)
}

/// uuid.c's rule: after 10,000 keys, give abbreviation up while fewer than one key in 2,000 is
/// distinct; stop checking once 100,000 distinct keys are seen. With `trace_sort` on, the decision
/// is logged as uuid.c logs its own. Called a few times per sort, so it can afford the guard.
#[pg_guard]
unsafe extern "C-unwind" fn abort(memtupcount: c_int, ssup: pg_sys::SortSupport) -> bool {
    let estimate = (*ssup).ssup_extra.cast::<Estimate>();
    if estimate.is_null() || memtupcount < 10_000 || (*estimate).input_count < 10_000.0 || !(*estimate).estimating {
        return false;
    }
    let distinct = estimateHyperLogLog(&mut (*estimate).cardinality);
    let values = (*estimate).input_count;
    if distinct > 100_000.0 {
        (*estimate).estimating = false;
        if pg_sys::trace_sort {
            pgrx::log!("comb_ext abbreviated keys: estimation ends at cardinality {distinct:.0} after {values} values ({memtupcount} rows)");
        }
        return false;
    }
    let threshold = values / 2_000.0 + 0.5;
    let give_up = distinct < threshold;
    if give_up && pg_sys::trace_sort {
        pgrx::log!(
            "comb_ext abbreviated keys: aborted abbreviation at cardinality {distinct:.0} below threshold {threshold:.0} after {values} values ({memtupcount} rows)"
        );
    }
    give_up
}

/// Fills in the SortSupportData a btree sort support function receives.
pub fn install<A: Abbreviate>(ssup: Internal, full: Comparator) {
    // SAFETY: PostgreSQL calls a btree sort support function with a valid SortSupportData whose
    // ssup_cxt lives as long as the sort.
    unsafe {
        let Some(datum) = ssup.unwrap() else { return };
        let ssup = datum.cast_mut_ptr::<pg_sys::SortSupportData>();
        (*ssup).comparator = Some(full);
        // Abbreviated keys need 8-byte Datums, as on every 64-bit platform.
        if (*ssup).abbreviate && std::mem::size_of::<pg_sys::Datum>() == 8 {
            let estimate = PgMemoryContexts::For((*ssup).ssup_cxt).switch_to(|context| {
                let estimate = context.palloc0_struct::<Estimate>();
                (*estimate).estimating = true;
                // It allocates, so may raise an error: through pgrx's guard, which turns that into a panic.
                pg_sys::ffi::pg_guard_ffi_boundary(|| initHyperLogLog(&mut (*estimate).cardinality, 10));
                estimate
            });
            (*ssup).ssup_extra = estimate.cast();
            (*ssup).abbrev_full_comparator = Some(full);
            (*ssup).abbrev_converter = Some(convert::<A>);
            (*ssup).abbrev_abort = Some(abort);
            (*ssup).comparator = Some(crate::compat::unsigned_abbrev_cmp());
        }
    }
}
