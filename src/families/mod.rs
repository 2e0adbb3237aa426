//! The SQL surface of each family: argument checks, Datum conversion and the generators' locking,
//! one file per family, over the rules.

pub mod comb;
pub mod mask;
pub mod muid;
pub mod sno;
pub mod sqlserver_order;
pub mod text;
pub mod uid8;
