//! Training: Huber loss, RMSProp, mini-batches, a validation split by
//! instance (or kernel) and early stopping on the validation ranking of tiles (or loss),
//! once per ensemble member
//! (same split and normalisation, different initialisation and batch order).

use std::collections::BTreeSet;

use burn::module::AutodiffModule;
use burn::nn::loss::{HuberLossConfig, Reduction};
use burn::optim::decay::WeightDecayConfig;
use burn::optim::{GradientsParams, Optimizer, RmsPropConfig};
use burn::tensor::activation::softplus;
use burn::tensor::backend::Backend as _;
use burn::tensor::{Tensor, TensorData};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::net::Mlp;
use super::{Backend, Loss, Normalizer, StopOn, Target, TrainBackend, TrainConfig};
use crate::dataset::Record;
use crate::features::FeatureSet;

/// One training example: a measured (instance, tile).
#[derive(Clone, Debug)]
pub struct Sample {
    /// The instance it belongs to ([`Record::instance_key`]): splits never
    /// cut one.
    pub group: String,
    pub x: Vec<f64>,
    /// Measured seconds (median of the runs).
    pub seconds: f64,
    /// The row times the untiled original (see [`TrainConfig::untiled_weight`]).
    pub untiled: bool,
}

/// How many distinct instances `samples` come from.
pub fn instance_count<'a>(samples: impl IntoIterator<Item = &'a Sample>) -> usize {
    samples.into_iter().map(|s| s.group.as_str()).collect::<BTreeSet<_>>().len()
}

/// The rows of `records` a model of `set` ranks ([`Record::is_candidate`])
/// as samples.
pub fn samples(records: &[Record], set: FeatureSet) -> Vec<Sample> {
    records
        .iter()
        .filter(|r| r.is_candidate(set))
        .filter_map(|r| {
            Some(Sample {
                group: r.instance_key(),
                x: r.features_of(set).to_vec(),
                seconds: r.time_median?,
                untiled: r.tile == crate::harness::UNTILED,
            })
        })
        .collect()
}

/// Splits sample indices into (train, validation) by instance or by
/// kernel (`cfg.val_by`), holding out `cfg.validation` of them.
pub fn split(samples: &[Sample], cfg: &TrainConfig) -> (Vec<usize>, Vec<usize>) {
    let key = |i: usize| cfg.val_by.key(&samples[i].group);
    let mut keys: Vec<&str> = (0..samples.len()).map(key).collect::<BTreeSet<_>>().into_iter().collect();
    keys.shuffle(&mut StdRng::seed_from_u64(cfg.seed));
    let n_val = ((keys.len() as f64 * cfg.validation).round() as usize).min(keys.len().saturating_sub(1));
    let val: BTreeSet<&str> = keys[..n_val].iter().copied().collect();
    (0..samples.len()).partition(|&i| !val.contains(key(i)))
}

/// A trained ensemble with what it needs to predict.
pub struct Trained {
    pub nets: Vec<Mlp<Backend>>,
    pub normalizer: Normalizer,
    /// Per member: the epoch of its best validation score (the one kept).
    pub best_epochs: Vec<usize>,
    /// Mean over the members at their kept epochs.
    pub train_loss: f64,
    /// Of the ensemble's mean output.
    pub val_loss: f64,
    pub train_rows: usize,
    pub val_rows: usize,
    pub train_instances: usize,
    pub val_instances: usize,
}

/// Per-epoch report: ensemble member, epoch, mean training loss, validation loss.
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize, f64, f64);

/// Encoded training data shared by every member.
struct Split<'a> {
    xs: &'a [Vec<f32>],
    ys: &'a [f32],
    train: &'a [usize],
    val: &'a [usize],
    /// Measured seconds of the `val` rows, grouped by instance.
    val_instances: Vec<Vec<(usize, f64)>>,
    /// Rows of `train` and of `val` grouped by instance (indices into `xs`),
    /// where a pairwise loss finds its pairs.
    train_groups: Vec<Vec<usize>>,
    val_groups: Vec<Vec<usize>>,
    /// The untiled original's rows among `train`.
    train_untiled: Vec<usize>,
}

impl Split<'_> {
    /// Mean over validation instances of the measured time of the predicted
    /// best 10 % over the instance's best (T6-Random's TN; 1 is perfect).
    /// `pred` is indexed like `val`. Smoother than T1's TN, which follows a
    /// single tile per instance.
    fn ranking_tn(&self, pred: &[f32]) -> f64 {
        let tn = |inst: &Vec<(usize, f64)>| {
            let p: Vec<f64> = inst.iter().map(|&(k, _)| f64::from(pred[k])).collect();
            let kept = crate::select::keep_best(&p);
            let best = inst.iter().map(|&(_, t)| t).fold(f64::INFINITY, f64::min);
            kept.iter().map(|&j| inst[j].1).sum::<f64>() / kept.len() as f64 / best
        };
        self.val_instances.iter().map(tn).sum::<f64>() / self.val_instances.len().max(1) as f64
    }
}

