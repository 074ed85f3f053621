//! Post-processing of predictions (the paper's section 3, step 6): keep the
//! candidates whose predicted times are the lowest 10 %, then pick one.

use std::collections::HashSet;
use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// How to pick among the kept candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Strategy {
    /// The lowest prediction.
    T1,
    /// A random kept candidate (the paper's T6-Random).
    T6Random,
    /// Compile and time every kept candidate; the fastest (T6-Search).
    T6Search,
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Strategy::T1 => "t1",
            Strategy::T6Random => "t6-random",
            Strategy::T6Search => "t6-search",
        })
    }
}

impl FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Strategy, String> {
        match s.to_ascii_lowercase().as_str() {
            "t1" => Ok(Strategy::T1),
            "t6-random" | "t6random" => Ok(Strategy::T6Random),
            "t6-search" | "t6search" => Ok(Strategy::T6Search),
            _ => Err(format!("unknown mode '{s}' (t1, t6-random or t6-search)")),
        }
    }
}

/// Share of candidates kept (the paper keeps 6 of 64).
pub const KEEP: f64 = 0.10;

/// Indices of the best `KEEP` share of `predicted` (at least one), lowest first.
pub fn keep_best(predicted: &[f64]) -> Vec<usize> {
    let mut idx = ranked(predicted);
    idx.truncate(keep_count(predicted.len()));
    idx
}

/// Indices of `predicted`, lowest first (ties by index).
pub fn ranked(predicted: &[f64]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..predicted.len()).collect();
    idx.sort_by(|&a, &b| predicted[a].total_cmp(&predicted[b]).then(a.cmp(&b)));
    idx
}

/// The order in which a measuring search times candidates: the lowest
/// prediction of every `class` first (classes in the order of their best
/// prediction), then the others by prediction. The top of a ranking is
/// mostly near-twins (one register tile at neighbouring sizes), so when the
/// model is wrong about the kind of code, the k best predictions share the
/// mistake; one of each kind hedges it. The first is still the lowest
/// prediction (T1). Measured in the README, "Diverse search".
///
/// The untiled `original`, when it is a candidate, comes second (or stays
/// first): whether tiling pays at all is the call models get most wrong on
/// kernels they never saw, and one run of the loops as written settles it.
/// Held out by family, 8 measurements then score 1.074 where the class
/// order alone scored 1.082 (README, "Diverse search").
pub fn search_order<K: Eq + Hash>(
    predicted: &[f64],
    class: impl Fn(usize) -> K,
    original: Option<usize>,
) -> Vec<usize> {
    let mut seen = HashSet::new();
    let (first, rest): (Vec<usize>, Vec<usize>) = ranked(predicted).into_iter().partition(|&k| seen.insert(class(k)));
    let mut order: Vec<usize> = first.into_iter().chain(rest).collect();
    if let Some(u) = original.filter(|&u| order.len() > 1 && order[0] != u) {
        order.retain(|&k| k != u);
        order.insert(1, u);
    }
    order
}

/// `predicted` with candidate `u` ranked last: the ranking the first pick
/// and the searches follow where the untiled original `u` must not come
/// first ([`crate::gate::strided_original`]). [`search_order`] given `u` as
/// its `original` still times it second.
pub fn tiles_first(predicted: &[f64], u: usize) -> Vec<f64> {
    let mut p = predicted.to_vec();
    if let Some(x) = p.get_mut(u) {
        *x = f64::INFINITY;
    }
    p
}

/// Where the untiled original goes among the candidates a model ranks:
/// the rules around the network, decided here once for `tss predict`
/// ([`crate::choose`]) and `tss eval` alike.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OriginalPlace {
    /// After every tile: the network's rank of it does not count.
    pub last: bool,
    /// First: the untiled gate fired on an original that may come first.
    pub first: bool,
}

impl OriginalPlace {
    /// The place of an original whose loops as written are `never_first`
    /// (they walk memory at a stride or carry a recurrence: neither the
    /// network nor the gate puts them first), on a loop structure that is
    /// `new_structure` to the model (its blended ranker applies: the
    /// network's own first rank of the original was the costliest error on
    /// new kernels, so only the gate keeps it there), where the untiled gate
    /// is `gated` (fires).
    pub fn of(never_first: bool, new_structure: bool, gated: bool) -> Self {
        Self { last: never_first || new_structure, first: gated && !never_first }
    }

