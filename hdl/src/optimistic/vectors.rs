//! Constructors the thread array's blocks share: a constant from an integer, vectors of
//! registers and signals (rust-hdl builds each element with `Default`), and the masks and
//! bank indexes several blocks compare with.

use rust_hdl::prelude::*;

pub(crate) fn k<const W: usize>(value: u64) -> Constant<Bits<W>> {
    Constant::new(value.to_bits())
}

pub(crate) fn dffs<T: Synth>(count: usize) -> Vec<DFF<T>> {
    (0..count).map(|_| Default::default()).collect()
}

pub(crate) fn signals<D: Direction, T: Synth>(count: usize) -> Vec<Signal<D, T>> {
    (0..count).map(|_| Default::default()).collect()
}

/// The low `bits` bits set: a field's generated bits.
pub(crate) fn low_bits(bits: usize) -> u64 {
    (1u64 << bits) - 1
}

/// The bits a descriptor pointer (slot + 1, 0 for none) needs over `descriptors` slots:
/// links masked with it are as narrow, which synthesis cannot see through their loop.
pub(crate) fn pointer_mask(descriptors: usize) -> u64 {
    low_bits(crate::primitives::trees::bits_to_hold(descriptors))
}

/// Bank `b`'s index, for each of `banks` banks (list `l` is in bank `l mod banks`).
pub(crate) fn bank_indexes(banks: usize) -> Vec<Constant<Bits<16>>> {
    (0..banks).map(|b| k(b as u64)).collect()
}