/// Inputs and targets of every sample.
fn encode(samples: &[Sample], normalizer: &Normalizer, cfg: &TrainConfig) -> (Vec<Vec<f32>>, Vec<f32>) {
    let xs = samples.iter().map(|s| normalizer.apply(&s.x)).collect();
    let mut fastest: std::collections::HashMap<&str, f64> = Default::default();
    for s in samples {
        let f = fastest.entry(s.group.as_str()).or_insert(f64::INFINITY);
        *f = f.min(s.seconds);
    }
    let ys = samples.iter().map(|s| cfg.encode(s.seconds, fastest[s.group.as_str()])).collect();
    (xs, ys)
}

impl<'a> Split<'a> {
    /// The encoded samples split into `train` and `val` rows, each grouped
    /// by instance.
    fn new(samples: &[Sample], xs: &'a [Vec<f32>], ys: &'a [f32], train: &'a [usize], val: &'a [usize]) -> Self {
        let val_groups = groups(samples, val);
        let position: std::collections::HashMap<usize, usize> = val.iter().enumerate().map(|(k, &i)| (i, k)).collect();
        let val_instances =
            val_groups.iter().map(|g| g.iter().map(|&i| (position[&i], samples[i].seconds)).collect()).collect();
        let train_untiled = train.iter().copied().filter(|&i| samples[i].untiled).collect();
        Split { xs, ys, train, val, val_instances, train_groups: groups(samples, train), val_groups, train_untiled }
    }
}

/// The training rows of an epoch, each untiled row `untiled_weight` times
/// ([`TrainConfig::untiled_weight`]).
fn weighted_order(data: &Split, untiled_weight: usize) -> Vec<usize> {
    let repeats = untiled_weight.max(1) - 1;
    let extra = data.train_untiled.iter().flat_map(|&i| std::iter::repeat_n(i, repeats));
    data.train.iter().copied().chain(extra).collect()
}

/// Rows `idx` grouped by instance (indices into `samples`).
fn groups(samples: &[Sample], idx: &[usize]) -> Vec<Vec<usize>> {
    let mut by: std::collections::BTreeMap<&str, Vec<usize>> = Default::default();
    for &i in idx {
        by.entry(samples[i].group.as_str()).or_default().push(i);
    }
    by.into_values().collect()
}

/// Two configs of one instance for the pairwise loss: the faster, the
/// slower, and the weight of getting their order right.
type Pair = (usize, usize, f32);

/// Targets closer than this (a 2 % time ratio for log targets) are timing
/// noise, not an order to learn.
const MIN_GAP: f32 = 0.02;
/// Pairs drawn per row and epoch (all pairs would grow with the square of
/// the configs per instance).
const PAIRS_PER_ROW: usize = 4;

/// The pair of rows `i` and `j` ordered fastest first, weighted by their
/// log time ratio (capped, so one pathological config does not dominate);
/// `None` when their times are within noise.
fn pair(ys: &[f32], i: usize, j: usize) -> Option<Pair> {
    let gap = ys[j] - ys[i];
    if gap.abs() < MIN_GAP {
        return None;
    }
    let w = gap.abs().min(2.0);
    Some(if gap > 0.0 { (i, j, w) } else { (j, i, w) })
}

/// A fresh random sample of pairs within each instance, for one epoch.
fn sample_pairs(groups: &[Vec<usize>], ys: &[f32], rng: &mut StdRng) -> Vec<Pair> {
    use rand::Rng;
    let mut out = Vec::new();
    for g in groups.iter().filter(|g| g.len() > 1) {
        for &i in g {
            for _ in 0..PAIRS_PER_ROW {
                out.extend(pair(ys, i, g[rng.random_range(0..g.len())]));
            }
        }
    }
    out.shuffle(rng);
    out
}

/// Mean weighted pairwise logistic loss over every pair within `groups`,
/// for predictions `pred` indexed like `xs` (rows outside `groups` unread).
fn pairwise_mean(pred: &[f32], ys: &[f32], groups: &[Vec<usize>]) -> f64 {
    let (mut sum, mut weight) = (0.0, 0.0);
    for g in groups {
        for (a, &i) in g.iter().enumerate() {
            for &j in &g[a + 1..] {
                if let Some((fast, slow, w)) = pair(ys, i, j) {
                    let d = f64::from(pred[fast] - pred[slow]);
                    // softplus(d) = ln(1 + e^d), stable for large |d|.
                    sum += f64::from(w) * (d.max(0.0) + (-d.abs()).exp().ln_1p());
                    weight += f64::from(w);
                }
            }
        }
    }
    if weight > 0.0 { sum / weight } else { 0.0 }
}

/// One member's network at its best epoch.
struct Member {
    net: Mlp<Backend>,
    best_epoch: usize,
    train_loss: f64,
}

