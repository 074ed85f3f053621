//! Feature extraction cost per instance: the problem-size query (ISL) plus
//! the vectors of every candidate tile. Prediction repeats exactly this, so
//! it must stay far below the paper's 13-16 ms per prediction (target < 1 ms).

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use tss::features::{FeatureSet, Shape, candidates};
use tss::instance::Sizes;
use tss::machine::Caches;

fn bench(c: &mut Criterion) {
    let caches = Caches::detect();
    for name in ["matmul", "dsyr2k", "trmm"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("polybench/paper/{name}.c"));
        let src = std::fs::read_to_string(&path).unwrap();
        let a = tss::analyze(&path, &src, false).unwrap();
        let pairs = Sizes::parse_pairs("ni=1500,nj=1300,nk=1100").unwrap();
        let pairs: Vec<_> = pairs.into_iter().filter(|(n, _)| a.scop.params.contains(n)).collect();
        let sizes = Sizes::resolve(&a.scop.params, &pairs).unwrap();
        for set in [FeatureSet::Paper, FeatureSet::Extended] {
            c.bench_function(&format!("features/{name}/{set}/all-candidates"), |b| {
                b.iter(|| {
                    let ps = a.kernel.extents(black_box(&sizes)).unwrap();
                    let rows: Vec<Vec<f64>> = candidates(&ps, &caches)
                        .iter()
                        .map(|&t| a.kernel.vector(set, &Shape::of_extents(ps), Some(&tss::Config::cubic(t)), &caches))
                        .collect();
                    black_box(rows)
                })
            });
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
