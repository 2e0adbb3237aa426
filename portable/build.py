#!/usr/bin/env python3
"""Assembles comb_ext's SQL edition from portable/*.sql into the three files users run, in
portable/dist/ (committed; tests/portable.sh checks they match the sources):

  comb_ext_install.sql    one DO block: installs into the first schema of the search_path, from psql
                          (psql -c 'SET search_path = ids' -f ...) or any SQL console; refuses a schema
                          that already holds any of the edition's names (the compiled edition included)
  comb_ext_uninstall.sql  one DO block: drops exactly those names from the first schema of the
                          search_path; never CASCADE, so a table using sno or uid8_mode stops it
  comb_ext_pgtle.sql      pgtle.install_extension('comb_ext', VERSION, ...): then CREATE EXTENSION comb_ext

The sources write @extschema@.name for each of the edition's own objects: CREATE EXTENSION (pg_tle)
substitutes it itself; the DO installer substitutes the quoted schema name. psql variables cannot
reach inside a dollar-quoted body, hence a generated file rather than a psql script.

  python3 portable/build.py            write portable/dist/
  python3 portable/build.py --check    exit 1 if portable/dist/ differs from what the sources give
"""
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
DIST = HERE / "dist"
# The dollar-quote tags the generated files wrap the sources in: no source may contain them.
SCRIPT_TAG = "$comb_ext_script$"
BLOCK_TAG = "$comb_ext_block$"

CREATE = re.compile(
    r"^CREATE\s+(?:OR\s+REPLACE\s+)?(FUNCTION|PROCEDURE|AGGREGATE|DOMAIN|TYPE|SEQUENCE|TABLE|VIEW)\s+"
    r"(?:@extschema@\.|@stateschema@\.)?(\"[^\"]+\"|\w+)",
    re.IGNORECASE | re.MULTILINE,
)
# Operators are named by symbols, not identifiers.
CREATE_OPERATOR = re.compile(r"^CREATE\s+OPERATOR\s+(?:@extschema@\.)?([~!@#%^&|`?+\-*/<>=]+)\s*\(", re.MULTILINE)


def version():
    match = re.search(r'^version\s*=\s*"([^"]+)"', (REPO / "Cargo.toml").read_text(), re.MULTILINE)
    return match.group(1)


# The declarations both DO blocks share: the schema muid_new's relations go to (@stateschema@ in the
# sources), given in the setting comb_ext_install.state_schema, else the edition's own.
STATE_DECLARATIONS = """state text := coalesce(nullif(pg_catalog.current_setting('comb_ext_install.state_schema', true), ''), pg_catalog.current_schema());
    state_oid oid := (SELECT n.oid FROM pg_catalog.pg_namespace AS n
                      WHERE n.nspname = coalesce(nullif(pg_catalog.current_setting('comb_ext_install.state_schema', true), ''), pg_catalog.current_schema()));"""

# The schema check every install runs first (both ways of installing): it names no object of the
# edition, so the DO installer can run it before it substitutes the schema's name into anything.
GUARD = HERE / "_guard.sql"
SHARED = [REPO / "sql" / "adopt.sql"]


def sources():
    # Every portable/*.sql in name order (_guard.sql, comb.sql, ids.sql, ...): a new family file is
    # picked up as is.
    files = sorted(p for p in HERE.glob("*.sql"))
    if not files:
        sys.exit("portable/build.py: no portable/*.sql")
    # Hand-written SQL both editions run, the same text (sql/adopt.sql refuses the generators this edition
    # does not have).
    files += SHARED
    parts = []
    for path in files:
        text = path.read_text()
        for tag in (SCRIPT_TAG, BLOCK_TAG):
            if tag in text:
                sys.exit(f"portable/build.py: {path.name} contains {tag}, the tag the generated files quote it with")
        parts.append(f"-- ==== {path.relative_to(REPO)} ====\n{text.rstrip()}\n")
    if "@extschema@" in GUARD.read_text() or "@stateschema@" in GUARD.read_text():
        sys.exit("portable/build.py: _guard.sql must not name @extschema@ or @stateschema@: the installer runs it before substituting")
    return files, expand_macros("\n".join(parts))


