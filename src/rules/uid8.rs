//! 8-byte unique IDs (seed 004, LableOrg/java-uniqueid). Byte 0 first:
//! `TTTTTTTT x5  TTSSSSSS  GGGMGGGG  GGGGCCCC`: a 42-bit millisecond timestamp, a 6-bit sequence,
//! the mode bit (bit 4 of byte 6, set for TIME_SEQUENTIAL), an 11-bit generator id split as
//! gen[10:8] -> byte 6 bits 7-5, gen[7:4] -> byte 6 bits 3-0, gen[3:0] -> byte 7 bits 7-4, and a 4-bit
//! cluster id. TIME_SEQUENTIAL stores `ts << 22`; SPREAD stores `Long.reverse(ts)`: all 64 bits
//! reversed, so ts bit 0 lands at bit 63 and inserts spread over the whole key space.

use super::high_water;
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

impl Mode {
    pub const ALL: [Mode; 2] = [Mode::Spread, Mode::TimeSequential];

    /// The SQL label of the `uid8_mode` enum.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Spread => "spread",
            Mode::TimeSequential => "time_sequential",
        }
    }

    pub fn from_name(name: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == name)
    }
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

/// The last millisecond whose `time_sequential` ids are positive: from 2^41 ms (2039-09-07
/// 15:47:35.552 UTC) `ts << 22` sets the sign bit, and bigint order stops being time order.
pub const TIME_SEQUENTIAL_ORDERED_MS_MAX: i64 = (1 << 41) - 1;
/// `TIME_SEQUENTIAL_ORDERED_MS_MAX` as a time, for messages.
pub const TIME_SEQUENTIAL_ORDERED_LAST: &str = "2039-09-07 15:47:35.551 UTC";

/// The smallest `time_sequential` id whose time is at or after `unix_us`: that of the first
/// millisecond at or after it, with sequence, generator and cluster 0, `(ms << 22) | 4096` (the mode
/// bit). Every id of an earlier millisecond is below it, every id of its own or a later one (to
/// 2039-09-07) at or above. A time before 1970 gives the first id of 1970; None past the last
/// millisecond whose ids are positive.
pub fn time_sequential_floor(unix_us: i64) -> Option<i64> {
    let ms = (unix_us.max(0) as u64).div_ceil(1000) as i64;
    (ms <= TIME_SEQUENTIAL_ORDERED_MS_MAX).then(|| {
        let first = Parts { timestamp_ms: ms, sequence: 0, generator: 0, cluster: 0, mode: Mode::TimeSequential };
        first.encode().expect("a millisecond below 2^41 and zero fields encode")
    })
}

/// The lock key that claims `generator` of `cluster`: the cluster id above the 11 generator bits, so
/// every (cluster, generator) pair has its own key.
pub fn claim_key(cluster: i32, generator: i32) -> u32 {
    (cluster as u32) << 11 | generator as u32
}

/// The generator ids a session tries, in order: all 2048, from a start taken from its process id
/// and wrapping round. Starts [`PROBE_STRIDE`] apart for consecutive process ids (sessions started
/// together: a pool, pgbench), so each finds the extra ids it claims free beside its first, and
/// claims back the ones it let go, instead of probing another session's held ids (each probe of a
/// held id is a lock-manager round trip).
pub fn probe_order(pid: i32) -> impl Iterator<Item = i32> {
    let count = GENERATOR_COUNT;
    let start = (pid.rem_euclid(count) * PROBE_STRIDE).rem_euclid(count);
    (0..count).map(move |i| (start + i) % count)
}

/// How far apart the probes of consecutive process ids start: the default of
/// `comb_ext.uid8_generators_per_session`.
pub const PROBE_STRIDE: i32 = 16;

/// How many generator ids one cluster id has.
pub const GENERATOR_COUNT: i32 = GENERATOR_MAX + 1;

/// The ids of a cluster id an ordinary first claim leaves free: only the first id of a role that
/// holds none, or a superuser's, may take them. So whatever the roles already generating hold, a
/// new role and a superuser still get a first id.
pub const FIRST_ID_RESERVE: i32 = 128;

/// The ids of a cluster id that no role's claim takes, not even the first id of a role that holds
/// none: however many roles there are (a role with CREATEROLE can make any number), a superuser
/// still gets a first id.
pub const SUPERUSER_RESERVE: i32 = 8;

/// The ids of a cluster id an extra claim leaves free: extra ids only speed bulks up, so they
/// never take the ids other sessions need for their first.
pub const EXTRA_ID_HEADROOM: i32 = GENERATOR_COUNT / 4;

/// `comb_ext.uid8_generator_share`'s default: half a cluster id's ids for one role, and for one
/// database.
pub const GENERATOR_SHARE_DEFAULT: i32 = GENERATOR_COUNT / 2;

/// Of a database's share, the ids kept for the first id of a role that holds none in the database
/// (128 of the default 1024): the roles already generating there fill at most the rest, so one
/// role's idle sessions cannot shut every other role out of the database.
pub const fn database_reserve(share: i32) -> i32 {
    share / 8
}

/// The generator ids of one cluster id held when a session claims one more (the claim not
/// counted): by every session, by sessions of the claiming session's role, by sessions in its
/// database, by sessions of its role in its database, and by the claiming session itself (0: the
/// claim is its first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Holdings {
    pub all: i32,
    pub role: i32,
    pub database: i32,
    pub role_in_database: i32,
    pub session: i32,
}

/// Why a claim may not proceed, with the limit it would pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The role would hold more than `limit` ids.
    RoleShare { limit: i32 },
    /// The database would hold more than `limit` ids.
    DatabaseShare { limit: i32 },
    /// Fewer than `kept` ids of the database's `share` would stay free, and the role holds some there.
    DatabaseReserve { share: i32, kept: i32 },
    /// Fewer than `kept` ids would stay free.
    Kept { kept: i32 },
}

/// Whether a session may claim one more generator id, given what is held (`held`) and the share
/// (`comb_ext.uid8_generator_share`: at most this many ids per role and per database).
///
/// - A first id: within the role's and the database's share, leaving the database's reserve
///   ([`database_reserve`]) free unless the role holds none in the database, and leaving
///   [`FIRST_ID_RESERVE`] of the cluster id free unless the role holds none anywhere (then
///   [`SUPERUSER_RESERVE`]). A superuser's first id only needs one free: a DBA can always generate.
/// - An extra id (a bulk filling milliseconds): within half the role's share and half the
///   database's less its reserve, so a role's bulks leave the rest for its own sessions' first
///   ids and the reserve for other roles', and leaving [`EXTRA_ID_HEADROOM`] free for everyone's
///   first ids.
pub fn may_claim(held: Holdings, share: i32, superuser: bool) -> Result<(), Refusal> {
    let first = held.session == 0;
    if first && superuser {
        return Ok(());
    }
    let (role_limit, database_limit) =
        if first { (share, share) } else { (share / 2, share / 2 - database_reserve(share)) };
    if held.role + 1 > role_limit {
        return Err(Refusal::RoleShare { limit: role_limit });
    }
    if held.database + 1 > database_limit {
        return Err(Refusal::DatabaseShare { limit: database_limit });
    }
    if first && held.role_in_database > 0 && held.database + 1 > share - database_reserve(share) {
        return Err(Refusal::DatabaseReserve { share, kept: database_reserve(share) });
    }
    let kept = match (first, held.role) {
        (true, 0) => SUPERUSER_RESERVE,
        (true, _) => FIRST_ID_RESERVE,
        (false, _) => EXTRA_ID_HEADROOM,
    };
    if GENERATOR_COUNT - (held.all + 1) < kept {
        return Err(Refusal::Kept { kept });
    }
    Ok(())
}

/// What a session's generator ids do for a call at a given millisecond.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    Issue {
        timestamp_ms: i64,
        sequence: i32,
        generator: i32,
    },
    /// Every usable id has used this millisecond's 64 sequence numbers (or none is usable yet):
    /// call again when the clock reaches this.
    WaitUntil {
        timestamp_ms: i64,
    },
    /// Claim a generator id and report it with [`Generators::claimed`] (or
    /// [`Generators::claim_failed`]), then call again. With no id held this is the session's
    /// first claim, which must succeed; otherwise it is an extra one, for a full millisecond or a
    /// sequence ahead of the clock's pace.
    Claim,
}

/// A millisecond at most this far past the run-ahead bound waits for the clock to bring it within
/// the bound (a full millisecond, a claim after a restart, whose mark is up to two seconds ahead);
/// further ahead, the clock was set back or the mark was written far ahead, and the generator goes
/// on without waiting.
pub const WAIT_AHEAD_MS: i64 = high_water::WINDOW_US / 1_000;

/// The most `comb_ext.uid8_run_ahead` allows, and its default: how far past the clock a session's
/// ids may run when its milliseconds are full, as snowflake takes the next millisecond instead of
/// waiting. 2 s, as muid's bound: a statement of 2,048,000 IDs on 16 generator ids that starts at
/// the clock never waits, and the mark on disk (at most a window past the last millisecond issued,
/// or two past the clock) lets a restart resume at most 3 s past the clock.
pub const RUN_AHEAD_MAX_MS: i64 = 2 * high_water::WINDOW_US / 1_000;

