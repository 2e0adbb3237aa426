--
-- Extension and helpers shared by the suite.
--
CREATE EXTENSION comb_ext;

-- SQLSTATE and message of the error a statement raises, so expected output shows both.
CREATE FUNCTION regress_error(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE statement;
    RETURN 'no error';
EXCEPTION WHEN others THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- Plan lines of a query, for checks that must not depend on which side a join puts first.
CREATE FUNCTION regress_explain(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY EXECUTE 'EXPLAIN (COSTS OFF) ' || query;
END $$;

-- Byte orders written out independently of the extension (docs/formats-reference.md): the key's bytea order
-- is the format's order.
-- String byte i of a uuid.
CREATE FUNCTION regress_byte(id uuid, i int) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT substring(uuid_send(id) FROM i + 1 FOR 1) $$;

CREATE FUNCTION regress_order_key(id uuid, f comb_format) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT CASE
        WHEN f IN ('postgresql', 'postgresql_sqldatetime', 'uuidv7') THEN uuid_send(id)
        -- .NET ToByteArray order: 3,2,1,0, 5,4, 7,6, 8..15
        WHEN f IN ('binary', 'binary_sqldatetime') THEN
            regress_byte(id, 3) || regress_byte(id, 2) || regress_byte(id, 1) || regress_byte(id, 0)
            || regress_byte(id, 5) || regress_byte(id, 4) || regress_byte(id, 7) || regress_byte(id, 6)
            || substring(uuid_send(id) FROM 9 FOR 8)
        -- SQL Server order: 10..15, 8,9, 7,6, 5,4, 3,2,1,0
        ELSE substring(uuid_send(id) FROM 11 FOR 6) || substring(uuid_send(id) FROM 9 FOR 2)
            || regress_byte(id, 7) || regress_byte(id, 6) || regress_byte(id, 5) || regress_byte(id, 4)
            || regress_byte(id, 3) || regress_byte(id, 2) || regress_byte(id, 1) || regress_byte(id, 0)
    END
$$;

SELECT regress_order_key('00010203-0405-0607-0809-0a0b0c0d0e0f', 'sqlserver');
SELECT regress_order_key('00010203-0405-0607-0809-0a0b0c0d0e0f', 'binary');

-- Runs `statement` in `sessions` new sessions at the same time (dblink, sent without waiting),
-- after `setup` in each; '%s' in either is replaced by the session's number, 1..sessions.
CREATE EXTENSION dblink;
CREATE FUNCTION regress_concurrently(sessions int, setup text, statement text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    conninfo text := format('dbname=%s host=%s port=%s', current_database(),
                            current_setting('unix_socket_directories'), current_setting('port'));
    s int;
BEGIN
    FOR s IN 1..sessions LOOP
        PERFORM dblink_connect('regress' || s, conninfo);
        PERFORM dblink_exec('regress' || s, format(setup, s));
    END LOOP;
    FOR s IN 1..sessions LOOP
        PERFORM dblink_send_query('regress' || s, format(statement, s));
    END LOOP;
    FOR s IN 1..sessions LOOP
        PERFORM * FROM dblink_get_result('regress' || s) AS r(status text);
        PERFORM dblink_disconnect('regress' || s);
    END LOOP;
END $$;
