//! Time bases. PostgreSQL counts `timestamptz` in microseconds from 2000-01-01 UTC; every clock in
//! this crate counts from the Unix epoch, so conversion happens once, at the SQL boundary.

/// 2000-01-01 00:00:00 UTC in unix µs.
pub const PG_EPOCH_UNIX_US: i64 = 946_684_800_000_000;
pub const US_PER_MS: i64 = 1_000;
pub const US_PER_DAY: i64 = 86_400_000_000;

/// Unix µs from a finite PostgreSQL `timestamptz`; `None` for ±infinity (stored as i64::MIN/MAX).
pub fn unix_us_from_pg(pg_us: i64) -> Option<i64> {
    if pg_us == i64::MIN || pg_us == i64::MAX {
        return None;
    }
    pg_us.checked_add(PG_EPOCH_UNIX_US)
}

/// PostgreSQL `timestamptz` µs from unix µs. Every clock in this crate decodes to years 1..10890,
/// far inside PostgreSQL's range, so this cannot overflow for decoded values.
pub fn pg_from_unix_us(unix_us: i64) -> i64 {
    unix_us - PG_EPOCH_UNIX_US
}

/// The wall clock (not the transaction start), in unix µs.
pub fn wall_clock_unix_us() -> i64 {
    // clock_gettime itself, as `monotonic_us`: SystemTime's checked arithmetic cost about a tenth
    // of a uid8_new call. Before 1970 tv_sec is negative (tv_nsec never is), so range checks reject it.
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid timespec to write; CLOCK_REALTIME exists on every supported system.
    unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut now) };
    now.tv_sec.saturating_mul(1_000_000).saturating_add(now.tv_nsec / 1_000)
}

/// CLOCK_MONOTONIC in µs: never stepped, and on Linux one clock for every process of the machine,
/// so readings of different backends compare.
pub fn monotonic_us() -> i64 {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid timespec to write; CLOCK_MONOTONIC exists on every supported system.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    now.tv_sec * 1_000_000 + now.tv_nsec / 1_000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pg_epoch_round_trip() {
        assert_eq!(unix_us_from_pg(0), Some(PG_EPOCH_UNIX_US));
        assert_eq!(pg_from_unix_us(PG_EPOCH_UNIX_US), 0);
        assert_eq!(unix_us_from_pg(i64::MAX), None);
        assert_eq!(unix_us_from_pg(i64::MIN), None);
    }

    #[test]
    fn wall_clock_is_after_2020() {
        assert!(wall_clock_unix_us() > 1_577_836_800_000_000);
    }

    #[test]
    fn wall_clock_reads_as_system_time_does() {
        let system = || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_micros() as i64;
        let (before, ours, after) = (system(), wall_clock_unix_us(), system());
        assert!((before..=after).contains(&ours), "{before} {ours} {after}");
    }

    #[test]
    fn monotonic_clock_moves_with_a_sleep() {
        let before = monotonic_us();
        std::thread::sleep(std::time::Duration::from_millis(20));
        let slept = monotonic_us() - before;
        assert!((20_000..2_000_000).contains(&slept), "{slept}");
    }
}
