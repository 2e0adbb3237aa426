//! The high-water marks generators keep on disk, so that no value repeats across a restart even
//! when the clock was set back meanwhile. Like a timestamp oracle, a generator reserves ahead:
//! a value is returned only once a mark on disk covers it ([`covers`]), and every value ever
//! issued lies below the mark on disk. After a restart the generator resumes from that mark
//! (`Persisted::resume`).
//!
//! The mark is written ahead, off the path of the values: when less than a window is left
//! ([`due`]), one writer puts a mark two windows past where the generator stands ([`ahead`]) while
//! values go on below the mark already on disk. So the disk is written about once per window of
//! generated time, and a write that stalls holds values back only once the window left runs out.

/// The step of the marks: about one write and fsync per second of generated time, a second of
/// generation in reserve while a write is under way, and at most two seconds by which a restart
/// pushes a generator ahead of the clock.
pub const WINDOW_US: i64 = 1_000_000;

/// How far past the clock a mark read at a server start may lie. A mark is at most two windows
/// past the values issued before it was written, so one further ahead was written by a clock that ran
/// far ahead (and has come back), or the file is damaged. Resuming from it would run muid and uid8
/// far into the future and make sno wait on every call, so it is refused until an operator
/// decides (docs/guarantees.md: "Marks on disk"). A day leaves room for any clock step back we test (an hour).
pub const MAX_AHEAD_US: i64 = super::time::US_PER_DAY;

/// Whether a record is set, and which, laid out as every library from 0.4.0 on shares it in a
/// generator's shared struct: one tag byte (0 none, 1 some), padding to the record's 8-byte
/// alignment, the record. Those libraries declared it `Option<[i64; N]>`, whose layout rustc does
/// not promise; this type writes that layout down (`written_is_the_option_layout_older_libraries_share`
/// checks it against the compiler's), and reads any tag but 0 as set instead of trusting it.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Written<R: Copy> {
    tag: u8,
    /// What rustc leaves between the tag and an 8-byte aligned record, written as zero here.
    padding: [u8; 7],
    record: R,
}

impl<R: Copy> Written<R> {
    /// No record. `R` is a record of plain integers (`Persisted::Record`), valid as zero bytes.
    pub const fn none() -> Self {
        // SAFETY: the records are arrays of i64, for which all-zero bytes are a value.
        Written { tag: 0, padding: [0; 7], record: unsafe { std::mem::zeroed() } }
    }
    pub const fn some(record: R) -> Self {
        Written { tag: 1, padding: [0; 7], record }
    }
    pub fn get(&self) -> Option<R> {
        (self.tag != 0).then_some(self.record)
    }
}

/// A generator state whose `record` must be covered by a mark on disk before the values it issued
/// are returned.
pub trait Persisted {
    /// The family: the first word of its mark's text, and the name of its file.
    const NAME: &'static str;
    /// [`WINDOW_US`] in the unit of the reservation.
    const WINDOW: i64;
    /// The first value is the reservation: a record whose reservation is 0 reserved nothing, and
    /// is not written. At most [`RECORD_MAX`] values.
    type Record: Copy + PartialEq + AsRef<[i64]> + for<'a> TryFrom<&'a [i64]>;
    fn record(&self) -> Self::Record;
    /// A record that covers both `a` and `b`: a restart from it repeats no value issued under
    /// either. The later one when they are ordered, as records of one generator are.
    fn merge(a: &Self::Record, b: &Self::Record) -> Self::Record {
        if a.as_ref()[0] >= b.as_ref()[0] {
            *a
        } else {
            *b
        }
    }
    /// Where the state stands, in the unit of the reservation: the last value it issued, or the
    /// clock's reading where it does not keep that.
    fn position(&self) -> i64;
    /// Raises the reservation to `to`: a mark on disk that reserves up to it covers the state.
    fn raise_reservation(&mut self, to: i64);
    /// A reservation as unix µs (saturating), to show it next to the clock.
    fn reservation_unix_us(reservation: i64) -> i64;
    /// The wall clock `now_us` (unix µs) in the unit of the reservation.
    fn clock(now_us: i64) -> i64;
    /// Whether the state's position can run ahead of the clock (muid's bursts, the floor after a
    /// restart). Where it does not (sno, uid8: their position is the clock's unit, or the highest
    /// before a step back), [`due`] and [`next_mark`] take the position for the clock, as 0.5.0
    /// did, and `due` reads none.
    const RUNS_AHEAD: bool = true;
    /// The state of a restarted server from the record last written before it stopped.
    fn resume(&mut self, record: Self::Record);
    /// Why `record` cannot be this family's mark with the wall clock at `now_us` (unix µs): a
    /// value outside what the format can hold, or more than [`MAX_AHEAD_US`] past the clock.
    fn check(record: &Self::Record, now_us: i64) -> Result<(), String>;
}

/// The most values a record holds (sno's three).
pub const RECORD_MAX: usize = 4;

/// Whether every value issued under `issued` is covered by `mark`: a restart from `mark` repeats none.
pub fn covers<P: Persisted>(mark: &P::Record, issued: &P::Record) -> bool {
    P::merge(mark, issued) == *mark
}

