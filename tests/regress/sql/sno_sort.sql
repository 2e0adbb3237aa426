--
-- Sorting snos through sort support: abbreviated keys (time unit and tick, then meta and partition
-- against the first sno the sort sees, then the sequence when they match), so a burst of fresh snos
-- (one 4 ms unit per thousands) still gets keys that differ, and scattered ones keep their order.
-- Either way the order must be byte order, checked here against sno_to_bytea's bytea order, which
-- does not use the extension's comparator.
--
SET max_parallel_workers_per_gather = 0;
SET work_mem = '64MB';
CREATE TEMP TABLE burst AS SELECT sno_new() AS s FROM generate_series(1, 60000);
CREATE TEMP TABLE scattered AS
SELECT sno_from_parts('2010-01-01 00:00+00'::timestamptz + random() * interval '60 years', (random() * 255)::int,
                      (random() * 65535)::int, (random() * 65535)::int) AS s
FROM generate_series(1, 60000);
-- Shuffled, so the sort has work to do.
CREATE TEMP TABLE mixed AS SELECT s FROM (SELECT s FROM burst UNION ALL SELECT s FROM scattered) u ORDER BY random();

CREATE FUNCTION regress_sorted_right(t regclass) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    wrong bigint;
    n bigint;
BEGIN
    EXECUTE format($q$
        SELECT count(*) FILTER (WHERE sno_to_bytea(s) < sno_to_bytea(previous)), count(*)
        FROM (SELECT s, lag(s) OVER (ORDER BY ordinal) AS previous
              FROM (SELECT s, row_number() OVER () AS ordinal FROM (SELECT s FROM %s ORDER BY s) sorted) numbered) q
    $q$, t) INTO wrong, n;
    RETURN n || ' sorted, ' || wrong || ' out of byte order';
END $$;
SELECT regress_sorted_right('burst'), regress_sorted_right('scattered'), regress_sorted_right('mixed');

-- The same through CREATE INDEX, verified by amcheck against the operator class.
CREATE EXTENSION IF NOT EXISTS amcheck;
CREATE INDEX burst_s ON burst (s);
CREATE INDEX mixed_s ON mixed (s);
SELECT bt_index_check('burst_s', true), bt_index_check('mixed_s', true);
DROP TABLE burst, scattered, mixed;
DROP FUNCTION regress_sorted_right(regclass);
