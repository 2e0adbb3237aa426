//! Watermarks for readers that follow ids in order (docs/reading-in-order.md: "Reading rows in id order").
//!
//! A watermark W of a family is a time such that every id the family's generators made, or will
//! make, at a time below W belongs to a transaction that has ended (so a read started after W was
//! taken sees all of those that committed). It rests on three things, all in µs of the wall clock:
//!
//! - **A floor.** Taking a watermark first raises the floor to the clock, and every generator
//!   reads the clock through it ([`GeneratorClock`]). So ids made after a watermark are never below
//!   it, even when the clock steps back: behind the floor, the generators' clock goes on from it at
//!   half the speed of time until the wall clock catches up (so watermarks go on advancing, and the
//!   lead a step back leaves shrinks away).
//! - **Holdings.** A transaction, before it returns its first id of a family, publishes the time
//!   it made it with (and a lower one if the clock stepped back since) in a slot of its own, and
//!   clears it when it ends. A watermark is at most every published holding.
//! - **An order.** The holding is published, then the floor read; the watermark raises the floor,
//!   then reads the holdings (all sequentially consistent). So for any id and any watermark, either
//!   the watermark saw the holding (W <= holding <= the id's time), or the id's transaction saw the
//!   raised floor and made its id at or past it (a holding below the floor it then reads is given
//!   up, and the id made again).
//!
//! The floor is kept on disk as a high-water mark (`rules::high_water`), so it survives restarts.

use super::high_water::{self, Persisted};

/// The families with watermarks. Their order is the order of the holdings in shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Comb = 0,
    Sno = 1,
    Muid = 2,
    Uid8 = 3,
}

impl Family {
    pub const ALL: [Family; 4] = [Family::Comb, Family::Sno, Family::Muid, Family::Uid8];

    pub const fn name(self) -> &'static str {
        match self {
            Family::Comb => "comb",
            Family::Sno => "sno",
            Family::Muid => "muid",
            Family::Uid8 => "uid8",
        }
    }
}

/// A slot holds nothing.
pub const NONE: i64 = i64::MAX;

/// The clock the generators and watermarks read: the wall clock, never below the floor. The floor
/// is the last watermark's clock, and while the wall clock is behind it (it stepped back), the
/// floor advances at half the speed of the monotonic clock, from `anchor` on, and is the clock.
/// Plain data for shared memory; `read` and `raise` run under its lock, and the floor is read
/// atomically without it (the common case: the wall clock at or past it).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GeneratorClock {
    pub floor: i64,
    /// The monotonic clock (µs) up to which the floor has advanced.
    pub anchor: i64,
}

impl GeneratorClock {
    /// The clock with the wall clock at `wall` and the monotonic clock at `monotonic` (µs), when
    /// the wall clock is behind the floor: the floor moves on by half the monotonic time since
    /// the anchor (the remainder stays for the next reading, so frequent readings lose nothing).
    pub fn read(&mut self, wall: i64, monotonic: i64) -> i64 {
        if wall >= self.floor {
            return wall;
        }
        let advance = monotonic.saturating_sub(self.anchor).max(0) / 2;
        self.floor = self.floor.saturating_add(advance);
        self.anchor = self.anchor.saturating_add(2 * advance);
        self.floor.max(wall)
    }

    /// A watermark taken at `to` (a reading of this clock): the floor rises to it.
    pub fn raise(&mut self, to: i64, monotonic: i64) {
        if to > self.floor {
            self.floor = to;
            self.anchor = monotonic;
        }
    }
}

/// The watermark: the floor (the clock, or later), or the earliest holding if that is earlier.
pub fn lowest(floor: i64, holdings: impl IntoIterator<Item = i64>) -> i64 {
    holdings.into_iter().fold(floor, i64::min)
}

/// What a backend has published for its current transaction, one holding per family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Held([i64; 4]);

impl Default for Held {
    fn default() -> Self {
        Self::new()
    }
}

impl Held {
    pub const fn new() -> Self {
        Held([NONE; 4])
    }

    /// Whether an id made with the clock at `at` must be published first: the transaction has
    /// published no holding of `family` yet, or only later ones (the clock stepped back).
    #[inline]
    pub fn must_publish(&self, family: Family, at: i64) -> bool {
        at < self.0[family as usize]
    }

    pub fn publish(&mut self, family: Family, at: i64) {
        self.0[family as usize] = at;
    }

    /// The families with a holding, and what each holds.
    pub fn holdings(&self) -> impl Iterator<Item = (Family, i64)> + '_ {
        Family::ALL.into_iter().map(|f| (f, self.0[f as usize])).filter(|&(_, at)| at != NONE)
    }
}

/// The floor kept on disk: the latest time any watermark was taken at (or the clock then), and
/// the mark that bounds it. After a restart the floor is the mark: at most two seconds past the
/// last watermark, so the generators may stamp ids up to that far ahead of the clock for that long.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Floor {
    floor: i64,
    reserved: i64,
}

impl Floor {
    pub const fn new() -> Self {
        Floor { floor: 0, reserved: 0 }
    }

    /// The floor after a watermark taken with the generators' clock at `now` and the wall clock at
    /// `wall` (the reservation reaches from the wall clock: the generators' clock reads the floor
    /// itself while it is ahead, as it is after a restart resumed it at its mark).
    pub fn raise(&mut self, now: i64, wall: i64) -> i64 {
        self.floor = self.floor.max(now);
        self.reserved = high_water::reserve(self.reserved, self.floor, wall, high_water::WINDOW_US);
        self.floor
    }

    pub fn floor(&self) -> i64 {
        self.floor
    }
}

impl Persisted for Floor {
    const NAME: &'static str = "watermark";
    const WINDOW: i64 = high_water::WINDOW_US;
    type Record = [i64; 1];