/// Whether a state at `record`, standing at `position`, may take the reservation of `mark` as its
/// own: `mark` covers it and differs only in the reservation.
pub fn may_raise<P: Persisted>(mark: &P::Record, record: &P::Record) -> bool {
    covers::<P>(mark, record) && mark.as_ref()[1..] == record.as_ref()[1..]
}

/// How far a reservation for a state at `position` reaches with the clock at `now` (one unit): a
/// `window` past the position, as long as the position is at most that far ahead of the clock.
/// Past that (a state resumed from the mark a restart left, which lies up to two windows ahead,
/// or muid's bursts) it reaches no further than a `window` past the clock, and at least a
/// sixteenth of a window past the position: a state resumed at its mark does not reserve whole
/// windows past it at each quick restart, so restarts do not push the generators ever further
/// ahead of the clock (0.5.0 crept two seconds a restart); the cost is a write per sixteenth of
/// a window while a state stays that far ahead.
pub fn reach(position: i64, now: i64, window: i64) -> i64 {
    let least = position.saturating_add((window / 16).max(1));
    now.saturating_add(window).clamp(least, position.saturating_add(window).max(least))
}

/// Whether a mark should be written ahead now, for a state standing at `position` that `mark`
/// covers, with the clock at `now`: less than a window is left between them (less than the
/// shorter reach of a state that far ahead of the clock, [`reach`]).
/// The clock is read only when a window is left no more (never on the common path).
pub fn due<P: Persisted>(mark: &P::Record, position: i64, now: impl FnOnce() -> i64) -> bool {
    position.saturating_add(P::WINDOW) >= mark.as_ref()[0]
        && (!P::RUNS_AHEAD || reach(position, now(), P::WINDOW) >= mark.as_ref()[0])
}