/// After a failed extra claim (every id of the cluster id held), this many full milliseconds
/// wait without probing again: a probe of all 2048 ids is not free.
pub const CLAIM_RETRY_FULL_MS: u32 = 1000;

/// A held generator id, usable in the milliseconds from `from_ms` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Held {
    generator: i32,
    from_ms: i64,
}

/// The generator ids one session holds and what it issues next: up to 64 IDs per millisecond
/// on each id. Within a millisecond it issues sequence s on every usable id, in ascending id
/// order, before sequence s + 1, so the (ms, sequence, generator) triples it issues, which is
/// how TIME_SEQUENTIAL IDs sort, strictly increase. When a millisecond is full it asks for one
/// more id (up to the caller's limit, one claim per full millisecond; at once as many as the
/// last transaction that needed extra ids ended with, see [`Generators::transaction_ended`]) and takes the next
/// millisecond, up to the run-ahead bound past the clock, as snowflake does; past the bound it
/// waits for the clock, as upstream does with its one id.
///
/// An id claimed at `c`, the later of the clock and the last millisecond the server saw issued on
/// it (HIGH_WATER, where a holder running ahead publishes its milliseconds), is usable only from
/// `max(c, last ms issued) + 1` on: its previous holder made its last ID no later than `c`, and the
/// session's own milliseconds up to the last one issued are already laid out without it. So the
/// set of usable ids is fixed for every millisecond, and the order holds whatever ids join or
/// leave. The one exception is an id claimed back ([`Generators::reclaimed`]): every ID issued on it
/// is this session's, so it joins the millisecond under way, after the session's last triple. The
/// clock is passed in so tests drive it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Generators {
    /// Ascending by generator id.
    held: Vec<Held>,
    /// The last (ms, sequence, generator) issued.
    last: Option<(i64, i32, i32)>,
    /// The full millisecond an extra claim was last asked for: one claim each.
    claimed_for_ms: Option<i64>,
    /// Full milliseconds still to pass before the next extra claim, after a failed one.
    claim_pause: u32,
    /// The (ms, sequence) an extra claim ahead of the clock's pace was last asked for: one each.
    claimed_ahead: Option<(i64, i32)>,
    /// How many ids the last transaction that held extra ids ended with: a full millisecond claims
    /// back up to that many at once, so that a bulk load of many transactions does not ramp up one
    /// id per millisecond in each (its timeline would outrun the clock by a millisecond or more a
    /// transaction and reach the run-ahead bound).
    warm: usize,
}

impl Generators {
    pub const fn new() -> Self {
        Generators { held: Vec::new(), last: None, claimed_for_ms: None, claim_pause: 0, claimed_ahead: None, warm: 0 }
    }

    /// At the end of a transaction, before its extra ids are let go: one that held extra ids sets how
    /// many the next full millisecond claims back at once; one that held none leaves that as it was.
    pub fn transaction_ended(&mut self) {
        if self.held.len() > 1 {
            self.warm = self.held.len();
        }
    }

    /// The ids held, ascending.
    pub fn generators(&self) -> impl Iterator<Item = i32> + '_ {
        self.held.iter().map(|h| h.generator)
    }

    pub fn len(&self) -> usize {
        self.held.len()
    }

    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    /// Adds `generator`, claimed when the wall clock read `now_ms`.
    pub fn claimed(&mut self, generator: i32, now_ms: i64) {
        let after = self.last.map_or(now_ms, |(ms, _, _)| ms.max(now_ms));
        self.hold(generator, after + 1);
    }

    /// Adds `generator`, claimed back: every ID ever issued on it is this session's (it let the
    /// id go, and the server saw no millisecond issued on it since), so all of them lie below this
    /// session's next triple, and it is usable at once, in the millisecond under way.
    pub fn reclaimed(&mut self, generator: i32) {
        self.hold(generator, i64::MIN);
    }

    /// Holds `generator` from `from_ms` on; one held already keeps the later of the two.
    fn hold(&mut self, generator: i32, from_ms: i64) {
        let at = self.held.partition_point(|h| h.generator < generator);
        match self.held.get_mut(at) {
            Some(held) if held.generator == generator => held.from_ms = held.from_ms.max(from_ms),
            _ => self.held.insert(at, Held { generator, from_ms }),
        }
    }

    /// No id was free: the next [`CLAIM_RETRY_FULL_MS`] full milliseconds just wait.
    pub fn claim_failed(&mut self) {
        self.claim_pause = CLAIM_RETRY_FULL_MS;
    }

    /// Keeps only the ids for which `keep` holds (the ones still claimed).
    pub fn retain(&mut self, mut keep: impl FnMut(i32) -> bool) {
        self.held.retain(|h| keep(h.generator));
    }

    /// The lowest id above `after` usable in `ms`.
    fn usable_after(&self, ms: i64, after: i32) -> Option<i32> {
        let from = self.held.partition_point(|h| h.generator <= after);
        self.held[from..].iter().find(|h| h.from_ms <= ms).map(|h| h.generator)
    }

    fn issue(&mut self, timestamp_ms: i64, sequence: i32, generator: i32) -> Next {
        self.last = Some((timestamp_ms, sequence, generator));
        Next::Issue { timestamp_ms, sequence, generator }
    }

    /// What to do at wall-clock ms `now_ms`, holding at most `limit` ids, its milliseconds at most
    /// `run_ahead_ms` past the clock (0: upstream's wait for the clock when a millisecond is full).
    pub fn next(&mut self, now_ms: i64, limit: usize, run_ahead_ms: i64) -> Next {
        self.next_paced(now_ms, None, limit, run_ahead_ms)
    }

    /// [`Generators::next`], a sequence started in the clock's own millisecond `now_ms` starting no
    /// lower than `paced` ([`clock_sequence`]: how far the clock is through that millisecond). Each
    /// session then goes through a millisecond's sequences at least as fast as the clock does, so
    /// the ids every session makes at about the same time carry about the same sequence and reach a
    /// `time_sequential` index near its right edge. Counted from 0 each, a session that started its
    /// millisecond later put its ids behind the ids another session had made earlier, on pages that
    /// split in half. Skipping sequences only raises this session's own triples, and depends on
    /// nothing but its own clock reading, so no session's pace moves another's.
    ///
    /// A session whose next sequence would run more than one ahead of the pace (or whose
    /// millisecond is past the clock's) asks for one more id, once per sequence (at once as many as
    /// the last transaction that needed extra ids ended with, as a full millisecond does), within `limit`
    /// (not after a failed claim, until full milliseconds have counted [`CLAIM_RETRY_FULL_MS`]
    /// down): with more ids it makes more IDs per sequence instead of racing through the
    /// millisecond ahead of the other sessions. Only an id it claims back ([`Generators::reclaimed`])
    /// serves the millisecond under way; any other serves the next, and while one waits for it no
    /// more are asked for ahead of the pace.
    pub fn next_paced(&mut self, now_ms: i64, paced: Option<i32>, limit: usize, run_ahead_ms: i64) -> Next {
        let floor = |ms: i64| if ms == now_ms { paced.unwrap_or(0) } else { 0 };
        if self.held.is_empty() {
            return Next::Claim;
        }
        if let Some((ms, sequence, generator)) = self.last.filter(|&(ms, _, _)| now_ms <= ms) {
            // The last millisecond goes on: the next usable id at this sequence, then the next
            // sequence from the lowest usable id.
            if let Some(next) = self.usable_after(ms, generator) {
                return self.issue(ms, sequence, next);
            }
            let lowest = self.usable_after(ms, -1);
            let sequence = (sequence + 1).max(floor(ms));
            let ahead_of_pace = paced.is_some_and(|pace| ms > now_ms || sequence > pace + 1);
            // An id waiting for a later millisecond (claimed by the clock's rule) is enough for now:
            // claims that cannot serve this millisecond stop at one, so a short burst ahead of the pace
            // does not claim up to its limit. (Read only when ahead of the pace: a scan of the ids.)
            if ahead_of_pace
                && self.held.iter().all(|h| h.from_ms <= ms)
                && lowest.is_some()
                && sequence <= SEQUENCE_MAX
                && self.held.len() < limit
                && self.claim_pause == 0
                && (self.claimed_ahead != Some((ms, sequence)) || self.held.len() < self.warm)
            {
                self.claimed_ahead = Some((ms, sequence));
                return Next::Claim;
            }
            if let Some(next) = lowest.filter(|_| sequence <= SEQUENCE_MAX) {
                return self.issue(ms, sequence, next);
            }
            // Full, if any id held is usable in it (after a loss, none may be yet).
            let claim_back = self.held.len() < self.warm;
            if lowest.is_some() && self.held.len() < limit && (self.claimed_for_ms != Some(ms) || claim_back) {
                self.claimed_for_ms = Some(ms);
                if self.claim_pause == 0 {
                    return Next::Claim;
                }
                self.claim_pause -= 1;
            }
        }
        // A later millisecond (from sequence 0, or the clock's pace in the clock's own): the clock's,
        // or one past the last one used, and no earlier than an id is usable.
        let after = self.last.map_or(now_ms, |(ms, _, _)| now_ms.max(ms + 1));
        let first_usable = self.held.iter().map(|h| h.from_ms).min().unwrap_or(after);
        let ms = after.max(first_usable);
        let past_bound = ms - now_ms - run_ahead_ms;
        if past_bound > 0 && past_bound <= WAIT_AHEAD_MS {
            return Next::WaitUntil { timestamp_ms: ms - run_ahead_ms };
        }
        // ms is within the bound of the clock, or far past it: the clock stepped back, and the
        // session goes on from where it was rather than wait for the clock to come back (which
        // could take as long as the step).
        let generator = self.usable_after(ms, -1).expect("an id is usable from its from_ms on");
        self.issue(ms, floor(ms), generator)
    }
}

