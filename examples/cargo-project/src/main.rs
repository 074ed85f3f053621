//! Calls the C kernel that build.rs tiled with tss and checks it against
//! the same loops in Rust: the results must be identical, bit for bit.

use std::process::ExitCode;

const N: usize = 320;
const M: usize = 280;

unsafe extern "C" {
    fn syrk_lower(n: i32, m: i32, c: *mut f64, a: *const f64);
}

fn main() -> ExitCode {
    let a: Vec<f64> = (0..N * M).map(|x| ((x * 7 + x / M) % 13) as f64 / 13.0).collect();
    let mut c = vec![0.0; N * N];
    // SAFETY: row-major arrays of the sizes the kernel's parameters declare.
    unsafe { syrk_lower(N as i32, M as i32, c.as_mut_ptr(), a.as_ptr()) };
    let mut want = vec![0.0; N * N];
    for i in 0..N {
        for j in 0..=i {
            for k in 0..M {
                want[i * N + j] += a[i * M + k] * a[j * M + k];
            }
        }
    }
    match (0..N * N).find(|&x| c[x] != want[x]) {
        Some(x) => {
            println!("mismatch at {} {}: {} != {}", x / N, x % N, c[x], want[x]);
            ExitCode::FAILURE
        }
        None => {
            println!("ok: tiles {}", env!("TSS_TILES"));
            ExitCode::SUCCESS
        }
    }
}
