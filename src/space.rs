//! The config space of one problem instance: the tile shapes and register
//! tiles that collection times and the model ranks, enumerated by one rule
//! from the SCoP's bands and this machine's caches and vector registers.
//!
//! The paper's candidates are cubic tiles only, bounded by half the smallest
//! extent; on skinny or deep nests that leaves a handful of sizes and no
//! shape. This space is per band member and includes register tiles.
//!
//! # The rule
//! 1. **Member extents.** For each band member (tile macro `TSS_Tk`), how
//!    many values it takes at the instance's sizes: the largest over the
//!    statements of the tiled bands (an ISL bounding box, [`member_extents`]).
//! 2. **Sizes per member**: the powers of two from 8 to 1024 below the
//!    member's extent (multiples of a 64-byte line of `double` and of every
//!    vector width), and the extent itself: the member left whole, which is
//!    what a skinny dimension wants. Bands of more than three members take
//!    every other power (8, 32, 128, 512) so that six-deep nests stay
//!    enumerable.
//! 3. **Shapes**: every combination whose tile working set (the dominant
//!    statement's footprint, [`crate::features::Kernel::working_set`]) lies
//!    between half of L1d and twice L2. Smaller tiles pay loop overhead for
//!    no reuse; the best cubic tiles measured on the paper's kernels sit
//!    inside the band (184 on a 1 MiB L2: 0.8 MiB). When no shape falls in
//!    it, the shapes nearest to it on a log scale stay.
//! 4. **Register tiles**: every shape plain, and with each register tile that
//!    [`refine::register_tiles`] fits in the vector registers.
//! 5. **Loop orders**: where a tiled band leaves loops inside it and can run
//!    a parallel member below them, every config of steps 3-4 in both orders
//!    ([`Config::sink`]); the register tiles follow each order's loops.
//! 6. **Packing**: where packing changes the code ([`Config::pack`]: a
//!    read-only operand read along the vector loop and reused), the packed
//!    twin of every config of steps 3-5 ([`Space::packed`]). Collection
//!    draws them as a sample of their own, a quarter of the plain sample's
//!    size ([`PACK_SHARE`]), so that instances measured before packing was
//!    in the space keep their sample and gain the packed one.
//! 7. **Vector register tiles**: where code generation makes one
//!    ([`Config::vector`]: a reduction directly around the vector loop),
//!    every vector tile [`refine::vector_tiles`] fits in the registers at
//!    each plain shape of steps 3 and 5, packed where packing changes the
//!    code ([`Space::vectored`]). They are sampled apart too, at the packed
//!    sample's size, for the same reason.
//!
//! Beside the space, every instance times the same **anchors** (see
//! [`anchors`]), so that the baselines of an evaluation (Pluto's 32, the
//! best constant config, the cache rule) are measured on the same rows as
//! the model's picks.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::config::Config;
use crate::features::Shape;
use crate::instance::Sizes;
use crate::machine::Caches;
use crate::refine::{self, register_tiles};
use crate::{Analysis, Error};

/// Smallest and largest tile size of the ladder.
pub const LADDER: (usize, usize) = (8, 1024);

/// The cubic tiles every instance times: the best constant config of an
/// evaluation is chosen among them (and their register-tiled twins).
pub const CONSTANTS: [usize; 5] = [16, 32, 64, 128, 256];

/// Pluto's default tile size, a baseline of every evaluation.
pub const PLUTO_DEFAULT: usize = 32;

/// The packed sample of an instance is this fraction of its plain sample
/// (step 6 of the rule).
pub const PACK_SHARE: usize = 4;

/// Whether config `c` of `a` stays a candidate of `tss predict` at `shape`:
/// a packing config only where its buffers fit in `l2` bytes. A copy pays
/// for itself by being reused from cache; one larger than L2 (ttm-mode2's
/// copy of `X[i][l][j]` spans a whole `i` tile: 17 MiB at tile 256) is
/// evicted before the tile reuses it. In the serial training rows of four CPUs, 110 of 3300
/// instances timed such a config; it was the fastest on 2, and the
/// fastest of them ran 2.1-3.7x slower than the instance's fastest
/// (geometric mean per CPU; README, "Copies larger than L2").
/// Collection still times them: they are the evidence, and the packed
/// vector anchors are the constant+vector baseline's.
pub fn copies_fit(a: &Analysis, shape: &Shape, c: &Config, l2: u64) -> bool {
    !c.pack || a.kernel.packed_bytes(shape, c) <= l2 as f64
}

