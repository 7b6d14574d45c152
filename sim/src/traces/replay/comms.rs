//! Communicators across ranks. DUMPI records a rank's local communicator handles
//! (`MPI_COMM_NULL` is 1, `MPI_COMM_WORLD` 2, `MPI_COMM_SELF` 3, new ones numbered per
//! rank), so the same communicator may carry different handles on different ranks.
//!
//! **Identity.** A communicator made by a collective call is identified by its parent, the
//! call's position among the collective creations on that parent (every member makes them
//! in the same order, MPI requires it) and, for `MPI_Comm_split`, the color. Every member
//! computes that key from its own records alone, so each rank's handles get global ids as
//! its records are read, in any rank order. An intercommunicator has one id per side (the
//! key uses the side's local communicator); sides are paired later.
//!
//! **Members** (world ranks in communicator-rank order) need every rank's records, so they
//! are computed once all ranks are read ([`Communicators::finish`]), in order of creation,
//! parents first — a dup of a split of a split works in any order the ranks are read. The
//! world, `MPI_COMM_SELF`, dups, splits (ordered by key, then parent rank),
//! `MPI_Comm_create` (the group, rebuilt from `MPI_Comm_group` and every group constructor
//! DUMPI records), intercommunicators (`MPI_Intercomm_create`, paired by their leaders) and
//! `MPI_Intercomm_merge` are rebuilt. The result does not depend on hash order or the order
//! ranks were read: the same trace gives the same ids and members on every run.
//!
//! **What cannot be known.** A split's members are only certain when every member of its
//! parent is traced (a one-rank trace of a large job sees its own split call, not the
//! others'); communicators made from an intercommunicator (other than by merging it) and
//! an intercommunicator whose leaders are not traced are not rebuilt; neither is an `MPI_Comm_create` whose ranks passed different
//! groups (MPI-3's disjoint groups). Such a communicator has unknown members: sends on it
//! are dropped and counted by the replay ([`Route`]), never a failure.
//!
//! Traces often skip calls (the footer counts them as ignored), communicator creation
//! among them. A handle whose creation was not recorded is taken to be the same
//! communicator on every rank that uses that handle number, spanning the world in world
//! rank order; [`Communicators::assumed`] counts such handles so reports can say so.

use std::collections::{HashMap, HashSet};

pub const COMM_NULL_HANDLE: i64 = 1;
pub const WORLD_HANDLE: i64 = 2;
pub const SELF_HANDLE: i64 = 3;
/// DUMPI's `MPI_GROUP_NULL` and `MPI_GROUP_EMPTY`.
const GROUP_NULL_HANDLE: i64 = 1;
const GROUP_EMPTY_HANDLE: i64 = 2;
/// Global id of `MPI_COMM_WORLD`.
pub const WORLD: u32 = 0;

/// A collective creation as one rank recorded it, handles already resolved by the caller
/// where they name communicators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Creation {
    Dup,
    Split {
        color: i64,
        key: i64,
    },
    /// `MPI_Comm_create` with the rank's group handle.
    Create {
        group: i64,
    },
    /// `MPI_Intercomm_create` on the local communicator: the leader's rank in it, and (as
    /// recorded; meaningful on the leader only) the peer communicator's handle, the remote
    /// leader's rank in it and the tag.
    Intercomm {
        local_leader: i64,
        peer: i64,
        remote_leader: i64,
        tag: i64,
    },
    /// `MPI_Intercomm_merge` of an intercommunicator side.
    Merge {
        high: bool,
    },
}

/// A group constructor as one rank recorded it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GroupCall {
    /// `MPI_Comm_group` (`remote`: `MPI_Comm_remote_group`) of a communicator handle.
    OfComm {
        comm: i64,
        remote: bool,
    },
    Incl {
        group: i64,
        ranks: Vec<i64>,
    },
    Excl {
        group: i64,
        ranks: Vec<i64>,
    },
    /// `(first, last, stride)` triplets.
    RangeIncl {
        group: i64,
        ranges: Vec<[i64; 3]>,
    },
    RangeExcl {
        group: i64,
        ranges: Vec<[i64; 3]>,
    },
    Union(i64, i64),
    Intersection(i64, i64),
    Difference(i64, i64),
}

