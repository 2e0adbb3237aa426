//! Planner support: `comb_in_range(id, lower, upper, format)` is simplified into the comparisons
//! `id >= B(lower) AND id < B(upper)`, with the operators of the btree operator family that sorts
//! in the format's order (uuid's own for the postgresql formats, `uuid_sqlserver_ops` for the SQL
//! Server ones). Every part of the planner that reads comparisons then serves it: btree and BRIN
//! index scans, and plan-time and run-time partition pruning. With constant times the bounds are
//! constants; otherwise `comb_range_lower`/`comb_range_upper`, which are NULL when either time is,
//! so the rewrite is NULL exactly when the call is. Every function and operator family used is
//! checked to be a member of the extension (`member_of`): a name alone could be anyone's.

use crate::rules::comb::Format;
use crate::rules::order::Order;
use pgrx::datum::TimestampWithTimeZone;
use pgrx::{pg_sys, FromDatum, Internal, IntoDatum, Uuid};
use std::ffi::CStr;

unsafe fn is_a(node: *mut pg_sys::Node, tag: pg_sys::NodeTag) -> bool {
    !node.is_null() && (*node).type_ == tag
}

unsafe fn list_nth(list: *mut pg_sys::List, n: usize) -> *mut pg_sys::Node {
    (*(*list).elements.add(n)).ptr_value.cast()
}

unsafe fn list_of_two(a: *mut std::ffi::c_void, b: *mut std::ffi::c_void) -> *mut pg_sys::List {
    pg_sys::list_make2_impl(
        pg_sys::NodeTag::T_List,
        pg_sys::ListCell { ptr_value: a },
        pg_sys::ListCell { ptr_value: b },
    )
}

unsafe fn list_of_three(
    a: *mut std::ffi::c_void,
    b: *mut std::ffi::c_void,
    c: *mut std::ffi::c_void,
) -> *mut pg_sys::List {
    pg_sys::list_make3_impl(
        pg_sys::NodeTag::T_List,
        pg_sys::ListCell { ptr_value: a },
        pg_sys::ListCell { ptr_value: b },
        pg_sys::ListCell { ptr_value: c },
    )
}

unsafe fn copy<T>(node: *mut T) -> *mut T {
    pg_sys::copyObjectImpl(node.cast()).cast()
}

/// `schema.name` as the qualified-name list catalog look-ups take.
unsafe fn qualified_name(schema: pg_sys::Oid, name: &CStr) -> Option<*mut pg_sys::List> {
    let schema = pg_sys::get_namespace_name(schema);
    (!schema.is_null()).then(|| {
        list_of_two(pg_sys::makeString(schema).cast(), pg_sys::makeString(pg_sys::pstrdup(name.as_ptr())).cast())
    })
}

/// `object` (of catalog `class`) if it is a member of `extension`. A name found in the extension's
/// schema is not enough: anyone with CREATE there can add an object of that name, and the planner
/// would then call it as whoever runs the query (a catalog at an earlier version lacks some
/// functions this library looks for).
unsafe fn member_of(extension: pg_sys::Oid, class: pg_sys::Oid, object: pg_sys::Oid) -> Option<pg_sys::Oid> {
    (object != pg_sys::InvalidOid && pg_sys::getExtensionOfObject(class, object) == extension).then_some(object)
}

/// The btree operator family on uuid that sorts in `order`: uuid's default one, or this
/// extension's own `uuid_sqlserver_ops` or `uuid_binary_ops` (in `schema`, the extension's; a catalog
/// at a version without the family keeps the call).
unsafe fn family_of_order(order: Order, schema: pg_sys::Oid, extension: pg_sys::Oid) -> Option<pg_sys::Oid> {
    let own = |name: &CStr| -> Option<pg_sys::Oid> {
        let family = pg_sys::get_opfamily_oid(pg_sys::BTREE_AM_OID, qualified_name(schema, name)?, true);
        member_of(extension, pg_sys::OperatorFamilyRelationId, family)
    };
    let family = match order {
        Order::Bytes => pg_sys::get_opclass_family(pg_sys::GetDefaultOpClass(pg_sys::UUIDOID, pg_sys::BTREE_AM_OID)),
        Order::SqlServer => own(c"uuid_sqlserver_ops")?,
        Order::DotNetBytes => own(c"uuid_binary_ops")?,
    };
    (family != pg_sys::InvalidOid).then_some(family)
}

/// A non-NULL constant's datum.
unsafe fn constant(node: *mut pg_sys::Node) -> Option<pg_sys::Datum> {
    let constant = node.cast::<pg_sys::Const>();
    (is_a(node, pg_sys::NodeTag::T_Const) && !(*constant).constisnull).then(|| (*constant).constvalue)
}

