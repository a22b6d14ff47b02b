"""A grouped bar chart of `hrc eval` results as SVG, written by hand (no plotting library).

One group per metric, one bar per mode, values 0..1 on a fixed axis so charts compare.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape

#: Colour-blind-safe palette (Okabe-Ito), one per mode in order.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00")


def svg_chart(
    title: str,
    labels: Sequence[str],
    series: Mapping[str, Sequence[float | None]],
) -> str:
    """`labels` are the metric names; `series` maps a mode to one value per label."""
    modes = list(series)
    bar, gap, group_gap = 18, 2, 28
    group_w = len(modes) * (bar + gap) - gap
    left, top, plot_h = 48, 48, 220
    width = left + len(labels) * (group_w + group_gap) + 140
    height = top + plot_h + 56
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="24" font-size="15" font-weight="bold">{escape(title)}</text>',
    ]
    for tick in range(0, 11, 2):
        y = top + plot_h - plot_h * tick / 10
        out.append(f'<line x1="{left}" x2="{width - 140}" y1="{y:.1f}" y2="{y:.1f}" '
                   f'stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{tick / 10:.1f}</text>')
    for g, label in enumerate(labels):
        x0 = left + group_gap / 2 + g * (group_w + group_gap)
        for m, mode in enumerate(modes):
            value = series[mode][g]
            v = 0.0 if value is None else max(0.0, min(1.0, value))
            h = plot_h * v
            x = x0 + m * (bar + gap)
            colour = PALETTE[m % len(PALETTE)]
            shown = "n/a" if value is None else f"{value:.3f}"
            out.append(
                f'<rect x="{x:.1f}" y="{top + plot_h - h:.1f}" width="{bar}" height="{h:.1f}" '
                f'fill="{colour}"><title>{escape(mode)} {escape(label)}: {shown}</title></rect>'
            )
            value_text = "n/a" if value is None else f"{value:.2f}".removeprefix("0")
            out.append(f'<text x="{x + bar / 2:.1f}" y="{top + plot_h - h - 3:.1f}" '
                       f'font-size="9" text-anchor="middle">{value_text}</text>')
        out.append(f'<text x="{x0 + group_w / 2:.1f}" y="{top + plot_h + 18}" '
                   f'text-anchor="middle">{escape(label)}</text>')
    for m, mode in enumerate(modes):
        y = top + 14 + m * 20
        x = width - 124
        out.append(f'<rect x="{x}" y="{y - 10}" width="12" height="12" '
                   f'fill="{PALETTE[m % len(PALETTE)]}"/>')
        out.append(f'<text x="{x + 18}" y="{y}">{escape(mode)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