pub fn train(samples: &[Sample], cfg: &TrainConfig, progress: Progress) -> Result<Trained, String> {
    if samples.is_empty() {
        let set = cfg.feature_set;
        let mut hint = String::new();
        if set > crate::dataset::STORED {
            hint += &format!("; the {set} set's last columns come from the kernels' sources: give --kernels");
        }
        if set.needs_compiler() {
            hint += "; run tss estimate on the rows first";
        }
        return Err(format!("no usable rows (status ok, tiled, with features) to train on{hint}"));
    }
    check_loss(cfg)?;
    let (tr, va) = split(samples, cfg);
    let instances = |idx: &[usize]| instance_count(idx.iter().map(|&i| &samples[i]));
    let normalizer = Normalizer::fit(&tr.iter().map(|&i| samples[i].x.clone()).collect::<Vec<_>>(), cfg.log_inputs);
    let (xs, ys) = encode(samples, &normalizer, cfg);
    let data = Split::new(samples, &xs, &ys, &tr, &va);
    let mut members = Vec::new();
    for k in 0..cfg.ensemble.max(1) {
        let seed = cfg.seed.wrapping_add(k as u64);
        members.push(train_member(&data, cfg, seed, &mut |e, tl, vl| progress(k, e, tl, vl))?);
    }
    let nets: Vec<Mlp<Backend>> = members.iter().map(|m| m.net.clone()).collect();
    let train_loss = members.iter().map(|m| m.train_loss).sum::<f64>() / members.len() as f64;
    let val_loss = if va.is_empty() { train_loss } else { loss_on(&nets, &data, &va, &data.val_groups, cfg) };
    Ok(Trained {
        nets,
        normalizer,
        best_epochs: members.iter().map(|m| m.best_epoch).collect(),
        train_loss,
        val_loss,
        train_rows: tr.len(),
        val_rows: va.len(),
        train_instances: instances(&tr),
        val_instances: instances(&va),
    })
}

/// The optimiser every network trains with.
type Optim = burn::optim::adaptor::OptimizerAdaptor<burn::optim::RmsProp, Mlp<TrainBackend>, TrainBackend>;

/// One network in training: its weights, optimiser state and batch order.
struct Learner {
    /// Taken for the length of each optimiser step, which consumes it.
    model: Option<Mlp<TrainBackend>>,
    optim: Optim,
    huber: burn::nn::loss::HuberLoss,
    rng: StdRng,
    order: Vec<usize>,
    device: burn::tensor::Device<TrainBackend>,
}

impl Learner {
    /// A network seeded with `seed` (dropout, initial weights unless
    /// `start` gives them, batch order) for `data`'s training rows.
    fn new(data: &Split, cfg: &TrainConfig, seed: u64, start: Option<&Mlp<Backend>>) -> Result<Learner, String> {
        let device = Default::default();
        TrainBackend::seed(&device, seed);
        let shell = Mlp::new(data.xs[0].len(), cfg.hidden, cfg.dropout, &device);
        let model = match start {
            Some(net) => to_autodiff(net, shell, &device)?,
            None => shell,
        };
        let decay = (cfg.weight_decay > 0.0).then(|| WeightDecayConfig::new(cfg.weight_decay as f32));
        let optim = RmsPropConfig::new().with_alpha(0.9).with_momentum(0.0).with_weight_decay(decay).init();
        Ok(Learner {
            model: Some(model),
            optim,
            huber: HuberLossConfig::new(cfg.huber_delta).init(),
            rng: StdRng::seed_from_u64(seed),
            order: weighted_order(data, cfg.untiled_weight),
            device,
        })
    }

    /// One pass over the training rows (or pairs) in shuffled mini-batches;
    /// returns the mean training loss.
    fn epoch(&mut self, data: &Split, cfg: &TrainConfig) -> f64 {
        let batches: Vec<Batch> = match cfg.loss {
            Loss::Huber => {
                self.order.shuffle(&mut self.rng);
                self.order.chunks(cfg.batch_size.max(1)).map(|b| Batch::Rows(b.to_vec())).collect()
            }
            Loss::Pairwise => sample_pairs(&data.train_groups, data.ys, &mut self.rng)
                .chunks(cfg.batch_size.max(1))
                .map(|b| Batch::Pairs(b.to_vec()))
                .collect(),
        };
        let mut model = self.model.take().expect("a learner holds its model between steps");
        let (mut total, mut count) = (0.0, 0);
        for batch in &batches {
            let (loss, n) = batch_loss(&model, &self.huber, data.xs, data.ys, batch, &self.device);
            total += scalar(loss.clone()) * n as f64;
            count += n;
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = self.optim.step(cfg.learning_rate, model, grads);
        }
        self.model = Some(model);
        total / count.max(1) as f64
    }

    /// The network as it stands, for inference.
    fn net(&self) -> Mlp<Backend> {
        self.model.as_ref().expect("a learner holds its model between steps").valid()
    }
}

/// Trains one network from `seed`, keeping the epoch that scores best on
/// the validation instances by `cfg.stop_on` (ties: lower loss) and
/// stopping after `cfg.patience` epochs without a better one.
fn train_member(
    data: &Split,
    cfg: &TrainConfig,
    seed: u64,
    progress: &mut dyn FnMut(usize, f64, f64),
) -> Result<Member, String> {
    let mut learner = Learner::new(data, cfg, seed, None)?;
    let val_rows: Vec<Vec<f32>> = data.val.iter().map(|&i| data.xs[i].clone()).collect();
    let mut best: Option<(Member, (f64, f64))> = None;
    let mut since_best = 0;
    for epoch in 1..=cfg.max_epochs {
        let train_loss = learner.epoch(data, cfg);
        let net = learner.net();
        let (val_loss, score) = if data.val.is_empty() {
            (train_loss, (train_loss, train_loss))
        } else {
            let pred = forward(&net, &val_rows);
            let loss = loss_of(&pred, data, data.val, &data.val_groups, cfg);
            (loss, if cfg.stop_on == StopOn::Loss { (loss, 0.0) } else { (data.ranking_tn(&pred), loss) })
        };
        progress(epoch, train_loss, val_loss);
        if best.as_ref().is_none_or(|b| score < b.1) {
            best = Some((Member { net, best_epoch: epoch, train_loss }, score));
            since_best = 0;
        } else {
            since_best += 1;
            if since_best >= cfg.patience {
                break;
            }
        }
    }
    best.map(|b| b.0).ok_or_else(|| "training ran no epoch (max_epochs = 0)".into())
}

