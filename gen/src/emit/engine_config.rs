//! One configuration of the receive engine: its sizes and field widths, checked against the
//! ranges the hardware takes ([`configuration`]), and what the models and the RTL driver
//! need of it. Apart from `emit::engine`, so that board and shell builds, which take a
//! configuration, and the engine's generator, which calls them, do not import each other.

use tagmatch_hdl::fields::FieldWidths;
use tagmatch_hdl::two_level::receive_engine::{receive_engine_verilog, EngineShape, MAX_LIST_CAPACITY};
use tagmatch_sim::cycle::two_level::{check_label_bits, TwoLevelConfig};

/// One engine configuration: CAM depth, total list capacity, lists, address bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    pub cam_depth: u32,
    pub list_capacity: u32,
    pub lists: u32,
    pub list_address_bits: u32,
    /// Width of the lists' posting labels (`parallel_lists.rs`).
    pub label_bits: u32,
    /// Stored widths of the communicator, source, tag and handle (`fields.rs`).
    pub fields: FieldWidths,
}

impl EngineConfig {
    /// Entries each list holds (node 0 of each list is never used).
    pub fn entries_per_list(&self) -> u32 {
        (1 << self.list_address_bits) - 1
    }

    /// Entries one queue (PRQ or UMQ) holds: the CAM and every list.
    pub fn queue_capacity(&self) -> u32 {
        self.cam_depth + self.lists * self.entries_per_list()
    }

    /// The cycle-accurate model of this configuration.
    pub fn model_config(&self) -> Result<TwoLevelConfig, String> {
        Ok(TwoLevelConfig::new(
            self.cam_depth as usize,
            self.lists as usize,
            self.entries_per_list() as usize,
        )?
        .with_label_bits(self.label_bits)?
        .with_fields(self.fields))
    }

    /// The same configuration storing fields of `fields`.
    pub fn with_fields(self, fields: FieldWidths) -> Self {
        EngineConfig { fields, ..self }
    }

    /// The same configuration with posting labels of `bits` bits; out of range, an error
    /// naming the range.
    pub fn with_label_bits(self, bits: u32) -> Result<Self, String> {
        check_label_bits(bits)?;
        Ok(EngineConfig { label_bits: bits, ..self })
    }

    /// A warning when the lists hold more entries than the labels can keep in order:
    /// live list labels stay within half the label space, so past `2^(B-1)` entries list
    /// inserts answer overflow.
    pub fn label_warning(&self) -> Option<String> {
        let keep = 1u64 << (self.label_bits - 1);
        let lists = self.lists as u64 * self.entries_per_list() as u64;
        (lists > keep).then(|| {
            format!(
                "tagmatch: warning: {}-bit labels keep at most {keep} entries in a queue's lists, which \
                 hold {lists}: list inserts past that answer overflow",
                self.label_bits
            )
        })
    }

    /// A name for the configuration's Verilator build, e.g. `engine-c256-a13-n4` (and
    /// `-l6` for 6-bit labels, `-f16.32.32.32` for field widths other than the default).
    pub fn build_name(&self) -> String {
        let labels = if self.label_bits == 32 { String::new() } else { format!("-l{}", self.label_bits) };
        let f = self.fields;
        let fields = if f == FieldWidths::default() {
            String::new()
        } else {
            format!("-f{}.{}.{}.{}", f.comm, f.src, f.tag, f.handle)
        };
        format!("engine-c{}-a{}-n{}{labels}{fields}", self.cam_depth, self.list_address_bits, self.lists)
    }

    /// The size the hardware blocks take.
    pub fn shape(&self) -> Result<EngineShape, String> {
        EngineShape::new(self.cam_depth as usize, self.lists as usize, self.list_address_bits as usize)?
            .with_label_bits(self.label_bits)
            .map(|s| s.with_fields(self.fields))
    }

    /// The configuration's Verilog (top module `top`).
    pub fn verilog(&self) -> Result<String, String> {
        Ok(receive_engine_verilog(&self.shape()?))
    }
}

/// The configuration for these parameters (32-bit labels), or a one-line reason naming the
/// range a value left. Each list is a block RAM of `list_capacity / lists` words, of which
/// word 0 is the null pointer, so the lists together hold `lists` entries fewer than the
/// capacity (32,764 of 32,768 with 4 lists).
pub fn configuration(cam_depth: u32, lists: u32, list_capacity: u32) -> Result<EngineConfig, String> {
    if !lists.is_power_of_two() || lists > 64 {
        return Err(format!("--lists {lists}: the number of lists must be a power of two from 1 to 64"));
    }
    let words = list_capacity / lists;
    if !list_capacity.is_power_of_two() || words < 4 || list_capacity as usize > MAX_LIST_CAPACITY {
        return Err(format!(
            "--list-capacity {list_capacity}: a power of two from 4 words per list ({}) to {MAX_LIST_CAPACITY}",
            4 * lists
        ));
    }
    let cfg = EngineConfig {
        cam_depth,
        list_capacity,
        lists,
        list_address_bits: words.trailing_zeros(),
        label_bits: 32,
        fields: FieldWidths::default(),
    };
    cfg.shape()?;
    Ok(cfg)
}
