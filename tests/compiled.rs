//! What the compiler makes of each kind of code (`src/compiled/`), with
//! the real `$CC` and llvm-mca.

use tss::compiled::{Mca, hottest_loop, kind, rates};
use tss::harness::session::{Policy, Session};
use tss::harness::{Mode, Variant, compile::Compiler};
use tss::instance::Sizes;

/// matmul as written streams `C[i][j]` through memory on every iteration of
/// its innermost loop (gcc -O3 interchanges `k` outward and vectorises `j`);
/// a vector register tile over packed panels keeps rows of vector
/// accumulators in registers. The estimates must tell the two apart (3x on
/// the Zen 4).
#[test]
fn a_vector_register_tile_computes_more_lanes_per_cycle_than_the_loops_as_written() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("polybench/paper/matmul.c");
    let src = std::fs::read_to_string(&file).unwrap();
    let a = tss::analyze(&file, &src, false).unwrap();
    let sizes = Sizes::parse(&a.scop.params, "NI=200,NJ=190,NK=180").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let compiler = Compiler::new("cc", "-O3 -march=native", dir.path().into()).unwrap();
    let session = Session::new(&a, Mode::Serial, compiler, Policy::default()).unwrap();
    let tile: Variant = "32x32x32:4x1x1/pack/v2".parse().unwrap();
    let asm = session.assembly(&tile, &sizes).unwrap();
    let hot = hottest_loop(&asm).expect("a floating-point loop");
    assert!(hot.lanes >= 16, "{} lanes: {:?}", hot.lanes, hot.body);
    let mca = Mca::find().expect("llvm-mca (scripts/install-deps.sh installs llvm-19)");
    let got = rates(&session, &sizes, &[Variant::Untiled, tile.clone()], &mca);
    let (untiled, vector) = (got[&Variant::Untiled], got[&kind(&tile, 3)]);
    assert!(vector > 2.0 * untiled, "lanes per cycle: vector tile {vector}, as written {untiled}");
}
