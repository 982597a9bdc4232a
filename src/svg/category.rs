//! The chart over named categories ([`CategoryChart`]): bars or dots per category, never a line
//! joining two of them, in the styles and legend of the line chart (module `svg`).

use super::*;

/// A value of a [`CategoryChart`]: its height, and whether its marker is filled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Value {
    /// The value.
    pub y: f64,
    /// Filled marker (else hollow): what filled means is the chart's [`CategoryChart::note`].
    pub filled: bool,
}

/// One set of bars or dots of a [`CategoryChart`], or a reference level.
#[derive(Debug, Clone, PartialEq)]
pub struct CategorySeries {
    /// The legend entry.
    pub label: String,
    /// One value per category, or none.
    pub values: Vec<Option<Value>>,
    /// How it is drawn: [`style`] for a measurement; [`reference_style`] for a bound or an
    /// optimum, a level across each category's slot rather than a bar or a dot.
    pub style: Style,
}

/// How a [`CategoryChart`] draws its measured series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CategoryKind {
    /// Side-by-side bars from zero, a marker on top.
    Bars,
    /// Side-by-side markers, no line between categories.
    Dots,
}

/// A chart over named categories (instances, machines) on the x axis: per category, one bar or
/// dot per measured series side by side, and each reference series as a level across the
/// category's slot. Nothing joins two categories.
#[derive(Debug, Clone, PartialEq)]
pub struct CategoryChart {
    /// The title above the plot.
    pub title: String,
    /// The y-axis title.
    pub y_label: String,
    /// What the markers' filling means, or other notes under the legend.
    pub note: Vec<String>,
    /// The categories, left to right.
    pub categories: Vec<String>,
    /// The series.
    pub series: Vec<CategorySeries>,
    /// Bars or dots.
    pub kind: CategoryKind,
    /// A horizontal rule across the plot (a ratio of 1), if any.
    pub rule: Option<f64>,
}