/// What [`fine_tune`] kept.
pub struct Tuned {
    pub nets: Vec<Mlp<Backend>>,
    /// The epoch every member kept (0: the base weights).
    pub epoch: usize,
    /// Epochs trained before stopping.
    pub ran: usize,
    /// Whether the deadline, not patience or `max_epochs`, stopped it.
    pub hit_deadline: bool,
}

/// Continues training the members `base` (with their `normalizer` and
/// target) on `samples`: each starts from its weights and trains on most of
/// the instances. They train in lockstep, and all keep the one epoch, 0
/// included, at which their mean scores best on the rest ([`Keeper`]),
/// stopping after `cfg.patience` epochs without a better one or at
/// `deadline`. So the result moves only as far as the new rows pull it,
/// and not at all when they do not help.
///
/// `rehearse` rows (e.g. some of the base model's own training rows) are
/// trained on beside them but never validated on: they hold the networks
/// to what they knew, which tuning on a few new kernels alone wears away.
pub fn fine_tune(
    base: &[Mlp<Backend>],
    normalizer: &Normalizer,
    samples: &[Sample],
    rehearse: &[Sample],
    cfg: &TrainConfig,
    deadline: Option<std::time::Instant>,
    progress: Progress,
) -> Result<Tuned, String> {
    if samples.is_empty() {
        return Err("no usable rows (status ok, tiled, with features) to adapt on".into());
    }
    check_loss(cfg)?;
    let (tr, va) = split(samples, cfg);
    // Rehearsed instances keep their own reference time even where a file of
    // this machine repeats an instance of the new rows.
    let all: Vec<Sample> = samples
        .iter()
        .cloned()
        .chain(rehearse.iter().map(|s| Sample { group: format!("rehearsed:{}", s.group), ..s.clone() }))
        .collect();
    let tr: Vec<usize> = tr.into_iter().chain(samples.len()..all.len()).collect();
    let (xs, ys) = encode(&all, normalizer, cfg);
    let data = Split::new(&all, &xs, &ys, &tr, &va);
    let seeds: Vec<u64> = (0..base.len()).map(|k| cfg.seed.wrapping_add(k as u64)).collect();
    let mut learners = base
        .iter()
        .zip(&seeds)
        .map(|(net, &seed)| Learner::new(&data, cfg, seed, Some(net)))
        .collect::<Result<Vec<_>, _>>()?;
    let val_rows: Vec<Vec<f32>> = va.iter().map(|&i| xs[i].clone()).collect();
    let predict = |nets: &[Mlp<Backend>]| nets.iter().map(|n| forward(n, &val_rows)).collect::<Vec<_>>();
    let score = |preds: &[Vec<f32>]| (!va.is_empty()).then(|| ensemble_score(preds, &data, cfg));
    let mut keeper = Keeper::new(cfg.patience);
    keeper.offer(0, score(&predict(base)));
    let mut kept = base.to_vec();
    let (mut ran, mut hit_deadline) = (0, false);
    for epoch in 1..=cfg.max_epochs {
        if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            hit_deadline = true;
            break;
        }
        let mut nets = Vec::with_capacity(learners.len());
        let mut train_losses = Vec::with_capacity(learners.len());
        for (learner, seed) in learners.iter_mut().zip(&seeds) {
            // Each member's dropout stream depends on its seed and the epoch
            // only, not on the members trained before it.
            TrainBackend::seed(&learner.device, seed ^ ((epoch as u64) << 32));
            train_losses.push(learner.epoch(&data, cfg));
            nets.push(learner.net());
        }
        let preds = predict(&nets);
        for (k, (tl, pred)) in train_losses.iter().zip(&preds).enumerate() {
            let vl = if va.is_empty() { *tl } else { loss_of(pred, &data, &va, &data.val_groups, cfg) };
            progress(k, epoch, *tl, vl);
        }
        ran = epoch;
        if keeper.offer(epoch, score(&preds)) {
            kept = nets;
        }
        if keeper.exhausted() {
            break;
        }
    }
    Ok(Tuned { nets: kept, epoch: keeper.epoch, ran, hit_deadline })
}

/// The score of the members' mean output on the validation instances by
/// `cfg.stop_on` (lower is better). The mean is what picks, so it is what
/// is scored: each member choosing its own epoch on a few dozen instances
/// kept epochs as far apart as 0, 14 and 150 in one fit.
fn ensemble_score(preds: &[Vec<f32>], data: &Split, cfg: &TrainConfig) -> f64 {
    let n = preds.len().max(1) as f32;
    let mean: Vec<f32> = (0..preds[0].len()).map(|r| preds.iter().map(|p| p[r]).sum::<f32>() / n).collect();
    match cfg.stop_on {
        StopOn::Loss => loss_of(&mean, data, data.val, &data.val_groups, cfg),
        StopOn::Ranking => data.ranking_tn(&mean),
    }
}

