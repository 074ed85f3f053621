//! L1 set conflicts of a tile's walks: how unevenly the lines one pass of
//! the inner point loops touches spread over the L1 data cache's sets.
//!
//! The traffic estimate ([`super::traffic`]) treats a cache as fully
//! associative. An L1 is not: it is virtually indexed, so its set comes
//! from the address bits inside a page, and a walk down a column whose rows
//! lie a multiple of 4 KiB apart lands every line in one set. syrk at
//! N = 1536, M = 1792 (rows 14336 bytes apart) maps a 32-row column of `A`
//! into 2 of the 64 sets of an 8-way L1: each set is asked to hold 16
//! lines, so the column is reloaded for every step of `k` and tile 32 ran
//! at half of Pluto's speed on Zen 3, while N = 1200, M = 1500 did not.
//! These sizes are rare among random extents and common in users' code
//! (powers of two), so a model needs the arithmetic handed to it.
//!
//! The estimate, per distinct reference of the dominant statement: the
//! subscripts sweep a box of values over the walk (each subscript its range
//! from the members the walk advances); every row of that box (all but the
//! last subscript) is a contiguous run of elements at the array's real row
//! pitch at this instance. The lines of those runs are counted per set.
//! Array bases are taken page-aligned, and references to different arrays
//! (whose relative placement the allocator decides) are not combined.

/// Bytes of the page that indexes a virtually indexed L1: its sets are
/// `PAGE / line` (64 on every x86 core with 64-byte lines) and its ways
/// `l1d / PAGE` (8 for 32 KiB, 12 for 48 KiB).
pub const PAGE: u64 = 4096;

/// Lines beyond which a walk is not enumerated: its footprint is then many
/// times the L1, whose capacity (not its sets) decides.
const MAX_LINES: usize = 1 << 16;

/// The L1 as the estimate sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct L1 {
    pub sets: u64,
    pub ways: u64,
    pub line: u64,
}

impl L1 {
    pub fn of(l1d: u64, line: u64) -> L1 {
        let line = line.max(1);
        L1 { sets: (PAGE / line).max(1), ways: (l1d / PAGE).max(1), line }
    }
}

/// One reference's walk: per subscript, its step per band member; per
/// subscript, the bytes between consecutive values (the last is the element
/// size); per member, the values the walk gives it (1 for members it does
/// not advance).
pub struct Walk<'a> {
    pub spans: &'a [Vec<f64>],
    pub pitches: &'a [u64],
    pub ranges: &'a [f64],
}

/// The fraction of a repeated walk's lines that the L1's sets evict and a
/// fully associative cache of the same size would keep. Walked again and
/// again (the next loop out repeats it), a set asked to hold more lines
/// than it has ways loses all of them under LRU, and a cache asked to hold
/// more than its capacity loses everything: so this is the lines of
/// overfull sets, less all lines when the walk outgrows the L1 anyway, over
/// the lines. 1 for syrk's column above, 0 when capacity alone decides.
pub fn excess(walk: &Walk, l1: L1) -> f64 {
    let Some(lines) = lines(walk, l1.line) else { return 0.0 };
    if lines.is_empty() {
        return 0.0;
    }
    let mut load = vec![0u64; l1.sets as usize];
    for l in &lines {
        load[(l % l1.sets) as usize] += 1;
    }
    let n = lines.len() as u64;
    let by_sets: u64 = load.iter().filter(|&&x| x > l1.ways).sum();
    let by_capacity = if n > l1.sets * l1.ways { n } else { 0 };
    by_sets.saturating_sub(by_capacity) as f64 / n as f64
}

