--
-- The sno type: a fixed-length 10-byte base type with text and binary I/O, bytea casts, default
-- btree and hash classes (byte order = time order), and the accessors and builder.
--
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';

-- Fixed length 10, by reference, no alignment padding, never toasted.
SELECT typlen, typbyval, typalign, typstorage FROM pg_type WHERE typname = 'sno';
SELECT pg_column_size('brpk4q72xwf2m63l'::sno) AS datum_size;
CREATE TEMP TABLE sized (id sno);
INSERT INTO sized VALUES ('brpk4q72xwf2m63l');
SELECT pg_column_size(id) AS stored_size FROM sized;

-- Text: sixteen characters of 23456789abcdefghijklmnopqrstuvwx, nothing else.
SELECT '2222222222222222'::sno AS smallest, 'xxxxxxxxxxxxxxxx'::sno AS largest,
       'brpk4q72xwf2m63l'::sno::bytea AS bytes;
SELECT regress_error($$SELECT 'brpk4q72xwf2m63L'::sno$$);   -- upper case
SELECT regress_error($$SELECT 'brpk4q72xwf2m63'::sno$$);    -- 15 characters
SELECT regress_error($$SELECT 'brpk4q72xwf2m63l2'::sno$$);  -- 17 characters
SELECT regress_error($$SELECT ' brpk4q72xwf2m63'::sno$$);   -- a space
SELECT regress_error($$SELECT 'brpk4q72xwf2m631'::sno$$);   -- '1' is not in the alphabet
SELECT regress_error($$SELECT 'yyyyyyyyyyyyyyyy'::sno$$);   -- nor is 'y'
SELECT regress_error($$SELECT ''::sno$$);

-- bytea casts: exactly 10 bytes.
SELECT '\x4e6f2160a0ff9a0a1033'::bytea::sno AS from_bytea;
SELECT regress_error($$SELECT '\x4e6f2160a0ff9a0a10'::bytea::sno$$);
SELECT regress_error($$SELECT '\x4e6f2160a0ff9a0a103300'::bytea::sno$$);

-- Binary I/O: COPY BINARY writes the 10 raw bytes and reads them back; a field of another
-- length is refused.
SELECT current_setting('data_directory') || '/regress_sno' AS copy_file \gset
CREATE TEMP TABLE copied (id sno);
INSERT INTO copied SELECT sno_from_parts('2024-05-06 07:08:09.01+00', n, n * 7, n * 11) FROM generate_series(0, 99) n;
COPY copied TO :'copy_file' (FORMAT binary);
CREATE TEMP TABLE reread (id sno);
COPY reread FROM :'copy_file' (FORMAT binary);
SELECT count(*) AS reread, count(*) FILTER (WHERE c.id IS NULL) AS missing
FROM reread r LEFT JOIN copied c USING (id);
COPY (SELECT '\x4e6f2160a0ff9a0a10'::bytea) TO :'copy_file' (FORMAT binary);
SELECT regress_error(format('COPY reread FROM %L (FORMAT binary)', :'copy_file'));
COPY (SELECT '\x4e6f2160a0ff9a0a103300'::bytea) TO :'copy_file' (FORMAT binary);
SELECT regress_error(format('COPY reread FROM %L (FORMAT binary)', :'copy_file'));

-- Accessors and the builder. 2024-07-01 00:00:00.001 at +02:00 is 2024-06-30 22:00:00.001 UTC,
-- which floors to the 4 ms unit starting at .000.
SELECT id, sno_time(id), sno_meta(id), sno_partition(id), sno_sequence(id), sno_tick(id)
FROM (VALUES (sno_from_parts('2024-07-01 00:00:00.001+02', 0, 0, 0)),
             (sno_from_parts('2010-01-01 00:00:00.002+00', 255, 4660, 32767, true)),
             (sno_from_parts('2079-09-07 15:47:35.551999+00', 255, 65535, 65535, true)),
             ('xxxxxxxxxxxxxxxx'::sno)) v(id);

-- Every field is checked: 22008 for times outside 2010-01-01 .. 2079-09-07 15:47:35.551999,
-- 22003 for fields outside their range.
SELECT regress_error($$SELECT sno_from_parts('2009-12-31 23:59:59.999999+00', 0, 0, 0)$$);
SELECT regress_error($$SELECT sno_from_parts('2079-09-07 15:47:35.552+00', 0, 0, 0)$$);
SELECT regress_error($$SELECT sno_from_parts('infinity', 0, 0, 0)$$);
SELECT regress_error($$SELECT sno_from_parts('-infinity', 0, 0, 0)$$);
SELECT regress_error($$SELECT sno_from_parts('2020-01-01', -1, 0, 0)$$);
SELECT regress_error($$SELECT sno_from_parts('2020-01-01', 256, 0, 0)$$);
SELECT regress_error($$SELECT sno_from_parts('2020-01-01', 0, -1, 0)$$);
SELECT regress_error($$SELECT sno_from_parts('2020-01-01', 0, 65536, 0)$$);
SELECT regress_error($$SELECT sno_from_parts('2020-01-01', 0, 0, -1)$$);
SELECT regress_error($$SELECT sno_from_parts('2020-01-01', 0, 0, 65536)$$);
SELECT sno_from_parts(NULL, 0, 0, 0) IS NULL AS strict;

