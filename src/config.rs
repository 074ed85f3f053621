//! The transformation config: the one value that `tss tile`, the harness,
//! collection and selection vary for a SCoP.
//!
//! A config holds, per band member (outermost first, the order `tss tile
//! --explain` prints and `TSS_T1, TSS_T2, ...` follow):
//! - a tile size (the cache level: non-cubic shapes allowed);
//! - an unroll-and-jam factor for that member's point loop (the register
//!   level). The innermost point loop is the vector loop and is never
//!   unrolled by tss; its factor is ignored.
//!
//! In both lists the last value repeats for deeper members, so `tiles = [32]`
//! is the cubic tile 32 and `unroll = [4]` unrolls every outer point loop by 4.
//! Tile sizes stay run-time macros in the generated code; unroll factors are
//! compile-time constants, so each distinct unroll list is its own code.
//!
//! A config also says whether a band that leaves loops inside it runs its
//! best parallel member below them ([`Config::sink`], see
//! `poly::tile::Tiler::sink_member`). Neither order wins everywhere: sinking
//! gives a stride-1 vector loop when the loops below are long reductions,
//! and costs a sweep over the output per inner iteration when they are a
//! few short ones that gcc unrolls whole. So it is a choice the model and
//! the search make per instance, like the tile sizes.
//!
//! Finally a config may pack ([`Config::pack`]): each tile copies what it
//! reads of a read-only array along the vector loop into a contiguous
//! buffer laid out stride-1 for that loop (syrk's `A[j][k]` under a `j`
//! vector loop is transposed; gemm's `B[k][j]` becomes one panel).
//!
//! And it may ask for a vector register tile ([`Config::vector`]): the
//! reduction loop innermost, below a block of the vector loop that stays in
//! vector registers, as BLAS micro-kernels run.
//!
//! Last, a config says how its loops are spelled ([`Config::form`]): the
//! same iterations in the same order, written in one of the shapes in which
//! gcc compiles them differently (see [`Form`]).

use std::fmt;
use std::str::FromStr;

/// Tile sizes and unroll-and-jam factors per band member.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Config {
    /// Tile size per band member; the last repeats (Pluto's 32 when empty).
    pub tiles: Vec<usize>,
    /// Unroll-and-jam factor per band member; the last repeats (1 when empty).
    pub unroll: Vec<usize>,
    /// Whether a band with loops inside it runs its best parallel member
    /// innermost, below those loops (the default). Bands without such loops
    /// or without such a member ignore it.
    pub sink: bool,
    /// Whether tiles copy their reads of read-only arrays along the vector
    /// loop into contiguous stride-1 buffers first (see `codegen::pack`).
    /// Off by default; bands with no such read ignore it.
    pub pack: bool,
    /// Vector register tile: when nonzero, a band's reduction loop runs
    /// inside the vector loop, whose iterations are taken this many vectors
    /// at a time and kept in vector registers (see `codegen::vector`). The
    /// reduction loop's own unroll factor is then ignored. 0 (off) by default.
    pub vector: usize,
    /// How tile loops and point-loop bounds are spelled. [`Form::Stepped`]
    /// by default.
    pub form: Form,
}

/// How a config's loops are spelled. Every form runs the same iterations in
/// the same order; they differ in what gcc's loop analyses can prove from
/// the text, and so in the code it emits. None is fastest everywhere
/// (README, "Against peers": on the Zen 4, syr2k at tile 128 runs 0.90 of
/// Pluto's speed stepped and 1.0 inline, trmm at 128 1.05 stepped and 0.88
/// inline), so the form is chosen per kernel by measurement, like the sizes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    /// Tile loops step their origins, `for (i_t = 0; ...; i_t += TSS_T1)`;
    /// point loops keep ISL's bounds, often exclusive, `i < tss_min(N,
    /// TSS_T1 + i_t)`. With constant sizes gcc then often knows a full
    /// tile's trip count, which pays where it unrolls the loop whole.
    #[default]
    Stepped,
    /// Tile loops count tile indices, `for (tss_i_t = 0; tss_i_t <= ...;
    /// tss_i_t++) { i_t = TSS_T1 * tss_i_t; ... }`, as Pluto's do.
    Index,
    /// The index form with every origin written inline (`TSS_T1 *
    /// tss_i_t`) and point-loop upper bounds inclusive with their constant
    /// grouped, `k <= tss_min(M - 1, TSS_T3 * tss_k_t + (TSS_T3 - 1))`:
    /// Pluto's spelling. gcc then often leaves the trip count of a full
    /// tile unknown, which made syr2k's in-order reduction at tile 128
    /// faster on the Zen 4.
    Inline,
}

