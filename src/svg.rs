//! Self-contained SVG output, no browser or plotting library needed: a small document builder
//! ([`Svg`]) and a line chart on top of it ([`LineChart`]). Every picture the tool writes (bound-gap
//! plots, ratio plots, sweeps, space-time diagrams) is drawn with these, so they share one look:
//! a white background, a sans-serif font, and the colour cycle [`PALETTE`].

use std::fmt::Write as _;

/// The colour cycle of series and messages (colour-blind safe, after Okabe and Ito).
pub const PALETTE: [&str; 8] =
    ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"];

/// The `i`-th colour of [`PALETTE`], cycling.
pub fn colour(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// Escapes `&`, `<`, `>` and `"` for SVG text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// Horizontal anchoring of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// The text starts at the point.
    Start,
    /// The text is centred on the point.
    Middle,
    /// The text ends at the point.
    End,
}

impl Anchor {
    fn attribute(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

/// An SVG document of a fixed size, built element by element; [`Svg::finish`] returns the text.
#[derive(Debug, Clone)]
pub struct Svg {
    width: f64,
    height: f64,
    body: String,
}

impl Svg {
    /// An empty `width × height` picture with a white background.
    pub fn new(width: f64, height: f64) -> Self {
        let mut svg = Svg { width, height, body: String::new() };
        svg.rect(0.0, 0.0, width, height, "#ffffff", None, None);
        svg
    }

    /// A rectangle filled with `fill`, optionally outlined with `stroke`, with an optional
    /// tooltip `title`.
    #[allow(clippy::too_many_arguments)]
    pub fn rect(
        &mut self,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: &str,
        stroke: Option<&str>,
        title: Option<&str>,
    ) {
        let stroke = stroke.map(|s| format!(" stroke=\"{s}\" stroke-width=\"1\"")).unwrap_or_default();
        match title {
            Some(t) => {
                let _ = writeln!(
                    self.body,
                    "<rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{w:.2}\" height=\"{h:.2}\" fill=\"{fill}\"{stroke}><title>{}</title></rect>",
                    escape(t)
                );
            }
            None => {
                let _ = writeln!(
                    self.body,
                    "<rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{w:.2}\" height=\"{h:.2}\" fill=\"{fill}\"{stroke}/>"
                );
            }
        }
    }

    /// An unfilled rectangle outlined with `stroke` at `width` pixels (a highlight).
    pub fn outline(&mut self, x: f64, y: f64, w: f64, h: f64, stroke: &str, width: f64) {
        let _ = writeln!(
            self.body,
            "<rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{w:.2}\" height=\"{h:.2}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{width}\"/>"
        );
    }

    /// A straight line; `dashed` draws it in dashes.
    pub fn line(
        &mut self,
        (x1, y1): (f64, f64),
        (x2, y2): (f64, f64),
        stroke: &str,
        width: f64,
        dashed: bool,
    ) {
        let dash = if dashed { " stroke-dasharray=\"4 3\"" } else { "" };
        let _ = writeln!(
            self.body,
            "<line x1=\"{x1:.2}\" y1=\"{y1:.2}\" x2=\"{x2:.2}\" y2=\"{y2:.2}\" stroke=\"{stroke}\" stroke-width=\"{width}\"{dash}/>"
        );
    }

    /// An open polyline through `points`.
    pub fn polyline(&mut self, points: &[(f64, f64)], stroke: &str, width: f64, dashed: bool) {
        let dash = if dashed { " stroke-dasharray=\"5 3\"" } else { "" };
        let pts: Vec<String> = points.iter().map(|(x, y)| format!("{x:.2},{y:.2}")).collect();
        let _ = writeln!(
            self.body,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{width}\"{dash}/>",
            pts.join(" ")
        );
    }

    /// A closed polygon filled with `fill` (parallelograms of the chatting diagrams).
    pub fn polygon(&mut self, points: &[(f64, f64)], fill: &str, stroke: &str, title: Option<&str>) {
        let pts: Vec<String> = points.iter().map(|(x, y)| format!("{x:.2},{y:.2}")).collect();
        let title = title.map(|t| format!("<title>{}</title>", escape(t))).unwrap_or_default();
        let _ = writeln!(
            self.body,
            "<polygon points=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"1\">{title}</polygon>",
            pts.join(" ")
        );
    }

    /// A filled circle (a data point).
    pub fn circle(&mut self, (x, y): (f64, f64), r: f64, fill: &str, title: Option<&str>) {
        let title = title.map(|t| format!("<title>{}</title>", escape(t))).unwrap_or_default();
        let _ = writeln!(
            self.body,
            "<circle cx=\"{x:.2}\" cy=\"{y:.2}\" r=\"{r}\" fill=\"{fill}\">{title}</circle>"
        );
    }

    /// An unfilled circle (an idle dot).
    pub fn ring(&mut self, (x, y): (f64, f64), r: f64, stroke: &str, title: Option<&str>) {
        let title = title.map(|t| format!("<title>{}</title>", escape(t))).unwrap_or_default();
        let _ = writeln!(
            self.body,
            "<circle cx=\"{x:.2}\" cy=\"{y:.2}\" r=\"{r}\" fill=\"#ffffff\" stroke=\"{stroke}\" stroke-width=\"1.2\">{title}</circle>"
        );
    }

    /// A text of `size` pixels; `rotate` turns it by −90° about its point (a vertical axis title).
    pub fn text(&mut self, (x, y): (f64, f64), text: &str, size: f64, anchor: Anchor, rotate: bool) {
        let transform =
            if rotate { format!(" transform=\"rotate(-90 {x:.2} {y:.2})\"") } else { String::new() };
        let _ = writeln!(
            self.body,
            "<text x=\"{x:.2}\" y=\"{y:.2}\" font-size=\"{size}\" text-anchor=\"{}\"{transform}>{}</text>",
            anchor.attribute(),
            escape(text)
        );
    }

    /// The finished document.
    pub fn finish(self) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n{}</svg>\n",
            self.body,
            w = self.width,
            h = self.height
        )
    }
}

