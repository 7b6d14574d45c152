//! Constructors the thread array's blocks share: a constant from an integer, and vectors
//! of registers and signals (rust-hdl builds each element with `Default`).

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
