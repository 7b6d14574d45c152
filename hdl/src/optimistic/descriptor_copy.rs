//! A lane's copy of the receive descriptors' fixed fields: envelope, wildcard flags,
//! label and handle, a word a slot, addressed by pointer (slot + 1).
//!
//! Every lane's copy is written together when a receive is posted (one write port), so a
//! lane reads its walk's entry from its own RAM with a registered read instead of a
//! `D`-way mux per field: at 16 lanes and 32 descriptors those muxes took about 88,000 of
//! 212,000 LUT4s on an ECP5, where a RAM read takes no logic. The walk's fields are read
//! at `read_pointer`; the handle has its own address (the taken receive's handle is the
//! lane's answer, and a cancel's scan compares handles). What a read at pointer 0 returns
//! is never used: the walk's compare stage needs the entry's valid flag, a register read
//! in which pointer 0 reads 0.
//!
//! LUT RAM up to [`COPY_LUT_RAM_WORDS`] words, block RAM beyond; the envelope and handle
//! store only their generated widths ([`TableRam::stored_bits`]).

use crate::fields::FieldWidths;
use crate::primitives::table_ram::{TableRam, LUT_RAM_WORDS};
use rust_hdl::prelude::*;

/// Each lane's descriptor copies are LUT RAM up to this many words and block RAM beyond.
/// LUT RAM's word is in a flip-flop 0.4 ns after the clock, a DP16KD's 4.26 ns, in front
/// of the walk's compare stage ([`crate::primitives::table_ram`]); but at the default 128
/// descriptors the 4-lane array's LUT RAM copies and their read muxes left it at 87,617
/// LUT4s, 105 % of the ECP5-85, which cannot place it; in block RAM it maps to 81,105.
/// The one-bit wildcard flags keep the table's own limit (256 words): a few LUTs, where a
/// DP16KD each would hold 128 bits of its 18 Kbit.
pub const COPY_LUT_RAM_WORDS: usize = 64;

/// One field's copy: LUT RAM up to [`COPY_LUT_RAM_WORDS`] words, a one-bit flag up to
/// the table's own limit.
pub(crate) fn field_copy<const W: usize>(descriptors: usize) -> TableRam<W> {
    let lut_ram_words = if W == 1 { LUT_RAM_WORDS } else { COPY_LUT_RAM_WORDS };
    TableRam::for_pointers(descriptors).lut_ram_up_to(lut_ram_words)
}

#[derive(LogicBlock)]
pub struct DescriptorCopy {
    pub clock: Signal<In, Clock>,
    /// A posted receive's fields, written at `write_slot` (its pointer).
    pub write_enable: Signal<In, Bit>,
    pub write_slot: Signal<In, Bits<16>>,
    pub write_comm: Signal<In, Bits<16>>,
    pub write_src: Signal<In, Bits<16>>,
    pub write_tag: Signal<In, Bits<32>>,
    pub write_src_any: Signal<In, Bit>,
    pub write_tag_any: Signal<In, Bit>,
    pub write_label: Signal<In, Bits<32>>,
    pub write_handle: Signal<In, Bits<32>>,
    /// The walk's entry; the handle's slot.
    pub read_pointer: Signal<In, Bits<16>>,
    pub handle_pointer: Signal<In, Bits<16>>,
    /// Registered reads: last cycle's addresses.
    pub comm: Signal<Out, Bits<16>>,
    pub src: Signal<Out, Bits<16>>,
    pub tag: Signal<Out, Bits<32>>,
    pub src_any: Signal<Out, Bit>,
    pub tag_any: Signal<Out, Bit>,
    pub label: Signal<Out, Bits<32>>,
    pub handle: Signal<Out, Bits<32>>,
    comm_ram: TableRam<16>,
    src_ram: TableRam<16>,
    tag_ram: TableRam<32>,
    src_any_ram: TableRam<1>,
    tag_any_ram: TableRam<1>,
    label_ram: TableRam<32>,
    handle_ram: TableRam<32>,
}

