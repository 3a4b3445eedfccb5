// Small inline SVG charts for report.html (no scripts, no external files):
// a vertical bar chart of counts, with labelled bars.
#pragma once
#include <string>
#include <vector>

namespace gpulab::report {

struct Bar {
  std::string label;  // under the bar
  double value = 0;   // bar height; the value is printed above the bar
  std::string colour = "#3b6ea5";
};

// An <svg> element of the given size; `caption` is its accessible title.
std::string bar_chart_svg(const std::vector<Bar>& bars, const std::string& caption, int width = 640, int height = 240);
std::string html_escape(const std::string& text);

}  // namespace gpulab::report
