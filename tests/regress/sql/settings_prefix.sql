--
-- The comb_ext. settings prefix is reserved once the library is loaded: a misspelt setting is an
-- error on PostgreSQL 15+ (MarkGUCPrefixReserved). On 13 and 14 PostgreSQL keeps unknown names
-- as placeholders and warns only at load time (settings_prefix_1.out). The warning for a
-- misspelt name in postgresql.conf is checked on a server of its own (scripts/test.sh).
--
LOAD 'comb_ext';
SELECT regress_error($$SET comb_ext.sno_partiton = 5$$);
SELECT regress_error($$SET comb_ext.sno_partition = 5$$);
SHOW comb_ext.sno_partition;
RESET comb_ext.sno_partition;
