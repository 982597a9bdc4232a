//! The SVG writer shared by every picture: escaping, round ticks, and a line chart that draws one
//! polyline and one legend entry per series.

use commsched::svg::{LineChart, Series, escape, ticks};

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
                dashed: false,
            },
            Series { label: "bound <FT-2>".into(), points: vec![(2.0, 4.0), (4.0, 8.0)], dashed: true },
        ],
    };
    let svg = chart.to_svg();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<polyline").count(), 2);
    assert_eq!(svg.matches("stroke-dasharray=\"5 3\"").count(), 1);
    assert_eq!(svg.matches("<circle").count(), 5);
    assert!(svg.contains("bound &lt;FT-2&gt;"));
    assert!(!svg.contains("NaN"));
}