/// A group as a value: built from communicators (global ids) and other groups (arena
/// indices), evaluated when members are known.
#[derive(Clone, Debug)]
enum GroupExpr {
    Unknown,
    Empty,
    OfComm { comm: u32, remote: bool },
    Incl(usize, Vec<i64>),
    Excl(usize, Vec<i64>),
    RangeIncl(usize, Vec<[i64; 3]>),
    RangeExcl(usize, Vec<[i64; 3]>),
    Union(usize, usize),
    Intersection(usize, usize),
    Difference(usize, usize),
}

/// World ranks in communicator-rank order, with the reverse index.
#[derive(Clone, Debug)]
enum Members {
    /// World ranks `0..n`.
    Range(u32),
    List {
        ranks: Vec<u32>,
        index: HashMap<u32, u32>,
    },
}

impl Members {
    fn list(ranks: Vec<u32>) -> Self {
        let index = ranks.iter().enumerate().map(|(i, &w)| (w, i as u32)).collect();
        Members::List { ranks, index }
    }

    fn len(&self) -> u32 {
        match self {
            Members::Range(n) => *n,
            Members::List { ranks, .. } => ranks.len() as u32,
        }
    }

    fn get(&self, rank: u32) -> Option<u32> {
        match self {
            Members::Range(n) => (rank < *n).then_some(rank),
            Members::List { ranks, .. } => ranks.get(rank as usize).copied(),
        }
    }

    fn position(&self, world: u32) -> Option<u32> {
        match self {
            Members::Range(n) => (world < *n).then_some(world),
            Members::List { index, .. } => index.get(&world).copied(),
        }
    }

    fn to_vec(&self) -> Vec<u32> {
        match self {
            Members::Range(n) => (0..*n).collect(),
            Members::List { ranks, .. } => ranks.clone(),
        }
    }
}

/// What makes two records the same communicator (besides parent and position).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Dup,
    Split(i64),
    Create,
    Intercomm,
    Merge,
    SelfOf(u32),
    Assumed(i64),
}

/// One rank's part in a creation.
#[derive(Clone, Debug)]
struct Participant {
    world: u32,
    detail: Detail,
}

#[derive(Clone, Debug)]
enum Detail {
    None,
    SplitKey(i64),
    Group(usize),
    Intercomm { local_leader: i64, peer: Option<u32>, remote_leader: i64, tag: i64 },
    High(bool),
}

#[derive(Clone, Debug)]
struct CommInfo {
    parent: u32,
    index: u32,
    kind: Kind,
    /// The handle and rank that first named it, for messages.
    handle: i64,
    first_rank: u32,
    participants: Vec<Participant>,
    members: Option<Members>,
    /// Why the members are unknown, once that is settled.
    unknown_why: Option<&'static str>,
    /// An intercommunicator side's partner side.
    remote: Option<u32>,
}

/// Where a message sent on a communicator goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    pub dest_world: u32,
    /// The communicator id the receiver matches it on (the other side of an
    /// intercommunicator; the same id otherwise).
    pub arrival_comm: u32,
    /// The sender's rank as the receiver names it.
    pub source: u32,
}

/// Why a message cannot be routed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unroutable {
    /// The members are not known (see the module docs); the send is dropped and counted.
    UnknownMembers,
    /// A trace inconsistency: the message.
    Invalid(String),
}

/// The communicators of a run, with each rank's handles mapped to global ids.
#[derive(Clone, Debug)]
pub struct Communicators {
    world_size: u32,
    infos: Vec<CommInfo>,
    keys: HashMap<(u32, u32, Kind), u32>,
    /// (rank, local handle) -> global id.
    handles: HashMap<(u32, i64), u32>,
    /// (rank, parent id) -> creations seen so far.
    created_on: HashMap<(u32, u32), u32>,
    groups: Vec<GroupExpr>,
    /// (rank, local group handle) -> arena index.
    group_handles: HashMap<(u32, i64), usize>,
    /// Union-find over ids: the two sides' records of one merged communicator.
    canonical: Vec<u32>,
    /// Handles used without a recorded creation.
    assumed: usize,
}

