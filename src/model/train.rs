//! Training: Huber loss, RMSProp, mini-batches, a validation split by
//! instance and early stopping on the validation ranking of tiles (or loss),
//! once per ensemble member
//! (same split and normalisation, different initialisation and batch order).

use std::collections::BTreeSet;

use burn::module::AutodiffModule;
use burn::nn::loss::{HuberLossConfig, Reduction};
use burn::optim::{GradientsParams, Optimizer, RmsPropConfig};
use burn::tensor::backend::Backend as _;
use burn::tensor::{Tensor, TensorData};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::net::Mlp;
use super::{Backend, Normalizer, StopOn, TrainBackend, TrainConfig};
use crate::dataset::Record;
use crate::features::FeatureSet;
use crate::harness::Status;

/// One training example: a measured (instance, tile).
#[derive(Clone, Debug)]
pub struct Sample {
    /// The instance it belongs to (`kernel|sizes`): splits never cut one.
    pub group: String,
    pub x: Vec<f64>,
    /// Measured seconds (median of the runs).
    pub seconds: f64,
}

/// The timed, correct tiled rows of `records` as samples of `set`. Rows of
/// unrolled configs (`64:4x1x4`) serve only a set that describes unrolling:
/// in the others they would repeat a plain tile's features with another time.
pub fn samples(records: &[Record], set: FeatureSet) -> Vec<Sample> {
    records
        .iter()
        .filter(|r| r.status == Status::Ok && r.tile != "untiled")
        .filter(|r| set.describes_unrolling() || !r.tile.contains(':'))
        .filter(|r| r.features.len() >= set.len())
        .filter_map(|r| {
            Some(Sample {
                group: format!("{}|{}", r.kernel, r.sizes),
                x: r.features_of(set).to_vec(),
                seconds: r.time_median?,
            })
        })
        .collect()
}

