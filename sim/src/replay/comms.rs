//! Communicators across ranks. DUMPI records a rank's local communicator handles
//! (`MPI_COMM_WORLD` is 2, `MPI_COMM_SELF` 3, new ones numbered per rank), so the same
//! communicator may carry different handles on different ranks.
//!
//! A communicator made by a collective call is identified by its parent, the call's
//! position among the creations on that parent (every member makes them in the same
//! order), and, for `MPI_Comm_split`, the color: that key is the same on every member and
//! becomes a global id. Members (world ranks in communicator-rank order) are known for the
//! world, duplicates and splits (ordered by key, then parent rank); for `MPI_Comm_create`
//! they would need the group calls replayed, which is not done, so a message on such a
//! communicator is reported as unsupported where ranks must be translated.
//!
//! Traces often skip calls (the footer counts them as ignored), communicator creation
//! among them. A handle whose creation was not recorded is taken to be the same
//! communicator on every rank that uses that handle number, spanning the world in world
//! rank order; [`Communicators::assumed`] counts such handles so reports can say so.

use std::collections::HashMap;

pub const WORLD_HANDLE: i64 = 2;
pub const SELF_HANDLE: i64 = 3;
/// Global id of `MPI_COMM_WORLD`.
pub const WORLD: u32 = 0;

/// How a communicator was made, as one rank recorded it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Creation {
    Dup,
    Split { color: i64, key: i64 },
    Create,
}

#[derive(Clone, Debug)]
struct CommInfo {
    parent: u32,
    creation: Creation,
    /// World ranks in communicator-rank order, when known.
    members: Option<Vec<u32>>,
}

/// The communicators of a run, with each rank's handles mapped to global ids.
#[derive(Clone, Debug)]
pub struct Communicators {
    infos: Vec<CommInfo>,
    keys: HashMap<(u32, u32, i64), u32>,
    /// Per rank: local handle -> global id (SELF gets a global id per rank).
    handles: Vec<HashMap<i64, u32>>,
    /// Per rank and parent: creations seen so far.
    created_on: Vec<HashMap<u32, u32>>,
    /// Split participants: global id -> (key, parent rank, world rank).
    split_members: HashMap<u32, Vec<(i64, u32, u32)>>,
    /// Handles used without a recorded creation -> global id.
    unrecorded: HashMap<i64, u32>,
}

impl Communicators {
    pub fn new(world_size: u32) -> Self {
        let world =
            CommInfo { parent: WORLD, creation: Creation::Dup, members: Some((0..world_size).collect()) };
        let mut c = Communicators {
            infos: vec![world],
            keys: HashMap::new(),
            handles: vec![HashMap::new(); world_size as usize],
            created_on: vec![HashMap::new(); world_size as usize],
            split_members: HashMap::new(),
            unrecorded: HashMap::new(),
        };
        for r in 0..world_size {
            c.handles[r as usize].insert(WORLD_HANDLE, WORLD);
            let id = c.infos.len() as u32;
            c.infos.push(CommInfo { parent: WORLD, creation: Creation::Create, members: Some(vec![r]) });
            c.handles[r as usize].insert(SELF_HANDLE, id);
        }
        c
    }

    /// The global id of `rank`'s handle `handle`, if the handle is known.
    pub fn global(&self, rank: u32, handle: i64) -> Option<u32> {
        self.handles.get(rank as usize)?.get(&handle).copied()
    }

    /// The global id of `rank`'s handle, assuming a world-wide communicator for a handle
    /// whose creation the trace did not record. Negative handles (null) have none.
    pub fn resolve(&mut self, rank: u32, handle: i64) -> Option<u32> {
        if let Some(id) = self.global(rank, handle) {
            return Some(id);
        }
        if handle < 0 {
            return None;
        }
        let next = self.infos.len() as u32;
        let id = *self.unrecorded.entry(handle).or_insert(next);
        if id == next {
            let world = self.infos[WORLD as usize].members.clone();
            self.infos.push(CommInfo { parent: WORLD, creation: Creation::Dup, members: world });
        }
        self.handles[rank as usize].insert(handle, id);
        Some(id)
    }

    /// Handles used without a recorded creation (assumed world-wide).
    pub fn assumed(&self) -> usize {
        self.unrecorded.len()
    }

