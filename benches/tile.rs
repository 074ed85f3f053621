//! `tss tile` cost per kernel, in process: parse, dependences, ISL's
//! scheduler, tiling and code generation of the SCoP (the file read and
//! process start-up are not included; they add about 2 ms). Issue target:
//! under 100 ms for every kernel in `polybench/`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use tss::TileOptions;

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("polybench");
    let mut g = c.benchmark_group("tile");
    g.sample_size(10);
    let kernels = [
        "paper/matmul",
        "paper/trmm",
        "linear-algebra/gemm",
        "linear-algebra/2mm",
        "linear-algebra/3mm",
        "stencils/jacobi-2d",
        "stencils/seidel-2d",
    ];
    for kernel in kernels {
        let path = root.join(format!("{kernel}.c"));
        let src = std::fs::read_to_string(&path).unwrap();
        for parallel in [false, true] {
            let opts = TileOptions { parallel, ..TileOptions::default() };
            let name = format!("{kernel}{}", if parallel { "/parallel" } else { "" });
            g.bench_function(name, |b| b.iter(|| black_box(tss::tile_source(&path, black_box(&src), &opts).unwrap())));
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