# An expression the edition needs in more than one place (a PL/pgSQL body and an inlined SQL one)
# is written once, as a line of the sources
#     -- @define NAME(param, ...) expression
# and used as @NAME(argument, ...); each use becomes the expression with every parameter replaced by
# its argument in parentheses (arguments may use macros too). The lines stay in the output, as
# comments that say where the expressions come from.
DEFINE = re.compile(r"^-- @define ([A-Z_]+)\(([^)]*)\) (.+)$", re.MULTILINE)
USE = re.compile(r"@([A-Z_]+)\(")


def expand_macros(script):
    macros = {name: ([p.strip() for p in params.split(",") if p.strip()], body)
              for name, params, body in DEFINE.findall(script)}
    out, pending = [], []
    for line in script.split("\n") + [None]:  # uses may span lines; the @define lines stay as they are
        if line is None or DEFINE.match(line):
            if pending:
                out.append(expand_line("\n".join(pending), macros))
                pending = []
            if line is not None:
                out.append(line)
        else:
            pending.append(line)
    return "\n".join(out)


def expand_line(text, macros):
    out, at = [], 0
    while (m := USE.search(text, at)):
        name = m.group(1)
        if name not in macros:
            sys.exit(f"portable/build.py: @{name}( is not a macro: no -- @define {name}(...) line")
        params, body = macros[name]
        args, depth, start, i = [], 0, m.end(), m.end()
        while True:  # the arguments, split at top-level commas, up to the matching parenthesis
            if i >= len(text):
                sys.exit(f"portable/build.py: @{name}( is not closed")
            c = text[i]
            if c == "(":
                depth += 1
            elif c == ")" and depth > 0:
                depth -= 1
            elif c in ",)" and depth == 0:
                args.append(text[start:i].strip())
                start = i + 1
                if c == ")":
                    break
            i += 1
        if len(args) != len(params):
            sys.exit(f"portable/build.py: @{name} takes {len(params)} arguments, given {len(args)}")
        # All parameters at once, so that an argument's text is never taken for another parameter.
        values = {param: f"({expand_line(arg, macros)})" for param, arg in zip(params, args)}
        expansion = re.sub(r"\b(" + "|".join(map(re.escape, params)) + r")\b", lambda p: values[p.group(1)], body) if params else body
        out.append(text[at:m.start()] + "(" + expansion + ")")
        at = i + 1
    return "".join(out) + text[at:]


def objects(script):
    """(kind, name) of every object the script creates, in order; kinds: routine, type, relation."""
    found = []
    for kind, name in CREATE.findall(script):
        kind = kind.upper()
        group = {"FUNCTION": "routine", "PROCEDURE": "routine", "AGGREGATE": "routine",
                 "DOMAIN": "type", "TYPE": "type"}.get(kind, "relation")
        name = name[1:-1] if name.startswith('"') else name.lower()
        if (group, name) not in found:
            found.append((group, name))
    for name in CREATE_OPERATOR.findall(script):
        if ("operator", name) not in found:
            found.append(("operator", name))
    return found


def sql_array(names):
    return "ARRAY[" + ", ".join("'" + n.replace("'", "''") + "'" for n in names) + "]::text[]"


def header(files, what):
    names = ", ".join(str(p.relative_to(REPO)) for p in files)
    return (f"-- comb_ext {version()}, SQL edition: {what}\n"
            f"-- GENERATED by portable/build.py from {names}; edit those, then run it.\n"
            f"-- docs/portable.md\n")


