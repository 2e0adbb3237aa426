//! Clock faults for every generator, in src/rules with a hand-driven clock: the wall clock steps back
//! once or twice, by 1 ms and by an hour, while values are being made. No generator may repeat a
//! value; each test also pins down what the generator does (README, "clock steps back").

use comb_ext::rules::comb::{Format, Generator as CombGenerator};
use comb_ext::rules::muid::{Next, Pace, Timeline};
use comb_ext::rules::sno::{self, Generator as SnoGenerator, Next as SnoNext, SequenceBounds};
use comb_ext::rules::uid8::{self, Generators as Uid8Generators, Next as Uid8Next};
use std::collections::HashSet;

const START_US: i64 = 1_700_000_000_000_000;
const MS: i64 = 1_000;
const HOUR: i64 = 3_600_000_000;

/// Clock readings in µs: 500 calls 10 µs apart (from the start of a 4 ms sno unit, so even a 1 ms
/// step back crosses into an earlier unit), then each step back followed by 500 more.
fn clock_walk(steps_back: &[i64]) -> Vec<i64> {
    let mut now = START_US;
    let mut readings = Vec::new();
    for phase in 0..=steps_back.len() {
        if phase > 0 {
            // Back from the last reading, not from the next one.
            now -= steps_back[phase - 1] + 10;
        }
        for _ in 0..500 {
            readings.push(now);
            now += 10;
        }
    }
    readings
}

const FAULTS: [&[i64]; 5] = [&[MS], &[HOUR], &[HOUR, MS], &[MS, HOUR], &[HOUR, HOUR / 2]];

#[test]
fn combs_keep_increasing_on_the_last_unit_used() {
    for steps in FAULTS {
        for format in Format::ALL {
            let mut generator = CombGenerator::new(format);
            let mut previous: Option<[u8; 16]> = None;
            for (i, now) in clock_walk(steps).into_iter().enumerate() {
                let random = [(i % 251) as u8; 16];
                let id = generator.next(now, random).unwrap();
                if let Some(p) = previous {
                    assert_eq!(format.order().cmp(&p, &id), std::cmp::Ordering::Less, "{format:?} {steps:?} call {i}");
                }
                previous = Some(id);
            }
        }
    }
}

#[test]
fn muid_timestamps_run_ahead_of_a_clock_that_stepped_back_without_waiting() {
    for steps in FAULTS {
        let (mut timeline, mut pace) = (Timeline::new(), Pace::new());
        let mut last = -1;
        // The monotonic clock is not stepped: 10 µs a call throughout.
        for (i, now) in clock_walk(steps).into_iter().enumerate() {
            let Next::Issue(timestamp) = pace.next(&mut timeline, now, || 10 * i as i64) else {
                panic!("{steps:?}: call {i} was not issued")
            };
            assert!(timestamp > last, "{steps:?}");
            assert!(timestamp >= now);
            last = timestamp;
        }
    }
}

#[test]
fn sno_tick_tocks_then_waits_on_a_second_step_into_the_same_past() {
    for steps in FAULTS {
        let mut generator = SnoGenerator::new();
        let mut seen = HashSet::new();
        let mut ticks = HashSet::new();
        let mut waited_until = None;
        for reading in clock_walk(steps) {
            // A wait moves the (simulated) clock forward to where the generator asked.
            let mut now = waited_until.map_or(reading, |w: i64| w.max(reading));
            let issued = loop {
                match generator.next(sno::units(now).unwrap(), SequenceBounds::FULL) {
                    SnoNext::Issue { units, tick, sequence } => break (units, tick, sequence),
                    SnoNext::WaitUntil { units } => {
                        now = sno::unix_us(units);
                        waited_until = Some(now);
                    }
                }
            };
            assert!(seen.insert(issued), "{steps:?}: {issued:?} twice");
            ticks.insert(issued.1);
        }
        // The first step back toggles the tick-tock bit and goes on without waiting; a second one,
        // into time the other timeline already used, waits until the clock is past it.
        // (A 1 ms step is a regression for sno only when it crosses back into an earlier 4 ms unit,
        // which depends on where in the unit it happens; the first phase starts on a unit.)
        assert!(ticks.contains(&true), "{steps:?}");
        if steps.len() == 1 {
            assert!(waited_until.is_none(), "{steps:?}");
        }
        if steps == [HOUR, HOUR / 2] {
            assert!(waited_until.is_some(), "{steps:?}");
        }
    }
}

#[test]
fn uid8_goes_on_past_the_last_millisecond_used() {
    // One generator id, and up to four (claimed as milliseconds fill: 100 calls a ms here); waiting
    // for the clock at a full millisecond (upstream), and running up to 2 s ahead of it.
    for (limit, run_ahead) in [1, 4].into_iter().flat_map(|limit| [(limit, 0), (limit, uid8::RUN_AHEAD_MAX_MS)]) {
        for steps in FAULTS {
            let mut generators = Uid8Generators::new();
            generators.claimed(0, START_US / MS - 1);
            let mut free = 1..;
            let mut seen = HashSet::new();
            let mut last = (0, 0, 0);
            for reading in clock_walk(steps) {
                let mut now_ms = reading / MS;
                let issued = loop {
                    match generators.next(now_ms, limit, run_ahead) {
                        Uid8Next::Issue { timestamp_ms, sequence, generator } => {
                            break (timestamp_ms, sequence, generator)
                        }
                        Uid8Next::WaitUntil { timestamp_ms } => {
                            // Waits are for a clock at most a second behind the bound, never for a longer
                            // step to come back.
                            assert!(timestamp_ms > now_ms && timestamp_ms - now_ms <= uid8::WAIT_AHEAD_MS, "{steps:?}");
                            now_ms = timestamp_ms;
                        }
                        Uid8Next::Claim => generators.claimed(free.next().unwrap(), now_ms),
                    }
                };
                assert!(seen.insert(issued), "{steps:?}: {issued:?} twice");
                // (ms, sequence, generator) strictly increases: it never goes back in time.
                assert!(issued > last, "{steps:?}: {issued:?} after {last:?}");
                last = issued;
            }
            assert_eq!(generators.len(), limit, "{steps:?}");
        }
    }
}
