--
-- comb_ext is a trusted extension: what a non-superuser can and cannot do with it. A role that
-- owns a database installs it there; the objects belong to the bootstrap superuser, so the role
-- cannot redefine them, cannot reach the library's C symbols, and cannot change the settings
-- that decide uniqueness across servers. And every SQL-language function of the extension
-- schema-qualifies what it calls, so nothing on a caller's search_path can hijack it.
--
CREATE ROLE regress_owner LOGIN;
CREATE DATABASE regress_trusted OWNER regress_owner;
SELECT dblink_connect('owner', format('host=%s port=%s dbname=regress_trusted user=regress_owner',
                      current_setting('unix_socket_directories'), current_setting('port')));
SELECT * FROM dblink('owner', 'SELECT rolsuper FROM pg_roles WHERE rolname = current_user') AS t(superuser bool);
SELECT dblink_exec('owner', 'CREATE EXTENSION comb_ext');
SELECT * FROM dblink('owner', $$
    SELECT (SELECT rolname FROM pg_roles WHERE oid = e.extowner) AS extension_owner,
           (SELECT string_agg(DISTINCT r.rolname, ',') FROM pg_proc p JOIN pg_roles r ON r.oid = p.proowner
             JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.refobjid = e.oid) AS functions_owner,
           sno_new() IS NOT NULL AS can_generate
    FROM pg_extension e WHERE e.extname = 'comb_ext'$$) AS t(extension_owner text, functions_owner text, can_generate bool);

CREATE FUNCTION regress_owner_error(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    PERFORM dblink_exec('owner', statement);
    RETURN 'no error';
EXCEPTION WHEN others THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
-- (ALTER SYSTEM's refusal is worded differently before 15, which added GRANT SET ON PARAMETER:
-- its SQLSTATE is the same, and is what is shown.)
SELECT statement, CASE WHEN statement LIKE 'ALTER SYSTEM%' THEN left(regress_owner_error(statement), 5)
                       ELSE regress_owner_error(statement) END AS regress_owner_error
FROM (VALUES ('ALTER FUNCTION comb_uuid() SECURITY DEFINER'),
             ('CREATE OR REPLACE FUNCTION sno_new(integer) RETURNS sno LANGUAGE sql AS $f$ SELECT NULL::sno $f$'),
             ($$CREATE FUNCTION raw_symbol() RETURNS uuid LANGUAGE c AS '$libdir/comb_ext', 'comb_uuid_default_wrapper'$$),
             ('SET comb_ext.sno_partition = 1'),
             ('SET comb_ext.medallion = ''5'''),
             ('SET comb_ext.uid8_cluster_id = 1'),
             ('SET comb_ext.uid8_generator_id = 1'),
             ('ALTER SYSTEM SET comb_ext.sno_partition = 1')) v(statement);
-- The owner may drop what it installed.
SELECT dblink_exec('owner', 'DROP EXTENSION comb_ext');
SELECT dblink_disconnect('owner');
DROP FUNCTION regress_owner_error(text);
DROP DATABASE regress_trusted;
DROP ROLE regress_owner;

-- No SQL-language function calls anything without its schema (nothing unqualified before "(").
SELECT p.oid::regprocedure AS sql_function,
       p.prosrc !~ '(^|[^.[:alnum:]_@])(comb|sno|muid|uid8)_[[:alnum:]_]*\(' AS calls_are_qualified
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'comb_ext'
WHERE p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'sql')
ORDER BY p.oid::regprocedure::text COLLATE "C";
