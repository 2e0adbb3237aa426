--
-- One REVOKE holds (docs/guarantees.md#names-on-the-search_path). The only functions that stand for another
-- are the overloads sql/finalize.sql makes (text for uuid, sno and bytea arguments); each calls its original,
-- so a privilege taken away on the original is taken away on every call form, literal or typed. Generated
-- from the catalog: for every function of the extension that has such overloads, EXECUTE is revoked from
-- PUBLIC on it alone, and an unprivileged role calls it and every overload with values of the right
-- types (not constants, so nothing folds away before the check). Every call must fail with 42501.
--
CREATE ROLE regress_no_rights;
-- A value of the type a form takes, of the type the original takes there (text for a uuid is a uuid's text).
CREATE FUNCTION regress_sample(type regtype, stands_for regtype) RETURNS text LANGUAGE sql AS $$
    SELECT CASE stands_for
        WHEN 'uuid'::regtype THEN 'comb_uuid()'
        WHEN 'text'::regtype THEN '(random() * 0)::text'
        WHEN 'sno'::regtype THEN 'sno_from_parts(clock_timestamp(), 0, 1, 0)'
        WHEN 'bytea'::regtype THEN 'decode(md5(clock_timestamp()::text), ''hex'')'
        WHEN 'integer'::regtype THEN '(random() * 0)::integer'
        WHEN 'bigint'::regtype THEN '(random() * 0)::bigint'
        WHEN 'boolean'::regtype THEN '(random() < 2)'
        WHEN 'timestamptz'::regtype THEN 'clock_timestamp()'
        WHEN 'comb_format'::regtype THEN '(ARRAY[''postgresql''::comb_format])[1 + (random() * 0)::int]'
        WHEN 'uid8_mode'::regtype THEN '(ARRAY[''spread''::uid8_mode])[1 + (random() * 0)::int]'
    END || CASE WHEN type = stands_for THEN '' ELSE '::' || type::text END $$;
-- The forms that stand for a function: the overloads that say they call it, and any other function of its name
-- and arity that takes text where it takes an enum (a twin that reads the label).
CREATE FUNCTION regress_forms_of(original regprocedure) RETURNS SETOF regprocedure LANGUAGE sql AS $$
    SELECT p.oid::regprocedure FROM pg_proc p, pg_proc o
    WHERE o.oid = original AND p.oid <> o.oid
      AND (obj_description(p.oid, 'pg_proc') = 'For untyped literals: casts its arguments and calls ' || original::text
           OR (p.proname = o.proname AND p.pronamespace = o.pronamespace AND p.pronargs = o.pronargs
               AND NOT starts_with(coalesce(obj_description(p.oid, 'pg_proc'), ''), 'For untyped literals: ')
               AND NOT EXISTS (SELECT FROM generate_series(0, p.pronargs - 1) i
                               WHERE p.proargtypes[i] <> o.proargtypes[i]
                                 AND NOT (p.proargtypes[i] = 'text'::regtype
                                          AND o.proargtypes[i] IN (SELECT enumtypid FROM pg_enum)))))
    ORDER BY 1::text
$$;
CREATE TEMP TABLE denied (original regprocedure, form regprocedure, outcome text);
DO $$
DECLARE
    original regprocedure;
    form regprocedure;
    call text;
    outcome text;
BEGIN
    FOR original IN
        SELECT p.oid::regprocedure FROM pg_proc p
        JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
        JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'comb_ext'
        WHERE NOT starts_with(coalesce(obj_description(p.oid, 'pg_proc'), ''), 'For untyped literals: ')
          AND NOT EXISTS (SELECT FROM pg_type t WHERE t.typtype = 'p' AND t.oid = ANY (p.proargtypes::oid[]))
        ORDER BY p.oid
    LOOP
        CONTINUE WHEN NOT EXISTS (SELECT FROM regress_forms_of(original));
        EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', original);
        FOR form IN SELECT original UNION ALL SELECT f FROM regress_forms_of(original) f
        LOOP
            SELECT format('SELECT %s(%s)', form::oid::regproc,
                          string_agg(regress_sample(a.t, b.t), ', ' ORDER BY a.n))
            INTO call
            FROM pg_proc p, unnest(p.proargtypes::oid[]) WITH ORDINALITY AS a(t, n),
                 pg_proc o, unnest(o.proargtypes::oid[]) WITH ORDINALITY AS b(t, n)
            WHERE p.oid = form AND o.oid = original AND a.n = b.n;
            SET LOCAL ROLE regress_no_rights;
            BEGIN
                EXECUTE call;
                outcome := 'ran';
            EXCEPTION WHEN others THEN
                outcome := SQLSTATE;
            END;
            RESET ROLE;
            INSERT INTO denied VALUES (original, form, outcome);
        END LOOP;
        EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO PUBLIC', original);
    END LOOP;
END $$;
-- How many originals, how many call forms, and the outcomes: 42501, but for comb_uuid(text), a function of
-- its own since 0.1.0 (it reads a format's name and hints at a timestamptz when given a time): revoke it with
-- comb_uuid(comb_format) (docs/guarantees.md#names-on-the-search_path).
SELECT count(DISTINCT original) AS originals, count(*) AS forms, outcome FROM denied GROUP BY outcome ORDER BY 3;
SELECT original, form, outcome FROM denied WHERE outcome <> '42501' ORDER BY 1::text, 2::text;
-- The control: with the privilege, the same calls run (or fail on their values), never with 42501.
SET ROLE regress_no_rights;
SELECT comb_timestamp('018cc820-db2e-4000-9318-2b65fb840cd1'::text, 'postgresql') AS granted_text_form;
RESET ROLE;

-- Unmasking under the server's key, taken from a role in one statement: every route to it is then
-- denied (the key-id forms and the text overloads too); unmasking under a key the caller gives is not.
REVOKE EXECUTE ON FUNCTION comb_unmask(uuid, comb_format), comb_unmask(uuid, comb_format, integer),
    muid_unmask(uuid), muid_unmask(uuid, integer), sno_unmask(sno), sno_unmask(sno, integer),
    uid8_unmask(bigint), uid8_unmask(bigint, integer) FROM PUBLIC;
SET ROLE regress_no_rights;
SELECT call, regress_error('SELECT ' || call) AS outcome FROM (VALUES
    ('comb_unmask(comb_uuid())'), ('comb_unmask(comb_uuid(), ''uuidv7'')'), ('comb_unmask(comb_uuid()::text, ''uuidv7'')'),
    ('comb_unmask(comb_uuid(), ''uuidv7'', 1)'), ('comb_unmask(comb_uuid()::text, ''uuidv7'', 1)'),
    ('comb_unmask(''018cc820-db2e-4000-9318-2b65fb840cd1'', ''uuidv7'', 1)'),
    ('muid_unmask(comb_uuid())'), ('muid_unmask(comb_uuid()::text, 2)'), ('muid_unmask(''018cc820-db2e-4000-9318-2b65fb840cd1'')'),
    ('sno_unmask(sno_new())'), ('sno_unmask(sno_new()::text, 1)'),
    ('uid8_unmask(uid8_new())'), ('uid8_unmask(uid8_new(), 1)'), ('uid8_unmask(42)'), ('uid8_unmask(''42'')')) c(call);
-- A key of the caller's own: allowed (the functions taking bytea were not revoked).
SELECT uid8_unmask(uid8_mask(42, '\x000102030405060708090a0b0c0d0e0f'::bytea), '\x000102030405060708090a0b0c0d0e0f'::bytea) AS own_key;
RESET ROLE;
GRANT EXECUTE ON FUNCTION comb_unmask(uuid, comb_format), comb_unmask(uuid, comb_format, integer),
    muid_unmask(uuid), muid_unmask(uuid, integer), sno_unmask(sno), sno_unmask(sno, integer),
    uid8_unmask(bigint), uid8_unmask(bigint, integer) TO PUBLIC;
DROP TABLE denied;
DROP FUNCTION regress_sample(regtype, regtype);
DROP FUNCTION regress_forms_of(regprocedure);
DROP ROLE regress_no_rights;
