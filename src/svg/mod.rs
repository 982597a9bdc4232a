//! Self-contained SVG output, no browser or plotting library needed: a small document builder
//! ([`Svg`]) and two charts on top of it, a line chart over a numeric axis ([`LineChart`]) and a
//! chart over named categories, bars or dots ([`CategoryChart`]). Every picture the tool writes
//! (bound-gap plots, ratio plots, sweeps, space-time diagrams) is drawn with these, so they share
//! one look: a white background, a sans-serif font, and the colour cycle [`PALETTE`].
//!
//! A chart's lines stay apart by more than colour ([`style`]): each has a colour of [`PALETTE`],
//! a [`Marker`] shape and a dash pattern of [`DASHES`], a combination no other line of the chart
//! has, and marker and dash alone tell the first 28 lines apart in greyscale. Each legend entry is
//! a `<g class="legend-entry">` carrying its style in `data-colour`, `data-marker` and
//! `data-dash`, so a test reads back what the legend shows.

mod category;

pub use category::{CategoryChart, CategoryKind, CategorySeries, Value};
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

    /// An open polyline through `points` in `(colour, width)`, in the dash pattern `dash` (SVG
    /// `stroke-dasharray`; empty: solid), translucent below an `opacity` of 1.
    pub fn polyline(
        &mut self,
        points: &[(f64, f64)],
        (stroke, width): (&str, f64),
        dash: &str,
        opacity: f64,
    ) {
        let dash = dash_attribute(dash);
        let opacity = if opacity < 1.0 { format!(" stroke-opacity=\"{opacity}\"") } else { String::new() };
        let pts: Vec<String> = points.iter().map(|(x, y)| format!("{x:.2},{y:.2}")).collect();
        let _ = writeln!(
            self.body,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{width}\"{dash}{opacity}/>",
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

    /// A data point: `marker` of radius `r` centred at `(x, y)` in `colour`, filled (outlined
    /// in dark grey, so that a light colour shows on white and on a bar of its colour) or hollow
    /// (white inside an outline of `colour`); its shape's name is its `data-marker`.
    pub fn marker(
        &mut self,
        at: (f64, f64),
        r: f64,
        style: (Marker, &str),
        filled: bool,
        title: Option<&str>,
    ) {
        let (marker, colour) = style;
        let title = title.map(|t| format!("<title>{}</title>", escape(t))).unwrap_or_default();
        let (fill, stroke) = if filled { (colour, "#333333") } else { ("#ffffff", colour) };
        let paint = format!(
            "data-marker=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\">{title}",
            marker.name(),
            if filled { 0.8 } else { 1.8 }
        );
        let _ = match marker.outline(r) {
            None => writeln!(
                self.body,
                "<circle cx=\"{:.2}\" cy=\"{:.2}\" r=\"{r}\" {paint}</circle>",
                at.0, at.1
            ),
            Some(corners) => {
                let pts: Vec<String> =
                    corners.iter().map(|(dx, dy)| format!("{:.2},{:.2}", at.0 + dx, at.1 + dy)).collect();
                writeln!(self.body, "<polygon points=\"{}\" {paint}</polygon>", pts.join(" "))
            }
        };
    }

    /// Opens a group of elements with the given attributes (`name="value"` pairs, escaped here);
    /// [`Svg::close_group`] closes it.
    pub fn open_group(&mut self, attributes: &[(&str, &str)]) {
        let attrs: Vec<String> = attributes.iter().map(|(k, v)| format!(" {k}=\"{}\"", escape(v))).collect();
        let _ = writeln!(self.body, "<g{}>", attrs.concat());
    }

    /// Closes the group [`Svg::open_group`] opened.
    pub fn close_group(&mut self) {
        self.body.push_str("</g>\n");
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

/// The `stroke-dasharray` attribute of a dash pattern (nothing for a solid line).
fn dash_attribute(dash: &str) -> String {
    if dash.is_empty() { String::new() } else { format!(" stroke-dasharray=\"{dash}\"") }
}

/// The shape of a data point. Every shape is closed, so it can be drawn filled or hollow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Marker {
    /// A circle.
    Circle,
    /// A square.
    Square,
    /// A triangle pointing up.
    TriangleUp,
    /// A diamond.
    Diamond,
    /// A triangle pointing down.
    TriangleDown,
    /// A regular pentagon.
    Pentagon,
    /// A five-pointed star.
    Star,
}

impl Marker {
    /// Every shape, in the order [`style`] cycles through them.
    pub const ALL: [Marker; 7] = [
        Self::Circle,
        Self::Square,
        Self::TriangleUp,
        Self::Diamond,
        Self::TriangleDown,
        Self::Pentagon,
        Self::Star,
    ];

    /// Its name, the `data-marker` of what draws it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Circle => "circle",
            Self::Square => "square",
            Self::TriangleUp => "triangle-up",
            Self::Diamond => "diamond",
            Self::TriangleDown => "triangle-down",
            Self::Pentagon => "pentagon",
            Self::Star => "star",
        }
    }

    /// The corners of the shape of radius `r` about the origin (y down), or `None` for the
    /// circle.
    fn outline(self, r: f64) -> Option<Vec<(f64, f64)>> {
        // `n` corners on a circle of radius `r`, the first at angle `a0` (0: straight up).
        let regular = |n: usize, r: f64, a0: f64| -> Vec<(f64, f64)> {
            (0..n)
                .map(|k| {
                    let a = a0 + std::f64::consts::TAU * k as f64 / n as f64;
                    (r * a.sin(), -r * a.cos())
                })
                .collect()
        };
        Some(match self {
            Self::Circle => return None,
            Self::Square => regular(4, r * 1.2, std::f64::consts::FRAC_PI_4),
            Self::TriangleUp => regular(3, r * 1.35, 0.0),
            Self::Diamond => regular(4, r * 1.35, 0.0),
            Self::TriangleDown => regular(3, r * 1.35, std::f64::consts::PI),
            Self::Pentagon => regular(5, r * 1.2, 0.0),
            Self::Star => {
                let (outer, inner) =
                    (regular(5, r * 1.5, 0.0), regular(5, r * 0.65, std::f64::consts::PI / 5.0));
                outer.into_iter().zip(inner).flat_map(|(o, i)| [o, i]).collect()
            }
        })
    }
}