/// The space of one instance.
#[derive(Clone, Debug)]
pub struct Space {
    /// Values each band member takes at the instance's sizes.
    pub extents: Vec<i64>,
    /// Every config of the rule, by ascending working set (ties by text).
    pub configs: Vec<Config>,
}

/// Values each of `a`'s band members takes at `sizes`: per member, the
/// largest extent over every statement of every tiled band. Empty when the
/// SCoP has no tiled band.
pub fn member_extents(a: &Analysis, sizes: &Sizes) -> Result<Vec<i64>, Error> {
    let poly = |msg: String| Error::Poly { file: a.file.clone(), line: a.scop.region.line, msg };
    let ctx = isl_rs::Context::alloc();
    let fixed = isl_rs::Set::read_from_str(&ctx, &sizes.isl_params()).map_err(|e| poly(e.to_string()))?;
    let mut ext = vec![0i64; if a.report.bands.iter().any(|b| b.tiled) { a.tile_dims() } else { 0 }];
    for band in a.report.bands.iter().filter(|b| b.tiled) {
        for (s, rows) in &band.rows {
            let Some(rows) = rows else { continue };
            let text = crate::features::band_set(&a.scop, *s, rows);
            let bounds = isl_rs::Set::read_from_str(&ctx, &text)
                .and_then(|set| set.intersect_params(fixed.copy()?))
                .and_then(|set| crate::poly::box_extents(&set, rows.len()))
                .map_err(|e| poly(format!("band members of {}: {e}", a.scop.statements[*s].name)))?;
            for (k, b) in bounds.into_iter().flatten().enumerate().take(ext.len()) {
                let (lo, hi) = b.ok_or_else(|| poly(format!("band member {} is unbounded at {sizes}", k + 1)))?;
                ext[k] = ext[k].max(hi - lo + 1);
            }
        }
    }
    Ok(ext.into_iter().map(|e| e.max(1)).collect())
}

/// Tile sizes of one member of extent `extent` (rule, step 2).
pub fn ladder(extent: i64, coarse: bool) -> Vec<usize> {
    let extent = extent.max(1) as usize;
    let step = if coarse { 4 } else { 2 };
    let mut out: Vec<usize> = std::iter::successors(Some(LADDER.0), |t| Some(t * step))
        .take_while(|&t| t <= LADDER.1 && t < extent)
        .collect();
    if extent <= LADDER.1 || out.is_empty() {
        out.push(extent.min(LADDER.1));
    }
    out
}

/// The space of `a` at `sizes` on a machine with these caches and vector
/// registers (the rule in the module doc).
pub fn enumerate(a: &Analysis, sizes: &Sizes, caches: &Caches, vector_regs: usize) -> Result<Space, Error> {
    let extents = member_extents(a, sizes)?;
    if extents.is_empty() {
        return Ok(Space { extents, configs: Vec::new() });
    }
    let ladders: Vec<Vec<usize>> = extents.iter().map(|&e| ladder(e, extents.len() > 3)).collect();
    let shapes = product(&ladders);
    let ws = |t: &[usize]| a.kernel.working_set(t) as f64;
    let (lo, hi) = (caches.l1d as f64 / 2.0, 2.0 * caches.l2 as f64);
    // Log distance to the band [lo, hi]: 0 inside it.
    let miss = |t: &[usize]| {
        let w = ws(t).max(1.0);
        (lo / w).ln().max(0.0) + (w / hi).ln().max(0.0)
    };
    let nearest = shapes.iter().map(|t| miss(t)).fold(f64::INFINITY, f64::min);
    let mut kept: Vec<Vec<usize>> = shapes.into_iter().filter(|t| miss(t) <= nearest).collect();
    kept.sort_by(|x, y| ws(x).total_cmp(&ws(y)).then_with(|| x.cmp(y)));
    let regs = refine::Space::of(a, vector_regs, usize::MAX);
    let mut configs = Vec::new();
    for t in kept {
        for plain in orders(a, Config::tiled(t)) {
            if let Some(space) = &regs {
                configs.extend(std::iter::once(plain.clone()).chain(register_tiles(&plain, space)));
            } else {
                configs.push(plain);
            }
        }
    }
    Ok(Space { extents, configs })
}

/// `c`, and its twin with the other loop order when `a`'s band can sink a
/// member (rule, step 5).
fn orders(a: &Analysis, c: Config) -> Vec<Config> {
    if a.can_sink() { vec![c.clone(), c.with_sink(false)] } else { vec![c] }
}

