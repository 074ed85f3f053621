//! The paper's figures from an evaluation, as SVG and PNG (plotters), each
//! with the baselines a model must beat beside it:
//! - `fig3-<kernel>`: predicted and measured time over tile size for one
//!   test instance per kernel (the paper's Fig. 3);
//! - `tn`, `speedup`, `map`: per-kernel bars of each metric for T1,
//!   T6-Random, T6-Search, the best constant configs of the training rows,
//!   the cache rule and tile 32 (its Figs. 4 and 5);
//! - `search`: geometric-mean TN after k = 1, 2, ... measurements, model-guided
//!   against random search, with the untimed picks as horizontal lines.
//!
//! SVG needs no font; PNG text needs a TrueType font, taken from the first of
//! `$TSS_FONT` and the usual DejaVu paths (Debian `fonts-dejavu-core`). Without
//! one, PNGs are skipped with a note and SVGs are still written.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::eval::{CurvePoint, InstanceEval, summarize};

/// The methods of the bar charts, model first, then the baselines.
const METHODS: [(&str, RGBColor); 8] = [
    ("T1", RGBColor(31, 119, 180)),
    ("T1 compiled", RGBColor(23, 190, 207)),
    ("T6-Random", RGBColor(255, 127, 14)),
    ("T6-Search", RGBColor(44, 160, 44)),
    ("constant", RGBColor(148, 103, 189)),
    ("constant+vector", RGBColor(140, 86, 75)),
    ("cache rule", RGBColor(227, 119, 194)),
    ("tile 32", RGBColor(127, 127, 127)),
];

/// Writes every figure into `dir`, the `search` one from `curve` (the
/// evaluation's [`crate::eval::search_curve`]); returns the files written
/// and notes.
pub fn write_all(
    evals: &[InstanceEval],
    curve: &[CurvePoint],
    dir: &Path,
    title: &str,
) -> Result<(Vec<PathBuf>, Vec<String>), String> {
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
    let caption = format!("TN after k measurements, {title}");
    files.extend(both(dir, "search", png, &Figure::Search { evals, curve, caption })?);
    Ok((files, notes))
}

/// What to draw, independent of the backend it is drawn on.
enum Figure<'a> {
    Fig3(&'a InstanceEval, String),
    Bars { evals: &'a [InstanceEval], kernels: &'a [&'a str], metric: &'a str, caption: String },
    Search { evals: &'a [InstanceEval], curve: &'a [CurvePoint], caption: String },
}

fn draw<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, f: &Figure) -> Result<(), String> {
    match f {
        Figure::Fig3(e, caption) => fig3(root, e, caption),
        Figure::Bars { evals, kernels, metric, caption } => bars(root, evals, kernels, metric, caption),
        Figure::Search { evals, curve, caption } => search(root, evals, curve, caption),
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
    finish(&mut chart, &root)
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
    // Only the methods this evaluation scored (a cubic model has no
    // constant+vector).
    let methods: Vec<(&str, RGBColor)> =
        METHODS.iter().copied().filter(|(m, _)| groups.iter().any(|g| value(g, m).is_some())).collect();
    let vals: Vec<Vec<Option<f64>>> =
        groups.iter().map(|g| methods.iter().map(|(m, _)| value(g, m)).collect()).collect();
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
    let w = 0.8 / methods.len().max(1) as f64;
    for (mi, (m, color)) in methods.iter().enumerate() {
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
    finish(&mut chart, &root)
}

/// One search's line in [`search`]: its name, its TN at a point, its colour.
type Curve = (&'static str, fn(&CurvePoint) -> f64, RGBColor);

/// Geometric-mean TN against measurements: the searches as lines over k,
/// the untimed picks (T1 and the baselines) as horizontal lines, on a
/// logarithmic axis because tile 32 sits near 2 where searches end near 1.
fn search<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    evals: &[InstanceEval],
    curve: &[CurvePoint],
    caption: &str,
) -> Result<(), String> {
    root.fill(&WHITE).map_err(err)?;
    let all = summarize(&evals.iter().collect::<Vec<_>>());
    let flat: Vec<(&str, f64, RGBColor)> = METHODS
        .iter()
        .filter(|(m, _)| !m.starts_with("T6"))
        .filter_map(|(m, c)| all.get(*m).map(|s| (*m, s.tn_geo, *c)))
        .collect();
    let lines: [Curve; 3] = [
        ("model-guided (k best predictions)", |p| p.guided_geo, RGBColor(31, 119, 180)),
        ("diverse model-guided (tss's search order)", |p| p.diverse_geo, RGBColor(44, 160, 44)),
        ("random search (expectation)", |p| p.random_geo, RGBColor(214, 39, 40)),
    ];
    let values = curve.iter().flat_map(|p| lines.iter().map(move |l| (l.1)(p))).chain(flat.iter().map(|f| f.1));
    let top = values.fold(1.1_f64, f64::max) * 1.1;
    let right = curve.len().max(1) as f64 + 0.5;
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(65)
        .build_cartesian_2d(0.5..right, (1.0..top).log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("measurements k")
        .y_desc("geometric-mean T_M / T_O")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.2}"))
        .draw()
        .map_err(err)?;
    for (name, at, color) in lines {
        chart
            .draw_series(LineSeries::new(curve.iter().map(|p| (p.k as f64, at(p))), color.stroke_width(2)))
            .map_err(err)?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
        chart.draw_series(curve.iter().map(|p| Circle::new((p.k as f64, at(p)), 3, color.filled()))).map_err(err)?;
    }
    for (name, tn, color) in flat {
        let ends = vec![(0.5, tn), (right, tn)];
        chart
            .draw_series(LineSeries::new(ends, color.stroke_width(1)))
            .map_err(err)?
            .label(format!("{name}, untimed ({tn:.2})"))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(1)));
    }
    finish(&mut chart, &root)
}

