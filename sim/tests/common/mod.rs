//! What the trace tests share: where the shared traces are, and reading one of them.

use std::path::PathBuf;

/// `../shared/traces` beside the checkout, or `$TAGMATCH_TRACES`.
pub fn traces() -> PathBuf {
    std::env::var_os("TAGMATCH_TRACES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/traces"))
}

/// The bytes of a shared trace file, by its path under the traces folder.
pub fn read(rel: &str) -> Vec<u8> {
    let p = traces().join(rel);
    std::fs::read(&p)
        .unwrap_or_else(|e| panic!("{}: {e} (the shared traces must be beside the checkout)", p.display()))
}