/// Every combination of one value per list, the first list outermost.
fn product(lists: &[Vec<usize>]) -> Vec<Vec<usize>> {
    lists.iter().fold(vec![Vec::new()], |acc, list| {
        acc.iter()
            .flat_map(|prefix| {
                list.iter().map(move |&v| {
                    let mut p = prefix.clone();
                    p.push(v);
                    p
                })
            })
            .collect()
    })
}

/// The analytical cache rule: the largest cubic tile (a multiple of the
/// cache line in elements) whose working set, with every member clamped to
/// its extent, fits L2. Skinny members so take their whole extent while the
/// others grow.
pub fn cache_rule(a: &Analysis, extents: &[i64], caches: &Caches) -> Config {
    let line = (caches.line / a.kernel.element_bytes).max(1) as usize;
    let clamp = |t: usize| -> Vec<usize> { extents.iter().map(|&e| t.min(e.max(1) as usize)).collect() };
    // No tile member beyond L2's worth of elements can fit L2 while reading
    // along it; the cap also keeps the candidate list small at huge extents
    // (at 1e11 it once asked for 100 GB).
    let most = (caches.l2 / a.kernel.element_bytes.max(1)).max(1) as usize;
    let longest = (extents.iter().copied().max().unwrap_or(1).max(1) as usize).min(most);
    let sizes: Vec<usize> = (1..=longest.div_ceil(line)).map(|k| k * line).collect();
    let t = crate::select::cache_rule(&sizes, |t| a.kernel.working_set(&clamp(t)), caches.l2).unwrap_or(line);
    Config::tiled(clamp(t))
}