-- sno_floor: the smallest sno whose time is at or after the given time.
SELECT ts, sno_floor(ts), sno_time(sno_floor(ts))
FROM (VALUES (timestamptz '-infinity'), ('1999-01-01'), ('2010-01-01'), ('2020-01-01 00:00:00.001'),
             ('2020-01-01 00:00:00.004'), ('2079-09-07 15:47:35.548')) v(ts);
SELECT regress_error($$SELECT sno_floor('2079-09-07 15:47:35.548001+00')$$);
SELECT regress_error($$SELECT sno_floor('infinity')$$);

-- Byte order, in every path PostgreSQL sorts by: 20,000 values from random bytes (with
-- duplicates) sort as their bytea does, in memory and through the btree index; the same holds
-- for comparisons, min/max, and equality through the hash class.
SELECT setseed(0.4);
CREATE TEMP TABLE snos AS
SELECT n, substring(decode(md5(random()::text), 'hex') FROM 1 FOR 10)::sno AS id
FROM generate_series(1, 20000) n;
INSERT INTO snos SELECT n + 20000, id FROM snos WHERE n <= 500;
SELECT array_agg(id ORDER BY id) = array_agg(id ORDER BY id::bytea) AS sort_is_byte_order,
       array_agg(id ORDER BY id DESC) = array_agg(id ORDER BY id::bytea DESC) AS descending_too,
       min(id) = (array_agg(id ORDER BY id::bytea))[1] AS min_ok,
       max(id) = (array_agg(id ORDER BY id::bytea DESC))[1] AS max_ok
FROM snos;
SELECT bool_and((a.id < b.id) = (a.id::bytea < b.id::bytea)
            AND (a.id <= b.id) = (a.id::bytea <= b.id::bytea)
            AND (a.id = b.id) = (a.id::bytea = b.id::bytea)
            AND (a.id <> b.id) = (a.id::bytea <> b.id::bytea)
            AND (a.id >= b.id) = (a.id::bytea >= b.id::bytea)
            AND (a.id > b.id) = (a.id::bytea > b.id::bytea)
            AND sno_cmp(a.id, b.id) = sign(CASE WHEN a.id::bytea < b.id::bytea THEN -1
                                                WHEN a.id::bytea > b.id::bytea THEN 1 ELSE 0 END))
       AS operators_agree_with_bytea
FROM snos a JOIN snos b ON b.n = a.n % 997 + 1;

CREATE INDEX snos_btree ON snos (id);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT regress_explain('SELECT id FROM snos ORDER BY id');
SELECT array_agg(id) = (SELECT array_agg(id ORDER BY id::bytea) FROM snos) AS index_order_is_byte_order
FROM (SELECT id FROM snos ORDER BY id) s;
RESET enable_seqscan;
RESET enable_bitmapscan;

-- A time range is an index range scan.
SELECT regress_explain($$SELECT * FROM snos WHERE id >= sno_floor('2020-01-01') AND id < sno_floor('2021-01-01')$$);
SELECT count(*) = (SELECT count(*) FROM snos WHERE sno_time(id) >= '2020-01-01' AND sno_time(id) < '2021-01-01')
       AS range_matches_decoded_times
FROM snos WHERE id >= sno_floor('2020-01-01') AND id < sno_floor('2021-01-01');

-- Hash: index, join, aggregation and partitioning.
CREATE INDEX snos_hash ON snos USING hash (id);
SET enable_seqscan = off;
SELECT regress_explain($$SELECT n FROM snos WHERE id = 'brpk4q72xwf2m63l'$$);
RESET enable_seqscan;
SELECT count(*) AS hash_index_hits FROM snos s WHERE s.id IN (SELECT id FROM snos WHERE n <= 10);
SET enable_mergejoin = off;
SET enable_nestloop = off;
SELECT count(*) AS hash_join_rows FROM snos a JOIN snos b USING (id);
RESET enable_mergejoin;
RESET enable_nestloop;
SET enable_hashjoin = off;
SET enable_nestloop = off;
SELECT count(*) AS merge_join_rows FROM snos a JOIN snos b USING (id);
RESET enable_hashjoin;
RESET enable_nestloop;
SET enable_sort = off;
SELECT count(*) AS groups, sum(c) AS rows FROM (SELECT id, count(*) AS c FROM snos GROUP BY id) g;
RESET enable_sort;
SELECT sno_hash('brpk4q72xwf2m63l') = sno_hash('\x4e6f2160a0ff9a0a1033'::bytea::sno) AS equal_values_hash_equal,
       sno_hash_extended('brpk4q72xwf2m63l', 0) <> sno_hash_extended('brpk4q72xwf2m63l', 1) AS seed_matters;
CREATE TEMP TABLE parted (id sno) PARTITION BY HASH (id);
CREATE TEMP TABLE parted_0 PARTITION OF parted FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TEMP TABLE parted_1 PARTITION OF parted FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO parted SELECT id FROM snos;
SELECT count(*) FILTER (WHERE tableoid = 'parted_0'::regclass) > 0 AS both_used,
       count(*) FILTER (WHERE tableoid = 'parted_1'::regclass) > 0 AS both_used_too,
       count(*) AS total FROM parted;

-- A primary key of type sno.
CREATE TEMP TABLE keyed (id sno PRIMARY KEY);
INSERT INTO keyed VALUES ('brpk4q72xwf2m63l');
SELECT regress_error($$INSERT INTO keyed VALUES ('brpk4q72xwf2m63l')$$);
