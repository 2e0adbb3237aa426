-- SQL Server uniqueidentifier order for uuid: operators and a non-default btree operator class.
-- The operators carry a '#' so they cannot be mistaken for uuid's own < <= >= >; equality is
-- uuid's own =, the same in every order, which also lets merge joins use the class.

-- Support function 1 is a bare C function (src/postgres/btree_cmp.rs): a btree calls it for every
-- key it compares, and pgrx's per-call wrapper cost as much as the comparison. Its symbol is the
-- one every earlier version's script names.
CREATE FUNCTION uuid_sqlserver_cmp(a uuid, b uuid) RETURNS integer
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_sqlserver_cmp_wrapper';

CREATE OPERATOR #<# (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_sqlserver_lt,
    COMMUTATOR = #>#, NEGATOR = #>=#, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR #<=# (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_sqlserver_le,
    COMMUTATOR = #>=#, NEGATOR = #>#, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR #>=# (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_sqlserver_ge,
    COMMUTATOR = #<=#, NEGATOR = #<#, RESTRICT = scalargesel, JOIN = scalargejoinsel
);
CREATE OPERATOR #># (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_sqlserver_gt,
    COMMUTATOR = #<#, NEGATOR = #<=#, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);

CREATE OPERATOR CLASS uuid_sqlserver_ops FOR TYPE uuid USING btree AS
    OPERATOR 1 #<#,
    OPERATOR 2 #<=#,
    OPERATOR 3 = (uuid, uuid),
    OPERATOR 4 #>=#,
    OPERATOR 5 #>#,
    FUNCTION 1 uuid_sqlserver_cmp(uuid, uuid),
    FUNCTION 2 uuid_sqlserver_sortsupport(internal),
    -- Equality is uuid's own: equal values are the same bytes, so btree deduplication is safe.
    FUNCTION 4 btequalimage(oid);

-- .NET Guid.ToByteArray() order for uuid, the `binary` formats' (bytes 3, 2, 1, 0, 5, 4, 7, 6, 8-15 of
-- the uuid compared raw, as Oracle RAW(16) and SQLite BLOB compare the array): the same shape. Its
-- operators carry a '~', as text_pattern_ops' byte-wise ones do: raw bytes compared in turn.
CREATE FUNCTION uuid_binary_cmp(a uuid, b uuid) RETURNS integer
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_binary_cmp';

CREATE OPERATOR ~<~ (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_binary_lt,
    COMMUTATOR = ~>~, NEGATOR = ~>=~, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR ~<=~ (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_binary_le,
    COMMUTATOR = ~>=~, NEGATOR = ~>~, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR ~>=~ (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_binary_ge,
    COMMUTATOR = ~<=~, NEGATOR = ~<~, RESTRICT = scalargesel, JOIN = scalargejoinsel
);
CREATE OPERATOR ~>~ (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_binary_gt,
    COMMUTATOR = ~<~, NEGATOR = ~<=~, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);

CREATE OPERATOR CLASS uuid_binary_ops FOR TYPE uuid USING btree AS
    OPERATOR 1 ~<~,
    OPERATOR 2 ~<=~,
    OPERATOR 3 = (uuid, uuid),
    OPERATOR 4 ~>=~,
    OPERATOR 5 ~>~,
    FUNCTION 1 uuid_binary_cmp(uuid, uuid),
    FUNCTION 2 uuid_binary_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
