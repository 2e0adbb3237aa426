--
-- ALTER EXTENSION comb_ext UPDATE from each previous release, 0.1.0, 0.2.0, 0.3.0, 0.4.0 and 0.5.0 (scripts/test.sh
-- installs their scripts from tests/upgrade/, as a server that ran them has them), gives exactly
-- the extension a fresh install gives: the same objects, function definitions, comments, and
-- operator-family members (support functions such as btequalimage are not objects of their own).
--
CREATE DATABASE regress_fresh;
CREATE DATABASE regress_from_010;
CREATE DATABASE regress_from_020;
CREATE DATABASE regress_from_030;
CREATE DATABASE regress_from_040;
CREATE DATABASE regress_from_050;
SELECT format('host=%s port=%s dbname=', current_setting('unix_socket_directories'), current_setting('port')) AS conn \gset
SELECT dblink_connect('fresh', :'conn' || 'regress_fresh'),
       dblink_connect('from_010', :'conn' || 'regress_from_010'),
       dblink_connect('from_020', :'conn' || 'regress_from_020'),
       dblink_connect('from_030', :'conn' || 'regress_from_030'),
       dblink_connect('from_040', :'conn' || 'regress_from_040'),
       dblink_connect('from_050', :'conn' || 'regress_from_050');
SELECT dblink_exec('fresh', 'CREATE EXTENSION comb_ext');
SELECT dblink_exec('from_010', $$CREATE EXTENSION comb_ext VERSION '0.1.0'$$);
SELECT dblink_exec('from_020', $$CREATE EXTENSION comb_ext VERSION '0.2.0'$$);
SELECT dblink_exec('from_030', $$CREATE EXTENSION comb_ext VERSION '0.3.0'$$);
SELECT dblink_exec('from_040', $$CREATE EXTENSION comb_ext VERSION '0.4.0'$$);
SELECT dblink_exec('from_050', $$CREATE EXTENSION comb_ext VERSION '0.5.0'$$);
SELECT * FROM dblink('from_010', $$SELECT extversion, comb_timestamp(comb_uuid('2024-01-01 00:00+00'::timestamptz)) = '2024-01-01 00:00+00'
                                   FROM pg_extension WHERE extname = 'comb_ext'$$) AS t(version text, works bool);
SELECT * FROM dblink('from_020', $$SELECT extversion, sno_new() IS NOT NULL FROM pg_extension WHERE extname = 'comb_ext'$$)
    AS t(version text, works bool);
-- An index built under 0.2.0 has deduplication off (no btequalimage); after the update and a
-- REINDEX it is on, and the index shrinks: 20,000 snos of 20 distinct values.
SELECT dblink_exec('from_020', $$CREATE EXTENSION pageinspect;
    CREATE TABLE repeats AS SELECT sno_from_parts('2024-01-01 00:00+00'::timestamptz + (i % 20) * interval '1 s', 0, 1, 0) AS s
    FROM generate_series(1, 20000) i;
    CREATE INDEX repeats_s ON repeats (s)$$);
CREATE TEMP TABLE before_update AS
SELECT * FROM dblink('from_020', $$SELECT (bt_metap('repeats_s')).allequalimage, pg_relation_size('repeats_s')$$)
    AS t(allequalimage bool, bytes bigint);
SELECT allequalimage AS before_update FROM before_update;
-- A privilege narrowed under 0.5.0 stays narrow: 0.6.0's update adds overloads of comb_timestamp that take
-- text, and a role without EXECUTE on the original is refused through them too (42501).
CREATE ROLE regress_upgrade_reader;
SELECT dblink_exec('from_050', 'REVOKE EXECUTE ON FUNCTION comb_timestamp(uuid, comb_format) FROM PUBLIC');
SELECT dblink_exec('from_010', 'ALTER EXTENSION comb_ext UPDATE');
SELECT dblink_exec('from_020', 'ALTER EXTENSION comb_ext UPDATE');
SELECT dblink_exec('from_030', 'ALTER EXTENSION comb_ext UPDATE');
SELECT dblink_exec('from_040', 'ALTER EXTENSION comb_ext UPDATE');
SELECT dblink_exec('from_050', 'ALTER EXTENSION comb_ext UPDATE');
SELECT dblink_exec('from_050', 'SET ROLE regress_upgrade_reader');
SELECT call, regress_error(format('SELECT * FROM dblink(%L, %L) AS t(ts timestamptz)', 'from_050', 'SELECT ' || call)) AS outcome
FROM (VALUES ('comb_timestamp(''018cc820-db2e-4000-9318-2b65fb840cd1'')'),
             ('comb_timestamp(''018cc820-db2e-4000-9318-2b65fb840cd1''::text, ''postgresql'')'),
             ('comb_timestamp(''018cc820-db2e-4000-9318-2b65fb840cd1''::uuid, ''postgresql'')')) c(call);
