//! The SVG writer shared by every picture: escaping, round ticks, a line chart that draws one
//! polyline and one legend entry per series, a chart over categories (bars, or dots filled or
//! hollow), and line styles that stay apart.

use commsched::svg::{
    CategoryChart, CategoryKind, CategorySeries, DASHES, LineChart, Marker, PALETTE, Series, Value, escape,
    reference_style, style, ticks,
};
use std::collections::HashSet;

#[test]
fn escape_covers_markup_characters() {
    assert_eq!(escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
}

#[test]
fn ticks_are_round_and_cover_the_range() {
    assert_eq!(ticks(0.0, 10.0), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
    assert_eq!(ticks(2.0, 20.0), vec![5.0, 10.0, 15.0, 20.0]);
    let fine = ticks(1.0, 1.5);
    assert_eq!(fine.len(), 6);
    for (t, want) in fine.iter().zip([1.0, 1.1, 1.2, 1.3, 1.4, 1.5]) {
        assert!((t - want).abs() < 1e-9, "{fine:?}");
    }
}

#[test]
fn a_line_chart_draws_every_series_and_escapes_labels() {
    let chart = LineChart {
        title: "T against log N".into(),
        x_label: "log2 N".into(),
        y_label: "steps".into(),
        series: vec![
            Series {
                label: "w = 1".into(),
                points: vec![(2.0, 6.0), (3.0, 12.0), (4.0, 20.0)],
                style: style(0),
            },
            Series {
                label: "bound <FT-2>".into(),
                points: vec![(2.0, 4.0), (4.0, 8.0)],
                style: reference_style(0),
            },
        ],
    };
    let svg = chart.to_svg();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    // One line per series and one sample per legend entry; the bound dashed, in both.
    assert_eq!(svg.matches("<polyline").count(), 4);
    assert_eq!(svg.matches("stroke-dasharray=\"7 3\"").count(), 2);
    // Five points and two legend markers, all circles (style 0 and reference style 0).
    assert_eq!(svg.matches("<circle").count(), 7);
    assert_eq!(svg.matches("class=\"legend-entry\"").count(), 2);
    assert!(svg.contains("data-colour=\"#0072B2\" data-marker=\"circle\" data-dash=\"\""));
    assert!(svg.contains("data-colour=\"#555555\" data-marker=\"circle\" data-dash=\"7 3\""));
    assert!(svg.contains("bound &lt;FT-2&gt;"));
    assert!(!svg.contains("NaN"));
}

/// Colour, marker and dash together tell the first 56 lines apart, marker and dash alone (what
/// greyscale keeps) the first 28, and no reference is drawn in a colour of the palette.
#[test]
fn styles_stay_distinct_for_56_lines_and_28_in_greyscale() {
    let all: HashSet<_> = (0..56).map(|i| (style(i).colour, style(i).marker, style(i).dash)).collect();
    assert_eq!(all.len(), 56);
    let grey: HashSet<_> = (0..28).map(|i| (style(i).marker, style(i).dash)).collect();
    assert_eq!(grey.len(), 28);
    // The 29th line repeats the first's marker and dash, in another colour.
    assert_eq!((style(28).marker, style(28).dash), (style(0).marker, style(0).dash));
    assert_ne!(style(28).colour, style(0).colour);
    let first: Vec<_> = (0..7).map(|i| (style(i).colour, style(i).marker)).collect();
    assert_eq!(first[3], ("#CC79A7", Marker::Diamond));
    assert!((0..7).all(|i| style(i).dash.is_empty()) && style(7).dash == DASHES[1]);
    for j in 0..21 {
        let r = reference_style(j);
        assert!(!PALETTE.contains(&r.colour) && !r.dash.is_empty() && r.is_reference(), "{r:?}");
    }
    assert!((0..56).all(|i| !style(i).is_reference()));
}

#[test]
fn a_category_chart_draws_bars_dots_and_levels_without_joining_categories() {
    let series = |kind| CategoryChart {
        title: "t".into(),
        y_label: "y".into(),
        note: vec!["filled: certified".into()],
        categories: vec!["a".into(), "b".into()],
        series: vec![
            CategorySeries {
                label: "bound".into(),
                values: vec![Some(Value { y: 3.0, filled: true }), None],
                style: reference_style(0),
            },
            CategorySeries {
                label: "x".into(),
                values: vec![Some(Value { y: 4.0, filled: true }), Some(Value { y: 6.0, filled: false })],
                style: style(1),
            },
        ],
        kind,
        rule: Some(1.0),
    };
    let bars = series(CategoryKind::Bars).to_svg();
    // Two bars and the legend's swatch; the bound a level over the first category only.
    assert_eq!(bars.matches("fill-opacity=\"0.85\"").count(), 3);
    assert_eq!(bars.matches("<polyline").count(), 2, "the level and its legend sample");
    let dots = series(CategoryKind::Dots).to_svg();
    assert_eq!(dots.matches("fill-opacity=\"0.85\"").count(), 0);
    // The hollow point is white inside its colour; the filled one its colour inside dark grey.
    assert!(dots.contains("data-marker=\"square\" fill=\"#ffffff\" stroke=\"#D55E00\""));
    assert!(dots.contains("data-marker=\"square\" fill=\"#D55E00\" stroke=\"#333333\""));
    assert!(dots.contains(">filled: certified</text>"));
    assert!(dots.contains("rotate(-35"), "slanted category labels");
}
