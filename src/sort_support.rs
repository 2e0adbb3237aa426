//! Sort support shared by the btree operator classes: a full comparator, and abbreviated keys
//! compared by PostgreSQL's own unsigned Datum comparator.

use pgrx::pg_sys;
use pgrx::Internal;
use std::ffi::c_int;

pub type Comparator = unsafe extern "C-unwind" fn(pg_sys::Datum, pg_sys::Datum, pg_sys::SortSupport) -> c_int;
pub type AbbrevConverter = unsafe extern "C-unwind" fn(pg_sys::Datum, pg_sys::SortSupport) -> pg_sys::Datum;

unsafe extern "C-unwind" {
    /// PostgreSQL's own unsigned Datum comparator. Passing this very function (not a wrapper)
    /// lets tuplesort use its qsort specialised for unsigned abbreviated keys (PostgreSQL 15+).
    #[link_name = "ssup_datum_unsigned_cmp"]
    fn postgres_ssup_datum_unsigned_cmp(x: pg_sys::Datum, y: pg_sys::Datum, ssup: pg_sys::SortSupport) -> c_int;
}

/// Abbreviation never aborts: the keys of both classes are time-ordered or random in their
/// leading bytes, so the full comparator is needed only for ties within those bytes.
unsafe extern "C-unwind" fn never_abort(_memtupcount: c_int, _ssup: pg_sys::SortSupport) -> bool {
    false
}

/// Fills in the SortSupportData a btree sort support function receives. `abbreviate` turns a
/// value into an unsigned key whose order agrees with `full` (equal keys may still differ).
pub fn install(ssup: Internal, full: Comparator, abbreviate: AbbrevConverter) {
    // SAFETY: PostgreSQL calls a btree sort support function with a valid SortSupportData.
    unsafe {
        let Some(datum) = ssup.unwrap() else { return };
        let ssup = datum.cast_mut_ptr::<pg_sys::SortSupportData>();
        (*ssup).comparator = Some(full);
        // Abbreviated keys need 8-byte Datums, as on every 64-bit platform.
        if (*ssup).abbreviate && std::mem::size_of::<pg_sys::Datum>() == 8 {
            (*ssup).abbrev_full_comparator = Some(full);
            (*ssup).abbrev_converter = Some(abbreviate);
            (*ssup).abbrev_abort = Some(never_abort);
            (*ssup).comparator = Some(postgres_ssup_datum_unsigned_cmp);
        }
    }
}
