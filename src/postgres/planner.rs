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
/// extension's own `uuid_sqlserver_ops` (in `schema`, the extension's).
unsafe fn family_of_order(order: Order, schema: pg_sys::Oid, extension: pg_sys::Oid) -> Option<pg_sys::Oid> {
    let family = match order {
        Order::Bytes => pg_sys::get_opclass_family(pg_sys::GetDefaultOpClass(pg_sys::UUIDOID, pg_sys::BTREE_AM_OID)),
        Order::SqlServer => {
            let family =
                pg_sys::get_opfamily_oid(pg_sys::BTREE_AM_OID, qualified_name(schema, c"uuid_sqlserver_ops")?, true);
            member_of(extension, pg_sys::OperatorFamilyRelationId, family)?
        }
        Order::DotNetBytes => return None,
    };
    (family != pg_sys::InvalidOid).then_some(family)
}

/// A non-NULL constant's datum.
unsafe fn constant(node: *mut pg_sys::Node) -> Option<pg_sys::Datum> {
    let constant = node.cast::<pg_sys::Const>();
    (is_a(node, pg_sys::NodeTag::T_Const) && !(*constant).constisnull).then(|| (*constant).constvalue)
}

/// The call of `original` that replaces `call` (a twin's or an overload's), with `args`, simplified.
/// The input collation is the arguments' again: a text argument had one, an enum or a time has
/// none, and an expression index matches a call only if this field agrees too.
///
/// SAFETY: `call` is the call being simplified, `args` a list of valid expressions.
unsafe fn original_call(original: pg_sys::Oid, call: *mut pg_sys::FuncExpr, args: *mut pg_sys::List) -> *mut pg_sys::Node {
    let input_collation = (0..(*args).length as usize)
        .map(|i| pg_sys::exprCollation(list_nth(args, i)))
        .find(|&collation| collation != pg_sys::InvalidOid)
        .unwrap_or(pg_sys::InvalidOid);
    let replaced = pg_sys::makeFuncExpr(
        original,
        (*call).funcresulttype,
        args,
        (*call).funccollid,
        input_collation,
        pg_sys::CoercionForm::COERCE_EXPLICIT_CALL,
    );
    pg_sys::eval_const_expressions(std::ptr::null_mut(), replaced.cast())
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

/// The enum types whose functions have `text` twins (src/families/comb.rs, src/uid8.rs).
const TWINNED_ENUMS: [&CStr; 2] = [c"comb_format", c"uid8_mode"];

/// Planner support for the `text` twins: `f(..., 'legacy'::text)` becomes `f(..., 'legacy'::comb_format)`,
/// the call of the function the twin stands for, as the parser made it before the twins existed,
/// and is then simplified as that call is (`comb_in_range`'s rewrite, constant folding). So plans,
/// and expression indexes made with either, match. `None` keeps the twin's own call: the label is
/// not a constant, or not a label (the twin then raises 22P02 when it runs).
///
/// SAFETY: `request` must be the argument PostgreSQL passes to a planner support function.
pub unsafe fn text_twin_simplified(request: Internal) -> Option<*mut pg_sys::Node> {
    let (call, args) = call_to_simplify(request)?;
    // Every twin takes the label as its last argument.
    let count = (*args).length as usize;
    let label_arg = list_nth(args, count - 1);
    if pg_sys::exprType(label_arg) != pg_sys::TEXTOID {
        return None;
    }
    let label = std::ffi::CString::new(<&str>::from_datum(constant(label_arg)?, false)?).ok()?;
    let twin = (*call).funcid;
    let extension = pg_sys::getExtensionOfObject(pg_sys::ProcedureRelationId, twin);
    if extension == pg_sys::InvalidOid {
        return None;
    }
    let schema = pg_sys::get_func_namespace(twin);
    let name = CStr::from_ptr(pg_sys::get_func_name(twin));
    let mut argtypes: Vec<pg_sys::Oid> = (0..count).map(|i| pg_sys::exprType(list_nth(args, i))).collect();
    for enum_name in TWINNED_ENUMS {
        let enum_type = pg_sys::GetSysCacheOid(
            pg_sys::SysCacheIdentifier::TYPENAMENSP as i32,
            pg_sys::Anum_pg_type_oid as pg_sys::AttrNumber,
            pg_sys::Datum::from(enum_name.as_ptr()),
            pg_sys::Datum::from(schema),
            pg_sys::Datum::from(0),
            pg_sys::Datum::from(0),
        );
        if member_of(extension, pg_sys::TypeRelationId, enum_type).is_none() {
            continue;
        }
        argtypes[count - 1] = enum_type;
        let found = pg_sys::LookupFuncName(qualified_name(schema, name)?, count as i32, argtypes.as_ptr(), true);
        let Some(original) = member_of(extension, pg_sys::ProcedureRelationId, found) else {
            continue;
        };
        let tuple = pg_sys::SearchSysCache2(
            pg_sys::SysCacheIdentifier::ENUMTYPOIDNAME as i32,
            pg_sys::Datum::from(enum_type),
            pg_sys::Datum::from(label.as_ptr()),
        );
        if tuple.is_null() {
            return None;
        }
        let label_oid = (*pg_sys::heap_tuple_get_struct::<pg_sys::FormData_pg_enum>(tuple)).oid;
        pg_sys::ReleaseSysCache(tuple);
        let enum_value = pg_sys::makeConst(
            enum_type,
            -1,
            pg_sys::InvalidOid,
            std::mem::size_of::<pg_sys::Oid>() as i32,
            pg_sys::Datum::from(label_oid),
            false,
            true,
        );
        let new_args = pg_sys::list_copy(args);
        (*(*new_args).elements.add(count - 1)).ptr_value = enum_value.cast();
        return Some(original_call(original, call, new_args));
    }
    None
}

/// `pg_language`'s fixed OID of `sql` (pg_language.dat, the same in every major): the overloads
/// for literals are SQL functions, the functions they call are not.
const SQL_LANGUAGE: u32 = 14;

/// The type `sql/finalize.sql` gives an overload for literals where the function takes `wanted`:
/// `int4` for `bigint`, `text` for `uuid`, `bytea`, `timestamptz` and the extension's own base
/// types (`sno`); none for the others.
unsafe fn literal_variant(wanted: pg_sys::Oid) -> Option<pg_sys::Oid> {
    if wanted == pg_sys::INT8OID {
        return Some(pg_sys::INT4OID);
    }
    if [pg_sys::UUIDOID, pg_sys::BYTEAOID, pg_sys::TIMESTAMPTZOID].contains(&wanted) {
        return Some(pg_sys::TEXTOID);
    }
    let (mut category, mut preferred) = (0 as std::ffi::c_char, false);
    pg_sys::get_type_category_preferred(wanted, &mut category, &mut preferred);
    (pg_sys::get_typtype(wanted) == b'b' as std::ffi::c_char && category == b'U' as std::ffi::c_char)
        .then_some(pg_sys::TEXTOID)
}

/// The call of an overload for literals (`sql/finalize.sql`) whose literals are constants: the
/// call of the function it stands for, with each literal read by that function's argument type
/// now, as the parser read an untyped literal before the overload existed. Without it the overload
/// runs its casts at run time where a type's input is not immutable (timestamptz's reads the
/// TimeZone setting), and constant range bounds would become run-time ones (no plan-time
/// partition pruning). `None` keeps the call (a literal that is not a constant: a parameter, or a
/// column, stays an inlined cast).
///
/// The function it stands for is found in the catalog: of the same name and schema, a member of
/// the extension and not an SQL function, taking the overload's arguments where they are typed
/// and at least as many (defaults fill the rest), with the type the overload stands for at each
/// literal (`literal_variant`); of several, the one with the most arguments of the overload's own
/// types.
///
/// SAFETY: `request` must be the argument PostgreSQL passes to a planner support function.
pub unsafe fn literal_overload_simplified(request: Internal) -> Option<*mut pg_sys::Node> {
    let (call, args) = call_to_simplify(request)?;
    let overload = (*call).funcid;
    let extension = pg_sys::getExtensionOfObject(pg_sys::ProcedureRelationId, overload);
    if extension == pg_sys::InvalidOid {
        return None;
    }
    let count = (*args).length as usize;
    let argtypes: Vec<pg_sys::Oid> = (0..count).map(|i| pg_sys::exprType(list_nth(args, i))).collect();
    let schema = pg_sys::get_func_namespace(overload);
    let name = pg_sys::get_func_name(overload);
    if name.is_null() {
        return None;
    }
    let candidates = pg_sys::SearchSysCacheList(
        pg_sys::SysCacheIdentifier::PROCNAMEARGSNSP as i32,
        1,
        pg_sys::Datum::from(name),
        pg_sys::Datum::from(0),
        pg_sys::Datum::from(0),
    );
    let mut best: Option<(usize, pg_sys::Oid, Vec<pg_sys::Oid>)> = None;
    for i in 0..(*candidates).n_members as usize {
        let member = *(*candidates).members.as_ptr().add(i);
        let form = pg_sys::heap_tuple_get_struct::<pg_sys::FormData_pg_proc>(&mut (*member).tuple);
        let nargs = (*form).pronargs as usize;
        if (*form).pronamespace != schema
            || (*form).prolang == pg_sys::Oid::from(SQL_LANGUAGE)
            || (*form).proretset
            || nargs < count
            || nargs - count > (*form).pronargdefaults as usize
        {
            continue;
        }
        let types = std::slice::from_raw_parts((*form).proargtypes.values.as_ptr(), nargs)[..count].to_vec();
        let mut same = 0;
        let fits = types.iter().zip(&argtypes).enumerate().all(|(position, (&wanted, &given))| {
            if wanted == given {
                same += 1;
                return true;
            }
            constant(list_nth(args, position)).is_some() && literal_variant(wanted) == Some(given)
        });
        if fits && best.as_ref().is_none_or(|(most, _, _)| same > *most) {
            best = Some((same, (*form).oid, types));
        }
    }
    pg_sys::ReleaseCatCacheList(candidates);
    let (_, original, types) = best?;
    member_of(extension, pg_sys::ProcedureRelationId, original)?;
    let new_args = pg_sys::list_copy(args);
    for (position, (&wanted, &given)) in types.iter().zip(&argtypes).enumerate() {
        if wanted == given {
            continue;
        }
        let value = constant(list_nth(args, position))?;
        let datum = if given == pg_sys::INT4OID {
            pg_sys::Datum::from(i32::from_datum(value, false)? as i64)
        } else {
            let text = <&str>::from_datum(value, false)?;
            let text = std::ffi::CString::new(text).ok()?;
            let (mut input, mut io_param) = (pg_sys::InvalidOid, pg_sys::InvalidOid);
            pg_sys::getTypeInputInfo(wanted, &mut input, &mut io_param);
            // An invalid literal raises the type's own error, as the parser did.
            pg_sys::OidInputFunctionCall(input, text.as_ptr().cast_mut(), io_param, -1)
        };
        let (mut len, mut by_value) = (0i16, false);
        pg_sys::get_typlenbyval(wanted, &mut len, &mut by_value);
        let constant =
            pg_sys::makeConst(wanted, -1, pg_sys::get_typcollation(wanted), len as i32, datum, false, by_value);
        (*(*new_args).elements.add(position)).ptr_value = constant.cast();
    }
    Some(original_call(original, call, new_args))
}
