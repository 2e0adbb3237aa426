-- Reference generators for benches/portable.sh: not part of the SQL edition, never installed by it.
-- They measure how close any SQL-only COMB generator can come to the bulk-insert target (2.0x
-- bigserial), beside the edition's comb_uuid() (portable/comb.sql), in schema `reference`.

-- The floor of a generator that draws its random bits from gen_random_uuid() (the server's CSPRNG) at
-- each call: comb_uuid()'s bytes and arithmetic without its session state, so without the counter
-- (values within one 1/4096 ms are not ordered), the carry, and the range checks. Nothing that draws
-- from gen_random_uuid() per call and keeps per-session order can cost less.
CREATE FUNCTION reference.stateless_comb() RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL UNSAFE AS $$
    SELECT (pg_catalog.encode(pg_catalog.int8send(pg_catalog.overlay(pg_catalog.div(
                ((('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.timestamptz_send(pg_catalog.clock_timestamp()), 'hex'))
                     ::pg_catalog.bit(64)::bigint OPERATOR(pg_catalog.+) 946684800000000)::pg_catalog.numeric OPERATOR(pg_catalog.*) 512), 125)::bigint
              ::pg_catalog.bit(60), '0100'::pg_catalog.bit(4), 49, 0)::bigint), 'hex')
            OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substring(pg_catalog.uuid_send(pg_catalog.gen_random_uuid()), 9), 'hex'))::pg_catalog.uuid
$$;

-- Random bits from a pool instead: sha256(session key || random() || clock) gives four 64-bit tails
-- (variant bits set), kept with the last value in one setting, reference.pool = value's 32 hex digits
-- then the unused tails; the key comes from gen_random_uuid() once a session. Same order and bits
-- rule as comb_uuid(). Not shipped: settings follow transactions, so a rollback puts the pool back,
-- and after a clock step back (positions then come from the setting, not the clock) the calls after
-- a rollback give again exactly the values the rolled-back calls gave.
CREATE FUNCTION reference.sha256_pool_comb() RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL UNSAFE AS $$
    SELECT pg_catalog.encode(pg_catalog.substring(pg_catalog.textsend(pg_catalog.set_config('reference.pool',
        pg_catalog.encode(pg_catalog.int8send(pg_catalog.overlay((GREATEST(
            pg_catalog.div(
                (((('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.timestamptz_send(pg_catalog.clock_timestamp()), 'hex'))
                     ::pg_catalog.bit(64)::bigint OPERATOR(pg_catalog.+) 946684800000000)
                   ::portable._comb_unix_clock)::bigint::pg_catalog.numeric OPERATOR(pg_catalog.*) 512),
                125)::bigint,
            pg_catalog.overlay(('x' OPERATOR(pg_catalog.||) pg_catalog.current_setting('reference.pool', true))::pg_catalog.varbit::pg_catalog.bit(64),
                               ''::pg_catalog.varbit, 49, 4)::bigint OPERATOR(pg_catalog.+) 1
          )::portable._comb_unix_position)::bigint::pg_catalog.bit(60), '0100'::pg_catalog.bit(4), 49, 0)::bigint), 'hex')
        OPERATOR(pg_catalog.||) CASE
            WHEN pg_catalog.octet_length(pg_catalog.current_setting('reference.pool', true)) OPERATOR(pg_catalog.>) 32
            THEN pg_catalog.right(pg_catalog.current_setting('reference.pool', true), -32)
            ELSE pg_catalog.encode(pg_catalog.set_bit(pg_catalog.set_bit(pg_catalog.set_bit(pg_catalog.set_bit(
                 pg_catalog.set_bit(pg_catalog.set_bit(pg_catalog.set_bit(pg_catalog.set_bit(
                 pg_catalog.sha256(pg_catalog.decode(CASE
                         WHEN pg_catalog.current_setting('reference.key', true) OPERATOR(pg_catalog.<>) ''
                         THEN pg_catalog.current_setting('reference.key', true)
                         ELSE pg_catalog.set_config('reference.key',
                             pg_catalog.encode(pg_catalog.uuid_send(pg_catalog.gen_random_uuid()), 'hex'), false) END, 'hex')
                     OPERATOR(pg_catalog.||) pg_catalog.float8send(pg_catalog.random())
                     OPERATOR(pg_catalog.||) pg_catalog.timestamptz_send(pg_catalog.clock_timestamp())),
                 7, 1), 6, 0), 71, 1), 70, 0), 135, 1), 134, 0), 199, 1), 198, 0), 'hex') END,
        false)), 1, 32), 'escape')::pg_catalog.uuid
$$;