/// Splits sample indices into (train, validation) by instance.
pub fn split(samples: &[Sample], validation: f64, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let mut groups: Vec<&str> = samples.iter().map(|s| s.group.as_str()).collect::<BTreeSet<_>>().into_iter().collect();
    groups.shuffle(&mut StdRng::seed_from_u64(seed));
    let n_val = ((groups.len() as f64 * validation).round() as usize).min(groups.len().saturating_sub(1));
    let val: BTreeSet<&str> = groups[..n_val].iter().copied().collect();
    (0..samples.len()).partition(|&i| !val.contains(samples[i].group.as_str()))
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

/// Inputs and targets of every sample, and the validation rows `va`
/// grouped by instance (indices into `va`, measured seconds) for ranking.
type Encoded = (Vec<Vec<f32>>, Vec<f32>, Vec<Vec<(usize, f64)>>);

fn encode(samples: &[Sample], normalizer: &Normalizer, cfg: &TrainConfig, va: &[usize]) -> Encoded {
    let xs = samples.iter().map(|s| normalizer.apply(&s.x)).collect();
    let mut fastest: std::collections::HashMap<&str, f64> = Default::default();
    for s in samples {
        let f = fastest.entry(s.group.as_str()).or_insert(f64::INFINITY);
        *f = f.min(s.seconds);
    }
    let ys = samples.iter().map(|s| cfg.target.encode(s.seconds, fastest[s.group.as_str()])).collect();
    let mut by_instance: std::collections::BTreeMap<&str, Vec<(usize, f64)>> = Default::default();
    for (k, &i) in va.iter().enumerate() {
        by_instance.entry(samples[i].group.as_str()).or_default().push((k, samples[i].seconds));
    }
    (xs, ys, by_instance.into_values().collect())
}

/// One member's network at its best epoch.
struct Member {
    net: Mlp<Backend>,
    best_epoch: usize,
    train_loss: f64,
}

pub fn train(samples: &[Sample], cfg: &TrainConfig, progress: Progress) -> Result<Trained, String> {
    if samples.is_empty() {
        return Err("no usable rows (status ok, tiled, with features) to train on".into());
    }
    let (tr, va) = split(samples, cfg.validation, cfg.seed);
    let instances = |idx: &[usize]| idx.iter().map(|&i| samples[i].group.as_str()).collect::<BTreeSet<_>>().len();
    let normalizer = Normalizer::fit(&tr.iter().map(|&i| samples[i].x.clone()).collect::<Vec<_>>());
    let (xs, ys, val_instances) = encode(samples, &normalizer, cfg, &va);
    let data = Split { xs: &xs, ys: &ys, train: &tr, val: &va, val_instances };
    let mut members = Vec::new();
    for k in 0..cfg.ensemble.max(1) {
        let seed = cfg.seed.wrapping_add(k as u64);
        members.push(train_member(&data, cfg, seed, None, &mut |e, tl, vl| progress(k, e, tl, vl))?);
    }
    let nets: Vec<Mlp<Backend>> = members.iter().map(|m| m.net.clone()).collect();
    let train_loss = members.iter().map(|m| m.train_loss).sum::<f64>() / members.len() as f64;
    let val_loss = if va.is_empty() { train_loss } else { loss_on(&nets, &xs, &ys, &va, cfg.huber_delta) };
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

/// Trains one network from `seed` (from `start`'s weights when given,
/// which then competes as epoch 0), keeping the epoch that scores best on
/// the validation instances by `cfg.stop_on` (ties: lower loss) and
/// stopping after `cfg.patience` epochs without a better one.
fn train_member(
    data: &Split,
    cfg: &TrainConfig,
    seed: u64,
    start: Option<&Mlp<Backend>>,
    progress: &mut dyn FnMut(usize, f64, f64),
) -> Result<Member, String> {
    let (xs, ys, tr, va) = (data.xs, data.ys, data.train, data.val);
    let device = Default::default();
    TrainBackend::seed(&device, seed);
    let mut model: Mlp<TrainBackend> = match start {
        Some(net) => to_autodiff(net, Mlp::new(xs[0].len(), cfg.hidden, cfg.dropout, &device), &device)?,
        None => Mlp::new(xs[0].len(), cfg.hidden, cfg.dropout, &device),
    };
    let mut optim = RmsPropConfig::new().with_alpha(0.9).with_momentum(0.0).init::<TrainBackend, Mlp<TrainBackend>>();
    let huber = HuberLossConfig::new(cfg.huber_delta).init();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut order = tr.to_vec();
    // The kept member and its validation score (criterion, then loss).
    let evaluate = |net: &Mlp<Backend>, train_loss: f64| {
        if va.is_empty() {
            return (train_loss, (train_loss, train_loss));
        }
        let pred = forward(net, &va.iter().map(|&i| xs[i].clone()).collect::<Vec<_>>());
        let loss = huber_mean(&pred, va.iter().map(|&i| ys[i]), cfg.huber_delta);
        match cfg.stop_on {
            StopOn::Loss => (loss, (loss, 0.0)),
            StopOn::Ranking => (loss, (data.ranking_tn(&pred), loss)),
        }
    };
    let mut best: Option<(Member, (f64, f64))> = None;
    if start.is_some() {
        let net = model.valid();
        let train_loss = loss_on(std::slice::from_ref(&net), xs, ys, tr, cfg.huber_delta);
        let (_, score) = evaluate(&net, train_loss);
        best = Some((Member { net, best_epoch: 0, train_loss }, score));
    }
    let mut since_best = 0;
    for epoch in 1..=cfg.max_epochs {
        order.shuffle(&mut rng);
        let mut total = 0.0;
        for batch in order.chunks(cfg.batch_size.max(1)) {
            let (x, y) = tensors::<TrainBackend>(xs, ys, batch, &device);
            let loss = huber.forward(model.forward(x), y, Reduction::Mean);
            total += scalar(loss.clone()) * batch.len() as f64;
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(cfg.learning_rate, model, grads);
        }
        let train_loss = total / order.len().max(1) as f64;
        let net = model.valid();
        let (val_loss, score) = evaluate(&net, train_loss);
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

/// Continues training the members `base` (with their `normalizer` and
/// target) on `samples`: each starts from its weights, trains on most of
/// the instances and keeps the epoch, 0 included, whose choices score best
/// on the rest. So the result moves only as far as the new rows pull it,
/// and not at all when they do not help.
pub fn fine_tune(
    base: &[Mlp<Backend>],
    normalizer: &Normalizer,
    samples: &[Sample],
    cfg: &TrainConfig,
    progress: Progress,
) -> Result<(Vec<Mlp<Backend>>, Vec<usize>), String> {
    if samples.is_empty() {
        return Err("no usable rows (status ok, tiled, with features) to adapt on".into());
    }
    let (tr, va) = split(samples, cfg.validation, cfg.seed);
    let (xs, ys, val_instances) = encode(samples, normalizer, cfg, &va);
    let data = Split { xs: &xs, ys: &ys, train: &tr, val: &va, val_instances };
    let mut nets = Vec::new();
    let mut epochs = Vec::new();
    for (k, net) in base.iter().enumerate() {
        let seed = cfg.seed.wrapping_add(k as u64);
        let m = train_member(&data, cfg, seed, Some(net), &mut |e, tl, vl| progress(k, e, tl, vl))?;
        nets.push(m.net);
        epochs.push(m.best_epoch);
    }
    Ok((nets, epochs))
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

/// Mean Huber loss of the mean output of `nets` on rows `idx`.
fn loss_on(nets: &[Mlp<Backend>], xs: &[Vec<f32>], ys: &[f32], idx: &[usize], delta: f32) -> f64 {
    let pred = forward_mean(nets, &idx.iter().map(|&i| xs[i].clone()).collect::<Vec<_>>());
    huber_mean(&pred, idx.iter().map(|&i| ys[i]), delta)
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
    let mut sum = vec![0.0f32; rows.len()];
    for net in nets {
        for (s, y) in sum.iter_mut().zip(forward(net, rows)) {
            *s += y;
        }
    }
    sum.into_iter().map(|s| s / nets.len().max(1) as f32).collect()
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
        let split = Split { xs: &[], ys: &[], train: &[], val: &[], val_instances };
        // A perfect ranking keeps tiles 1 and 2 s: (1 + 2) / 2 / 1 on both instances.
        let perfect: Vec<f32> = (0..40).map(|k| (k % 20) as f32).collect();
        assert!((split.ranking_tn(&perfect) - 1.5).abs() < 1e-12);
        // Reversed on the second instance only: it keeps 40 and 38 s over a best of 2 s.
        let half: Vec<f32> = (0..40).map(|k| if k < 20 { k as f32 } else { (40 - k) as f32 }).collect();
        assert!((split.ranking_tn(&half) - (1.5 + 19.5) / 2.0).abs() < 1e-12);
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
    }
}
