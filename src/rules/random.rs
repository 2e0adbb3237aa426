//! Per-process CSPRNG. PostgreSQL forks every backend from the postmaster; an RNG seeded before the
//! fork (say, by a preloaded library) would hand every backend the same stream. The RNG therefore
//! remembers the process it was seeded in and reseeds from the OS when asked from another one.

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};

pub struct ProcessRng {
    seeded_in: i32,
    rng: StdRng,
}

impl ProcessRng {
    pub fn new(pid: i32) -> Self {
        ProcessRng { seeded_in: pid, rng: StdRng::from_os_rng() }
    }

    /// The generator for process `pid`, reseeded first if it was seeded in another process.
    #[inline]
    pub fn for_process(&mut self, pid: i32) -> &mut StdRng {
        if self.seeded_in != pid {
            *self = ProcessRng::new(pid);
        }
        &mut self.rng
    }

    #[inline]
    pub fn bytes16(&mut self, pid: i32) -> [u8; 16] {
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
        let mut copy_in_same_process = ProcessRng { seeded_in: 1, rng: parent.rng.clone() };
        let mut copy_in_child = ProcessRng { seeded_in: 1, rng: parent.rng.clone() };
        let from_parent = parent.bytes16(1);
        // The hazard: an unreseeded copy repeats the parent's stream.
        assert_eq!(copy_in_same_process.bytes16(1), from_parent);
        // Asked from another pid, the copy reseeds and diverges.
        assert_ne!(copy_in_child.bytes16(2), from_parent);
        assert_eq!(copy_in_child.seeded_in, 2);
    }
}
