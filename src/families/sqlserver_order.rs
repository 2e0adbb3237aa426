//! SQL Server `uniqueidentifier` order for `uuid`: the comparison functions behind the btree
//! operator class `uuid_sqlserver_ops` (sql/sqlserver_order.sql), and its sort support.

use crate::postgres::btree_cmp::{btree_cmp, value_bytes};
use crate::postgres::sort_support::Abbreviate;
use crate::rules::order::Order;
use pgrx::prelude::*;
use pgrx::{pg_sys, Internal, Uuid};
use std::cmp::Ordering;
use std::ffi::c_int;

fn cmp(a: &Uuid, b: &Uuid) -> Ordering {
    Order::SqlServer.cmp(a, b)
}

// Btree support function 1, `uuid_sqlserver_cmp(a, b)` (declared in sql/sqlserver_order.sql): -1, 0
// or 1 as `a` sorts before, with or after `b` in SQL Server, without pgrx's wrapper.
btree_cmp!(uuid_sqlserver_cmp_wrapper, pg_finfo_uuid_sqlserver_cmp_wrapper, 16, |a, b| Order::SqlServer.cmp(a, b));

/// The functions behind the operators #<#, #<=#, #>=# and #>#.
macro_rules! sqlserver_operators {
    ($($name:ident => $holds:ident),*) => {$(
        #[pg_extern(immutable, strict, parallel_safe)]
        fn $name(a: Uuid, b: Uuid) -> bool {
            cmp(&a, &b).$holds()
        }
    )*};
}

sqlserver_operators!(uuid_sqlserver_lt => is_lt, uuid_sqlserver_le => is_le, uuid_sqlserver_ge => is_ge, uuid_sqlserver_gt => is_gt);

/// The uuid whose native (byte) order is `id`'s SQL Server order: its bytes most significant first.
/// For an expression index, ORDER BY or partition bounds without the operator class; the SQL edition
/// (portable/), which cannot create one, has the same function, so SQL moves between the two.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_sqlserver_key(id: Uuid) -> Uuid {
    Uuid::from_bytes(Order::SqlServer.key(&id).to_be_bytes())
}

/// The same for the `binary` formats' order (.NET `Guid.ToByteArray()` compared as raw bytes).
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_binary_key(id: Uuid) -> Uuid {
    Uuid::from_bytes(Order::DotNetBytes.key(&id).to_be_bytes())
}

/// Full comparator. It only reads bytes, so nothing here can raise an error or panic.
unsafe extern "C-unwind" fn sqlserver_fastcmp(a: pg_sys::Datum, b: pg_sys::Datum, _ssup: pg_sys::SortSupport) -> c_int {
    Order::SqlServer.cmp(value_bytes(a), value_bytes(b)) as c_int
}

/// Abbreviated key: the eight bytes SQL Server compares first (10-15, 8, 9) as one unsigned integer.
struct SqlServerKey;

impl Abbreviate for SqlServerKey {
    /// The leading bytes hold the time and a counter or random bits: no reference needed.
    type Reference = ();

    unsafe fn reference(_: pg_sys::Datum) {}

    unsafe fn key(datum: pg_sys::Datum, _: &()) -> u64 {
        Order::SqlServer.abbreviated(value_bytes(datum))
    }
}

/// Btree support function 2: sort support with abbreviated keys.
#[pg_extern(immutable, strict, parallel_safe)]
fn uuid_sqlserver_sortsupport(ssup: Internal) {
    crate::postgres::sort_support::install::<SqlServerKey>(ssup, sqlserver_fastcmp);
}
