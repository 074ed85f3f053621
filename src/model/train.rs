//! Training: Huber loss, RMSProp, mini-batches, a validation split by
//! instance and early stopping on validation loss.

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
use super::{Backend, Normalizer, TrainBackend, TrainConfig};
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

/// The timed, correct tiled rows of `records` as samples of `set`.
pub fn samples(records: &[Record], set: FeatureSet) -> Vec<Sample> {
    records
        .iter()
        .filter(|r| r.status == Status::Ok && r.tile != "untiled" && r.features.len() >= set.len())
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

/// A trained network with what it needs to predict.
pub struct Trained {
    pub net: Mlp<Backend>,
    pub normalizer: Normalizer,
    pub best_epoch: usize,
    pub train_loss: f64,
    pub val_loss: f64,
    pub train_rows: usize,
    pub val_rows: usize,
    pub train_instances: usize,
    pub val_instances: usize,
}

/// Per-epoch report: epoch, mean training loss, validation loss.
pub type Progress<'a> = &'a mut dyn FnMut(usize, f64, f64);

pub fn train(samples: &[Sample], cfg: &TrainConfig, progress: Progress) -> Result<Trained, String> {
    if samples.is_empty() {
        return Err("no usable rows (status ok, tiled, with features) to train on".into());
    }
    let (tr, va) = split(samples, cfg.validation, cfg.seed);
    let instances = |idx: &[usize]| idx.iter().map(|&i| samples[i].group.as_str()).collect::<BTreeSet<_>>().len();
    let normalizer = Normalizer::fit(&tr.iter().map(|&i| samples[i].x.clone()).collect::<Vec<_>>());
    let inputs = samples[0].x.len();
    let xs: Vec<Vec<f32>> = samples.iter().map(|s| normalizer.apply(&s.x)).collect();
    let ys: Vec<f32> = samples.iter().map(|s| cfg.target.encode(s.seconds)).collect();

    let device = Default::default();
    TrainBackend::seed(&device, cfg.seed);
    let mut model: Mlp<TrainBackend> = Mlp::new(inputs, cfg.hidden, cfg.dropout, &device);
    let mut optim = RmsPropConfig::new().with_alpha(0.9).with_momentum(0.0).init::<TrainBackend, Mlp<TrainBackend>>();
    let huber = HuberLossConfig::new(cfg.huber_delta).init();
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let mut order = tr.clone();
    let mut best: Option<(Mlp<Backend>, usize, f64, f64)> = None;
    let mut since_best = 0;
    for epoch in 1..=cfg.max_epochs {
        order.shuffle(&mut rng);
        let mut total = 0.0;
        for batch in order.chunks(cfg.batch_size.max(1)) {
            let (x, y) = tensors::<TrainBackend>(&xs, &ys, batch, &device);
            let loss = huber.forward(model.forward(x), y, Reduction::Mean);
            total += scalar(loss.clone()) * batch.len() as f64;
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(cfg.learning_rate, model, grads);
        }
        let train_loss = total / order.len().max(1) as f64;
        let net = model.valid();
        let val_loss = if va.is_empty() { train_loss } else { loss_on(&net, &xs, &ys, &va, cfg.huber_delta) };
        progress(epoch, train_loss, val_loss);
        if best.as_ref().is_none_or(|b| val_loss < b.3) {
            best = Some((net, epoch, train_loss, val_loss));
            since_best = 0;
        } else {
            since_best += 1;
            if since_best >= cfg.patience {
                break;
            }
        }
    }
    let (net, best_epoch, train_loss, val_loss) = best.ok_or("training ran no epoch (max_epochs = 0)")?;
    Ok(Trained {
        net,
        normalizer,
        best_epoch,
        train_loss,
        val_loss,
        train_rows: tr.len(),
        val_rows: va.len(),
        train_instances: instances(&tr),
        val_instances: instances(&va),
    })
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

/// Mean Huber loss of `net` on rows `idx`.
fn loss_on(net: &Mlp<Backend>, xs: &[Vec<f32>], ys: &[f32], idx: &[usize], delta: f32) -> f64 {
    let pred = forward(net, &idx.iter().map(|&i| xs[i].clone()).collect::<Vec<_>>());
    let sum: f64 = idx
        .iter()
        .zip(&pred)
        .map(|(&i, &p)| {
            let r = f64::from((p - ys[i]).abs());
            let d = f64::from(delta);
            if r <= d { 0.5 * r * r } else { d * (r - 0.5 * d) }
        })
        .sum();
    sum / idx.len().max(1) as f64
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
