//! Where the level-1 CAM (`hdl/src/cam.rs`) puts its entries, as far as timing depends on
//! it: slots in `B` banks of `S` that only append. One bank is open; an insert takes its
//! next slot, or, when it is used up, opens the lowest-numbered empty bank. The CAM is
//! *full* when the open bank is used up and no bank is empty, which is what decides
//! whether an insert goes to the CAM or the lists and whether a removal lets the data
//! mover refill. An open bank left empty is closed, so an emptied CAM fills from bank 0
//! as after reset. The entries' age order is kept by the model's queue itself (oldest
//! first), so only the banks' occupancy is tracked here.

use tagmatch_config::cam_banks::bank_size;

/// Cycles a search by handle (a cancel) spends scanning the CAM before it chooses, as an
/// envelope search does: one slot a cycle, and three to register, compare and collect.
pub fn handle_scan_cycles(depth: usize) -> u64 {
    depth as u64 + 3
}

/// The occupancy of a CAM's banks.
#[derive(Clone, Debug)]
pub struct CamBanks {
    size: usize,
    /// Live entries per bank.
    live: Vec<usize>,
    open: usize,
    /// Slots of the open bank used so far (`size`: used up, the next insert opens a bank).
    used: usize,
}

impl CamBanks {
    /// An empty CAM of `depth` slots: no bank open.
    pub fn new(depth: usize) -> Self {
        let size = bank_size(depth);
        CamBanks { size, live: vec![0; depth / size], open: 0, used: size }
    }

    /// Banks: the fewest entries a full CAM holds.
    pub fn banks(&self) -> usize {
        self.live.len()
    }

    /// An insert would be ignored.
    pub fn full(&self) -> bool {
        self.used == self.size && self.live.iter().all(|&n| n > 0)
    }

    /// Takes a slot for a new entry (the caller checks [`CamBanks::full`]); returns its bank.
    pub fn insert(&mut self) -> usize {
        if self.used == self.size {
            self.open = self.live.iter().position(|&n| n == 0).expect("not full: a bank is empty");
            self.used = 0;
        }
        self.used += 1;
        self.live[self.open] += 1;
        self.open
    }

    /// Frees a slot of bank `bank`. An open bank left empty is closed: the next insert
    /// restarts the lowest empty bank.
    pub fn remove(&mut self, bank: usize) {
        self.live[bank] -= 1;
        if bank == self.open && self.live[bank] == 0 {
            self.used = self.size;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_cam_holds_all_its_slots_in_order_and_a_straggler_keeps_only_its_bank() {
        let mut cam = CamBanks::new(8);
        let banks: Vec<usize> = (0..8).map(|_| cam.insert()).collect();
        assert_eq!(banks, [0, 0, 1, 1, 2, 2, 3, 3]);
        assert!(cam.full());
        // Every entry but the first leaves: bank 0 keeps one, banks 1 to 3 are empty.
        for b in &banks[1..] {
            cam.remove(*b);
        }
        assert!(!cam.full());
        assert_eq!((0..6).map(|_| cam.insert()).collect::<Vec<_>>(), [1, 1, 2, 2, 3, 3]);
        assert!(cam.full(), "7 entries and bank 0's slot wasted");
        // Full with one entry per bank: the guaranteed capacity.
        for b in [1, 2, 3] {
            cam.remove(b);
        }
        assert!(cam.full() && cam.banks() == 4);
    }
}
