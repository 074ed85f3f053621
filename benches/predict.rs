//! T1 prediction for one instance with the model already loaded: problem
//! extents, features of every candidate and one batched inference, then the
//! top-10 % post-processing. The paper reports 13-16 ms per prediction; tss
//! aims at under 1 ms.
//!
//! Uses the shipped `trained/serial` model when present, else trains a
//! throwaway one on the shipped data so the benchmark always runs.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use tss::features::{Shape, candidates};
use tss::instance::Sizes;
use tss::machine::Caches;
use tss::model::saved::SavedModel;
use tss::select::keep_best;

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let model = match SavedModel::load(&root.join("trained/serial")) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("predict bench skipped: {e}");
            return;
        }
    };
    let caches = Caches::detect();
    let set = model.feature_set();
    for name in ["matmul", "dsyr2k"] {
        let path = root.join(format!("polybench/paper/{name}.c"));
        let src = std::fs::read_to_string(&path).unwrap();
        let a = tss::analyze(&path, &src, false).unwrap();
        let pairs: Vec<_> = Sizes::parse_pairs("ni=1500,nj=1300,nk=1100")
            .unwrap()
            .into_iter()
            .filter(|(n, _)| a.scop.params.contains(n))
            .collect();
        let sizes = Sizes::resolve(&a.scop.params, &pairs).unwrap();
        let d = a.tile_dims();
        c.bench_function(&format!("predict-t1/{name}"), |b| {
            b.iter(|| {
                let ps = a.kernel.extents(black_box(&sizes)).unwrap();
                let rows: Vec<Vec<f64>> = candidates(&ps, &caches)
                    .iter()
                    .map(|&t| {
                        a.kernel.vector(set, &Shape::of_extents(ps), Some(&tss::Config::tiled(vec![t; d])), &caches)
                    })
                    .collect();
                let pred = model.predict(&rows);
                black_box(keep_best(&pred)[0])
            })
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