impl DescriptorCopy {
    /// A copy of `descriptors` descriptors storing fields at `fields`.
    pub fn new(descriptors: usize, fields: FieldWidths) -> Self {
        let d = descriptors;
        DescriptorCopy {
            clock: Default::default(),
            write_enable: Default::default(),
            write_slot: Default::default(),
            write_comm: Default::default(),
            write_src: Default::default(),
            write_tag: Default::default(),
            write_src_any: Default::default(),
            write_tag_any: Default::default(),
            write_label: Default::default(),
            write_handle: Default::default(),
            read_pointer: Default::default(),
            handle_pointer: Default::default(),
            comm: Default::default(),
            src: Default::default(),
            tag: Default::default(),
            src_any: Default::default(),
            tag_any: Default::default(),
            label: Default::default(),
            handle: Default::default(),
            comm_ram: field_copy(d).stored_bits(fields.comm),
            src_ram: field_copy(d).stored_bits(fields.src),
            tag_ram: field_copy(d).stored_bits(fields.tag),
            src_any_ram: field_copy(d),
            tag_any_ram: field_copy(d),
            label_ram: field_copy(d),
            handle_ram: field_copy(d).stored_bits(fields.handle),
        }
    }
}

impl Logic for DescriptorCopy {
    #[hdl_gen]
    fn update(&mut self) {
        self.comm_ram.clock.next = self.clock.val();
        self.src_ram.clock.next = self.clock.val();
        self.tag_ram.clock.next = self.clock.val();
        self.src_any_ram.clock.next = self.clock.val();
        self.tag_any_ram.clock.next = self.clock.val();
        self.label_ram.clock.next = self.clock.val();
        self.handle_ram.clock.next = self.clock.val();
        self.comm_ram.write_enable.next = self.write_enable.val();
        self.src_ram.write_enable.next = self.write_enable.val();
        self.tag_ram.write_enable.next = self.write_enable.val();
        self.src_any_ram.write_enable.next = self.write_enable.val();
        self.tag_any_ram.write_enable.next = self.write_enable.val();
        self.label_ram.write_enable.next = self.write_enable.val();
        self.handle_ram.write_enable.next = self.write_enable.val();
        self.comm_ram.write_address.next = self.write_slot.val();
        self.src_ram.write_address.next = self.write_slot.val();
        self.tag_ram.write_address.next = self.write_slot.val();
        self.src_any_ram.write_address.next = self.write_slot.val();
        self.tag_any_ram.write_address.next = self.write_slot.val();
        self.label_ram.write_address.next = self.write_slot.val();
        self.handle_ram.write_address.next = self.write_slot.val();
        self.comm_ram.write_data.next = self.write_comm.val();
        self.src_ram.write_data.next = self.write_src.val();
        self.tag_ram.write_data.next = self.write_tag.val();
        self.src_any_ram.write_data.next = self.write_src_any.val().into();
        self.tag_any_ram.write_data.next = self.write_tag_any.val().into();
        self.label_ram.write_data.next = self.write_label.val();
        self.handle_ram.write_data.next = self.write_handle.val();
        self.comm_ram.read_address.next = self.read_pointer.val();
        self.src_ram.read_address.next = self.read_pointer.val();
        self.tag_ram.read_address.next = self.read_pointer.val();
        self.src_any_ram.read_address.next = self.read_pointer.val();
        self.tag_any_ram.read_address.next = self.read_pointer.val();
        self.label_ram.read_address.next = self.read_pointer.val();
        self.handle_ram.read_address.next = self.handle_pointer.val();
        self.comm.next = self.comm_ram.read_data.val();
        self.src.next = self.src_ram.read_data.val();
        self.tag.next = self.tag_ram.read_data.val();
        self.src_any.next = self.src_any_ram.read_data.val().any();
        self.tag_any.next = self.tag_any_ram.read_data.val().any();
        self.label.next = self.label_ram.read_data.val();
        self.handle.next = self.handle_ram.read_data.val();
    }
}