/// One line of a [`LineChart`]: a label for the legend and its points in data coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The legend entry.
    pub label: String,
    /// `(x, y)` points, drawn in the order given.
    pub points: Vec<(f64, f64)>,
    /// Drawn dashed (a bound or a reference curve rather than a measurement).
    pub dashed: bool,
}

/// A line chart with linear axes, ticks, axis titles and a legend.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart {
    /// The title above the plot.
    pub title: String,
    /// The x-axis title.
    pub x_label: String,
    /// The y-axis title.
    pub y_label: String,
    /// The lines, coloured by position in [`PALETTE`].
    pub series: Vec<Series>,
}

/// About five round tick values covering `lo..=hi` (steps of 1, 2 or 5 times a power of ten).
pub fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return vec![lo];
    }
    let raw = (hi - lo) / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * magnitude).find(|s| *s >= raw).unwrap_or(raw);
    let mut out = Vec::new();
    let mut t = (lo / step).ceil() * step;
    while t <= hi + step * 1e-9 {
        out.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    out
}

/// A tick label: integers without decimals, others with up to three significant decimals.
fn tick_label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

impl LineChart {
    /// The chart as an SVG document (420 pixels high, legend on the right; 760 pixels wide, or
    /// wider when the longest legend label needs it).
    pub fn to_svg(&self) -> String {
        let longest = self.series.iter().map(|s| s.label.chars().count()).max().unwrap_or(0);
        // Legend text starts 50 px right of the plot, at about 6.6 px per 12 px character.
        let (width, height) = (f64::max(760.0, 540.0 + 50.0 + 6.6 * longest as f64 + 10.0), 420.0);
        let (left, right, top, bottom) = (70.0, 540.0, 40.0, 360.0);
        let points = self.series.iter().flat_map(|s| s.points.iter().copied());
        let (mut x0, mut x1, mut y0, mut y1) =
            (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
        for (x, y) in points.filter(|(x, y)| x.is_finite() && y.is_finite()) {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        if x0 > x1 {
            (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
        }
        if x1 <= x0 {
            x1 = x0 + 1.0;
        }
        if y1 <= y0 {
            y1 = y0 + 1.0;
        }
        let pad = (y1 - y0) * 0.05;
        let (y0, y1) = (if y0 >= 0.0 { (y0 - pad).max(0.0) } else { y0 - pad }, y1 + pad);
        let sx = |x: f64| left + (x - x0) / (x1 - x0) * (right - left);
        let sy = |y: f64| bottom - (y - y0) / (y1 - y0) * (bottom - top);
        let mut svg = Svg::new(width, height);
        svg.text(((left + right) / 2.0, 22.0), &self.title, 15.0, Anchor::Middle, false);
        for t in ticks(x0, x1) {
            svg.line((sx(t), bottom), (sx(t), top), "#e5e5e5", 1.0, false);
            svg.text((sx(t), bottom + 16.0), &tick_label(t), 11.0, Anchor::Middle, false);
        }
        for t in ticks(y0, y1) {
            svg.line((left, sy(t)), (right, sy(t)), "#e5e5e5", 1.0, false);
            svg.text((left - 6.0, sy(t) + 4.0), &tick_label(t), 11.0, Anchor::End, false);
        }
        svg.line((left, bottom), (right, bottom), "#333333", 1.0, false);
        svg.line((left, bottom), (left, top), "#333333", 1.0, false);
        svg.text(((left + right) / 2.0, bottom + 38.0), &self.x_label, 13.0, Anchor::Middle, false);
        svg.text((18.0, (top + bottom) / 2.0), &self.y_label, 13.0, Anchor::Middle, true);
        for (i, s) in self.series.iter().enumerate() {
            let pts: Vec<(f64, f64)> = s
                .points
                .iter()
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .map(|&(x, y)| (sx(x), sy(y)))
                .collect();
            svg.polyline(&pts, colour(i), 2.0, s.dashed);
            for (p, (x, y)) in pts.iter().zip(&s.points) {
                svg.circle(
                    *p,
                    2.5,
                    colour(i),
                    Some(&format!("{}: ({}, {})", s.label, tick_label(*x), tick_label(*y))),
                );
            }
            let ly = top + 8.0 + 20.0 * i as f64;
            svg.line((right + 20.0, ly), (right + 44.0, ly), colour(i), 2.0, s.dashed);
            svg.text((right + 50.0, ly + 4.0), &s.label, 12.0, Anchor::Start, false);
        }
        svg.finish()
    }
}