impl Form {
    /// Every form, the default first.
    pub const ALL: [Form; 3] = [Form::Stepped, Form::Index, Form::Inline];

    /// How the form is written after the rest of a config (`""` for the
    /// default).
    pub fn suffix(self) -> &'static str {
        match self {
            Form::Stepped => "",
            Form::Index => INDEX,
            Form::Inline => INLINE,
        }
    }

    /// Whether tile loops count tile indices.
    pub fn index_loops(self) -> bool {
        self != Form::Stepped
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Form::Stepped => "stepped",
            Form::Index => "index",
            Form::Inline => "inline",
        })
    }
}

impl FromStr for Form {
    type Err = String;
    fn from_str(s: &str) -> Result<Form, String> {
        Form::ALL
            .into_iter()
            .find(|f| f.to_string() == s)
            .ok_or_else(|| format!("'{s}' is not a loop form (stepped, index or inline)"))
    }
}

impl Default for Config {
    fn default() -> Self {
        Self::cubic(32)
    }
}

/// How [`Config::sink`]`= false` is written after the sizes and factors.
pub const NO_SINK: &str = "/nosink";

/// How [`Config::pack`] is written, after [`NO_SINK`] if both.
pub const PACK: &str = "/pack";

/// How [`Config::vector`] is written, last: `/v2`.
pub const VECTOR: &str = "/v";

/// How [`Form::Index`] is written, last.
pub const INDEX: &str = "/index";

/// How [`Form::Inline`] is written, last.
pub const INLINE: &str = "/inline";

/// Largest [`Config::vector`]: accumulators are rows x this many vectors,
/// and a register file holds 16 or 32.
pub const MAX_VECTOR: usize = 8;

/// Largest unroll factor accepted: the jammed body grows as the product of
/// the factors, and beyond 16 per loop no register file holds the tile.
pub const MAX_UNROLL: usize = 16;

impl Config {
    /// The same tile size on every member, no unrolling.
    pub fn cubic(t: usize) -> Self {
        Self::tiled(vec![t])
    }

    /// These tile sizes, no unrolling.
    pub fn tiled(tiles: Vec<usize>) -> Self {
        Self { tiles, unroll: Vec::new(), sink: true, pack: false, vector: 0, form: Form::Stepped }
    }

    /// These tile sizes and unroll-and-jam factors.
    pub fn unrolled(tiles: Vec<usize>, unroll: Vec<usize>) -> Self {
        Self { tiles, unroll, sink: true, pack: false, vector: 0, form: Form::Stepped }
    }

    /// The same config with the parallel member sunk or kept in the band.
    pub fn with_sink(&self, sink: bool) -> Self {
        Self { sink, ..self.clone() }
    }

    /// The same config with packing on or off.
    pub fn with_pack(&self, pack: bool) -> Self {
        Self { pack, ..self.clone() }
    }

    /// The same config with a vector register tile `groups` vectors wide
    /// (0: none).
    pub fn with_vector(&self, groups: usize) -> Self {
        Self { vector: groups, ..self.clone() }
    }

    /// The same config spelled in `form`.
    pub fn with_form(&self, form: Form) -> Self {
        Self { form, ..self.clone() }
    }

    /// Tile size of member `k` (0-based).
    pub fn tile(&self, k: usize) -> usize {
        size_at(&self.tiles, k).unwrap_or(32)
    }

    /// Unroll-and-jam factor of member `k` (0-based).
    pub fn unroll(&self, k: usize) -> usize {
        size_at(&self.unroll, k).unwrap_or(1)
    }