impl Communicators {
    pub fn new(world_size: u32) -> Self {
        let world = CommInfo {
            parent: WORLD,
            index: 0,
            kind: Kind::Dup,
            handle: WORLD_HANDLE,
            first_rank: 0,
            participants: Vec::new(),
            members: Some(Members::Range(world_size)),
            unknown_why: None,
            remote: None,
        };
        Communicators {
            world_size,
            infos: vec![world],
            keys: HashMap::new(),
            handles: HashMap::new(),
            created_on: HashMap::new(),
            groups: vec![GroupExpr::Unknown, GroupExpr::Empty],
            group_handles: HashMap::new(),
            canonical: vec![WORLD],
            assumed: 0,
        }
    }

    pub fn world_size(&self) -> u32 {
        self.world_size
    }

    fn new_info(&mut self, parent: u32, index: u32, kind: Kind, handle: i64, rank: u32) -> u32 {
        let id = self.infos.len() as u32;
        self.infos.push(CommInfo {
            parent,
            index,
            kind,
            handle,
            first_rank: rank,
            participants: Vec::new(),
            members: None,
            unknown_why: None,
            remote: None,
        });
        self.canonical.push(id);
        id
    }

    /// The global id of `rank`'s handle, creating one for `MPI_COMM_SELF` and for a handle
    /// whose creation the trace did not record (assumed world-wide). `MPI_COMM_NULL` and
    /// invalid handles have none.
    pub fn resolve(&mut self, rank: u32, handle: i64) -> Option<u32> {
        if handle == WORLD_HANDLE {
            return Some(WORLD);
        }
        if let Some(&id) = self.handles.get(&(rank, handle)) {
            return Some(self.find(id));
        }
        if handle <= COMM_NULL_HANDLE {
            return None;
        }
        let (kind, index) =
            if handle == SELF_HANDLE { (Kind::SelfOf(rank), 0) } else { (Kind::Assumed(handle), 0) };
        let id = match self.keys.get(&(WORLD, index, kind)) {
            Some(&id) => id,
            None => {
                let id = self.new_info(WORLD, index, kind, handle, rank);
                self.keys.insert((WORLD, index, kind), id);
                if let Kind::Assumed(_) = kind {
                    self.assumed += 1;
                    self.infos[id as usize].members = Some(Members::Range(self.world_size));
                } else {
                    self.infos[id as usize].members = Some(Members::list(vec![rank]));
                }
                id
            }
        };
        self.handles.insert((rank, handle), id);
        Some(id)
    }

    /// Handles used without a recorded creation (assumed world-wide).
    pub fn assumed(&self) -> usize {
        self.assumed
    }

    fn group_of(&mut self, rank: u32, handle: i64) -> usize {
        match handle {
            GROUP_EMPTY_HANDLE => 1,
            h if h <= GROUP_NULL_HANDLE => 0,
            h => self.group_handles.get(&(rank, h)).copied().unwrap_or(0),
        }
    }