    /// Records that `rank` made `new_handle` from `parent_handle`. Unknown parents (or
    /// `MPI_COMM_NULL` results) are ignored: the rank is not a member.
    pub fn created(&mut self, rank: u32, parent_handle: i64, creation: Creation, new_handle: i64) {
        let Some(parent) = self.resolve(rank, parent_handle) else { return };
        let index = {
            let n = self.created_on[rank as usize].entry(parent).or_insert(0);
            *n += 1;
            *n
        };
        let color = match creation {
            Creation::Split { color, .. } => color,
            _ => 0,
        };
        if color < 0 {
            return; // MPI_UNDEFINED: the rank gets MPI_COMM_NULL
        }
        let next = self.infos.len() as u32;
        let id = *self.keys.entry((parent, index, color)).or_insert(next);
        if id == next {
            let members = match creation {
                Creation::Dup => self.infos[parent as usize].members.clone(),
                _ => None,
            };
            self.infos.push(CommInfo { parent, creation, members });
        }
        if let Creation::Split { key, .. } = creation {
            let parent_rank = self.infos[parent as usize]
                .members
                .as_ref()
                .and_then(|m| m.iter().position(|&w| w == rank))
                .unwrap_or(rank as usize) as u32;
            self.split_members.entry(id).or_default().push((key, parent_rank, rank));
        }
        self.handles[rank as usize].insert(new_handle, id);
    }

    /// `rank` freed `handle`; the handle may be reused for a new communicator.
    pub fn freed(&mut self, rank: u32, handle: i64) {
        if handle != WORLD_HANDLE && handle != SELF_HANDLE {
            self.handles[rank as usize].remove(&handle);
        }
    }

    /// Orders split members once every rank has been seen.
    pub fn finish(&mut self) {
        for (id, mut m) in std::mem::take(&mut self.split_members) {
            m.sort();
            let parent = self.infos[id as usize].parent;
            // Ordering by parent rank needs the parent's members.
            if self.infos[parent as usize].members.is_some() {
                self.infos[id as usize].members = Some(m.into_iter().map(|(_, _, w)| w).collect());
            }
        }
    }

    /// World rank of communicator rank `rank` in communicator `comm`.
    pub fn world_rank(&self, comm: u32, rank: i64) -> Result<u32, String> {
        let info = self.infos.get(comm as usize).ok_or_else(|| format!("unknown communicator {comm}"))?;
        let members = info.members.as_ref().ok_or_else(|| match info.creation {
            Creation::Create => {
                "a communicator made by MPI_Comm_create (its group is not reconstructed)".to_string()
            }
            _ => format!("communicator {comm} has unknown members"),
        })?;
        usize::try_from(rank)
            .ok()
            .and_then(|r| members.get(r).copied())
            .ok_or_else(|| format!("rank {rank} is outside communicator {comm} of {} ranks", members.len()))
    }

    /// Communicator rank of world rank `world` in `comm`.
    pub fn local_rank(&self, comm: u32, world: u32) -> Option<u32> {
        self.infos.get(comm as usize)?.members.as_ref()?.iter().position(|&w| w == world).map(|p| p as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dup_and_split_agree_across_ranks_with_different_handles() {
        let mut c = Communicators::new(4);
        // Ranks 0 and 1 number their handles differently.
        for (rank, dup_handle) in [(0, 5), (1, 9), (2, 5), (3, 5)] {
            c.created(rank, WORLD_HANDLE, Creation::Dup, dup_handle);
        }
        assert_eq!(c.global(0, 5), c.global(1, 9));
        // Split of the dup by parity, keys reverse the order.
        for rank in 0..4u32 {
            let h = if rank == 1 { 9 } else { 5 };
            c.created(rank, h, Creation::Split { color: (rank % 2) as i64, key: -(rank as i64) }, 7);
        }
        c.finish();
        let odd = c.global(1, 7).unwrap();
        assert_eq!(c.global(3, 7), Some(odd));
        assert_ne!(c.global(0, 7), Some(odd));
        assert_eq!(c.world_rank(odd, 0), Ok(3));
        assert_eq!(c.world_rank(odd, 1), Ok(1));
        assert_eq!(c.local_rank(odd, 1), Some(1));
        assert!(c.world_rank(odd, 2).is_err());
        assert_eq!(c.world_rank(WORLD, 2), Ok(2));
    }
}