/// The mark to write for a state at `record` standing at `position`, with `on_disk` the mark
/// there now: two windows past where it stands (one to go on in while the next write is under
/// way), never below its reservation, and never behind the mark on disk (the clock a position is
/// read from can step back).
pub fn next_mark<P: Persisted>(on_disk: Option<&P::Record>, record: &P::Record, position: i64, now: i64) -> P::Record {
    let mut values = [0; RECORD_MAX];
    let values = &mut values[..record.as_ref().len()];
    values.copy_from_slice(record.as_ref());
    let now = if P::RUNS_AHEAD { now } else { position };
    values[0] = values[0].max(reach(position, now, 2 * P::WINDOW));
    let ahead = P::Record::try_from(values).unwrap_or(*record);
    on_disk.map_or(ahead, |mark| P::merge(mark, &ahead))
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

/// The mark to reserve when a value at `time` is issued at or past `reserved` with the clock at
/// `now`, else `reserved`. `window` is [`WINDOW_US`] in the generator's own unit; see [`reach`].
pub fn reserve(reserved: i64, time: i64, now: i64, window: i64) -> i64 {
    if time < reserved {
        reserved
    } else {
        reach(time, now, window)
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
        const WINDOW: i64 = 10;
        type Record = [i64; 2];
        fn record(&self) -> [i64; 2] {
            self.0
        }
        fn position(&self) -> i64 {
            self.0[0]
        }
        fn raise_reservation(&mut self, to: i64) {
            self.0[0] = self.0[0].max(to);
        }
        fn reservation_unix_us(reservation: i64) -> i64 {
            reservation
        }
        fn clock(now_us: i64) -> i64 {
            now_us
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
    fn a_mark_is_written_two_windows_ahead_once_less_than_a_window_is_left() {
        // Covered: the mark's reservation at or past the state's.
        assert!(covers::<Two>(&[100, 0], &[100, 0]) && covers::<Two>(&[101, 0], &[100, 0]));
        assert!(!covers::<Two>(&[99, 0], &[100, 0]));
        // Due from a window before the mark on.
        assert!(!due::<Two>(&[100, 0], 89, || 89));
        assert!(due::<Two>(&[100, 0], 90, || 90));
        // Two windows past where the state stands, never below its own reservation nor the mark
        // on disk.
        assert_eq!(next_mark::<Two>(None, &[100, 7], 90, 90), [110, 7]);
        assert_eq!(next_mark::<Two>(None, &[150, 7], 90, 90), [150, 7]);
        assert_eq!(next_mark::<Two>(None, &[1, 7], i64::MAX, i64::MAX), [i64::MAX, 7]);
        assert_eq!(next_mark::<Two>(Some(&[200, 7]), &[100, 7], 90, 90), [200, 7]);
        // A state takes a mark's reservation only when nothing else differs.
        assert!(may_raise::<Two>(&[110, 7], &[100, 7]));
        assert!(!may_raise::<Two>(&[110, 8], &[100, 7]) && !may_raise::<Two>(&[90, 7], &[100, 7]));
        // In steady use, one write per window keeps a window in reserve: the state reaches the
        // mark written at the last due point no earlier than a window later.
        let mut mark = [20, 0];
        let mut writes = 0;
        for position in 0..1_000 {
            let record = [position + 1, 0];
            assert!(covers::<Two>(&mark, &record), "position {position}: the reserve ran out");
            if due::<Two>(&mark, position, || position) {
                let next = next_mark::<Two>(Some(&mark), &record, position, position);
                assert!(next[0] - position >= 2 * Two::WINDOW);
                mark = next;
                writes += 1;
            }
        }
        assert!((90..=110).contains(&writes), "{writes} writes for 100 windows");
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
        assert_eq!(reserve(100, 99, 99, 10), 100);
        assert_eq!(reserve(100, 100, 100, 10), 110);
        assert_eq!(reserve(100, 250, 250, 10), 260);
        assert_eq!(reserve(i64::MIN, 0, 0, 10), 10);
        assert_eq!(reserve(0, i64::MAX, i64::MAX, 10), i64::MAX);
    }

    /// The bytes a reader of the other kind looks at: the tag, and the record after the 8-byte
    /// alignment (an `Option`'s padding is not initialised, so it is not compared).
    fn meaningful_bytes<T>(value: &T) -> Vec<u8> {
        // SAFETY: reads the value's own bytes, skipping the padding.
        let all = unsafe { std::slice::from_raw_parts(value as *const T as *const u8, std::mem::size_of::<T>()) };
        [&all[..1], &all[8..]].concat()
    }

    /// The shared structs of 0.4.0 and 0.5.0 hold `Option<[i64; N]>` (N = 1, 2, 3); a library of
    /// this version attaches to the same bytes through `Written`, so both must agree byte for byte.
    #[test]
    fn written_is_the_option_layout_older_libraries_share() {
        fn check<const N: usize>() {
            assert_eq!(std::mem::size_of::<Written<[i64; N]>>(), std::mem::size_of::<Option<[i64; N]>>());
            assert_eq!(std::mem::align_of::<Written<[i64; N]>>(), std::mem::align_of::<Option<[i64; N]>>());
            let record: [i64; N] = std::array::from_fn(|i| 0x0102_0304_0506_0708 * (i as i64 + 1));
            assert_eq!(meaningful_bytes(&Written::some(record)), meaningful_bytes(&Some(record)));
            // SAFETY: all-zero bytes are a valid Option<[i64; N]> (None) and a valid Written.
            let (zeroed_option, zeroed_written): (Option<[i64; N]>, Written<[i64; N]>) =
                unsafe { (std::mem::zeroed(), std::mem::zeroed()) };
            assert_eq!(zeroed_option, None);
            assert_eq!(zeroed_written.get(), None);
            assert_eq!(meaningful_bytes(&Written::<[i64; N]>::none())[..1], meaningful_bytes(&None::<[i64; N]>)[..1]);
            // What a library of either kind wrote, read by the other.
            // SAFETY: same size (asserted above), and each kind's bytes are a value of the other.
            let as_option: Option<[i64; N]> = unsafe { std::mem::transmute_copy(&Written::some(record)) };
            assert_eq!(as_option, Some(record));
            let as_written: Written<[i64; N]> = unsafe { std::mem::transmute_copy(&Some(record)) };
            assert_eq!(as_written.get(), Some(record));
        }
        check::<1>();
        check::<2>();
        check::<3>();
    }

    /// Quick restarts: each resumes the state at the mark on disk, issues a value there and writes
    /// the next mark, with the clock `gap` later each time. Restarts an eighth of a window apart or
    /// more (125 ms: a PostgreSQL restart takes longer) leave the mark within two windows and an
    /// eighth of the clock however many there are; quicker ones push it at most an eighth of a
    /// window less the gap each. 0.5.0 added two windows a restart: 200 s after 100 restarts.
    #[test]
    fn quick_restarts_do_not_creep_ahead_of_the_clock() {
        const W: i64 = WINDOW_US;
        for gap in [0, 1_000, 100_000, W / 8, 300_000, 1_500_000] {
            let mut now = 1_000_000_000;
            let mut mark = now + 2 * W;
            for restart in 1..=100 {
                now += gap;
                let position = mark; // resumed at the mark: the next value is there
                let reserved = reserve(mark, position, now, W);
                assert!(reserved > position, "the value at {position} is covered");
                mark = next_mark::<Two>(Some(&[mark, 0]), &[reserved, 0], position, now)[0];
                assert!(mark > position);
                let bound = 2 * W + W / 8 + (W / 8 - gap).max(0) * restart;
                assert!(mark - now <= bound, "gap {gap}, restart {restart}: mark {} µs past the clock", mark - now);
            }
        }
        // At or behind the clock: a window past the value, and two past for a write, as always.
        assert_eq!(reach(500, 500, W), 500 + W);
        assert_eq!(reach(500, 900, W), 500 + W);
        assert_eq!(next_mark::<Two>(None, &[0, 0], 500, 500)[0], 500 + 2 * Two::WINDOW);
        // Far ahead of the clock: a sixteenth of a window past the position, never less.
        assert_eq!(reach(10 * W, 0, W), 10 * W + W / 16);
        assert_eq!(reach(i64::MAX - 1, 0, W), i64::MAX);
    }
}
