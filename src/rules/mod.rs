//! Pure Rust: every byte layout, clock rule and generator state machine of the extension.
//! Nothing here touches PostgreSQL, so all of it is unit- and property-tested with plain `cargo test`.
//! Times are `i64` microseconds since 1970-01-01 00:00:00 UTC ("unix µs") throughout.

pub mod comb;
pub mod high_water;
pub mod identity;
pub mod mask;
pub mod muid;
pub mod order;
pub mod random;
pub mod range;
pub mod sno;
pub mod text;
pub mod time;
pub mod uid8;
pub mod watermark;
