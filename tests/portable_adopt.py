"""comb_ext_adopt in the SQL edition (docs/portable.md, docs/adopting.md): the same function as the compiled
edition's (sql/adopt.sql), run by the role that installed the edition, in its schema.

Checks:
- a gen_random_uuid() key adopted to 'uuidv7': the report's new default names the edition's comb_uuid, new rows
  are version 7 and decode with comb_timestamp(id, 'uuidv7', false), the old ones decode to NULL, no id twice;
- a dry run changes nothing; a uuid key adopted to 'muid': new rows take muid_new's values;
- 'uid8', 'uid8 spread' and 'sno', which the SQL edition does not make, are refused with 0A000 and the table
  keeps its default.

    python tests/portable_adopt.py CONNINFO SCHEMA
Prints one line per check and "portable adopt: N passed, N failed"; exits 1 on a failure.
"""

import sys

import psycopg


def main():
    conninfo, schema = sys.argv[1], sys.argv[2]
    passed = failed = 0

    def check(ok, line):
        nonlocal passed, failed
        passed, failed = passed + bool(ok), failed + (not ok)
        print(f"portable adopt: {line}: {'PASS' if ok else 'FAIL'}", flush=True)

    s = schema  # a plain lower-case name, as the edition's reports write it
    with psycopg.connect(conninfo, autocommit=True) as conn:
        q = lambda sql, *args: conn.execute(sql.replace("S.", s + "."), args or None)  # noqa: E731
        q("DROP TABLE IF EXISTS S.adopt_v7, S.adopt_muid, S.adopt_serial, S.adopt_sno")
        q("CREATE TABLE S.adopt_v7 (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), old boolean NOT NULL DEFAULT false)")
        q("INSERT INTO S.adopt_v7 (old) SELECT true FROM generate_series(1, 100)")

        changed = q("SELECT changed FROM S.comb_ext_adopt('S.adopt_v7', 'id', 'uuidv7', dry_run => true)").fetchone()[0]
        default = q("SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'S.adopt_v7'::regclass").fetchone()[0]
        check(changed is False and default == "gen_random_uuid()",
              f"dry run: changed {changed}, the default still {default}")

        changed, new_default = q("SELECT changed, new_default FROM S.comb_ext_adopt('S.adopt_v7', 'id', 'uuidv7')").fetchone()
        q("INSERT INTO S.adopt_v7 (old) SELECT false FROM generate_series(1, 100)")
        rows, distinct, new_v7, old_null = q(
            "SELECT count(*), count(DISTINCT id), "
            "count(*) FILTER (WHERE NOT old AND S.comb_timestamp(id, 'uuidv7', false) IS NOT NULL), "
            "count(*) FILTER (WHERE old AND S.comb_timestamp(id, 'uuidv7', false) IS NULL) FROM S.adopt_v7").fetchone()
        check(changed and new_default == f"{s}.comb_uuid('uuidv7'::{s}.comb_format)" and rows == distinct == 200
              and new_v7 == 100 and old_null == 100,
              f"'uuidv7': changed {changed}, new default {new_default}; {rows} rows, {rows - distinct} ids twice, "
              f"{new_v7} of 100 new ones version 7, {old_null} of 100 old ones NULL under strict => false")

        q("CREATE TABLE S.adopt_muid (id uuid PRIMARY KEY DEFAULT gen_random_uuid())")
        q("INSERT INTO S.adopt_muid DEFAULT VALUES")
        new_default = q("SELECT new_default FROM S.comb_ext_adopt('S.adopt_muid', 'id', 'muid')").fetchone()[0]
        made = [r[0] for r in q("INSERT INTO S.adopt_muid SELECT FROM generate_series(1, 50) RETURNING id")]
        own = q("SELECT count(*) FROM unnest(%s::uuid[]) id WHERE S.muid_medallion(id) = S.muid_medallion(S.muid_new())",
                made).fetchone()[0]
        check(new_default == f"{s}.muid_new(0)" and len(set(made)) == 50 and own == 50,
              f"'muid': new default {new_default}; 50 inserts, {len(set(made))} distinct, {own} with this install's medallion")

        q("CREATE TABLE S.adopt_serial (id bigserial PRIMARY KEY)")
        q("CREATE TABLE S.adopt_sno (id S.sno PRIMARY KEY)")
        for table, generator in (("adopt_serial", "uid8"), ("adopt_serial", "uid8 spread"), ("adopt_sno", "sno")):
            try:
                q(f"SELECT S.comb_ext_adopt('S.{table}', 'id', %s)", generator)
                outcome = "no error"
            except psycopg.Error as e:
                outcome = f"{e.sqlstate}: {e.diag.message_primary}"
            default = q(f"SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'S.{table}'::regclass").fetchone()
            check(outcome.startswith("0A000: comb_ext_adopt: generator") and (default is None or "nextval" in default[0]),
                  f"'{generator}' refused: {outcome}; the default kept: {default[0] if default else None}")
        q("DROP TABLE S.adopt_v7, S.adopt_muid, S.adopt_serial, S.adopt_sno")
    print(f"portable adopt: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
