//! The high-water marks generators keep on disk, so that no value repeats across a restart even
//! when the clock was set back meanwhile. Like a timestamp oracle, a generator reserves a window
//! ahead: before it returns a value at time `t` at or past its mark, it moves the mark to
//! `t + WINDOW` and the caller writes it to disk. So the disk is written once per window of
//! generated time, and every value ever issued lies below the mark on disk. After a restart the
//! generator resumes from that mark (`Persisted::resume`).

/// How far ahead a mark is reserved: at most one write and fsync per second of generated time,
/// and at most a second by which a restart pushes a generator ahead of the clock.
pub const WINDOW_US: i64 = 1_000_000;

/// How far past the clock a mark read at a server start may lie. A mark is at most a window past
/// the values issued before it was written, so one further ahead was written by a clock that ran
/// far ahead (and has come back), or the file is damaged. Resuming from it would run muid and uid8
/// far into the future and make sno wait on every call, so it is refused until an operator
/// decides (README: "Marks on disk"). A day leaves room for any clock step back we test (an hour).
pub const MAX_AHEAD_US: i64 = super::time::US_PER_DAY;

/// A generator state whose `record` must be on disk before the values it issued are returned.
pub trait Persisted {
    /// Its file's name, and the first word of the file's text.
    const NAME: &'static str;
    /// The first value is the reservation: a record whose reservation is 0 reserved nothing, and
    /// is not written.
    type Record: Copy + PartialEq + AsRef<[i64]> + for<'a> TryFrom<&'a [i64]>;
    fn record(&self) -> Self::Record;
    /// The state of a restarted server from the record last written before it stopped.
    fn resume(&mut self, record: Self::Record);
    /// Why `record` cannot be this family's mark with the wall clock at `now_us` (unix µs): a
    /// value outside what the format can hold, or more than [`MAX_AHEAD_US`] past the clock.
    fn check(record: &Self::Record, now_us: i64) -> Result<(), String>;
}

/// Whether a record reserved anything (see [`Persisted::Record`]).
pub fn reserves_anything(record: &[i64]) -> bool {
    record.first().is_some_and(|&reservation| reservation > 0)
}

/// `Ok` if `value` (the record's field `what`) is within `min..=max`, else the message saying so;
/// `unit` says what the numbers count.
pub fn check_range(what: &str, value: i64, min: i64, max: i64, unit: &str) -> Result<(), String> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(format!("its {what} {value} is outside {min} to {max} ({unit}; at most a day past the clock)"))
    }
}

/// The last `unit_us`-long unit since `epoch_us` (unix µs) that a mark may reach with the clock at
/// `now_us`, at most `format_max`.
pub fn ahead_limit(now_us: i64, epoch_us: i64, unit_us: i64, format_max: i64) -> i64 {
    (now_us.saturating_add(MAX_AHEAD_US).saturating_sub(epoch_us).div_euclid(unit_us)).clamp(0, format_max)
}

/// The mark to reserve when a value at `time` is issued at or past `reserved`, else `reserved`.
/// `window` is [`WINDOW_US`] in the generator's own unit.
pub fn reserve(reserved: i64, time: i64, window: i64) -> i64 {
    if time < reserved {
        reserved
    } else {
        time.saturating_add(window)
    }
}

const VERSION: &str = "high-water v1";

/// The file's text: `NAME high-water v1 VALUE ...` and a newline, readable by an operator.
pub fn to_text<P: Persisted>(record: &P::Record) -> String {
    let values: Vec<String> = record.as_ref().iter().map(i64::to_string).collect();
    format!("{} {VERSION} {}\n", P::NAME, values.join(" "))
}

/// The record in a file's text, or None if it is not exactly what `to_text` writes.
pub fn from_text<P: Persisted>(text: &str) -> Option<P::Record> {
    let values =
        text.strip_suffix('\n')?.strip_prefix(P::NAME)?.strip_prefix(' ')?.strip_prefix(VERSION)?.strip_prefix(' ')?;
    // Canonical integers only: what to_text wrote, nothing an editor mangled.
    let values: Vec<i64> =
        values.split(' ').map(|v| v.parse().ok().filter(|n: &i64| n.to_string() == v)).collect::<Option<_>>()?;
    P::Record::try_from(values.as_slice()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Default)]
    struct Two([i64; 2]);
    impl Persisted for Two {
        const NAME: &'static str = "two";
        type Record = [i64; 2];
        fn record(&self) -> [i64; 2] {
            self.0
        }
        fn resume(&mut self, record: [i64; 2]) {
            self.0 = record;
        }
        fn check(record: &[i64; 2], now_us: i64) -> Result<(), String> {
            check_range("reservation", record[0], 1, ahead_limit(now_us, 0, 1, i64::MAX / 2), "µs")
        }
    }

    #[test]
    fn marks_past_the_format_or_a_day_past_the_clock_are_refused() {
        let now = 10_000;
        assert_eq!(Two::check(&[1, 0], now), Ok(()));
        assert_eq!(Two::check(&[now + MAX_AHEAD_US, 0], now), Ok(()));
        for bad in [0, -1, i64::MIN, now + MAX_AHEAD_US + 1, i64::MAX] {
            let error = Two::check(&[bad, 0], now).unwrap_err();
            assert!(error.contains(&bad.to_string()) && error.contains(&(now + MAX_AHEAD_US).to_string()), "{error}");
        }
        // The format's end bounds the limit, and a clock at its own extremes cannot overflow it.
        assert_eq!(ahead_limit(i64::MAX, 0, 1, 500), 500);
        assert_eq!(ahead_limit(i64::MIN, 0, 1, 500), 0);
        assert_eq!(ahead_limit(7_000 + MAX_AHEAD_US, 1_000, 4_000, i64::MAX), (6_000 + 2 * MAX_AHEAD_US) / 4_000);
        assert!(reserves_anything(&[1, -5]) && !reserves_anything(&[0, 9]) && !reserves_anything(&[]));
    }

    #[test]
    fn text_round_trips_and_rejects_anything_else() {
        for record in [[0, 0], [-1, 7], [i64::MIN, i64::MAX]] {
            let text = to_text::<Two>(&record);
            assert_eq!(from_text::<Two>(&text), Some(record), "{text}");
        }
        assert_eq!(to_text::<Two>(&[5, -6]), "two high-water v1 5 -6\n");
        for bad in [
            "",
            "two high-water v1 5 -6",
            "two high-water v1 5\n",
            "two high-water v1 5 6 7\n",
            "two high-water v2 5 6\n",
            "one high-water v1 5 6\n",
            "two high-water v1 5 x\n",
            "two high-water v1 5  6\n",
            "two high-water v1 5 6\n\n",
            "two high-water v1 +5 6\n",
            "two high-water v1 05 6\n",
            "two high-water v15 6\n",
        ] {
            assert_eq!(from_text::<Two>(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_mark_moves_only_when_a_value_reaches_it() {
        assert_eq!(reserve(100, 99, 10), 100);
        assert_eq!(reserve(100, 100, 10), 110);
        assert_eq!(reserve(100, 250, 10), 260);
        assert_eq!(reserve(i64::MIN, 0, 10), 10);
        assert_eq!(reserve(0, i64::MAX, 10), i64::MAX);
    }
}
