//! How a tile's references stream through memory: what neither the caches'
//! capacity ([`super::traffic`]) nor their sets ([`super::conflict`]) decide.
//!
//! Held out by kernel family, the first pick's worst misses were streaming
//! 2-D nests (`A[i][j] += B[j]` walked at NI = 3506, NJ = 3219): every tile
//! loads each element once, so the traffic estimate cannot tell tiles apart,
//! yet `1024x16:1x8` ran 1.37x faster than `720x720:1x4` and 2.3x faster
//! than `1024x256` unrolled by nothing. Three things separate them:
//! - **streams**: the rows one pass of the innermost point loop walks at
//!   once, unrolled copies included. A hardware prefetcher follows a few
//!   dozen of them, and a single stream leaves memory bandwidth unused;
//! - **runs**: the contiguous bytes of each row. A prefetcher restarts at
//!   every row and a short run never reaches full speed;
//! - **pages**: the 4 KiB pages one whole tile touches, against a first-level
//!   data TLB of 64 entries.
//!
//! Each is counted on the box of subscript values a walk sweeps, as in
//! [`super::conflict`], at the arrays' real row pitches.

use super::conflict::{PAGE, Walk};

/// One reference's walk as memory sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Footprint {
    /// Distinct rows (values of every subscript but the last).
    pub rows: f64,
    /// Contiguous bytes per row.
    pub run_bytes: f64,
    /// 4 KiB pages the box touches.
    pub pages: f64,
}

/// The footprint of a walk; `None` for a scalar (no subscripts).
pub fn footprint(walk: &Walk) -> Option<Footprint> {
    let ranges: Vec<f64> = walk
        .spans
        .iter()
        .map(|per| 1.0 + per.iter().zip(walk.ranges).map(|(s, r)| s.abs() * (r - 1.0).max(0.0)).sum::<f64>())
        .collect();
    let (&last, outer) = ranges.split_last()?;
    let element = walk.pitches.last().copied().unwrap_or(8) as f64;
    let rows: f64 = outer.iter().product();
    let run_bytes = last * element;
    // Bytes from the box's first element to its last: rows closer than a
    // page share pages, rows farther apart each start their own.
    let span: f64 = ranges.iter().zip(walk.pitches).map(|(r, &p)| (r - 1.0) * p as f64).sum::<f64>() + element;
    let page = PAGE as f64;
    let pages = (rows * (run_bytes / page).ceil()).min((span / page).ceil() + 1.0).max(1.0);
    Some(Footprint { rows, run_bytes, pages })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `A[i][j]` (members i, j) with rows `pitch` bytes apart.
    fn a(ranges: [f64; 2], pitch: u64, element: u64) -> Footprint {
        let spans = vec![vec![1.0, 0.0], vec![0.0, 1.0]];
        footprint(&Walk { spans: &spans, pitches: &[pitch, element], ranges: &ranges }).unwrap()
    }

    #[test]
    fn a_row_walk_is_one_stream_of_contiguous_pages() {
        let f = a([1.0, 1024.0], 3219 * 4, 4);
        assert_eq!((f.rows, f.run_bytes, f.pages), (1.0, 4096.0, 1.0));
    }

    #[test]
    fn unrolled_rows_are_streams_and_far_rows_their_own_pages() {
        // 8 rows of 1024 floats, rows 12.6 KB apart.
        let f = a([8.0, 1024.0], 3219 * 4, 4);
        assert_eq!((f.rows, f.run_bytes, f.pages), (8.0, 4096.0, 8.0));
        // A 720x720 tile touches a page per row; 16 rows of 1024, 16.
        assert_eq!(a([720.0, 720.0], 3219 * 4, 4).pages, 720.0);
        assert_eq!(a([16.0, 1024.0], 3219 * 4, 4).pages, 16.0);
    }

    #[test]
    fn close_rows_share_pages() {
        // 64 rows of 8 doubles, rows 512 bytes apart: 32 KiB, 8 or 9 pages.
        let f = a([64.0, 8.0], 512, 8);
        assert_eq!(f.rows, 64.0);
        assert!(f.pages <= 9.0, "{f:?}");
    }

    #[test]
    fn a_column_walk_is_one_element_per_row() {
        let f = a([256.0, 1.0], 4096, 8);
        assert_eq!((f.rows, f.run_bytes, f.pages), (256.0, 8.0, 256.0));
    }

    #[test]
    fn a_scalar_has_no_footprint() {
        assert_eq!(footprint(&Walk { spans: &[], pitches: &[], ranges: &[] }), None);
    }
}
