//! The published trace analyzer's bin hash (ecn-aau/MPI-tgmtch-analyzer), so that
//! `trace stats --hash analyzer` reproduces its bin counts figure for figure.
//!
//! The analyzer hashes a posted receive's (source, tag, communicator) as three
//! little-endian `u32`s (12 bytes; a wildcard field is 0, the communicator is the trace's
//! handle number, 2 for `MPI_COMM_WORLD`) with Pearson's 8-bit hash, two bytes per round,
//! and takes the bin as the hash modulo the bin count. The permutation is the one Pearson
//! published (CACM 33(6), 1990), which the analyzer uses; it is data, needed as is for the
//! figures to agree. With at most 256 distinct hash values, more than 256 bins add nothing.

/// Pearson's published permutation of 0..=255.
const PERMUTATION: [u8; 256] = [
    1, 87, 49, 12, 176, 178, 102, 166, 121, 193, 6, 84, 249, 230, 44, 163, 14, 197, 213, 181, 161, 85, 218,
    80, 64, 239, 24, 226, 236, 142, 38, 200, 110, 177, 104, 103, 141, 253, 255, 50, 77, 101, 81, 18, 45, 96,
    31, 222, 25, 107, 190, 70, 86, 237, 240, 34, 72, 242, 20, 214, 244, 227, 149, 235, 97, 234, 57, 22, 60,
    250, 82, 175, 208, 5, 127, 199, 111, 62, 135, 248, 174, 169, 211, 58, 66, 154, 106, 195, 245, 171, 17,
    187, 182, 179, 0, 243, 132, 56, 148, 75, 128, 133, 158, 100, 130, 126, 91, 13, 153, 246, 216, 219, 119,
    68, 223, 78, 83, 88, 201, 99, 122, 11, 92, 32, 136, 114, 52, 10, 138, 30, 48, 183, 156, 35, 61, 26, 143,
    74, 251, 94, 129, 162, 63, 152, 170, 7, 115, 167, 241, 206, 3, 150, 55, 59, 151, 220, 90, 53, 23, 131,
    125, 173, 15, 238, 79, 95, 89, 16, 105, 137, 225, 224, 217, 160, 37, 123, 118, 73, 2, 157, 46, 116, 9,
    145, 134, 228, 207, 212, 202, 215, 69, 229, 27, 188, 67, 124, 168, 252, 42, 4, 29, 108, 21, 247, 19, 205,
    39, 203, 233, 40, 186, 147, 198, 192, 155, 33, 164, 191, 98, 204, 165, 180, 117, 76, 140, 36, 210, 172,
    41, 54, 159, 8, 185, 232, 113, 196, 231, 47, 146, 120, 51, 65, 28, 144, 254, 221, 93, 189, 194, 139, 112,
    43, 71, 109, 184, 209,
];

/// Pearson's hash of `bytes` taken two at a time, as the analyzer computes it for its
/// 12-byte keys (an odd trailing byte gets one more round).
fn pearson(bytes: &[u8]) -> u8 {
    let mut h = 0u8;
    let mut pairs = bytes.chunks_exact(2);
    for pair in &mut pairs {
        let next = PERMUTATION[(h ^ pair[0]) as usize];
        h = PERMUTATION[(next ^ pair[1]) as usize];
    }
    if let [last] = pairs.remainder() {
        h = PERMUTATION[(h ^ last) as usize];
    }
    h
}

/// The analyzer's bin for a receive on communicator handle `comm` (`None`: a wildcard).
pub fn analyzer_bin(src: Option<u32>, tag: Option<u32>, comm: u32, bins: usize) -> usize {
    let mut key = [0u8; 12];
    key[0..4].copy_from_slice(&src.unwrap_or(0).to_le_bytes());
    key[4..8].copy_from_slice(&tag.unwrap_or(0).to_le_bytes());
    key[8..12].copy_from_slice(&comm.to_le_bytes());
    pearson(&key) as usize % bins.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_permutation_is_one() {
        let mut seen = [false; 256];
        for &v in &PERMUTATION {
            assert!(!seen[v as usize]);
            seen[v as usize] = true;
        }
    }

    #[test]
    fn keys_hash_to_the_analyzers_bins() {
        // Values computed by running the analyzer's own hash on these keys.
        assert_eq!(analyzer_bin(Some(1), Some(0), 2, 256), 79);
        assert_eq!(analyzer_bin(Some(0), Some(0), 2, 256), 117);
        assert_eq!(analyzer_bin(Some(26), Some(0), 2, 256), 244);
        assert_eq!(analyzer_bin(Some(26), Some(0), 2, 16), 244 % 16);
        assert_eq!(analyzer_bin(None, Some(0), 2, 1), 0);
    }
}
