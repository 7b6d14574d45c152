//! `tagmatch gen`: each design's Verilog and manifest, then the estimate and the timing
//! flow if asked; options the chosen design does not take are refused first.

use crate::cli::design::{Design, NOT_FOR_ONESIDED, NOT_FOR_THREAD_ARRAY};
use crate::cli::gen::GenArgs;
use crate::cli::timing::TimingArgs;
use crate::output::table::{render, Format};
use crate::{board, emit, flow, output};

/// Writes the design `--engine` names.
pub fn run(args: GenArgs) -> Result<(), String> {
    match args.engine {
        Design::Onesided => write_onesided(args),
        Design::Cam => write_cam(args),
        Design::Optimistic => write_thread_array(args),
        Design::TwoLevel => write_two_level(args),
    }
}

/// `gen --engine onesided`.
fn write_onesided(args: GenArgs) -> Result<(), String> {
    let GenArgs { engine: _, shape, array, onesided, board, shell, estimate, timing, testbench, format, out } =
        args;
    testbench.unused()?;
    shell.unused()?;
    if !shape.is_default() {
        return Err(NOT_FOR_ONESIDED.into());
    }
    array.unused()?;
    if board.is_some() {
        return Err("--board wraps the two-level engine; the one-sided unit has no board wrapper yet".into());
    }
    let cfg = onesided.config()?;
    let tools = timing.tools()?;
    let mut manifest = emit::onesided::generate(&cfg, &out)?;
    let shape: output::table::Record = vec![
        ("windows", serde_json::json!(cfg.windows)),
        ("counter_bits", serde_json::json!(cfg.counter_bits)),
    ];
    let file = emit::onesided::ONESIDED_FILE;
    let announce = "synthesizing the one-sided unit in yosys";
    estimate_and_time(
        estimate,
        announce,
        &timing,
        &tools,
        &out,
        file,
        "onesided",
        &mut manifest,
        &shape,
        format,
    )?;
    eprintln!(
        "tagmatch: wrote {} and manifest.json to {} ({} windows, {}-bit counters: {} requests outstanding per window)",
        emit::onesided::ONESIDED_FILE,
        out.display(),
        cfg.windows,
        cfg.counter_bits,
        cfg.max_outstanding()
    );
    Ok(())
}

/// `gen --engine cam`.
fn write_cam(args: GenArgs) -> Result<(), String> {
    let GenArgs { engine: _, shape, array, onesided, board, shell, estimate, timing, testbench, format, out } =
        args;
    testbench.unused()?;
    shell.unused()?;
    array.unused()?;
    onesided.unused()?;
    let d = emit::engine::EngineShape::DEFAULT;
    if (shape.lists as usize, shape.list_capacity as usize, shape.label_bits)
        != (d.lists, d.list_capacity(), d.label_bits)
        || shape.fields.widths() != Ok(d.fields)
        || board.is_some()
    {
        return Err(
            "--engine cam writes the CAM alone: --cam-depth only (no lists, field widths or board)".into()
        );
    }
    let tools = timing.tools()?;
    let mut manifest = emit::cam::generate(shape.cam_depth, &out)?;
    let shape: output::table::Record = vec![("cam_depth", serde_json::json!(shape.cam_depth))];
    let announce = "synthesizing the CAM in yosys";
    estimate_and_time(
        estimate,
        announce,
        &timing,
        &tools,
        &out,
        emit::cam::CAM_FILE,
        "cam",
        &mut manifest,
        &shape,
        format,
    )?;
    eprintln!("tagmatch: wrote {} and manifest.json to {}", emit::cam::CAM_FILE, out.display());
    Ok(())
}

