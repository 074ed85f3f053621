//! Register tiles and tile shapes around T6-Search's pick.
//!
//! A cubic model ranks plain cubic tiles; the corpus model ranks register
//! tiles and shapes too, but its sizes are off on a CPU it never saw. The
//! fastest code needs unroll-and-jam of the point loops (the register tile)
//! and a tile size per dimension (README, "Register tiles"). T6-Search
//! measures anyway, so it spends a few more measurements on a local search
//! that starts from its pick:
//! 1. the register tiles this machine's vector registers can hold, on the
//!    two point loops just outside the vector loop;
//! 2. then, greedily, every tile dimension doubled or halved around the
//!    best so far, for as long as a step gains and the budget lasts. Each of
//!    these rounds also tries the best so far with the register tile
//!    toggled (the fastest unroll list timed, or none), since a register tile
//!    that loses at one tile size can win at another (syr2k's does at 32);
//!    and, where the band can sink a parallel member below its inner loops,
//!    with the other loop order ([`Config::sink`]), from the first round on.
//!
//! 3. last, the best so far in the other loop forms ([`Config::form`]): the
//!    same loops spelled as gcc may compile faster (on the Zen 4, syr2k's
//!    reduction at tile 128 ran 10 % faster in Pluto's spelling). The last
//!    [`FORM_RESERVE`] measurements of a budget are kept for them.
//!
//! Halving or doubling every dimension at once first, for a start that is a
//! register tile already, was tried and not kept: timed live on 118
//! instances it gained nothing (README, "Live searches").
//!
//! Measurements are noisy, so a step must gain [`MIN_GAIN`] to move the
//! search on; the final pick is still the fastest configuration timed.

use crate::poly::tile::Orders;
use crate::{Config, Form};

/// A step is taken only when it is at least this much faster (1 %).
pub const MIN_GAIN: f64 = 0.99;

/// Measurements kept for the other loop forms of the search's answer, in
/// budgets of more than twice as many.
pub const FORM_RESERVE: usize = 2;

/// Smallest tile a shape move makes.
const MIN_TILE: usize = 8;

/// What the search may change: the hot band's shape and the machine.
#[derive(Clone, Debug)]
pub struct Space {
    /// Tile-size macros of the SCoP (`TSS_T1..TSS_Td`).
    pub dims: usize,
    /// Intra-tile orders of the hot band; the last member of each is the
    /// vector loop, which is never unrolled.
    pub orders: Orders,
    /// Whether [`Config::pack`] changes the code.
    pub can_pack: bool,
    /// Whether a vector register tile ([`Config::vector`]) changes the code
    /// (false unless the caller found out: it takes code generation).
    pub can_vector: bool,
    /// Vector registers of the ISA (16 on AVX2, 32 on AVX-512): how many
    /// accumulators and broadcasts a register tile may hold.
    pub vector_regs: usize,
    /// Largest tile a shape move makes (beyond the longest loop it changes nothing).
    pub max_tile: usize,
}

impl Space {
    /// The space of `a`'s hot band (its deepest tiled band, the first of
    /// equals: gemm's product, not the scaling that runs before it) on a
    /// machine with `vector_regs` vector registers; `None` without a tiled
    /// band.
    pub fn of(a: &crate::Analysis, vector_regs: usize, max_tile: usize) -> Option<Space> {
        let band = a.report.bands.iter().filter(|b| b.tiled).rev().max_by_key(|b| b.members.len())?;
        Some(Space {
            dims: a.tile_dims(),
            orders: band.orders.clone(),
            can_pack: a.can_pack(&Config::default()),
            can_vector: false,
            vector_regs,
            max_tile,
        })
    }

    /// Intra-tile order of the code of config `c`.
    pub fn order(&self, c: &Config) -> &[usize] {
        self.orders.for_config(c.sink, c.pack)
    }
}

/// One configuration timed by the search, with its median seconds (`None`:
/// it did not compile or run correctly).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Tried {
    pub config: Config,
    pub seconds: Option<f64>,
}

