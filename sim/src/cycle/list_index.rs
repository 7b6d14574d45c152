//! An index over the entries of a queue's parallel lists, so the cycle model can answer
//! "where is each list's first match" without walking every list.
//!
//! The RTL compares one element per list per cycle, all lists at once; a model that walks
//! the lists does that work serially, `lists` times over, and a 64-list engine would run
//! barely faster in the model than in Verilator. What the model needs from a search is
//! each list's first match (its position gives that list's walk; a list without one walks
//! to its tail) and the oldest of them. Exact envelopes are looked up in a hash map; the
//! few entries stored with wildcards (receives with `ANY_SOURCE`/`ANY_TAG`) are checked one
//! by one; positions come from a binary search by posting label, since every list is in
//! label order. Searches with wildcards on the search side or by handle still walk.
//!
//! Labels must increase in posting order for the binary search, which holds for the first
//! 2^32 postings (the RTL's labels have the same limit).

use super::entry::{Entry, Key};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// (label, list) pairs in label order.
type Places = VecDeque<(u32, usize)>;

#[derive(Clone, Debug, Default)]
pub struct ListIndex {
    exact: FxHashMap<u128, Places>,
    /// Emptied `Places`, kept for the next new envelope: with unique envelopes every entry
    /// would otherwise cost an allocation and a free.
    spare: Vec<Places>,
    /// Entries stored with wildcards, in label order.
    wild: Vec<(Entry, usize)>,
}

impl ListIndex {
    /// Records `e`, just appended to `list`.
    pub fn add(&mut self, e: &Entry, list: usize) {
        if e.wild == 0 {
            let spare = &mut self.spare;
            self.exact
                .entry(e.key)
                .or_insert_with(|| spare.pop().unwrap_or_default())
                .push_back((e.label, list));
        } else {
            self.wild.push((*e, list));
        }
    }

    /// Forgets `e`, just removed from its list.
    pub fn remove(&mut self, e: &Entry) {
        if e.wild == 0 {
            let places = self.exact.get_mut(&e.key).expect("indexed entries are in the map");
            let at = places.binary_search_by_key(&e.label, |&(l, _)| l).expect("indexed label");
            places.remove(at);
            if places.is_empty() {
                let emptied = self.exact.remove(&e.key).expect("present");
                self.spare.push(emptied);
            }
        } else {
            let at = self.wild.binary_search_by_key(&e.label, |(w, _)| w.label).expect("indexed label");
            self.wild.remove(at);
        }
    }

    /// For an exact envelope `key`, the label of each list's first match (`None`: no
    /// match), written into `firsts` (one slot per list). `None` for keys the index cannot
    /// answer (wildcards in the key, handles): the caller walks the lists.
    pub fn first_matches(&self, key: &Key, firsts: &mut [Option<u32>]) -> Option<()> {
        let Key::Envelope { key: k, wild: 0 } = *key else { return None };
        firsts.fill(None);
        let mut seen = 0;
        for &(label, list) in self.exact.get(&k).into_iter().flatten() {
            if firsts[list].is_none() {
                firsts[list] = Some(label);
                seen += 1;
                if seen == firsts.len() {
                    break;
                }
            }
        }
        for (e, list) in &self.wild {
            if key.matches(e) && firsts[*list].is_none_or(|f| e.label < f) {
                firsts[*list] = Some(e.label);
            }
        }
        Some(())
    }
}