    /// `predicted` as the picks follow it: with the `original` after every
    /// tile where its rank does not count.
    pub fn rank(self, predicted: &[f64], original: Option<usize>) -> Vec<f64> {
        match original.filter(|_| self.last) {
            Some(u) => tiles_first(predicted, u),
            None => predicted.to_vec(),
        }
    }

    /// `picks` (candidate indices, best first) with the `original` moved
    /// to the front where the gate put it first.
    pub fn front(self, mut picks: Vec<usize>, original: Option<usize>) -> Vec<usize> {
        if let Some(u) = original.filter(|_| self.first) {
            picks.retain(|&k| k != u);
            picks.insert(0, u);
        }
        picks
    }
}

/// The first `count` of `predicted` in [`search_order`] (`None`:
/// [`search_count`]): what T6-Search times.
pub fn keep_diverse<K: Eq + Hash>(
    predicted: &[f64],
    class: impl Fn(usize) -> K,
    original: Option<usize>,
    count: Option<usize>,
) -> Vec<usize> {
    let mut idx = search_order(predicted, class, original);
    idx.truncate(count.unwrap_or_else(|| search_count(predicted.len())));
    idx
}

/// Most candidates T6-Search times. The paper's share of 10 % was 4 of 32
/// cubic tiles; of a per-dimension space it is hundreds (gemm: 342 of 3419,
/// over 7 minutes at 1536 with three rounds each). On the held-out Zen 3
/// test rows (about 250 candidates each) the first 32 in search order score
/// TN 1.052, against 1.064 for the 10 % share (median 23 candidates).
pub const SEARCH_MAX: usize = 32;

/// How many of `n` candidates T6-Search times: the `KEEP` share, at most
/// [`SEARCH_MAX`].
pub fn search_count(n: usize) -> usize {
    keep_count(n).min(SEARCH_MAX)
}

/// How many of `n` candidates the T6 methods keep (at least one).
pub fn keep_count(n: usize) -> usize {
    ((n as f64 * KEEP).ceil() as usize).clamp(1.min(n), n)
}

/// The analytical cache rule: the largest of `candidates` (ascending)
/// whose working set fits `limit` bytes, else the smallest. It needs no
/// model, so it is the fallback where the model cannot be trusted, and a
/// baseline the model must beat.
pub fn cache_rule(candidates: &[usize], working_set: impl Fn(usize) -> u64, limit: u64) -> Option<usize> {
    candidates.iter().copied().filter(|&t| working_set(t) <= limit).max().or_else(|| candidates.first().copied())
}

/// Indices of the `n` candidates closest to `centre` on a log scale,
/// closest first: what T6-Search times when the model has nothing to say.
pub fn neighbours(candidates: &[usize], centre: usize, n: usize) -> Vec<usize> {
    let dist = |t: usize| ((t.max(1) as f64) / (centre.max(1) as f64)).ln().abs();
    let mut idx: Vec<usize> = (0..candidates.len()).collect();
    idx.sort_by(|&a, &b| dist(candidates[a]).total_cmp(&dist(candidates[b])).then(a.cmp(&b)));
    idx.truncate(n.max(1));
    idx
}

