//! The native DUMPI reader on the real traces in `../shared/traces` (override with
//! `TAGMATCH_TRACES`): the binary form must agree, record by record, with the text form
//! `dumpi2ascii` printed for the same rank, and corrupt or truncated files must give
//! errors with a byte offset, never a panic.

use proptest::prelude::*;
use std::path::PathBuf;
use tagmatch_sim::traces::dumpi::binary;
use tagmatch_sim::traces::dumpi::calls::ALL_FUNCTIONS;
use tagmatch_sim::traces::dumpi::text::{self, difference};
use tagmatch_sim::traces::dumpi::trace::read_run;
use tagmatch_sim::traces::dumpi::Location;

mod common;
use common::{read, traces};

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

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tagmatch-dumpi-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn copy(rel: &str, dir: &std::path::Path, name: &str) {
    std::fs::write(dir.join(name), read(rel)).unwrap();
}

fn read_err(path: &std::path::Path) -> String {
    let e = read_run(path, &|_, _| {}).expect_err("the run should be refused").to_string();
    assert!(!e.contains('\n'), "a one-line error: {e}");
    e
}

#[test]
fn folders_and_meta_files_of_text_traces_read() {
    let txt =
        text::parse(std::str::from_utf8(&read("sst-testtrace/testtrace-0000.txt")).unwrap(), "t").unwrap();
    // A folder holding only the text form of rank 0.
    let only = scratch("text-only");
    copy("sst-testtrace/testtrace-0000.txt", &only, "testtrace-0000.txt");
    let run = read_run(&only, &|_, _| {}).unwrap();
    assert_eq!(run.ranks.len(), 1);
    assert_eq!(run.ranks[0].0, 0);
    assert_eq!(run.ranks[0].1.records.len(), txt.records.len());
    // A .meta whose rank 0 exists only as text: the other ranks are binary.
    let mixed = scratch("text-meta");
    copy("sst-testtrace/testtrace.meta", &mixed, "testtrace.meta");
    copy("sst-testtrace/testtrace-0000.txt", &mixed, "testtrace-0000.txt");
    for r in 1..4 {
        let name = format!("testtrace-{r:04}.bin");
        copy(&format!("sst-testtrace/{name}"), &mixed, &name);
    }
    for path in [mixed.clone(), mixed.join("testtrace.meta")] {
        let run = read_run(&path, &|_, _| {}).unwrap();
        assert_eq!(run.ranks.iter().map(|(r, _)| *r).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert_eq!(run.ranks[0].1.records.len(), txt.records.len(), "rank 0 from its text form");
    }
    let _ = std::fs::remove_dir_all(&only);
    let _ = std::fs::remove_dir_all(&mixed);
}

#[test]
fn binary_runs_ignore_a_rank_s_text_form() {
    // amg-n27 holds the text form of rank 0 beside the 27 binary files.
    let run = read_run(&traces().join("amg-n27"), &|_, _| {}).unwrap();
    assert_eq!(run.ranks.len(), 27);
    let bin = binary::parse(&read("amg-n27/dumpi-2014.03.03.14.55.00-0000.bin"), "b", None).unwrap();
    assert_eq!(run.ranks[0].1.records.len(), bin.records.len());
    assert_eq!(run.ranks[0].1.start_time, bin.start_time);
    // Without the .meta, binary is still preferred over text for the same rank.
    let dir = scratch("no-meta");
    copy("sst-testtrace/testtrace-0000.txt", &dir, "testtrace-0000.txt");
    copy("sst-testtrace/testtrace-0000.bin", &dir, "testtrace-0000.bin");
    copy("sst-testtrace/testtrace-0001.bin", &dir, "testtrace-0001.bin");
    let run = read_run(&dir, &|_, _| {}).unwrap();
    assert_eq!(run.ranks.len(), 2);
    assert_ne!(run.ranks[0].1.start_time, 0, "rank 0 read from its binary file");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_folder_of_two_runs_or_duplicate_ranks_is_refused() {
    let dir = scratch("two-runs");
    copy("sst-testtrace/testtrace-0000.bin", &dir, "a-0000.bin");
    copy("sst-testtrace/testtrace-0001.bin", &dir, "b-0000.bin");
    let e = read_err(&dir);
    assert!(e.contains("2 runs") && e.contains("'a'") && e.contains("'b'") && e.contains(".meta"), "{e}");
    // Each file alone still reads.
    assert_eq!(read_run(&dir.join("b-0000.bin"), &|_, _| {}).unwrap().ranks.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);

    let dir = scratch("duplicate");
    copy("sst-testtrace/testtrace-0001.bin", &dir, "a-0001.bin");
    copy("sst-testtrace/testtrace-0002.bin", &dir, "a-00001.bin");
    let e = read_err(&dir);
    assert!(e.contains("two files for rank 1"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);

    let dir = scratch("two-metas");
    copy("sst-testtrace/testtrace.meta", &dir, "a.meta");
    copy("sst-testtrace/testtrace.meta", &dir, "b.meta");
    let e = read_err(&dir);
    assert!(e.contains("a.meta") && e.contains("b.meta"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn fifos_and_devices_are_named_not_read() {
    let e = read_err(std::path::Path::new("/dev/zero"));
    assert!(e.contains("is a character device, not a trace file"), "{e}");
    let dir = scratch("fifo");
    let fifo = dir.join("x-0000.bin");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        // Reading would block forever: the type must be checked first.
        let e = read_err(&fifo);
        assert!(e.contains("is a FIFO, not a trace file"), "{e}");
        let e = read_err(&dir);
        assert!(e.contains("is a FIFO"), "{e}");
        std::fs::write(dir.join("x.meta"), "fileprefix=x\nnumprocs=1\n").unwrap();
        let e = read_err(&dir);
        assert!(e.contains("is a FIFO"), "{e}");
    } else {
        eprintln!("no mkfifo: the FIFO cases were skipped");
    }
    let e = read_err(&dir.join("nothing-here.bin"));
    assert!(e.contains("no such file"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn meta_counts_are_bounded_by_the_files() {
    let dir = scratch("numprocs");
    for r in 0..4 {
        let name = format!("testtrace-{r:04}.bin");
        copy(&format!("sst-testtrace/{name}"), &dir, &name);
    }
    for (numprocs, want) in [
        ("4000000000", "above the limit of 1048576 ranks"),
        ("1048576", "testtrace-0004.bin (rank 4): missing"),
        ("5", "testtrace-0004.bin (rank 4): missing"),
        ("0", "no ranks"),
        ("-1", "no valid numprocs"),
    ] {
        std::fs::write(dir.join("testtrace.meta"), format!("fileprefix=testtrace\nnumprocs={numprocs}\n"))
            .unwrap();
        let e = read_err(&dir);
        assert!(e.contains(want), "numprocs={numprocs}: {e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The text form of sst-testtrace rank 0 with one line replaced, as a one-file run.
fn edited_text_run(name: &str, from: &str, to: &str) -> tagmatch_sim::traces::dumpi::trace::Run {
    let text = String::from_utf8(read("sst-testtrace/testtrace-0000.txt")).unwrap();
    assert!(text.contains(from), "{from}");
    let dir = scratch(name);
    let path = dir.join("testtrace-0000.txt");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    let run = read_run(&path, &|_, _| {}).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    run
}

#[test]
fn claimed_world_sizes_and_sources_are_checked() {
    use tagmatch_sim::traces::replay;
    let run = edited_text_run("size", "int size=4\n", "int size=2147483647\n");
    let e = replay::run_events(&run).unwrap_err();
    assert!(e.contains("2147483647") && e.contains("limit of 1048576 ranks"), "{e}");

    let run = edited_text_run("source", "int source=3\n", "int source=2000000000\n");
    let events = replay::run_events(&run).unwrap();
    assert_eq!(events.world_size, 4);
    let e = replay::streams(&events, 1e-6).unwrap_err();
    assert!(e.contains("source rank 2000000000 is outside MPI_COMM_WORLD, which has 4 ranks"), "{e}");

    // The untouched text form replays.
    let run = edited_text_run("plain", "int source=3\n", "int source=3\n");
    assert!(replay::streams(&replay::run_events(&run).unwrap(), 1e-6).is_ok());
}

#[test]
fn footer_counts_size_the_record_list_exactly() {
    for rel in
        ["sst-testtrace/testtrace-0001.bin", "multigrid/MultiGrid.bin", "crystalrouter/CrystalRouter.bin"]
    {
        let data = read(rel);
        let t = binary::parse(&data, rel, None).unwrap();
        let recorded = t.counts.called.iter().zip(&t.counts.ignored).take(ALL_FUNCTIONS as usize);
        let expected: u64 = recorded.map(|(&c, &i)| (c - i) as u64).sum();
        assert_eq!(expected, t.records.len() as u64, "{rel}: the footer counts the records");
        assert_eq!(t.records.capacity(), t.records.len(), "{rel}: no growth past the footer's count");
    }
}