    /// The kind of code the config makes, for [`crate::select::search_order`]:
    /// loop order, packing, vector width and the register tile's size
    /// (product of the unroll factors of a `d`-member band, written out).
    pub fn search_class(&self, d: usize) -> (bool, bool, usize, usize) {
        (self.sink, self.pack, self.vector, (0..d).map(|m| self.unroll(m)).product())
    }

    /// Whether any member is unrolled (the code then depends on the config,
    /// not only its `-DTSS_Tk` values).
    pub fn is_unrolled(&self) -> bool {
        self.unroll.iter().any(|&u| u > 1)
    }

    /// Whether the config needs code of its own: the tile sizes alone are
    /// `-D` flags of the default code, but unroll factors, the loop order,
    /// packing and the loops' form are written into the code.
    pub fn needs_own_code(&self) -> bool {
        self.is_unrolled() || !self.sink || self.pack || self.vector > 0 || self.form != Form::Stepped
    }

    /// The tile sizes of a `d`-member band, written out.
    pub fn tiles_for(&self, d: usize) -> Vec<usize> {
        (0..d).map(|k| self.tile(k)).collect()
    }

    /// One tile size and one unroll factor per member of a `d`-member band,
    /// written out, so that `64` and `64x64x64` compare equal.
    pub fn written_out(&self, d: usize) -> Self {
        Self { tiles: self.tiles_for(d), unroll: (0..d).map(|k| self.unroll(k)).collect(), ..self.clone() }
    }

    /// The unroll factors written out for a `d`-member band, or none when
    /// nothing is unrolled: how reports and the choice cache store them.
    pub fn unroll_for(&self, d: usize) -> Vec<usize> {
        if self.is_unrolled() { (0..d).map(|k| self.unroll(k)).collect() } else { Vec::new() }
    }

    /// The same config without unrolling.
    pub fn without_unroll(&self) -> Self {
        Self { unroll: Vec::new(), ..self.clone() }
    }
}

/// `64x256x128`, `64x256x128:4x1x4` when unrolled, then `/nosink` when the
/// parallel member stays in its band, `/pack` when tiles pack and `/v2` for
/// a vector register tile two vectors wide, and `/index` or `/inline` for a
/// loop form other than the default (the form of the dataset's `variant`
/// column and of `tss measure --tile`).
impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |v: &[usize]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("x");
        f.write_str(&join(&self.tiles))?;
        if self.is_unrolled() {
            write!(f, ":{}", join(&self.unroll))?;
        }
        if !self.sink {
            f.write_str(NO_SINK)?;
        }
        if self.pack {
            f.write_str(PACK)?;
        }
        if self.vector > 0 {
            write!(f, "{VECTOR}{}", self.vector)?;
        }
        f.write_str(self.form.suffix())
    }
}

impl FromStr for Config {
    type Err = String;
    fn from_str(s: &str) -> Result<Config, String> {
        // The default form has no suffix: only the others are looked for.
        let (s, form) =
            Form::ALL[1..].iter().find_map(|&f| Some((s.strip_suffix(f.suffix())?, f))).unwrap_or((s, Form::Stepped));
        let (s, vector) = match s.rsplit_once(VECTOR) {
            Some((rest, g)) if !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit()) => {
                (rest, parse_list(g, "vector register tile width", MAX_VECTOR)?[0])
            }
            _ => (s, 0),
        };
        let (s, pack) = match s.strip_suffix(PACK) {
            Some(rest) => (rest, true),
            None => (s, false),
        };
        let (s, sink) = match s.strip_suffix(NO_SINK) {
            Some(rest) => (rest, false),
            None => (s, true),
        };
        let (tiles, unroll) = s.split_once(':').unwrap_or((s, ""));
        let tiles = parse_list(tiles, "tile size", usize::MAX)?;
        let unroll = if unroll.is_empty() { Vec::new() } else { parse_list(unroll, "unroll factor", MAX_UNROLL)? };
        Ok(Config { tiles, unroll, sink, pack, vector, form })
    }
}

/// Value of member `k` in a per-member list whose last value repeats
/// (`16,64` means 16, 64, 64, ...).
pub fn size_at(sizes: &[usize], k: usize) -> Option<usize> {
    sizes.get(k).or(sizes.last()).copied()
}

