//! What talks to PostgreSQL itself for every family: ERROR reports, `timestamptz` conversion, enum
//! arguments, planner and sort support, btree comparators without pgrx's wrapper, settings read per
//! call, and every difference between majors (`compat`).

pub mod btree_cmp;
pub mod compat;
pub mod enum_arg;
pub mod errors;
pub mod planner;
pub mod setting;
pub mod sort_support;
pub mod timestamptz;
