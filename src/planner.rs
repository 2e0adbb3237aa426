//! Planner support: `comb_in_range(id, lower, upper, format)` becomes the index conditions
//! `id >= comb_range_bound(lower, format) AND id < comb_range_bound(upper, format)` on an index on
//! `id` whose btree operator family sorts in the format's order.

use crate::core::comb::Format;
use crate::core::order::Order;
use pgrx::{pg_sys, Internal};
use std::ffi::CStr;

/// Btree support function 1, the comparison function (nbtree.h's BTORDER_PROC).
const BTORDER_PROC: i16 = 1;

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

unsafe fn copy<T>(node: *mut T) -> *mut T {
    pg_sys::copyObjectImpl(node.cast()).cast()
}

/// The order a btree operator family on uuid sorts in, told by its comparison function: core's
/// `uuid_cmp`, or this extension's `uuid_sqlserver_cmp` (in the same schema as `sibling`).
unsafe fn order_of_family(opfamily: pg_sys::Oid, sibling: pg_sys::Oid) -> Option<Order> {
    let proc = pg_sys::get_opfamily_proc(opfamily, pg_sys::UUIDOID, pg_sys::UUIDOID, BTORDER_PROC);
    if proc == pg_sys::Oid::from(pg_sys::F_UUID_CMP) {
        return Some(Order::Bytes);
    }
    if proc == pg_sys::InvalidOid || pg_sys::get_func_namespace(proc) != pg_sys::get_func_namespace(sibling) {
        return None;
    }
    let name = pg_sys::get_func_name(proc);
    (!name.is_null() && CStr::from_ptr(name).to_bytes() == b"uuid_sqlserver_cmp").then_some(Order::SqlServer)
}

/// `comb_range_bound(timestamptz, comb_format)` in the schema of `sibling`.
unsafe fn range_bound_function(sibling: pg_sys::Oid, format_type: pg_sys::Oid) -> Option<pg_sys::Oid> {
    let schema = pg_sys::get_namespace_name(pg_sys::get_func_namespace(sibling));
    if schema.is_null() {
        return None;
    }
    let name = list_of_two(
        pg_sys::makeString(schema).cast(),
        pg_sys::makeString(pg_sys::pstrdup(c"comb_range_bound".as_ptr())).cast(),
    );
    let argtypes = [pg_sys::TIMESTAMPTZOID, format_type];
    let oid = pg_sys::LookupFuncName(name, 2, argtypes.as_ptr(), true);
    (oid != pg_sys::InvalidOid).then_some(oid)
}

/// The index conditions for a `SupportRequestIndexCondition`, or `None` to decline.
///
/// SAFETY: `request` must be the argument PostgreSQL passes to a planner support function.
pub unsafe fn in_range_index_condition(request: Internal) -> Option<*mut pg_sys::List> {
    let node = request.unwrap()?.cast_mut_ptr::<pg_sys::Node>();
    if !is_a(node, pg_sys::NodeTag::T_SupportRequestIndexCondition) {
        return None;
    }
    let req = node.cast::<pg_sys::SupportRequestIndexCondition>();
    if (*req).indexarg != 0 || !is_a((*req).node, pg_sys::NodeTag::T_FuncExpr) {
        return None;
    }
    let call = (*req).node.cast::<pg_sys::FuncExpr>();
    let args = (*call).args;
    if args.is_null() || (*args).length != 4 {
        return None;
    }
    let (id, lower, upper, format) = (list_nth(args, 0), list_nth(args, 1), list_nth(args, 2), list_nth(args, 3));

    // The format decides the order, so it must be known now.
    if !is_a(format, pg_sys::NodeTag::T_Const) || (*format.cast::<pg_sys::Const>()).constisnull {
        return None;
    }
    let format_const = format.cast::<pg_sys::Const>();
    let label_oid = pg_sys::Oid::from((*format_const).constvalue.value() as u32);
    let (label, _, _) = pgrx::enum_helper::lookup_enum_by_oid(label_oid);
    let format_order = Format::from_name(&label)?.order();
    if order_of_family((*req).opfamily, (*call).funcid)? != format_order {
        return None;
    }
    // The bounds must be computable before the scan starts.
    for bound in [lower, upper] {
        if !crate::compat::is_pseudo_constant_for_index((*req).root, bound, (*req).index) {
            return None;
        }
    }
    let bound_function = range_bound_function((*call).funcid, (*format_const).consttype)?;
    let operator =
        |strategy: u32| pg_sys::get_opfamily_member((*req).opfamily, pg_sys::UUIDOID, pg_sys::UUIDOID, strategy as i16);
    let (at_or_after, before) =
        (operator(pg_sys::BTGreaterEqualStrategyNumber), operator(pg_sys::BTLessStrategyNumber));
    if at_or_after == pg_sys::InvalidOid || before == pg_sys::InvalidOid {
        return None;
    }
    let condition = |operator: pg_sys::Oid, time: *mut pg_sys::Node| {
        let bound = pg_sys::makeFuncExpr(
            bound_function,
            pg_sys::UUIDOID,
            list_of_two(copy(time).cast(), copy(format).cast()),
            pg_sys::InvalidOid,
            pg_sys::InvalidOid,
            pg_sys::CoercionForm::COERCE_EXPLICIT_CALL,
        );
        pg_sys::make_opclause(
            operator,
            pg_sys::BOOLOID,
            false,
            copy(id).cast(),
            bound.cast(),
            pg_sys::InvalidOid,
            pg_sys::InvalidOid,
        )
    };
    (*req).lossy = false;
    Some(list_of_two(condition(at_or_after, lower).cast(), condition(before, upper).cast()))
}
