//! The paper's figures from an evaluation, as SVG and PNG (plotters):
//! - `fig3-<kernel>`: predicted and measured time over tile size for one
//!   test instance per kernel (the paper's Fig. 3);
//! - `tn`, `speedup`, `map`: per-kernel bars of each metric for T1,
//!   T6-Random, T6-Search and tile 32 (its Figs. 4 and 5).
//!
//! SVG needs no font; PNG text needs a TrueType font, taken from the first of
//! `$TSS_FONT` and the usual DejaVu paths (Debian `fonts-dejavu-core`). Without
//! one, PNGs are skipped with a note and SVGs are still written.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::eval::{InstanceEval, summarize};

const METHODS: [(&str, RGBColor); 4] = [
    ("T1", RGBColor(31, 119, 180)),
    ("T6-Random", RGBColor(255, 127, 14)),
    ("T6-Search", RGBColor(44, 160, 44)),
    ("tile 32", RGBColor(127, 127, 127)),
];

/// Writes every figure into `dir`; returns the files written and notes.
pub fn write_all(evals: &[InstanceEval], dir: &Path, title: &str) -> Result<(Vec<PathBuf>, Vec<String>), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let png = load_font();
    let mut notes = Vec::new();
    if !png {
        notes.push("no TrueType font found (set TSS_FONT or install fonts-dejavu-core): PNGs skipped".to_string());
    }
    let mut files = Vec::new();
    let mut kernels: Vec<&str> = evals.iter().map(|e| e.kernel.as_str()).collect();
    kernels.sort();
    kernels.dedup();
    for k in &kernels {
        // The median-sized instance of the kernel as its sample.
        let mut of: Vec<&InstanceEval> = evals.iter().filter(|e| e.kernel == *k).collect();
        of.sort_by(|a, b| a.best.total_cmp(&b.best));
        let e = of[of.len() / 2];
        let caption = format!("{k} {}: time over tile size ({title})", e.sizes);
        files.extend(both(dir, &format!("fig3-{k}"), png, &Figure::Fig3(e, caption))?);
    }
    for (metric, label) in
        [("tn", "normalised time T_M / T_O (1 = best tile)"), ("speedup", "speedup over untiled"), ("map", "MAP (%)")]
    {
        let caption = format!("{label}, {title}");
        files.extend(both(dir, metric, png, &Figure::Bars { evals, kernels: &kernels, metric, caption })?);
    }
    Ok((files, notes))
}

/// What to draw, independent of the backend it is drawn on.
enum Figure<'a> {
    Fig3(&'a InstanceEval, String),
    Bars { evals: &'a [InstanceEval], kernels: &'a [&'a str], metric: &'a str, caption: String },
}

fn draw<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, f: &Figure) -> Result<(), String> {
    match f {
        Figure::Fig3(e, caption) => fig3(root, e, caption),
        Figure::Bars { evals, kernels, metric, caption } => bars(root, evals, kernels, metric, caption),
    }
}

/// `name.svg`, and `name.png` when a font is available.
fn both(dir: &Path, name: &str, png: bool, f: &Figure) -> Result<Vec<PathBuf>, String> {
    const SIZE: (u32, u32) = (960, 560);
    let svg = dir.join(format!("{name}.svg"));
    draw(SVGBackend::new(&svg, SIZE).into_drawing_area(), f)?;
    let mut out = vec![svg];
    if png {
        let p = dir.join(format!("{name}.png"));
        draw(BitMapBackend::new(&p, SIZE).into_drawing_area(), f)?;
        out.push(p);
    }
    Ok(out)
}

fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("plot: {e:?}")
}