    /// Records that `rank` built group `new_handle`.
    pub fn group(&mut self, rank: u32, call: GroupCall, new_handle: i64) {
        let expr = match call {
            GroupCall::OfComm { comm, remote } => match self.resolve(rank, comm) {
                Some(comm) => GroupExpr::OfComm { comm, remote },
                None => GroupExpr::Unknown,
            },
            GroupCall::Incl { group, ranks } => GroupExpr::Incl(self.group_of(rank, group), ranks),
            GroupCall::Excl { group, ranks } => GroupExpr::Excl(self.group_of(rank, group), ranks),
            GroupCall::RangeIncl { group, ranges } => {
                GroupExpr::RangeIncl(self.group_of(rank, group), ranges)
            }
            GroupCall::RangeExcl { group, ranges } => {
                GroupExpr::RangeExcl(self.group_of(rank, group), ranges)
            }
            GroupCall::Union(a, b) => GroupExpr::Union(self.group_of(rank, a), self.group_of(rank, b)),
            GroupCall::Intersection(a, b) => {
                GroupExpr::Intersection(self.group_of(rank, a), self.group_of(rank, b))
            }
            GroupCall::Difference(a, b) => {
                GroupExpr::Difference(self.group_of(rank, a), self.group_of(rank, b))
            }
        };
        if new_handle > GROUP_EMPTY_HANDLE {
            self.groups.push(expr);
            self.group_handles.insert((rank, new_handle), self.groups.len() - 1);
        }
    }

    /// `rank` freed group `handle`.
    pub fn group_freed(&mut self, rank: u32, handle: i64) {
        self.group_handles.remove(&(rank, handle));
    }

    /// Records that `rank` made `new_handle` from `parent_handle`. Unknown parents (or
    /// `MPI_COMM_NULL` results) are ignored: the rank is not a member.
    pub fn created(&mut self, rank: u32, parent_handle: i64, creation: Creation, new_handle: i64) {
        let Some(parent) = self.resolve(rank, parent_handle) else { return };
        let index = {
            let n = self.created_on.entry((rank, parent)).or_insert(0);
            *n += 1;
            *n
        };
        let (kind, detail) = match creation {
            Creation::Dup => (Kind::Dup, Detail::None),
            Creation::Split { color, key } => (Kind::Split(color), Detail::SplitKey(key)),
            Creation::Create { group } => (Kind::Create, Detail::Group(self.group_of(rank, group))),
            Creation::Intercomm { local_leader, peer, remote_leader, tag } => {
                let peer = self.resolve(rank, peer);
                (Kind::Intercomm, Detail::Intercomm { local_leader, peer, remote_leader, tag })
            }
            Creation::Merge { high } => (Kind::Merge, Detail::High(high)),
        };
        // MPI_UNDEFINED colors and ranks outside a created group get MPI_COMM_NULL.
        if new_handle <= COMM_NULL_HANDLE || matches!(kind, Kind::Split(c) if c < 0) {
            return;
        }
        let id = match self.keys.get(&(parent, index, kind)) {
            Some(&id) => id,
            None => {
                let id = self.new_info(parent, index, kind, new_handle, rank);
                self.keys.insert((parent, index, kind), id);
                id
            }
        };
        self.infos[id as usize].participants.push(Participant { world: rank, detail });
        self.handles.insert((rank, new_handle), id);
    }

    /// `rank` freed `handle`; the handle may be reused for a new communicator.
    pub fn freed(&mut self, rank: u32, handle: i64) {
        if handle != WORLD_HANDLE && handle != SELF_HANDLE {
            self.handles.remove(&(rank, handle));
        }
    }

    fn find(&self, mut id: u32) -> u32 {
        while let Some(&c) = self.canonical.get(id as usize) {
            if c == id {
                break;
            }
            id = c;
        }
        id
    }

    /// The id every rank's records of `comm` share (the two sides of a merge give one).
    pub fn canonical(&self, comm: u32) -> u32 {
        self.find(comm)
    }

    /// Computes members once every rank has been read; `traced` are the ranks whose
    /// records were given. Deterministic: ids are visited in creation order.
    pub fn finish(&mut self, traced: &[u32]) {
        let traced: HashSet<u32> = traced.iter().copied().collect();
        // Rounds until nothing changes: pairing intercommunicator sides needs their local
        // members, and a merge's two records become one id only once its sides are paired.
        loop {
            let mut changed = false;
            for id in 1..self.infos.len() as u32 {
                changed |= self.pair_side(id);
            }
            for id in 1..self.infos.len() as u32 {
                changed |= self.unify(id);
            }
            let mut caches = Caches::default();
            for id in 1..self.infos.len() as u32 {
                changed |= self.settle_members(id, &traced, &mut caches);
            }
            if !changed {
                break;
            }
        }
        for id in 0..self.infos.len() {
            let info = &mut self.infos[id];
            if info.members.is_none() && info.unknown_why.is_none() {
                info.unknown_why = Some(match info.kind {
                    Kind::Create => "its group could not be rebuilt from the trace",
                    Kind::Intercomm => "its leaders' records do not pair it with another side",
                    _ => "its members could not be rebuilt from the trace",
                });
            }
        }
    }

