"""No function or operator planted in the SQL edition's own schema runs in the edition's place
(issue 31: "No planted function runs as the caller").

A role that has CREATE on the schema S the edition lives in can add overloads of the edition's names
to S. Schema qualification does not stop them: PostgreSQL takes an exact match of the argument types
first, then ranks the candidates (at an untyped literal it prefers text; a domain such as sno is a
type of its own), so a call that passes an untyped literal, an integer literal to a bigint, a sno to
a text parameter or that leaves out a defaulted argument can be taken over by a planted overload.
The same goes for operators of a SQL body, which resolve through the caller's search_path.

Everything here comes from the catalog, not from a list of the edition's functions:
  1. every function of S (pg_proc), its argument types, defaults and return type;
  2. as a role granted CREATE on S after the install, for every function, every arity its defaults
     allow and every argument position, an overload with that position's type replaced by each type
     of a candidate set (and every pair of positions by each pair of a smaller set); signatures the
     edition already holds are refused (counted). Each plant is PL/pgSQL that counts its run in the
     sequence public.planted_hits (not transactional: it survives errors and rollbacks) and names
     itself in a NOTICE, then returns NULL. Operators are planted in S too: the usual comparison,
     arithmetic, bit, concatenation and regex names on the edition's types (sno, uid8_mode,
     comb_format) and on the base types the bodies compute with;
  3. every public function (its name does not start with _), every argument given, is called with good and
     bad input (NULLs, out-of-range numbers, malformed text, infinities; one position varied at a
     time), before the plants (the reference outcome) and after them, under search_path = S, public
     and under search_path = S, pg_catalog; and tests/portable_ids.py vectors and
     tests/portable_comb_vectors.py run with the plants of the internal names in place (the plants
     of the public names would take the scripts' own untyped calls, which are the caller's);
  4. the hit counter must be 0, and every call's outcome (result, or SQLSTATE) the same as before
     the plants.

    python tests/portable_planting.py ADMIN_CONNINFO SCHEMA [--install FILE] [--control]

ADMIN_CONNINFO: a superuser in a database for this test alone (roles planting_owner,
planting_planter and planting_caller are made if missing). --install FILE: (re)create SCHEMA and
install FILE into it as planting_owner, a role with only CREATE on it; without it the edition must
be installed in SCHEMA already. --control: an edition that is expected to be taken over (0.5.0's):
exit 0 when some plant ran, 1 when none did. Prints the figures; exits 1 on a hit or a changed
outcome, naming the plant and the public function it ran from.
"""
import argparse
import itertools
import os
import pathlib
import subprocess
import sys

import psycopg
from psycopg import sql

REPO = pathlib.Path(__file__).resolve().parent.parent

# Types a plant puts in place of a declared argument type; text also stands for an untyped literal,
# which PostgreSQL resolves to a text candidate when it has to choose.
CANDIDATES = ["text", "integer", "bigint", "numeric", "double precision", "boolean", "uuid", "bytea",
              "timestamp with time zone", "timestamp without time zone", "{s}.sno", "{s}.comb_format",
              "{s}.uid8_mode"]
# For two positions at once: what a literal, an integer constant or a domain value is taken as.
PAIR_CANDIDATES = ["text", "integer", "bigint", "numeric", "{s}.sno"]

# Operators: the usual names, on the edition's types and on the base types the bodies compute with.
COMPARISON = ["=", "<>", "<", "<=", ">", ">="]
OTHER = ["||", "~", "!~", "~~", "+", "-", "*", "/", "%", "&", "|", "#", "<<", ">>"]
EDITION_PAIRS = [("{s}.sno", "{s}.sno"), ("{s}.sno", "text"), ("text", "{s}.sno"),
                 ("{s}.uid8_mode", "{s}.uid8_mode"), ("{s}.comb_format", "{s}.comb_format")]
BASE_TYPES = ["text", "integer", "bigint", "numeric", "boolean", "uuid", "bytea", "bit",
              "timestamp with time zone", "interval", "date"]
PREFIX = ["~", "-"]