/// The dash patterns of lines (SVG `stroke-dasharray`): solid, dashed, dotted, dash-dot.
pub const DASHES: [&str; 4] = ["", "7 3", "2 2", "8 3 2 3"];

/// How one line (or bar, or set of dots) of a chart is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Style {
    /// Its colour.
    pub colour: &'static str,
    /// The shape of its points.
    pub marker: Marker,
    /// Its dash pattern, one of [`DASHES`].
    pub dash: &'static str,
}

/// The style of a chart's `i`-th measured line: colour `i mod 8` of [`PALETTE`], marker `i mod
/// 7` of [`Marker::ALL`], and dash pattern `⌊i / 7⌋ mod 4` of [`DASHES`]. Marker and dash
/// together differ for the first 28 lines (what greyscale shows), and with the colour for the
/// first 56 (8 and 7 are coprime).
pub fn style(i: usize) -> Style {
    Style { colour: colour(i), marker: Marker::ALL[i % 7], dash: DASHES[(i / 7) % DASHES.len()] }
}

/// The greys of reference lines (bounds, optima): no measured line is grey.
const GREYS: [&str; 3] = ["#555555", "#999999", "#777777"];

impl Style {
    /// Whether it is a reference's ([`reference_style`]).
    pub fn is_reference(&self) -> bool {
        GREYS.contains(&self.colour)
    }

    /// Draws a line through `points` in this style: a measurement 2 px wide; a reference as a
    /// band 7 px wide and translucent, under the measurements, so that a line on the band is
    /// seen to meet it.
    fn draw(&self, svg: &mut Svg, points: &[(f64, f64)]) {
        match self.is_reference() {
            true => svg.polyline(points, (self.colour, 7.0), self.dash, 0.45),
            false => svg.polyline(points, (self.colour, 2.0), self.dash, 1.0),
        }
    }
}

/// The style of a chart's `j`-th reference line (a bound or an optimum rather than a
/// measurement): a grey, never a colour of [`PALETTE`], so no measured line looks like it, and a
/// dash pattern other than solid; distinct for the first 21.
pub fn reference_style(j: usize) -> Style {
    Style { colour: GREYS[j % GREYS.len()], marker: Marker::ALL[j % 7], dash: DASHES[1 + j % 3] }
}

/// A legend entry at `(x, y)`: a sample of the line (or a swatch, for a bar) with its marker,
/// then the label; grouped with its style as data attributes.
fn legend_entry(svg: &mut Svg, (x, y): (f64, f64), style: Style, label: &str, bar: bool) {
    svg.open_group(&[
        ("class", "legend-entry"),
        ("data-colour", style.colour),
        ("data-marker", style.marker.name()),
        ("data-dash", style.dash),
    ]);
    if bar {
        bar_rect(svg, (x, y - 6.0, 24.0, 12.0), style, None);
    } else {
        style.draw(svg, &[(x, y), (x + 24.0, y)]);
    }
    svg.marker((x + 12.0, y), 3.5, (style.marker, style.colour), true, None);
    svg.text((x + 30.0, y + 4.0), label, 12.0, Anchor::Start, false);
    svg.close_group();
}

/// A bar `(x, y, w, h)` in a style: filled with its colour, outlined in dark grey in its dash
/// pattern.
fn bar_rect(svg: &mut Svg, (x, y, w, h): (f64, f64, f64, f64), style: Style, title: Option<&str>) {
    let title = title.map(|t| format!("<title>{}</title>", escape(t))).unwrap_or_default();
    let _ = writeln!(
        svg.body,
        "<rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{w:.2}\" height=\"{h:.2}\" fill=\"{}\" fill-opacity=\"0.85\" stroke=\"#333333\" stroke-width=\"1\"{}>{title}</rect>",
        style.colour,
        dash_attribute(style.dash)
    );
}

