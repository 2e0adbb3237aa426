//! Sort support shared by the btree operator classes: a full comparator, and abbreviated keys
//! compared as unsigned integers. A key may depend on a per-sort reference taken from the first
//! value the sort converts (sno keys do: `rules::sno::abbreviated`), so that the values a sort
//! usually holds, one server's, still get keys that differ.

use crate::postgres::compat::{self, SortComparator};
use pgrx::{pg_sys, Internal, PgMemoryContexts};
use std::ffi::c_int;

/// A type's abbreviated key: an unsigned integer whose order agrees with the full comparator
/// wherever two keys differ (equal keys may still hold different values), for one reference.
pub trait Abbreviate {
    /// Plain data, kept for the length of one sort.
    type Reference: Copy;

    /// SAFETY (both): `datum` is a non-null value of the operator class's type.
    unsafe fn reference(datum: pg_sys::Datum) -> Self::Reference;
    unsafe fn key(datum: pg_sys::Datum, reference: &Self::Reference) -> u64;
}

/// Per-sort state, in the sort's memory context: the reference, once the first value is seen.
#[repr(C)]
struct SortState<R: Copy> {
    seen: bool,
    reference: R,
}

/// Converts one value. Only reads memory, so it cannot raise an error or panic.
unsafe extern "C-unwind" fn convert<A: Abbreviate>(
    original: pg_sys::Datum,
    ssup: pg_sys::SortSupport,
) -> pg_sys::Datum {
    let state = (*ssup).ssup_extra.cast::<SortState<A::Reference>>();
    if !(*state).seen {
        (*state).reference = A::reference(original);
        (*state).seen = true;
    }
    pg_sys::Datum::from(A::key(original, &(*state).reference) as usize)
}

/// Abbreviation is kept: measured on 10 M snos (docs/sno.md "sno"), giving it up, as `uuid.c` does
/// when few keys differ, only made sorts slower, since tuplesort's fast path needs the keys.
unsafe extern "C-unwind" fn never_abort(_memtupcount: c_int, _ssup: pg_sys::SortSupport) -> bool {
    false
}

/// Fills in the SortSupportData a btree sort support function receives.
pub fn install<A: Abbreviate>(ssup: Internal, full: SortComparator) {
    // SAFETY: PostgreSQL calls a btree sort support function with a valid SortSupportData whose
    // ssup_cxt lives as long as the sort. palloc0 gives zeroed plain data (seen = false).
    unsafe {
        let Some(datum) = ssup.unwrap() else { return };
        let ssup = datum.cast_mut_ptr::<pg_sys::SortSupportData>();
        (*ssup).comparator = Some(full);
        // Abbreviated keys need 8-byte Datums, as on every 64-bit platform.
        if (*ssup).abbreviate && std::mem::size_of::<pg_sys::Datum>() == 8 {
            let state = PgMemoryContexts::For((*ssup).ssup_cxt).palloc0_struct::<SortState<A::Reference>>();
            (*ssup).ssup_extra = state.cast();
            (*ssup).abbrev_full_comparator = Some(full);
            (*ssup).abbrev_converter = Some(convert::<A>);
            (*ssup).abbrev_abort = Some(never_abort);
            (*ssup).comparator = Some(compat::unsigned_abbrev_cmp());
        }
    }
}