# Argument values: good ones first (the first is what the other positions hold while one varies).
VALUES = {
    "bigint": ["1700000000000", "0", "1", "-1", "-2", "4398046511103", "4398046511104", "4503599627370495",
               "17592186044415", "9223372036854775807", "-9223372036854775808", "NULL"],
    "integer": ["1", "0", "7", "255", "256", "2047", "65535", "65536", "-1", "2147483647", "-2147483648", "NULL"],
    "text": ["'postgresql'", "'0189ABCDEF012-0123456789A-01234567'", "'0189ABCDEF012'", "'sqlserver'", "''",
             "'zz'", "'0189ABCDEF012-0123456789A-0123456'", "'postgresql '", "NULL"],
    "uuid": ["'0189abcd-ef01-4234-8567-89abcdef0123'", "'00000000-0000-0000-0000-000000000000'",
             "'ffffffff-ffff-ffff-ffff-ffffffffffff'", "'0189abcd-ef01-7234-8567-89abcdef0123'",
             "'0189abcd-ef01-7234-c567-89abcdef0123'", "'2a9e2f0e-7e1b-4c3c-bf3f-00c0ffeec0de'", "NULL"],
    "timestamp with time zone": ["'2024-05-06 07:08:09.123456+00'", "'1970-01-01 00:00:00+00'",
                                 "'1969-12-31 23:59:59.999999+00'", "'1900-01-01 00:00:00+00'",
                                 "'2009-12-31 23:59:59+00'", "'2079-06-07 00:00:00+00'", "'2100-01-01 00:00:00+00'",
                                 "'9999-12-31 23:59:59.999999+00'", "'0001-01-01 00:00:00+00'",
                                 "'294276-12-31 23:59:59+00'", "'infinity'", "'-infinity'", "NULL"],
    # The 16 bytes: a masking key (the masks' hashing runs only with one).
    "bytea": ["'\\x0123456789abcdef0123'", "'\\x000102030405060708090a0b0c0d0e0f'", "'\\x0123456789abcdef'", "'\\x'",
              "'\\xffffffffffffffffffff'", "NULL"],
    "boolean": ["false", "true", "NULL"],
    "sno": ["'2b4h3f2222222222'", "'2222222222222222'", "'xxxxxxxxxxxxxxxx'", "NULL"],
    "comb_format": ["'postgresql'", "'sqlserver'", "'legacy'", "'binary'", "'postgresql_sqldatetime'",
                    "'binary_sqldatetime'", "'ticks'", "'uuidv7'", "NULL"],
    "uid8_mode": ["'spread'", "'time_sequential'", "NULL"],
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("conninfo")
    parser.add_argument("schema")
    parser.add_argument("--install")
    parser.add_argument("--control", action="store_true")
    args = parser.parse_args()
    s = args.schema
    admin = psycopg.connect(args.conninfo, autocommit=True)
    ident = sql.Identifier(s).as_string(admin)
    admin.execute("SET client_min_messages = warning")
    for role in ("planting_owner", "planting_planter", "planting_caller"):
        if admin.execute("SELECT count(*) FROM pg_catalog.pg_roles WHERE rolname = %s", (role,)).fetchone()[0] == 0:
            admin.execute(f"CREATE ROLE {role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE")
    if args.install:
        admin.execute(f"DROP SCHEMA IF EXISTS {ident} CASCADE")
        admin.execute(f"CREATE SCHEMA {ident}")
        admin.execute(f"GRANT USAGE, CREATE ON SCHEMA {ident} TO planting_owner")
        installer = pathlib.Path(args.install).read_text()
        with admin.transaction():
            admin.execute("SET LOCAL ROLE planting_owner")
            admin.execute(f"SET LOCAL search_path = {ident}")
            admin.execute(installer)
    # Someone grants CREATE on the schema later; the caller may only use it.
    admin.execute(f"GRANT USAGE, CREATE ON SCHEMA {ident} TO planting_planter")
    admin.execute(f"GRANT USAGE ON SCHEMA {ident} TO planting_caller")
    admin.execute("DROP SEQUENCE IF EXISTS public.planted_hits")
    admin.execute("CREATE SEQUENCE public.planted_hits")
    admin.execute("GRANT USAGE, SELECT ON SEQUENCE public.planted_hits TO PUBLIC")
    admin.execute("GRANT USAGE ON SCHEMA public TO PUBLIC")
    admin.execute("SET search_path = pg_catalog")  # format_type() then qualifies S's types

    # 1. The catalog: every function of S.
    functions = admin.execute("""
        SELECT p.oid, p.proname::text, p.proargtypes::oid[], p.pronargdefaults, p.prorettype,
               p.proretset, p.provolatile::text, coalesce(p.proallargtypes, p.proargtypes::oid[]),
               coalesce(p.proargmodes, pg_catalog.array_fill('i'::"char", ARRAY[p.pronargs]))::text[],
               p.proargnames
        FROM pg_catalog.pg_proc AS p WHERE p.pronamespace = %s::regnamespace ORDER BY p.proname, p.oid""",
                              (s,)).fetchall()
    if not functions:
        sys.exit(f"portable_planting: no function in schema {s}")
    if any(f[1].startswith("_planted_") for f in functions):
        sys.exit(f"portable_planting: schema {s} holds an earlier run's plants: reinstall it (--install)")
    held = {(f[1], tuple(f[2])) for f in functions}
    edition_operators = admin.execute("SELECT count(*) FROM pg_catalog.pg_operator WHERE oprnamespace = %s::regnamespace",
                                      (s,)).fetchone()[0]
    type_oid = {}
    for t in set(CANDIDATES + PAIR_CANDIDATES + BASE_TYPES + [a for p in EDITION_PAIRS for a in p]):
        type_oid[t] = admin.execute("SELECT %s::regtype::oid", (t.format(s=s),)).fetchone()[0]
    fmt = {}

    def type_name(oid):
        if oid not in fmt:
            fmt[oid] = admin.execute("SELECT pg_catalog.format_type(%s, NULL)", (oid,)).fetchone()[0]
        return fmt[oid]

    polymorphic = {r[0] for r in admin.execute(
        "SELECT oid FROM pg_catalog.pg_type WHERE typname IN ('anyelement', 'anyarray', 'anynonarray', 'anyenum', "
        "'anyrange', 'anymultirange', 'anycompatible', 'anycompatiblearray', 'anycompatiblenonarray', "
        "'anycompatiblerange', 'anycompatiblemultirange') AND typnamespace = 'pg_catalog'::regnamespace").fetchall()}
    arguments = sum(len(f[2]) for f in functions)

    # 2. The plants' signatures.
    plants = {}  # (name, arg oids) -> (out params, return type oid or None, retset)
    refused = 0
    cands = [type_oid[c] for c in CANDIDATES]
    pair_cands = [type_oid[c] for c in PAIR_CANDIDATES]
    for oid, name, argtypes, ndefaults, rettype, retset, volatile, allargs, modes, argnames in functions:
        outs = [(argnames[i] if argnames and argnames[i] else f"o{i}", allargs[i])
                for i, m in enumerate(modes) if m in ("o", "b", "t")]
        for arity in range(len(argtypes) - ndefaults, len(argtypes) + 1):
            base = list(argtypes[:arity])
            variants = [tuple(base)] if arity < len(argtypes) else []
            for i in range(arity):
                for c in cands:
                    if c != base[i]:
                        v = list(base)
                        v[i] = c
                        variants.append(tuple(v))
            for i, j in itertools.combinations(range(arity), 2):
                for ci in pair_cands:
                    for cj in pair_cands:
                        if ci != base[i] and cj != base[j]:
                            v = list(base)
                            v[i], v[j] = ci, cj
                            variants.append(tuple(v))
            for v in variants:
                if any(t in polymorphic for t in v):
                    continue  # polymorphic positions are planted with each concrete type instead
                ret = rettype
                if rettype in polymorphic:
                    replaced = [v[i] for i in range(arity) if argtypes[i] in polymorphic]
                    ret = replaced[0] if replaced else type_oid["text"]
                key = (name, v)
                if key in held:
                    refused += 1
                elif key not in plants:
                    plants[key] = (outs, None if outs else ret, retset)
    public_names = {f[1] for f in functions if not f[1].startswith("_")}

    def plant_sql(key, spec):
        name, types = key
        outs, ret, retset = spec
        label = f"{s}.{name}({', '.join(type_name(t) for t in types)})"
        params = [f"a{i} {type_name(t)}" for i, t in enumerate(types)]
        params += [f"OUT {sql.Identifier(n).as_string(admin)} {type_name(t)}" for n, t in outs]
        if outs:
            returns, body_return = "", "RETURN;"
        elif retset:
            returns, body_return = f"RETURNS SETOF {type_name(ret)}", "RETURN;"
        elif ret == type_oid_void:
            returns, body_return = "RETURNS void", "RETURN;"
        else:
            returns, body_return = f"RETURNS {type_name(ret)}", "RETURN NULL;"
        return (f"CREATE FUNCTION {ident}.{sql.Identifier(name).as_string(admin)}({', '.join(params)}) {returns}\n"
                f"LANGUAGE plpgsql AS $plant$ BEGIN\n"
                f"    PERFORM pg_catalog.nextval('public.planted_hits'::pg_catalog.regclass);\n"
                f"    RAISE NOTICE 'planted %', {sql.Literal(label).as_string(admin)};\n"
                f"    {body_return}\nEND $plant$")

    type_oid_void = admin.execute("SELECT 'void'::regtype::oid").fetchone()[0]

    def operator_plants(pairs, prefix_types):
        """CREATE statements of planted operators on the given (left, right) type names."""
        statements, made = [], 0
        existing = {(r[0], r[1], r[2]) for r in admin.execute(
            "SELECT oprname::text, oprleft, oprright FROM pg_catalog.pg_operator WHERE oprnamespace = %s::regnamespace",
            (s,)).fetchall()}
        for left, right in pairs:
            lo, ro = type_oid[left], type_oid[right]
            ln, rn = type_name(lo), type_name(ro)
            for kind, names, ret in (("b", COMPARISON + ["~", "!~", "~~"], "boolean"), ("v", OTHER, ln)):
                fn = f"{ident}._planted_op_{kind}_{lo}_{ro}"
                statements.append(
                    f"CREATE FUNCTION {fn}({ln}, {rn}) RETURNS {ret} LANGUAGE plpgsql AS $plant$ BEGIN\n"
                    f"    PERFORM pg_catalog.nextval('public.planted_hits'::pg_catalog.regclass);\n"
                    f"    RAISE NOTICE 'planted operator of (%, %)', {sql.Literal(ln).as_string(admin)}, "
                    f"{sql.Literal(rn).as_string(admin)};\n    RETURN NULL;\nEND $plant$")
                for op in names:
                    if op in ("~", "!~", "~~") and kind == "v":
                        continue
                    if (op, lo, ro) in existing:
                        continue
                    statements.append(f"CREATE OPERATOR {ident}.{op} (LEFTARG = {ln}, RIGHTARG = {rn}, FUNCTION = {fn})")
                    existing.add((op, lo, ro))
                    made += 1
        for t in prefix_types:
            o = type_oid[t]
            n = type_name(o)
            fn = f"{ident}._planted_prefix_{o}"
            statements.append(
                f"CREATE FUNCTION {fn}({n}) RETURNS {n} LANGUAGE plpgsql AS $plant$ BEGIN\n"
                f"    PERFORM pg_catalog.nextval('public.planted_hits'::pg_catalog.regclass);\n"
                f"    RAISE NOTICE 'planted prefix operator of %', {sql.Literal(n).as_string(admin)};\n"
                f"    RETURN NULL;\nEND $plant$")
            for op in PREFIX:
                if (op, 0, o) not in existing:
                    statements.append(f"CREATE OPERATOR {ident}.{op} (RIGHTARG = {n}, FUNCTION = {fn})")
                    existing.add((op, 0, o))
                    made += 1
        return statements, made

    def as_planter(statements):
        with admin.transaction():
            admin.execute("SET LOCAL ROLE planting_planter")
            for st in statements:
                admin.execute(st)

    # 3. The calls: every public function, good and bad input, one position at a time. Every
    # argument is given, defaulted ones too (their default is among the values): a call that leaves
    # one out matches a planted overload of that arity as well, which is the caller's call (42725).
    calls = []
    for oid, name, argtypes, ndefaults, rettype, retset, volatile, allargs, modes, argnames in functions:
        if name.startswith("_"):
            continue
        for arity in (len(argtypes),):
            types = [type_name(t) for t in argtypes[:arity]]
            short = [t.split(".")[-1] for t in types]
            lists = []
            for t, sh in zip(types, short):
                vals = list(VALUES.get(sh, ["NULL"]))
                if name == "muid_parse":
                    vals = vals[1:] + vals[:1]
                # (v)::t: -1::t would be the operator - (a planted one, under S, pg_catalog) on 1::t.
                lists.append([f"({v})::{t}" for v in vals])
            tuples = [tuple(l[0] for l in lists)]
            for i, l in enumerate(lists):
                for v in l[1:]:
                    t = list(tuples[0])
                    t[i] = v
                    tuples.append(tuple(t))
            if arity:
                tuples.append(tuple(f"NULL::{t}" for t in types))
            for t in dict.fromkeys(tuples):
                target = f"{ident}.{sql.Identifier(name).as_string(admin)}({', '.join(t)})"
                shown = f"SELECT ({target})::pg_catalog.text" if not retset else \
                    f"SELECT pg_catalog.string_agg(r::pg_catalog.text, ',') FROM {target} AS r"
                if any(m in ("o", "b", "t") for m in modes):
                    shown = f"SELECT ({target})::pg_catalog.text"
                calls.append((name, volatile == "v", shown))
        # The operators of S whose function this is are called by the function's calls.

    caller = psycopg.connect(psycopg.conninfo.make_conninfo(args.conninfo, user="planting_caller"), autocommit=True)
    notices = []
    caller.add_notice_handler(lambda d: notices.append(d.message_primary))
    caller.execute("SET TimeZone = 'UTC'")
    caller.execute("SET client_min_messages = notice")

    def run(path):
        caller.execute(sql.SQL("SELECT pg_catalog.set_config('search_path', {}, false)").format(sql.Literal(path)))
        outcomes = []
        for name, volatile, query in calls:
            del notices[:]
            try:
                with caller.transaction():
                    value = caller.execute(query).fetchone()[0]
                    outcome = ("ok", None if volatile else value)
            except psycopg.Error as e:
                outcome = ("error", e.sqlstate)
            planted = [n for n in notices if n.startswith("planted")]
            outcomes.append((outcome, planted))
        return outcomes

    def hits():
        return admin.execute("SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM public.planted_hits").fetchone()[0]

    reference = run(f"{ident}, public")
    reference_pg = run(f"{ident}, pg_catalog")

    internal = {k: v for k, v in plants.items() if k[0] not in public_names}
    public = {k: v for k, v in plants.items() if k[0] in public_names}
    edition_ops, n_edition_ops = operator_plants(EDITION_PAIRS, [])
    as_planter([plant_sql(k, v) for k, v in internal.items()] + edition_ops)
    problems = []

    # The vector checks, with the plants of the internal names and the edition types' operators.
    env = dict(os.environ)
    caller_conninfo = psycopg.conninfo.make_conninfo(args.conninfo, user="planting_caller")
    for script in (["tests/portable_ids.py", "vectors", caller_conninfo, ident],
                   ["tests/portable_ids.py", "vectors", caller_conninfo, f"{ident}, pg_catalog"],
                   ["tests/portable_comb_vectors.py", caller_conninfo, s]):
        before = hits()
        done = subprocess.run([sys.executable, str(REPO / script[0])] + script[1:], env=env,
                              capture_output=True, text=True)
        lines = (done.stdout + done.stderr).strip().splitlines() or ["(no output)"]
        print(f"  {' '.join(script[:2]) if script[1] == 'vectors' else script[0]} ({script[-1]}): {lines[-1].strip()[:200]}")
        if done.returncode != 0:
            problems.append(f"{script[0]} failed with the plants in place: "
                            + " | ".join(line[:200] for line in lines[-4:]))
        if hits() != before:
            problems.append(f"{' '.join(script[:2])} ({script[-1]}): {hits() - before} plant runs")

    base_pairs = [(l, r) for l in BASE_TYPES for r in BASE_TYPES]
    base_ops, n_base_ops = operator_plants(base_pairs, ["integer", "bigint", "numeric"])
    as_planter([plant_sql(k, v) for k, v in public.items()] + base_ops)

    total_calls = 0
    for path, ref in ((f"{ident}, public", reference), (f"{ident}, pg_catalog", reference_pg)):
        got = run(path)
        total_calls += len(calls)
        for (name, volatile, query), (before, _), (after, planted) in zip(calls, ref, got):
            for p in dict.fromkeys(planted):
                problems.append(f"{p} ran from {name} (search_path = {path}): {query}")
            if after != before:
                problems.append(f"{name} (search_path = {path}): {before} before the plants, {after} after: {query}")

    counter = hits()
    print(f"portable_planting: {len(functions)} functions ({len(public_names)} public names), {arguments} arguments, "
          f"{edition_operators} operators; "
          f"{len(plants)} planted functions ({len(internal)} internal, {len(public)} public names), {refused} refused "
          f"(the edition holds that signature), {n_edition_ops + n_base_ops} planted operators; "
          f"{total_calls} calls after planting (+{2 * len(calls)} before), hit counter {counter}, "
          f"{len(problems)} failures")
    ran = {}
    for p in problems:
        if p.startswith("planted"):
            plant, caller_name = p.split(" ran from ", 1)
            ran.setdefault(plant, set()).add(caller_name.split(" ", 1)[0])
    if ran:
        print(f"  {len(ran)} distinct plants ran:")
        for plant in sorted(ran):
            print(f"    {plant} from {', '.join(sorted(ran[plant]))}")
    problems.sort(key=lambda p: not p.startswith("planted"))
    for p in problems[:20]:
        print("  FAILED: " + p)
    if len(problems) > 20:
        print(f"  ... and {len(problems) - 20} more")
    if args.control:
        if counter > 0:
            print(f"portable_planting --control: as expected, plants ran ({counter} hits)")
            sys.exit(0)
        print("portable_planting --control: no plant ran, but this edition was expected to be taken over")
        sys.exit(1)
    sys.exit(1 if problems or counter else 0)


if __name__ == "__main__":
    main()