SELECT dblink_exec('from_050', 'RESET ROLE');
SELECT dblink_exec('from_050', 'GRANT EXECUTE ON FUNCTION comb_timestamp(uuid, comb_format) TO PUBLIC');
SELECT dblink_exec('from_020', 'REINDEX INDEX repeats_s');
SELECT t.allequalimage AS after_reindex, b.bytes / 8192 AS pages_before, t.bytes / 8192 AS pages_after
FROM dblink('from_020', $$SELECT (bt_metap('repeats_s')).allequalimage, pg_relation_size('repeats_s')$$)
    AS t(allequalimage bool, bytes bigint), before_update b;
SELECT dblink_exec('from_020', 'DROP TABLE repeats; DROP EXTENSION pageinspect');

CREATE TEMP VIEW regress_objects_query AS SELECT $$
    SELECT pg_describe_object(d.classid, d.objid, d.objsubid),
           obj_description(d.objid, d.classid::regclass::name),
           (SELECT concat_ws(' | ', pg_get_function_arguments(p.oid), pg_get_function_result(p.oid), p.prokind,
                             p.provolatile, p.proparallel, p.proisstrict, p.prosecdef, p.prosrc, p.probin)
            FROM pg_proc p WHERE d.classid = 'pg_proc'::regclass AND p.oid = d.objid)
    FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'comb_ext'
    WHERE d.deptype = 'e'
      -- PostgreSQL 18 also makes a type's implicit array type a member of the extension.
      AND NOT EXISTS (SELECT FROM pg_type t WHERE d.classid = 'pg_type'::regclass AND t.oid = d.objid AND t.typcategory = 'A')
    UNION ALL
    SELECT pg_describe_object(m.classid, m.objid, 0), NULL, NULL
    FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'comb_ext'
    JOIN (SELECT 'pg_amproc'::regclass AS classid, oid AS objid, amprocfamily AS family FROM pg_amproc
          UNION ALL SELECT 'pg_amop'::regclass, oid, amopfamily FROM pg_amop) m ON m.family = d.objid
    WHERE d.deptype = 'e' AND d.classid = 'pg_opfamily'::regclass$$ AS q;
CREATE TEMP TABLE fresh_objects AS
SELECT * FROM dblink('fresh', (SELECT q FROM regress_objects_query)) AS t(object text, comment text, definition text);
CREATE TEMP TABLE from_010_objects AS
SELECT * FROM dblink('from_010', (SELECT q FROM regress_objects_query)) AS t(object text, comment text, definition text);
CREATE TEMP TABLE from_020_objects AS
SELECT * FROM dblink('from_020', (SELECT q FROM regress_objects_query)) AS t(object text, comment text, definition text);
CREATE TEMP TABLE from_030_objects AS
SELECT * FROM dblink('from_030', (SELECT q FROM regress_objects_query)) AS t(object text, comment text, definition text);
CREATE TEMP TABLE from_040_objects AS
SELECT * FROM dblink('from_040', (SELECT q FROM regress_objects_query)) AS t(object text, comment text, definition text);
CREATE TEMP TABLE from_050_objects AS
SELECT * FROM dblink('from_050', (SELECT q FROM regress_objects_query)) AS t(object text, comment text, definition text);
SELECT (SELECT count(*) FROM fresh_objects) AS fresh, (SELECT count(*) FROM from_010_objects) AS from_010,
       (SELECT count(*) FROM from_020_objects) AS from_020, (SELECT count(*) FROM from_030_objects) AS from_030,
       (SELECT count(*) FROM from_040_objects) AS from_040, (SELECT count(*) FROM from_050_objects) AS from_050;
