//! The three byte orders a 16-byte GUID is sorted in.
//!
//! Byte `i` is string byte `i`: hex digits `2i..2i+1` of the uuid text without hyphens, which is how
//! PostgreSQL stores a `uuid` and how Npgsql and every text transfer render a .NET `Guid`.

use std::cmp::Ordering;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// PostgreSQL `uuid` and .NET `Guid.CompareTo`: bytes 0..15 in turn.
    Bytes,
    /// SQL Server `uniqueidentifier` (System.Data.SqlTypes.SqlGuid).
    SqlServer,
    /// .NET `Guid.ToByteArray()` compared as raw bytes (Oracle RAW(16), SQLite BLOB).
    DotNetBytes,
}

impl Order {
    /// String-byte positions from most to least significant.
    pub const fn significance(self) -> &'static [usize; 16] {
        match self {
            Order::Bytes => &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
            Order::SqlServer => &[10, 11, 12, 13, 14, 15, 8, 9, 7, 6, 5, 4, 3, 2, 1, 0],
            Order::DotNetBytes => &[3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15],
        }
    }

    /// The bytes rearranged most significant first, as one integer: comparing keys compares values.
    /// One arm per order, each with `key_in` inlined and its order a constant, so the rearranging is a
    /// byte shuffle: a btree compares through this a few dozen times for every key it places.
    #[inline(always)]
    pub fn key(self, bytes: &[u8; 16]) -> u128 {
        match self {
            Order::Bytes => Order::Bytes.key_in(bytes),
            Order::SqlServer => Order::SqlServer.key_in(bytes),
            Order::DotNetBytes => Order::DotNetBytes.key_in(bytes),
        }
    }

    #[inline(always)]
    fn key_in(self, bytes: &[u8; 16]) -> u128 {
        let mut permuted = [0u8; 16];
        for (slot, &position) in permuted.iter_mut().zip(self.significance()) {
            *slot = bytes[position];
        }
        u128::from_be_bytes(permuted)
    }

    /// The eight most significant bytes of the key: a sort's abbreviated key. Comparing two of
    /// them as unsigned integers agrees with `cmp` whenever they differ.
    #[inline(always)]
    pub fn abbreviated(self, bytes: &[u8; 16]) -> u64 {
        (self.key(bytes) >> 64) as u64
    }

    #[inline(always)]
    pub fn cmp(self, a: &[u8; 16], b: &[u8; 16]) -> Ordering {
        self.key(a).cmp(&self.key(b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_order_is_a_permutation() {
        for order in [Order::Bytes, Order::SqlServer, Order::DotNetBytes] {
            let mut seen = [false; 16];
            for &p in order.significance() {
                assert!(!seen[p], "{order:?} repeats byte {p}");
                seen[p] = true;
            }
        }
    }

    #[test]
    fn abbreviated_keys_never_contradict_the_full_order() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            // xorshift: a cheap deterministic stream; shared prefixes are forced below.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for order in [Order::Bytes, Order::SqlServer, Order::DotNetBytes] {
            for _ in 0..10_000 {
                let mut a = [0u8; 16];
                let mut b = [0u8; 16];
                a[..8].copy_from_slice(&next().to_le_bytes());
                a[8..].copy_from_slice(&next().to_le_bytes());
                b.copy_from_slice(&a);
                let flip = (next() % 16) as usize;
                b[flip] = (next() & 0xFF) as u8;
                let (x, y) = (order.abbreviated(&a), order.abbreviated(&b));
                if x != y {
                    assert_eq!(x.cmp(&y), order.cmp(&a, &b));
                }
            }
        }
    }

    #[test]
    fn sqlserver_order_puts_byte_10_first_and_byte_0_last() {
        let mut a = [0u8; 16];
        let mut b = [0u8; 16];
        a[10] = 1;
        b[0..10].fill(0xff);
        b[11..16].fill(0xff);
        assert_eq!(Order::SqlServer.cmp(&a, &b), Ordering::Greater);
        let mut c = [0u8; 16];
        c[0] = 1;
        let mut d = [0u8; 16];
        d[1] = 1;
        assert_eq!(Order::SqlServer.cmp(&c, &d), Ordering::Less);
    }
}
