//! The point-to-point view of a rank's trace: posted receives, sends, completions, probes
//! and cancels, with communicators mapped to global ids. Everything else (collectives,
//! queries, datatypes) is stepped over.

use super::comms::{Communicators, Creation, GroupCall};
use crate::traces::dumpi::{Arg, Record};

/// `MPI_ANY_SOURCE` and `MPI_ANY_TAG` as DUMPI stores them.
const ANY: i64 = -1;
/// `MPI_PROC_NULL` as the recorder stores it (Open MPI's own value): a send to it or a
/// receive or probe from it involves no message, so it never reaches a matching queue.
pub const PROC_NULL: i64 = -2;
/// `MPI_UNDEFINED` as an index (Waitany with no active request).
const UNDEFINED_INDEX: i64 = -32766;

#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A receive is posted; `request` is `None` for a blocking receive. `handle` is the
    /// communicator as the rank's trace names it.
    Post {
        request: Option<i64>,
        comm: u32,
        handle: i64,
        src: Option<i64>,
        tag: Option<i64>,
    },
    /// A message is sent to communicator rank `dest` of `comm`.
    Send {
        comm: u32,
        dest: i64,
        tag: i64,
    },
    /// Requests completed by a Wait or Test call.
    Complete {
        requests: Vec<i64>,
    },
    Probe {
        comm: u32,
        src: Option<i64>,
        tag: Option<i64>,
    },
    Cancel {
        request: i64,
    },
}

/// An event with the wall-clock times (seconds) at which its call was entered and
/// returned, and the call and record it came from (for messages).
#[derive(Clone, Debug, PartialEq)]
pub struct Timed {
    pub time: f64,
    pub end: f64,
    pub event: Event,
    pub call: &'static str,
    pub record: usize,
}

fn wild(v: i64) -> Option<i64> {
    (v != ANY).then_some(v)
}

/// Persistent requests made by `MPI_*_init`, started by `MPI_Start(all)`.
#[derive(Clone, Debug)]
enum Persistent {
    Recv { comm: i64, src: i64, tag: i64 },
    Send { comm: i64, dest: i64, tag: i64 },
}

/// Extracts one rank's events, registering the communicators it creates. Returns an error
/// naming the call for a record whose arguments do not have the expected shape.
pub fn rank_events(rank: u32, records: &[Record], comms: &mut Communicators) -> Result<Vec<Timed>, String> {
    let mut out = Vec::new();
    let mut persistent: std::collections::HashMap<i64, Persistent> = Default::default();
    for (i, r) in records.iter().enumerate() {
        let bad = || format!("rank {rank}: record {i} ({}) does not have the expected arguments", r.name());
        let int = |k: usize| r.int(k).ok_or_else(bad);
        // Without wall times, record order is all there is.
        let (time, end) = r
            .wall
            .map_or((i as f64 * 1e-9, i as f64 * 1e-9), |w| (w.start.as_secs_f64(), w.stop.as_secs_f64()));
        let call = r.name();
        let mut push = |event: Event| out.push(Timed { time, end, event, call, record: i });
        match r.name() {
            "MPI_Send" | "MPI_Bsend" | "MPI_Ssend" | "MPI_Rsend" | "MPI_Isend" | "MPI_Ibsend"
            | "MPI_Issend" | "MPI_Irsend" => {
                if let Some(c) = comms.resolve(rank, int(4)?) {
                    push(Event::Send { comm: c, dest: int(2)?, tag: int(3)? });
                }
            }
            "MPI_Recv" | "MPI_Irecv" => {
                if let Some(c) = comms.resolve(rank, int(4)?) {
                    let request = if r.name() == "MPI_Irecv" { Some(int(5)?) } else { None };
                    push(Event::Post {
                        request,
                        comm: c,
                        handle: int(4)?,
                        src: wild(int(2)?),
                        tag: wild(int(3)?),
                    });
                }
            }
            "MPI_Sendrecv" => {
                if let Some(c) = comms.resolve(rank, int(8)?) {
                    push(Event::Send { comm: c, dest: int(2)?, tag: int(3)? });
                    push(Event::Post {
                        request: None,
                        comm: c,
                        handle: int(8)?,
                        src: wild(int(6)?),
                        tag: wild(int(7)?),
                    });
                }
            }
            "MPI_Sendrecv_replace" => {
                if let Some(c) = comms.resolve(rank, int(6)?) {
                    push(Event::Send { comm: c, dest: int(2)?, tag: int(3)? });
                    push(Event::Post {
                        request: None,
                        comm: c,
                        handle: int(6)?,
                        src: wild(int(4)?),
                        tag: wild(int(5)?),
                    });
                }
            }
            "MPI_Probe" | "MPI_Iprobe" => {
                if let Some(c) = comms.resolve(rank, int(2)?) {
                    push(Event::Probe { comm: c, src: wild(int(0)?), tag: wild(int(1)?) });
                }
            }
            "MPI_Wait" => push(Event::Complete { requests: vec![int(0)?] }),
            "MPI_Test" if int(1)? != 0 => push(Event::Complete { requests: vec![int(0)?] }),
            "MPI_Waitany" | "MPI_Testany" => {
                let reqs = r.ints(1).ok_or_else(bad)?;
                let index = int(2)?;
                let flag = if r.name() == "MPI_Testany" { int(3)? } else { 1 };
                if flag != 0 && index != UNDEFINED_INDEX {
                    if let Some(&q) = usize::try_from(index).ok().and_then(|k| reqs.get(k)) {
                        push(Event::Complete { requests: vec![q] });
                    }
                }
            }
            "MPI_Waitall" => push(Event::Complete { requests: r.ints(1).ok_or_else(bad)?.to_vec() }),
            "MPI_Testall" if int(2)? != 0 => {
                push(Event::Complete { requests: r.ints(1).ok_or_else(bad)?.to_vec() })
            }
            "MPI_Waitsome" | "MPI_Testsome" => {
                let reqs = r.ints(1).ok_or_else(bad)?;
                let done = match r.args.get(3) {
                    Some(Arg::Ints(v)) => v.clone(),
                    _ => return Err(bad()),
                };
                let requests = done
                    .iter()
                    .filter_map(|&k| usize::try_from(k).ok().and_then(|k| reqs.get(k)).copied())
                    .collect();
                push(Event::Complete { requests });
            }
            "MPI_Cancel" => push(Event::Cancel { request: int(0)? }),
            "MPI_Recv_init" => {
                persistent.insert(int(5)?, Persistent::Recv { comm: int(4)?, src: int(2)?, tag: int(3)? });
            }
            "MPI_Send_init" | "MPI_Bsend_init" | "MPI_Ssend_init" | "MPI_Rsend_init" => {
                persistent.insert(int(5)?, Persistent::Send { comm: int(4)?, dest: int(2)?, tag: int(3)? });
            }
            "MPI_Start" | "MPI_Startall" => {
                let reqs: Vec<i64> =
                    if r.name() == "MPI_Start" { vec![int(0)?] } else { r.ints(1).ok_or_else(bad)?.to_vec() };
                for q in reqs {
                    match persistent.get(&q) {
                        Some(Persistent::Recv { comm: h, src, tag }) => {
                            if let Some(c) = comms.resolve(rank, *h) {
                                push(Event::Post {
                                    request: Some(q),
                                    comm: c,
                                    handle: *h,
                                    src: wild(*src),
                                    tag: wild(*tag),
                                });
                            }
                        }
                        Some(Persistent::Send { comm: h, dest, tag }) => {
                            if let Some(c) = comms.resolve(rank, *h) {
                                push(Event::Send { comm: c, dest: *dest, tag: *tag });
                            }
                        }
                        None => {}
                    }
                }
            }
            _ => communicator_call(rank, r, comms, &bad)?,
        }
    }
    out.retain(|t| !touches_proc_null(&t.event));
    Ok(out)
}