/// How far the clock at `now_us` is through its millisecond, in sequences (64 to a millisecond, one
/// each 15.625 µs): the lowest sequence [`Generators::next_paced`] starts in the clock's millisecond.
pub const fn clock_sequence(now_us: i64) -> i32 {
    (now_us.rem_euclid(1_000) * (SEQUENCE_MAX as i64 + 1) / 1_000) as i32
}

/// The server's bound on every millisecond any generator id issued (`rules::high_water`): after a
/// restart every id is usable only from it on, whatever the clock reads.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reservation {
    reserved_ms: i64,
    /// The mark this run of the server resumed from: the shared per-id high-water knows the rest.
    resumed_ms: i64,
}

impl Reservation {
    pub const fn new() -> Self {
        Reservation { reserved_ms: 0, resumed_ms: 0 }
    }

    /// Before an ID of millisecond `ms` is returned, with the clock at `now_ms`: a window past the
    /// clock, and at least a sixteenth of one past `ms` when it runs ahead (`high_water::reach`).
    pub fn issue(&mut self, ms: i64, now_ms: i64) {
        self.reserved_ms = high_water::reserve(self.reserved_ms, ms, now_ms.min(ms), high_water::WINDOW_US / 1_000);
    }

    /// The last millisecond an earlier run of the server may have issued (not the current mark,
    /// which runs up to two seconds ahead of what this run issued).
    pub fn last_ms(&self) -> i64 {
        self.resumed_ms - 1
    }
}

impl high_water::Persisted for Reservation {
    const NAME: &'static str = "uid8";
    const WINDOW: i64 = high_water::WINDOW_US / 1_000;
    type Record = [i64; 1];

    fn record(&self) -> [i64; 1] {
        [self.reserved_ms]
    }

    /// The clock's: the millisecond last issued is not kept (the layout is shared with older
    /// versions), so a run ahead of the clock writes its marks when it reaches them.
    fn position(&self) -> i64 {
        super::time::wall_clock_unix_us().div_euclid(1_000)
    }

    // Its position is the clock's reading, or the last one while the clock is behind it.
    const RUNS_AHEAD: bool = false;

    fn clock(now_us: i64) -> i64 {
        now_us.div_euclid(1_000)
    }

    fn raise_reservation(&mut self, to: i64) {
        self.reserved_ms = self.reserved_ms.max(to);
    }

    fn reservation_unix_us(reservation: i64) -> i64 {
        reservation.saturating_mul(super::time::US_PER_MS)
    }

    /// 0 too: 0.4.0 wrote it when an id was claimed before any was issued (nothing reserved).
    fn check(&[reserved_ms]: &[i64; 1], now_us: i64) -> Result<(), String> {
        let limit = high_water::ahead_limit(now_us, 0, 1_000, TIMESTAMP_LIMIT + 2 * high_water::WINDOW_US / 1_000);
        high_water::check_range("reservation", reserved_ms, 0, limit, "ms since 1970")
    }