/// `gen --engine optimistic`.
fn write_thread_array(args: GenArgs) -> Result<(), String> {
    let GenArgs { engine: _, shape, array, onesided, board, shell, estimate, timing, testbench, format, out } =
        args;
    onesided.unused()?;
    testbench.unused()?;
    shell.unused()?;
    if !shape.only_fields() {
        return Err(NOT_FOR_THREAD_ARRAY.into());
    }
    if board.is_some() {
        return Err("--board wraps the two-level engine's one-message command stream; the thread \
                    array's lane ports have no board wrapper yet"
            .into());
    }
    let cfg = array.config(emit::thread_array::DEFAULT_TABLES)?.with_fields(shape.fields.widths()?)?;
    let tools = timing.tools()?;
    let mut manifest = emit::thread_array::generate(&cfg, &out)?;
    let shape: output::table::Record = vec![
        ("threads", serde_json::json!(cfg.threads)),
        ("descriptors", serde_json::json!(cfg.descriptors)),
    ];
    let file = emit::thread_array::THREAD_ARRAY_FILE;
    let announce = "synthesizing the thread array in yosys";
    estimate_and_time(
        estimate,
        announce,
        &timing,
        &tools,
        &out,
        file,
        "optimistic",
        &mut manifest,
        &shape,
        format,
    )?;
    eprintln!(
        "tagmatch: wrote {} and manifest.json to {} ({} lanes, {} receive descriptors, {} bins per index, \
         {} unexpected messages, fast path {})",
        emit::thread_array::THREAD_ARRAY_FILE,
        out.display(),
        cfg.threads,
        cfg.descriptors,
        cfg.bins(),
        cfg.unexpected,
        if cfg.fast_path { "on" } else { "off" }
    );
    Ok(())
}

/// `gen --engine two-level` (the default).
fn write_two_level(args: GenArgs) -> Result<(), String> {
    let GenArgs { engine: _, shape, array, onesided, board, shell, estimate, timing, testbench, format, out } =
        args;
    array.unused()?;
    onesided.unused()?;
    let board = board.map(|b| board::catalog::find(&b)).transpose()?;
    let cfg = shape.config()?;
    let tools = timing.tools()?;
    let shell_target = shell.target();
    let packaging = match (&board, &shell_target) {
        (Some(_), Some(_)) => {
            return Err("--shell packages the engine out of context; --board builds a board's top \
                        level (which holds the same shell): choose one"
                .into())
        }
        (Some(b), None) => emit::engine::Packaging::Board(b),
        (None, Some(s)) => emit::engine::Packaging::Shell(s),
        (None, None) => emit::engine::Packaging::Bare,
    };
    // The testbench's engine is written for event-driven simulators.
    let mut manifest = emit::engine::generate(&cfg, packaging, &out, testbench.testbench)?;
    if testbench.testbench {
        manifest["testbench"] = emit::testbench::generate(
            &cfg,
            testbench.testbench_ops,
            testbench.testbench_seed,
            testbench.testbench_vectors,
            &out,
        )?;
        emit::engine::write_manifest(&out, &manifest)?;
    }
    let shape: output::table::Record =
        vec![("cam_depth", serde_json::json!(cfg.cam_depth)), ("lists", serde_json::json!(cfg.lists))];
    if tools.is_some() && cfg.cam_depth > 64 {
        eprintln!(
            "tagmatch: note: the flow on a {}-entry CAM is long: at 256 entries, about half an hour \
             for the CAM alone and one to two hours for the engine (--max-minutes bounds it)",
            cfg.cam_depth
        );
    }
    let file = emit::engine::ENGINE_FILE;
    let announce = "synthesizing the engine in yosys (about a minute for the small engines, an hour or \
                    more for a 256-entry CAM)";
    estimate_and_time(
        estimate,
        announce,
        &timing,
        &tools,
        &out,
        file,
        "two-level",
        &mut manifest,
        &shape,
        format,
    )?;
    let files: Vec<&str> =
        manifest["files"].as_array().into_iter().flatten().filter_map(|f| f.as_str()).collect();
    // stdout carries only data (the estimate table), so scripts can parse it.
    eprintln!(
        "tagmatch: wrote {} and manifest.json to {} (CAM {}, {} lists of {} entries, {} entries per queue)",
        files.join(", "),
        out.display(),
        cfg.cam_depth,
        cfg.lists,
        cfg.entries_per_list,
        cfg.queue_capacity()
    );
    Ok(())
}

