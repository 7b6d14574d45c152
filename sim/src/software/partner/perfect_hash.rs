//! A collision-free hash table for a fixed key set (the static partner table), built by
//! row displacement: key `k` sits at row `k / m`, column `k % m` of an `m x m` matrix with
//! `m * m > max key`; each row is shifted right until none of its keys lands on an occupied
//! column, and the shifted rows are laid over one array. A lookup is one division, one
//! displacement read and one key compare.

#[derive(Clone, Debug, Default)]
pub struct PerfectHash {
    m: u64,
    displacement: Vec<u32>,
    /// `(key, value)`; `key == EMPTY` marks a hole.
    slots: Vec<(u64, u32)>,
}

const EMPTY: u64 = u64::MAX;

impl PerfectHash {
    /// Builds a table mapping each of `entries`' keys to its value. Keys must be distinct
    /// and below `u64::MAX`.
    pub fn build(entries: &[(u64, u32)]) -> Self {
        let Some(max) = entries.iter().map(|e| e.0).max() else {
            return PerfectHash::default();
        };
        let mut m = ((max as f64 + 1.0).sqrt() as u64).max(1);
        while m.saturating_mul(m) <= max {
            m += 1;
        }
        let mut rows: Vec<Vec<(u64, u32)>> = vec![Vec::new(); m as usize];
        for &(k, v) in entries {
            rows[(k / m) as usize].push((k, v));
        }
        // Fullest rows first: they are the hardest to place.
        let mut order: Vec<usize> = (0..m as usize).filter(|&r| !rows[r].is_empty()).collect();
        order.sort_by_key(|&r| std::cmp::Reverse(rows[r].len()));
        let mut displacement = vec![0u32; m as usize];
        let mut slots: Vec<(u64, u32)> = Vec::new();
        for r in order {
            let fits = |d: usize, slots: &Vec<(u64, u32)>| {
                rows[r].iter().all(|&(k, _)| slots.get(d + (k % m) as usize).is_none_or(|s| s.0 == EMPTY))
            };
            let d = (0..).find(|&d| fits(d, &slots)).expect("an unbounded search finds a fit");
            for &(k, v) in &rows[r] {
                let at = d + (k % m) as usize;
                if slots.len() <= at {
                    slots.resize(at + 1, (EMPTY, 0));
                }
                slots[at] = (k, v);
            }
            displacement[r] = d as u32;
        }
        PerfectHash { m, displacement, slots }
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<u32> {
        if self.m == 0 {
            return None;
        }
        let row = key / self.m;
        let d = *self.displacement.get(row as usize)? as usize;
        match self.slots.get(d + (key % self.m) as usize) {
            Some(&(k, v)) if k == key => Some(v),
            _ => None,
        }
    }

    pub fn memory_bytes(&self) -> usize {
        self.displacement.capacity() * 4 + self.slots.capacity() * 16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_found_and_no_other() {
        let keys: Vec<(u64, u32)> = [3u64, 4, 5, 17, 18, 100, 101, 999, 1000, 4095]
            .iter()
            .enumerate()
            .map(|(i, &k)| (k, i as u32))
            .collect();
        let h = PerfectHash::build(&keys);
        for &(k, v) in &keys {
            assert_eq!(h.get(k), Some(v));
        }
        for k in (0..5000u64).filter(|k| !keys.iter().any(|e| e.0 == *k)) {
            assert_eq!(h.get(k), None, "key {k}");
        }
        assert_eq!(h.get(u64::MAX - 1), None);
        assert_eq!(PerfectHash::build(&[]).get(0), None);
        // The table stays far smaller than the key range.
        assert!(h.memory_bytes() < 4096 * 16 / 4);
    }
}