    /// Links an intercommunicator side to its partner once both leaders are known.
    fn pair_side(&mut self, id: u32) -> bool {
        let info = &self.infos[id as usize];
        if info.kind != Kind::Intercomm || info.remote.is_some() || self.find(id) != id {
            return false;
        }
        let Some(me) = self.side_leaders(id) else { return false };
        for other in 1..self.infos.len() as u32 {
            if other == id || self.infos[other as usize].kind != Kind::Intercomm {
                continue;
            }
            if let Some(them) = self.side_leaders(other) {
                if them.0 == me.1 && them.1 == me.0 && them.2 == me.2 {
                    self.infos[id as usize].remote = Some(other);
                    self.infos[other as usize].remote = Some(id);
                    return true;
                }
            }
        }
        false
    }

    /// (leader's world rank, remote leader's world rank, tag) of a side, from its local
    /// leader's record.
    fn side_leaders(&self, id: u32) -> Option<(u32, u32, i64)> {
        let info = &self.infos[id as usize];
        let local = self.infos[info.parent as usize].members.as_ref()?;
        for p in &info.participants {
            let Detail::Intercomm { local_leader, peer, remote_leader, tag } = p.detail else { continue };
            let leader = local.get(u32::try_from(local_leader).ok()?)?;
            if leader != p.world {
                continue;
            }
            let peer = self.infos.get(peer? as usize)?.members.as_ref()?;
            return Some((leader, peer.get(u32::try_from(remote_leader).ok()?)?, tag));
        }
        None
    }

    /// Makes the records of one communicator made through different (but now unified)
    /// parents one id.
    fn unify(&mut self, id: u32) -> bool {
        if self.find(id) != id {
            return false;
        }
        let info = &self.infos[id as usize];
        let mut parent = self.find(info.parent);
        if info.kind == Kind::Merge {
            // Both sides merge one intercommunicator: key by the lower side.
            let side = &self.infos[parent as usize];
            match side.remote {
                Some(r) => parent = parent.min(self.find(r)),
                None => return false,
            }
        }
        let key = (parent, info.index, info.kind);
        match self.keys.get(&key) {
            Some(&other) if self.find(other) != id => {
                let other = self.find(other);
                let (keep, drop) = (other.min(id), other.max(id));
                let moved = std::mem::take(&mut self.infos[drop as usize].participants);
                self.infos[keep as usize].participants.extend(moved);
                self.infos[keep as usize].members = None;
                self.canonical[drop as usize] = keep;
                self.keys.insert(key, keep);
                true
            }
            Some(_) => false,
            None => {
                self.keys.insert(key, id);
                false
            }
        }
    }

