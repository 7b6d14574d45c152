//! Line charts for reports, drawn as SVG with the `plotters` crate. A caller describes the
//! chart (`Chart`, `Series`, `Scale`); this module chooses the look and lays it out.
//!
//! Choices, each against a problem the hand-written charts had:
//! - The legend has a column of its own right of the plot, as wide as its longest label
//!   needs: it never covers data and is never cut off at the edge.
//! - Every emphasised series gets its own colour and marker shape (past ten series, its own
//!   pairing of the two); those the caller marks dashed (cost models, baselines) are drawn
//!   dashed, with another pattern for each round of the palette. Markers are outlines of
//!   different shapes, so a line lying exactly on another still shows its markers.
//! - Log axes put ticks on powers of two, labelled 1, 4, 16, ..., 1k, 4k, 1M (binary
//!   prefixes), with only as many labels as fit side by side; the others keep a light grid line.
//!
//! Text is SVG `<text>` in the sans-serif family (plotters without its `ttf` feature), so
//! drawing a chart needs no font files and the viewer's font is used; sizes are laid out
//! from a generous estimate of a character's width.

use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    Linear,
    Log2,
}

pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// Emphasised (coloured, with markers and its own legend entry) or background (thin
    /// grey, one shared "per rank" legend entry).
    pub strong: bool,
    /// A dashed line: a model or a baseline beside measured series.
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

/// Width and height of the plot (axes, labels and title, without the legend column).
const PLOT_W: u32 = 640;
const PLOT_H: u32 = 460;
/// Font sizes as plotters takes them; the SVG says `size / 1.24` pixels.
const TITLE_FONT: f64 = 20.0;
const FONT: f64 = 15.0;
/// Pixels a character takes at `FONT`, generously (sans-serif averages about 0.55 em).
const CHAR_W: f64 = FONT / 1.24 * 0.62;
const TITLE_H: u32 = 36;
const LEGEND_ROW: i32 = 20;
/// Legend swatch: a line from `SWATCH.0` to `SWATCH.1`, the label from `SWATCH.1 + 8`.
const SWATCH: (i32, i32) = (14, 54);
const GREY: RGBColor = RGBColor(170, 170, 170);

/// Colours chosen to tell apart on white and from the grey background lines.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
    RGBColor(188, 189, 34),
    RGBColor(0, 0, 0),
];

/// A line pattern: dash and gap lengths in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Dash {
    Solid,
    Long,
    Short,
    Dotted,
}

impl Dash {
    const DASHED: [Dash; 3] = [Dash::Long, Dash::Short, Dash::Dotted];

