-- comb_ext 0.2.0 -> 0.3.0
--
-- Btree deduplication for the extension's btree operator classes, as PostgreSQL's own uuid_ops
-- has it: equal values of sno and of uuid (in any order) are the same bytes. Indexes built before
-- this update keep deduplication off until they are rebuilt (REINDEX): a btree decides it when it
-- is built, in its metapage (bt_metap(...).allequalimage).
ALTER OPERATOR FAMILY sno_ops USING btree ADD FUNCTION 4 (sno, sno) btequalimage(oid);
ALTER OPERATOR FAMILY uuid_sqlserver_ops USING btree ADD FUNCTION 4 (uuid, uuid) btequalimage(oid);
