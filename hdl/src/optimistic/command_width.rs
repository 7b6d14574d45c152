//! Whether the command on the thread array's ports has a field wider than the array was
//! generated with (`ThreadArrayShape::fields`): a post's or probe's envelope (a wildcard's
//! field not checked), a post's or cancel's handle, or any field of a block's messages on
//! the lanes it uses. The array answers such a command overflow at once and changes
//! nothing, so a stored field never aliases a wider value and the host keeps the operation.

use crate::fields::FieldWidths;
use crate::optimistic::unexpected_cam::MESSAGE_FIELDS;
use crate::optimistic::vectors::{k, low_bits, signals};
use crate::two_level::receive_engine::{OP_ARRIVE, OP_CANCEL, OP_MATCHED_PROBE, OP_POST, OP_PROBE};
use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct CommandWidth {
    pub op: Signal<In, Bits<3>>,
    pub comm: Signal<In, Bits<16>>,
    pub src: Signal<In, Bits<16>>,
    pub tag: Signal<In, Bits<32>>,
    pub src_any: Signal<In, Bit>,
    pub tag_any: Signal<In, Bit>,
    pub handle: Signal<In, Bits<32>>,
    /// Messages in a block, on lanes `0..count`.
    pub count: Signal<In, Bits<8>>,
    pub msg_comm: Vec<Signal<In, Bits<16>>>,
    pub msg_src: Vec<Signal<In, Bits<16>>>,
    pub msg_tag: Vec<Signal<In, Bits<32>>>,
    pub msg_handle: Vec<Signal<In, Bits<32>>>,
    /// The command has a field wider than generated.
    pub wide: Signal<Out, Bit>,
    /// Each field's bits above its generated width.
    comm_over: Constant<Bits<16>>,
    src_over: Constant<Bits<16>>,
    tag_over: Constant<Bits<32>>,
    handle_over: Constant<Bits<32>>,
    lane_index: Vec<Constant<Bits<8>>>,
    zero16: Constant<Bits<16>>,
    zero32: Constant<Bits<32>>,
    op_post: Constant<Bits<3>>,
    op_arrive: Constant<Bits<3>>,
    op_cancel: Constant<Bits<3>>,
    op_probe: Constant<Bits<3>>,
    op_matched_probe: Constant<Bits<3>>,
    envelope_wide: Signal<Local, Bit>,
    handle_wide: Signal<Local, Bit>,
    /// One of the block's messages, on the lanes it uses.
    messages_wide: Signal<Local, Bit>,
    _lanes: usize,
}

impl CommandWidth {
    /// The check of `lanes` lanes' commands against `fields`.
    pub fn new(lanes: usize, fields: FieldWidths) -> Self {
        let over = |bits: usize, width: usize| low_bits(width) & !low_bits(bits);
        CommandWidth {
            op: Default::default(),
            comm: Default::default(),
            src: Default::default(),
            tag: Default::default(),
            src_any: Default::default(),
            tag_any: Default::default(),
            handle: Default::default(),
            count: Default::default(),
            msg_comm: signals(lanes),
            msg_src: signals(lanes),
            msg_tag: signals(lanes),
            msg_handle: signals(lanes),
            wide: Default::default(),
            comm_over: k(over(fields.comm, MESSAGE_FIELDS.comm)),
            src_over: k(over(fields.src, MESSAGE_FIELDS.src)),
            tag_over: k(over(fields.tag, MESSAGE_FIELDS.tag)),
            handle_over: k(over(fields.handle, MESSAGE_FIELDS.handle)),
            lane_index: (0..lanes).map(|i| k(i as u64)).collect(),
            zero16: k(0),
            zero32: k(0),
            op_post: k(OP_POST),
            op_arrive: k(OP_ARRIVE),
            op_cancel: k(OP_CANCEL),
            op_probe: k(OP_PROBE),
            op_matched_probe: k(OP_MATCHED_PROBE),
            envelope_wide: Default::default(),
            handle_wide: Default::default(),
            messages_wide: Default::default(),
            _lanes: lanes,
        }
    }
}

impl Logic for CommandWidth {
    #[hdl_gen]
    fn update(&mut self) {
        self.envelope_wide.next = ((self.comm.val() & self.comm_over.val()) != self.zero16.val())
            | (!self.src_any.val() & ((self.src.val() & self.src_over.val()) != self.zero16.val()))
            | (!self.tag_any.val() & ((self.tag.val() & self.tag_over.val()) != self.zero32.val()));
        self.handle_wide.next = (self.handle.val() & self.handle_over.val()) != self.zero32.val();
        self.messages_wide.next = false;
        for i in 0..self._lanes {
            if (self.lane_index[i].val() < self.count.val())
                & (((self.msg_comm[i].val() & self.comm_over.val()) != self.zero16.val())
                    | ((self.msg_src[i].val() & self.src_over.val()) != self.zero16.val())
                    | ((self.msg_tag[i].val() & self.tag_over.val()) != self.zero32.val())
                    | ((self.msg_handle[i].val() & self.handle_over.val()) != self.zero32.val()))
            {
                self.messages_wide.next = true;
            }
        }
        self.wide.next = ((self.op.val() == self.op_post.val())
            & (self.envelope_wide.val() | self.handle_wide.val()))
            | ((self.op.val() == self.op_cancel.val()) & self.handle_wide.val())
            | (((self.op.val() == self.op_probe.val()) | (self.op.val() == self.op_matched_probe.val()))
                & self.envelope_wide.val())
            | ((self.op.val() == self.op_arrive.val()) & self.messages_wide.val());
    }
}
