//! Every difference between the PostgreSQL majors comb_ext builds for (13-18), in one place. Each
//! item names the version that changed the API; the rest of the crate calls these and has no `cfg`.

use pgrx::pg_sys;
use std::ffi::{c_int, CStr};

/// `LockHeldByMe`: PostgreSQL 17 added a third argument, `orstronger`.
///
/// SAFETY: looks `tag` up in this backend's local lock table; callable from any backend.
pub unsafe fn lock_held_by_me(tag: &pg_sys::LOCKTAG, mode: pg_sys::LOCKMODE) -> bool {
    #[cfg(any(feature = "pg13", feature = "pg14", feature = "pg15", feature = "pg16"))]
    return pg_sys::LockHeldByMe(tag, mode);
    #[cfg(not(any(feature = "pg13", feature = "pg14", feature = "pg15", feature = "pg16")))]
    return pg_sys::LockHeldByMe(tag, mode, false);
}

/// The oldest transaction id not yet frozen in every database (`oldestXid`), read without a lock as
/// one word: it only moves on, so a stale reading is older. PostgreSQL 17 renamed
/// `ShmemVariableCache` to `TransamVariables`.
///
/// SAFETY: shared memory is attached (any backend).
pub unsafe fn oldest_xid() -> u32 {
    #[cfg(any(feature = "pg13", feature = "pg14", feature = "pg15", feature = "pg16"))]
    let oldest = std::ptr::addr_of!((*pg_sys::ShmemVariableCache).oldestXid);
    #[cfg(not(any(feature = "pg13", feature = "pg14", feature = "pg15", feature = "pg16")))]
    let oldest = std::ptr::addr_of!((*pg_sys::TransamVariables).oldestXid);
    std::ptr::read_volatile(oldest).into_inner()
}

/// The timeline this server writes WAL on (call only when not in recovery). PostgreSQL 15 replaced
/// the backend-global `ThisTimeLineID` (set once `RecoveryInProgress()` has returned false) with
/// `GetWALInsertionTimeLine()`.
///
/// SAFETY: reads server state; the caller has checked `RecoveryInProgress()` is false.
pub unsafe fn wal_timeline() -> u32 {
    #[cfg(any(feature = "pg13", feature = "pg14"))]
    return pg_sys::ThisTimeLineID;
    #[cfg(not(any(feature = "pg13", feature = "pg14")))]
    return pg_sys::GetWALInsertionTimeLine();
}

/// The shape of `SortSupportData.comparator` (and of the abbreviated-key comparator), the same on
/// every major. Here, not in `sort_support`, so that this module depends on nothing of the crate's.
pub type SortComparator = unsafe extern "C-unwind" fn(pg_sys::Datum, pg_sys::Datum, pg_sys::SortSupport) -> c_int;

/// The unsigned comparator for abbreviated keys. PostgreSQL 15 added `ssup_datum_unsigned_cmp`;
/// passing that very function lets tuplesort use its specialised qsort. Before 15, our own.
#[cfg(not(any(feature = "pg13", feature = "pg14")))]
pub fn unsigned_abbrev_cmp() -> SortComparator {
    unsafe extern "C-unwind" {
        fn ssup_datum_unsigned_cmp(x: pg_sys::Datum, y: pg_sys::Datum, ssup: pg_sys::SortSupport) -> c_int;
    }
    ssup_datum_unsigned_cmp
}

#[cfg(any(feature = "pg13", feature = "pg14"))]
pub fn unsigned_abbrev_cmp() -> SortComparator {
    unsafe extern "C-unwind" fn unsigned_cmp(x: pg_sys::Datum, y: pg_sys::Datum, _: pg_sys::SortSupport) -> c_int {
        x.value().cmp(&y.value()) as c_int
    }
    unsigned_cmp
}

/// Asks for `bytes` of the main shared memory segment when preloaded. PostgreSQL 15 requires the
/// request from `shmem_request_hook`; before 15 it is made directly from `_PG_init`.
///
/// SAFETY: call once, from `_PG_init` while `shared_preload_libraries` is being processed.
pub unsafe fn request_shared_memory(bytes: usize) {
    #[cfg(any(feature = "pg13", feature = "pg14"))]
    pg_sys::RequestAddinShmemSpace(bytes);

    #[cfg(not(any(feature = "pg13", feature = "pg14")))]
    {
        static mut BYTES: usize = 0;
        static mut PREVIOUS_REQUEST_HOOK: pg_sys::shmem_request_hook_type = None;

        #[pgrx::pg_guard]
        unsafe extern "C-unwind" fn request() {
            if let Some(previous) = PREVIOUS_REQUEST_HOOK {
                previous();
            }
            pg_sys::RequestAddinShmemSpace(BYTES);
        }

        BYTES = bytes;
        PREVIOUS_REQUEST_HOOK = pg_sys::shmem_request_hook;
        pg_sys::shmem_request_hook = Some(request);
    }
}

/// Claims the `comb_ext.` settings prefix, so a misspelt `comb_ext.*` setting is reported instead of
/// silently kept as a placeholder. PostgreSQL 15 added `MarkGUCPrefixReserved` (which also refuses
/// later `SET`s of unknown names); before 15, `EmitWarningsOnPlaceholders` warns about those present.
///
/// SAFETY: call from `_PG_init`, after the settings are defined.
pub unsafe fn reserve_settings_prefix(prefix: &CStr) {
    #[cfg(any(feature = "pg13", feature = "pg14"))]
    pg_sys::EmitWarningsOnPlaceholders(prefix.as_ptr());
    #[cfg(not(any(feature = "pg13", feature = "pg14")))]
    pg_sys::MarkGUCPrefixReserved(prefix.as_ptr());
}

