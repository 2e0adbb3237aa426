-- sno: a fixed-length 10-byte base type (not a varlena), passed by reference, byte-aligned.
-- Its I/O functions are created against the shell type first (src/families/sno.rs).
CREATE TYPE sno (
    INTERNALLENGTH = 10,
    INPUT = sno_in,
    OUTPUT = sno_out,
    RECEIVE = sno_recv,
    SEND = sno_send,
    ALIGNMENT = char,
    STORAGE = plain
);