/// The distinct line indices of a walk, page-aligned base; `None` when
/// there are more than [`MAX_LINES`].
fn lines(walk: &Walk, line: u64) -> Option<Vec<u64>> {
    let (last, outer) = walk.spans.split_last()?;
    let range = |per: &Vec<f64>| {
        let r = 1.0 + per.iter().zip(walk.ranges).map(|(s, r)| s * (r - 1.0).max(0.0)).sum::<f64>();
        r.round().max(1.0) as u64
    };
    let run_bytes = range(last) * walk.pitches.last().copied().unwrap_or(8);
    let outer_ranges: Vec<u64> = outer.iter().map(range).collect();
    let rows: u64 = outer_ranges.iter().product();
    let per_row = run_bytes.div_ceil(line) + 1;
    if rows.saturating_mul(per_row) > MAX_LINES as u64 {
        return None;
    }
    let mut out = Vec::new();
    let mut index = vec![0u64; outer_ranges.len()];
    for _ in 0..rows {
        let start: u64 = index.iter().zip(walk.pitches).map(|(v, p)| v * p).sum();
        out.extend(start / line..=(start + run_bytes - 1) / line);
        // Next row of the box, last outer subscript fastest.
        for (v, r) in index.iter_mut().zip(&outer_ranges).rev() {
            *v += 1;
            if *v < *r {
                break;
            }
            *v = 0;
        }
    }
    out.sort_unstable();
    out.dedup();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ZEN: L1 = L1 { sets: 64, ways: 8, line: 64 };

    /// `A[j][k]` walked along `j` (member 0) for `rows` rows, `k` fixed.
    fn column(rows: f64, pitch: u64) -> f64 {
        let spans = vec![vec![1.0, 0.0], vec![0.0, 1.0]];
        excess(&Walk { spans: &spans, pitches: &[pitch, 8], ranges: &[rows, 1.0] }, ZEN)
    }

    #[test]
    fn l1_geometry_follows_the_page() {
        assert_eq!(L1::of(32 << 10, 64), ZEN);
        assert_eq!(L1::of(48 << 10, 64).ways, 12);
    }

    #[test]
    fn syrks_column_at_m_1792_overflows_its_two_sets() {
        // Rows 14336 bytes apart: 224 lines, alternating between 2 sets.
        assert_eq!(column(32.0, 1792 * 8), 1.0);
        assert_eq!(column(128.0, 1792 * 8), 1.0);
        // 16 rows fill those sets' 8 ways exactly: no excess.
        assert_eq!(column(16.0, 1792 * 8), 0.0);
        // Rows 1 KiB apart: 4 sets; 40 rows put 10 lines in each.
        assert_eq!(column(40.0, 1024), 1.0);
        // Rows 512 bytes apart cycle through 8 sets: 64 rows fill them, 72 overflow.
        assert_eq!(column(64.0, 512), 0.0);
        assert_eq!(column(72.0, 512), 1.0);
        // Rows 2 KiB + 64 bytes apart step through every set.
        assert_eq!(column(256.0, 2048 + 64), 0.0);
    }

    #[test]
    fn a_column_longer_than_the_l1_is_left_to_capacity() {
        // 1536 rows: 1536 lines, beyond 512 whatever the pitch.
        assert_eq!(column(1536.0, 1792 * 8), 0.0);
    }

    #[test]
    fn odd_pitches_spread_a_column_over_the_sets() {
        assert_eq!(column(32.0, 1500 * 8), 0.0);
        assert_eq!(column(64.0, 1001 * 8), 0.0);
    }

    #[test]
    fn a_row_walk_never_conflicts() {
        // A[i][k] along k: one contiguous run.
        let spans = vec![vec![1.0, 0.0], vec![0.0, 1.0]];
        let w = Walk { spans: &spans, pitches: &[1024 * 8, 8], ranges: &[1.0, 512.0] };
        assert_eq!(excess(&w, ZEN), 0.0);
    }

    #[test]
    fn a_block_whose_rows_share_sets_overflows_and_a_huge_one_is_left_to_capacity() {
        // B[k][j], 32 rows of 64 elements (8 lines each), rows 8 KiB apart:
        // 32 lines per set in 8 sets, where 256 lines fit in 512.
        let spans = vec![vec![1.0, 0.0], vec![0.0, 1.0]];
        let w = Walk { spans: &spans, pitches: &[1024 * 8, 8], ranges: &[32.0, 64.0] };
        assert_eq!(excess(&w, ZEN), 1.0);
        // 8 such rows fill those 8 sets exactly.
        let w = Walk { spans: &spans, pitches: &[1024 * 8, 8], ranges: &[8.0, 64.0] };
        assert_eq!(excess(&w, ZEN), 0.0);
        let huge = Walk { spans: &spans, pitches: &[1024 * 8, 8], ranges: &[4096.0, 4096.0] };
        assert_eq!(excess(&huge, ZEN), 0.0);
    }

    #[test]
    fn a_scalar_or_empty_walk_is_zero() {
        assert_eq!(excess(&Walk { spans: &[], pitches: &[], ranges: &[] }, ZEN), 0.0);
    }
}
