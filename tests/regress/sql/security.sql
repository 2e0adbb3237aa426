--
-- The extension is trusted, so any role with CREATE on a database can install it, and a role with
-- CREATE on its schema can add objects beside it. The library must never run such an object, nor
-- find its own objects through a search_path someone else controls.
--
CREATE DATABASE regress_security;
\c regress_security
SET client_min_messages = warning;
CREATE ROLE regress_intruder;
CREATE SCHEMA shared_ids;
GRANT USAGE, CREATE ON SCHEMA shared_ids TO regress_intruder;
CREATE SCHEMA intruder AUTHORIZATION regress_intruder;
CREATE TABLE public.calls (what text);
GRANT INSERT ON public.calls TO PUBLIC;
--
-- 1. The planner support function of comb_in_range looks for comb_range_lower/comb_range_upper
-- in the extension's schema. At 0.3.0 (the catalog between a package upgrade and ALTER EXTENSION
-- UPDATE) they do not exist yet, so anyone with CREATE there can plant them; the planner must not
-- call them, or a superuser's query runs them with its rights.
--
CREATE EXTENSION comb_ext VERSION '0.3.0' SCHEMA shared_ids;
SET ROLE regress_intruder;
CREATE FUNCTION shared_ids.comb_range_lower(timestamptz, timestamptz, shared_ids.comb_format) RETURNS uuid
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO public.calls VALUES ('comb_range_lower as ' || current_user);
    IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
        ALTER ROLE regress_intruder SUPERUSER;
    END IF;
    RETURN '00000000-0000-0000-0000-000000000000';
END $$;
CREATE FUNCTION shared_ids.comb_range_upper(timestamptz, timestamptz, shared_ids.comb_format) RETURNS uuid
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO public.calls VALUES ('comb_range_upper as ' || current_user);
    RETURN 'ffffffff-ffff-ffff-ffff-ffffffffffff';
END $$;
RESET ROLE;
CREATE TABLE ids AS
SELECT shared_ids.comb_uuid(now() - n * interval '1 hour', 'postgresql') AS id FROM generate_series(0, 47) n;
-- Non-constant times (now() is stable): the rewrite would call the bound functions.
SELECT count(*) FROM ids
WHERE shared_ids.comb_in_range(id, now() - interval '1 day', now() + interval '1 minute', 'postgresql');
EXPLAIN (COSTS OFF) SELECT * FROM ids
WHERE shared_ids.comb_in_range(id, now() - interval '1 day', now() + interval '1 minute', 'postgresql');
PREPARE in_range(timestamptz) AS SELECT count(*) FROM ids WHERE shared_ids.comb_in_range(id, $1, now(), 'postgresql');
EXECUTE in_range(now() - interval '1 day');
SELECT rolsuper AS intruder_is_superuser FROM pg_roles WHERE rolname = 'regress_intruder';
SELECT count(*) AS planted_calls FROM public.calls;
-- Constant times need no look-up: the bounds are computed, and the plan compares with them.
SELECT count(*) FROM ids WHERE shared_ids.comb_in_range(id, '2000-01-01', 'infinity', 'postgresql');
DROP FUNCTION shared_ids.comb_range_lower(timestamptz, timestamptz, shared_ids.comb_format),
              shared_ids.comb_range_upper(timestamptz, timestamptz, shared_ids.comb_format);
ALTER EXTENSION comb_ext UPDATE;
-- At the current version the extension's own bound functions serve the rewrite.
EXPLAIN (COSTS OFF) SELECT * FROM ids
WHERE shared_ids.comb_in_range(id, now() - interval '1 day', now() + interval '1 minute', 'postgresql');
--
-- 2. uid8_new derives its cluster id from Citus's catalog if there is one. The look-up must not
-- resolve through the caller's search_path: a SECURITY DEFINER function that calls uid8_new would
-- otherwise run an intruder's to_regclass with the definer's rights.
--
CREATE FUNCTION public.definer_uid8() RETURNS bigint SECURITY DEFINER LANGUAGE sql
AS 'SELECT shared_ids.uid8_new()';
SET ROLE regress_intruder;
CREATE FUNCTION intruder.to_regclass(text) RETURNS regclass LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO public.calls VALUES ('to_regclass as ' || current_user);
    RETURN NULL;
END $$;
RESET ROLE;
\c regress_security
SET ROLE regress_intruder;
SET search_path = intruder, pg_catalog;
SELECT public.definer_uid8() IS NOT NULL AS generated;
RESET ROLE;
RESET search_path;
SELECT count(*) AS planted_calls FROM public.calls;
--
-- 3. uid8_mode() returns the enum type it is declared with, whatever the search_path: empty (as
-- for autovacuum's ANALYZE, REINDEX and a pg_dump restore) or with another uid8_mode first.
--
CREATE TABLE modes AS
SELECT shared_ids.uid8_from_parts(1700000000000 + n, 0, 0, 0, (ARRAY['spread', 'time_sequential']::shared_ids.uid8_mode[])[n % 2 + 1]) AS id
FROM generate_series(1, 100) n;
CREATE INDEX modes_mode ON modes (shared_ids.uid8_mode(id));
SET search_path = '';
REINDEX TABLE public.modes;
ANALYZE public.modes;
SELECT shared_ids.uid8_mode(id), count(*) FROM public.modes GROUP BY 1 ORDER BY 1;
RESET search_path;
CREATE TYPE intruder.uid8_mode AS ENUM ('time_sequential', 'spread');
SET search_path = intruder, shared_ids, public;
SELECT shared_ids.uid8_mode(id)::text AS mode, pg_typeof(shared_ids.uid8_mode(id)), count(*) FROM modes GROUP BY 1, 2 ORDER BY 1;
INSERT INTO modes VALUES (shared_ids.uid8_from_parts(1800000000000, 0, 0, 0, 'time_sequential'));
SELECT count(*) FROM modes WHERE shared_ids.uid8_mode(id) = 'time_sequential'::shared_ids.uid8_mode;
RESET search_path;
\c comb_ext_regress
SET client_min_messages = warning;
DROP DATABASE regress_security;
DROP ROLE regress_intruder;
