//! The blocks the designs are built from: RAMs, selection and reduction trees, banked
//! tables.

pub mod banked_table;
pub mod dual_port_ram;
pub mod field_ram;
pub mod select;
pub mod table_ram;
pub mod trees;
