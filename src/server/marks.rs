//! SQL surface of the generators' marks on disk (`high_water`): `comb_ext_marks()`, each family's
//! mark next to the clock, for monitoring and for the recovery steps in docs/guarantees.md ("Marks on
//! disk").

use crate::postgres::timestamptz;
use crate::rules::{muid, sno, time, uid8};
use crate::server::high_water::{self, MarkFile};
use pgrx::datum::Interval;
use pgrx::prelude::*;

/// One row per mark file of sno, muid and uid8 (0.4.0's too while one is left), read now, with the
/// wall clock: what a start would resume from, and why it would refuse to.
#[pg_extern(volatile, parallel_safe)]
#[allow(clippy::type_complexity)] // pgrx reads the columns from this tuple
fn comb_ext_marks() -> TableIterator<
    'static,
    (
        name!(family, String),
        name!(file, String),
        name!(mark, Option<TimestampWithTimeZone>),
        name!(clock, TimestampWithTimeZone),
        name!(ahead, Option<Interval>),
        name!(record, Option<Vec<i64>>),
        name!(problem, Option<String>),
    ),
> {
    let clock_us = time::wall_clock_unix_us();
    let families = [
        ("sno", high_water::mark_files::<sno::Generator>()),
        ("muid", high_water::mark_files::<muid::Timeline>()),
        ("uid8", high_water::mark_files::<uid8::Reservation>()),
    ];
    let rows: Vec<_> = families
        .into_iter()
        .flat_map(|(family, files)| files.into_iter().map(move |file| (family, file)))
        .map(|(family, MarkFile { file, record, reservation_unix_us, problem })| {
            // A mark outside timestamptz's range (a damaged file) shows as NULL, with its record.
            let mark =
                reservation_unix_us.and_then(|us| TimestampWithTimeZone::try_from(time::pg_from_unix_us(us)).ok());
            let ahead =
                mark.and(reservation_unix_us).and_then(|us| Interval::new(0, 0, us.saturating_sub(clock_us)).ok());
            (family.to_string(), file, mark, timestamptz::from_unix_us(clock_us), ahead, record, problem)
        })
        .collect();
    TableIterator::new(rows)
}
