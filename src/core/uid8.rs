//! 8-byte unique IDs (seed 004, LableOrg/java-uniqueid). Byte 0 first:
//! `TTTTTTTT x5  TTSSSSSS  GGGMGGGG  GGGGCCCC`: a 42-bit millisecond timestamp, a 6-bit sequence,
//! the mode bit (bit 4 of byte 6, set for TIME_SEQUENTIAL), an 11-bit generator id split as
//! gen[10:8] -> byte 6 bits 7-5, gen[7:4] -> byte 6 bits 3-0, gen[3:0] -> byte 7 bits 7-4, and a 4-bit
//! cluster id. TIME_SEQUENTIAL stores `ts << 22`; SPREAD stores `Long.reverse(ts)`: all 64 bits
//! reversed, so ts bit 0 lands at bit 63 and inserts spread over the whole key space.

use super::range::{check, OutOfRange};

pub const TIMESTAMP_LIMIT: i64 = 1 << 42;
pub const SEQUENCE_MAX: i32 = 63;
pub const GENERATOR_MAX: i32 = 2047;
pub const CLUSTER_MAX: i32 = 15;
const TIMESTAMP_SHIFT: u32 = 22;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Spread,
    TimeSequential,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parts {
    /// ms since 1970, 0 <= ts < 2^42.
    pub timestamp_ms: i64,
    pub sequence: i32,
    pub generator: i32,
    pub cluster: i32,
    pub mode: Mode,
}

impl Parts {
    /// The ID as a big-endian signed 64-bit integer.
    pub fn encode(&self) -> Result<i64, OutOfRange> {
        let timestamp = check("timestamp_ms", self.timestamp_ms, 0, TIMESTAMP_LIMIT - 1)? as u64;
        let sequence = check("sequence", self.sequence as i64, 0, SEQUENCE_MAX as i64)? as u64;
        let generator = check("generator", self.generator as i64, 0, GENERATOR_MAX as i64)? as u64;
        let cluster = check("cluster", self.cluster as i64, 0, CLUSTER_MAX as i64)? as u64;
        let time_bits = match self.mode {
            Mode::Spread => timestamp.reverse_bits(),
            Mode::TimeSequential => timestamp << TIMESTAMP_SHIFT,
        };
        let mode_bit = (self.mode == Mode::TimeSequential) as u64;
        let low = sequence << 16
            | (generator >> 8) << 13
            | mode_bit << 12
            | ((generator >> 4) & 0xf) << 8
            | (generator & 0xf) << 4
            | cluster;
        Ok((time_bits | low) as i64)
    }

    pub fn decode(id: i64) -> Parts {
        let id = id as u64;
        let mode = if id >> 12 & 1 == 1 { Mode::TimeSequential } else { Mode::Spread };
        let time_bits = id >> TIMESTAMP_SHIFT << TIMESTAMP_SHIFT;
        let timestamp = match mode {
            Mode::Spread => time_bits.reverse_bits(),
            Mode::TimeSequential => time_bits >> TIMESTAMP_SHIFT,
        };
        Parts {
            timestamp_ms: timestamp as i64,
            sequence: (id >> 16 & 0x3f) as i32,
            generator: ((id >> 13 & 0x7) << 8 | (id >> 8 & 0xf) << 4 | (id >> 4 & 0xf)) as i32,
            cluster: (id & 0xf) as i32,
            mode,
        }
    }
}

/// The lock key that claims `generator` of `cluster`: the cluster id above the 11 generator bits, so
/// every (cluster, generator) pair has its own key.
pub fn claim_key(cluster: i32, generator: i32) -> u32 {
    (cluster as u32) << 11 | generator as u32
}

/// The generator ids a session tries, in order: all 2048, from a start taken from its process id
/// and wrapping round, so sessions started together rarely probe the same taken ids.
pub fn probe_order(pid: i32) -> impl Iterator<Item = i32> {
    let count = GENERATOR_MAX + 1;
    let start = pid.rem_euclid(count);
    (0..count).map(move |i| (start + i) % count)
}

/// What the generator does for a call at a given millisecond.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    Issue {
        timestamp_ms: i64,
        sequence: i32,
    },
    /// The millisecond's 64 sequence numbers are used: call again when the clock reaches this.
    WaitUntil {
        timestamp_ms: i64,
    },
}

/// One generator id's state: up to 64 IDs per millisecond, sequence from 0 in each new one, and
/// a wait for the next millisecond when a millisecond's 64 are used (as upstream). The clock is
/// passed in so tests drive it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generator {
    last_ms: i64,
    next_sequence: i32,
}

impl Generator {
    /// A generator for an id claimed at `now_ms`. The id's previous holder made its last ID no
    /// later than that millisecond, so this one starts strictly after it.
    pub fn claimed_at(now_ms: i64) -> Self {
        Generator { last_ms: now_ms, next_sequence: SEQUENCE_MAX + 1 }
    }

    pub fn next(&mut self, now_ms: i64) -> Next {
        if now_ms > self.last_ms {
            self.last_ms = now_ms;
            self.next_sequence = 1;
            return Next::Issue { timestamp_ms: now_ms, sequence: 0 };
        }
        if self.next_sequence <= SEQUENCE_MAX {
            let sequence = self.next_sequence;
            self.next_sequence += 1;
            return Next::Issue { timestamp_ms: self.last_ms, sequence };
        }
        if now_ms == self.last_ms {
            return Next::WaitUntil { timestamp_ms: self.last_ms + 1 };
        }
        // The clock stepped back: keep going from the last millisecond used, one past it, rather
        // than wait for the clock to come back (which could take as long as the step).
        self.last_ms += 1;
        self.next_sequence = 1;
        Next::Issue { timestamp_ms: self.last_ms, sequence: 0 }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn claim_keys_differ_for_every_cluster_and_generator() {
        let mut keys: Vec<u32> =
            (0..=CLUSTER_MAX).flat_map(|c| (0..=GENERATOR_MAX).map(move |g| claim_key(c, g))).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 16 * 2048);
        assert_eq!(claim_key(15, 2047), 0x7FFF);
    }

