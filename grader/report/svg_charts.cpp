// bar_chart_svg.
#include "svg_charts.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include <fmt/format.h>

namespace gpulab::report {

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string bar_chart_svg(const std::vector<Bar>& bars, const std::string& caption, int width, int height) {
  const double left = 40, right = 10, top = 20, bottom = 40;
  const double plot_w = width - left - right, plot_h = height - top - bottom;
  double peak = 0;
  for (const Bar& b : bars) peak = std::max(peak, b.value);
  // Counts: round the top up to a multiple of 4, so the four grid lines fall on whole numbers.
  peak = std::max(4.0, std::ceil(peak / 4.0) * 4.0);
  std::string s;
  auto out = std::back_inserter(s);
  fmt::format_to(out,
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
                 "role=\"img\" class=\"chart\"><title>{2}</title>",
                 width, height, html_escape(caption));
  // Axis and a few horizontal grid lines.
  for (int k = 0; k <= 4; ++k) {
    const double y = top + plot_h - plot_h * k / 4.0;
    fmt::format_to(out,
                   "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#d8dde3\"/>"
                   "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"end\" fill=\"#555\">{:g}</text>",
                   left, y, left + plot_w, y, left - 6, y + 4, peak * k / 4.0);
  }
  const double slot = bars.empty() ? plot_w : plot_w / static_cast<double>(bars.size());
  for (size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    const double h = plot_h * b.value / peak;
    const double x = left + slot * static_cast<double>(i) + slot * 0.1;
    const double y = top + plot_h - h;
    fmt::format_to(
        out,
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\"><title>{}: {:g}</title></rect>",
        x, y, slot * 0.8, h, html_escape(b.colour), html_escape(b.label), b.value);
    if (b.value > 0) {
      fmt::format_to(out, "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"middle\">{:g}</text>",
                     x + slot * 0.4, y - 4, b.value);
    }
    fmt::format_to(out,
                   "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#333\">{}</text>",
                   x + slot * 0.4, top + plot_h + 16, html_escape(b.label));
  }
  fmt::format_to(out, "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#333\"/>", left,
                 top + plot_h, left + plot_w, top + plot_h);
  s += "</svg>";
  return s;
}

}  // namespace gpulab::report
