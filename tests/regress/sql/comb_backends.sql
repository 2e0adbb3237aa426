--
-- Two backends never share RNG state. scripts/test.sh starts this cluster with
-- shared_preload_libraries = 'comb_ext', so the library is loaded in the postmaster before every
-- fork: were the CSPRNG seeded there, both backends below would draw the same bytes and stamp
-- the same uuids for the same fixed time.
--
SHOW shared_preload_libraries;
SELECT format('dbname=%s host=%s port=%s', current_database(),
              current_setting('unix_socket_directories'), current_setting('port')) AS conninfo \gset
SELECT dblink_connect('a', :'conninfo');
SELECT dblink_connect('b', :'conninfo');
CREATE TEMP TABLE drawn AS
SELECT 'a' AS backend, id FROM dblink('a', $$SELECT comb_uuid('2020-01-01 00:00+00'::timestamptz) FROM generate_series(1, 1000)$$) AS t(id uuid)
UNION ALL
SELECT 'b', id FROM dblink('b', $$SELECT comb_uuid('2020-01-01 00:00+00'::timestamptz) FROM generate_series(1, 1000)$$) AS t(id uuid);
SELECT count(*) AS drawn, count(DISTINCT id) AS distinct_ids,
       count(DISTINCT backend) AS backends
FROM drawn;
SELECT (SELECT x FROM dblink('a', 'SELECT pg_backend_pid()') AS t(x int))
    <> (SELECT x FROM dblink('b', 'SELECT pg_backend_pid()') AS t(x int)) AS different_processes;
SELECT dblink_disconnect('a'), dblink_disconnect('b');
