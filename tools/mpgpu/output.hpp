// Formatting of `mpgpu bench` reports: aligned text, CSV and JSON.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "bench_table.hpp"

namespace mpgpu::cli {

/// "12.3 us", "1.05 ms", "2.00 s" (three significant digits).
/// The current time, UTC, ISO 8601 ("2026-11-28T03:29:15Z"): a report's date.
std::string utc_now();
std::string format_seconds(double s);
/// "2^20" for powers of two, else the decimal count.
std::string format_bits(std::uint64_t bits);
/// A row's size: format_bits(bits), or for a batch row "1024 bits x 2^20".
std::string format_size(const BenchRow& row);
/// "1.5 GiB" style byte counts.
std::string format_bytes(std::uint64_t bytes);
/// A CSV field, quoted when it holds a comma, a quote or a newline.
std::string csv_field(const std::string& s);
/// A JSON string literal, quotes included.
std::string json_quote(const std::string& s);

void write_text(std::ostream& out, const BenchReport& report);
void write_csv(std::ostream& out, const BenchReport& report);
void write_json(std::ostream& out, const BenchReport& report);
void write_report(std::ostream& out, const BenchReport& report, Format format);

}  // namespace mpgpu::cli
