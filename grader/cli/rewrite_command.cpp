// `gpulab rewrite FILE.cu [-o OUT]`: show what the emulator compiles (the
// source with kernel launches and __shared__ declarations rewritten).
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "commands.hpp"
#include "rewriter/cuda_rewriter.hpp"
#include "rewriter/region_rewrite.hpp"

namespace gpulab::cli {

void add_rewrite_command(CLI::App& app, Action& action) {
  auto file = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto decisions = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("rewrite", "Print the C++ the emulator compiles for a .cu file");
  cmd->add_option("file", *file, "the .cu file")->required()->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", *out, "write to this file instead of stdout");
  cmd->add_flag("--regions", *decisions,
                "print, for each kernel, whether its blocks run as regions between barriers (one loop over the "
                "threads each) or one fiber per thread, and why");
  cmd->callback([file, out, decisions, &action] {
    action = [file, out, decisions] {
      std::ifstream in(*file, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      if (*decisions) {
        for (const std::string& line : rewriter::region_decisions(text.str())) fmt::print("{}\n", line);
        return 0;
      }
      std::string result;
      try {
        result = rewriter::rewrite_cuda_source(text.str(), *file);
      } catch (const rewriter::RewriteError& e) {
        fmt::print(stderr, "{}\n", e.what());
        return 1;
      }
      if (out->empty()) {
        std::fwrite(result.data(), 1, result.size(), stdout);
      } else {
        std::ofstream o(*out, std::ios::binary);
        o << result;
        if (!o) throw std::runtime_error("cannot write '" + *out + "'");
      }
      return 0;
    };
  });
}

}  // namespace gpulab::cli