    #[test]
    fn probe_order_visits_every_generator_once_from_the_pid() {
        for pid in [0, 1, 2047, 2048, 4_000_000, i32::MAX, -5] {
            let order: Vec<i32> = probe_order(pid).collect();
            assert_eq!(order[0], pid.rem_euclid(2048));
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..2048).collect::<Vec<_>>());
        }
    }

    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn parts(timestamp_ms: i64, mode: Mode) -> Parts {
        Parts { timestamp_ms, sequence: 0, generator: 0, cluster: 0, mode }
    }

    #[test]
    fn time_sequential_keeps_the_time_in_the_top_42_bits() {
        let id = parts(1, Mode::TimeSequential).encode().unwrap();
        assert_eq!(id, 1 << 22 | 1 << 12);
    }

    #[test]
    fn spread_reverses_the_time_bits() {
        // ts bit 0 is ID bit 63: the sign bit.
        assert_eq!(parts(1, Mode::Spread).encode().unwrap(), i64::MIN);
        assert_eq!(parts(2, Mode::Spread).encode().unwrap(), 1 << 62);
    }

    #[test]
    fn generator_id_is_split_around_the_mode_bit() {
        let id = Parts {
            timestamp_ms: 0,
            sequence: 0b10_1010,
            generator: 0b101_1100_0011,
            cluster: 0b1001,
            mode: Mode::Spread,
        }
        .encode()
        .unwrap();
        assert_eq!(id.to_be_bytes(), [0, 0, 0, 0, 0, 0b0010_1010, 0b1010_1100, 0b0011_1001]);
    }

    #[test]
    fn fields_out_of_range_are_named() {
        let base = parts(0, Mode::Spread);
        let field = |p: Parts| p.encode().unwrap_err().field;
        assert_eq!(field(Parts { timestamp_ms: TIMESTAMP_LIMIT, ..base }), "timestamp_ms");
        assert_eq!(field(Parts { timestamp_ms: -1, ..base }), "timestamp_ms");
        assert_eq!(field(Parts { sequence: 64, ..base }), "sequence");
        assert_eq!(field(Parts { generator: 2048, ..base }), "generator");
        assert_eq!(field(Parts { cluster: -1, ..base }), "cluster");
    }

    #[test]
    fn sequence_counts_within_a_millisecond_and_waits_past_64() {
        let mut generator = Generator::claimed_at(99);
        assert_eq!(generator.next(99), Next::WaitUntil { timestamp_ms: 100 });
        for sequence in 0..=SEQUENCE_MAX {
            assert_eq!(generator.next(100), Next::Issue { timestamp_ms: 100, sequence });
        }
        assert_eq!(generator.next(100), Next::WaitUntil { timestamp_ms: 101 });
        assert_eq!(generator.next(101), Next::Issue { timestamp_ms: 101, sequence: 0 });
    }

    #[test]
    fn a_clock_step_back_goes_on_past_the_last_millisecond() {
        let mut generator = Generator::claimed_at(0);
        assert_eq!(generator.next(1000), Next::Issue { timestamp_ms: 1000, sequence: 0 });
        assert_eq!(generator.next(400), Next::Issue { timestamp_ms: 1000, sequence: 1 });
        for _ in 2..=SEQUENCE_MAX {
            generator.next(400);
        }
        assert_eq!(generator.next(400), Next::Issue { timestamp_ms: 1001, sequence: 0 });
        assert_eq!(generator.next(1001), Next::Issue { timestamp_ms: 1001, sequence: 1 });
    }

    proptest! {
        #[test]
        fn encode_decode_round_trip(timestamp_ms in 0..TIMESTAMP_LIMIT, sequence in 0..=SEQUENCE_MAX,
                                    generator in 0..=GENERATOR_MAX, cluster in 0..=CLUSTER_MAX, spread: bool) {
            let mode = if spread { Mode::Spread } else { Mode::TimeSequential };
            let parts = Parts { timestamp_ms, sequence, generator, cluster, mode };
            prop_assert_eq!(Parts::decode(parts.encode().unwrap()), parts);
        }

        /// Any clock walk, with the caller waiting when told: no (ms, sequence) twice, and the
        /// first value comes after the claim's millisecond.
        #[test]
        fn no_clock_walk_issues_a_value_twice(steps in proptest::collection::vec((-50i64..=3, 1usize..100), 1..60)) {
            let claimed = 10_000;
            let mut generator = Generator::claimed_at(claimed);
            let mut clock = claimed;
            let mut seen = HashSet::new();
            for (step, calls) in steps {
                clock = (clock + step).max(0);
                for _ in 0..calls {
                    let issued = loop {
                        match generator.next(clock) {
                            Next::Issue { timestamp_ms, sequence } => break (timestamp_ms, sequence),
                            Next::WaitUntil { timestamp_ms } => clock = timestamp_ms,
                        }
                    };
                    prop_assert!(issued.0 > claimed);
                    prop_assert!(seen.insert(issued), "issued twice: {:?}", issued);
                }
            }
        }
    }
}
