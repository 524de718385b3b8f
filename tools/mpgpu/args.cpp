#include "args.hpp"

#include <charconv>
#include <limits>

namespace mpgpu::cli {

std::string ArgReader::next() {
  std::string arg = args_.at(pos_++);
  inline_value_.reset();
  if (arg.rfind("--", 0) == 0) {
    if (auto eq = arg.find('='); eq != std::string::npos) {
      inline_value_ = arg.substr(eq + 1);
      arg.resize(eq);
    }
  }
  return arg;
}

std::string ArgReader::value(std::string_view option) {
  if (inline_value_) {
    std::string v = std::move(*inline_value_);
    inline_value_.reset();
    if (v.empty()) throw UsageError(std::string(option) + " needs a value");
    return v;
  }
  if (done()) throw UsageError(std::string(option) + " needs a value");
  return args_[pos_++];
}

void ArgReader::no_value(std::string_view option) const {
  if (inline_value_) throw UsageError(std::string(option) + " takes no value");
}

namespace {

std::optional<std::uint64_t> to_u64(std::string_view text) {
  std::uint64_t v = 0;
  if (text.empty()) return std::nullopt;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace

std::uint64_t parse_bits(std::string_view option, std::string_view text) {
  auto bad = [&](const std::string& why) {
    return UsageError(std::string(option) + ": \"" + std::string(text) + "\" " + why +
                      " (expected a bit count such as 1048576 or 2^20)");
  };
  std::optional<std::uint64_t> v;
  if (text.rfind("2^", 0) == 0) {
    auto e = to_u64(text.substr(2));
    if (!e) throw bad("is not a power of two");
    if (*e > 62) throw bad("is too large");
    v = std::uint64_t{1} << *e;
  } else {
    v = to_u64(text);
    if (!v) throw bad("is not a number");
  }
  if (*v == 0) throw bad("must be positive");
  return *v;
}

std::uint64_t parse_count(std::string_view option, std::string_view text, std::uint64_t max) {
  auto v = to_u64(text);
  if (!v || *v == 0 || *v > max)
    throw UsageError(std::string(option) + ": \"" + std::string(text) +
                     "\" is not a whole number from 1 to " + std::to_string(max));
  return *v;
}

std::vector<std::string> split_list(std::string_view option, std::string_view text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = text.find(',', start);
    std::string_view item = text.substr(start, comma == std::string_view::npos ? comma : comma - start);
    if (item.empty())
      throw UsageError(std::string(option) + ": empty item in \"" + std::string(text) + "\"");
    items.emplace_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

}  // namespace mpgpu::cli