/// Chooses, as epochs come in, the one epoch the members keep: the first
/// with the lowest score, or with no score (nothing held out) the latest.
/// Exhausted after `patience` scored epochs without a better one.
struct Keeper {
    epoch: usize,
    best: Option<f64>,
    since: usize,
    patience: usize,
}

impl Keeper {
    fn new(patience: usize) -> Keeper {
        Keeper { epoch: 0, best: None, since: 0, patience }
    }

    /// Whether `epoch`, scoring `score`, is now the one kept.
    fn offer(&mut self, epoch: usize, score: Option<f64>) -> bool {
        let better = match (score, self.best) {
            (None, _) => true,
            (Some(s), None) => !s.is_nan(),
            (Some(s), Some(b)) => s < b,
        };
        if better {
            (self.epoch, self.best, self.since) = (epoch, score, 0);
        } else {
            self.since += 1;
        }
        better
    }

    fn exhausted(&self) -> bool {
        self.since >= self.patience.max(1)
    }
}

/// The linear correction of the frozen ensemble `nets` (with its
/// `normalizer` and `cfg.target`) that picks best on `samples` by
/// cross-validation over instances, if any picks better than `nets` alone;
/// see [`super::correct`]. Only for log targets: a correction of seconds
/// would weigh instances by how long they run.
pub fn correction(
    nets: &[Mlp<Backend>],
    normalizer: &Normalizer,
    samples: &[Sample],
    cfg: &TrainConfig,
) -> Option<super::correct::Correction> {
    if samples.is_empty() || cfg.target == Target::Time {
        return None;
    }
    let (xs, ys) = encode(samples, normalizer, cfg);
    let base = forward_mean(nets, &xs);
    let rows: Vec<super::correct::Row> = (0..samples.len())
        .map(|i| super::correct::Row { z: &xs[i], base: base[i], y: ys[i], group: &samples[i].group })
        .collect();
    super::correct::fit(&rows, cfg.seed)
}

/// A trained network as a trainable one, loaded into `shell` (of the same
/// shape) through its record's bytes: the two backends' records are
/// different types.
fn to_autodiff<B: burn::tensor::backend::Backend>(
    net: &Mlp<Backend>,
    shell: Mlp<B>,
    device: &B::Device,
) -> Result<Mlp<B>, String> {
    use burn::module::Module;
    use burn::record::{BinBytesRecorder, FullPrecisionSettings, Recorder};
    let recorder = BinBytesRecorder::<FullPrecisionSettings>::default();
    let bytes = recorder.record(net.clone().into_record(), ()).map_err(|e| format!("model record: {e}"))?;
    let record = recorder.load(bytes, device).map_err(|e| format!("model record: {e}"))?;
    Ok(shell.load_record(record))
}

fn tensors<B: burn::tensor::backend::Backend>(
    xs: &[Vec<f32>],
    ys: &[f32],
    idx: &[usize],
    device: &B::Device,
) -> (Tensor<B, 2>, Tensor<B, 2>) {
    let d = xs[idx[0]].len();
    let flat: Vec<f32> = idx.iter().flat_map(|&i| xs[i].iter().copied()).collect();
    let y: Vec<f32> = idx.iter().map(|&i| ys[i]).collect();
    (
        Tensor::from_data(TensorData::new(flat, [idx.len(), d]), device),
        Tensor::from_data(TensorData::new(y, [idx.len(), 1]), device),
    )
}

fn scalar<B: burn::tensor::backend::Backend>(t: Tensor<B, 1>) -> f64 {
    t.into_data().to_vec::<f32>().ok().and_then(|v| v.first().copied()).map_or(f64::NAN, f64::from)
}

/// One mini-batch: rows (Huber) or pairs within instances (pairwise).
enum Batch {
    Rows(Vec<usize>),
    Pairs(Vec<Pair>),
}

/// The batch's mean loss as a differentiable tensor, and how many rows or
/// pairs it averages.
fn batch_loss(
    model: &Mlp<TrainBackend>,
    huber: &burn::nn::loss::HuberLoss,
    xs: &[Vec<f32>],
    ys: &[f32],
    batch: &Batch,
    device: &burn::tensor::Device<TrainBackend>,
) -> (Tensor<TrainBackend, 1>, usize) {
    match batch {
        Batch::Rows(rows) => {
            let (x, y) = tensors::<TrainBackend>(xs, ys, rows, device);
            (huber.forward(model.forward(x), y, Reduction::Mean), rows.len())
        }
        Batch::Pairs(pairs) => {
            let fast: Vec<usize> = pairs.iter().map(|p| p.0).collect();
            let slow: Vec<usize> = pairs.iter().map(|p| p.1).collect();
            let w: Vec<f32> = pairs.iter().map(|p| p.2).collect();
            let (xf, _) = tensors::<TrainBackend>(xs, ys, &fast, device);
            let (xsl, _) = tensors::<TrainBackend>(xs, ys, &slow, device);
            let total: f32 = w.iter().sum();
            let w = Tensor::<TrainBackend, 2>::from_data(TensorData::new(w, [pairs.len(), 1]), device);
            let d = model.forward(xf) - model.forward(xsl);
            ((softplus(d, 1.0) * w).sum() / total, pairs.len())
        }
    }
}