fn fig3<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, e: &InstanceEval, caption: &str) -> Result<(), String> {
    root.fill(&WHITE).map_err(err)?;
    let ts = |tile: &str| tile.split('x').next().and_then(|t| t.parse::<f64>().ok()).unwrap_or(0.0);
    let mut pts: Vec<(f64, f64, f64)> = e.candidates.iter().map(|(t, m, p)| (ts(t), *m, *p)).collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let xmax = pts.iter().map(|p| p.0).fold(8.0, f64::max) + 8.0;
    let ymax = pts.iter().map(|p| p.1.max(p.2)).fold(0.0, f64::max) * 1.1;
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(65)
        .build_cartesian_2d(0.0..xmax, 0.0..ymax.max(1e-6))
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("tile size (cubic)")
        .y_desc("time (s)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()
        .map_err(err)?;
    let blue = RGBColor(31, 119, 180);
    let orange = RGBColor(255, 127, 14);
    chart
        .draw_series(LineSeries::new(pts.iter().map(|p| (p.0, p.1)), blue.stroke_width(2)))
        .map_err(err)?
        .label("measured")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], blue.stroke_width(2)));
    chart
        .draw_series(LineSeries::new(pts.iter().map(|p| (p.0, p.2)), orange.stroke_width(2)))
        .map_err(err)?
        .label("predicted")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], orange.stroke_width(2)));
    chart.draw_series(pts.iter().map(|p| Circle::new((p.0, p.1), 3, blue.filled()))).map_err(err)?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)
}

fn bars<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    evals: &[InstanceEval],
    kernels: &[&str],
    metric: &str,
    caption: &str,
) -> Result<(), String> {
    root.fill(&WHITE).map_err(err)?;
    let mut groups: Vec<String> = kernels.iter().map(|k| k.to_string()).collect();
    groups.push("mean".into());
    let value = |g: &str, m: &str| -> Option<f64> {
        let sel: Vec<&InstanceEval> = evals.iter().filter(|e| g == "mean" || e.kernel == g).collect();
        let s = summarize(&sel);
        let s = s.get(m)?;
        match metric {
            "tn" => Some(s.tn),
            "speedup" => s.speedup,
            _ => s.map,
        }
    };
    let vals: Vec<Vec<Option<f64>>> =
        groups.iter().map(|g| METHODS.iter().map(|(m, _)| value(g, m)).collect()).collect();
    let top = vals.iter().flatten().flatten().copied().fold(0.0, f64::max) * 1.15;
    let bottom = if metric == "tn" { 0.9_f64.min(top) } else { 0.0 };
    let n = groups.len();
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(65)
        .build_cartesian_2d(0.0..n as f64, bottom..top.max(bottom + 1e-6))
        .map_err(err)?;
    let names = groups.clone();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n * 2 + 1)
        .x_label_formatter(&|x| {
            let i = x.floor() as usize;
            if (x - i as f64 - 0.5).abs() < 0.26 { names.get(i).cloned().unwrap_or_default() } else { String::new() }
        })
        .y_desc(match metric {
            "tn" => "T_M / T_O",
            "speedup" => "speedup (x)",
            _ => "MAP (%)",
        })
        .draw()
        .map_err(err)?;
    let w = 0.8 / METHODS.len() as f64;
    for (mi, (m, color)) in METHODS.iter().enumerate() {
        let color = *color;
        let rects: Vec<Rectangle<(f64, f64)>> = vals
            .iter()
            .enumerate()
            .filter_map(|(g, v)| {
                let y = v[mi]?;
                let x0 = g as f64 + 0.1 + w * mi as f64;
                Some(Rectangle::new([(x0, bottom), (x0 + w * 0.9, y)], color.filled()))
            })
            .collect();
        chart
            .draw_series(rects)
            .map_err(err)?
            .label(*m)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 15, y + 5)], color.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    root.present().map_err(err)
}

/// Registers a TrueType font for bitmap text; false when none is found.
fn load_font() -> bool {
    let candidates = std::env::var("TSS_FONT").into_iter().map(PathBuf::from).chain(
        [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            "/usr/share/fonts/TTF/DejaVuSans.ttf",
            "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        ]
        .map(PathBuf::from),
    );
    for p in candidates {
        if let Ok(bytes) = std::fs::read(&p) {
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                return true;
            }
        }
    }
    false
}