/// The register tiles to try at `base`'s tile sizes, most promising first:
/// unroll factors for the point loop just outside the vector loop (`a`) and
/// the one outside it (`b`), whose product stays within the vector
/// registers (each copy of the vector loop's body needs an accumulator).
pub fn register_tiles(base: &Config, space: &Space) -> Vec<Config> {
    let order = space.order(base);
    let d = order.len();
    if d < 2 {
        return Vec::new();
    }
    let a = order[d - 2];
    let tiles = base.tiles_for(space.dims);
    // A member one iteration long (a skinny dimension) cannot be unrolled:
    // the register tile then lies on `a` alone.
    let b = (d >= 3).then(|| order[d - 3]).filter(|&b| tiles[b] >= 2);
    let pairs: &[(usize, usize)] = match b {
        Some(_) => &[(4, 4), (2, 4), (4, 2), (8, 4), (4, 8)],
        None => &[(1, 4), (1, 8), (1, 2)],
    };
    pairs
        .iter()
        .filter(|&&(fb, fa)| fb * fa <= space.vector_regs)
        .map(|&(fb, fa)| {
            let mut unroll = vec![1; space.dims];
            unroll[a] = fa;
            if let Some(b) = b {
                unroll[b] = fb;
            }
            Config { tiles: tiles.clone(), unroll, ..base.clone() }
        })
        .filter(|c| (0..space.dims).all(|k| c.unroll(k) <= c.tile(k)))
        .collect()
}

/// `base` with one tile dimension doubled or halved, the vector loop's
/// dimension first (its tile sets the length of the stride-1 runs). Halving
/// stops at [`MIN_TILE`] and at twice the dimension's unroll factor, so the
/// register tile still fits.
pub fn shape_moves(base: &Config, space: &Space) -> Vec<Config> {
    let tiles = base.tiles_for(space.dims);
    let unroll: Vec<usize> = (0..space.dims).map(|k| base.unroll(k)).collect();
    let with = |k: usize, t: usize| {
        let mut tiles = tiles.clone();
        tiles[k] = t;
        Config { tiles, unroll: if base.is_unrolled() { unroll.clone() } else { Vec::new() }, ..base.clone() }
    };
    let point_order = space.order(base);
    let mut order: Vec<usize> = point_order.iter().rev().copied().collect();
    order.extend((0..space.dims).filter(|k| !point_order.contains(k)));
    let mut out = Vec::new();
    for k in order {
        let t = tiles[k];
        if t * 2 <= space.max_tile {
            out.push(with(k, t * 2));
        }
        if t / 2 >= MIN_TILE.max(2 * unroll[k]) {
            out.push(with(k, t / 2));
        }
    }
    out
}

/// The local search: `start` (timed at `start_seconds`) and at most
/// `budget` more configurations, timed in batches by `measure` (one result
/// per config, in order). Returns everything timed, `start` first.
pub fn search(
    start: Config,
    start_seconds: f64,
    budget: usize,
    space: &Space,
    mut measure: impl FnMut(&[Config]) -> Vec<Option<f64>>,
) -> Vec<Tried> {
    let mut tried = vec![Tried { config: start.clone(), seconds: Some(start_seconds) }];
    let (mut best, mut best_s) = (start.clone(), start_seconds);
    let mut batch: Vec<Config> = register_tiles(&start, space)
        .into_iter()
        .take(if space.can_vector { 3 } else { usize::MAX })
        .chain(vector_tiles(&start, space).into_iter().take(2))
        .chain(sink_toggled(&start, space))
        .chain(pack_toggled(&start, space))
        .collect();
    let reserve = if budget > 2 * FORM_RESERVE { FORM_RESERVE } else { 0 };
    for round in 0.. {
        let left = (budget - reserve).saturating_sub(tried.len() - 1);
        batch.retain(|c| tried.iter().all(|t| canonical(&t.config, space) != canonical(c, space)));
        batch.truncate(left);
        if batch.is_empty() {
            break;
        }
        let times = measure(&batch);
        let mut moved = false;
        for (c, s) in batch.iter().zip(times) {
            if let Some(s) = s
                && s < best_s * MIN_GAIN
            {
                (best, best_s, moved) = (c.clone(), s, true);
            }
            tried.push(Tried { config: c.clone(), seconds: s });
        }
        // The register round always goes on to shapes; a shape round only
        // when it gained.
        if round > 0 && !moved {
            break;
        }
        batch = toggled(&best, &tried)
            .into_iter()
            .chain(vector_toggled(&best, &tried, space))
            .chain(sink_toggled(&best, space))
            .chain(pack_toggled(&best, space))
            .chain(shape_moves(&best, space))
            .collect();
    }
    let left = budget.saturating_sub(tried.len() - 1);
    let forms: Vec<Config> =
        Form::ALL.iter().filter(|&&f| f != best.form).map(|&f| best.with_form(f)).take(left).collect();
    if !forms.is_empty() {
        let times = measure(&forms);
        tried.extend(forms.into_iter().zip(times).map(|(config, seconds)| Tried { config, seconds }));
    }
    tried
}