impl CategoryChart {
    /// The chart as an SVG document: a slot per category wide enough for a bar (or dot) of every
    /// measured series side by side, the plot at least 400 pixels wide; each category's values
    /// centred in its slot, bars at most 36 pixels wide; category labels slanted under the axis,
    /// the legend on the right.
    pub fn to_svg(&self) -> String {
        let measured = self.series.iter().filter(|s| !s.style.is_reference()).count().max(1);
        let slot = match self.kind {
            CategoryKind::Bars => f64::max(60.0, 14.0 * measured as f64 + 16.0),
            CategoryKind::Dots => f64::max(40.0, 7.0 * measured as f64 + 12.0),
        };
        let longest_category = self.categories.iter().map(|c| c.chars().count()).max().unwrap_or(0);
        // The first category's slanted label reaches about 4.9 px per character left of its slot's
        // middle.
        let first = self.categories.first().map_or(0, |c| c.chars().count());
        let (left, top) = (f64::max(70.0, 4.9 * first as f64 - slot / 2.0 + 10.0), 40.0);
        let right = left + f64::max(400.0, slot * self.categories.len() as f64);
        let bottom = 360.0;
        let legend_lines =
            self.series.len() as f64 + self.note.len() as f64 + if self.note.is_empty() { 0.0 } else { 0.5 };
        let longest = (self.series.iter().map(|s| s.label.chars().count()))
            .chain(self.note.iter().map(|n| n.chars().count()))
            .max()
            .unwrap_or(0);
        let width = right + 50.0 + 6.6 * longest as f64 + 10.0;
        // Slanted labels reach down about 0.5 × 6 px per character.
        let height =
            f64::max(bottom + 30.0 + 3.6 * longest_category as f64, top + 20.0 * legend_lines + 30.0);
        let values = self.series.iter().flat_map(|s| s.values.iter().flatten().map(|v| v.y));
        let (mut y0, mut y1) = (f64::INFINITY, f64::NEG_INFINITY);
        for y in values.chain(self.rule).filter(|y| y.is_finite()) {
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        if self.kind == CategoryKind::Bars {
            y0 = 0.0;
        }
        let (y0, y1) = padded(y0, y1);
        let sy = |y: f64| bottom - (y - y0) / (y1 - y0) * (bottom - top);
        let mut svg = Svg::new(width, height);
        svg.text(((left + right) / 2.0, 22.0), &self.title, 15.0, Anchor::Middle, false);
        y_axis(&mut svg, (left, right, top, bottom), (y0, y1), &self.y_label);
        svg.line((left, bottom), (right, bottom), "#333333", 1.0, false);
        if let Some(r) = self.rule {
            svg.line((left, sy(r)), (right, sy(r)), "#333333", 1.2, false);
        }
        let slot = (right - left) / self.categories.len().max(1) as f64;
        for (c, category) in self.categories.iter().enumerate() {
            let x0 = left + slot * c as f64;
            if c > 0 {
                svg.line((x0, top), (x0, bottom), "#f0f0f0", 1.0, false);
            }
            let (lx, ly) = (x0 + slot / 2.0, bottom + 14.0);
            let _ = writeln!(
                svg.body,
                "<text x=\"{lx:.2}\" y=\"{ly:.2}\" font-size=\"11\" text-anchor=\"end\" transform=\"rotate(-35 {lx:.2} {ly:.2})\">{}</text>",
                escape(category)
            );
            let value = |s: &CategorySeries| s.values.get(c).copied().flatten().filter(|v| v.y.is_finite());
            let (references, measurements): (Vec<&CategorySeries>, Vec<&CategorySeries>) =
                self.series.iter().partition(|s| s.style.is_reference());
            // The category's values side by side, at most 36 px each, centred in its slot.
            let present: Vec<(&CategorySeries, Value)> =
                measurements.into_iter().filter_map(|s| Some((s, value(s)?))).collect();
            let width = f64::min((slot - 12.0) / present.len().max(1) as f64, 36.0);
            let start = x0 + (slot - width * present.len() as f64) / 2.0;
            for (k, (s, v)) in present.into_iter().enumerate() {
                let cx = start + width * (k as f64 + 0.5);
                let title = format!("{} on {category}: {}", s.label, tick_label(v.y));
                if self.kind == CategoryKind::Bars {
                    let (y, base) = (sy(v.y), sy(y0.max(0.0)));
                    bar_rect(
                        &mut svg,
                        (cx - width / 2.0 + 1.0, y, width - 2.0, base - y),
                        s.style,
                        Some(&title),
                    );
                }
                svg.marker((cx, sy(v.y)), 4.0, (s.style.marker, s.style.colour), v.filled, Some(&title));
            }
            // The references over the bars, as levels across the slot.
            for s in references {
                let Some(v) = value(s) else { continue };
                let title = format!("{} on {category}: {}", s.label, tick_label(v.y));
                s.style.draw(&mut svg, &[(x0 + 3.0, sy(v.y)), (x0 + slot - 3.0, sy(v.y))]);
                svg.marker(
                    (x0 + 3.0, sy(v.y)),
                    3.0,
                    (s.style.marker, s.style.colour),
                    v.filled,
                    Some(&title),
                );
            }
        }
        let bars = self.kind == CategoryKind::Bars;
        for (i, s) in self.series.iter().enumerate() {
            legend_entry(
                &mut svg,
                (right + 20.0, top + 8.0 + 20.0 * i as f64),
                s.style,
                &s.label,
                bars && !s.style.is_reference(),
            );
        }
        for (i, note) in self.note.iter().enumerate() {
            let y = top + 8.0 + 20.0 * (self.series.len() as f64 + 0.5 + i as f64);
            svg.text((right + 20.0, y + 4.0), note, 12.0, Anchor::Start, false);
        }
        svg.finish()
    }
}
