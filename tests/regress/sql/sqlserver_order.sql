--
-- SQL Server uniqueidentifier order and .NET ToByteArray order (the binary formats'): operators,
-- operator classes, sort support.
--
SET TimeZone = 'UTC';

-- Byte 10 is the most significant, byte 0 the least.
SELECT '00000000-0000-0000-0000-010000000000'::uuid #># 'ffffffff-ffff-ffff-ffff-00ffffffffff' AS byte_10_first,
       '01000000-0000-0000-0000-000000000000'::uuid #<# '00010000-0000-0000-0000-000000000000' AS byte_0_last,
       uuid_sqlserver_cmp('00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0100-000000000000') AS cmp;

-- Sorting by the class agrees with sorting by the key spelled out in setup.sql, duplicates and
-- all, for a sort large enough to use abbreviated keys and spill nothing.
SELECT setseed(0.5);
CREATE TABLE sq AS
SELECT CASE WHEN g % 10 = 0 THEN '00000000-0000-0000-0000-000000000000'::uuid
            WHEN g % 7 = 0 THEN comb_uuid('sqlserver')
            ELSE gen_random_uuid() END AS id
FROM generate_series(1, 100000) g;
INSERT INTO sq SELECT id FROM sq WHERE random() < 0.01;
SELECT count(*) = count(*) FILTER (WHERE a.id = b.id) AS same_order
FROM (SELECT id, row_number() OVER (ORDER BY id USING #<#) AS n FROM sq) a
JOIN (SELECT id, row_number() OVER (ORDER BY regress_order_key(id, 'sqlserver'), id) AS n FROM sq) b USING (n);
SELECT bool_and(id #<=# previous) AS descending
FROM (SELECT id, lag(id) OVER (ORDER BY id USING #>#) AS previous FROM sq) s
WHERE previous IS NOT NULL;

-- An index in this order serves ORDER BY USING, ranges, min/max and merge joins.
CREATE INDEX sq_sqlserver ON sq (id uuid_sqlserver_ops);
ANALYZE sq;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM sq ORDER BY id USING #<# LIMIT 5;
EXPLAIN (COSTS OFF) SELECT id FROM sq ORDER BY id USING #># LIMIT 5;
EXPLAIN (COSTS OFF) SELECT count(*) FROM sq
WHERE id #>=# '00000000-0000-0000-0000-800000000000' AND id #<# '00000000-0000-0000-0000-c00000000000';
EXPLAIN (COSTS OFF) SELECT id FROM sq
WHERE id #># '00000000-0000-0000-0000-000000000000' ORDER BY id USING #<# LIMIT 1;
SELECT (SELECT id FROM sq ORDER BY id USING #<# OFFSET 20000 LIMIT 1)
     = (SELECT id FROM sq ORDER BY regress_order_key(id, 'sqlserver') OFFSET 20000 LIMIT 1) AS index_order_is_sqlserver_order;
SELECT count(*) = (SELECT count(*) FROM sq WHERE regress_order_key(id, 'sqlserver') >= '\x80000000000000000000000000000000'::bytea
                                              AND regress_order_key(id, 'sqlserver') < '\xc0000000000000000000000000000000'::bytea) AS range_matches
FROM sq WHERE id #>=# '00000000-0000-0000-0000-800000000000' AND id #<# '00000000-0000-0000-0000-c00000000000';

CREATE TABLE sq2 AS SELECT id FROM sq WHERE random() < 0.5;
CREATE INDEX sq2_sqlserver ON sq2 (id uuid_sqlserver_ops);
ANALYZE sq2;
SET enable_hashjoin = off;
SET max_parallel_workers_per_gather = 0;
SET enable_nestloop = off;
SELECT bool_or(line LIKE '%Merge Join%') AS merge_join,
       bool_or(line LIKE '%Index Only Scan using sq_sqlserver on sq%')
       AND bool_or(line LIKE '%Index Only Scan using sq2_sqlserver on sq2%') AS both_indexes,
       NOT bool_or(line LIKE '%Sort%') AS no_sort
FROM regress_explain('SELECT count(*) FROM sq JOIN sq2 USING (id)') AS line;
SELECT count(*) AS merge_join_rows FROM sq JOIN sq2 USING (id) \gset
RESET ALL;
SET enable_mergejoin = off;
SELECT count(*) = :merge_join_rows AS merge_join_agrees_with_hash_join FROM sq JOIN sq2 USING (id);
RESET ALL;

-- The key functions (the SQL edition has them too): the bytes rearranged most significant first,
-- worked out from the orders in docs/formats-reference.md: SQL Server 10-15, 8-9, 7, 6, 5, 4, 3, 2, 1, 0
-- gives aabbccdd-eeff-8899-7766-554433221100; .NET ToByteArray 3-0, 5-4, 7-6, 8-15 gives
-- 33221100-5544-7766-8899-aabbccddeeff.
SELECT uuid_sqlserver_key('00112233-4455-6677-8899-aabbccddeeff') AS sqlserver_key,
       uuid_binary_key('00112233-4455-6677-8899-aabbccddeeff') AS binary_key,
       uuid_sqlserver_key(NULL) IS NULL AS strict;
-- Ordering by the key is ordering by the class, and the binary key's bytes are the spelled-out key's.
SELECT count(*) = count(*) FILTER (WHERE a.id = b.id) AS same_order
FROM (SELECT id, row_number() OVER (ORDER BY id USING #<#) AS n FROM sq) a
JOIN (SELECT id, row_number() OVER (ORDER BY uuid_sqlserver_key(id)) AS n FROM sq) b USING (n);
SELECT bool_and(uuid_send(uuid_binary_key(id)) = regress_order_key(id, 'binary')
            AND uuid_send(uuid_sqlserver_key(id)) = regress_order_key(id, 'sqlserver')) AS keys_as_spelled_out
FROM sq;
DROP TABLE sq, sq2;

-- The binary formats keyed as docs/comb.md keys them: a unique index on uuid_binary_key(id). Ids a
-- session makes one after another rise in .NET's ToByteArray order, so the index returns them in the
-- order they were inserted, and serves ORDER BY on the expression.
CREATE TABLE blobs (n serial, id uuid NOT NULL DEFAULT comb_uuid('binary'), body bytea);
CREATE UNIQUE INDEX blobs_id ON blobs (uuid_binary_key(id));
INSERT INTO blobs (body) SELECT NULL FROM generate_series(1, 2000);
ANALYZE blobs;
SET enable_seqscan = off;
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT n FROM blobs ORDER BY uuid_binary_key(id) LIMIT 10;
SELECT bool_and(n = position) AS index_order_is_insert_order
FROM (SELECT n, row_number() OVER () AS position FROM (SELECT n FROM blobs ORDER BY uuid_binary_key(id)) s) t;
RESET ALL;
DROP TABLE blobs;

-- uuid_binary_ops: the binary formats' order (.NET ToByteArray bytes 3, 2, 1, 0, 5, 4, 7, 6, 8-15
-- compared raw) as an operator class. Byte 3 is the most significant, byte 15 the least; byte 1
-- outranks byte 0.
SELECT '00000001-0000-0000-0000-000000000000'::uuid ~>~ 'ffffff00-ffff-ffff-ffff-ffffffffffff' AS byte_3_first,
       '00000000-0000-0000-0000-000000000001'::uuid ~<~ '00000000-0000-0000-0000-000000000100' AS byte_15_last,
       uuid_binary_cmp('01000000-0000-0000-0000-000000000000', '00010000-0000-0000-0000-000000000000') AS cmp;
-- Its sort (abbreviated keys) agrees with the key spelled out in setup.sql, duplicates and all.
SELECT setseed(0.25);
CREATE TABLE bq AS
SELECT CASE WHEN g % 10 = 0 THEN '00000000-0000-0000-0000-000000000000'::uuid
            WHEN g % 7 = 0 THEN comb_uuid('binary')
            ELSE gen_random_uuid() END AS id
FROM generate_series(1, 100000) g;
INSERT INTO bq SELECT id FROM bq WHERE random() < 0.01;
SELECT count(*) = count(*) FILTER (WHERE a.id = b.id) AS same_order
FROM (SELECT id, row_number() OVER (ORDER BY id USING ~<~) AS n FROM bq) a
JOIN (SELECT id, row_number() OVER (ORDER BY regress_order_key(id, 'binary'), id) AS n FROM bq) b USING (n);
SELECT bool_and(id ~<=~ previous) AS descending
FROM (SELECT id, lag(id) OVER (ORDER BY id USING ~>~) AS previous FROM bq) s
WHERE previous IS NOT NULL;
-- An index built by a sort serves ORDER BY USING, ranges and lookups by id itself (which an index
-- on uuid_binary_key(id) does not).
CREATE INDEX bq_binary ON bq (id uuid_binary_ops);
ANALYZE bq;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM bq ORDER BY id USING ~<~ LIMIT 5;
EXPLAIN (COSTS OFF) SELECT count(*) FROM bq
WHERE id ~>=~ '00000080-0000-0000-0000-000000000000' AND id ~<~ '000000c0-0000-0000-0000-000000000000';
EXPLAIN (COSTS OFF) SELECT id FROM bq WHERE id = '00000000-0000-0000-0000-000000000000';
SELECT (SELECT id FROM bq ORDER BY id USING ~<~ OFFSET 20000 LIMIT 1)
     = (SELECT id FROM bq ORDER BY regress_order_key(id, 'binary') OFFSET 20000 LIMIT 1) AS index_order_is_binary_order;
SELECT count(*) = (SELECT count(*) FROM bq WHERE regress_order_key(id, 'binary') >= '\x80000000000000000000000000000000'::bytea
                                              AND regress_order_key(id, 'binary') < '\xc0000000000000000000000000000000'::bytea) AS range_matches
FROM bq WHERE id ~>=~ '00000080-0000-0000-0000-000000000000' AND id ~<~ '000000c0-0000-0000-0000-000000000000';
RESET ALL;
-- A unique index built by inserts: each key finds its place through uuid_binary_cmp (the bare C
-- comparator), the index returns the spelled-out key's order, and a repeat is refused.
CREATE TABLE bi (id uuid NOT NULL);
CREATE UNIQUE INDEX bi_binary ON bi (id uuid_binary_ops);
INSERT INTO bi SELECT DISTINCT id FROM bq ORDER BY 1 DESC;
ANALYZE bi;
SET enable_seqscan = off;
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT id FROM bi ORDER BY id USING ~<~;
SELECT count(*) = count(*) FILTER (WHERE a.id = b.id) AS index_order_is_binary_order
FROM (SELECT id, row_number() OVER () AS n FROM (SELECT id FROM bi ORDER BY id USING ~<~) s) a
JOIN (SELECT id, row_number() OVER (ORDER BY regress_order_key(id, 'binary')) AS n FROM bi) b USING (n);
RESET ALL;
DO $$
BEGIN
    INSERT INTO bi SELECT id FROM bq WHERE id ~>~ '00000000-0000-0000-0000-000000000000' LIMIT 1;
EXCEPTION WHEN unique_violation THEN RAISE NOTICE 'repeat refused: %', SQLSTATE;
END $$;
DROP TABLE bq, bi;

-- The binary formats keyed by the class: a unique index on id, in the order they were inserted; a
-- foreign key can reference the column (the index's equality is uuid's own).
CREATE TABLE blobs (n serial, id uuid NOT NULL DEFAULT comb_uuid('binary'), body bytea);
CREATE UNIQUE INDEX blobs_id ON blobs (id uuid_binary_ops);
INSERT INTO blobs (body) SELECT NULL FROM generate_series(1, 2000);
CREATE TABLE blob_refs (blob uuid REFERENCES blobs (id));
INSERT INTO blob_refs SELECT id FROM blobs WHERE n % 100 = 0;
ANALYZE blobs;
SET enable_seqscan = off;
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT n FROM blobs ORDER BY id USING ~<~ LIMIT 10;
SELECT bool_and(n = position) AS index_order_is_insert_order
FROM (SELECT n, row_number() OVER () AS position FROM (SELECT n FROM blobs ORDER BY id USING ~<~) s) t;
RESET ALL;
SELECT count(*) AS referenced FROM blob_refs JOIN blobs ON blobs.id = blob_refs.blob;
DROP TABLE blob_refs, blobs;
