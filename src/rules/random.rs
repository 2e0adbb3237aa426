//! Per-process CSPRNG. PostgreSQL forks every backend from the postmaster; an RNG seeded before the
//! fork (say, by a preloaded library) would hand every backend the same stream. The RNG therefore
//! remembers the process it was seeded in and reseeds from the OS when asked from another one.
//! A clone of a whole machine's memory (a VM fork, CRIU, a restore with memory) copies the stream
//! with the same pid, where no check can see it; so the stream also takes a fresh seed from the OS
//! every `DRAWS_PER_SEED` draws, and two such clones part within that many values (the kernel's
//! generator is itself reseeded on a VM fork where the hypervisor says so: vmgenid).

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};

/// Draws of 16 bytes between two seeds from the OS: 16 fill one ChaCha buffer (256 bytes), so a
/// fresh seed costs a `getrandom` call and no block that is thrown away.
pub const DRAWS_PER_SEED: u32 = 16;

pub struct ProcessRng {
    seeded_in: i32,
    draws_left: u32,
    rng: StdRng,
}

impl ProcessRng {
    pub fn new(pid: i32) -> Self {
        ProcessRng { seeded_in: pid, draws_left: DRAWS_PER_SEED, rng: StdRng::from_os_rng() }
    }

    /// A fresh seed from the OS, in place (off the path of the other draws).
    #[cold]
    #[inline(never)]
    fn reseed(&mut self) {
        self.rng = StdRng::from_os_rng();
        self.draws_left = DRAWS_PER_SEED;
    }

    /// The generator for process `pid`, reseeded first if it was seeded in another process.
    #[inline]
    pub fn for_process(&mut self, pid: i32) -> &mut StdRng {
        if self.seeded_in != pid {
            *self = ProcessRng::new(pid);
        }
        &mut self.rng
    }

    /// 16 bytes for process `pid`, from a seed at most `DRAWS_PER_SEED` draws old.
    #[inline(always)]
    pub fn bytes16(&mut self, pid: i32) -> [u8; 16] {
        if self.draws_left == 0 {
            self.reseed();
        }
        self.draws_left -= 1;
        let mut out = [0u8; 16];
        self.for_process(pid).fill_bytes(&mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reseeds_when_the_process_changes() {
        let mut parent = ProcessRng::new(1);
        // Two copies of the parent's state, as a fork would leave them.
        let mut copy_in_same_process =
            ProcessRng { seeded_in: 1, draws_left: parent.draws_left, rng: parent.rng.clone() };
        let mut copy_in_child = ProcessRng { seeded_in: 1, draws_left: parent.draws_left, rng: parent.rng.clone() };
        let from_parent = parent.bytes16(1);
        // The hazard: an unreseeded copy repeats the parent's stream.
        assert_eq!(copy_in_same_process.bytes16(1), from_parent);
        // Asked from another pid, the copy reseeds and diverges.
        assert_ne!(copy_in_child.bytes16(2), from_parent);
        assert_eq!(copy_in_child.seeded_in, 2);
    }

    /// A memory clone: the same state in the same pid. The two streams part at the next seed, at
    /// most `DRAWS_PER_SEED` draws on, and never meet again in those draws' 128 random bits each.
    #[test]
    fn a_memory_clone_parts_within_draws_per_seed() {
        let mut original = ProcessRng::new(7);
        original.bytes16(7); // mid-way through a seed's draws, as a running backend is
        let mut clone = ProcessRng { seeded_in: 7, draws_left: original.draws_left, rng: original.rng.clone() };
        let mut same = 0;
        for _ in 0..DRAWS_PER_SEED * 4 {
            if original.bytes16(7) == clone.bytes16(7) {
                same += 1;
            }
        }
        assert_eq!(same, DRAWS_PER_SEED - 1, "equal only until the first fresh seed");
    }
}
