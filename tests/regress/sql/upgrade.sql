--
-- ALTER EXTENSION comb_ext UPDATE from 0.1.0, the previous release (scripts/test.sh installs its
-- script from tests/upgrade/, as a server that ran 0.1.0 has it), gives exactly the extension a
-- fresh install gives: the same objects, function definitions and comments.
--
CREATE DATABASE regress_fresh;
CREATE DATABASE regress_upgraded;
SELECT format('host=%s port=%s dbname=', current_setting('unix_socket_directories'), current_setting('port')) AS conn \gset
SELECT dblink_connect('fresh', :'conn' || 'regress_fresh'), dblink_connect('upgraded', :'conn' || 'regress_upgraded');
SELECT dblink_exec('fresh', 'CREATE EXTENSION comb_ext');
SELECT dblink_exec('upgraded', $$CREATE EXTENSION comb_ext VERSION '0.1.0'$$);
SELECT * FROM dblink('upgraded', $$SELECT extversion, comb_timestamp(comb_uuid('2024-01-01 00:00+00'::timestamptz)) = '2024-01-01 00:00+00'
                                   FROM pg_extension WHERE extname = 'comb_ext'$$) AS t(version text, works bool);
SELECT dblink_exec('upgraded', 'ALTER EXTENSION comb_ext UPDATE');

CREATE TEMP VIEW regress_objects_query AS SELECT $$
    SELECT pg_describe_object(d.classid, d.objid, d.objsubid),
           obj_description(d.objid, d.classid::regclass::name),
           (SELECT concat_ws(' | ', pg_get_function_arguments(p.oid), pg_get_function_result(p.oid), p.prokind,
                             p.provolatile, p.proparallel, p.proisstrict, p.prosecdef, p.prosrc, p.probin)
            FROM pg_proc p WHERE d.classid = 'pg_proc'::regclass AND p.oid = d.objid)
    FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'comb_ext'
    WHERE d.deptype = 'e'$$ AS q;
CREATE TEMP TABLE fresh_objects AS
SELECT * FROM dblink('fresh', (SELECT q FROM regress_objects_query)) AS t(object text, comment text, definition text);
CREATE TEMP TABLE upgraded_objects AS
SELECT * FROM dblink('upgraded', (SELECT q FROM regress_objects_query)) AS t(object text, comment text, definition text);
SELECT (SELECT count(*) FROM fresh_objects) AS fresh, (SELECT count(*) FROM upgraded_objects) AS upgraded;
-- Differences (none expected).
(SELECT 'only fresh' AS side, * FROM fresh_objects EXCEPT SELECT 'only fresh', * FROM upgraded_objects)
UNION ALL
(SELECT 'only upgraded', * FROM upgraded_objects EXCEPT SELECT 'only upgraded', * FROM fresh_objects);

-- The updated extension works.
SELECT * FROM dblink('upgraded', $$SELECT extversion, sno_new() IS NOT NULL, muid_new() IS NOT NULL, uid8_new() IS NOT NULL,
                                   'brpk4q72xwf2m63l'::sno::text FROM pg_extension WHERE extname = 'comb_ext'$$)
    AS t(version text, sno bool, muid bool, uid8 bool, text text);

SELECT dblink_disconnect('fresh'), dblink_disconnect('upgraded');
DROP DATABASE regress_fresh;
DROP DATABASE regress_upgraded;
