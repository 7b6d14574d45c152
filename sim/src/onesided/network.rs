//! The network the unit drives, on the host side of the co-simulation: one link of
//! `bytes_per_cycle`, requests transmitted one after another in the order they were
//! accepted, each completing `latency` cycles after its last byte left (the round trip to
//! the target and back). A request of `b` bytes holds the link `ceil(b / bytes_per_cycle)`
//! cycles, at least one, so completions return in issue order, at most one per cycle.
//! The network accepts a request while fewer than `queue` wait for the link.

use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetworkConfig {
    /// Cycles from a request's last byte on the link to its completion.
    pub latency: u64,
    pub bytes_per_cycle: u64,
    /// Requests that may wait for the link.
    pub queue: usize,
}

impl NetworkConfig {
    pub fn check(&self) -> Result<(), String> {
        if self.bytes_per_cycle == 0 {
            return Err("the network's bandwidth must be at least 1 byte per cycle".into());
        }
        if self.queue == 0 {
            return Err("the network's queue must hold at least one request".into());
        }
        Ok(())
    }

    /// Cycles a request of `bytes` holds the link.
    pub fn transfer_cycles(&self, bytes: u32) -> u64 {
        (bytes as u64).div_ceil(self.bytes_per_cycle).max(1)
    }
}

#[derive(Clone, Debug)]
pub struct Network {
    cfg: NetworkConfig,
    /// The cycle the link is free from.
    link_free: u64,
    /// (start on the link, completion cycle, window), in issue order.
    in_flight: VecDeque<(u64, u64, u8)>,
}

impl Network {
    pub fn new(cfg: NetworkConfig) -> Self {
        Network { cfg, link_free: 0, in_flight: VecDeque::new() }
    }

    /// Whether a request can be taken in cycle `now`.
    pub fn ready(&self, now: u64) -> bool {
        self.in_flight.iter().filter(|&&(start, _, _)| start > now).count() < self.cfg.queue
    }

    /// Takes a request in cycle `now`; returns its completion cycle.
    pub fn accept(&mut self, now: u64, window: u8, bytes: u32) -> u64 {
        let start = self.link_free.max(now + 1);
        self.link_free = start + self.cfg.transfer_cycles(bytes);
        let done = self.link_free + self.cfg.latency;
        self.in_flight.push_back((start, done, window));
        done
    }

    /// The completion due in cycle `now`, if any (removed).
    pub fn completion(&mut self, now: u64) -> Option<u8> {
        match self.in_flight.front() {
            Some(&(_, done, window)) if done <= now => {
                self.in_flight.pop_front();
                Some(window)
            }
            _ => None,
        }
    }

    pub fn idle(&self) -> bool {
        self.in_flight.is_empty()
    }
}
