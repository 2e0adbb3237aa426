-- comb_ext_adopt: new rows of an existing table take comb_ext ids, old rows keep theirs (docs/adopting.md).
-- Hand-written, as the rest of sql/: every name in it is pg_catalog's (its search_path is pg_catalog and
-- pg_temp, in that order) or the extension's own, written with @extschema@; the defaults it writes name the
-- extension's schema too, so an insert's search_path never picks another function.
CREATE FUNCTION @extschema@.comb_ext_adopt(tbl regclass, col name, generator text, dry_run boolean DEFAULT false)
RETURNS TABLE (
    relation regclass,
    column_name name,
    adopted_generator text,
    old_default text,
    new_default text,
    sequence text,
    lock text,
    restore text,
    changed boolean
)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $adopt$
DECLARE
    generators CONSTANT text := 'uid8, uid8 spread, muid, sno, or a comb_format label (postgresql, sqlserver, legacy, '
        'binary, postgresql_sqldatetime, binary_sqldatetime, ticks, uuidv7)';
    -- Old values below this cannot equal a uid8 spread id: its bits 63 to 22 are its bit-reversed
    -- millisecond, never all 0 after 1970-01-01 00:00:00.000.
    spread_clear CONSTANT bigint := 4194304;
    wanted regtype;
    expression text;
    kind char;
    owner oid;
    att record;
    old_expr text;
    seq regclass;
    seq_last bigint;
    key_found boolean;
    citus_method text;
    seq_distributed boolean := false;
    bad record;
    top bigint;
    bottom bigint;
    floor_now bigint;
    target text;
    column_sql text;
