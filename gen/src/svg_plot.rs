//! Minimal SVG line charts for reports: one line per series, linear or log2 axes, a legend.
//! Written by hand so that a plot needs no plotting library and renders in any browser.

use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    Linear,
    Log2,
}

pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// Emphasised (thick, coloured) or background (thin, grey).
    pub strong: bool,
    pub dashed: bool,
}

impl Series {
    /// Adds `points` to the strong series named `name` in `series`, starting it if new.
    pub fn extend(series: &mut Vec<Series>, name: String, points: &[(f64, f64)], dashed: bool) {
        match series.iter_mut().find(|s| s.name == name) {
            Some(s) => s.points.extend_from_slice(points),
            None => series.push(Series { name, points: points.to_vec(), strong: true, dashed }),
        }
    }
}

pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_scale: Scale,
    pub y_scale: Scale,
    pub series: Vec<Series>,
}

const W: f64 = 760.0;
const H: f64 = 460.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 190.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 60.0;
const COLORS: [&str; 6] = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];

fn transform(v: f64, scale: Scale) -> f64 {
    match scale {
        Scale::Linear => v,
        Scale::Log2 => v.max(1e-9).log2(),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Tick values between `lo` and `hi` (data units) for a scale.
fn ticks(lo: f64, hi: f64, scale: Scale) -> Vec<f64> {
    match scale {
        Scale::Log2 => {
            let (a, b) = (transform(lo, scale).floor() as i32, transform(hi, scale).ceil() as i32);
            (a..=b).map(|e| 2f64.powi(e)).collect()
        }
        Scale::Linear => {
            let span = (hi - lo).max(1e-9);
            let step = 10f64.powf(span.log10().floor());
            let step = if span / step < 3.0 { step / 2.0 } else { step };
            let mut v = (lo / step).floor() * step;
            let mut out = Vec::new();
            while v <= hi + step * 0.5 {
                out.push(v);
                v += step;
            }
            out
        }
    }
}

fn label(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e7 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}

impl Chart {
    /// Renders the chart into the SVG file `path`.
    pub fn write(&self, path: &std::path::Path) -> Result<(), String> {
        std::fs::write(path, self.render()).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    pub fn render(&self) -> String {
        let all: Vec<(f64, f64)> = self.series.iter().flat_map(|s| s.points.iter().copied()).collect();
        let positive_y = |v: f64| if self.y_scale == Scale::Linear { v } else { v.max(1e-9) };
        let (xmin, xmax) = all.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
        let (ymin, ymax) =
            all.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(positive_y(p.1)), b.max(p.1)));
        let (xmin, xmax) = if all.is_empty() { (1.0, 2.0) } else { (xmin, xmax.max(xmin + 1e-9)) };
        let ymin = if self.y_scale == Scale::Linear { ymin.min(0.0) } else { ymin };
        let (ymin, ymax) = if all.is_empty() { (0.0, 1.0) } else { (ymin, ymax.max(ymin + 1.0)) };
        let xt = ticks(xmin, xmax, self.x_scale);
        let yt = ticks(ymin, ymax, self.y_scale);
        let (tx0, tx1) = (
            transform(*xt.first().unwrap_or(&xmin), self.x_scale),
            transform(*xt.last().unwrap_or(&xmax), self.x_scale),
        );
        let (ty0, ty1) = (
            transform(*yt.first().unwrap_or(&ymin), self.y_scale),
            transform(*yt.last().unwrap_or(&ymax), self.y_scale),
        );
        let px =
            |x: f64| LEFT + (transform(x, self.x_scale) - tx0) / (tx1 - tx0).max(1e-9) * (W - LEFT - RIGHT);
        let py = |y: f64| {
            H - BOTTOM
                - (transform(positive_y(y), self.y_scale) - ty0) / (ty1 - ty0).max(1e-9) * (H - TOP - BOTTOM)
        };

        let mut s = String::new();
        writeln!(s, r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#).unwrap();
        writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#).unwrap();
        writeln!(
            s,
            r#"<text x="{}" y="22" font-size="15" text-anchor="middle">{}</text>"#,
            (LEFT + W - RIGHT) / 2.0,
            escape(&self.title)
        )
        .unwrap();
        for &t in &xt {
            let x = px(t);
            writeln!(s, r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{}" stroke="#eee"/><text x="{x:.1}" y="{}" text-anchor="middle">{}</text>"##, H - BOTTOM, H - BOTTOM + 16.0, label(t)).unwrap();
        }
        for &t in &yt {
            let y = py(t);
            writeln!(s, r##"<line x1="{LEFT}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#eee"/><text x="{}" y="{:.1}" text-anchor="end">{}</text>"##, W - RIGHT, LEFT - 6.0, y + 4.0, label(t)).unwrap();
        }
        writeln!(
            s,
            r##"<rect x="{LEFT}" y="{TOP}" width="{}" height="{}" fill="none" stroke="#333"/>"##,
            W - LEFT - RIGHT,
            H - TOP - BOTTOM
        )
        .unwrap();
        writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            (LEFT + W - RIGHT) / 2.0,
            H - 18.0,
            escape(&self.x_label)
        )
        .unwrap();
        writeln!(
            s,
            r#"<text transform="translate(18,{}) rotate(-90)" text-anchor="middle">{}</text>"#,
            (TOP + H - BOTTOM) / 2.0,
            escape(&self.y_label)
        )
        .unwrap();
        let mut strong_index = 0;
        let mut legend_y = TOP + 10.0;
        let mut grey_in_legend = false;
        for series in &self.series {
            let (color, width) = if series.strong {
                strong_index += 1;
                (COLORS[(strong_index - 1) % COLORS.len()], 2.5)
            } else {
                ("#bbb", 1.0)
            };
            let dash = if series.dashed { r#" stroke-dasharray="6 4""# } else { "" };
            let path: Vec<String> =
                series.points.iter().map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y))).collect();
            writeln!(s, r#"<polyline fill="none" stroke="{color}" stroke-width="{width}"{dash} points="{}"><title>{}</title></polyline>"#, path.join(" "), escape(&series.name)).unwrap();
            for &(x, y) in &series.points {
                if series.strong {
                    writeln!(s, r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{color}"/>"#, px(x), py(y))
                        .unwrap();
                }
            }
            if series.strong || !grey_in_legend {
                let name = if series.strong { escape(&series.name) } else { "per rank".to_string() };
                grey_in_legend |= !series.strong;
                writeln!(s, r#"<line x1="{}" y1="{legend_y}" x2="{}" y2="{legend_y}" stroke="{color}" stroke-width="{width}"{dash}/><text x="{}" y="{}">{name}</text>"#, W - RIGHT + 12.0, W - RIGHT + 40.0, W - RIGHT + 46.0, legend_y + 4.0).unwrap();
                legend_y += 18.0;
            }
        }
        s.push_str("</svg>\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_series_and_legend() {
        let chart = Chart {
            title: "depth <by> bins".into(),
            x_label: "bins".into(),
            y_label: "depth".into(),
            x_scale: Scale::Log2,
            y_scale: Scale::Linear,
            series: vec![
                Series {
                    name: "rank 0".into(),
                    points: vec![(1.0, 25.0), (256.0, 1.0)],
                    strong: false,
                    dashed: false,
                },
                Series {
                    name: "all".into(),
                    points: vec![(1.0, 25.0), (16.0, 3.0), (256.0, 1.0)],
                    strong: true,
                    dashed: false,
                },
            ],
        };
        let svg = chart.render();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("depth &lt;by&gt; bins"));
        assert!(svg.contains(">256<") && svg.contains(">all<") && svg.contains(">per rank<"));
    }
}
