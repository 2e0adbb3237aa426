//! The high-water marks generators keep on disk, so that no value repeats across a restart even
//! when the clock was set back meanwhile. Like a timestamp oracle, a generator reserves a window
//! ahead: before it returns a value at time `t` at or past its mark, it moves the mark to
//! `t + WINDOW` and the caller writes it to disk. So the disk is written once per window of
//! generated time, and every value ever issued lies below the mark on disk. After a restart the
//! generator resumes from that mark (`Persisted::resume`).

/// How far ahead a mark is reserved: at most one write and fsync per second of generated time,
/// and at most a second by which a restart pushes a generator ahead of the clock.
pub const WINDOW_US: i64 = 1_000_000;

/// A generator state whose `record` must be on disk before the values it issued are returned.
pub trait Persisted {
    /// Its file's name, and the first word of the file's text.
    const NAME: &'static str;
    type Record: Copy + PartialEq + AsRef<[i64]> + for<'a> TryFrom<&'a [i64]>;
    fn record(&self) -> Self::Record;
    /// The state of a restarted server from the record last written before it stopped.
    fn resume(&mut self, record: Self::Record);
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