    fn resume(&mut self, [reserved_ms]: [i64; 1]) {
        self.reserved_ms = self.reserved_ms.max(reserved_ms);
        self.resumed_ms = self.reserved_ms;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn time_sequential_floor_is_the_first_id_of_its_millisecond() {
        let id = |ms, sequence, generator, cluster| {
            Parts { timestamp_ms: ms, sequence, generator, cluster, mode: Mode::TimeSequential }.encode().unwrap()
        };
        let day = 86_400_000_i64;
        let midnight = 20_784 * day; // 2026-11-27
        assert_eq!(time_sequential_floor(midnight * 1000), Some((midnight << 22) + 4096));
        assert_eq!(time_sequential_floor(midnight * 1000), Some(id(midnight, 0, 0, 0)));
        assert_eq!(time_sequential_floor(midnight * 1000 + 1), Some(id(midnight + 1, 0, 0, 0)));
        assert_eq!(time_sequential_floor(-1), Some(4096));
        assert!(
            id(midnight - 1, SEQUENCE_MAX, GENERATOR_MAX, CLUSTER_MAX)
                < time_sequential_floor(midnight * 1000).unwrap()
        );
        assert_eq!(Parts::decode(time_sequential_floor(midnight * 1000 + 1).unwrap()).timestamp_ms, midnight + 1);
        let last = TIME_SEQUENTIAL_ORDERED_MS_MAX;
        assert!(time_sequential_floor(last * 1000) > Some(0));
        assert_eq!(time_sequential_floor(last * 1000 + 1), None);
        assert_eq!(time_sequential_floor(i64::MAX), None);
        // 2039-09-07 is day 25,451 since 1970; 15:47:35.551 is 56,855,551 ms into it.
        assert_eq!(TIME_SEQUENTIAL_ORDERED_LAST, "2039-09-07 15:47:35.551 UTC");
        assert_eq!(25_451 * day + 56_855_551, last);
    }

    #[test]
    fn marks_outside_the_format_or_a_day_past_the_clock_are_refused() {
        use high_water::Persisted;
        let now_ms = 1_764_000_000_000; // 2025-11-24
        let day_ms = high_water::MAX_AHEAD_US / 1_000;
        for good in [0, 1, now_ms + 1_000, now_ms + day_ms] {
            assert_eq!(Reservation::check(&[good], now_ms * 1_000), Ok(()), "{good}");
        }
        // 2100-01-01 00:00 UTC (time_sequential ids would turn negative), i64::MAX, less than nothing.
        for bad in [4_102_444_800_000, now_ms + day_ms + 1, i64::MAX, -1, i64::MIN] {
            assert!(Reservation::check(&[bad], now_ms * 1_000).is_err(), "{bad}");
        }
        let late_us = (TIMESTAMP_LIMIT - 1) * 1_000;
        assert!(Reservation::check(&[TIMESTAMP_LIMIT + 2_000], late_us).is_ok());
        assert!(Reservation::check(&[TIMESTAMP_LIMIT + 2_001], late_us).is_err());
    }

    #[test]
    fn the_reservation_bounds_every_millisecond_issued_and_moves_once_a_window() {
        use high_water::Persisted;
        let mut reservation = Reservation::new();
        reservation.issue(5_000, 5_000);
        assert_eq!(reservation.record(), [6_000]);
        reservation.issue(5_999, 5_999);
        assert_eq!(reservation.record(), [6_000]);
        reservation.issue(6_000, 6_000);
        assert_eq!(reservation.record(), [7_000]);
        // While the server runs, the mark says nothing about what was issued.
        assert!(reservation.last_ms() < 0);
        let mut restarted = Reservation::new();
        restarted.resume(reservation.record());
        assert_eq!(restarted.last_ms(), 6_999);
        restarted.issue(7_000, 7_000);
        assert_eq!((restarted.record(), restarted.last_ms()), ([8_000], 6_999));
        // Run ahead of the clock: a window past the clock, at least a sixteenth of one past the
        // millisecond issued; and a clock ahead of the millisecond (a step back) counts as it.
        let mut ahead = Reservation::new();
        ahead.issue(10_500, 10_000);
        assert_eq!(ahead.record(), [11_000]);
        ahead.issue(11_000, 10_001);
        assert_eq!(ahead.record(), [11_062]);
        ahead.issue(12_000, 9_000);
        assert_eq!(ahead.record(), [12_062]);
        ahead.issue(12_100, 20_000);
        assert_eq!(ahead.record(), [13_100]);
    }

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
            assert_eq!(order[0], pid.rem_euclid(2048) * 16 % 2048);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..2048).collect::<Vec<_>>());
        }
    }

    use super::*;
    use proptest::prelude::*;
    use std::collections::{HashMap, HashSet};

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

    /// Calls `next` until it issues, waiting and claiming (from `free`, lowest first) as told;
    /// each claim's id and clock go to `claims`.
    fn draw_noting_claims(
        generators: &mut Generators,
        clock: &mut i64,
        (limit, run_ahead): (usize, i64),
        free: &mut Vec<i32>,
        claims: &mut HashMap<i32, i64>,
    ) -> (i64, i32, i32) {
        loop {
            match generators.next(*clock, limit, run_ahead) {
                Next::Issue { timestamp_ms, sequence, generator } => return (timestamp_ms, sequence, generator),
                Next::WaitUntil { timestamp_ms } => {
                    assert!(timestamp_ms > *clock);
                    *clock = timestamp_ms;
                }
                Next::Claim if free.is_empty() => {
                    assert!(!generators.is_empty(), "a first claim with no id free");
                    generators.claim_failed();
                }
                Next::Claim => {
                    let generator = free.remove(0);
                    claims.insert(generator, *clock);
                    generators.claimed(generator, *clock);
                }
            }
        }
    }

    fn draw(generators: &mut Generators, clock: &mut i64, limit: usize, free: &mut Vec<i32>) -> (i64, i32, i32) {
        draw_noting_claims(generators, clock, (limit, 0), free, &mut HashMap::new())
    }

    fn issue(timestamp_ms: i64, sequence: i32, generator: i32) -> Next {
        Next::Issue { timestamp_ms, sequence, generator }
    }

    #[test]
    fn one_id_counts_within_a_millisecond_and_waits_past_64() {
        let mut generators = Generators::new();
        assert_eq!(generators.next(99, 1, 0), Next::Claim);
        generators.claimed(5, 99);
        assert_eq!(generators.next(99, 1, 0), Next::WaitUntil { timestamp_ms: 100 });
        for sequence in 0..=SEQUENCE_MAX {
            assert_eq!(generators.next(100, 1, 0), issue(100, sequence, 5));
        }
        assert_eq!(generators.next(100, 1, 0), Next::WaitUntil { timestamp_ms: 101 });
        assert_eq!(generators.next(101, 1, 0), issue(101, 0, 5));
    }

    #[test]
    fn a_full_millisecond_runs_ahead_up_to_the_bound_then_waits_for_the_clock() {
        let mut generators = Generators::new();
        generators.claimed(5, 99);
        // The clock stands at 100: ms 100 to 105 (5 ms ahead) fill at once, then the next call
        // waits until the clock reaches 101, when ms 106 is 5 ms ahead.
        for ms in 100..=105 {
            for sequence in 0..=SEQUENCE_MAX {
                assert_eq!(generators.next(100, 1, 5), issue(ms, sequence, 5));
            }
        }
        assert_eq!(generators.next(100, 1, 5), Next::WaitUntil { timestamp_ms: 101 });
        assert_eq!(generators.next(101, 1, 5), issue(106, 0, 5));
        // A lower bound later (the setting changed) waits longer; 0 is upstream's wait.
        for _ in 1..=SEQUENCE_MAX {
            generators.next(101, 1, 5);
        }
        assert_eq!(generators.next(101, 1, 0), Next::WaitUntil { timestamp_ms: 107 });
        // Claims go on as without run-ahead: one more id per full millisecond, up to the limit.
        let mut two = Generators::new();
        two.claimed(1, 99);
        for _ in 0..=SEQUENCE_MAX {
            two.next(100, 2, RUN_AHEAD_MAX_MS);
        }
        assert_eq!(two.next(100, 2, RUN_AHEAD_MAX_MS), Next::Claim);
        two.claimed(2, 100);
        assert_eq!(two.next(100, 2, RUN_AHEAD_MAX_MS), issue(101, 0, 1));
        assert_eq!(two.next(100, 2, RUN_AHEAD_MAX_MS), issue(101, 0, 2));
    }

    #[test]
    fn after_a_transaction_with_extra_ids_a_full_millisecond_claims_them_back_at_once() {
        let mut generators = Generators::new();
        generators.claimed(1, 99);
        let fill = |generators: &mut Generators, clock: i64| loop {
            match generators.next(clock, 16, RUN_AHEAD_MAX_MS) {
                Next::Issue { sequence: SEQUENCE_MAX, .. } => break,
                Next::Issue { .. } => {}
                other => panic!("{other:?}"),
            }
        };
        // A transaction that claims one more id per full millisecond: ms 100 on id 1, ms 101 on 1 and 2.
        fill(&mut generators, 100);
        assert_eq!(generators.next(100, 16, RUN_AHEAD_MAX_MS), Next::Claim);
        generators.claimed(2, 100);
        for _ in 0..2 {
            fill(&mut generators, 100);
        }
        assert_eq!(generators.next(100, 16, RUN_AHEAD_MAX_MS), Next::Claim);
        generators.claimed(3, 100);
        // It ends holding 3; id 1 is kept, 2 and 3 let go.
        assert_eq!(end_transaction(&mut generators), [2, 3]);
        // The next call finds its last millisecond full and claims two back at once; they serve from
        // the next millisecond on. Then one claim per full millisecond again.
        assert_eq!(generators.next(100, 16, RUN_AHEAD_MAX_MS), Next::Claim);
        generators.claimed(7, 100);
        assert_eq!(generators.next(100, 16, RUN_AHEAD_MAX_MS), Next::Claim);
        generators.claimed(8, 100);
        assert_eq!(generators.next(100, 16, RUN_AHEAD_MAX_MS), issue(102, 0, 1));
        assert_eq!(generators.next(100, 16, RUN_AHEAD_MAX_MS), issue(102, 0, 7));
        assert_eq!(generators.next(100, 16, RUN_AHEAD_MAX_MS), issue(102, 0, 8));
        for _ in 0..3 {
            fill(&mut generators, 100);
        }
        assert_eq!(generators.next(100, 16, RUN_AHEAD_MAX_MS), Next::Claim);
        generators.claimed(9, 100);
        assert_eq!(generators.next(100, 16, RUN_AHEAD_MAX_MS), issue(103, 0, 1));
        // It ends holding 4. A transaction that held no extra id leaves that count as it was; the
        // limit still caps the claims.
        assert_eq!(end_transaction(&mut generators), [7, 8, 9]);
        assert!(end_transaction(&mut generators).is_empty());
        assert_eq!(generators.warm, 4);
        fill(&mut generators, 100);
        assert_eq!(generators.next(100, 2, RUN_AHEAD_MAX_MS), Next::Claim);
        generators.claimed(10, 100);
        assert_eq!(generators.next(100, 2, RUN_AHEAD_MAX_MS), issue(104, 0, 1));
    }

    #[test]
    fn after_a_restart_the_first_id_runs_ahead_within_the_bound_and_waits_past_it() {
        // The mark lay 1,800 ms ahead: within the bound, the first ID is issued at once.
        let mut restarted = Generators::new();
        restarted.claimed(9, 11_800);
        assert_eq!(restarted.next(10_000, 1, RUN_AHEAD_MAX_MS), issue(11_801, 0, 9));
        // 2,801 ms ahead: 801 past the bound, it waits until the clock brings it within.
        let mut further = Generators::new();
        further.claimed(9, 12_800);
        assert_eq!(further.next(10_000, 1, RUN_AHEAD_MAX_MS), Next::WaitUntil { timestamp_ms: 10_801 });
        assert_eq!(further.next(10_801, 1, RUN_AHEAD_MAX_MS), issue(12_801, 0, 9));
        // More than WAIT_AHEAD_MS past it, the clock stepped back: goes on.
        let mut stepped = Generators::new();
        stepped.claimed(9, 13_001);
        assert_eq!(stepped.next(10_000, 1, RUN_AHEAD_MAX_MS), issue(13_002, 0, 9));
    }

    #[test]
    fn a_clock_step_back_goes_on_past_the_last_millisecond() {
        let mut generators = Generators::new();
        generators.claimed(5, 0);
        assert_eq!(generators.next(5000, 1, 0), issue(5000, 0, 5));
        assert_eq!(generators.next(400, 1, 0), issue(5000, 1, 5));
        for _ in 2..=SEQUENCE_MAX {
            generators.next(400, 1, 0);
        }
        assert_eq!(generators.next(400, 1, 0), issue(5001, 0, 5));
        assert_eq!(generators.next(5001, 1, 0), issue(5001, 1, 5));
    }

    #[test]
    fn a_small_step_back_or_a_claim_up_to_a_second_ahead_waits_for_the_clock() {
        let mut generators = Generators::new();
        generators.claimed(5, 0);
        assert_eq!(generators.next(5000, 1, 0), issue(5000, 0, 5));
        for _ in 1..=SEQUENCE_MAX {
            generators.next(4000, 1, 0);
        }
        // Full, and 5001 is 1002 ms ahead of the clock: goes on. Full again, and 5002 is 1000 ms
        // ahead: waits for the clock.
        assert_eq!(generators.next(3999, 1, 0), issue(5001, 0, 5));
        for _ in 1..=SEQUENCE_MAX {
            generators.next(4002, 1, 0);
        }
        assert_eq!(generators.next(4002, 1, 0), Next::WaitUntil { timestamp_ms: 5002 });
        // An id claimed after a restart, whose mark is 800 ms ahead: the first ID waits for it.
        let mut restarted = Generators::new();
        restarted.claimed(9, 10_800);
        assert_eq!(restarted.next(10_000, 1, 0), Next::WaitUntil { timestamp_ms: 10_801 });
        assert_eq!(restarted.next(10_801, 1, 0), issue(10_801, 0, 9));
    }

    #[test]
    fn a_full_millisecond_claims_one_more_id_which_joins_in_the_next() {
        let mut generators = Generators::new();
        generators.claimed(7, 90);
        generators.claimed(3, 90);
        // Sequence s on every id, ascending, before s + 1.
        assert_eq!(generators.next(100, 3, 0), issue(100, 0, 3));
        assert_eq!(generators.next(100, 3, 0), issue(100, 0, 7));
        assert_eq!(generators.next(100, 3, 0), issue(100, 1, 3));
        for _ in 3..128 {
            generators.next(100, 3, 0);
        }
        assert_eq!(generators.last, Some((100, SEQUENCE_MAX, 7)));
        // Full: one claim, then the wait; the new id 5 sits between the others from ms 101 on.
        assert_eq!(generators.next(100, 3, 0), Next::Claim);
        generators.claimed(5, 100);
        assert_eq!(generators.next(100, 3, 0), Next::WaitUntil { timestamp_ms: 101 });
        assert_eq!(generators.next(101, 3, 0), issue(101, 0, 3));
        assert_eq!(generators.next(101, 3, 0), issue(101, 0, 5));
        assert_eq!(generators.next(101, 3, 0), issue(101, 0, 7));
        for _ in 3..192 {
            generators.next(101, 3, 0);
        }
        // At the limit: no claim, just the wait.
        assert_eq!(generators.next(101, 3, 0), Next::WaitUntil { timestamp_ms: 102 });
        assert_eq!(generators.generators().collect::<Vec<_>>(), [3, 5, 7]);
    }

    #[test]
    fn an_id_claimed_while_the_clock_is_behind_joins_after_the_last_millisecond_used() {
        let mut generators = Generators::new();
        generators.claimed(9, 0);
        assert_eq!(generators.next(10_000, 2, 0), issue(10_000, 0, 9));
        // The clock steps back to 5000; the claim there must not land in ms 10,000 before sequence 1.
        generators.claimed(2, 5_000);
        assert_eq!(generators.next(5_000, 2, 0), issue(10_000, 1, 9));
        for _ in 2..=SEQUENCE_MAX {
            generators.next(5_000, 2, 0);
        }
        assert_eq!(generators.next(5_000, 2, 0), issue(10_001, 0, 2));
        assert_eq!(generators.next(5_000, 2, 0), issue(10_001, 0, 9));
    }

    #[test]
    fn a_failed_claim_waits_a_while_before_probing_again() {
        let mut generators = Generators::new();
        generators.claimed(1, 0);
        let mut clock = 1;
        let mut claims = 0;
        for _ in 0..(CLAIM_RETRY_FULL_MS as usize + 3) * 64 {
            loop {
                match generators.next(clock, 2, 0) {
                    Next::Issue { .. } => break,
                    Next::WaitUntil { timestamp_ms } => clock = timestamp_ms,
                    Next::Claim => {
                        claims += 1;
                        generators.claim_failed();
                    }
                }
            }
        }
        assert_eq!(claims, 2);
    }

    #[test]
    fn ids_lost_mid_millisecond_leave_the_order_intact() {
        let mut generators = Generators::new();
        for generator in [1, 2, 3] {
            generators.claimed(generator, 0);
        }
        assert_eq!(generators.next(10, 3, 0), issue(10, 0, 1));
        assert_eq!(generators.next(10, 3, 0), issue(10, 0, 2));
        generators.retain(|g| g != 3);
        assert_eq!(generators.next(10, 3, 0), issue(10, 1, 1));
        generators.retain(|_| false);
        assert_eq!(generators.next(10, 3, 0), Next::Claim);
        generators.claimed(3, 10);
        // Back again, 3 is usable only after ms 10, the last one used.
        assert_eq!(generators.next(10, 3, 0), Next::WaitUntil { timestamp_ms: 11 });
        assert_eq!(generators.next(11, 3, 0), issue(11, 0, 3));
    }

    /// Sessions claiming ids of one cluster id under [`may_claim`]: (role, database, superuser,
    /// ids held), and the sums by role and by database. A claim also needs a free id, as the lock
    /// manager's probe does.
    #[derive(Default)]
    struct Claimants {
        sessions: Vec<(u32, u32, bool, i32)>,
        all: i32,
        by_role: HashMap<u32, i32>,
        by_database: HashMap<u32, i32>,
        by_role_in_database: HashMap<(u32, u32), i32>,
    }

    impl Claimants {
        fn holdings(&self, role: u32, database: u32, session: i32) -> Holdings {
            Holdings {
                all: self.all,
                role: self.by_role.get(&role).copied().unwrap_or(0),
                database: self.by_database.get(&database).copied().unwrap_or(0),
                role_in_database: self.by_role_in_database.get(&(role, database)).copied().unwrap_or(0),
                session,
            }
        }

        /// Session `index` now holds `held` ids.
        fn hold(&mut self, index: usize, held: i32) {
            let (role, database, _, before) = self.sessions[index];
            let change = held - before;
            self.all += change;
            *self.by_role.entry(role).or_default() += change;
            *self.by_database.entry(database).or_default() += change;
            *self.by_role_in_database.entry((role, database)).or_default() += change;
            self.sessions[index].3 = held;
        }

        /// Session `index` claims one more id; a new session its first if `index` is past the end.
        fn claim(
            &mut self,
            index: usize,
            role: u32,
            database: u32,
            superuser: bool,
            share: i32,
        ) -> Result<(), Refusal> {
            let (role, database, superuser, session) =
                self.sessions.get(index).copied().unwrap_or((role, database, superuser, 0));
            let held = self.holdings(role, database, session);
            may_claim(held, share, superuser)?;
            if held.all >= GENERATOR_COUNT {
                return Err(Refusal::Kept { kept: 0 });
            }
            let index = index.min(self.sessions.len());
            if index == self.sessions.len() {
                self.sessions.push((role, database, superuser, 0));
            }
            self.hold(index, session + 1);
            Ok(())
        }

        /// Session `index` ends its transaction (keeping its first id) or itself.
        fn end(&mut self, index: usize, session_too: bool) {
            if let Some(&(_, _, _, held)) = self.sessions.get(index) {
                self.hold(index, if session_too { 0 } else { held.min(1) });
            }
        }
    }

    #[test]
    fn shares_reserves_and_headroom_at_their_bounds() {
        let share = GENERATOR_SHARE_DEFAULT;
        let held = |all, role, database, role_in_database, session| Holdings {
            all,
            role,
            database,
            role_in_database,
            session,
        };
        let database_kept = Refusal::DatabaseReserve { share, kept: 128 };
        // First ids: up to the share; in a database, a role that holds some there leaves its reserve.
        assert_eq!(database_reserve(share), 128);
        assert_eq!(may_claim(held(1000, 1023, 895, 5, 0), share, false), Ok(()));
        assert_eq!(may_claim(held(1000, 1023, 896, 5, 0), share, false), Err(database_kept));
        assert_eq!(may_claim(held(1000, 1024, 5, 5, 0), share, false), Err(Refusal::RoleShare { limit: 1024 }));
        // A role that holds none in the database takes its reserve, up to the share.
        assert_eq!(may_claim(held(1000, 5, 1023, 0, 0), share, false), Ok(()));
        assert_eq!(may_claim(held(1000, 5, 1024, 0, 0), share, false), Err(Refusal::DatabaseShare { limit: 1024 }));
        // Of the cluster id, ordinary first ids leave 128; a role that holds none leaves 8, for
        // superusers, whose first id ignores the shares and needs only one free.
        assert_eq!(may_claim(held(1919, 5, 5, 5, 0), share, false), Ok(()));
        assert_eq!(may_claim(held(1920, 5, 5, 5, 0), share, false), Err(Refusal::Kept { kept: FIRST_ID_RESERVE }));
        assert_eq!(may_claim(held(2039, 0, 5, 0, 0), share, false), Ok(()));
        assert_eq!(may_claim(held(2040, 0, 5, 0, 0), share, false), Err(Refusal::Kept { kept: SUPERUSER_RESERVE }));
        assert_eq!(may_claim(held(2047, 2047, 2047, 2047, 0), share, true), Ok(()));
        // Extra ids: up to half the role's share and half the database's less its reserve (384),
        // leaving a quarter of the ids free; superusers' too.
        assert_eq!(may_claim(held(100, 511, 383, 383, 3), share, false), Ok(()));
        assert_eq!(may_claim(held(100, 512, 5, 5, 3), share, true), Err(Refusal::RoleShare { limit: 512 }));
        assert_eq!(may_claim(held(100, 5, 384, 5, 3), share, false), Err(Refusal::DatabaseShare { limit: 384 }));
        assert_eq!(may_claim(held(1535, 5, 5, 5, 3), share, false), Ok(()));
        assert_eq!(may_claim(held(1536, 5, 5, 5, 3), share, false), Err(Refusal::Kept { kept: EXTRA_ID_HEADROOM }));
        // A share of 1 leaves no extra ids, and a share under 8 no database reserve.
        assert_eq!(may_claim(held(0, 0, 0, 0, 1), 1, false), Err(Refusal::RoleShare { limit: 0 }));
        assert_eq!(may_claim(held(6, 6, 6, 6, 0), 7, false), Ok(()));
    }

    #[test]
    fn the_issue_30_hoard_leaves_first_ids_for_others() {
        // 170 sessions of one role in one database, each trying for 16 ids in the middle of a bulk
        // (0.5.0 let them take all 2,048), then as many more sessions of it as there are ids.
        let mut claimants = Claimants::default();
        for session in 0..170 {
            for _ in 0..16 {
                let _ = claimants.claim(session, 1, 1, false, GENERATOR_SHARE_DEFAULT);
            }
        }
        let held = claimants.holdings(1, 1, 0);
        // Extra ids while the database holds under 384 (the first 24 sessions, 16 each), then
        // first ids only: 384 + 146.
        assert_eq!((held.all, held.role), (530, 530));
        let mut refused = None;
        for session in 170..GENERATOR_COUNT as usize {
            if let Err(refusal) = claimants.claim(session, 1, 1, false, GENERATOR_SHARE_DEFAULT) {
                refused = Some((session, refusal));
                break;
            }
        }
        // Refused with 896 held in its database (530 + 366 sessions), the last 128 of its share kept.
        let kept = Refusal::DatabaseReserve { share: GENERATOR_SHARE_DEFAULT, kept: 128 };
        assert_eq!(refused, Some((536, kept)));
        // Another role's first ids, in its database and in the hoarder's; a superuser's.
        assert_eq!(claimants.claim(usize::MAX, 2, 2, false, GENERATOR_SHARE_DEFAULT), Ok(()));
        assert_eq!(claimants.claim(usize::MAX, 2, 1, false, GENERATOR_SHARE_DEFAULT), Ok(()));
        assert_eq!(claimants.claim(usize::MAX, 2, 1, false, GENERATOR_SHARE_DEFAULT), Err(kept));
        assert_eq!(claimants.claim(usize::MAX, 0, 1, true, GENERATOR_SHARE_DEFAULT), Ok(()));
        // The hoarder in another database: up to its role's share.
        let mut refused = None;
        for session in 0..GENERATOR_COUNT as usize {
            if let Err(refusal) = claimants.claim(usize::MAX, 1, 3, false, GENERATOR_SHARE_DEFAULT) {
                refused = Some((session, refusal));
                break;
            }
        }
        assert_eq!(refused, Some((128, Refusal::RoleShare { limit: 1024 })));
    }

    #[test]
    fn many_roles_leave_ids_for_superusers() {
        // A share lifted to every id, ordinary first ids of one role over four databases up to the
        // 128 kept, then roles that hold none (as a role with CREATEROLE can make) one first id each.
        let share = GENERATOR_COUNT;
        let mut claimants = Claimants::default();
        for database in 0..4 {
            for _ in 0..480 {
                assert_eq!(claimants.claim(usize::MAX, 1, database, false, share), Ok(()));
            }
        }
        let kept = Refusal::Kept { kept: FIRST_ID_RESERVE };
        assert_eq!(claimants.claim(usize::MAX, 1, 4, false, share), Err(kept));
        let mut refused = None;
        for role in 2..200 {
            if let Err(refusal) = claimants.claim(usize::MAX, role, 5, false, share) {
                refused = Some((role, refusal));
                break;
            }
        }
        // 120 roles took 1920 to 2040; the 121st is refused, and superusers take the last 8.
        assert_eq!(refused, Some((122, Refusal::Kept { kept: SUPERUSER_RESERVE })));
        for _ in 0..8 {
            assert_eq!(claimants.claim(usize::MAX, 0, 5, true, share), Ok(()));
        }
        assert_eq!(claimants.claim(usize::MAX, 0, 5, true, share), Err(Refusal::Kept { kept: 0 }));
    }

    /// A transaction's end as `families::uid8` does it: every id but the lowest let go (returned).
    fn end_transaction(generators: &mut Generators) -> Vec<i32> {
        generators.transaction_ended();
        let extra: Vec<i32> = generators.generators().skip(1).collect();
        generators.retain(|g| !extra.contains(&g));
        extra
    }

    /// Three sessions taking turns on a pool of 6 ids, `turns` (session, clock step, calls, what
    /// ends after them: 0 nothing, 1 its transaction, more the session), running `run_ahead` ms ahead; a claim starts after the clock
    /// and, `with_high_water`, the last millisecond issued on the id. How many IDs came twice.
    fn hand_over_repeats(run_ahead: i64, turns: &[(usize, i64, usize, u8)], with_high_water: bool) -> usize {
        hand_over_repeats_paced(run_ahead, turns, with_high_water, &[], Reclaim::Never)
    }

    /// Whether a session claiming an id it let go itself takes it back usable at once.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Reclaim {
        Never,
        /// As `families::uid8` does: when the last millisecond the server saw issued on the id is
        /// still the last one this session issued on it.
        WhereNoneIssuedSince,
        /// Whatever was issued on it since: the control, which must repeat.
        Always,
    }

    /// `hand_over_repeats`, call n paced at `paces[n % len]` (`next_paced`; none when empty), each
    /// session's triples checked to strictly increase (a repeat too when they do not), ids a
    /// session let go at a transaction's end claimed back as `reclaim` says.
    fn hand_over_repeats_paced(
        run_ahead: i64,
        turns: &[(usize, i64, usize, u8)],
        with_high_water: bool,
        paces: &[i32],
        reclaim: Reclaim,
    ) -> usize {
        // Per session: the last millisecond it issued on each id, and the ids it let go with it.
        let mut mine: [HashMap<i32, i64>; 3] = Default::default();
        let mut let_go: [HashMap<i32, i64>; 3] = Default::default();
        let mut call = 0;
        let mut latest: [Option<(i64, i32, i32)>; 3] = [None; 3];
        let mut sessions = [Generators::new(), Generators::new(), Generators::new()];
        let mut free: Vec<i32> = (0..6).collect();
        let mut high: HashMap<i32, i64> = HashMap::new();
        let mut clock = 5_000;
        let mut seen = HashSet::new();
        let mut repeats = 0;
        for &(who, step, calls, end) in turns {
            clock += step;
            let session = &mut sessions[who];
            for _ in 0..calls {
                let paced = (!paces.is_empty()).then(|| paces[call % paces.len()]);
                call += 1;
                let issued = loop {
                    match session.next_paced(clock, paced, 2, run_ahead) {
                        Next::Issue { timestamp_ms, sequence, generator } => {
                            break Some((timestamp_ms, sequence, generator))
                        }
                        Next::WaitUntil { timestamp_ms } => clock = timestamp_ms,
                        Next::Claim if free.is_empty() && session.is_empty() => break None,
                        Next::Claim if free.is_empty() => session.claim_failed(),
                        Next::Claim => {
                            let generator = free.remove(0);
                            let last = if with_high_water { high.get(&generator).copied().unwrap_or(0) } else { 0 };
                            let own = let_go[who].get(&generator).is_some_and(|&ms| match reclaim {
                                Reclaim::Never => false,
                                Reclaim::WhereNoneIssuedSince => high.get(&generator) == Some(&ms),
                                Reclaim::Always => true,
                            });
                            if own {
                                session.reclaimed(generator);
                            } else {
                                session.claimed(generator, clock.max(last));
                            }
                        }
                    }
                };
                let Some(issued) = issued else { break };
                repeats += usize::from(latest[who].replace(issued).is_some_and(|before| before >= issued));
                let last = high.entry(issued.2).or_insert(issued.0);
                *last = (*last).max(issued.0);
                mine[who].insert(issued.2, issued.0);
                repeats += usize::from(!seen.insert(issued));
            }
            if end == 1 {
                // Its extra ids let go, claimed first by whoever claims next (or claimed back by it).
                let extra = end_transaction(session);
                for &g in &extra {
                    if let Some(&ms) = mine[who].get(&g) {
                        let_go[who].insert(g, ms);
                    }
                }
                free.splice(0..0, extra);
            } else if end > 1 {
                // Ids let go are claimed first: the next session takes them over.
                free.splice(0..0, session.generators());
                *session = Generators::new();
                latest[who] = None;
                mine[who].clear();
                let_go[who].clear();
            }
        }
        repeats
    }

    /// Two sessions on one id each in the clock's millisecond 100: A makes an id every 31.25 µs
    /// from its start, B starts half-way through and then alternates with A. The ids in the order
    /// they were made, paced or not.
    fn two_sessions_in_one_millisecond(paced: bool) -> Vec<i64> {
        let (mut a, mut b) = (Generators::new(), Generators::new());
        a.claimed(9, 99);
        b.claimed(2, 99);
        let mut issued = Vec::new();
        let mut call = |session: &mut Generators, now_us: i64| {
            let pace = paced.then(|| clock_sequence(now_us));
            let Next::Issue { timestamp_ms, sequence, generator } =
                session.next_paced(now_us / 1_000, pace, 1, RUN_AHEAD_MAX_MS)
            else {
                panic!("no id")
            };
            issued.push(
                Parts { timestamp_ms, sequence, generator, cluster: 0, mode: Mode::TimeSequential }.encode().unwrap(),
            );
        };
        for n in 0..16 {
            call(&mut a, 100_000 + n * 31);
        }
        for n in 16..32 {
            call(&mut b, 100_000 + n * 31);
            call(&mut a, 100_000 + n * 31 + 15);
        }
        issued
    }

    #[test]
    fn paced_sessions_issue_ids_about_in_the_order_they_make_them() {
        // Paced, B's first id (half-way through the millisecond) starts at sequence 31, above every
        // id A made before it, though B's generator id is lower; from then on every id is above
        // every one made before it: inserts at the right edge of the index.
        let paced = two_sessions_in_one_millisecond(true);
        assert_eq!(Parts::decode(paced[16]).sequence, 31);
        assert!(paced.windows(2).all(|pair| pair[0] < pair[1]), "{paced:?}");
        // The control: counted from 0, B's ids all fall behind the ids A made before them.
        let apart = two_sessions_in_one_millisecond(false);
        assert_eq!(Parts::decode(apart[16]).sequence, 0);
        assert!(apart[16] < apart[15]);
    }

    #[test]
    fn a_session_ahead_of_the_pace_claims_an_id_per_sequence() {
        let mut session = Generators::new();
        session.claimed(5, 99);
        // At the pace, or one ahead of it: no claim.
        assert_eq!(session.next_paced(100, Some(10), 4, 5), issue(100, 10, 5));
        assert_eq!(session.next_paced(100, Some(10), 4, 5), issue(100, 11, 5));
        // Two ahead: a claim. One claimed back serves the sequence under way, above the ids already
        // issued at it; the next sequence asks again, not this one.
        assert_eq!(session.next_paced(100, Some(10), 4, 5), Next::Claim);
        session.reclaimed(7);
        assert_eq!(session.next_paced(100, Some(10), 4, 5), issue(100, 11, 7));
        assert_eq!(session.next_paced(100, Some(10), 4, 5), issue(100, 12, 5));
        assert_eq!(session.next_paced(100, Some(10), 4, 5), issue(100, 12, 7));
        assert_eq!(session.next_paced(100, Some(10), 4, 5), Next::Claim);
        // An id claimed by the clock's rule serves the next millisecond only: the session goes on
        // with the two, and asks for no more while it waits.
        session.claimed(9, 100);
        for sequence in 13..=20 {
            assert_eq!(session.next_paced(100, Some(10), 4, 5), issue(100, sequence, 5));
            assert_eq!(session.next_paced(100, Some(10), 4, 5), issue(100, sequence, 7));
        }
        // In the next millisecond all three serve, and a claim ahead of the pace fails: none after it.
        assert_eq!(session.next_paced(101, Some(0), 4, 5), issue(101, 0, 5));
        assert_eq!(session.next_paced(101, Some(0), 4, 5), issue(101, 0, 7));
        assert_eq!(session.next_paced(101, Some(0), 4, 5), issue(101, 0, 9));
        assert_eq!(session.next_paced(101, Some(0), 4, 5), issue(101, 1, 5));
        assert_eq!(session.next_paced(101, Some(0), 4, 5), issue(101, 1, 7));
        assert_eq!(session.next_paced(101, Some(0), 4, 5), issue(101, 1, 9));
        assert_eq!(session.next_paced(101, Some(0), 4, 5), Next::Claim);
        session.claim_failed();
        for sequence in 2..=4 {
            for generator in [5, 7, 9] {
                assert_eq!(session.next_paced(101, Some(0), 4, 5), issue(101, sequence, generator));
            }
        }
        // Unpaced (spread ids, run-ahead 0), or at the limit: none either.
        let mut spread = Generators::new();
        spread.claimed(5, 99);
        for sequence in 0..=SEQUENCE_MAX {
            assert_eq!(spread.next_paced(100, None, 4, 5), issue(100, sequence, 5));
        }
        let mut at_limit = Generators::new();
        at_limit.claimed(5, 99);
        for sequence in 0..=SEQUENCE_MAX {
            assert_eq!(at_limit.next_paced(100, Some(0), 1, 5), issue(100, sequence, 5));
        }
        // A transaction that ended holding 3 ids: the next one claims 2 back at its first sequence
        // ahead of the pace, one after the other, and makes 3 IDs at that sequence.
        let mut warm = Generators::new();
        warm.claimed(5, 99);
        warm.reclaimed(6);
        warm.reclaimed(7);
        assert_eq!(end_transaction(&mut warm), vec![6, 7]);
        assert_eq!(warm.next_paced(200, Some(0), 4, 5), issue(200, 0, 5));
        assert_eq!(warm.next_paced(200, Some(0), 4, 5), issue(200, 1, 5));
        assert_eq!(warm.next_paced(200, Some(0), 4, 5), Next::Claim);
        warm.reclaimed(6);
        assert_eq!(warm.next_paced(200, Some(0), 4, 5), issue(200, 1, 6));
        assert_eq!(warm.next_paced(200, Some(0), 4, 5), Next::Claim);
        warm.reclaimed(7);
        assert_eq!(warm.next_paced(200, Some(0), 4, 5), issue(200, 1, 7));
        assert_eq!(warm.next_paced(200, Some(0), 4, 5), issue(200, 2, 5));
    }

    #[test]
    fn an_id_claimed_back_is_usable_at_once_only_if_none_was_issued_on_it_since() {
        // S1 holds id 0; S0 holds 1, claims 2 ahead of the pace and lets it go at its transaction's
        // end; S1 claims 2 and issues on it past S0's last millisecond there, and lets it go; S0
        // claims it back. The clock stands still: both run ahead of it.
        let turns = [(1, 0, 1, 0), (0, 0, 1, 0), (0, 0, 300, 1), (1, 0, 300, 1), (0, 0, 300, 1)];
        let run = |reclaim| hand_over_repeats_paced(RUN_AHEAD_MAX_MS, &turns, true, &[0], reclaim);
        assert_eq!(run(Reclaim::Never), 0);
        assert_eq!(run(Reclaim::WhereNoneIssuedSince), 0);
        // The control: taken back at once though S1 issued on it since, S0 repeats S1's IDs.
        assert!(run(Reclaim::Always) > 0);
        // Without S1 between, S0 takes it back at once and issues on it in the millisecond under way.
        let alone = [(1, 0, 1, 0), (0, 0, 1, 0), (0, 0, 300, 1), (0, 0, 300, 1)];
        assert_eq!(hand_over_repeats_paced(RUN_AHEAD_MAX_MS, &alone, true, &[0], Reclaim::WhereNoneIssuedSince), 0);
    }

    #[test]
    fn the_pace_applies_only_in_the_clocks_own_millisecond() {
        let mut session = Generators::new();
        session.claimed(5, 99);
        // 0 in the clock's millisecond 100, then 40: the next sequence starts there.
        assert_eq!(session.next_paced(100, Some(0), 1, 5), issue(100, 0, 5));
        assert_eq!(session.next_paced(100, Some(40), 1, 5), issue(100, 40, 5));
        // A sequence already past the pace goes on from there.
        assert_eq!(session.next_paced(100, Some(10), 1, 5), issue(100, 41, 5));
        // Full at 63: the next millisecond, ahead of the clock, from 0 whatever the pace.
        for sequence in 42..=SEQUENCE_MAX {
            assert_eq!(session.next_paced(100, Some(41), 1, 5), issue(100, sequence, 5));
        }
        assert_eq!(session.next_paced(100, Some(63), 1, 5), issue(101, 0, 5));
        // The clock in 101: the pace applies there.
        assert_eq!(session.next_paced(101, Some(20), 1, 5), issue(101, 20, 5));
        assert_eq!(clock_sequence(100_000), 0);
        assert_eq!(clock_sequence(100_015), 0);
        assert_eq!(clock_sequence(100_016), 1);
        assert_eq!(clock_sequence(100_999), SEQUENCE_MAX);
        assert_eq!(clock_sequence(-1), SEQUENCE_MAX);
    }

    #[test]
    fn a_claim_by_the_clock_alone_repeats_ids_run_ahead() {
        // The control for the hand-over property: a claimer that starts an id after the clock only
        // (0.3.0, which keeps nothing in shared memory) repeats what a session ran ahead on it.
        let turns = [(0, 0, 1000, 2), (1, 0, 1000, 2)];
        assert!(hand_over_repeats(RUN_AHEAD_MAX_MS, &turns, false) > 0);
        assert_eq!(hand_over_repeats(RUN_AHEAD_MAX_MS, &turns, true), 0);
        assert_eq!(hand_over_repeats(0, &turns, false), 0);
    }

    proptest! {
        #[test]
        fn encode_decode_round_trip(timestamp_ms in 0..TIMESTAMP_LIMIT, sequence in 0..=SEQUENCE_MAX,
                                    generator in 0..=GENERATOR_MAX, cluster in 0..=CLUSTER_MAX, spread: bool) {
            let mode = if spread { Mode::Spread } else { Mode::TimeSequential };
            let parts = Parts { timestamp_ms, sequence, generator, cluster, mode };
            prop_assert_eq!(Parts::decode(parts.encode().unwrap()), parts);
        }

        /// Any clock walk (standing still, advancing, stepping back), any limit, claims that
        /// succeed or fail, ids lost at any point: one session's TIME_SEQUENTIAL IDs strictly
        /// increase (so never repeat), and an id is used only after the millisecond of its claim.
        #[test]
        fn one_session_strictly_increases(limit in 1usize..6, run_ahead in prop_oneof![Just(0i64), 0..=RUN_AHEAD_MAX_MS],
                                          steps in proptest::collection::vec((-50i64..=3, 1usize..300, 0u8..20), 1..60)) {
            let mut generators = Generators::new();
            let mut clock = 10_000;
            let mut free: Vec<i32> = (0..8).collect();
            let mut claimed_at = HashMap::new();
            let mut previous: Option<i64> = None;
            for (step, calls, event) in steps {
                clock = (clock + step).max(0);
                match event {
                    // Every id lost (pg_advisory_unlock_all, a cluster id change): back to the pool.
                    0 => {
                        free.extend(generators.generators());
                        generators.retain(|_| false);
                    }
                    // One id lost.
                    1 => if let Some(g) = generators.generators().last() {
                        generators.retain(|h| h != g);
                        free.push(g);
                    },
                    // The pool runs dry for a while.
                    2 if !generators.is_empty() => free.clear(),
                    3 => free = (0..8).filter(|g| !generators.generators().any(|h| h == *g)).collect(),
                    // The transaction ends: every id but the lowest let go, claimed back at the next full millisecond.
                    4 => free.extend(end_transaction(&mut generators)),
                    _ => {}
                }
                for _ in 0..calls {
                    let (timestamp_ms, sequence, generator) =
                        draw_noting_claims(&mut generators, &mut clock, (limit, run_ahead), &mut free, &mut claimed_at);
                    prop_assert!(generators.len() <= limit);
                    prop_assert!(timestamp_ms > claimed_at[&generator], "id {} used in the ms of its claim", generator);
                    let id = Parts { timestamp_ms, sequence, generator, cluster: 3, mode: Mode::TimeSequential }
                        .encode()
                        .unwrap();
                    prop_assert!(previous.is_none_or(|p| id > p), "{:?} after {:?}", Parts::decode(id), previous.map(Parts::decode));
                    previous = Some(id);
                }
            }
        }

        /// One role, with any number of sessions in any of three databases, claiming first and
        /// extra ids and letting extras go at transaction ends in any order, under any share up
        /// to the default: it never holds more than its share, and another role in another
        /// database gets a first id for two sessions, and so does a superuser; from a share of 8
        /// on (a database reserve of one id or more), that role gets one in the first role's
        /// databases too.
        #[test]
        fn one_role_cannot_starve_others(share in 2..=GENERATOR_SHARE_DEFAULT,
                                         steps in proptest::collection::vec((0usize..1200, 0u32..3, 0u8..8), 1..3000)) {
            let mut claimants = Claimants::default();
            for (session, database, action) in steps {
                match action {
                    0 | 1 => claimants.end(session, action == 1),
                    _ => { let _ = claimants.claim(session, 1, database, false, share); }
                }
                prop_assert!(claimants.holdings(1, 9, 0).role <= share);
            }
            prop_assert_eq!(claimants.claim(usize::MAX, 2, 9, false, share), Ok(()));
            prop_assert_eq!(claimants.claim(usize::MAX, 2, 9, false, share), Ok(()));
            prop_assert_eq!(claimants.claim(usize::MAX, 0, 0, true, share), Ok(()));
            if share >= 8 {
                for database in 0..3 {
                    prop_assert_eq!(claimants.claim(usize::MAX, 2, database, false, share), Ok(()));
                }
            }
        }

        /// Up to eight roles over four databases and any share: whatever they claim, a
        /// superuser and a role that holds none still get a first id (the reserve is taken only
        /// by roles' first ids), and no role or database passes the share. From a share of 80 on
        /// (a database reserve past the eight roles' first ids in it), a role that holds none
        /// gets a first id in each of the four databases.
        #[test]
        fn several_roles_leave_the_reserve(share in 1..=GENERATOR_COUNT,
                                           steps in proptest::collection::vec((0usize..2500, 1u32..9, 0u32..4, 0u8..8), 1..4000)) {
            let mut claimants = Claimants::default();
            for (session, role, database, action) in steps {
                match action {
                    0 => claimants.end(session, false),
                    _ => { let _ = claimants.claim(session, role, database, false, share); }
                }
            }
            for id in 1..9 {
                prop_assert!(claimants.holdings(id, id, 0).role <= share);
                prop_assert!(claimants.holdings(id, id, 0).database <= share);
            }
            prop_assert!(claimants.holdings(0, 0, 0).all <= GENERATOR_COUNT - FIRST_ID_RESERVE + 8);
            prop_assert_eq!(claimants.claim(usize::MAX, 0, 0, true, share), Ok(()));
            prop_assert_eq!(claimants.claim(usize::MAX, 99, 99, false, share), Ok(()));
            if share >= 80 {
                for database in 0..4 {
                    prop_assert_eq!(claimants.claim(usize::MAX, 100 + database, database, false, share), Ok(()));
                }
            }
        }

        /// An application's pool in one database, its sessions bulk-loading in any order: up to
        /// half the default share of sessions all get their first id, whatever the bulks hold.
        #[test]
        fn an_app_pool_of_hundreds_of_sessions_gets_every_first_id(sessions in 1usize..=512,
                                                                    extras in proptest::collection::vec(0usize..512, 0..3000)) {
            let mut claimants = Claimants::default();
            let mut extras = extras.into_iter();
            for session in 0..sessions {
                prop_assert_eq!(claimants.claim(session, 1, 1, false, GENERATOR_SHARE_DEFAULT), Ok(()));
                for other in extras.by_ref().take(6) {
                    let _ = claimants.claim(other.min(session), 1, 1, false, GENERATOR_SHARE_DEFAULT);
                }
            }
        }

        /// Under a clock that never steps back, with ids claimed at the clock and the last
        /// millisecond issued on them (the server's HIGH_WATER), every ID lies at most the bound past
        /// the clock it was issued at, whatever the calls' pace, limit or bound.
        #[test]
        fn run_ahead_stays_within_its_bound(limit in 1usize..5, run_ahead in 0..=RUN_AHEAD_MAX_MS,
                                            turns in proptest::collection::vec((0i64..=3, 1usize..2000), 1..40)) {
            let mut generators = Generators::new();
            let mut free: Vec<i32> = (0..8).collect();
            let mut clock = 5_000;
            for (step, calls) in turns {
                clock += step;
                for _ in 0..calls {
                    let (timestamp_ms, _, _) =
                        draw_noting_claims(&mut generators, &mut clock, (limit, run_ahead), &mut free, &mut HashMap::new());
                    prop_assert!(timestamp_ms >= clock && timestamp_ms - clock <= run_ahead,
                                 "ms {} with the clock at {} and a bound of {}", timestamp_ms, clock, run_ahead);
                }
            }
        }

        /// Sessions running ahead and handing ids over as they end, each claim starting after the
        /// last millisecond issued on the id (HIGH_WATER) or the clock, whichever is later: no
        /// (ms, sequence, generator) twice.
        #[test]
        fn sessions_running_ahead_hand_ids_over_without_a_repeat(run_ahead in 1..=RUN_AHEAD_MAX_MS,
                turns in proptest::collection::vec((0usize..3, 0i64..=2, 1usize..400, 0u8..3), 1..80)) {
            prop_assert_eq!(hand_over_repeats(run_ahead, &turns, true), 0);
        }
        /// The same, each call paced at any sequence (the server's time_sequential ids, at the
        /// clock's pace through its millisecond): pacing only skips sequences, so no triple comes
        /// twice and each session's still strictly increase.
        #[test]
        fn paced_sessions_hand_ids_over_without_a_repeat(run_ahead in 0..=RUN_AHEAD_MAX_MS,
                turns in proptest::collection::vec((0usize..3, 0i64..=2, 1usize..400, 0u8..3), 1..80),
                paces in proptest::collection::vec(0..=SEQUENCE_MAX, 1..50)) {
            prop_assert_eq!(hand_over_repeats_paced(run_ahead, &turns, true, &paces, Reclaim::Never), 0);
            prop_assert_eq!(hand_over_repeats_paced(run_ahead, &turns, true, &paces, Reclaim::WhereNoneIssuedSince), 0);
        }
        /// A session that makes at most one id in each 64th of a millisecond, paced, never fills a
        /// millisecond: it never claims a second id, never runs ahead of the clock and never waits.
        #[test]
        fn a_session_no_faster_than_the_pace_stays_at_the_clock(start in 0i64..1_000_000,
                gaps in proptest::collection::vec(16i64..5_000, 1..500)) {
            let mut session = Generators::new();
            session.claimed(3, start / 1_000 - 1);
            let mut now_us = start;
            for gap in gaps {
                let next = session.next_paced(now_us / 1_000, Some(clock_sequence(now_us)), 1, RUN_AHEAD_MAX_MS);
                prop_assert!(matches!(next, Next::Issue { timestamp_ms, .. } if timestamp_ms == now_us / 1_000),
                    "{:?} at {} µs", next, now_us);
                now_us += gap;
            }
        }
        /// Sessions sharing a pool of ids under a clock that never steps back, handing ids over
        /// as they end and start again: no (ms, sequence, generator) is ever issued twice.
        #[test]
        fn sessions_handing_ids_over_never_repeat(limit in 1usize..5,
                                                  turns in proptest::collection::vec((0usize..3, 0i64..=2, 1usize..200, any::<bool>()), 1..80)) {
            let mut sessions = [Generators::new(), Generators::new(), Generators::new()];
            let mut free: Vec<i32> = (0..6).collect();
            let mut clock = 5_000;
            let mut seen = HashSet::new();
            for (who, step, calls, ends) in turns {
                clock += step;
                let session = &mut sessions[who];
                for _ in 0..calls {
                    if session.is_empty() && free.is_empty() {
                        break;
                    }
                    let issued = draw(session, &mut clock, limit, &mut free);
                    prop_assert!(seen.insert(issued), "issued twice: {:?}", issued);
                }
                if ends {
                    free.extend(session.generators());
                    *session = Generators::new();
                }
            }
        }
    }
}
