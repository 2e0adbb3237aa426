//! Every COMB decoder on arbitrary uuids, in every format: never panics; a decodable time stamps
//! back to a value that decodes to the same time, and the orders agree with their abbreviations.
#![no_main]
use comb_ext::rules::comb::{self, Format};
use comb_ext::rules::order::Order;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 33 {
        return;
    }
    let mut a = [0u8; 16];
    let mut b = [0u8; 16];
    a.copy_from_slice(&data[1..17]);
    b.copy_from_slice(&data[17..33]);
    let format = Format::ALL[data[0] as usize % Format::ALL.len()];
    let _ = comb::is_ticks_comb(&a);
    if let Ok(us) = comb::timestamp(&a, format) {
        let stamped = comb::stamp(a, us, format).expect("a decoded time is in range");
        assert_eq!(comb::timestamp(&stamped, format), Ok(us));
        let _ = comb::floor(us, format);
    }
    for order in [Order::Bytes, Order::SqlServer, Order::DotNetBytes] {
        if order.abbreviated(&a) < order.abbreviated(&b) {
            assert_eq!(order.cmp(&a, &b), std::cmp::Ordering::Less);
        }
    }
});
