// `mpgpu info`: what the chosen context runs on.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "mpgpu/context.hpp"

namespace mpgpu::cli {

struct InfoOptions {
  bool help = false;
  bool json = false;
};

/// Parses the arguments after `info`; throws UsageError.
InfoOptions parse_info_options(std::vector<std::string> args);
void print_info_help(std::ostream& out);
/// Prints the context's description. Returns the exit code.
int run_info(const Context& ctx, const InfoOptions& opt);

}  // namespace mpgpu::cli
