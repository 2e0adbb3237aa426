-- comb_ext SQL edition: refuses a schema it cannot be safe in (docs/portable.md, "Threat model").
-- Runs first, in the schema being installed into (the search_path's first: the DO installer's and
-- CREATE EXTENSION's alike), so both ways of installing refuse the same schemas.
DO $guard$
DECLARE
    target constant text := pg_catalog.current_schema();
    others text;
BEGIN
    -- PostgreSQL's own CREATE EXTENSION refuses these in the schema of a script that names it
    -- (CVE-2023-39417): they can end a quoted identifier, a string or a dollar-quoted body.
    IF target ~ '["$''\\]' THEN
        RAISE EXCEPTION USING ERRCODE = '22023',
            MESSAGE = pg_catalog.format('comb_ext SQL edition: invalid character in schema name %s: must not contain any of "$''\', pg_catalog.quote_ident(target)),
            HINT = 'Install into a schema whose name has none of the characters " $ '' \.';
    END IF;
    -- Any other role that can create objects here could plant an overload or operator that the
    -- edition's callers would run (docs/portable.md). Superusers can do anything anyway, and
    -- members of the installing role act as it.
    -- (With PUBLIC, every role can: the message names PUBLIC alone.)
    SELECT CASE WHEN pg_catalog.bool_or(who = 'PUBLIC') THEN 'PUBLIC'
                ELSE pg_catalog.string_agg(pg_catalog.quote_ident(who), ', ' ORDER BY who) END
    INTO others FROM (
        SELECT 'PUBLIC' AS who
        FROM pg_catalog.pg_namespace AS n,
             pg_catalog.aclexplode(coalesce(n.nspacl, pg_catalog.acldefault('n', n.nspowner))) AS a
        WHERE n.nspname = target AND a.grantee = 0 AND a.privilege_type = 'CREATE'
        UNION
        SELECT r.rolname::text
        FROM pg_catalog.pg_roles AS r, pg_catalog.pg_namespace AS n
        WHERE n.nspname = target AND NOT r.rolsuper AND r.rolname <> current_user
          AND pg_catalog.has_schema_privilege(r.oid, n.oid, 'CREATE')
          AND NOT pg_catalog.pg_has_role(r.oid, current_user, 'MEMBER')
    ) AS found;
    IF others IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = '42501',
            MESSAGE = pg_catalog.format('comb_ext SQL edition: schema %s is not safe to install into: %s can create objects in it',
                                        pg_catalog.quote_ident(target), others),
            DETAIL = 'A function or operator another role creates in the edition''s schema can run in its callers'' sessions.',
            HINT = pg_catalog.format('REVOKE CREATE ON SCHEMA %s FROM %s; or install into a schema where only you can create objects.',
                                     pg_catalog.quote_ident(target), others);
    END IF;
END
$guard$;
