//! How the level-1 CAM splits its slots into banks. The RTL builds its banks this way and
//! the cycle model tracks their occupancy this way, so both read this one definition; the
//! capacity a queue guarantees ([`crate::EngineShape::guaranteed_capacity`]) follows from
//! it.
//!
//! Slots fill one bank at a time and a bank is reused only once empty, so a full CAM
//! holds at least one entry per bank: the bank count is the CAM's guaranteed share.

/// Slots per bank of a CAM of `depth` slots: the largest power of two `S` with
/// `S * S <= depth` that divides `depth` (256: 16 banks of 16; 128: 16 of 8; 6: 3 of 2;
/// a prime depth: one slot a bank). Square banks keep both the bank-age matrix (banks²)
/// and each bank's priority encoder (slots) small.
pub const fn bank_size(depth: usize) -> usize {
    let mut s = 1;
    while (2 * s) * (2 * s) <= depth && depth.is_multiple_of(2 * s) {
        s *= 2;
    }
    s
}

/// Banks of a CAM of `depth` slots: also the fewest entries it holds when full.
pub const fn banks(depth: usize) -> usize {
    depth / bank_size(depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn banks_are_square_powers_of_two_that_divide_the_depth() {
        assert_eq!((bank_size(256), banks(256)), (16, 16));
        assert_eq!((bank_size(128), banks(128)), (8, 16));
        assert_eq!((bank_size(8), banks(8)), (2, 4));
        assert_eq!((bank_size(6), banks(6)), (2, 3));
        assert_eq!((bank_size(7), banks(7)), (1, 7));
        assert_eq!((bank_size(2), banks(2)), (1, 2));
        for depth in 1..=4096 {
            let s = bank_size(depth);
            assert!(s.is_power_of_two() && depth % s == 0 && s * s <= depth, "{depth}");
        }
    }
}
