//! The native DUMPI reader on the real traces in `../shared/traces` (override with
//! `TAGMATCH_TRACES`): the binary form must agree, record by record, with the text form
//! `dumpi2ascii` printed for the same rank, and corrupt or truncated files must give
//! errors with a byte offset, never a panic.

use proptest::prelude::*;
use std::path::PathBuf;
use tagmatch_sim::dumpi::binary;
use tagmatch_sim::dumpi::text::{self, difference};
use tagmatch_sim::dumpi::trace::read_run;
use tagmatch_sim::dumpi::Location;

fn traces() -> PathBuf {
    std::env::var_os("TAGMATCH_TRACES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/traces"))
}

fn read(rel: &str) -> Vec<u8> {
    let p = traces().join(rel);
    std::fs::read(&p)
        .unwrap_or_else(|e| panic!("{}: {e} (the shared traces must be beside the checkout)", p.display()))
}

fn agree(bin_rel: &str, txt_rel: &str, min_records: usize) {
    let bin = binary::parse(&read(bin_rel), bin_rel, None).unwrap();
    let txt = text::parse(std::str::from_utf8(&read(txt_rel)).unwrap(), txt_rel).unwrap();
    assert!(txt.records.len() >= min_records, "{txt_rel}: only {} records", txt.records.len());
    // A text form may stop early (it is a sample), never run past the binary.
    assert!(txt.records.len() <= bin.records.len(), "{txt_rel} has more records than {bin_rel}");
    for (i, (b, t)) in bin.records.iter().zip(&txt.records).enumerate() {
        if let Some(d) = difference(b, &t.record) {
            panic!("{bin_rel} record {i} differs from {txt_rel} line {}: {d}", t.line);
        }
    }
    if let Some(counts) = &txt.counts {
        assert_eq!(counts, &bin.counts, "footer counts of {bin_rel} and {txt_rel}");
    }
}

#[test]
fn binary_agrees_with_text_form_sst_testtrace() {
    agree("sst-testtrace/testtrace-0000.bin", "sst-testtrace/testtrace-0000.txt", 9);
}

#[test]
fn binary_agrees_with_text_form_multigrid() {
    agree("multigrid/MultiGrid.bin", "multigrid/MultiGrid.txt", 2000);
}

#[test]
fn binary_agrees_with_text_form_amg_rank_0() {
    agree("amg-n27/dumpi-2014.03.03.14.55.00-0000.bin", "amg-n27/dumpi-2014.03.03.14.55.00-0000.txt", 1000);
}

#[test]
fn every_shared_trace_reads() {
    for (dir, ranks) in
        [("amg-n27", 27), ("crystalrouter", 1), ("multigrid", 1), ("bigfft", 1), ("sst-testtrace", 4)]
    {
        let run = read_run(&traces().join(dir), &|_, _| {}).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(run.ranks.len(), ranks, "{dir}");
        assert!(run.ranks.iter().all(|(_, t)| !t.records.is_empty()), "{dir}");
    }
}

#[test]
fn truncated_files_give_byte_offsets() {
    let data = read("sst-testtrace/testtrace-0000.bin");
    for cut in [0, 7, 8, 100, data.len() / 2, data.len() - 1] {
        let e = binary::parse(&data[..cut], "cut.bin", Some(0)).unwrap_err();
        assert!(matches!(e.at, Some(Location::Byte(_))), "cut at {cut}: {e}");
        assert!(e.to_string().starts_with("cut.bin (rank 0), byte "), "{e}");
    }
    let mut bad = data.clone();
    bad[0] ^= 0xff;
    assert!(binary::parse(&bad, "bad.bin", None).unwrap_err().message.contains("magic"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Mutated traces: any outcome but a panic (or a huge allocation) is acceptable.
    #[test]
    fn mutated_traces_never_panic(
        which in 0usize..3,
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..12),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let name = ["sst-testtrace/testtrace-0001.bin", "multigrid/MultiGrid.bin", "bigfft/BigFFT.bin"][which];
        let mut data = read(name);
        for (at, byte) in flips {
            let i = at.index(data.len());
            data[i] = byte;
        }
        if truncate {
            data.truncate(cut.index(data.len() + 1));
        }
        let _ = binary::parse(&data, name, None);
    }
}