-- The members 0.3.0 adds, in the fresh install (the updated ones must equal it, below).
SELECT object FROM fresh_objects WHERE object LIKE '%btequalimage%' ORDER BY object COLLATE "C";
-- Differences (none expected).
(SELECT 'only fresh (vs 0.1.0)' AS side, * FROM fresh_objects EXCEPT SELECT 'only fresh (vs 0.1.0)', * FROM from_010_objects)
UNION ALL
(SELECT 'only from 0.1.0', * FROM from_010_objects EXCEPT SELECT 'only from 0.1.0', * FROM fresh_objects)
UNION ALL
(SELECT 'only fresh (vs 0.2.0)', * FROM fresh_objects EXCEPT SELECT 'only fresh (vs 0.2.0)', * FROM from_020_objects)
UNION ALL
(SELECT 'only from 0.2.0', * FROM from_020_objects EXCEPT SELECT 'only from 0.2.0', * FROM fresh_objects)
UNION ALL
(SELECT 'only fresh (vs 0.3.0)', * FROM fresh_objects EXCEPT SELECT 'only fresh (vs 0.3.0)', * FROM from_030_objects)
UNION ALL
(SELECT 'only from 0.3.0', * FROM from_030_objects EXCEPT SELECT 'only from 0.3.0', * FROM fresh_objects)
UNION ALL
(SELECT 'only fresh (vs 0.4.0)', * FROM fresh_objects EXCEPT SELECT 'only fresh (vs 0.4.0)', * FROM from_040_objects)
UNION ALL
(SELECT 'only from 0.4.0', * FROM from_040_objects EXCEPT SELECT 'only from 0.4.0', * FROM fresh_objects)
UNION ALL
(SELECT 'only fresh (vs 0.5.0)', * FROM fresh_objects EXCEPT SELECT 'only fresh (vs 0.5.0)', * FROM from_050_objects)
UNION ALL
(SELECT 'only from 0.5.0', * FROM from_050_objects EXCEPT SELECT 'only from 0.5.0', * FROM fresh_objects);
-- Enum labels are not objects of their own: the same labels in the same order everywhere.
SELECT db, labels FROM (VALUES ('fresh'), ('from_010'), ('from_020'), ('from_030'), ('from_040'), ('from_050')) d(db),
    LATERAL dblink(db, $$SELECT enum_range(NULL::comb_format)::text || ' ' || enum_range(NULL::uid8_mode)::text$$) AS t(labels text)
ORDER BY db;

-- The updated extensions work.
SELECT * FROM dblink('from_010', $$SELECT extversion, sno_new() IS NOT NULL, muid_new() IS NOT NULL, uid8_new() IS NOT NULL,
                                   'brpk4q72xwf2m63l'::sno::text FROM pg_extension WHERE extname = 'comb_ext'$$)
    AS t(version text, sno bool, muid bool, uid8 bool, text text);
SELECT * FROM dblink('from_020', $$SELECT extversion, sno_new() IS NOT NULL, muid_new() IS NOT NULL, uid8_new() IS NOT NULL,
                                   'brpk4q72xwf2m63l'::sno::text FROM pg_extension WHERE extname = 'comb_ext'$$)
    AS t(version text, sno bool, muid bool, uid8 bool, text text);
SELECT * FROM dblink('from_030', $$SELECT extversion, (SELECT substr(u::text, 15, 1) = '7' AND substr(u::text, 20, 1) IN ('8', '9', 'a', 'b') FROM comb_uuid('uuidv7') u),
                                   comb_timestamp(comb_floor('2025-01-01 00:00+00', 'uuidv7'), 'uuidv7') = '2025-01-01 00:00+00'
                                   FROM pg_extension WHERE extname = 'comb_ext'$$)
    AS t(version text, uuidv7_version_and_variant bool, uuidv7_decodes bool);
-- 0.5.0's function: one row per family at least (the marks of this server's generators).
SELECT * FROM dblink('from_040', $$SELECT extversion, (SELECT string_agg(DISTINCT family, ',' ORDER BY family) FROM comb_ext_marks())
                                   FROM pg_extension WHERE extname = 'comb_ext'$$)
    AS t(version text, families text);
-- After the update, calls as the docs write them resolve to the extension's functions (a quoted uuid to 0.6.0's text overload).
SELECT * FROM dblink('from_050', $$SELECT extversion, comb_timestamp('018cc820-db2e-4000-9318-2b65fb840cd1', 'postgresql'),
                                   uid8_timestamp(uid8_from_parts(1704164645678, 0, 1, 2, 'time_sequential'))
                                   FROM pg_extension WHERE extname = 'comb_ext'$$)
    AS t(version text, comb timestamptz, uid8 timestamptz);

SELECT dblink_disconnect('fresh'), dblink_disconnect('from_010'), dblink_disconnect('from_020'), dblink_disconnect('from_030'),
       dblink_disconnect('from_040'), dblink_disconnect('from_050');
DROP DATABASE regress_fresh;
DROP DATABASE regress_from_010;
DROP DATABASE regress_from_020;
DROP DATABASE regress_from_030;
DROP DATABASE regress_from_040;
DROP DATABASE regress_from_050;
DROP ROLE regress_upgrade_reader;