    /// Computes an id's members when what it depends on is known.
    fn settle_members(&mut self, id: u32, traced: &HashSet<u32>, caches: &mut Caches) -> bool {
        let info = &self.infos[id as usize];
        if self.find(id) != id || info.members.is_some() || info.unknown_why.is_some() {
            return false;
        }
        let parent = &self.infos[self.find(info.parent) as usize];
        let outcome: Result<Members, &'static str> = match info.kind {
            Kind::SelfOf(_) | Kind::Assumed(_) => return false,
            Kind::Dup | Kind::Split(_) | Kind::Create | Kind::Intercomm if parent.kind == Kind::Intercomm => {
                Err("it is made from an intercommunicator")
            }
            Kind::Dup | Kind::Intercomm => match &parent.members {
                Some(m) => Ok(m.clone()),
                None if parent.unknown_why.is_some() => Err("its parent's members are unknown"),
                None => return false,
            },
            Kind::Split(_) => match &parent.members {
                Some(m)
                    if *caches.fully_traced.entry(self.find(info.parent)).or_insert_with(|| {
                        (0..m.len()).all(|r| m.get(r).is_some_and(|w| traced.contains(&w)))
                    }) =>
                {
                    let mut order: Vec<(i64, u32, u32)> = info
                        .participants
                        .iter()
                        .map(|p| {
                            let key = match p.detail {
                                Detail::SplitKey(k) => k,
                                _ => 0,
                            };
                            (key, m.position(p.world).unwrap_or(u32::MAX), p.world)
                        })
                        .collect();
                    order.sort();
                    order.dedup_by_key(|o| o.2);
                    Ok(Members::list(order.into_iter().map(|o| o.2).collect()))
                }
                Some(_) => Err("not every rank of its parent is traced"),
                None if parent.unknown_why.is_some() => Err("its parent's members are unknown"),
                None => return false,
            },
            Kind::Create => {
                let groups: Vec<Option<Vec<u32>>> = info
                    .participants
                    .iter()
                    .map(|p| match p.detail {
                        Detail::Group(g) => self.eval_group(g, &mut caches.groups),
                        _ => None,
                    })
                    .collect();
                match groups.first() {
                    // Perhaps in a later round, when its communicators are settled.
                    _ if groups.iter().any(Option::is_none) => return false,
                    Some(Some(first)) if groups.iter().all(|g| g.as_ref() == Some(first)) => {
                        Ok(Members::list(first.clone()))
                    }
                    _ => Err("its ranks passed different groups (MPI-3 disjoint groups)"),
                }
            }
            Kind::Merge => {
                let side = self.find(info.parent);
                let Some(remote) = self.infos[side as usize].remote else { return false };
                let (a, b) = (&self.infos[side as usize], &self.infos[remote as usize]);
                let (Some(ma), Some(mb)) = (&a.members, &b.members) else { return false };
                let high = |side: &CommInfo| {
                    info.participants
                        .iter()
                        .find(|p| side.members.as_ref().is_some_and(|m| m.position(p.world).is_some()))
                        .map(|p| matches!(p.detail, Detail::High(true)))
                        .unwrap_or(false)
                };
                // The low group first; if both say the same, the lower leader's side.
                let a_first = (high(a), ma.get(0)) <= (high(b), mb.get(0));
                let (first, second) = if a_first { (ma, mb) } else { (mb, ma) };
                let mut all = first.to_vec();
                all.extend(second.to_vec());
                Ok(Members::list(all))
            }
        };
        let info = &mut self.infos[id as usize];
        match outcome {
            Ok(m) => info.members = Some(m),
            Err(why) => info.unknown_why = Some(why),
        }
        true
    }

    /// A group's world ranks in group order, when its communicators' members are known.
    /// Groups only refer to earlier groups, so the groups it needs are evaluated in arena
    /// order, each once (no recursion for a mutated trace to exhaust).
    fn eval_group(&self, g: usize, memo: &mut HashMap<usize, Option<Vec<u32>>>) -> Option<Vec<u32>> {
        let mut need = std::collections::BTreeSet::new();
        let mut stack = vec![g];
        while let Some(h) = stack.pop() {
            if memo.contains_key(&h) || !need.insert(h) {
                continue;
            }
            stack.extend(self.groups.get(h).map_or(Vec::new(), group_inputs).into_iter().filter(|&c| c < h));
        }
        for h in need {
            let v = self.eval_one(h, memo);
            memo.insert(h, v);
        }
        memo.get(&g).cloned().flatten()
    }

    fn eval_one(&self, g: usize, memo: &HashMap<usize, Option<Vec<u32>>>) -> Option<Vec<u32>> {
        let sub = |h: usize| if h < g { memo.get(&h).cloned().flatten() } else { None };
        let pick = |base: &[u32], ranks: &[i64]| -> Option<Vec<u32>> {
            ranks.iter().map(|&r| usize::try_from(r).ok().and_then(|r| base.get(r).copied())).collect()
        };
        match self.groups.get(g)? {
            GroupExpr::Unknown => None,
            GroupExpr::Empty => Some(Vec::new()),
            GroupExpr::OfComm { comm, remote } => {
                let mut c = &self.infos[self.find(*comm) as usize];
                if *remote {
                    c = &self.infos[self.find(c.remote?) as usize];
                }
                c.members.as_ref().map(Members::to_vec)
            }
            GroupExpr::Incl(h, ranks) => pick(&sub(*h)?, ranks),
            GroupExpr::Excl(h, ranks) => {
                let base = sub(*h)?;
                let out: HashSet<usize> = ranks.iter().filter_map(|&r| usize::try_from(r).ok()).collect();
                Some(base.iter().enumerate().filter(|(i, _)| !out.contains(i)).map(|(_, &w)| w).collect())
            }
            GroupExpr::RangeIncl(h, ranges) => {
                let base = sub(*h)?;
                pick(&base, &expand_ranges(ranges, base.len())?)
            }
            GroupExpr::RangeExcl(h, ranges) => {
                let base = sub(*h)?;
                let out: HashSet<i64> = expand_ranges(ranges, base.len())?.into_iter().collect();
                Some(
                    base.iter()
                        .enumerate()
                        .filter(|(i, _)| !out.contains(&(*i as i64)))
                        .map(|(_, &w)| w)
                        .collect(),
                )
            }
            GroupExpr::Union(a, b) => {
                let mut out = sub(*a)?;
                let seen: HashSet<u32> = out.iter().copied().collect();
                out.extend(sub(*b)?.into_iter().filter(|w| !seen.contains(w)));
                Some(out)
            }
            GroupExpr::Intersection(a, b) => {
                let other: HashSet<u32> = sub(*b)?.into_iter().collect();
                Some(sub(*a)?.into_iter().filter(|w| other.contains(w)).collect())
            }
            GroupExpr::Difference(a, b) => {
                let other: HashSet<u32> = sub(*b)?.into_iter().collect();
                Some(sub(*a)?.into_iter().filter(|w| !other.contains(w)).collect())
            }
        }
    }

    /// How a report names a communicator: the trace's handle and the call that made it.
    pub fn describe(&self, comm: u32) -> String {
        let id = self.find(comm);
        let Some(info) = self.infos.get(id as usize) else { return format!("communicator #{comm}") };
        let what = match info.kind {
            _ if id == WORLD => return "MPI_COMM_WORLD".into(),
            Kind::SelfOf(_) => return "MPI_COMM_SELF".into(),
            Kind::Assumed(_) => "creation not recorded",
            Kind::Dup => "made by MPI_Comm_dup",
            Kind::Split(_) => "made by MPI_Comm_split",
            Kind::Create => "made by MPI_Comm_create",
            Kind::Intercomm => "made by MPI_Intercomm_create",
            Kind::Merge => "made by MPI_Intercomm_merge",
        };
        format!("communicator handle {} of rank {} ({what})", info.handle, info.first_rank)
    }

    /// Why `comm`'s members are unknown, if they are.
    pub fn unknown_why(&self, comm: u32) -> Option<&'static str> {
        let info = self.infos.get(self.find(comm) as usize)?;
        if info.members.is_some() {
            None
        } else {
            Some(info.unknown_why.unwrap_or("it was never created"))
        }
    }

    /// The number of ranks of `comm` (of the sender's side for an intercommunicator), when
    /// known.
    pub fn size(&self, comm: u32) -> Option<u32> {
        Some(self.infos.get(self.find(comm) as usize)?.members.as_ref()?.len())
    }

    /// The number of ranks a receive on `comm` may name as its source: the remote group's
    /// size on an intercommunicator.
    pub fn source_range(&self, comm: u32) -> Option<u32> {
        let info = self.infos.get(self.find(comm) as usize)?;
        match info.kind {
            Kind::Intercomm => self.size(info.remote?),
            _ => self.size(comm),
        }
    }

    /// Where a message that world rank `sender` sends to rank `dest` of `comm` goes.
    pub fn route(&self, comm: u32, sender: u32, dest: i64) -> Result<Route, Unroutable> {
        let id = self.find(comm);
        let info = self.infos.get(id as usize).ok_or(Unroutable::UnknownMembers)?;
        let local = info.members.as_ref().ok_or(Unroutable::UnknownMembers)?;
        let (arrival, remote) = match info.kind {
            Kind::Intercomm => {
                let r = self.find(info.remote.ok_or(Unroutable::UnknownMembers)?);
                (r, self.infos[r as usize].members.as_ref().ok_or(Unroutable::UnknownMembers)?)
            }
            _ => (id, local),
        };
        let dest_world = u32::try_from(dest).ok().and_then(|d| remote.get(d)).ok_or_else(|| {
            Unroutable::Invalid(format!(
                "rank {dest} is outside {}, which has {} ranks",
                self.describe(arrival),
                remote.len()
            ))
        })?;
        let source = local.position(sender).ok_or_else(|| {
            Unroutable::Invalid(format!("world rank {sender} is not a member of {}", self.describe(id)))
        })?;
        Ok(Route { dest_world, arrival_comm: arrival, source })
    }
}

