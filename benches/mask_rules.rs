//! ns per call of the masking constructions themselves (src/rules/mask.rs), without PostgreSQL's function
//! call around them: the figure uuidv47's README gives for its C (33 ns for an encode and a decode, on an
//! Apple M-series CPU). Built without pgrx, as the loom step builds src/rules; run by benches/masking.sh:
//!   RUSTFLAGS="--cfg rules_only" CARGO_TARGET_DIR=target/loom cargo bench --no-default-features --bench mask_rules
use comb_ext::rules::comb::{self, Format};
use comb_ext::rules::mask::{mask_comb, unmask_comb, Feistel, Key, ROUNDS as FEISTEL_ROUNDS};
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

/// Runs `row` and prints its line, unless a filter was given (`cargo bench --bench mask_rules -- Sno`,
/// for a profile or an instruction count of some rows) that its label lacks.
fn print_row(label: &str, row: impl FnOnce() -> f64) {
    let filter = std::env::args().skip(1).find(|arg| !arg.starts_with("--"));
    if filter.is_none_or(|filter| label.contains(&filter)) {
        println!("| {label} | {:.1} |", row());
    }
}

fn main() {
    let key = Key::new(0x0123456789abcdef, 0xfedcba9876543210);
    println!("| construction (src/rules/mask.rs, release, no PostgreSQL) | ns per call |\n|---|---:|");
    print_row("SipHash-2-4 of 10 bytes (the floor of a COMB mask)", || {
        ns_per_call(|i| {
            let mut message = [0x5au8; 10];
            message[9] = i as u8;
            message[8] = (i >> 8) as u8;
            black_box(key.siphash(&message));
        })
    });
    for format in [Format::UuidV7, Format::PostgreSql, Format::SqlServer, Format::Ticks] {
        let base = comb::at([0x5a; 16], 1_700_000_000_123_456, format).unwrap();
        let id = move |i: u32| {
            let mut id = base;
            id[15] = i as u8;
            id[14] = (i >> 8) as u8;
            id
        };
        print_row(&format!("`{}`: mask", format.name()), || {
            ns_per_call(|i| {
                black_box(mask_comb(&id(i), format, &key).unwrap());
            })
        });
        print_row(&format!("`{}`: mask and unmask (uuidv47's 33 ns figure)", format.name()), || {
            ns_per_call(|i| {
                let facade = mask_comb(&id(i), format, &key).unwrap();
                black_box(unmask_comb(&facade, format, &key).unwrap());
            })
        });
    }
    for family in Feistel::ALL {
        print_row(&format!("{family:?} (Feistel, {} bits): mask", family.bits()), || {
            ns_per_call(|i| {
                black_box(family.mask(i as u128 * 0x9E37_79B9, &key));
            })
        });
        // The network's rounds are one chain: each hashes the output of the one before. So its floor
        // is the latency of that many SipHashes of its round input's length, not their throughput.
        let input_len = 3 + family.bits() as usize / 16;
        print_row(
            &format!("{family:?}: {FEISTEL_ROUNDS} SipHash-2-4 of {input_len} bytes in a chain (its floor)"),
            || {
                ns_per_call(|i| {
                    let mut hash = i as u64;
                    for _ in 0..FEISTEL_ROUNDS {
                        let mut message = [0x5au8; 16];
                        message[..8].copy_from_slice(&hash.to_le_bytes());
                        hash = key.siphash(&message[..input_len]);
                    }
                    black_box(hash);
                })
            },
        );
    }
}
