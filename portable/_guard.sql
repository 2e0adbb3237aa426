-- comb_ext SQL edition: refuses a schema it cannot be safe in (docs/portable.md, "Threat model").
-- Runs first, in the schema being installed into (the search_path's first: the DO installer's and
-- CREATE EXTENSION's alike), so both ways of installing refuse the same schemas; and checks the
-- state schema the psql installer is given (comb_ext_install.state_schema), if any.
DO $guard$
DECLARE
    target constant text := pg_catalog.current_schema();
    state constant text := coalesce(nullif(pg_catalog.current_setting('comb_ext_install.state_schema', true), ''),
                                    pg_catalog.current_schema());
    schema_name text;
    privileges text;
    others text;
BEGIN
    FOREACH schema_name IN ARRAY ARRAY[target, state] LOOP
        -- PostgreSQL's own CREATE EXTENSION refuses these in the schema of a script that names it
        -- (CVE-2023-39417): they can end a quoted identifier, a string or a dollar-quoted body.
        IF schema_name ~ '["$''\\]' THEN
            RAISE EXCEPTION USING ERRCODE = '22023',
                MESSAGE = pg_catalog.format('comb_ext SQL edition: invalid character in schema name %s: must not contain any of "$''\', pg_catalog.quote_ident(schema_name)),
                HINT = 'Install into a schema whose name has none of the characters " $ '' \.';
        END IF;
        IF NOT EXISTS (SELECT FROM pg_catalog.pg_namespace AS n WHERE n.nspname = schema_name) THEN
            RAISE EXCEPTION USING ERRCODE = '3F000',
                MESSAGE = pg_catalog.format('comb_ext SQL edition: schema %s does not exist', pg_catalog.quote_ident(schema_name));
        END IF;
        -- Any other role that can create objects in the edition's schema could plant an overload or
        -- operator its callers would run; in the state schema, any other that can even name its
        -- relations could queue a lock request in front of muid_new's. Superusers can do anything
        -- anyway, and members of the installing role act as it. Predefined roles (pg_read_all_data
        -- can use every schema) are not named: their members are, each. (With PUBLIC, every role
        -- can: the message names PUBLIC alone.)
        privileges := CASE WHEN schema_name = target THEN 'CREATE' ELSE 'USAGE, CREATE' END;
        SELECT CASE WHEN pg_catalog.bool_or(who = 'PUBLIC') THEN 'PUBLIC'
                    ELSE pg_catalog.string_agg(pg_catalog.quote_ident(who), ', ' ORDER BY who) END
        INTO others FROM (
            SELECT 'PUBLIC' AS who
            FROM pg_catalog.pg_namespace AS n,
                 pg_catalog.aclexplode(coalesce(n.nspacl, pg_catalog.acldefault('n', n.nspowner))) AS a
            WHERE n.nspname = schema_name AND a.grantee = 0
              AND a.privilege_type = ANY (pg_catalog.string_to_array(privileges, ', '))
            UNION
            SELECT r.rolname::text
            FROM pg_catalog.pg_roles AS r, pg_catalog.pg_namespace AS n
            WHERE n.nspname = schema_name AND NOT r.rolsuper AND r.rolname <> current_user AND r.oid >= 16384
              AND pg_catalog.has_schema_privilege(r.oid, n.oid, privileges)
              AND NOT pg_catalog.pg_has_role(r.oid, current_user, 'MEMBER')
        ) AS found;
        IF others IS NOT NULL AND schema_name = target THEN
            RAISE EXCEPTION USING ERRCODE = '42501',
                MESSAGE = pg_catalog.format('comb_ext SQL edition: schema %s is not safe to install into: %s can create objects in it',
                                            pg_catalog.quote_ident(schema_name), others),
                DETAIL = 'A function or operator another role creates in the edition''s schema can run in its callers'' sessions.',
                HINT = pg_catalog.format('REVOKE CREATE ON SCHEMA %s FROM %s; or install into a schema where only you can create objects.',
                                         pg_catalog.quote_ident(schema_name), others);
        ELSIF others IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = '42501',
                MESSAGE = pg_catalog.format('comb_ext SQL edition: state schema %s is not private: %s can use it',
                                            pg_catalog.quote_ident(schema_name), others),
                DETAIL = 'A role that can name muid_new''s relations can queue a lock request that stops every muid_new call.',
                HINT = pg_catalog.format('REVOKE USAGE, CREATE ON SCHEMA %s FROM %s; the callers need USAGE on the edition''s schema only.',
                                         pg_catalog.quote_ident(schema_name), others);
        END IF;
    END LOOP;
END
$guard$;