    fn lengths(self) -> Option<(i32, i32)> {
        match self {
            Dash::Solid => None,
            Dash::Long => Some((10, 5)),
            Dash::Short => Some((5, 4)),
            Dash::Dotted => Some((2, 4)),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Shape {
    Circle,
    Square,
    TriangleUp,
    Diamond,
    Cross,
    TriangleDown,
    Plus,
    Star,
}

/// A marker: a shape, outlined or (smaller) filled. Outlines of different shapes on the
/// same point both show, and a small filled shape shows inside or over an outline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Marker(Shape, bool);

const MARKERS: [Marker; 10] = [
    Marker(Shape::Circle, false),
    Marker(Shape::Square, false),
    Marker(Shape::TriangleUp, false),
    Marker(Shape::Diamond, false),
    Marker(Shape::Cross, false),
    Marker(Shape::TriangleDown, false),
    Marker(Shape::Plus, false),
    Marker(Shape::Square, true),
    Marker(Shape::Star, false),
    Marker(Shape::Circle, true),
];

/// How one emphasised series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Look {
    color: RGBColor,
    dash: Dash,
    marker: Marker,
}

/// Looks for the series, `None` for background ones. The n-th strong series takes the
/// n-th colour and marker; past the palette, markers shift by three a round, so no two
/// series share a colour and a marker (up to a hundred). Solid series stay solid and dashed
/// ones take another dash pattern each round, so the pattern keeps its meaning.
fn looks(series: &[Series]) -> Vec<Option<Look>> {
    let mut n = 0;
    series
        .iter()
        .map(|s| {
            if !s.strong {
                return None;
            }
            let round = n / PALETTE.len();
            let color = PALETTE[n % PALETTE.len()];
            let marker = MARKERS[(n + 3 * round) % MARKERS.len()];
            n += 1;
            let dash = if s.dashed { Dash::DASHED[round % Dash::DASHED.len()] } else { Dash::Solid };
            Some(Look { color, dash, marker })
        })
        .collect()
}

/// An axis: its scale, range, labelled ticks and grid-only ticks.
#[derive(Clone, Debug)]
struct Axis {
    scale: Scale,
    range: Range<f64>,
    ticks: Vec<f64>,
    grid: Vec<f64>,
}

fn transform(v: f64, scale: Scale) -> f64 {
    match scale {
        Scale::Linear => v,
        Scale::Log2 => v.max(f64::MIN_POSITIVE).log2(),
    }
}

/// A tick's label. Powers of two with binary prefixes (1k = 1024), so that a log axis reads
/// 1, 4, 16, ..., 1k, 4k, 16k, 1M; fractions of a power of two as decimals down to 1/8.
fn label(v: f64, scale: Scale) -> String {
    match scale {
        Scale::Log2 => {
            let e = v.log2().round() as i32;
            match e {
                -3..=-1 => format!("{}", 2f64.powi(e)),
                0..=9 => format!("{}", 1u64 << e),
                10..=39 => format!("{}{}", 1u64 << (e % 10), ["k", "M", "G"][(e / 10 - 1) as usize]),
                _ => format!("2^{e}"),
            }
        }
        Scale::Linear => {
            if v == v.round() && v.abs() < 1e7 {
                format!("{}", v as i64)
            } else {
                let s = format!("{v:.3}");
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            }
        }
    }
}

impl Axis {
    /// An axis over data from `lo` to `hi`, with at most `max_ticks` labels.
    fn new(scale: Scale, lo: f64, hi: f64, max_ticks: usize) -> Axis {
        let max_ticks = max_ticks.max(2);
        match scale {
            Scale::Log2 => {
                let a = transform(lo, scale).floor() as i32;
                let b = (transform(hi, scale).ceil() as i32).max(a + 1);
                let count = (b - a + 1) as usize;
                // Label every `step`-th power, at exponents divisible by `step` so the labels
                // run 1, 4, 16 or 1, 16, 256 and not 2, 8, 32; steps of 5 and 10 give 1, 32,
                // 1k and 1, 1k, 1M.
                let step = [1, 2, 4, 5, 10, 20, 30, 60]
                    .into_iter()
                    .find(|s| count.div_ceil(*s) <= max_ticks)
                    .unwrap_or(100) as i32;
                let ticks = (a..=b).filter(|e| e.rem_euclid(step) == 0).map(|e| 2f64.powi(e)).collect();
                let grid = if count <= 64 { (a..=b).map(|e| 2f64.powi(e)).collect() } else { Vec::new() };
                Axis { scale, range: 2f64.powi(a)..2f64.powi(b), ticks, grid }
            }
            Scale::Linear => {
                let span = (hi - lo).max(1e-9);
                let magnitude = 10f64.powf((span / max_ticks as f64).log10().floor());
                let step = [1.0, 2.0, 5.0, 10.0]
                    .iter()
                    .map(|m| m * magnitude)
                    .find(|s| ((span / s).ceil() as usize) < max_ticks)
                    .unwrap_or(10.0 * magnitude);
                let (first, last) = ((lo / step).floor() as i64, (hi / step).ceil() as i64);
                let ticks: Vec<f64> = (first..=last).map(|i| i as f64 * step).collect();
                Axis { scale, range: ticks[0]..ticks[ticks.len() - 1], ticks, grid: Vec::new() }
            }
        }
    }

    /// The widest label, in characters.
    fn label_chars(&self) -> usize {
        self.ticks.iter().map(|&t| label(t, self.scale).chars().count()).max().unwrap_or(1)
    }
}

impl Ranged for Axis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let (a, b) = (transform(self.range.start, self.scale), transform(self.range.end, self.scale));
        let f = (transform(*value, self.scale) - a) / (b - a).max(1e-12);
        limit.0 + (f * (limit.1 - limit.0) as f64).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        match hint.weight().allow_light_points() {
            true => self.grid.clone(),
            false => self.ticks.clone(),
        }
    }

    fn range(&self) -> Range<f64> {
        self.range.clone()
    }
}

impl ValueFormatter<f64> for Axis {
    fn format_ext(&self, value: &f64) -> String {
        label(*value, self.scale)
    }
}

fn pixels(chars: usize) -> f64 {
    chars as f64 * CHAR_W
}