/// `best` with its register tile toggled: without unrolling when it has
/// one, else with the unroll list of the fastest unrolled config timed.
fn toggled(best: &Config, tried: &[Tried]) -> Option<Config> {
    if best.is_unrolled() {
        return Some(best.without_unroll());
    }
    let unrolled: Vec<Tried> = tried.iter().filter(|t| t.config.is_unrolled()).cloned().collect();
    let fastest = fastest(&unrolled)?;
    Some(Config { unroll: fastest.config.unroll.clone(), ..best.clone() })
}

/// Vector register tiles ([`Config::vector`]) at `base`'s tile sizes,
/// packed where packing changes the code (the micro-kernel wants the other
/// operand stride-1): rows on the point loop outside the reduction, by
/// vectors, most promising first, within the vector registers (each row and
/// vector an accumulator, plus a load per vector and a broadcast).
pub fn vector_tiles(base: &Config, space: &Space) -> Vec<Config> {
    if !space.can_vector {
        return Vec::new();
    }
    let base = base.with_pack(space.can_pack);
    let order = space.order(&base);
    let d = order.len();
    let tiles = base.tiles_for(space.dims);
    let rows = (d >= 3).then(|| order[d - 3]).filter(|&b| tiles[b] >= 2);
    let shapes: &[(usize, usize)] = match rows {
        Some(_) => &[(8, 2), (4, 3), (6, 2), (4, 2), (4, 4), (12, 2)],
        None => &[(1, 4), (1, 2)],
    };
    shapes
        .iter()
        .filter(|&&(r, g)| r * g + g < space.vector_regs && rows.is_none_or(|b| r <= tiles[b]))
        .map(|&(r, g)| {
            let mut unroll = vec![1; space.dims];
            if let Some(b) = rows {
                unroll[b] = r;
            }
            Config { tiles: tiles.clone(), unroll, vector: g, ..base.clone() }
        })
        .collect()
}

/// `best` with a vector register tile (the fastest one timed) when it has
/// none, or without one (and without unrolling) when it has one.
fn vector_toggled(best: &Config, tried: &[Tried], space: &Space) -> Option<Config> {
    if !space.can_vector {
        return None;
    }
    if best.vector > 0 {
        return Some(best.without_unroll().with_vector(0));
    }
    let vectors: Vec<Tried> = tried.iter().filter(|t| t.config.vector > 0).cloned().collect();
    let f = &fastest(&vectors)?.config;
    Some(Config { tiles: best.tiles.clone(), ..f.clone() })
}

/// `best` with the other loop order of a band that can sink a member
/// ([`Config::sink`]), with the first register tile of that order when
/// `best` is unrolled (the unrolled loops differ between the orders).
fn sink_toggled(best: &Config, space: &Space) -> Option<Config> {
    space.orders.sunk.as_ref()?;
    let other = best.without_unroll().with_sink(!best.sink);
    if best.is_unrolled() { register_tiles(&other, space).into_iter().next().or(Some(other)) } else { Some(other) }
}

/// `best` packed, or unpacked ([`Config::pack`]), where packing changes the
/// code. When the loop order changes with it and `best` is unrolled, the
/// first register tile of the new order replaces `best`'s.
fn pack_toggled(best: &Config, space: &Space) -> Option<Config> {
    if !space.can_pack {
        return None;
    }
    let other = best.with_pack(!best.pack);
    if !best.is_unrolled() || space.order(&other) == space.order(best) {
        return Some(other);
    }
    let plain = other.without_unroll();
    register_tiles(&plain, space).into_iter().next().or(Some(plain))
}

/// The fastest of `tried` (the search's answer).
pub fn fastest(tried: &[Tried]) -> Option<&Tried> {
    tried.iter().filter(|t| t.seconds.is_some()).min_by(|a, b| a.seconds.unwrap().total_cmp(&b.seconds.unwrap()))
}