def install(files, script, found):
    routines = [n for g, n in found if g == "routine"]
    types = [n for g, n in found if g == "type"]
    relations = [n for g, n in found if g == "relation"]
    operators = [n for g, n in found if g == "operator"]
    return header(files, "install into the first schema of the search_path") + f"""-- From psql:   psql -v ON_ERROR_STOP=1 -c 'SET search_path = ids' -f comb_ext_install.sql
-- Elsewhere:   SET search_path = ids;  then run this file's text.
-- Needs only CREATE on that schema. Refuses a schema that holds any of the edition's names already
-- (the compiled edition, or this one): the two editions must not share a schema.
DO {BLOCK_TAG}
DECLARE
    target text := pg_catalog.current_schema();
    target_oid oid := (SELECT n.oid FROM pg_catalog.pg_namespace AS n WHERE n.nspname = pg_catalog.current_schema());
    {STATE_DECLARATIONS}
    clash text;
BEGIN
    IF target IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = '3F000',
            MESSAGE = 'comb_ext SQL edition: no schema to install into: the search_path names no existing schema',
            HINT = 'SET search_path = your_schema; then run the installer again.';
    END IF;
    SELECT pg_catalog.string_agg(DISTINCT found.name, ', ') INTO clash FROM (
        SELECT p.proname::text AS name FROM pg_catalog.pg_proc AS p
        WHERE p.pronamespace = target_oid AND p.proname = ANY ({sql_array(routines)})
        UNION ALL
        SELECT t.typname::text FROM pg_catalog.pg_type AS t
        WHERE t.typnamespace = target_oid AND t.typname = ANY ({sql_array(types)})
        UNION ALL
        SELECT c.relname::text FROM pg_catalog.pg_class AS c
        WHERE c.relnamespace IN (target_oid, state_oid) AND c.relname = ANY ({sql_array(relations)})
        UNION ALL
        SELECT o.oprname::text FROM pg_catalog.pg_operator AS o
        WHERE o.oprnamespace = target_oid AND o.oprname = ANY ({sql_array(operators)})
    ) AS found;
    IF clash IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = '42710',
            MESSAGE = pg_catalog.format('comb_ext SQL edition: schema %I already has %s', target, clash),
            HINT = 'Install into a schema of its own: the compiled edition and the SQL edition must not share a schema; run comb_ext_uninstall.sql there first to reinstall.';
    END IF;
    -- The schema's name is checked before it is substituted into anything (portable/_guard.sql; the
    -- script below runs it again, which is what CREATE EXTENSION through pg_tle runs).
    EXECUTE {SCRIPT_TAG}
{GUARD.read_text().rstrip()}
{SCRIPT_TAG};
    EXECUTE pg_catalog.replace(pg_catalog.replace({SCRIPT_TAG}
{script}{SCRIPT_TAG}, '@stateschema@', pg_catalog.quote_ident(state)), '@extschema@', pg_catalog.quote_ident(target));
    RAISE NOTICE '%', pg_catalog.format('comb_ext SQL edition {version()} installed in schema %s%s', target,
        CASE WHEN state <> target THEN pg_catalog.format(', muid_new''s state in schema %s', state) ELSE '' END);
END
{BLOCK_TAG};
"""


