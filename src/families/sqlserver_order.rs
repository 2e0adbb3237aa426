//! The two GUID orders other systems sort `uuid` in: SQL Server's `uniqueidentifier` order and .NET's
//! `Guid.ToByteArray()` bytes compared raw (the `binary` formats'): the comparison functions behind the
//! btree operator classes `uuid_sqlserver_ops` and `uuid_binary_ops` (sql/sqlserver_order.sql), their
//! sort support, and the key functions whose native order is each.

use crate::postgres::btree_cmp::{btree_cmp, value_bytes};
use crate::postgres::sort_support::Abbreviate;
use crate::rules::order::Order;
use pgrx::prelude::*;
use pgrx::{pg_sys, Internal, Uuid};
use std::ffi::c_int;

// Btree support function 1 of each class, `uuid_sqlserver_cmp(a, b)` and `uuid_binary_cmp(a, b)`: -1,
// 0 or 1 as `a` sorts before, with or after `b`, without pgrx's wrapper. The SQL Server one keeps the
// symbol its pgrx form had (every earlier version's script names it).
btree_cmp!(uuid_sqlserver_cmp_wrapper, pg_finfo_uuid_sqlserver_cmp_wrapper, 16, |a, b| Order::SqlServer.cmp(a, b));
btree_cmp!(uuid_binary_cmp, pg_finfo_uuid_binary_cmp, 16, |a, b| Order::DotNetBytes.cmp(a, b));

/// The functions behind an order's operators: SQL Server's #<#, #<=#, #>=# and #>#, and the
/// `binary` formats' ~<~, ~<=~, ~>=~ and ~>~.
macro_rules! order_operators {
    ($order:expr; $($name:ident => $holds:ident),*) => {$(
        #[pg_extern(immutable, strict, parallel_safe)]
        fn $name(a: Uuid, b: Uuid) -> bool {
            $order.cmp(&a, &b).$holds()
        }
    )*};
}

order_operators!(Order::SqlServer; uuid_sqlserver_lt => is_lt, uuid_sqlserver_le => is_le, uuid_sqlserver_ge => is_ge, uuid_sqlserver_gt => is_gt);
order_operators!(Order::DotNetBytes; uuid_binary_lt => is_lt, uuid_binary_le => is_le, uuid_binary_ge => is_ge, uuid_binary_gt => is_gt);

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

/// Each class's sort support: a full comparator, and abbreviated keys of the eight bytes the order
/// compares first (SQL Server: 10-15, 8, 9; .NET's bytes: 3, 2, 1, 0, 5, 4, 7, 6) as one unsigned
/// integer. Both only read bytes, so nothing here can raise an error or panic.
macro_rules! order_sort_support {
    ($order:expr, $function:ident, $full:ident, $key:ident) => {
        unsafe extern "C-unwind" fn $full(a: pg_sys::Datum, b: pg_sys::Datum, _ssup: pg_sys::SortSupport) -> c_int {
            $order.cmp(value_bytes(a), value_bytes(b)) as c_int
        }

        struct $key;

        impl Abbreviate for $key {
            /// The leading bytes hold the time and a counter or random bits: no reference needed.
            type Reference = ();

            unsafe fn reference(_: pg_sys::Datum) {}

            unsafe fn key(datum: pg_sys::Datum, _: &()) -> u64 {
                $order.abbreviated(value_bytes(datum))
            }
        }

        /// Btree support function 2: sort support with abbreviated keys.
        #[pg_extern(immutable, strict, parallel_safe)]
        fn $function(ssup: Internal) {
            crate::postgres::sort_support::install::<$key>(ssup, $full);
        }
    };
}

order_sort_support!(Order::SqlServer, uuid_sqlserver_sortsupport, sqlserver_fastcmp, SqlServerKey);
order_sort_support!(Order::DotNetBytes, uuid_binary_sortsupport, binary_fastcmp, BinaryKey);