/// The calls that make or free communicators and groups, which `comms` follows so that
/// later calls resolve their communicator; any other call is not one of them and is
/// ignored.
fn communicator_call(
    rank: u32,
    r: &Record,
    comms: &mut Communicators,
    bad: &dyn Fn() -> String,
) -> Result<(), String> {
    let int = |k: usize| r.int(k).ok_or_else(bad);
    match r.name() {
        "MPI_Comm_dup" => comms.created(rank, int(0)?, Creation::Dup, int(1)?),
        "MPI_Comm_split" => {
            comms.created(rank, int(0)?, Creation::Split { color: int(1)?, key: int(2)? }, int(3)?)
        }
        "MPI_Comm_create" => comms.created(rank, int(0)?, Creation::Create { group: int(1)? }, int(2)?),
        "MPI_Intercomm_create" => {
            let creation = Creation::Intercomm {
                local_leader: int(1)?,
                peer: int(2)?,
                remote_leader: int(3)?,
                tag: int(4)?,
            };
            comms.created(rank, int(0)?, creation, int(5)?)
        }
        "MPI_Intercomm_merge" => {
            comms.created(rank, int(0)?, Creation::Merge { high: int(1)? != 0 }, int(2)?)
        }
        "MPI_Comm_free" | "MPI_Comm_disconnect" => comms.freed(rank, int(0)?),
        "MPI_Comm_group" | "MPI_Comm_remote_group" => {
            let remote = r.name() == "MPI_Comm_remote_group";
            comms.group(rank, GroupCall::OfComm { comm: int(0)?, remote }, int(1)?)
        }
        "MPI_Group_incl" | "MPI_Group_excl" => {
            let (group, ranks) = (int(0)?, r.ints(2).ok_or_else(bad)?.to_vec());
            let call = if r.name() == "MPI_Group_incl" {
                GroupCall::Incl { group, ranks }
            } else {
                GroupCall::Excl { group, ranks }
            };
            comms.group(rank, call, int(3)?)
        }
        "MPI_Group_range_incl" | "MPI_Group_range_excl" => {
            let Some(Arg::Rows(rows)) = r.args.get(2) else { return Err(bad()) };
            let ranges = rows
                .iter()
                .map(|row| <[i64; 3]>::try_from(row.as_slice()).map_err(|_| bad()))
                .collect::<Result<Vec<_>, _>>()?;
            let group = int(0)?;
            let call = if r.name() == "MPI_Group_range_incl" {
                GroupCall::RangeIncl { group, ranges }
            } else {
                GroupCall::RangeExcl { group, ranges }
            };
            comms.group(rank, call, int(3)?)
        }
        "MPI_Group_union" => comms.group(rank, GroupCall::Union(int(0)?, int(1)?), int(2)?),
        "MPI_Group_intersection" => comms.group(rank, GroupCall::Intersection(int(0)?, int(1)?), int(2)?),
        "MPI_Group_difference" => comms.group(rank, GroupCall::Difference(int(0)?, int(1)?), int(2)?),
        "MPI_Group_free" => comms.group_freed(rank, int(0)?),
        _ => {}
    }
    Ok(())
}

/// A send to `MPI_PROC_NULL`, or a receive or probe from it: complete at once, no message.
fn touches_proc_null(e: &Event) -> bool {
    match e {
        Event::Send { dest, .. } => *dest == PROC_NULL,
        Event::Post { src, .. } | Event::Probe { src, .. } => *src == Some(PROC_NULL),
        _ => false,
    }
}