def uninstall(files, found):
    routines = [n for g, n in found if g == "routine"]
    types = [n for g, n in found if g == "type"]
    relations = [n for g, n in found if g == "relation"]
    operators = [n for g, n in found if g == "operator"]
    return header(files, "uninstall from the first schema of the search_path") + f"""-- From psql:   psql -v ON_ERROR_STOP=1 -c 'SET search_path = ids' -f comb_ext_uninstall.sql
-- Drops the edition's own names from that schema and nothing else, never with CASCADE: while a
-- table, view or function of yours uses sno or uid8_mode it stops with 2BP01 and drops nothing.
DO {BLOCK_TAG}
DECLARE
    target text := pg_catalog.current_schema();
    target_oid oid := (SELECT n.oid FROM pg_catalog.pg_namespace AS n WHERE n.nspname = pg_catalog.current_schema());
    {STATE_DECLARATIONS}
    remaining text[];
    object text;
    dropped boolean;
    last_error text;
BEGIN
    IF target IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = '3F000',
            MESSAGE = 'comb_ext SQL edition: no schema to uninstall from: the search_path names no existing schema';
    END IF;
    -- The edition's objects in that schema, as DROP statements (routines by their signature).
    SELECT pg_catalog.array_agg(statement) INTO remaining FROM (
        SELECT pg_catalog.format('DROP %s %s', CASE p.prokind WHEN 'a' THEN 'AGGREGATE' WHEN 'p' THEN 'PROCEDURE' ELSE 'FUNCTION' END,
                                 p.oid::regprocedure) AS statement
        FROM pg_catalog.pg_proc AS p
        WHERE p.pronamespace = target_oid AND p.proname = ANY ({sql_array(routines)})
        UNION ALL
        SELECT pg_catalog.format('DROP %s %I.%I', CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' ELSE 'TABLE' END,
                                 CASE WHEN c.relnamespace = target_oid THEN target ELSE state END, c.relname)
        FROM pg_catalog.pg_class AS c
        WHERE c.relnamespace IN (target_oid, state_oid) AND c.relname = ANY ({sql_array(relations)})
        UNION ALL
        SELECT pg_catalog.format('DROP %s %I.%I', CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, target, t.typname)
        FROM pg_catalog.pg_type AS t
        WHERE t.typnamespace = target_oid AND t.typname = ANY ({sql_array(types)})
        UNION ALL
        SELECT pg_catalog.format('DROP OPERATOR %s', o.oid::pg_catalog.regoperator)
        FROM pg_catalog.pg_operator AS o
        WHERE o.oprnamespace = target_oid AND o.oprname = ANY ({sql_array(operators)})
    ) AS statements;
    IF remaining IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = '42704',
            MESSAGE = pg_catalog.format('comb_ext SQL edition: schema %I holds none of its objects', target);
    END IF;
    -- Objects depend on each other (functions on the sno domain, the domain's check on a function):
    -- drop what nothing depends on, again and again, until all are gone or a round drops nothing.
    LOOP
        dropped := false;
        FOREACH object IN ARRAY remaining LOOP
            BEGIN
                EXECUTE object;
                remaining := pg_catalog.array_remove(remaining, object);
                dropped := true;
            EXCEPTION WHEN dependent_objects_still_exist THEN
                GET STACKED DIAGNOSTICS last_error = MESSAGE_TEXT;
            END;
        END LOOP;
        EXIT WHEN remaining = '{{}}' OR NOT dropped;
    END LOOP;
    IF remaining <> '{{}}' THEN
        RAISE EXCEPTION USING ERRCODE = '2BP01',
            MESSAGE = pg_catalog.format('comb_ext SQL edition: cannot uninstall from schema %I: %s', target, last_error),
            DETAIL = pg_catalog.format('Still there: %s. Nothing was dropped.', pg_catalog.array_to_string(remaining, '; ')),
            HINT = 'Drop or change what uses them first (for example a column of type sno), then uninstall.';
    END IF;
    RAISE NOTICE 'comb_ext SQL edition uninstalled from schema %', target;
END
{BLOCK_TAG};
"""


def pgtle(files, script):
    return header(files, "pg_tle installer") + f"""-- Run as a member of pgtle_admin, in each database that is to have it; then, as a role with CREATE
-- on the target schema:   CREATE EXTENSION comb_ext SCHEMA ids;
-- The extension's name is comb_ext, the compiled edition's, so application SQL and
-- CREATE EXTENSION lines stay as they are. pg_tle refuses that name (55000) on a server that has
-- the compiled edition's comb_ext.control: there, use the compiled edition. Another name can be
-- given, for tests: SET comb_ext_install.extension_name = 'other';
DO {BLOCK_TAG}
BEGIN
    PERFORM pgtle.install_extension(
        coalesce(nullif(pg_catalog.current_setting('comb_ext_install.extension_name', true), ''), 'comb_ext'),
        '{version()}',
        'comb_ext SQL edition: COMB uuids, sno, muid and uid8 without compiled code (docs/portable.md)',
        {SCRIPT_TAG}
{script.replace("@stateschema@", "@extschema@")}{SCRIPT_TAG},
        '{{}}'::text[]);
END
{BLOCK_TAG};
"""


def generated():
    files, script = sources()
    found = objects(script)
    return {
        "comb_ext_install.sql": install(files, script, found),
        "comb_ext_uninstall.sql": uninstall(files, found),
        "comb_ext_pgtle.sql": pgtle(files, script),
    }


def main():
    outputs = generated()
    if sys.argv[1:] == ["--check"]:
        stale = [name for name, text in outputs.items()
                 if not (DIST / name).exists() or (DIST / name).read_text() != text]
        if stale:
            print("portable/dist/ does not match portable/*.sql: " + ", ".join(stale)
                  + " (run python3 portable/build.py and commit)", file=sys.stderr)
            sys.exit(1)
        print("portable/dist/ matches portable/*.sql")
        return
    if sys.argv[1:]:
        sys.exit(__doc__)
    DIST.mkdir(exist_ok=True)
    for name, text in outputs.items():
        (DIST / name).write_text(text)
        print(f"wrote portable/dist/{name}")


if __name__ == "__main__":
    main()