/// Runs the flow on `out/file`, writes it into the manifest, records it if asked, and
/// prints its table row.
#[allow(clippy::too_many_arguments)]
fn time_design(
    timing: &TimingArgs,
    tools: &flow::timing::Tools,
    out: &std::path::Path,
    file: &str,
    design: &str,
    manifest: &mut serde_json::Value,
    shape: &output::table::Record,
    xilinx: Option<flow::estimate::Estimate>,
    format: Format,
) -> Result<(), String> {
    let verilog =
        std::fs::read_to_string(out.join(file)).map_err(|e| format!("cannot read back {file}: {e}"))?;
    let hash = emit::engine::content_hash(&verilog);
    let stage = if timing.place_only { flow::timing::Stage::Place } else { flow::timing::Stage::Route };
    let nextpnr = flow::timing::Nextpnr {
        target_mhz: timing.target_mhz,
        placer: timing.placer,
        design_placer: flow::timing::Placer::default_for(design),
        router: timing.router,
        seed: timing.seed,
        stage,
        budget: (timing.max_minutes > 0)
            .then(|| std::time::Duration::from_secs(u64::from(timing.max_minutes) * 60)),
        wide_luts: timing.wide_luts,
        cam_comparators: timing.cam_comparators,
    };
    let commit = flow::record::commit();
    let t = match flow::timing::run(tools, out, file, nextpnr, xilinx) {
        Ok(t) => t,
        Err(e) if timing.record && !timing.place_only => {
            // A run that gave no Fmax is history too: the results say what did not route.
            let mut failed = flow::record::failed_run(design, &manifest["parameters"], &hash);
            failed.commit = commit;
            failed.seed = Some(timing.seed);
            failed.wide_luts = Some(timing.wide_luts);
            failed.cam_comparators = Some(timing.cam_comparators.name().to_string());
            failed.synthesis = std::fs::read_to_string(out.join(flow::record::SYNTHESIS_FILE))
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok());
            let reason = e.lines().next().unwrap_or_default();
            flow::record::append_history(failed, false, reason)?;
            return Err(e);
        }
        Err(e) => return Err(e),
    };
    let mut json = t.to_json();
    json["verilog_hash"] = serde_json::json!(hash);
    manifest["timing"] = json;
    emit::engine::write_manifest(out, manifest)?;
    if let (true, Some(routed)) = (timing.record, t.routed()) {
        let mut m = flow::record::measurement(design, &manifest["parameters"], &hash, &t);
        m.commit = commit;
        let path = flow::record::record(m)?;
        eprintln!(
            "tagmatch: recorded {:.2} MHz for this configuration in {}",
            routed.fmax_mhz,
            path.display()
        );
    }
    print!("{}", render(&[t.record(shape)], format));
    Ok(())
}

/// `gen --estimate` and `--timing` on the Verilog `file` just written into `out`, for any
/// design: yosys' figures into the manifest and a table (`announce` said first), then the
/// open flow with the Xilinx depth the estimate already measured.
#[allow(clippy::too_many_arguments)]
fn estimate_and_time(
    with_estimate: bool,
    announce: &str,
    timing: &TimingArgs,
    tools: &Option<flow::timing::Tools>,
    out: &std::path::Path,
    file: &str,
    design: &str,
    manifest: &mut serde_json::Value,
    shape: &output::table::Record,
    format: Format,
) -> Result<(), String> {
    let mut xilinx = None;
    if with_estimate {
        eprintln!("tagmatch: {announce}");
        let estimates = flow::estimate::estimate(&out.join(file), &out.join("yosys"))?;
        xilinx = estimates.first().cloned();
        manifest["estimates"] = estimates.iter().map(|e| e.to_json()).collect();
        emit::engine::write_manifest(out, manifest)?;
        let records: Vec<_> = estimates.iter().map(|e| e.record(shape)).collect();
        print!("{}", render(&records, format));
    }
    if let Some(tools) = tools {
        time_design(timing, tools, out, file, design, manifest, shape, xilinx, format)?;
    }
    Ok(())
}