    fn record(&self) -> [i64; 1] {
        [self.reserved]
    }

    fn position(&self) -> i64 {
        self.floor
    }

    fn clock(now_us: i64) -> i64 {
        now_us
    }

    fn raise_reservation(&mut self, to: i64) {
        self.reserved = self.reserved.max(to);
    }

    fn reservation_unix_us(reservation: i64) -> i64 {
        reservation
    }

    fn check(&[reserved]: &[i64; 1], now_us: i64) -> Result<(), String> {
        let limit = high_water::ahead_limit(now_us, 0, 1, i64::MAX / 2);
        high_water::check_range("reservation", reserved, 1, limit, "µs since 1970")
    }

    /// Every watermark taken lay below the mark: the floor starts there.
    fn resume(&mut self, [reserved]: [i64; 1]) {
        self.floor = self.floor.max(reserved);
        self.reserved = self.reserved.max(reserved);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behind_the_floor_the_clock_goes_on_from_it_at_half_speed_until_the_wall_clock_catches_up() {
        let hour = 3_600_000_000;
        // A watermark at 10,000 s (monotonic 50 s), then the wall clock stepped back an hour.
        let mut clock = GeneratorClock { floor: 0, anchor: 0 };
        clock.raise(10_000_000_000, 50_000_000);
        assert_eq!(clock.read(10_000_000_001, 50_000_001), 10_000_000_001, "the wall clock, ahead of the floor");
        let (floor, anchor) = (clock.floor, clock.anchor);
        // Readings every 3 µs, then every 7 s, for three hours: never back, half speed while behind,
        // and the wall clock's own from the moment it catches up (after two hours).
        let mut last = 0;
        let mut elapsed = 0;
        while elapsed < 3 * hour {
            elapsed += if elapsed < 1_000 { 3 } else { 7_000_000 };
            let wall = floor - hour + elapsed;
            let reading = clock.read(wall, anchor + elapsed);
            assert!(reading >= last && reading >= wall, "back at {elapsed}: {reading} after {last}");
            // Half speed from the floor; the wall clock's own once it has passed the last reading
            // (which can be up to half the time between readings before the exact crossing).
            let half_speed = floor + elapsed / 2;
            if elapsed < 2 * hour - 7_000_000 {
                assert!((reading - half_speed).abs() <= 1, "at {elapsed}: {reading}, expected {half_speed}");
            } else {
                assert!(reading <= half_speed.max(wall) + 1, "at {elapsed}: {reading}");
            }
            last = reading;
        }
        // A monotonic reading older than the anchor (taken before another backend moved it).
        let mut clock = GeneratorClock { floor: 100, anchor: 70 };
        assert_eq!(clock.read(5, 60), 100);
        // A watermark below the floor leaves it.
        clock.raise(90, 80);
        assert_eq!(clock, GeneratorClock { floor: 100, anchor: 70 });
    }

    #[test]
    fn the_watermark_is_the_floor_or_the_earliest_holding() {
        assert_eq!(lowest(100, []), 100);
        assert_eq!(lowest(100, [NONE, 150, NONE]), 100);
        assert_eq!(lowest(100, [NONE, 70, 90]), 70);
    }

    #[test]
    fn a_transaction_publishes_its_first_holding_and_any_earlier_one() {
        let mut held = Held::new();
        assert!(held.must_publish(Family::Sno, 500));
        held.publish(Family::Sno, 500);
        assert!(!held.must_publish(Family::Sno, 500) && !held.must_publish(Family::Sno, 900));
        // The clock stepped back: the earlier time must be published before its id is returned.
        assert!(held.must_publish(Family::Sno, 499));
        assert!(held.must_publish(Family::Muid, 900));
        assert_eq!(held.holdings().collect::<Vec<_>>(), [(Family::Sno, 500)]);
    }

    #[test]
    fn the_floor_only_rises_and_a_restart_starts_it_at_its_mark() {
        let mut floor = Floor::new();
        assert_eq!(floor.raise(1_000, 1_000), 1_000);
        assert_eq!(floor.raise(500, 500), 1_000);
        assert_eq!(floor.record(), [1_000 + high_water::WINDOW_US]);
        let mut restarted = Floor::new();
        restarted.resume(floor.record());
        assert_eq!(restarted.floor(), 1_000 + high_water::WINDOW_US);
        assert!(Floor::check(&[0], 1_000).is_err() && Floor::check(&[1_000], 1_000).is_ok());
    }

    /// The order argument of the module, on every interleaving of one transaction's publication
    /// (P, then its floor read F) with one watermark's floor raise (R, then its scan S): the id
    /// is either below the watermark's holding bound or made again at or past the raised floor.
    #[test]
    fn every_interleaving_keeps_the_id_at_or_past_the_watermark() {
        // The clock as the transaction read it, and as the watermark did (the watermark's is later,
        // as if the transaction's clock had stepped back).
        let (made_at, clock) = (100, 200);
        for order in ["PFRS", "PRFS", "PRSF", "RPFS", "RPSF", "RSPF"] {
            let (mut published, mut floor, mut seen_floor, mut scanned) = (NONE, 0, 0, NONE);
            for step in order.chars() {
                match step {
                    'P' => published = made_at,
                    'F' => seen_floor = floor,
                    'R' => floor = floor.max(clock),
                    _ => scanned = published,
                }
            }
            let watermark = lowest(floor, [scanned]);
            // Given up and made again at or past the floor it read (the clock is max(clock, floor)).
            let id_at = if seen_floor > made_at { made_at.max(seen_floor) } else { made_at };
            assert!(id_at >= watermark, "{order}: id at {id_at}, watermark {watermark}");
        }
    }
}