/// The configs every instance times beside its sample: Pluto's 32, the
/// [`CONSTANTS`] and the cache rule's pick, each plain and with the first
/// register tile the refinement would try, in both loop orders where the
/// band has two (step 5 of the rule), and the first vector tile of each
/// constant where code generation makes one (step 7), so that evaluations
/// can hold vector tiles to the same fixed-rule standard.
/// None without a tiled band: its code does not depend on the tiles.
pub fn anchors(a: &Analysis, extents: &[i64], caches: &Caches, vector_regs: usize) -> Vec<Config> {
    if extents.is_empty() {
        return Vec::new();
    }
    let mut plain: Vec<Config> = CONSTANTS.iter().map(|&t| Config::cubic(t)).collect();
    plain.push(cache_rule(a, extents, caches));
    let plain: Vec<Config> = plain.into_iter().flat_map(|c| orders(a, c)).collect();
    let regs = refine::Space::of(a, vector_regs, usize::MAX);
    let mut out = Vec::new();
    for c in plain {
        let reg = regs.as_ref().and_then(|s| register_tiles(&c, s).into_iter().next());
        for c in std::iter::once(c).chain(reg) {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    for c in CONSTANTS.iter().flat_map(|&t| orders(a, Config::cubic(t))) {
        if let Some(v) = vector_tiles(a, &c, vector_regs).into_iter().next() {
            out.push(v);
        }
    }
    out
}

/// The vector register tiles of plain config `c` (step 7 of the rule), the
/// most promising first; empty where code generation makes none under `c`'s
/// loop order.
fn vector_tiles(a: &Analysis, c: &Config, vector_regs: usize) -> Vec<Config> {
    match refine::Space::of(a, vector_regs, usize::MAX) {
        Some(space) if a.vectors_under(c.sink) => refine::vector_tiles(c, &refine::Space { can_vector: true, ..space }),
        _ => Vec::new(),
    }
}

impl Space {
    /// `n` configs of the space, one from each of `n` equal slices of the
    /// working-set order, seeded; `skip` ones (the anchors) are not drawn.
    pub fn sample(&self, n: usize, seed: u64, skip: &[Config]) -> Vec<Config> {
        let pool: Vec<Config> = self.configs.iter().filter(|c| !skip.contains(c)).cloned().collect();
        spread(&pool, n, seed)
    }

    /// The packed twins of the configs whose code packing changes (step 6
    /// of the rule), in the space's order; empty for a kernel with nothing
    /// to pack.
    pub fn packed(&self, a: &Analysis) -> Vec<Config> {
        let packs = [false, true].map(|sink| a.can_pack(&Config::cubic(32).with_sink(sink)));
        self.configs.iter().filter(|c| packs[usize::from(c.sink)]).map(|c| c.with_pack(true)).collect()
    }

    /// The vector register tiles of every plain config (step 7 of the
    /// rule), in the space's order; empty for a kernel without a reduction
    /// around its vector loop. Code generation decides that once per loop
    /// order ([`Analysis::vectors_under`]), not per shape.
    pub fn vectored(&self, a: &Analysis, vector_regs: usize) -> Vec<Config> {
        let Some(space) = refine::Space::of(a, vector_regs, usize::MAX) else { return Vec::new() };
        let space = refine::Space { can_vector: true, ..space };
        let mut seen = std::collections::HashSet::new();
        self.configs
            .iter()
            .filter(|c| !c.is_unrolled() && a.vectors_under(c.sink))
            .flat_map(|c| refine::vector_tiles(c, &space))
            .filter(|v| seen.insert(v.clone()))
            .collect()
    }
}

/// `n` of `all`, one drawn from each of `n` equal slices (so an ordered list
/// is covered end to end); all of them when `n` is at least their number,
/// none when it is 0 (a small sample's packed and vector shares round down
/// to 0: `tss adapt --per-instance 2` must not time every vector tile).
pub fn spread<T: Clone>(all: &[T], n: usize, seed: u64) -> Vec<T> {
    if n == 0 {
        return Vec::new();
    }
    if n >= all.len() {
        return all.to_vec();
    }
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|k| {
            let (lo, hi) = (k * all.len() / n, ((k + 1) * all.len() / n).max(k * all.len() / n + 1));
            all[rng.random_range(lo..hi)].clone()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ladders_stop_at_the_extent_and_keep_it() {
        assert_eq!(ladder(100, false), vec![8, 16, 32, 64, 100]);
        assert_eq!(ladder(64, false), vec![8, 16, 32, 64]);
        assert_eq!(ladder(5, false), vec![5], "a member shorter than every tile stays whole");
        assert_eq!(ladder(5000, false), vec![8, 16, 32, 64, 128, 256, 512, 1024]);
        assert_eq!(ladder(600, true), vec![8, 32, 128, 512, 600]);
        assert_eq!(ladder(0, false), vec![1]);
    }

    #[test]
    fn products_enumerate_every_combination_in_order() {
        let p = product(&[vec![1, 2], vec![3], vec![4, 5]]);
        assert_eq!(p, vec![vec![1, 3, 4], vec![1, 3, 5], vec![2, 3, 4], vec![2, 3, 5]]);
        assert_eq!(product(&[]), vec![Vec::<usize>::new()]);
    }

    fn analysis(file: &str) -> Analysis {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        crate::analyze(&path, &std::fs::read_to_string(&path).unwrap(), false).unwrap()
    }

    fn matmul() -> Analysis {
        analysis("polybench/paper/matmul.c")
    }

    #[test]
    fn matmul_space_follows_the_rule() {
        let a = matmul();
        let caches = Caches { l1d: 32 << 10, l2: 512 << 10, line: 64 };
        let sizes = Sizes::parse(&a.scop.params, "NI=1000,NJ=700,NK=20").unwrap();
        let space = enumerate(&a, &sizes, &caches, 16).unwrap();
        let mut ext = space.extents.clone();
        ext.sort();
        assert_eq!(ext, vec![20, 700, 1000], "one extent per member, whatever the member order");
        assert!(space.configs.len() > 20, "{} configs", space.configs.len());
        for c in &space.configs {
            let t = c.tiles_for(3);
            for (k, &e) in space.extents.iter().enumerate() {
                assert!(t[k] <= e as usize && (t[k] == e as usize || t[k].is_power_of_two()), "{c}");
            }
            let ws = a.kernel.working_set(&t);
            assert!(ws >= caches.l1d / 2 && ws <= 2 * caches.l2, "{c}: working set {ws}");
            assert!((0..3).all(|k| c.unroll(k) <= t[k]), "{c}");
        }
        assert!(space.configs.iter().any(|c| c.is_unrolled()), "register tiles are in the space");
        let skinny = space.extents.iter().position(|&e| e == 20).unwrap();
        assert!(space.configs.iter().any(|c| c.tile(skinny) == 20), "the skinny member is also left whole");

        let anchors = anchors(&a, &space.extents, &caches, 16);
        assert!(anchors.contains(&Config::cubic(PLUTO_DEFAULT)));
        let rule = cache_rule(&a, &space.extents, &caches);
        assert!(anchors.contains(&rule));
        assert!(a.kernel.working_set(&rule.tiles) <= caches.l2);
        assert_eq!(rule.tile(skinny), 20, "the cache rule clamps to the extent");
        let sample = space.sample(12, 5, &anchors);
        assert_eq!(sample.len(), 12);
        assert!(sample.iter().all(|c| !anchors.contains(c) && space.configs.contains(c)));
        assert_eq!(sample, space.sample(12, 5, &anchors), "seeded");

        // matmul reads B[k][j] along j and reuses it across i: every config
        // has a packed twin, which collection samples apart from the rest.
        let packed = space.packed(&a);
        assert_eq!(packed.len(), space.configs.len());
        assert!(packed.iter().zip(&space.configs).all(|(p, c)| p.pack && *p == c.with_pack(true)));
        // Its k runs directly around the vector loop j: vector tiles at every
        // plain shape, packed, within 16 registers, in a sample of their own.
        let vectored = space.vectored(&a, 16);
        let plain = space.configs.iter().filter(|c| !c.is_unrolled()).count();
        assert!(vectored.len() >= plain, "{} vector tiles for {plain} plain shapes", vectored.len());
        for v in &vectored {
            assert!(v.pack && v.vector > 0 && v.unroll(0) * v.vector + v.vector < 16, "{v}");
            assert!(space.configs.contains(&Config::tiled(v.tiles.clone())), "{v} is a tile shape of the space");
        }
        let variants = crate::collect::space_variants(&a, &sizes, &caches, 12, 16, 5, true).unwrap();
        let count = |end: &str| variants.iter().filter(|v| v.to_string().contains(end)).count();
        let anchored = anchors.iter().filter(|c| c.vector > 0).count();
        assert_eq!(anchored, CONSTANTS.len(), "one vector tile per constant");
        assert_eq!(variants.len(), anchors.len() + 12 + 2 * (12 / PACK_SHARE));
        assert_eq!(count(crate::config::VECTOR), anchored + 12 / PACK_SHARE);
    }

    #[test]
    fn packed_copies_larger_than_l2_are_no_candidates() {
        // ttm-mode2 packs X[i][l][j], reused across k: over a whole `i` tile
        // the copy is i x l x j, where gemm's B[k][j] panel is k x j.
        let l2 = 1 << 20;
        let ttm = analysis("corpus/fresh/ttm-mode2.c");
        let shape = ttm.shape(&Sizes::parse(&ttm.scop.params, "NI=73,NK=22,NL=121,NJ=434").unwrap(), 512, 1).unwrap();
        let cfg = |s: &str| s.parse::<Config>().unwrap();
        let big = cfg("256x256x256x256:1x8x1x1/pack/v2");
        assert_eq!(ttm.kernel.packed_bytes(&shape, &big), (73 * 121 * 256 * 8) as f64, "i, l whole; j by 256");
        assert!(!copies_fit(&ttm, &shape, &big, l2));
        assert!(copies_fit(&ttm, &shape, &cfg("8x22x64x32:1x8x1x1/pack/v2"), l2), "8 x 32 x 64 doubles");
        assert!(copies_fit(&ttm, &shape, &cfg("256x256x256x256:1x8x1x1/v2"), l2), "no copy");
        let mm = matmul();
        let shape = mm.shape(&Sizes::parse(&mm.scop.params, "NI=2000,NJ=2000,NK=2000").unwrap(), 512, 1).unwrap();
        assert!(copies_fit(&mm, &shape, &cfg("256x256x64/pack"), l2));
        assert!(!copies_fit(&mm, &shape, &cfg("1024x1024x1024/pack"), l2));
    }

    #[test]
    fn a_kernel_with_nothing_to_pack_has_no_packed_twins() {
        // gemv reads each element of A once.
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/blas/gemv.c"));
        let a = crate::analyze(path, &std::fs::read_to_string(path).unwrap(), false).unwrap();
        let caches = Caches { l1d: 32 << 10, l2: 512 << 10, line: 64 };
        let space = enumerate(&a, &Sizes::parse(&a.scop.params, "M=3000,N=3500").unwrap(), &caches, 16).unwrap();
        assert!(!space.configs.is_empty() && space.packed(&a).is_empty());
    }

    #[test]
    fn samples_spread_over_the_order() {
        let all: Vec<usize> = (0..32).collect();
        let s = spread(&all, 8, 7);
        assert_eq!(s.len(), 8);
        for (k, v) in s.iter().enumerate() {
            assert!((4 * k..4 * k + 4).contains(v), "sample {k} is {v}, outside its slice");
        }
        assert_eq!(s, spread(&all, 8, 7), "seeded");
        assert_eq!(spread(&all, 40, 7), all, "asking for more keeps all");
        assert!(spread(&all, 0, 7).is_empty(), "asking for none draws none");
    }
}