/// Mean loss (Huber or pairwise, as `cfg` trains) of the mean output of
/// `nets` on rows `idx`, whose instances are `groups`.
fn loss_on(nets: &[Mlp<Backend>], data: &Split, idx: &[usize], groups: &[Vec<usize>], cfg: &TrainConfig) -> f64 {
    let pred = forward_mean(nets, &idx.iter().map(|&i| data.xs[i].clone()).collect::<Vec<_>>());
    loss_of(&pred, data, idx, groups, cfg)
}

/// Mean loss of predictions `pred` for rows `idx` (indexed like `idx`).
fn loss_of(pred: &[f32], data: &Split, idx: &[usize], groups: &[Vec<usize>], cfg: &TrainConfig) -> f64 {
    match cfg.loss {
        Loss::Huber => huber_mean(pred, idx.iter().map(|&i| data.ys[i]), cfg.huber_delta),
        Loss::Pairwise => {
            let mut full = vec![0.0; data.xs.len()];
            for (&i, &p) in idx.iter().zip(pred) {
                full[i] = p;
            }
            pairwise_mean(&full, data.ys, groups)
        }
    }
}

/// A pairwise loss compares log times; on seconds it would weigh pairs by
/// the instance's size.
fn check_loss(cfg: &TrainConfig) -> Result<(), String> {
    if cfg.loss == Loss::Pairwise && cfg.target == Target::Time {
        return Err("the pairwise loss needs a log target (--target relative or log-time), not time".into());
    }
    cfg.check_cap()
}

/// Mean Huber loss of predictions against targets.
fn huber_mean(pred: &[f32], ys: impl Iterator<Item = f32>, delta: f32) -> f64 {
    let d = f64::from(delta);
    let sum: f64 = pred
        .iter()
        .zip(ys)
        .map(|(&p, y)| {
            let r = f64::from((p - y).abs());
            if r <= d { 0.5 * r * r } else { d * (r - 0.5 * d) }
        })
        .sum();
    sum / pred.len().max(1) as f64
}

/// Mean output of `nets` (an ensemble) for already-normalised rows.
pub fn forward_mean(nets: &[Mlp<Backend>], rows: &[Vec<f32>]) -> Vec<f32> {
    forward_cautious(nets, rows, 0.0)
}

/// The members' mean output per row plus `caution` times their standard
/// deviation (population; 0 for one member).
pub fn forward_cautious(nets: &[Mlp<Backend>], rows: &[Vec<f32>], caution: f32) -> Vec<f32> {
    let outs: Vec<Vec<f32>> = nets.iter().map(|net| forward(net, rows)).collect();
    let n = nets.len().max(1) as f32;
    (0..rows.len())
        .map(|i| {
            let mean = outs.iter().map(|o| o[i]).sum::<f32>() / n;
            if caution == 0.0 {
                return mean;
            }
            let var = outs.iter().map(|o| (o[i] - mean).powi(2)).sum::<f32>() / n;
            mean + caution * var.sqrt()
        })
        .collect()
}