/// Soft input errors (`pg_input_is_valid`, `pg_input_error_info`), which PostgreSQL 16 added: when
/// the caller of an input function passed an `ErrorSaveContext`, the error is saved there with its
/// SQLSTATE, message and hint, and this returns true; the function then returns any value. Before
/// 16, and for every other caller, this returns false and the function raises the error as usual.
///
/// SAFETY: `fcinfo` must be the call's own FunctionCallInfo.
pub unsafe fn save_soft_error(
    fcinfo: pg_sys::FunctionCallInfo,
    code: pgrx::PgSqlErrorCode,
    message: &str,
    hint: Option<&str>,
) -> bool {
    #[cfg(any(feature = "pg13", feature = "pg14", feature = "pg15"))]
    {
        let _ = (fcinfo, code, message, hint);
        false
    }
    #[cfg(not(any(feature = "pg13", feature = "pg14", feature = "pg15")))]
    {
        use std::ffi::c_char;
        // elog.h's reporting functions (pgrx leaves them out of its bindings). With a soft-error
        // context they only record the report.
        unsafe extern "C-unwind" {
            fn errsave_start(context: *mut pg_sys::Node, domain: *const c_char) -> bool;
            fn errsave_finish(
                context: *mut pg_sys::Node,
                filename: *const c_char,
                lineno: c_int,
                funcname: *const c_char,
            );
            fn errcode(sqlerrcode: c_int) -> c_int;
            fn errmsg(fmt: *const c_char, ...) -> c_int;
            fn errhint(fmt: *const c_char, ...) -> c_int;
        }
        let context = if fcinfo.is_null() { std::ptr::null_mut() } else { (*fcinfo).context };
        if context.is_null() || (*context).type_ != pg_sys::NodeTag::T_ErrorSaveContext {
            return false;
        }
        // errsave_start marks the error; it returns true only when the caller wants its details.
        if errsave_start(context, c"comb_ext".as_ptr()) {
            let message = std::ffi::CString::new(message.replace('\0', "")).unwrap_or_default();
            errcode(code as c_int);
            errmsg(c"%s".as_ptr(), message.as_ptr());
            if let Some(hint) = hint {
                let hint = std::ffi::CString::new(hint.replace('\0', "")).unwrap_or_default();
                errhint(c"%s".as_ptr(), hint.as_ptr());
            }
            errsave_finish(context, c"compat.rs".as_ptr(), line!() as c_int, c"save_soft_error".as_ptr());
        }
        true
    }
}

/// The number of this backend's PGPROC in `ProcGlobal->allProcs` (PG17's `MyProcNumber`; before
/// it, `pgprocno`, which every version computes the same way).
///
/// SAFETY: call from a backend with a PGPROC.
pub unsafe fn my_proc_number() -> usize {
    pg_sys::MyProc.offset_from((*pg_sys::ProcGlobal).allProcs) as usize
}

/// The process id of PGPROC number `index` (0 for a prepared transaction's).
///
/// SAFETY: `index` below `ProcGlobal->allProcCount`.
pub unsafe fn proc_pid(index: usize) -> i32 {
    std::ptr::read_volatile(std::ptr::addr_of!((*(*pg_sys::ProcGlobal).allProcs.add(index)).pid))
}

/// The pg_read_all_stats role, whose members see every session in pg_stat_activity: named
/// DEFAULT_ROLE_READ_ALL_STATS in 13's headers, ROLE_PG_READ_ALL_STATS from 14; the OID is 3375 in all.
#[cfg(feature = "pg13")]
pub const READ_ALL_STATS: pg_sys::Oid = pg_sys::Oid::from_u32(pg_sys::DEFAULT_ROLE_READ_ALL_STATS);
#[cfg(not(feature = "pg13"))]
pub const READ_ALL_STATS: pg_sys::Oid = pg_sys::Oid::from_u32(pg_sys::ROLE_PG_READ_ALL_STATS);

/// The database and the role of PGPROC number `index` (a prepared transaction's process: its
/// own), each read without a lock as one word.
///
/// SAFETY: `index` below `ProcGlobal->allProcCount`.
pub unsafe fn proc_database_and_role(index: usize) -> (pg_sys::Oid, pg_sys::Oid) {
    let proc = (*pg_sys::ProcGlobal).allProcs.add(index);
    (
        std::ptr::read_volatile(std::ptr::addr_of!((*proc).databaseId)),
        std::ptr::read_volatile(std::ptr::addr_of!((*proc).roleId)),
    )
}

/// The top transaction id PGPROC number `index` runs (a prepared transaction's process: its own),
/// read without a lock as one word. In 13 it is in the PGXACT array beside the PGPROCs.
///
/// SAFETY: `index` below `ProcGlobal->allProcCount`.
pub unsafe fn proc_xid(index: usize) -> u32 {
    #[cfg(feature = "pg13")]
    let xid = std::ptr::addr_of!((*(*pg_sys::ProcGlobal).allPgXact.add(index)).xid);
    #[cfg(not(feature = "pg13"))]
    let xid = std::ptr::addr_of!((*(*pg_sys::ProcGlobal).allProcs.add(index)).xid);
    std::ptr::read_volatile(xid).into_inner()
}
