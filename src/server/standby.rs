//! Generators whose values rest on the server's identity refuse on a server in recovery.

use crate::postgres::errors;
use pgrx::pg_sys;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once this process has seen recovery over: it never starts again in a process's life (a
/// server goes back into recovery only through a restart, which ends every backend), and
/// PostgreSQL's own RecoveryInProgress keeps the same fact in a local flag. The call itself, through
/// pgrx's guard, cost more than a uid8_new call's own work.
static RECOVERY_ENDED: AtomicBool = AtomicBool::new(false);

/// Refuses to generate on a server in recovery (a standby, or a server replaying WAL): it has its
/// primary's system identifier and copies of its configuration files, so the identity `function`
/// derives (or is given) is the primary's, and its values could repeat the primary's. 25006, the
/// SQLSTATE of writes on a standby.
pub fn refuse_in_recovery(function: &str, identity: &str) {
    if RECOVERY_ENDED.load(Ordering::Relaxed) {
        return;
    }
    // SAFETY: reads shared recovery state (a local flag once recovery has ended).
    if unsafe { pg_sys::RecoveryInProgress() } {
        errors::raise(
            pgrx::PgSqlErrorCode::ERRCODE_READ_ONLY_SQL_TRANSACTION,
            format!("{function}: cannot generate on a server in recovery (a standby): its {identity} is its primary's, so it could return the primary's values"),
            Some("Generate these ids on the primary. comb_uuid() works on a standby: its uniqueness does not depend on the server's identity."),
        );
    }
    RECOVERY_ENDED.store(true, Ordering::Relaxed);
}
