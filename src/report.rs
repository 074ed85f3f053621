//! What the CLI prints for people (the `--json` forms come from serde, with
//! what scripts want beside it).

use std::fmt::Write;

use tss::choose::Choice;

/// `tss predict --json`: the choice's fields and, as `config`, the chosen
/// config as `tss measure --tile` reads it (so scripts need not rebuild it).
pub fn choice_json(c: &Choice) -> String {
    let mut v = serde_json::to_value(c).expect("a choice serialises");
    v["config"] = serde_json::Value::String(c.label());
    format!("{}\n", serde_json::to_string_pretty(&v).expect("json"))
}

/// `tss predict`'s report: the choice, each kept candidate predicted
/// against measured, the untiled original, and what the refinement timed.
pub fn choice(c: &Choice) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "tss: {} {}: {} ({}; predicted {:.4}{} for the model's pick; {} candidates, {} kept{})",
        c.file,
        c.sizes,
        c.label(),
        c.strategy,
        c.predicted,
        c.unit,
        c.candidates,
        c.kept.len(),
        if c.from_cache { ", cached" } else { "" }
    );
    if !c.compiled.is_empty() {
        let best: Vec<String> = c.compiled.iter().take(6).map(|(k, r)| format!("{k} {r:.1}")).collect();
        let _ = writeln!(
            s,
            "  kinds of code the compiler estimates below {:.0} % of the best one's FP lanes per cycle were not \
             taken ({} kinds compiled): {}{}",
            tss::compiled::FLOOR * 100.0,
            c.compiled.len(),
            best.join(", "),
            if c.compiled.len() > best.len() { ", ..." } else { "" }
        );
    }
    // A model of the per-dimension space keeps hundreds of configs: list
    // every measured one, and the best few of the rest.
    let (mut listed, mut unlisted) = (0, 0);
    for k in &c.kept {
        let tile = k.label();
        match k.measured {
            Some(m) => writeln!(s, "  {tile:>18}  predicted {:.4}{}  measured {m:.4} s", k.predicted, c.unit),
            None if listed < LISTED_UNMEASURED => {
                listed += 1;
                writeln!(s, "  {tile:>18}  predicted {:.4}{}", k.predicted, c.unit)
            }
            None => {
                unlisted += 1;
                Ok(())
            }
        }
        .expect("string");
    }
    if unlisted > 0 {
        let _ = writeln!(s, "  ... and {unlisted} more kept, ranked lower (--json lists them all)");
    }
    if let Some(u) = c.untiled.filter(|_| !c.kept.iter().any(|k| k.untiled)) {
        let _ = writeln!(s, "  {:>18}  {:>18}  measured {u:.4} s", "untiled", "");
    }
    if c.refined.len() > 1 {
        let _ =
            writeln!(s, "  register tiles and shapes from {} ({} timed):", c.refined[0].config, c.refined.len() - 1);
        // One column for the configs, as wide as the longest (`.../pack/v2/inline`).
        let w = c.refined[1..].iter().map(|t| t.config.to_string().len()).max().unwrap_or(0).max(38);
        for t in &c.refined[1..] {
            let m = t.seconds.map_or("failed".to_string(), |m| format!("measured {m:.4} s"));
            let _ = writeln!(s, "  {:<w$}  {m}", t.config.to_string());
        }
    }
    s
}

/// Unmeasured kept configs `tss predict` lists, in the model's order.
const LISTED_UNMEASURED: usize = 10;