impl Chart {
    /// Renders the chart into the SVG file `path`.
    pub fn write(&self, path: &std::path::Path) -> Result<(), String> {
        std::fs::write(path, self.render()?).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// The data's extent on each axis, positive on log scales, never empty.
    fn extent(&self) -> ((f64, f64), (f64, f64)) {
        let all = || self.series.iter().flat_map(|s| s.points.iter().copied());
        let fold = |values: Vec<f64>, scale: Scale, zero: bool| {
            let values: Vec<f64> =
                values.into_iter().filter(|v| scale == Scale::Linear || *v > 0.0).collect();
            let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            match (values.is_empty(), scale) {
                (true, Scale::Log2) => (1.0, 2.0),
                (true, Scale::Linear) => (0.0, 1.0),
                (false, Scale::Log2) => (lo, hi),
                (false, Scale::Linear) => {
                    let lo = if zero { lo.min(0.0) } else { lo };
                    (lo, if hi > lo { hi } else { lo + 1.0 })
                }
            }
        };
        (
            fold(all().map(|p| p.0).collect(), self.x_scale, false),
            fold(all().map(|p| p.1).collect(), self.y_scale, true),
        )
    }

    /// Legend entries: each strong series with its look, then one for the background series.
    fn legend(&self) -> Vec<(String, Option<Look>)> {
        let mut entries: Vec<(String, Option<Look>)> = self
            .series
            .iter()
            .zip(looks(&self.series))
            .filter(|(_, look)| look.is_some())
            .map(|(s, look)| (s.name.clone(), look))
            .collect();
        if self.series.iter().any(|s| !s.strong) {
            entries.push(("per rank".into(), None));
        }
        entries
    }

    pub fn render(&self) -> Result<String, String> {
        let ((x_lo, x_hi), (y_lo, y_hi)) = self.extent();
        let legend = self.legend();
        let legend_chars = legend.iter().map(|(name, _)| name.chars().count()).max().unwrap_or(0);
        let legend_w = (SWATCH.1 + 8) as u32 + pixels(legend_chars).ceil() as u32 + 16;
        let title_w = (pixels(self.title.chars().count()) * TITLE_FONT / FONT).ceil() as u32 + 40;
        let width = (PLOT_W + legend_w).max(title_w);
        let height = PLOT_H.max(TITLE_H + 20 + LEGEND_ROW as u32 * legend.len() as u32);

        // Labels get their width plus a gap; the y axis a row and a half per label.
        let y_probe = Axis::new(self.y_scale, y_lo, y_hi, 12);
        let y_area = pixels(y_probe.label_chars()).ceil() as u32 + 40;
        let plot_px = f64::from(width - legend_w - y_area - 20);
        let x_probe = Axis::new(self.x_scale, x_lo, x_hi, 16);
        let x_max = (plot_px / (pixels(x_probe.label_chars()) + 16.0)).floor() as usize;
        let x_axis = Axis::new(self.x_scale, x_lo, x_hi, x_max.min(16));
        let y_rows = f64::from(height - TITLE_H - 60) / (FONT * 1.5);
        let y_axis = Axis::new(self.y_scale, y_lo, y_hi, (y_rows as usize).min(12));

        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
            let err = |e: DrawingAreaErrorKind<_>| e.to_string();
            root.fill(&WHITE).map_err(err)?;
            let body = root.titled(&self.title, ("sans-serif", TITLE_FONT)).map_err(err)?;
            let (plot_area, legend_area) = body.split_horizontally(width - legend_w);
            let mut chart = ChartBuilder::on(&plot_area)
                .margin_top(8)
                .margin_right(16)
                .x_label_area_size(44)
                .y_label_area_size(y_area)
                .build_cartesian_2d(x_axis, y_axis)
                .map_err(err)?;
            chart
                .configure_mesh()
                .x_desc(&self.x_label)
                .y_desc(&self.y_label)
                .label_style(("sans-serif", FONT))
                .axis_desc_style(("sans-serif", FONT))
                .bold_line_style(RGBColor(215, 215, 215))
                .light_line_style(RGBColor(240, 240, 240))
                .x_labels(64)
                .y_labels(64)
                .draw()
                .map_err(err)?;
            let looks = looks(&self.series);
            // A log axis has no place for zero or below: such points are left out.
            let (xs, ys) = (self.x_scale, self.y_scale);
            let on_chart =
                |p: &&(f64, f64)| (xs == Scale::Linear || p.0 > 0.0) && (ys == Scale::Linear || p.1 > 0.0);
            let points = |s: &Series| s.points.iter().filter(on_chart).copied().collect::<Vec<_>>();
            // Background series first, so that no emphasised line goes under them.
            for (s, _) in self.series.iter().zip(&looks).filter(|(_, l)| l.is_none()) {
                chart.draw_series(LineSeries::new(points(s), GREY.stroke_width(1))).map_err(err)?;
            }
            for (s, look) in self.series.iter().zip(&looks) {
                let Some(look) = look else { continue };
                let style = look.color.stroke_width(2);
                match look.dash.lengths() {
                    None => chart.draw_series(LineSeries::new(points(s), style)),
                    Some((dash, gap)) => {
                        chart.draw_series(DashedLineSeries::new(points(s), dash, gap, style))
                    }
                }
                .map_err(err)?;
                for p in points(s) {
                    let at = chart.backend_coord(&p);
                    draw_marker(&plot_area, at, look).map_err(err)?;
                }
            }
            for (row, (name, look)) in legend.iter().enumerate() {
                let y = 16 + row as i32 * LEGEND_ROW;
                draw_swatch(&legend_area, y, look.as_ref()).map_err(err)?;
                let text =
                    ("sans-serif", FONT).into_font().color(&BLACK).pos(Pos::new(HPos::Left, VPos::Center));
                legend_area.draw(&Text::new(name.as_str(), (SWATCH.1 + 8, y), text)).map_err(err)?;
            }
            root.present().map_err(err)?;
        }
        Ok(svg)
    }
}

