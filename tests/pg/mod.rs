// Included into the extension's `tests` schema module (src/lib.rs) when built with `pg_test`:
// #[pg_test] functions must sit directly in that module, so each family's file is included flat.
use pgrx::prelude::*;

include!("comb.rs");
include!("sqlserver_order.rs");
include!("sno.rs");
include!("muid.rs");
include!("uid8.rs");
