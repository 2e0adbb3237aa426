--
-- Btree deduplication (btequalimage) for sno_ops, uuid_sqlserver_ops and uuid_binary_ops, as uuid_ops has it:
-- a non-unique index over many repeated values stores each value once per posting list.
--
CREATE EXTENSION IF NOT EXISTS pageinspect;
SET client_min_messages = warning;

-- Every btree class of the extension (read from the catalog) says equal values are the same image,
-- as uuid_ops does.
SELECT opc.opcname, amproc::regproc
FROM pg_opclass opc
LEFT JOIN pg_amproc ON amprocfamily = opc.opcfamily AND amprocnum = 4
WHERE opc.opcmethod = (SELECT oid FROM pg_am WHERE amname = 'btree')
  AND (opc.opcname = 'uuid_ops'
       OR opc.oid IN (SELECT objid FROM pg_depend WHERE classid = 'pg_opclass'::regclass AND deptype = 'e'
                      AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'comb_ext')))
ORDER BY opc.opcname COLLATE "C";

-- 100,000 snos with 100 distinct values, 100,000 uuids with 100 distinct values.
CREATE TABLE dedup_repeats AS
SELECT sno_from_parts('2024-01-01 00:00+00'::timestamptz + (i % 100) * interval '1 s', 0, 7, 0) AS s,
       comb_uuid('2024-01-01 00:00+00'::timestamptz + (i % 100) * interval '1 s', 'sqlserver') AS g
FROM generate_series(1, 100000) i;
-- comb_uuid(ts) draws random bits per call: make the uuids repeat too.
UPDATE dedup_repeats SET g = comb_stamp('00000000-0000-4000-8000-000000000000', comb_timestamp(g, 'sqlserver'), 'sqlserver');
SELECT count(DISTINCT s) AS snos, count(DISTINCT g) AS uuids FROM dedup_repeats;

CREATE INDEX dedup_sno ON dedup_repeats (s);
CREATE INDEX dedup_sno_off ON dedup_repeats (s) WITH (deduplicate_items = off);
CREATE INDEX dedup_sqlserver ON dedup_repeats (g uuid_sqlserver_ops);
CREATE INDEX dedup_sqlserver_off ON dedup_repeats (g uuid_sqlserver_ops) WITH (deduplicate_items = off);
SELECT i AS index, (bt_metap(i)).allequalimage
FROM unnest(ARRAY['dedup_sno', 'dedup_sno_off', 'dedup_sqlserver', 'dedup_sqlserver_off']) i;
-- Deduplicated, each index is a fraction of the size it has without: pages of 8 kB.
SELECT i AS index, pg_relation_size(i) / 8192 AS pages
FROM unnest(ARRAY['dedup_sno', 'dedup_sno_off', 'dedup_sqlserver', 'dedup_sqlserver_off']) i;
-- Deduplicated indexes still answer correctly.
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT count(*) FROM dedup_repeats WHERE s = sno_from_parts('2024-01-01 00:00:42+00', 0, 7, 0);
SELECT count(*) FROM dedup_repeats WHERE g OPERATOR(#>=#) comb_floor('2024-01-01 00:01:30+00', 'sqlserver');
RESET enable_seqscan;
RESET enable_bitmapscan;

DROP TABLE dedup_repeats;
