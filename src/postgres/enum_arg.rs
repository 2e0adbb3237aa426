//! Enum arguments read without pgrx's per-call catalog look-up and `String` allocation (pgrx's
//! conversion runs `SearchSysCache(ENUMOID)` and copies the label: about 100 ns a call). The enum
//! value's OID maps to its Rust value through a per-backend cache, filled on first sight by pgrx's
//! own conversion, so a label is read from the catalog once per backend and OID.

/// `enum_arg!(Name, sql_enum, Value, "sql_enum")` declares `Name(Value)`: an argument of SQL type
/// `sql_enum` (a `PostgresEnum` with `From<sql_enum> for Value`), read through the cache above. A
/// NULL is refused as pgrx refuses one for a strict argument.
macro_rules! enum_arg {
    ($(#[$doc:meta])* $name:ident, $sql_enum:ty, $value:ty, $sql_name:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub struct $name(pub $value);

        impl pgrx::FromDatum for $name {
            unsafe fn from_polymorphic_datum(
                datum: pgrx::pg_sys::Datum,
                is_null: bool,
                typoid: pgrx::pg_sys::Oid,
            ) -> Option<Self> {
                thread_local! {
                    static SEEN: std::cell::RefCell<Vec<(pgrx::pg_sys::Oid, $value)>> =
                        const { std::cell::RefCell::new(Vec::new()) };
                }
                if is_null {
                    return None;
                }
                let oid = unsafe { <pgrx::pg_sys::Oid as pgrx::FromDatum>::from_datum(datum, false)? };
                if let Some(value) = SEEN.with_borrow(|seen| seen.iter().find(|(o, _)| *o == oid).map(|(_, v)| *v)) {
                    return Some($name(value));
                }
                let value = <$value>::from(unsafe {
                    <$sql_enum as pgrx::FromDatum>::from_polymorphic_datum(datum, false, typoid)?
                });
                SEEN.with_borrow_mut(|seen| seen.push((oid, value)));
                Some($name(value))
            }
        }

        unsafe impl<'fcx> pgrx::callconv::ArgAbi<'fcx> for $name {
            unsafe fn unbox_arg_unchecked(arg: pgrx::callconv::Arg<'_, 'fcx>) -> Self {
                // SAFETY: pgrx calls this only for an argument of the SQL type declared below.
                unsafe { $crate::postgres::errors::strict_arg(arg) }
            }
        }

        unsafe impl pgrx::pgrx_sql_entity_graph::metadata::SqlTranslatable for $name {
            const TYPE_IDENT: &'static str =
                <$sql_enum as pgrx::pgrx_sql_entity_graph::metadata::SqlTranslatable>::TYPE_IDENT;
            const TYPE_ORIGIN: pgrx::pgrx_sql_entity_graph::metadata::TypeOrigin =
                pgrx::pgrx_sql_entity_graph::metadata::TypeOrigin::ThisExtension;
            const ARGUMENT_SQL: Result<
                pgrx::pgrx_sql_entity_graph::metadata::SqlMappingRef,
                pgrx::pgrx_sql_entity_graph::metadata::ArgumentError,
            > = Ok(pgrx::pgrx_sql_entity_graph::metadata::SqlMappingRef::literal($sql_name));
            const RETURN_SQL: Result<
                pgrx::pgrx_sql_entity_graph::metadata::ReturnsRef,
                pgrx::pgrx_sql_entity_graph::metadata::ReturnsError,
            > = Ok(pgrx::pgrx_sql_entity_graph::metadata::ReturnsRef::One(
                pgrx::pgrx_sql_entity_graph::metadata::SqlMappingRef::literal($sql_name),
            ));
        }

        impl From<$name> for $value {
            fn from(arg: $name) -> $value {
                arg.0
            }
        }
    };
}

pub(crate) use enum_arg;
