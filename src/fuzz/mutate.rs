//! Mutants of real kernels: small random edits inside the SCoP of a file in
//! `polybench/`, of the kinds users make and the frontend must either model
//! or refuse: duplicated or dropped statements, swapped lines, other
//! constants, comparisons and iterators, stray operators.

use std::path::{Path, PathBuf};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// One mutated kernel file.
pub struct Mutant {
    /// The kernel it came from and the edits, for reports.
    pub origin: String,
    /// File name to write it under (keeps the kernel's name).
    pub file_name: String,
    pub source: String,
}

/// Every `.c` file under `dir` (recursively), sorted.
pub fn kernel_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "c") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Compiler flags for the kernels: the `polybench.h` stand-in, array dumps,
/// small sizes, and the sanitizers that tell a broken mutant from a
/// miscompiled one.
pub fn cflags(kernels: &Path) -> Vec<String> {
    let mut f = vec![
        "-I".to_string(),
        kernels.join("include").display().to_string(),
        "-DPOLYBENCH_DUMP_ARRAYS".into(),
        "-fsanitize=address,undefined".into(),
        "-fno-sanitize-recover=all".into(),
    ];
    for d in ["NI=13", "NJ=11", "NK=9", "NL=7", "NM=10", "M=12", "N=14", "TSTEPS=3"] {
        f.push(format!("-D{d}"));
    }
    f
}

/// Mutant `seed` of one of `kernels`: 1-3 edits inside its SCoP.
pub fn mutant(kernels: &[PathBuf], seed: u64) -> Mutant {
    let mut rng = StdRng::seed_from_u64(seed);
    let path = &kernels[rng.random_range(0..kernels.len())];
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let file_name = path.file_name().map_or("kernel.c".into(), |n| n.to_string_lossy().into_owned());
    // `paper/gemm.c`: file names repeat across the kernel directories.
    let shown = match path.parent().and_then(|p| p.file_name()) {
        Some(dir) => format!("{}/{file_name}", dir.to_string_lossy()),
        None => file_name.clone(),
    };
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let start = lines.iter().position(|l| l.trim() == "#pragma scop").map_or(0, |p| p + 1);
    let end = lines.iter().position(|l| l.trim() == "#pragma endscop").unwrap_or(lines.len());
    let mut edits = Vec::new();
    let n = rng.random_range(1..=3);
    let mut end = end;
    for _ in 0..n {
        if end <= start {
            break;
        }
        edits.push(edit(&mut rng, &mut lines, start, &mut end));
    }
    let mut source = lines.join("\n");
    source.push('\n');
    Mutant { origin: format!("{shown}: {}", edits.join(", ")), file_name, source }
}

/// Applies one random edit to `lines[start..end]`; returns its description.
fn edit(rng: &mut StdRng, lines: &mut Vec<String>, start: usize, end: &mut usize) -> String {
    let at = rng.random_range(start..*end);
    let line_no = at + 1;
    match rng.random_range(0..9) {
        0 => {
            let l = lines[at].clone();
            lines.insert(at, l);
            *end += 1;
            format!("line {line_no} duplicated")
        }
        1 if *end - start > 1 => {
            lines.remove(at);
            *end -= 1;
            format!("line {line_no} removed")
        }
        2 => {
            let other = rng.random_range(start..*end);
            lines.swap(at, other);
            format!("lines {line_no} and {} swapped", other + 1)
        }
        3 => replace_token(rng, &mut lines[at], &["i", "j", "k"], &["i", "j", "k", "N", "0"], line_no),
        4 => replace_token(rng, &mut lines[at], &["<", "<=", ">", ">="], &["<", "<=", ">", ">=", "==", "!="], line_no),
        5 => replace_token(rng, &mut lines[at], &["+", "-"], &["+", "-", "*", "/", "%"], line_no),
        6 => replace_token(rng, &mut lines[at], &["0", "1"], &["0", "1", "2", "-1", "i", "j"], line_no),
        7 => {
            let junk = ["i++", "= 1", "/ 2", "% 3", "[0]", "(", ")", ";", "{", "}", "i * j", "+ N"];
            let j = junk[rng.random_range(0..junk.len())];
            let l = &mut lines[at];
            let pos = rng.random_range(0..=l.len());
            let pos = (0..=pos).rev().find(|&p| l.is_char_boundary(p)).unwrap_or(0);
            l.insert_str(pos, &format!(" {j} "));
            format!("'{j}' inserted in line {line_no}")
        }
        _ => {
            // A whole statement or loop header copied elsewhere in the SCoP.
            let other = rng.random_range(start..*end);
            let l = lines[at].clone();
            lines.insert(other, l);
            *end += 1;
            format!("line {line_no} copied before line {}", other + 1)
        }
    }
}

/// Replaces one whole-token occurrence of any of `from` in `line` by one of `to`.
fn replace_token(rng: &mut StdRng, line: &mut String, from: &[&str], to: &[&str], line_no: usize) -> String {
    let spots: Vec<(usize, &str)> = from
        .iter()
        .flat_map(|f| line.match_indices(f).map(|(p, _)| (p, *f)).collect::<Vec<_>>())
        .filter(|(p, f)| is_token_at(line, *p, f))
        .collect();
    if spots.is_empty() {
        return format!("line {line_no} unchanged");
    }
    let (p, f) = spots[rng.random_range(0..spots.len())];
    let t = to[rng.random_range(0..to.len())];
    line.replace_range(p..p + f.len(), t);
    format!("'{f}' -> '{t}' in line {line_no}")
}

/// Whether `tok` at byte `p` of `line` stands alone (not part of a longer
/// identifier, number or operator).
fn is_token_at(line: &str, p: usize, tok: &str) -> bool {
    let b = line.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let op = |c: u8| b"<>=!+-*/%&|".contains(&c);
    let class = |c: u8| if word(tok.as_bytes()[0]) { word(c) } else { op(c) };
    let before = p.checked_sub(1).map(|q| b[q]);
    let after = b.get(p + tok.len()).copied();
    !before.is_some_and(class) && !after.is_some_and(class)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutants_change_only_the_scop() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("polybench");
        let files = kernel_files(&dir);
        assert!(files.len() >= 15);
        for seed in 0..40 {
            let m = mutant(&files, seed);
            let name = m.origin.split(':').next().unwrap();
            let orig = files.iter().find(|f| f.ends_with(name)).map(std::fs::read_to_string).unwrap().unwrap();
            let prefix = orig.split("#pragma scop").next().unwrap();
            assert!(m.source.starts_with(prefix), "seed {seed}: {}", m.origin);
        }
        assert!(is_token_at("a < b", 2, "<") && !is_token_at("a <= b", 2, "<") && !is_token_at("ij", 0, "i"));
    }
}