/// Results reused within one round of [`Communicators::finish`].
#[derive(Default)]
struct Caches {
    /// Per communicator: whether every member is traced.
    fully_traced: HashMap<u32, bool>,
    groups: HashMap<usize, Option<Vec<u32>>>,
}

/// The groups a group expression is built from.
fn group_inputs(e: &GroupExpr) -> Vec<usize> {
    match e {
        GroupExpr::Unknown | GroupExpr::Empty | GroupExpr::OfComm { .. } => Vec::new(),
        GroupExpr::Incl(h, _)
        | GroupExpr::Excl(h, _)
        | GroupExpr::RangeIncl(h, _)
        | GroupExpr::RangeExcl(h, _) => {
            vec![*h]
        }
        GroupExpr::Union(a, b) | GroupExpr::Intersection(a, b) | GroupExpr::Difference(a, b) => vec![*a, *b],
    }
}

/// The ranks named by `(first, last, stride)` triplets, checked against a group of `size`.
fn expand_ranges(ranges: &[[i64; 3]], size: usize) -> Option<Vec<i64>> {
    let mut out = Vec::new();
    for &[first, last, stride] in ranges {
        if stride == 0 || first < 0 || last < 0 || first as usize >= size || last as usize >= size {
            return None;
        }
        let mut r = first;
        while (stride > 0 && r <= last) || (stride < 0 && r >= last) {
            out.push(r);
            if out.len() > size {
                return None; // a rank named twice
            }
            r += stride;
        }
    }
    Some(out)
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
        let dup = c.resolve(0, 5).unwrap();
        assert_eq!(c.resolve(1, 9), Some(dup));
        // Split of the dup by parity, keys reverse the order.
        for rank in 0..4u32 {
            let h = if rank == 1 { 9 } else { 5 };
            c.created(rank, h, Creation::Split { color: (rank % 2) as i64, key: -(rank as i64) }, 7);
        }
        c.finish(&[0, 1, 2, 3]);
        let odd = c.resolve(1, 7).unwrap();
        assert_eq!(c.resolve(3, 7), Some(odd));
        assert_ne!(c.resolve(0, 7), Some(odd));
        assert_eq!(c.route(odd, 1, 0).unwrap(), Route { dest_world: 3, arrival_comm: odd, source: 1 });
        assert!(matches!(c.route(odd, 1, 2), Err(Unroutable::Invalid(_))));
        assert_eq!(c.route(WORLD, 0, 2).unwrap().dest_world, 2);
    }
}
