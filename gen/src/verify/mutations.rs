//! Seeded mutations: small, named bugs written into the emitted Verilog, which the proofs
//! must catch. They show that the harness can fail: a property that no broken engine
//! violates proves nothing.
//!
//! A mutation replaces text inside one module of the generated file. Each pattern must be
//! found there, so a generator change that moves the code makes the mutation fail loudly
//! (rewrite its pattern then) rather than silently test an unchanged engine.

use super::Harness;

/// One seeded bug.
pub struct Mutation {
    pub name: &'static str,
    /// The harness whose properties must catch it.
    pub harness: Harness,
    /// What the bug does, for the report.
    pub what: &'static str,
    /// The module it is written into.
    module: &'static str,
    /// (text, replacement), applied in order; every text must occur in the module.
    patches: &'static [(&'static str, &'static str)],
}

/// The mutations `tagmatch verify --mutations` runs.
pub const MUTATIONS: &[Mutation] = &[
    Mutation {
        harness: Harness::Engine,
        name: "priority reversed",
        what: "the PRQ's CAM prefers its youngest bank with a hit",
        module: "top_prq_queue_cam_level",
        patches: &[
            ("~bank_hit[gc] | older[gb*B", "~bank_hit[gc] | ~older[gb*B"),
            ("~bank_hit[gc] | ~older[gc*B", "~bank_hit[gc] | older[gc*B"),
        ],
    },
    Mutation {
        harness: Harness::Engine,
        name: "insert dropped",
        what: "the PRQ's CAM ignores the insert it takes while holding one entry",
        module: "top_prq_queue_cam_level",
        patches: &[("wire ins = insert & ~full_q;", "wire ins = insert & ~full_q & (used != 1);")],
    },
    Mutation {
        harness: Harness::Engine,
        name: "flush leaves entries",
        what: "a flush resets the UMQ but not the PRQ",
        module: "top",
        patches: &[("prq_queue_reset = clear_queues;", "prq_queue_reset = reset;")],
    },
    Mutation {
        harness: Harness::Engine,
        name: "reset drops a command",
        what: "a command taken in a reset cycle is dropped without an answer (the engine before the fix)",
        module: "top",
        patches: &[("c_valid_d = cmd_valid & cmd_ready;", "c_valid_d = 1'b0;")],
    },
    Mutation {
        harness: Harness::Completion,
        name: "wake-up one match early",
        what: "a parked wait is woken by the match before the one that reaches its count",
        module: "top",
        patches: &[(
            "wake_diff = p_class_count + one32 - w_count_q;",
            "wake_diff = p_class_count + one32 + one32 - w_count_q;",
        )],
    },
    Mutation {
        harness: Harness::Labels,
        name: "labels compared without the wrap",
        what: "the PRQ's lists take the smaller label as the older, as plain numbers",
        module: "top_prq_queue_lists",
        patches: &[("older = d[31];", "older = a < b;")],
    },
    Mutation {
        harness: Harness::OneSided,
        name: "FIN one request early",
        what: "window 0's flush is answered when all but one of its requests have completed",
        module: "top",
        patches: &[(
            "if (flush_wait_0_q & (completed_next_0 == flush_target_0_q)) begin",
            "if (flush_wait_0_q & (completed_next_0 + one == flush_target_0_q)) begin",
        )],
    },
];

impl Mutation {
    /// `verilog` with this bug written in, or an error naming the pattern not found.
    pub fn apply(&self, verilog: &str) -> Result<String, String> {
        let header = format!("module {}(", self.module);
        let start = verilog
            .find(&header)
            .ok_or_else(|| format!("mutation `{}`: no module {}", self.name, self.module))?;
        let end = verilog[start..]
            .find("endmodule")
            .map(|e| start + e)
            .ok_or_else(|| format!("mutation `{}`: module {} has no endmodule", self.name, self.module))?;
        let mut body = verilog[start..end].to_string();
        for (text, replacement) in self.patches {
            if !body.contains(text) {
                return Err(format!(
                    "mutation `{}`: `{text}` is not in module {} (the generator changed: update the \
                     mutation's pattern)",
                    self.name, self.module
                ));
            }
            body = body.replace(text, replacement);
        }
        Ok(format!("{}{body}{}", &verilog[..start], &verilog[end..]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mutation_changes_only_its_module_and_refuses_a_missing_pattern() {
        let v = "module top(a);\nassign x = prq_queue_reset = clear_queues;\nendmodule\n\
                 module other(a);\nprq_queue_reset = clear_queues;\nendmodule\n";
        let flush = MUTATIONS.iter().find(|m| m.name == "flush leaves entries").unwrap();
        let out = flush.apply(v).unwrap();
        assert!(out.contains("module top(a);\nassign x = prq_queue_reset = reset;"));
        assert!(out.contains("module other(a);\nprq_queue_reset = clear_queues;"), "{out}");
        let err = MUTATIONS[0].apply(v).unwrap_err();
        assert!(err.contains("no module top_prq_queue_cam_level"), "{err}");
        let err = flush.apply("module top(a);\nendmodule\n").unwrap_err();
        assert!(err.contains("is not in module top"), "{err}");
    }
}
