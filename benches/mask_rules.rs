//! ns per call of the masking constructions themselves (src/rules/mask.rs), without PostgreSQL's function
//! call around them: the figure uuidv47's README gives for its C (33 ns for an encode and a decode, on an
//! Apple M-series CPU). Built without pgrx, as the loom step builds src/rules; run by benches/masking.sh:
//!   RUSTFLAGS="--cfg rules_only" CARGO_TARGET_DIR=target/loom cargo bench --no-default-features --bench mask_rules
use comb_ext::rules::comb::{self, Format};
use comb_ext::rules::mask::{mask_comb, unmask_comb, Feistel, Key};
use std::hint::black_box;
use std::time::Instant;

const CALLS: u32 = 2_000_000;
const ROUNDS: usize = 5;

/// Median over ROUNDS of ns per call of `f` on CALLS inputs.
fn ns_per_call(mut f: impl FnMut(u32)) -> f64 {
    let mut rounds: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let started = Instant::now();
            for i in 0..CALLS {
                f(black_box(i));
            }
            started.elapsed().as_nanos() as f64 / CALLS as f64
        })
        .collect();
    rounds.sort_by(f64::total_cmp);
    rounds[ROUNDS / 2]
}

fn main() {
    let key = Key::new(0x0123456789abcdef, 0xfedcba9876543210);
    println!("| construction (src/rules/mask.rs, release, no PostgreSQL) | ns per call |\n|---|---:|");
    let hash = ns_per_call(|i| {
        let mut message = [0x5au8; 10];
        message[9] = i as u8;
        message[8] = (i >> 8) as u8;
        black_box(key.siphash(&message));
    });
    println!("| SipHash-2-4 of 10 bytes (the floor of a COMB mask) | {hash:.1} |");
    for format in [Format::UuidV7, Format::PostgreSql, Format::SqlServer, Format::Ticks] {
        let base = comb::at([0x5a; 16], 1_700_000_000_123_456, format).unwrap();
        let mask = ns_per_call(|i| {
            let mut id = base;
            id[15] = i as u8;
            id[14] = (i >> 8) as u8;
            black_box(mask_comb(&id, format, &key).unwrap());
        });
        let both = ns_per_call(|i| {
            let mut id = base;
            id[15] = i as u8;
            id[14] = (i >> 8) as u8;
            let facade = mask_comb(&id, format, &key).unwrap();
            black_box(unmask_comb(&facade, format, &key).unwrap());
        });
        println!(
            "| `{}`: mask | {mask:.1} |\n| `{}`: mask and unmask (uuidv47's 33 ns figure) | {both:.1} |",
            format.name(),
            format.name()
        );
    }
    for family in Feistel::ALL {
        let mask = ns_per_call(|i| {
            black_box(family.mask(i as u128 * 0x9E37_79B9, &key));
        });
        println!("| {family:?} (Feistel, {} bits): mask | {mask:.1} |", family.bits());
    }
}
