//! One call's waits for the wall clock: latch naps a cancel or a shutdown interrupts, bounded in
//! total by `comb_ext.max_clock_wait`.

use crate::postgres::errors;
use crate::server::latch::nap;
use pgrx::GucSetting;
use std::ffi::c_long;

/// The longest a generator waits for the wall clock (milliseconds, `comb_ext.max_clock_wait`).
pub static MAX_CLOCK_WAIT_MS: GucSetting<i32> = GucSetting::<i32>::new(5_000);

/// The longest slice a wait sleeps before it reads the clock again: a step of the clock during
/// a wait is seen within this, and the generator decides again.
const SLICE_MS: i64 = 10;

/// One call's waits for the wall clock. [`ClockWait::sleep_until`] sleeps toward a target in short
/// latch waits, which a cancel, a statement timeout or a server shutdown interrupt, and returns as
/// soon as the clock reaches the target or moves backwards, so that the caller asks its generator
/// again (after a step back sno toggles its tick at once, and uid8 goes on ahead of the clock).
/// The time all of one call's waits take is bounded by `comb_ext.max_clock_wait`, measured on the
/// monotonic clock (the wall clock is the one in doubt): past it the call fails with 55000 rather
/// than block every insert until the clock catches up. Nothing is issued then.
pub struct ClockWait {
    function: &'static str,
    started: Option<std::time::Instant>,
    /// The largest step back seen during the waits (µs).
    stepped_back_us: i64,
    /// For a generator that waits only to keep bursts from running its values more than this far
    /// ahead of the clock (µs): what its 55000 error says instead.
    run_ahead_limit_us: Option<i64>,
}

impl ClockWait {
    pub const fn new(function: &'static str) -> Self {
        ClockWait { function, started: None, stepped_back_us: 0, run_ahead_limit_us: None }
    }

    /// Waits of a generator whose values run ahead of the clock, but by at most `limit_us`
    /// (µs) through bursts of calls: its waits are for the clock to catch up with those.
    pub const fn pacing(function: &'static str, limit_us: i64) -> Self {
        ClockWait { function, started: None, stepped_back_us: 0, run_ahead_limit_us: Some(limit_us) }
    }

    /// Sleeps until the wall clock reaches `unix_us` (what the generator issued last, or the mark
    /// it reserved before a restart, is ahead of it) or steps back behind `read_us`, the reading
    /// the generator decided on (so a step between that reading and this call counts too),
    /// whichever comes first.
    pub fn sleep_until(&mut self, unix_us: i64, read_us: i64) {
        let started = *self.started.get_or_insert_with(std::time::Instant::now);
        let mut last = read_us;
        loop {
            pgrx::check_for_interrupts!();
            // The generators' clock: the wall clock, unless a watermark put it ahead (src/server/watermark.rs).
            let now = crate::server::watermark::clock_us();
            if now < last {
                self.stepped_back_us = self.stepped_back_us.max(last - now);
                return;
            }
            last = now;
            let remaining = unix_us - now;
            if remaining <= 0 {
                return;
            }
            let bound_ms = MAX_CLOCK_WAIT_MS.get().max(0) as i64;
            let waited_ms = started.elapsed().as_millis() as i64;
            if waited_ms >= bound_ms {
                self.fail(remaining, waited_ms, bound_ms);
            }
            nap(((remaining + 999) / 1000).min(SLICE_MS).min(bound_ms - waited_ms).max(1) as c_long);
        }
    }

    /// The 55000 error: how far ahead of the clock the value waited for is, and that the clock
    /// was set back only if a step back was seen (after a restart, the mark reserved before it is
    /// up to two seconds ahead of the values issued, and the clock may not have moved at all).
    fn fail(&self, ahead_us: i64, waited_ms: i64, bound_ms: i64) -> ! {
        if let Some(limit_us) = self.run_ahead_limit_us {
            errors::raise(
                pgrx::PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                format!(
                    "{}: bursts of calls have run its values {:.3} s ahead of the system clock, as far as they may; waited {waited_ms} ms for the clock to catch up, the limit (comb_ext.max_clock_wait) is {bound_ms} ms",
                    self.function,
                    limit_us as f64 / 1e6
                ),
                Some("Calls faster than one a microsecond run the values ahead of the clock, and past the limit each call waits for the clock. Many sessions at the limit at once can keep one waiting: make fewer calls at once, or raise comb_ext.max_clock_wait."),
            );
        }
        let seen = if self.stepped_back_us > 0 {
            format!("; the clock was seen to step back {:.3} s during the wait", self.stepped_back_us as f64 / 1e6)
        } else {
            String::new()
        };
        errors::raise(
            pgrx::PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            format!(
                "{}: the last value issued (or the mark reserved before a restart) is {:.3} s ahead of the system clock{seen}; waited {waited_ms} ms for the clock to reach it, the limit (comb_ext.max_clock_wait) is {bound_ms} ms",
                self.function,
                ahead_us as f64 / 1e6
            ),
            Some("Values must not repeat, so generation waits until the clock passes the last value issued. If the clock is right, wait and retry (a mark is at most two seconds ahead); if it was set back, correct it, or raise comb_ext.max_clock_wait."),
        )
    }
}
