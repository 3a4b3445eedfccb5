// bar_chart_svg.
#include "svg_charts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

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
  char buf[512];
  std::string s;
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                "role=\"img\" class=\"chart\"><title>%s</title>",
                width, height, width, height, html_escape(caption).c_str());
  s += buf;
  // Axis and a few horizontal grid lines.
  for (int k = 0; k <= 4; ++k) {
    const double y = top + plot_h - plot_h * k / 4.0;
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d8dde3\"/>"
                  "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\" fill=\"#555\">%g</text>",
                  left, y, left + plot_w, y, left - 6, y + 4, peak * k / 4.0);
    s += buf;
  }
  const double slot = bars.empty() ? plot_w : plot_w / static_cast<double>(bars.size());
  for (size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    const double h = plot_h * b.value / peak;
    const double x = left + slot * static_cast<double>(i) + slot * 0.1;
    const double y = top + plot_h - h;
    std::snprintf(buf, sizeof buf,
                  "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s: %g</title></rect>",
                  x, y, slot * 0.8, h, html_escape(b.colour).c_str(), html_escape(b.label).c_str(), b.value);
    s += buf;
    if (b.value > 0) {
      std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%g</text>",
                    x + slot * 0.4, y - 4, b.value);
      s += buf;
    }
    std::snprintf(buf, sizeof buf,
                  "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\" fill=\"#333\">%s</text>",
                  x + slot * 0.4, top + plot_h + 16, html_escape(b.label).c_str());
    s += buf;
  }
  std::snprintf(buf, sizeof buf, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>", left,
                top + plot_h, left + plot_w, top + plot_h);
  s += buf;
  s += "</svg>";
  return s;
}

}  // namespace gpulab::report