BEGIN
    IF tbl IS NULL OR col IS NULL OR generator IS NULL OR dry_run IS NULL THEN
        RAISE EXCEPTION 'comb_ext_adopt: every argument must be given: table, column, generator and dry_run are not NULL'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    CASE
        WHEN generator = 'uid8' THEN
            wanted := 'bigint';
            expression := '@extschema@.uid8_new(''time_sequential''::@extschema@.uid8_mode)';
        WHEN generator = 'uid8 spread' THEN
            wanted := 'bigint';
            expression := '@extschema@.uid8_new(''spread''::@extschema@.uid8_mode)';
        WHEN generator = 'muid' THEN
            wanted := 'uuid';
            expression := '@extschema@.muid_new(0)';
        WHEN generator = 'sno' THEN
            wanted := '@extschema@.sno'::regtype;
            expression := '@extschema@.sno_new(0)';
        WHEN generator = ANY (enum_range(NULL::@extschema@.comb_format)::text[]) THEN
            wanted := 'uuid';
            expression := format('@extschema@.comb_uuid(%L::@extschema@.comb_format)', generator);
        ELSE
            RAISE EXCEPTION 'comb_ext_adopt: generator "%" is not one comb_ext_adopt sets', generator
                USING ERRCODE = 'invalid_parameter_value', HINT = 'The generators: ' || generators || '.';
    END CASE;
    -- The SQL edition (docs/portable.md) runs this same function and has no uid8 or sno generator. What is
    -- there is read from what the extension comb_ext itself holds, never from names anyone could create.
    IF generator IN ('uid8', 'uid8 spread', 'sno') AND NOT EXISTS (
        SELECT FROM pg_catalog.pg_proc p
        JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.objid = p.oid
                                    AND d.deptype = 'e'
        JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'comb_ext'
        WHERE p.pronamespace = '@extschema@'::pg_catalog.regnamespace
          AND p.proname = CASE generator WHEN 'sno' THEN 'sno_new' ELSE 'uid8_new' END) THEN
        RAISE EXCEPTION 'comb_ext_adopt: generator "%" is not in this edition of comb_ext: the SQL edition makes COMBs and muids', generator
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'Adopt a comb_format label or muid, or install the compiled edition for uid8 and sno.';
    END IF;

    SELECT c.relkind, c.relowner INTO kind, owner FROM pg_catalog.pg_class c WHERE c.oid = tbl;
    IF kind IS NULL THEN
        RAISE EXCEPTION 'comb_ext_adopt: relation with OID % does not exist', tbl::oid USING ERRCODE = 'undefined_table';
    END IF;
    target := tbl::text;  -- schema-qualified: the search_path is pg_catalog's alone
    IF kind NOT IN ('r', 'p') THEN
        RAISE EXCEPTION 'comb_ext_adopt: % is not a table', target USING ERRCODE = 'wrong_object_type',
            HINT = 'comb_ext_adopt sets the default of a table''s key column (a partitioned table''s reaches its partitions).';
    END IF;
    IF NOT pg_catalog.pg_has_role(current_user, owner, 'USAGE') THEN
        RAISE EXCEPTION 'comb_ext_adopt: must be owner of table % to adopt its column %', target, quote_ident(col)
            USING ERRCODE = 'insufficient_privilege',
            HINT = 'Run it as the table''s owner, or as a member of the owning role.';
    END IF;

    SELECT a.attnum, a.atttypid, a.attidentity, a.attgenerated INTO att
    FROM pg_catalog.pg_attribute a
    WHERE a.attrelid = tbl AND a.attname = col AND a.attnum > 0 AND NOT a.attisdropped;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'comb_ext_adopt: table % has no column %', target, quote_ident(col) USING ERRCODE = 'undefined_column';
    END IF;
    column_sql := format('%s.%I', target, col);
    IF att.attgenerated <> '' THEN
        RAISE EXCEPTION 'comb_ext_adopt: column % is a generated column: its values are computed, not defaulted', column_sql
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    IF att.atttypid <> wanted THEN
        RAISE EXCEPTION 'comb_ext_adopt: column % is of type %, and generator % makes %', column_sql,
                format_type(att.atttypid, NULL), generator, wanted
            USING ERRCODE = 'datatype_mismatch',
            HINT = CASE WHEN wanted = 'bigint'::regtype AND att.atttypid IN ('integer'::regtype, 'smallint'::regtype)
                        THEN 'Change the column to bigint first (ALTER TABLE ... ALTER COLUMN ... TYPE bigint rewrites the table under an ACCESS EXCLUSIVE lock), and every column whose foreign key references it.'
                        ELSE 'Choose a generator of the column''s type: ' || generators || '.' END;
    END IF;

    -- A key: the only column of a valid, non-partial unique index (a primary key or a unique constraint).
    SELECT EXISTS (
        SELECT FROM pg_catalog.pg_index i
        WHERE i.indrelid = tbl AND i.indisunique AND i.indisvalid AND i.indpred IS NULL AND i.indexprs IS NULL
          AND i.indnkeyatts = 1 AND i.indkey[0] = att.attnum) INTO key_found;
    IF NOT key_found THEN
        RAISE EXCEPTION 'comb_ext_adopt: column % is not a key: no primary key or unique index has it as its only column', column_sql
            USING ERRCODE = 'object_not_in_prerequisite_state',
            HINT = 'comb_ext_adopt sets the default of a key column, which a unique index keeps free of duplicates. Add the primary key or a unique index (CREATE UNIQUE INDEX CONCURRENTLY) first.';
    END IF;

    -- Every column whose foreign key references this one must hold the new ids.
    SELECT con.conname, con.conrelid::regclass AS child, a.attname, a.atttypid INTO bad
    FROM pg_catalog.pg_constraint con
    JOIN pg_catalog.pg_attribute a ON a.attrelid = con.conrelid
        AND a.attnum = con.conkey[pg_catalog.array_position(con.confkey, att.attnum)]
    WHERE con.contype = 'f' AND con.confrelid = tbl AND att.attnum = ANY (con.confkey) AND a.atttypid <> wanted
    LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'comb_ext_adopt: foreign key % of % references column % from its column %, of type %, which cannot hold % ids',
                quote_ident(bad.conname), bad.child::text, column_sql, quote_ident(bad.attname), format_type(bad.atttypid, NULL), generator
            USING ERRCODE = 'datatype_mismatch',
            HINT = format('Change %s.%I to %s first (a rewrite of that table).', bad.child::text, bad.attname, wanted);
    END IF;

    -- A partition key: new ids would fall outside the partitions' bounds.
    IF EXISTS (SELECT FROM pg_catalog.pg_partitioned_table p WHERE p.partrelid = tbl AND att.attnum = ANY (p.partattrs::int2[]))
       OR EXISTS (SELECT FROM pg_catalog.pg_inherits h
                  JOIN pg_catalog.pg_partitioned_table p ON p.partrelid = h.inhparent
                  JOIN pg_catalog.pg_attribute pa ON pa.attrelid = h.inhparent AND pa.attname = col
                  WHERE h.inhrelid = tbl AND pa.attnum = ANY (p.partattrs::int2[])) THEN
        RAISE EXCEPTION 'comb_ext_adopt: column % is a partition key: new ids would fall outside the partitions'' bounds', column_sql
            USING ERRCODE = 'object_not_in_prerequisite_state',
            HINT = 'Create partitions for the new ids'' range first (docs/partitioning.md), then set the default with ALTER TABLE on the partitioned table.';
    END IF;

    -- Citus refuses ALTER TABLE on a distribution column, which a distributed table's key alone must be; the
    -- table goes back to the coordinator for the adoption, and out again.
    IF pg_catalog.to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL THEN
        EXECUTE 'SELECT partmethod::text FROM pg_catalog.pg_dist_partition WHERE logicalrelid = $1' INTO citus_method USING tbl;
        IF citus_method IS NOT NULL THEN
            RAISE EXCEPTION 'comb_ext_adopt: % is a Citus % table, whose key''s default Citus does not let ALTER TABLE change', target,
                    CASE citus_method WHEN 'n' THEN 'reference' ELSE 'distributed' END
                USING ERRCODE = 'feature_not_supported',
                HINT = format('Adopt it on the coordinator as a local table, then distribute it again (both move the table''s rows): SELECT undistribute_table(%1$L); SELECT * FROM comb_ext_adopt(%1$L, %2$L, %3$L); SELECT %4$s; (undistribute_table takes cascade_via_foreign_keys => true where foreign keys tie it to other Citus tables: distribute those again too).',
                    target, col, generator,
                    CASE citus_method WHEN 'n' THEN format('create_reference_table(%L)', target)
                         ELSE format('create_distributed_table(%L, %L)', target, col) END);
        END IF;
    END IF;

    IF att.attidentity = 'a' THEN
        RAISE EXCEPTION 'comb_ext_adopt: column % is GENERATED ALWAYS AS IDENTITY: after adoption inserts could name the column, which it now forbids', column_sql
            USING ERRCODE = 'object_not_in_prerequisite_state',
            HINT = format('If inserts naming the column are acceptable, first: ALTER TABLE %s ALTER COLUMN %I SET GENERATED BY DEFAULT;', target, col);
    END IF;

    SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid) INTO old_expr
    FROM pg_catalog.pg_attrdef d WHERE d.adrelid = tbl AND d.adnum = att.attnum;
    seq := pg_catalog.pg_get_serial_sequence(target, col)::regclass;
    IF seq IS NOT NULL THEN
        seq_last := pg_catalog.pg_sequence_last_value(seq);
        -- Citus refuses to alter a sequence it has distributed (one a distributed table used, even once the
        -- table is local again): such a sequence stays owned by the column.
        IF pg_catalog.to_regclass('pg_catalog.pg_dist_object') IS NOT NULL THEN
            EXECUTE 'SELECT EXISTS (SELECT FROM pg_catalog.pg_dist_object WHERE classid = ''pg_catalog.pg_class''::pg_catalog.regclass AND objid = $1)'
                INTO seq_distributed USING seq;
        END IF;
    END IF;

    IF NOT dry_run THEN
        -- The lock ALTER COLUMN ... SET DEFAULT takes anyway, taken before the values are read, so no row
        -- comes in between; held to the end of the caller's transaction.
        EXECUTE format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', target);
    END IF;
    IF generator IN ('uid8', 'uid8 spread') THEN
        -- Forced row-level security would hide rows from the owner's max() too.
        IF EXISTS (SELECT FROM pg_catalog.pg_class c WHERE c.oid = tbl AND c.relrowsecurity AND c.relforcerowsecurity) THEN
            RAISE EXCEPTION 'comb_ext_adopt: table % forces row-level security, so its owner may not see every value of column %', target, column_sql
                USING ERRCODE = 'object_not_in_prerequisite_state',
                HINT = format('Adopt it with the policies lifted for the owner: ALTER TABLE %s NO FORCE ROW LEVEL SECURITY; then FORCE again.', target);
        END IF;
        EXECUTE format('SELECT max(%1$I), min(%1$I) FROM %2$s', col, target) INTO top, bottom;
        floor_now := @extschema@.uid8_floor(pg_catalog.clock_timestamp());
        IF generator = 'uid8' AND top >= floor_now THEN
            RAISE EXCEPTION 'comb_ext_adopt: column % holds values up to %, not below the first uid8 the generator issues now, %: new ids would not sort after the old ones', column_sql, top, floor_now
                USING ERRCODE = 'object_not_in_prerequisite_state',
                HINT = 'Old values must be below uid8_floor(now()). Keep them in another column, or keep the column''s generator.';
        END IF;
        IF generator = 'uid8 spread' AND (top >= spread_clear OR bottom < 0) THEN
            RAISE EXCEPTION 'comb_ext_adopt: column % holds values from % to %, and a uid8 spread id can equal a value outside 0 to %', column_sql, bottom, top, spread_clear - 1
                USING ERRCODE = 'object_not_in_prerequisite_state',
                HINT = 'Spread ids scatter over the whole bigint range: adopt ''uid8'' (time_sequential), whose ids sort after the old ones, as a primary key''s should.';
        END IF;
    END IF;

    relation := tbl;
    column_name := col;
    adopted_generator := generator;
    old_default := CASE WHEN att.attidentity = 'd' THEN 'GENERATED BY DEFAULT AS IDENTITY' ELSE old_expr END;
    new_default := expression;
    lock := 'ACCESS EXCLUSIVE on ' || target || CASE WHEN kind = 'p' THEN ' and its partitions' ELSE '' END
        || ', to the end of the transaction';
    IF old_expr = expression AND att.attidentity = '' THEN
        -- Adopted already: nothing to change.
        sequence := NULL;
        restore := NULL;
        changed := false;
        IF dry_run THEN lock := 'none (dry run)'; END IF;
        RETURN NEXT;
        RETURN;
    END IF;

    IF att.attidentity = 'd' THEN
        sequence := format('%s: dropped with the identity (PostgreSQL drops an identity''s sequence with it); its last value %s',
                           seq::text, coalesce(seq_last::text, 'none (never used)'));
        restore := format('ALTER TABLE %1$s ALTER COLUMN %2$I DROP DEFAULT, ALTER COLUMN %2$I ADD GENERATED BY DEFAULT AS IDENTITY (START WITH %3$s);',
                          target, col, coalesce(seq_last + 1, 1));
    ELSIF seq IS NOT NULL AND seq_distributed THEN
        sequence := format('%s: kept, still owned by the column (Citus does not let a distributed sequence be altered); its last value %s',
                           seq::text, coalesce(seq_last::text, 'none (never used)'));
        restore := format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s;', target, col, old_expr);
    ELSIF seq IS NOT NULL THEN
        sequence := format('%s: no longer owned by the column (a DROP TABLE leaves it), kept; its last value %s',
                           seq::text, coalesce(seq_last::text, 'none (never used)'));
        restore := format('ALTER TABLE %1$s ALTER COLUMN %2$I SET DEFAULT %3$s; ALTER SEQUENCE %4$s OWNED BY %1$s.%2$I;',
                          target, col, old_expr, seq::text);
    ELSE
        sequence := NULL;
        restore := CASE WHEN old_expr IS NULL THEN format('ALTER TABLE %s ALTER COLUMN %I DROP DEFAULT;', target, col)
                        ELSE format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s;', target, col, old_expr) END;
    END IF;

    IF dry_run THEN
        lock := 'none (dry run); adopting takes ' || lock;
        changed := false;
        RETURN NEXT;
        RETURN;
    END IF;
    IF att.attidentity = 'd' THEN
        EXECUTE format('ALTER TABLE %s ALTER COLUMN %I DROP IDENTITY', target, col);
    ELSIF seq IS NOT NULL AND NOT seq_distributed THEN
        EXECUTE format('ALTER SEQUENCE %s OWNED BY NONE', seq::text);
    END IF;
    EXECUTE format('ALTER TABLE %s ALTER COLUMN %I SET DEFAULT %s', target, col, expression);
    changed := true;
    RETURN NEXT;
END
$adopt$;

COMMENT ON FUNCTION @extschema@.comb_ext_adopt(regclass, name, text, boolean) IS
  'Makes new rows of an existing table take comb_ext ids: sets the key column''s default (dropping a BY DEFAULT identity, detaching a serial''s sequence), after checks; old values stay. Returns what it changed and the statements that restore it; dry_run changes nothing (docs/adopting.md)';