/// The config written out per dimension, without the vector loop's unroll
/// factor (ignored by codegen), so equal code compares equal.
fn canonical(c: &Config, space: &Space) -> (Vec<usize>, Vec<usize>, bool, bool, usize, Form) {
    let vector = space.order(c).last().copied();
    let unroll = (0..space.dims).map(|k| if Some(k) == vector { 1 } else { c.unroll(k) }).collect();
    let groups = if space.can_vector { c.vector } else { 0 };
    (c.tiles_for(space.dims), unroll, c.sink || space.orders.sunk.is_none(), c.pack && space.can_pack, groups, c.form)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gemm_like() -> Space {
        // Members i, j, k tiled; intra-tile order i, k, j (j stride-1).
        Space {
            dims: 3,
            orders: Orders::only(vec![0, 2, 1]),
            can_pack: false,
            can_vector: false,
            vector_regs: 16,
            max_tile: 2048,
        }
    }

    #[test]
    fn the_hot_band_is_the_deepest_not_the_scaling_run_before_it() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("polybench/linear-algebra/gemm.c");
        let a = crate::analyze(&path, &std::fs::read_to_string(&path).unwrap(), false).unwrap();
        assert_eq!(a.report.bands[0].members.len(), 2, "C *= beta runs first");
        assert_eq!(Space::of(&a, 32, usize::MAX).unwrap().orders.plain, [0, 2, 1]);
    }

    #[test]
    fn register_tiles_unroll_the_loops_outside_the_vector_loop() {
        let r = register_tiles(&Config::cubic(128), &gemm_like());
        assert_eq!(r[0].to_string(), "128x128x128:4x1x4");
        assert!(r.iter().all(|c| c.unroll(1) == 1), "the vector loop j is never unrolled");
        assert!(r.iter().all(|c| c.unroll(0) * c.unroll(2) <= 16));
        let wide = Space { vector_regs: 32, ..gemm_like() };
        assert!(register_tiles(&Config::cubic(128), &wide).iter().any(|c| c.unroll(0) * c.unroll(2) == 32));
        // Unroll factors never exceed the tile.
        assert!(register_tiles(&Config::cubic(4), &gemm_like()).iter().all(|c| c.unroll(0) <= 4 && c.unroll(2) <= 4));
        // A one-iteration outer member leaves the register tile to the other.
        let skinny = register_tiles(&"1x128x128".parse().unwrap(), &gemm_like());
        assert!(!skinny.is_empty() && skinny.iter().all(|c| c.unroll(0) == 1 && c.unroll(2) > 1), "{skinny:?}");
    }

    #[test]
    fn vector_tiles_take_rows_outside_the_reduction_within_the_registers() {
        let space = Space { can_vector: true, ..gemm_like() };
        let v = vector_tiles(&Config::cubic(128), &space);
        // Order i, k, j: rows on i (member 0), the reduction k runs inside.
        assert_eq!(v[0].to_string(), "128x128x128:4x1x1/v3");
        assert!(v.iter().all(|c| c.unroll(0) * c.vector + c.vector < 16 && c.unroll(2) == 1), "{v:?}");
        let wide = Space { vector_regs: 32, ..space.clone() };
        assert_eq!(vector_tiles(&Config::cubic(128), &wide)[0].to_string(), "128x128x128:8x1x1/v2");
        assert!(vector_tiles(&Config::cubic(4), &wide).iter().all(|c| c.unroll(0) <= 4));
        assert!(vector_tiles(&Config::cubic(128), &gemm_like()).is_empty(), "only where codegen makes one");
        // The search tries them, and toggles them on its best.
        let tried = search(Config::cubic(64), 1.0, 12, &wide, |cs| {
            cs.iter().map(|c| Some(if c.vector > 0 { 0.5 } else { 1.0 })).collect()
        });
        assert!(fastest(&tried).unwrap().config.vector > 0, "{tried:?}");
    }

    #[test]
    fn shape_moves_double_and_halve_each_dimension_vector_first() {
        let m = shape_moves(&"64:4x1x4".parse().unwrap(), &gemm_like());
        let s: Vec<String> = m.iter().map(|c| c.to_string()).collect();
        assert_eq!(s[..2], ["64x128x64:4x1x4".to_string(), "64x32x64:4x1x4".to_string()]);
        assert_eq!(m.len(), 6);
        let small = shape_moves(&"8:4x1x4".parse().unwrap(), &gemm_like());
        assert!(small.iter().all(|c| c.tiles_for(3).iter().all(|&t| t >= 8)));
    }

    /// A synthetic cost with its optimum at 64x256x128:4x1x4, reachable by
    /// single steps from 128: the search must get there within its budget.
    #[test]
    fn search_climbs_to_a_better_shape_and_stays_in_budget() {
        let space = gemm_like();
        let cost = |c: &Config| {
            let t = c.tiles_for(3);
            let shape = (t[0] as f64 / 64.0).log2().abs()
                + (t[1] as f64 / 256.0).log2().abs()
                + (t[2] as f64 / 128.0).log2().abs();
            let reg = if c.unroll(0) == 4 && c.unroll(2) == 4 { 1.0 } else { 2.0 };
            reg * (1.0 + 0.2 * shape)
        };
        let mut calls = 0;
        let tried = search(Config::cubic(128), cost(&Config::cubic(128)), 20, &space, |cs| {
            calls += 1;
            cs.iter().map(|c| Some(cost(c))).collect()
        });
        assert!(tried.len() <= 21);
        assert_eq!(fastest(&tried).unwrap().config.to_string(), "64x256x128:4x1x4");
        assert!(calls >= 3);
        // No config is timed twice.
        for (i, a) in tried.iter().enumerate() {
            assert!(tried[i + 1..].iter().all(|b| canonical(&a.config, &space) != canonical(&b.config, &space)));
        }
    }

    /// A register tile that loses at the start's size but wins at a smaller
    /// one (syr2k on Zen 3): the toggle finds it after a shape step.
    #[test]
    fn register_tiles_are_retried_after_a_shape_step() {
        let space = gemm_like();
        let cost = |c: &Config| {
            let small = c.tile(2) <= 64;
            match (c.is_unrolled(), small) {
                (false, false) => 2.0,
                (false, true) => 1.8,
                (true, false) => 2.2,
                (true, true) => 1.0,
            }
        };
        let tried = search(Config::cubic(128), 2.0, 16, &space, |cs| cs.iter().map(|c| Some(cost(c))).collect());
        assert_eq!(fastest(&tried).unwrap().seconds, Some(1.0), "{tried:?}");
    }

    /// syr2k-like: packing moves the vector loop from `k` to `j` and halves
    /// the time; the search tries it at the start and keeps it.
    #[test]
    fn the_search_tries_packing_where_it_changes_the_code() {
        let space = Space {
            dims: 3,
            orders: Orders { plain: vec![0, 1, 2], sunk: None, packed: Some(vec![0, 2, 1]) },
            can_pack: true,
            can_vector: false,
            ..gemm_like()
        };
        let cost = |c: &Config| if c.pack { 1.0 } else { 2.0 };
        let tried = search(Config::cubic(64), 2.0, 12, &space, |cs| cs.iter().map(|c| Some(cost(c))).collect());
        let best = &fastest(&tried).unwrap().config;
        assert!(best.pack, "{tried:?}");
        // An unrolled start packs with a register tile of the packed order (j innermost, never unrolled).
        let toggled = pack_toggled(&"64:4x4x1".parse().unwrap(), &space).unwrap();
        assert!(toggled.pack && toggled.unroll(1) == 1 && toggled.is_unrolled(), "{toggled}");
        assert_eq!(pack_toggled(&Config::cubic(64), &gemm_like()), None);
    }

    #[test]
    fn search_stops_when_nothing_gains_and_skips_failures() {
        let tried = search(Config::cubic(64), 1.0, 40, &gemm_like(), |cs| {
            cs.iter().map(|c| if c.is_unrolled() && c.unroll(0) == 8 { None } else { Some(1.0) }).collect()
        });
        // Register round, then one shape round (all six moves; the register
        // tile at this shape was timed already), then stop.
        let registers = register_tiles(&Config::cubic(64), &gemm_like()).len();
        // Then the start in the two other loop forms.
        assert_eq!(tried.len(), 1 + registers + 6 + FORM_RESERVE);
        assert_eq!(fastest(&tried).unwrap().config, Config::cubic(64));
        assert!(search(Config::cubic(64), 1.0, 0, &gemm_like(), |_| panic!("no budget")).len() == 1);
    }

    /// The answer is timed last in the other loop forms, within the budget,
    /// and a faster form wins (syr2k at 128 on the Zen 4: inline).
    #[test]
    fn the_search_times_its_answer_in_the_other_forms_last() {
        let cost = |c: &Config| if c.form == Form::Inline { 0.9 } else { 1.0 };
        let tried = search(Config::cubic(128), 1.0, 16, &gemm_like(), |cs| cs.iter().map(|c| Some(cost(c))).collect());
        assert!(tried.len() <= 17, "{tried:?}");
        let last: Vec<Form> = tried[tried.len() - 2..].iter().map(|t| t.config.form).collect();
        assert_eq!(last, [Form::Index, Form::Inline]);
        assert_eq!(fastest(&tried).unwrap().config, Config::cubic(128).with_form(Form::Inline));
        // Small budgets keep every measurement for the rest.
        let small = search(Config::cubic(128), 1.0, 4, &gemm_like(), |cs| cs.iter().map(|c| Some(cost(c))).collect());
        assert!(small.iter().all(|t| t.config.form == Form::Stepped), "{small:?}");
    }
}