/// T6-Random's choice among `kept`, reproducible from `seed`.
pub fn random_pick(kept: &[usize], seed: u64) -> Option<usize> {
    (!kept.is_empty()).then(|| kept[StdRng::seed_from_u64(seed).random_range(0..kept.len())])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_rule_takes_the_largest_fitting_tile() {
        let c = [8, 16, 32, 64, 128];
        assert_eq!(cache_rule(&c, |t| 3 * (t * t * 8) as u64, 1 << 20), Some(128));
        assert_eq!(cache_rule(&c, |t| 3 * (t * t * 8) as u64, 32 << 10), Some(32));
        assert_eq!(cache_rule(&c, |_| u64::MAX, 1), Some(8), "nothing fits: the smallest");
        assert_eq!(cache_rule(&[], |_| 0, 1), None);
        assert_eq!(neighbours(&c, 32, 3), vec![2, 1, 3]);
    }

    #[test]
    fn keeps_ten_percent_lowest_first() {
        let p: Vec<f64> = (0..45).map(|k| ((k * 17) % 45) as f64).collect();
        let kept = keep_best(&p);
        assert_eq!(kept.len(), 5);
        assert_eq!(kept.iter().map(|&i| p[i]).collect::<Vec<_>>(), vec![0.0, 1.0, 2.0, 3.0, 4.0]);
        assert_eq!(keep_best(&[3.0, 1.0]), vec![1]);
        assert!(keep_best(&[]).is_empty());
        let r = random_pick(&kept, 7).unwrap();
        assert!(kept.contains(&r) && random_pick(&kept, 7) == Some(r));
    }

    #[test]
    fn search_order_takes_each_class_best_first_then_the_rest_by_prediction() {
        // Classes: even and odd index; predictions rank 0, 2, 4, 1, 3.
        let p = [0.0, 3.0, 1.0, 4.0, 2.0];
        assert_eq!(search_order(&p, |k| k % 2, None), vec![0, 1, 2, 4, 3]);
        // One class: the plain ranking.
        assert_eq!(search_order(&p, |_| (), None), vec![0, 2, 4, 1, 3]);
        let many: Vec<f64> = (0..30).map(f64::from).collect();
        assert_eq!(keep_diverse(&many, |k| k % 3, None, None), vec![0, 1, 2]);
        assert_eq!(keep_diverse(&many, |k| k % 3, None, Some(4)), vec![0, 1, 2, 3]);
        assert_eq!((search_count(30), search_count(3419)), (3, SEARCH_MAX));
        assert!(search_order(&[], |k| k, None).is_empty());
        assert!(search_order(&[], |k| k, Some(0)).is_empty());
    }

    #[test]
    fn the_original_is_last_where_its_rank_does_not_count_and_first_where_gated() {
        let strided = OriginalPlace::of(true, false, true);
        assert_eq!(strided, OriginalPlace { last: true, first: false }, "not even the gate puts it first");
        assert_eq!(OriginalPlace::of(false, true, false), OriginalPlace { last: true, first: false });
        assert_eq!(
            OriginalPlace::of(false, true, true),
            OriginalPlace { last: true, first: true },
            "new: the gate keeps it"
        );
        assert_eq!(OriginalPlace::of(false, false, false), OriginalPlace::default());
        // The network ranks the original (2) first.
        let p = [0.2, 0.3, 0.1];
        assert_eq!(OriginalPlace::default().rank(&p, Some(2)), p.to_vec());
        assert_eq!(ranked(&strided.rank(&p, Some(2))), vec![0, 1, 2]);
        assert_eq!(strided.rank(&p, None), p.to_vec());
        assert_eq!(OriginalPlace::of(false, true, true).front(vec![0, 1, 2], Some(2)), vec![2, 0, 1]);
        assert_eq!(strided.front(vec![0, 1, 2], Some(2)), vec![0, 1, 2]);
        assert_eq!(OriginalPlace::of(false, false, true).front(vec![0, 1], Some(2)), vec![2, 0, 1], "kept or not");
    }

    #[test]
    fn the_original_is_timed_second_unless_it_is_first() {
        let p = [0.0, 3.0, 1.0, 4.0, 2.0];
        // Ranked last (index 3), it moves up to second place.
        assert_eq!(search_order(&p, |_| (), Some(3)), vec![0, 3, 2, 4, 1]);
        assert_eq!(keep_diverse(&(0..30).map(f64::from).collect::<Vec<_>>(), |_| (), Some(29), None), vec![0, 29, 1]);
        // Ranked last by `tiles_first`, it is still timed second.
        let demoted = tiles_first(&p, 0);
        assert_eq!(ranked(&demoted), vec![2, 4, 1, 3, 0]);
        assert_eq!(search_order(&demoted, |_| (), Some(0)), vec![2, 0, 4, 1, 3]);
        assert_eq!(tiles_first(&p, 9), p.to_vec());
        // Predicted best, it stays first; alone, it is the order.
        assert_eq!(search_order(&p, |_| (), Some(0)), vec![0, 2, 4, 1, 3]);
        assert_eq!(search_order(&[1.0], |_| (), Some(0)), vec![0]);
    }
}