/// Serde as the type's text (its `Display` and `FromStr`).
macro_rules! serde_as_text {
    ($t:ty) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

// A config is stored as its text (`64x256x128:4x1x4`), as in the dataset and
// on the command line; a form as its name (`inline`; records older than forms
// have none, and their readers default it).
serde_as_text!(Config);
serde_as_text!(Form);

/// Positive integers separated by `x` or `,`, each at most `max`.
pub fn parse_list(s: &str, what: &str, max: usize) -> Result<Vec<usize>, String> {
    s.split(['x', ','])
        .map(|v| match v.trim().parse::<usize>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            Ok(n) if n > max => Err(format!("{what} {n} is larger than {max}")),
            _ => Err(format!("'{v}' is not a {what} (a positive integer)")),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_value_repeats() {
        let c: Config = "16x64:4".parse().unwrap();
        assert_eq!((c.tile(0), c.tile(1), c.tile(5)), (16, 64, 64));
        assert_eq!((c.unroll(0), c.unroll(3)), (4, 4));
        assert_eq!(Config::default().tile(2), 32);
        assert_eq!(Config::default().unroll(2), 1);
    }

    #[test]
    fn text_round_trips() {
        for s in [
            "184",
            "64x256x128",
            "64x256x128:4x1x4",
            "8:2",
            "64x8/nosink",
            "64:4/nosink",
            "64/pack",
            "64x8:4/nosink/pack",
            "256x256x64:8x1x1/pack/v2",
            "64/v1",
            "128/index",
            "128/inline",
            "256x256x64:8x1x1/pack/v2/inline",
            "64x8:4/nosink/index",
        ] {
            assert_eq!(s.parse::<Config>().unwrap().to_string(), s);
        }
        // Unit factors are no unrolling and print as the plain tile.
        assert_eq!("32x32:1".parse::<Config>().unwrap().to_string(), "32x32");
        assert_eq!("4,8".parse::<Config>().unwrap().tiles, vec![4, 8]);
        assert!("64".parse::<Config>().unwrap().sink);
        assert!(!"64/nosink".parse::<Config>().unwrap().sink);
        assert!("64/pack".parse::<Config>().unwrap().pack && !"64".parse::<Config>().unwrap().pack);
        assert_eq!("64/inline".parse::<Config>().unwrap().form, Form::Inline);
        assert_eq!("64".parse::<Config>().unwrap().form, Form::Stepped);
    }

    #[test]
    fn only_sizes_share_the_default_code() {
        assert!(!Config::cubic(64).needs_own_code());
        assert!(Config::cubic(64).with_sink(false).needs_own_code());
        assert!("64:4".parse::<Config>().unwrap().needs_own_code());
        assert!(Config::cubic(64).with_pack(true).needs_own_code());
        assert!(Config::cubic(64).with_vector(2).needs_own_code());
        assert!(Config::cubic(64).with_form(Form::Index).needs_own_code());
        assert_eq!(Config::cubic(64).with_sink(false).written_out(2).to_string(), "64x64/nosink");
    }

    #[test]
    fn serialises_as_text() {
        let c: Config = "64x256x128:4x1x4".parse().unwrap();
        assert_eq!(serde_json::to_string(&c).unwrap(), "\"64x256x128:4x1x4\"");
        assert_eq!(serde_json::from_str::<Config>("\"64x256x128:4x1x4\"").unwrap(), c);
        assert!(serde_json::from_str::<Config>("\"64:0\"").is_err());
    }

    #[test]
    fn bad_text_is_an_error() {
        for s in [
            "",
            "0",
            "32x",
            "a",
            "32:0",
            "32:17",
            "32:4:4",
            "32/sink",
            "/nosink",
            "32/nosink/nosink",
            "32/pack/nosink",
            "32/pack/pack",
            "32/v",
            "32/v0",
            "32/v9",
            "32/v2/pack",
            "32/v2/v2",
            "32/index/v2",
            "32/inline/inline",
            "32/index/inline",
            "/inline",
            "32/stepped",
        ] {
            assert!(s.parse::<Config>().is_err(), "{s}");
        }
    }
}