/// Draws `look`'s marker at the pixel `at` of `root`'s backend, in pixels relative to
/// `area` (whose top-left is at the same place as the backend's for a left-hand area).
fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    at: (i32, i32),
    look: &Look,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let (x0, y0) = area.get_base_pixel();
    let at = (at.0 - x0, at.1 - y0);
    let Marker(shape, filled) = look.marker;
    let (style, r) = if filled { (look.color.filled(), 3) } else { (look.color.stroke_width(2), 5) };
    let shifted = |pts: &[(i32, i32)]| pts.iter().map(|p| (at.0 + p.0, at.1 + p.1)).collect::<Vec<_>>();
    let polygon = |pts: &[(i32, i32)]| match filled {
        true => area.draw(&Polygon::new(shifted(pts), style)),
        false => area.draw(&PathElement::new(shifted(&[pts, &pts[..1]].concat()), style)),
    };
    // Strokes through the centre, retracing to it between arms.
    let arms = |ends: &[(i32, i32)]| {
        let path: Vec<(i32, i32)> = ends.iter().flat_map(|&e| [e, (0, 0)]).collect();
        area.draw(&PathElement::new(shifted(&path), style))
    };
    let d = r * 7 / 10;
    match shape {
        Shape::Circle => area.draw(&Circle::new(at, r, style)),
        Shape::Square => polygon(&[(-r + 1, -r + 1), (r - 1, -r + 1), (r - 1, r - 1), (-r + 1, r - 1)]),
        Shape::TriangleUp => polygon(&[(0, -r), (r, r - 1), (-r, r - 1)]),
        Shape::TriangleDown => polygon(&[(0, r), (r, -r + 1), (-r, -r + 1)]),
        Shape::Diamond => polygon(&[(0, -r), (r, 0), (0, r), (-r, 0)]),
        Shape::Cross => arms(&[(-d, -d), (d, d), (-d, d), (d, -d)]),
        Shape::Plus => arms(&[(-r, 0), (r, 0), (0, -r), (0, r)]),
        Shape::Star => arms(&[(-r, 0), (r, 0), (-d, -d), (d, d), (-d, d), (d, -d)]),
    }
}

