//! The pack network's Verilog in Verilator against its Rust description (`pack`, itself
//! checked exhaustively against "the `j`-th kept entry leaves on position `j`"): every
//! keep pattern of 5 entries and of 16, the thread array's largest co-simulated block.

use tagmatch_hdl::primitives::pack::{pack, pack_verilog};
use tagmatch_testbench::verilator::{ports_from, BuildSpec, Model};

fn network(entries: usize) -> Model {
    let mut ports = vec![("clock".to_string(), 1, true)];
    for i in 0..entries {
        ports.push((format!("keep_{i}"), 1, true));
        ports.push((format!("entries_{i}"), 16, true));
        ports.push((format!("values_{i}"), 16, false));
    }
    let list: Vec<(&str, u32, bool)> = ports.iter().map(|(n, w, i)| (n.as_str(), *w, *i)).collect();
    let spec = BuildSpec {
        name: format!("pack-{entries}"),
        verilog: pack_verilog(entries),
        top: "pack_top".into(),
        clock: "clock".into(),
        ports: ports_from(&list),
        trace: false,
    };
    Model::build(&spec).map(|(m, _)| m).unwrap()
}

fn check(entries: usize) {
    let mut m = network(entries);
    let port = |m: &Model, name: String| m.port(&name).unwrap();
    let values: Vec<u64> = (0..entries as u64).map(|i| 0x100 + i).collect();
    for (i, v) in values.iter().enumerate() {
        let p = port(&m, format!("entries_{i}"));
        m.set(p, *v);
    }
    let outs: Vec<_> = (0..entries).map(|q| port(&m, format!("values_{q}"))).collect();
    let keeps: Vec<_> = (0..entries).map(|i| port(&m, format!("keep_{i}"))).collect();
    for mask in 0u64..1 << entries {
        let keep: Vec<bool> = (0..entries).map(|i| mask >> i & 1 == 1).collect();
        for (i, k) in keep.iter().enumerate() {
            m.set(keeps[i], *k as u64);
        }
        m.eval();
        // Stale copies included: the description is the network stage by stage.
        let want = pack(&keep, &values);
        let got: Vec<u64> = outs.iter().map(|o| m.get(*o)).collect();
        assert_eq!(got, want, "{entries} entries, keep {mask:b}");
    }
}

#[test]
fn five_entries_every_pattern() {
    check(5);
}

#[test]
fn sixteen_entries_every_pattern() {
    check(16);
}