/// One line of a [`LineChart`]: a label for the legend and its points in data coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The legend entry.
    pub label: String,
    /// `(x, y)` points, drawn in the order given.
    pub points: Vec<(f64, f64)>,
    /// How it is drawn: [`style`] for a measurement, [`reference_style`] for a bound or a
    /// reference curve.
    pub style: Style,
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
    /// The lines.
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
    /// The chart as an SVG document (420 pixels high, or higher when the legend needs it, legend
    /// on the right; 760 pixels wide, or wider when the longest legend label needs it).
    pub fn to_svg(&self) -> String {
        let longest = self.series.iter().map(|s| s.label.chars().count()).max().unwrap_or(0);
        let legend_bottom = 40.0 + 20.0 * self.series.len() as f64;
        // Legend text starts 50 px right of the plot, at about 6.6 px per 12 px character.
        let (width, height) = (
            f64::max(760.0, 540.0 + 50.0 + 6.6 * longest as f64 + 10.0),
            f64::max(420.0, legend_bottom + 20.0),
        );
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
        let (y0, y1) = padded(y0, y1);
        let sx = |x: f64| left + (x - x0) / (x1 - x0) * (right - left);
        let sy = |y: f64| bottom - (y - y0) / (y1 - y0) * (bottom - top);
        let mut svg = Svg::new(width, height);
        svg.text(((left + right) / 2.0, 22.0), &self.title, 15.0, Anchor::Middle, false);
        for t in ticks(x0, x1) {
            svg.line((sx(t), bottom), (sx(t), top), "#e5e5e5", 1.0, false);
            svg.text((sx(t), bottom + 16.0), &tick_label(t), 11.0, Anchor::Middle, false);
        }
        y_axis(&mut svg, (left, right, top, bottom), (y0, y1), &self.y_label);
        svg.line((left, bottom), (right, bottom), "#333333", 1.0, false);
        svg.text(((left + right) / 2.0, bottom + 38.0), &self.x_label, 13.0, Anchor::Middle, false);
        let pixels = |s: &Series| -> Vec<(f64, f64)> {
            (s.points.iter())
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .map(|&(x, y)| (sx(x), sy(y)))
                .collect()
        };
        // References first, under the measurements.
        let (references, measured): (Vec<&Series>, Vec<&Series>) =
            self.series.iter().partition(|s| s.style.is_reference());
        for s in references.iter().chain(&measured) {
            s.style.draw(&mut svg, &pixels(s));
        }
        // Markers shrink from one measured line to the next, so that the markers of lines through
        // one point nest instead of hiding each other.
        let shrink = 2.5 / measured.len().saturating_sub(1).max(1) as f64;
        let radii =
            references.iter().map(|_| 3.0).chain((0..measured.len()).map(|k| 5.5 - shrink * k as f64));
        for (s, r) in references.iter().chain(&measured).zip(radii) {
            for (p, (x, y)) in pixels(s).into_iter().zip(&s.points) {
                let title = format!("{}: ({}, {})", s.label, tick_label(*x), tick_label(*y));
                svg.marker(p, r, (s.style.marker, s.style.colour), true, Some(&title));
            }
        }
        for (i, s) in self.series.iter().enumerate() {
            legend_entry(&mut svg, (right + 20.0, top + 8.0 + 20.0 * i as f64), s.style, &s.label, false);
        }
        svg.finish()
    }
}

/// The y range `y0..=y1` with 5 % of room above and below (not below 0 for a range that starts
/// at 0 or above), and of height 1 at least.
fn padded(y0: f64, y1: f64) -> (f64, f64) {
    let (y0, y1) = if y0 > y1 {
        (0.0, 1.0)
    } else if y1 <= y0 {
        (y0, y0 + 1.0)
    } else {
        (y0, y1)
    };
    let pad = (y1 - y0) * 0.05;
    (if y0 >= 0.0 { (y0 - pad).max(0.0) } else { y0 - pad }, y1 + pad)
}

/// The y axis of the plot area `(left, right, top, bottom)` over `y0..=y1`: grid lines, tick
/// labels, the axis line and its title.
fn y_axis(
    svg: &mut Svg,
    (left, right, top, bottom): (f64, f64, f64, f64),
    (y0, y1): (f64, f64),
    label: &str,
) {
    let sy = |y: f64| bottom - (y - y0) / (y1 - y0) * (bottom - top);
    for t in ticks(y0, y1) {
        svg.line((left, sy(t)), (right, sy(t)), "#e5e5e5", 1.0, false);
        svg.text((left - 6.0, sy(t) + 4.0), &tick_label(t), 11.0, Anchor::End, false);
    }
    svg.line((left, bottom), (left, top), "#333333", 1.0, false);
    svg.text((18.0, (top + bottom) / 2.0), label, 13.0, Anchor::Middle, true);
}
