//! The server machinery the generators share: named shared memory, marks on disk, the server's
//! identity and the copy and promotion checks (and copies running beside their source), clock waits, the standby refusal and the watermarks.

pub mod clock_wait;
pub mod high_water;
pub mod identity;
pub mod installed;
pub mod latch;
pub mod live_copies;
pub mod mask_key;
pub mod marks;
pub mod promotion;
pub mod shmem;
pub mod standby;
pub mod watermark;