/// The legend in the upper right, then the figure written out.
fn finish<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    root: &DrawingArea<DB, Shift>,
) -> Result<(), String> {
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::eval::Score;

    /// An instance of kernel `k` where T1 took `t1`, the best constant 2 and
    /// tile 32 3, against a best of 1.
    fn instance(k: &str, t1: f64) -> InstanceEval {
        let score = |t: f64| Score { time: t, tn: t, speedup: Some(3.0 / t), map: None, config: None };
        InstanceEval {
            kernel: k.into(),
            sizes: "n=100".into(),
            best: 1.0,
            baseline: Some(3.0),
            scores: BTreeMap::from([
                ("T1".to_string(), score(t1)),
                ("constant".to_string(), score(2.0)),
                ("tile 32".to_string(), score(3.0)),
            ]),
            candidates: vec![("64".into(), t1, 0.1), ("32".into(), 3.0, 0.5), ("16".into(), 1.0, 0.9)],
            t1_tile: "64".into(),
            search_order: vec![0, 1, 2],
            ruled: false,
            strided: false,
            recurrent: false,
            threaded: false,
            parts: None,
            compiled: None,
            left_out: Vec::new(),
        }
    }

    #[test]
    fn the_figures_show_the_baselines_and_the_search_curve() {
        let dir = tempfile::tempdir().unwrap();
        let evals = [instance("gemm", 1.2), instance("syrk", 1.5)];
        let (files, _) = write_all(&evals, &crate::eval::search_curve(&evals, 16), dir.path(), "test").unwrap();
        let names: Vec<String> = files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into()).collect();
        for want in ["fig3-gemm.svg", "fig3-syrk.svg", "tn.svg", "speedup.svg", "map.svg", "search.svg"] {
            assert!(names.iter().any(|n| n == want), "{want} not in {names:?}");
        }
        let tn = std::fs::read_to_string(dir.path().join("tn.svg")).unwrap();
        assert!(tn.contains("constant") && tn.contains("tile 32"), "the bars name the baselines");
        assert!(!tn.contains("constant+vector"), "a method no instance scored gets no bar");
        let search = std::fs::read_to_string(dir.path().join("search.svg")).unwrap();
        assert!(search.contains("random search"), "the curve of random search");
        // T1's geometric mean, sqrt(1.2 * 1.5), is a horizontal line.
        assert!(search.contains("T1, untimed (1.34)"), "{search}");
        assert!(search.contains("tile 32, untimed (3.00)"));
        assert!(!search.contains("T1 compiled"), "only a report of `tss eval --compiled` has it");
        let mut evals = evals;
        evals[0].scores.insert("T1 compiled".into(), evals[0].scores["constant"].clone());
        write_all(&evals, &crate::eval::search_curve(&evals, 16), dir.path(), "test").unwrap();
        let tn = std::fs::read_to_string(dir.path().join("tn.svg")).unwrap();
        assert!(tn.contains("T1 compiled"), "its bar where an instance scored it");
    }
}
