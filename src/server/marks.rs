//! SQL surface of the generators' marks on disk (`high_water`): `comb_ext_marks()`, each family's
//! mark next to the clock, for monitoring and for the recovery steps in docs/guarantees.md ("Marks on
//! disk").

use crate::postgres::timestamptz;
use crate::rules::{muid, sno, time, uid8, watermark};
use crate::server::high_water::{self, MarkFile};
use pgrx::datum::Interval;
use pgrx::prelude::*;

/// One row per file the extension keeps in `comb_ext/`, read now, with the wall clock: the marks of
/// sno, muid and uid8 (0.4.0's too while one is left) and the watermarks' floor once it exists (what a
/// start would resume from, and why it would refuse to), the identity record (0.5.0's origin while
/// one is left), and one per prepared transaction's holdings (filtered as `comb_watermark_holders()`
/// is: `watermark::prepared_files_shown`).
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
        (
            "watermark",
            high_water::mark_files::<watermark::Floor>()
                .into_iter()
                .filter(|f| f.record.is_some() || f.problem.is_some())
                .collect(),
        ),
        ("identity", high_water::record_files()),
        ("prepared", crate::server::watermark::prepared_files_shown()),
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