/// A legend entry's sample: the line with the series' pattern and its marker at the middle.
fn draw_swatch<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    y: i32,
    look: Option<&Look>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let Some(look) = look else {
        return area.draw(&PathElement::new(vec![(SWATCH.0, y), (SWATCH.1, y)], GREY.stroke_width(1)));
    };
    let style = look.color.stroke_width(2);
    let line = [(SWATCH.0, y), (SWATCH.1, y)];
    match look.dash.lengths() {
        None => area.draw(&PathElement::new(line.to_vec(), style))?,
        Some((dash, gap)) => area.draw(&DashedPathElement::new(line, dash, gap, style))?,
    }
    let (x0, y0) = area.get_base_pixel();
    draw_marker(area, (x0 + (SWATCH.0 + SWATCH.1) / 2, y0 + y), look)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `<text>` elements of an SVG: (x, y, anchor, text).
    fn texts(svg: &str) -> Vec<(f64, f64, String, String)> {
        let attr = |tag: &str, name: &str| {
            let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
            Some(tag[start..].split('"').next()?.to_string())
        };
        svg.split("<text")
            .skip(1)
            .map(|rest| {
                let (tag, body) = rest.split_once('>').expect("a tag ends");
                let text = body.split("</text>").next().unwrap_or_default().trim().to_string();
                let num = |n| attr(tag, n).and_then(|v| v.parse().ok()).unwrap_or(f64::NAN);
                (num("x"), num("y"), attr(tag, "text-anchor").unwrap_or_default(), text)
            })
            .collect()
    }

    fn svg_size(svg: &str) -> (f64, f64) {
        let tag = svg.split("<svg").nth(1).unwrap().split('>').next().unwrap();
        let get = |n: &str| {
            tag.split(&format!("{n}=\"")).nth(1).unwrap().split('"').next().unwrap().parse().unwrap()
        };
        (get("width"), get("height"))
    }

    fn strong(name: &str, points: Vec<(f64, f64)>, dashed: bool) -> Series {
        Series { name: name.into(), points, strong: true, dashed }
    }

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
                strong("all", vec![(1.0, 25.0), (16.0, 3.0), (256.0, 1.0)], false),
            ],
        };
        let svg = chart.render().unwrap();
        assert!(svg.trim_start().starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
        assert!(svg.contains("depth &lt;by&gt; bins"), "the title is escaped");
        let labels: Vec<String> = texts(&svg).into_iter().map(|t| t.3).collect();
        for want in ["256", "all", "per rank", "bins", "depth"] {
            assert!(labels.iter().any(|l| l == want), "{want} missing from {labels:?}");
        }
    }

    #[test]
    fn legend_lies_inside_the_picture_beside_the_plot() {
        let long = "two-level engine, wildcard receives on the slow path, 64 lists (cost model)";
        let series = vec![
            strong("optimistic, best case", vec![(1.0, 1.0), (64.0, 30.0)], false),
            strong(long, vec![(1.0, 0.5), (64.0, 0.5)], true),
        ];
        let chart = Chart {
            title: "t".into(),
            x_label: "threads".into(),
            y_label: "rate".into(),
            x_scale: Scale::Log2,
            y_scale: Scale::Linear,
            series,
        };
        let svg = chart.render().unwrap();
        let (width, height) = svg_size(&svg);
        let texts = texts(&svg);
        for name in ["optimistic, best case", long] {
            let (x, y, anchor, _) =
                texts.iter().find(|t| t.3 == name).unwrap_or_else(|| panic!("{name} not drawn"));
            assert_eq!(anchor, "start");
            // Wider than any sans-serif font sets these characters.
            let end = x + name.chars().count() as f64 * 12.0 * 0.62;
            assert!(end <= width, "{name}: ends at {end}, the picture is {width} wide");
            assert!(*x >= f64::from(PLOT_W) - 40.0, "{name} at x {x}: the legend overlaps the plot");
            assert!(*y > 0.0 && *y < height);
        }
    }

    #[test]
    fn log_axis_labels_are_powers_of_two_that_do_not_overlap() {
        let points: Vec<(f64, f64)> = (0..=20).map(|e| (2f64.powi(e), 2f64.powi(e + 3))).collect();
        let chart = Chart {
            title: "t".into(),
            x_label: "depth".into(),
            y_label: "cycles".into(),
            x_scale: Scale::Log2,
            y_scale: Scale::Log2,
            series: vec![strong("s", points, false)],
        };
        let svg = chart.render().unwrap();
        let texts = texts(&svg);
        // The x tick labels: centred text on the row below the plot.
        let baseline = texts.iter().filter(|t| t.3 == "1").map(|t| t.1).fold(f64::MIN, f64::max);
        let mut row: Vec<_> = texts.iter().filter(|t| t.2 == "middle" && t.1 == baseline).collect();
        row.sort_by(|a, b| a.0.total_cmp(&b.0));
        let labels: Vec<&str> = row.iter().map(|t| t.3.as_str()).collect();
        assert!(labels.len() >= 4, "{labels:?}");
        let mut distinct = labels.clone();
        distinct.dedup();
        assert_eq!(distinct, labels, "labels repeat");
        for l in &labels {
            let digits = l.trim_end_matches(['k', 'M']);
            assert!(
                !digits.is_empty()
                    && digits.len() <= 3
                    && digits.parse::<u64>().is_ok_and(u64::is_power_of_two),
                "{l} is not a power of two with a binary prefix ({labels:?})"
            );
        }
        assert!(labels.iter().any(|l| l.ends_with('k')) && labels.contains(&"1M"), "{labels:?}");
        for pair in row.windows(2) {
            let half = |t: &&(f64, f64, String, String)| t.3.chars().count() as f64 * 12.0 * 0.62 / 2.0;
            assert!(pair[1].0 - pair[0].0 > half(&pair[0]) + half(&pair[1]), "{pair:?} overlap");
        }
        for (v, want) in
            [(4096.0, "4k"), (16384.0, "16k"), (1048576.0, "1M"), (0.5, "0.5"), (2f64.powi(-6), "2^-6")]
        {
            assert_eq!(label(v, Scale::Log2), want);
        }
    }

    #[test]
    fn every_series_has_its_own_colour_pattern_and_marker() {
        let series: Vec<Series> =
            (0..40).map(|i| strong(&format!("s{i}"), vec![(1.0, 1.0)], i % 3 == 0)).collect();
        let looks: Vec<Look> = looks(&series).into_iter().map(Option::unwrap).collect();
        for (i, a) in looks.iter().enumerate() {
            assert_eq!(a.dash == Dash::Solid, !series[i].dashed, "series {i}: {a:?}");
            for (j, b) in looks.iter().enumerate().skip(i + 1) {
                assert!((a.color, a.marker) != (b.color, b.marker), "series {i} and {j} look alike: {a:?}");
                if j < PALETTE.len() {
                    assert!(a.color != b.color && a.marker != b.marker, "series {i} and {j}: {a:?} {b:?}");
                }
                if a.color == b.color && a.dash != Dash::Solid && b.dash != Dash::Solid && j < 30 {
                    assert!(a.dash != b.dash, "dashed series {i} and {j} share colour and pattern");
                }
            }
        }
        // Background series take no look and no colour from the strong ones.
        let mut mixed = vec![Series { name: "r".into(), points: vec![], strong: false, dashed: false }];
        mixed.extend(series.into_iter().take(2));
        let l = super::looks(&mixed);
        assert!(l[0].is_none() && l[1].unwrap().color == PALETTE[0] && l[2].unwrap().color == PALETTE[1]);
    }

    #[test]
    fn points_a_log_axis_cannot_show_are_left_out() {
        let chart = Chart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            x_scale: Scale::Log2,
            y_scale: Scale::Log2,
            series: vec![strong("a", vec![(0.0, 4.0), (2.0, 0.0), (4.0, 8.0), (16.0, 64.0)], false)],
        };
        let svg = chart.render().unwrap();
        // Not pinned to the plot's edge or corner: two markers on the chart, one in the legend.
        assert_eq!(svg.matches("<circle").count(), 2 + 1, "{svg}");
        let line = svg.split("<polyline").find(|t| t.contains("#1F77B4")).unwrap();
        assert_eq!(
            line.split("points=\"").nth(1).unwrap().split('"').next().unwrap().split_whitespace().count(),
            2,
            "{line}"
        );
    }

    #[test]
    fn identical_lines_both_show_markers() {
        let points = vec![(1.0, 2.0), (2.0, 4.0), (4.0, 8.0)];
        let chart = Chart {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            x_scale: Scale::Log2,
            y_scale: Scale::Linear,
            series: vec![strong("a", points.clone(), false), strong("b", points, false)],
        };
        let svg = chart.render().unwrap();
        // Series a: outlined circles, not filled so what lies under them shows; series b:
        // outlined squares, drawn over them.
        let hex = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
        let circles: Vec<&str> = svg.split("<circle").skip(1).collect();
        assert_eq!(circles.len(), 3 + 1, "3 markers and the legend's");
        assert!(circles.iter().all(|c| c.contains("fill=\"none\"")), "{circles:?}");
        let squares = svg.matches(&format!("stroke=\"{}\"", hex(PALETTE[1]))).count();
        assert_eq!(squares, 1 + 3 + 2, "the line, 3 markers, the legend's line and marker");
    }
}
