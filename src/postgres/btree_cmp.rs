//! Btree support function 1 as a bare V1 C function, without pgrx's per-call wrapper.
//!
//! A btree calls its comparison function a few dozen times for every key it inserts or finds
//! (the descent and the unique check). pgrx's wrapper (panic guard, memory context switch,
//! argument unboxing) cost about as much per call as the whole comparison, and made a bulk
//! insert of SQL Server-ordered COMBs or of snos about 20% slower than of default-ordered uuids
//! (benches/peers.py). A comparison only reads two fixed-length values: it cannot raise an error,
//! panic or allocate, so it needs nothing the wrapper gives.

use pgrx::pg_sys;
use std::cmp::Ordering;

/// The `N` bytes a non-null Datum of a fixed-length type passed by reference points to (`uuid`, `sno`).
///
/// SAFETY: `datum` must be a non-null value of such a type of `N` bytes; such values are never
/// toasted. Sorts and btrees hand their comparators only such Datums: nulls are sorted apart.
#[inline(always)]
pub unsafe fn value_bytes<'a, const N: usize>(datum: pg_sys::Datum) -> &'a [u8; N] {
    &*(datum.cast_mut_ptr::<u8>() as *const [u8; N])
}

/// The two arguments' bytes, or None where a caller broke the function's contract (fewer than two
/// arguments, or a NULL one: the functions are STRICT, so only a C caller could).
///
/// SAFETY: `fcinfo` is the call's, and each non-null argument is a value of a fixed-length type
/// passed by reference of `N` bytes: the SQL declaration (`sql/`) gives the function only that type.
#[inline(always)]
pub unsafe fn two_values<'a, const N: usize>(fcinfo: pg_sys::FunctionCallInfo) -> Option<(&'a [u8; N], &'a [u8; N])> {
    if (*fcinfo).nargs < 2 {
        return None;
    }
    let args = (*fcinfo).args.as_slice(2);
    if args[0].isnull || args[1].isnull {
        return None;
    }
    Some((value_bytes(args[0].value), value_bytes(args[1].value)))
}

/// The int4 result: -1, 0 or 1; or SQL NULL for a broken contract, which PostgreSQL's function
/// manager turns into an ERROR ("function ... returned NULL") for a btree.
///
/// SAFETY: `fcinfo` is the call's.
#[inline(always)]
pub unsafe fn result(fcinfo: pg_sys::FunctionCallInfo, ordering: Option<Ordering>) -> pg_sys::Datum {
    match ordering {
        Some(ordering) => pg_sys::Datum::from(ordering as i32),
        None => {
            (*fcinfo).isnull = true;
            pg_sys::Datum::from(0)
        }
    }
}

/// `btree_cmp!(symbol, finfo_symbol, LEN, compare)` defines the V1 function `symbol` (and its
/// `pg_finfo_` record) comparing two values of `LEN` bytes with `compare(&[u8; LEN], &[u8; LEN])
/// -> Ordering`. Keep `symbol` the one pgrx gave the `#[pg_extern]` it replaced
/// (`<name>_wrapper`): every installed version's `AS 'MODULE_PATHNAME', ...` names it, so a
/// catalog from before still finds it.
macro_rules! btree_cmp {
    ($symbol:ident, $finfo:ident, $len:expr, $compare:expr) => {
        #[unsafe(no_mangle)]
        #[doc(hidden)]
        pub extern "C" fn $finfo() -> &'static pgrx::pg_sys::Pg_finfo_record {
            const V1: pgrx::pg_sys::Pg_finfo_record = pgrx::pg_sys::Pg_finfo_record { api_version: 1 };
            &V1
        }

        /// SAFETY: called by PostgreSQL's function manager, as its SQL declaration says.
        #[unsafe(no_mangle)]
        pub unsafe extern "C-unwind" fn $symbol(fcinfo: pgrx::pg_sys::FunctionCallInfo) -> pgrx::pg_sys::Datum {
            let compare: fn(&[u8; $len], &[u8; $len]) -> std::cmp::Ordering = $compare;
            let ordering = $crate::postgres::btree_cmp::two_values::<{ $len }>(fcinfo).map(|(a, b)| compare(a, b));
            $crate::postgres::btree_cmp::result(fcinfo, ordering)
        }
    };
}

pub(crate) use btree_cmp;