/// The call a `SupportRequestSimplify` asks about, and its (non-empty) argument list.
///
/// SAFETY: `request` must be the argument PostgreSQL passes to a planner support function.
unsafe fn call_to_simplify(request: Internal) -> Option<(*mut pg_sys::FuncExpr, *mut pg_sys::List)> {
    let node = request.unwrap()?.cast_mut_ptr::<pg_sys::Node>();
    if !is_a(node, pg_sys::NodeTag::T_SupportRequestSimplify) {
        return None;
    }
    let call = (*node.cast::<pg_sys::SupportRequestSimplify>()).fcall;
    let args = (*call).args;
    (!args.is_null() && (*args).length > 0).then_some((call, args))
}

/// The expression replacing a `comb_in_range` call, or `None` to keep the call.
/// `bound_of` computes `comb_range_bound(ts, format)`.
///
/// SAFETY: `request` must be the argument PostgreSQL passes to a planner support function.
pub unsafe fn in_range_simplified(
    request: Internal,
    bound_of: fn(TimestampWithTimeZone, Format) -> Uuid,
) -> Option<*mut pg_sys::Node> {
    let (call, args) = call_to_simplify(request)?;
    if (*args).length != 4 {
        return None;
    }
    let (id, lower, upper, format) = (list_nth(args, 0), list_nth(args, 1), list_nth(args, 2), list_nth(args, 3));
    // The rewrite evaluates id twice and each time in both bounds: only if that cannot change them.
    if pg_sys::contain_volatile_functions(args.cast()) {
        return None;
    }
    // The format decides the order, so it must be a constant now (a generic plan's parameter is
    // not: such a plan filters row by row).
    let label_oid = pg_sys::Oid::from(constant(format)?.value() as u32);
    let format_type = (*format.cast::<pg_sys::Const>()).consttype;
    let (label, _, _) = pgrx::enum_helper::lookup_enum_by_oid(label_oid);
    let format_value = Format::from_name(&label)?;
    let schema = pg_sys::get_func_namespace((*call).funcid);
    // Everything looked up below must be this extension's own, as comb_in_range is.
    let extension = pg_sys::getExtensionOfObject(pg_sys::ProcedureRelationId, (*call).funcid);
    if extension == pg_sys::InvalidOid {
        return None;
    }
    let family = family_of_order(format_value.order(), schema, extension)?;
    let operator =
        |strategy: u32| pg_sys::get_opfamily_member(family, pg_sys::UUIDOID, pg_sys::UUIDOID, strategy as i16);
    let (at_or_after, before) =
        (operator(pg_sys::BTGreaterEqualStrategyNumber), operator(pg_sys::BTLessStrategyNumber));
    if at_or_after == pg_sys::InvalidOid || before == pg_sys::InvalidOid {
        return None;
    }

    let constant_bound = |time: pg_sys::Datum| -> Option<*mut pg_sys::Node> {
        // SAFETY: a non-NULL timestamptz constant (the call's argument type).
        let ts = unsafe { TimestampWithTimeZone::from_datum(time, false) }?;
        let bound = bound_of(ts, format_value).into_datum()?;
        // SAFETY: a by-reference uuid datum palloc'd in the planner's memory context.
        Some(unsafe { pg_sys::makeConst(pg_sys::UUIDOID, -1, pg_sys::InvalidOid, 16, bound, false, false).cast() })
    };
    let bounds: [*mut pg_sys::Node; 2] = match (constant(lower), constant(upper)) {
        (Some(lower), Some(upper)) => [constant_bound(lower)?, constant_bound(upper)?],
        _ => {
            let function = |name: &CStr| -> Option<*mut pg_sys::Node> {
                let argtypes = [pg_sys::TIMESTAMPTZOID, pg_sys::TIMESTAMPTZOID, format_type];
                let found = pg_sys::LookupFuncName(qualified_name(schema, name)?, 3, argtypes.as_ptr(), true);
                let oid = member_of(extension, pg_sys::ProcedureRelationId, found)?;
                let args = list_of_three(copy(lower).cast(), copy(upper).cast(), copy(format).cast());
                let call = pg_sys::makeFuncExpr(
                    oid,
                    pg_sys::UUIDOID,
                    args,
                    pg_sys::InvalidOid,
                    pg_sys::InvalidOid,
                    pg_sys::CoercionForm::COERCE_EXPLICIT_CALL,
                );
                Some(call.cast())
            };
            [function(c"comb_range_lower")?, function(c"comb_range_upper")?]
        }
    };
    let compare = |operator: pg_sys::Oid, bound: *mut pg_sys::Node| {
        let clause = pg_sys::make_opclause(
            operator,
            pg_sys::BOOLOID,
            false,
            copy(id).cast(),
            bound.cast(),
            pg_sys::InvalidOid,
            pg_sys::InvalidOid,
        );
        pg_sys::set_opfuncid(clause.cast());
        clause
    };
    let both = list_of_two(compare(at_or_after, bounds[0]).cast(), compare(before, bounds[1]).cast());
    Some(pg_sys::makeBoolExpr(pg_sys::BoolExprType::AND_EXPR, both, -1).cast())
}
