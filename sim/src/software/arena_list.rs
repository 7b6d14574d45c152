//! Doubly linked lists stored in one arena (a `Vec` of nodes plus a free list).
//!
//! Every software matcher keeps its queues as real linked lists, as MPI libraries do, but
//! pointer-chasing through individually boxed nodes would measure the allocator rather than
//! the structure. An arena gives the same traversal shape (one node per element, `next`
//! links, unlink from the middle in O(1)) with 32-bit links and no per-node allocation.
//! Many lists (bins, per-source lists, partner queues) share one arena.

/// Index of a node in the arena.
pub type NodeId = u32;
/// Index of a list in the arena.
pub type ListId = u32;

const NIL: u32 = u32::MAX;
/// `list` value of a node that is on the free list.
const FREE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node<T> {
    value: T,
    prev: u32,
    next: u32,
    list: ListId,
}

#[derive(Clone, Copy, Debug, Default)]
struct ListHead {
    head: u32,
    tail: u32,
    len: u32,
}

/// The first element of a list satisfying a predicate, and how many elements were
/// inspected to find it (all of them when nothing matched).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub node: Option<NodeId>,
    pub inspected: u32,
}

#[derive(Clone, Debug)]
pub struct ArenaLists<T> {
    nodes: Vec<Node<T>>,
    free: Vec<u32>,
    lists: Vec<ListHead>,
    live: usize,
}

impl<T: Copy> Default for ArenaLists<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy> ArenaLists<T> {
    pub fn new() -> Self {
        ArenaLists { nodes: Vec::new(), free: Vec::new(), lists: Vec::new(), live: 0 }
    }

    /// An arena with `n` empty lists, numbered `0..n`.
    pub fn with_lists(n: usize) -> Self {
        let mut a = Self::new();
        a.lists = vec![ListHead { head: NIL, tail: NIL, len: 0 }; n];
        a
    }

    /// Adds an empty list and returns its id.
    pub fn add_list(&mut self) -> ListId {
        self.lists.push(ListHead { head: NIL, tail: NIL, len: 0 });
        (self.lists.len() - 1) as ListId
    }

    pub fn list_count(&self) -> usize {
        self.lists.len()
    }

    pub fn len(&self, list: ListId) -> usize {
        self.lists[list as usize].len as usize
    }

    /// Elements in all lists together.
    pub fn total_len(&self) -> usize {
        self.live
    }

    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Appends `value` at the tail of `list`.
    pub fn push_back(&mut self, list: ListId, value: T) -> NodeId {
        let tail = self.lists[list as usize].tail;
        let node = Node { value, prev: tail, next: NIL, list };
        let id = match self.free.pop() {
            Some(id) => {
                self.nodes[id as usize] = node;
                id
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        };
        let head = &mut self.lists[list as usize];
        if tail == NIL {
            head.head = id;
        } else {
            self.nodes[tail as usize].next = id;
        }
        let head = &mut self.lists[list as usize];
        head.tail = id;
        head.len += 1;
        self.live += 1;
        id
    }

    /// Unlinks `node` from whatever list holds it and returns its value.
    pub fn remove(&mut self, node: NodeId) -> T {
        let n = self.nodes[node as usize];
        debug_assert_ne!(n.list, FREE, "removing a free node");
        if n.prev == NIL {
            self.lists[n.list as usize].head = n.next;
        } else {
            self.nodes[n.prev as usize].next = n.next;
        }
        if n.next == NIL {
            self.lists[n.list as usize].tail = n.prev;
        } else {
            self.nodes[n.next as usize].prev = n.prev;
        }
        self.lists[n.list as usize].len -= 1;
        self.nodes[node as usize].list = FREE;
        self.free.push(node);
        self.live -= 1;
        n.value
    }

    pub fn get(&self, node: NodeId) -> &T {
        &self.nodes[node as usize].value
    }

    /// Walks `list` from its head and stops at the first element satisfying `pred`.
    #[inline]
    pub fn find_first(&self, list: ListId, mut pred: impl FnMut(&T) -> bool) -> Found {
        let mut cur = self.lists[list as usize].head;
        let mut inspected = 0;
        while cur != NIL {
            let n = &self.nodes[cur as usize];
            inspected += 1;
            if pred(&n.value) {
                return Found { node: Some(cur), inspected };
            }
            cur = n.next;
        }
        Found { node: None, inspected }
    }

    /// The elements of `list`, head (oldest) first.
    pub fn iter(&self, list: ListId) -> impl Iterator<Item = (NodeId, &T)> + '_ {
        let mut cur = self.lists[list as usize].head;
        std::iter::from_fn(move || {
            if cur == NIL {
                return None;
            }
            let id = cur;
            let n = &self.nodes[id as usize];
            cur = n.next;
            Some((id, &n.value))
        })
    }

    /// Every live node in the arena, in slot order (not list order). Used where an element
    /// must be found by handle regardless of the list it sits in (MPI_Cancel).
    pub fn find_anywhere(&self, mut pred: impl FnMut(&T) -> bool) -> Found {
        let mut inspected = 0;
        for (i, n) in self.nodes.iter().enumerate() {
            if n.list == FREE {
                continue;
            }
            inspected += 1;
            if pred(&n.value) {
                return Found { node: Some(i as NodeId), inspected };
            }
        }
        Found { node: None, inspected }
    }

    /// Bytes held by the arena: node slots (including free ones) and list heads.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node<T>>()
            + self.free.capacity() * 4
            + self.lists.capacity() * std::mem::size_of::<ListHead>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contents(a: &ArenaLists<u32>, l: ListId) -> Vec<u32> {
        a.iter(l).map(|(_, v)| *v).collect()
    }

    #[test]
    fn push_remove_keeps_order_and_reuses_slots() {
        let mut a = ArenaLists::with_lists(2);
        let n: Vec<_> = (0..5).map(|v| a.push_back(0, v)).collect();
        a.push_back(1, 100);
        assert_eq!(a.remove(n[2]), 2);
        assert_eq!(a.remove(n[0]), 0);
        assert_eq!(a.remove(n[4]), 4);
        assert_eq!(contents(&a, 0), vec![1, 3]);
        assert_eq!(a.len(0), 2);
        assert_eq!(a.total_len(), 3);
        let again = a.push_back(0, 7);
        assert!(n.contains(&again), "a freed slot is reused");
        assert_eq!(contents(&a, 0), vec![1, 3, 7]);
        assert_eq!(contents(&a, 1), vec![100]);
        let f = a.find_first(0, |v| *v == 3);
        assert_eq!(f.inspected, 2);
        assert_eq!(*a.get(f.node.unwrap()), 3);
        assert_eq!(a.find_first(0, |v| *v == 9), Found { node: None, inspected: 3 });
        let g = a.find_anywhere(|v| *v == 100);
        assert_eq!(*a.get(g.node.unwrap()), 100);
    }

    #[test]
    fn emptied_list_accepts_new_elements() {
        let mut a = ArenaLists::with_lists(1);
        let x = a.push_back(0, 1u32);
        a.remove(x);
        assert!(a.is_empty());
        a.push_back(0, 2);
        a.push_back(0, 3);
        assert_eq!(contents(&a, 0), vec![2, 3]);
    }
}