/// Network outputs for already-normalised rows, in one batch.
pub fn forward(net: &Mlp<Backend>, rows: &[Vec<f32>]) -> Vec<f32> {
    if rows.is_empty() {
        return Vec::new();
    }
    let device = Default::default();
    let idx: Vec<usize> = (0..rows.len()).collect();
    let (x, _) = tensors::<Backend>(rows, &vec![0.0; rows.len()], &idx, &device);
    net.forward(x).into_data().to_vec::<f32>().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranking_tn_scores_the_predicted_best_tenth_of_each_instance() {
        // Two instances of 20 tiles (10 % keeps 2): times 1..20 s and 2..40 s.
        let times: Vec<f64> = (1..=20).map(f64::from).collect();
        let mut val_instances = vec![times.iter().enumerate().map(|(k, &t)| (k, t)).collect::<Vec<_>>()];
        val_instances.push(times.iter().enumerate().map(|(k, &t)| (20 + k, 2.0 * t)).collect());
        let split = Split {
            xs: &[],
            ys: &[],
            train: &[],
            val: &[],
            val_instances,
            train_groups: vec![],
            val_groups: vec![],
            train_untiled: vec![],
        };
        // A perfect ranking keeps tiles 1 and 2 s: (1 + 2) / 2 / 1 on both instances.
        let perfect: Vec<f32> = (0..40).map(|k| (k % 20) as f32).collect();
        assert!((split.ranking_tn(&perfect) - 1.5).abs() < 1e-12);
        // Reversed on the second instance only: it keeps 40 and 38 s over a best of 2 s.
        let half: Vec<f32> = (0..40).map(|k| if k < 20 { k as f32 } else { (40 - k) as f32 }).collect();
        assert!((split.ranking_tn(&half) - (1.5 + 19.5) / 2.0).abs() < 1e-12);
    }

    #[test]
    fn members_keep_the_one_epoch_where_their_mean_picks_best() {
        // One validation instance of three configs timed 1, 2 and 3 s.
        let val_instances = vec![vec![(0, 1.0), (1, 2.0), (2, 3.0)]];
        let val = [0, 1, 2];
        let split = Split {
            xs: &[],
            ys: &[],
            train: &[],
            val: &val,
            val_instances,
            train_groups: vec![],
            val_groups: vec![],
            train_untiled: vec![],
        };
        let cfg = TrainConfig { stop_on: StopOn::Ranking, ..TrainConfig::default() };
        // The epoch kept from the members' predictions, epoch by epoch.
        let kept = |a: &[[f32; 3]], b: &[[f32; 3]], patience: usize| {
            let mut keeper = Keeper::new(patience);
            for (e, (pa, pb)) in a.iter().zip(b).enumerate() {
                keeper.offer(e, Some(ensemble_score(&[pa.to_vec(), pb.to_vec()], &split, &cfg)));
                if keeper.exhausted() {
                    return (keeper.epoch, e);
                }
            }
            (keeper.epoch, a.len() - 1)
        };
        // Alone, member a picks the 1 s config at epoch 1 only and member b
        // at epoch 2 only; their mean picks it from epoch 1 on, and the
        // first such epoch is kept.
        let a = [[5.0, 0.0, 9.0], [0.0, 1.0, 9.0], [1.0, 0.0, 9.0], [1.0, 0.0, 9.0]];
        let b = [[5.0, 0.0, 9.0], [0.5, 0.0, 9.0], [0.0, 3.0, 9.0], [0.0, 3.0, 9.0]];
        assert_eq!(kept(&a, &b, 10), (1, 3));
        // Patience 2: stopped at epoch 3, two epochs after the best.
        assert_eq!(kept(&a, &b, 2), (1, 3));
        assert_eq!(kept(&a, &b, 1), (1, 2));
        // Where no epoch beats the starting weights, they stay.
        let start_best = [[0.0, 1.0, 9.0], [1.0, 0.0, 9.0], [1.0, 0.0, 9.0]];
        assert_eq!(kept(&start_best, &start_best, 10).0, 0);
        // With nothing held out, the latest epoch, and patience never runs out.
        let mut blind = Keeper::new(1);
        for e in 0..5 {
            assert!(blind.offer(e, None) && !blind.exhausted());
        }
        assert_eq!(blind.epoch, 4);
    }

    #[test]
    fn fine_tuning_stops_at_the_deadline_or_after_patience() {
        // 20 instances of 6 configs: time = size * (1 + (c - 0.5)^2).
        let samples: Vec<Sample> = (0..120)
            .map(|i| {
                let (size, c) = (1.0 + (i / 6) as f64, (i % 6) as f64 / 5.0);
                Sample {
                    group: format!("i{}", i / 6),
                    x: vec![size, c],
                    seconds: size * (1.0 + (c - 0.5).powi(2)),
                    untiled: false,
                }
            })
            .collect();
        let cfg = TrainConfig { target: Target::Relative, max_epochs: 40, patience: 3, ..TrainConfig::default() };
        let base = train(&samples, &TrainConfig { max_epochs: 2, ..cfg.clone() }, &mut |_, _, _, _| {}).unwrap();
        let tune =
            |deadline| fine_tune(&base.nets, &base.normalizer, &samples, &[], &cfg, deadline, &mut |_, _, _, _| {});
        // A deadline already past: no epoch trained, the base weights kept.
        let t = tune(Some(std::time::Instant::now())).unwrap();
        assert_eq!((t.ran, t.epoch, t.hit_deadline), (0, 0, true));
        let same = forward_mean(&t.nets, &[vec![0.5, 0.5]]) == forward_mean(&base.nets, &[vec![0.5, 0.5]]);
        assert!(same, "the base networks are returned unchanged");
        // None: it trains until three epochs pass without a better one.
        let t = tune(None).unwrap();
        assert!(!t.hit_deadline && t.ran >= 1, "ran {}", t.ran);
        assert!(t.ran == cfg.max_epochs || t.ran == t.epoch + cfg.patience, "ran {}, kept {}", t.ran, t.epoch);
    }

    #[test]
    fn pairwise_loss_scores_order_within_instances_and_ignores_noise() {
        // One instance of three configs, 0, 50 and 100 % slower than its best.
        let ys = [0.0, 0.5, 1.0, 0.0, 0.01];
        let groups = vec![vec![0, 1, 2], vec![3, 4]];
        let right = pairwise_mean(&[0.0, 1.0, 2.0, 0.0, 0.0], &ys, &groups[..1]);
        let wrong = pairwise_mean(&[2.0, 1.0, 0.0, 0.0, 0.0], &ys, &groups[..1]);
        assert!(right < 0.32 && wrong > 1.3, "right {right}, wrong {wrong}");
        // Rows 3 and 4 differ by less than the noise gap: no pair, whatever the scores.
        assert_eq!(pairwise_mean(&[0.0, 0.0, 0.0, 5.0, -5.0], &ys, &groups[1..]), 0.0);
        // Sampled pairs stay inside an instance and put the faster first.
        for (fast, slow, w) in sample_pairs(&groups, &ys, &mut StdRng::seed_from_u64(1)) {
            assert!(groups.iter().any(|g| g.contains(&fast) && g.contains(&slow)));
            assert!(ys[fast] + MIN_GAP <= ys[slow] && (w - (ys[slow] - ys[fast])).abs() < 1e-6);
        }
    }

    #[test]
    fn pairwise_training_learns_where_the_best_config_lies() {
        // 40 instances of 12 configs: time = size * (1 + 4 (c - b)^2), with
        // the best config c = b moving with the instance's second feature.
        let mut samples = Vec::new();
        for inst in 0..40 {
            let (size, b) = (1.0 + inst as f64, 0.2 + 0.6 * (inst % 5) as f64 / 4.0);
            for k in 0..12 {
                let c = k as f64 / 11.0;
                let seconds = size * (1.0 + 4.0 * (c - b).powi(2));
                samples.push(Sample { group: format!("i{inst}"), x: vec![size, b, c], seconds, untiled: false });
            }
        }
        let cfg = TrainConfig {
            target: Target::Relative,
            loss: Loss::Pairwise,
            max_epochs: 150,
            patience: 150,
            learning_rate: 3e-3,
            batch_size: 64,
            stop_on: StopOn::Ranking,
            ..TrainConfig::default()
        };
        let t = train(&samples, &cfg, &mut |_, _, _, _| {}).unwrap();
        // On fresh instances the lowest score lies within one step of the best config.
        for b in [0.2, 0.5, 0.8] {
            let rows: Vec<Vec<f32>> = (0..12).map(|k| t.normalizer.apply(&[7.5, b, k as f64 / 11.0])).collect();
            let pred = forward_mean(&t.nets, &rows);
            let pick = (0..12).min_by(|&x, &y| pred[x].total_cmp(&pred[y])).unwrap() as f64 / 11.0;
            assert!((pick - b).abs() <= 0.1, "best {b}: picked {pick}, scores {pred:?}");
        }
        let huber = TrainConfig { target: Target::Time, ..cfg };
        let e = train(&samples, &huber, &mut |_, _, _, _| {}).err().unwrap();
        assert!(e.contains("log target"), "{e}");
    }

    #[test]
    fn configs_saved_before_ensembles_read_as_one_network_stopped_on_loss() {
        let mut v = serde_json::to_value(TrainConfig::default()).unwrap();
        let map = v.as_object_mut().unwrap();
        map.remove("ensemble");
        map.remove("stop_on");
        let old: TrainConfig = serde_json::from_value(v).unwrap();
        assert_eq!((old.ensemble, old.stop_on), (1, StopOn::Loss));
        assert_eq!("ranking".parse::<StopOn>().unwrap().to_string(), "ranking");
        assert!("best".parse::<StopOn>().is_err());
        let mut v = serde_json::to_value(TrainConfig::default()).unwrap();
        v.as_object_mut().unwrap().retain(|k, _| k != "val_by" && k != "weight_decay");
        let old: TrainConfig = serde_json::from_value(v).unwrap();
        assert_eq!((old.val_by, old.weight_decay), (crate::model::ValBy::Instance, 0.0));
    }

    #[test]
    fn an_untiled_weight_repeats_the_untiled_rows_of_an_epoch() {
        let samples: Vec<Sample> = (0..6)
            .map(|i| Sample { group: format!("i{}", i / 3), x: vec![f64::from(i)], seconds: 1.0, untiled: i % 3 == 0 })
            .collect();
        let (xs, ys) = (vec![vec![0.0f32]; 6], vec![0.0f32; 6]);
        let (train, val) = ([0, 1, 2, 3, 4, 5], []);
        let data = Split::new(&samples, &xs, &ys, &train, &val);
        assert_eq!(weighted_order(&data, 1), vec![0, 1, 2, 3, 4, 5]);
        let mut three = weighted_order(&data, 3);
        three.sort_unstable();
        assert_eq!(three, vec![0, 0, 0, 1, 2, 3, 3, 3, 4, 5], "rows 0 and 3 time the untiled code");
        // Saved without the field, a model reads as weight 1, and weight 1 is not written.
        let cfg = TrainConfig::default();
        let v = serde_json::to_value(&cfg).unwrap();
        assert!(v.get("untiled_weight").is_none());
        assert_eq!(serde_json::from_value::<TrainConfig>(v).unwrap().untiled_weight, 1);
    }

    #[test]
    fn kernel_split_holds_out_whole_kernels() {
        use crate::model::ValBy;
        // 10 kernels of 5 instances of 3 rows each.
        let samples: Vec<Sample> = (0..150)
            .map(|i| Sample {
                group: format!("k{}|N={}", i / 15, i / 3 % 5),
                x: vec![0.0],
                seconds: 1.0,
                untiled: false,
            })
            .collect();
        let kernel = |i: &usize| samples[*i].group.split('|').next().unwrap().to_string();
        let by_kernel = TrainConfig { val_by: ValBy::Kernel, validation: 0.2, ..TrainConfig::default() };
        let (tr, va) = split(&samples, &by_kernel);
        let (tk, vk): (BTreeSet<_>, BTreeSet<_>) = (tr.iter().map(kernel).collect(), va.iter().map(kernel).collect());
        assert_eq!((tk.len(), vk.len(), va.len()), (8, 2, 30));
        assert!(tk.is_disjoint(&vk));
        // By instance, a tenth of the 50 instances, drawn across kernels.
        let (_, va) = split(&samples, &TrainConfig { validation: 0.1, ..TrainConfig::default() });
        assert_eq!(va.len(), 15);
        assert!("kernel".parse::<ValBy>().unwrap() == ValBy::Kernel && "family".parse::<ValBy>().is_err());
    }
}
