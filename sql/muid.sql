-- muid_unpack: the three fields as one record, from the accessors (src/families/muid.rs). A plain SQL
-- function, so the planner inlines it.
CREATE FUNCTION muid_unpack(id uuid, OUT "timestamp" bigint, OUT medallion bigint, OUT "offset" integer)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT @extschema@.muid_timestamp_us(id), @extschema@.muid_medallion(id), @extschema@.muid_offset(id) $$;
