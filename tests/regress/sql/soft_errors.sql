--
-- PostgreSQL 16+: sno's input function reports soft errors, so pg_input_is_valid and
-- pg_input_error_info see our message and SQLSTATE instead of an ERROR. (Before 16 these
-- functions do not exist: soft_errors_1.out.)
--
SELECT pg_input_is_valid('brpk4q72xwf2m63l', 'sno') AS good, pg_input_is_valid('x', 'sno') AS bad,
       pg_input_is_valid('brpk4q72xwf2m63z', 'sno') AS outside_alphabet;
SELECT * FROM pg_input_error_info('brpk4q72xwf2m63', 'sno');
-- A hard error where no caller asks for a soft one.
SELECT regress_error($$SELECT 'x'::sno$$);
