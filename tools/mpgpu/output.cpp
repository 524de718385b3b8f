#include "output.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <ctime>
#include <ostream>
#include <vector>

namespace mpgpu::cli {

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {

std::string printf_string(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

/// Three significant digits: 1.23, 12.3, 123.
std::string three_digits(double v) {
  if (v >= 99.95) return printf_string("%.0f", v);
  if (v >= 9.995) return printf_string("%.1f", v);
  return printf_string("%.2f", v);
}

/// A note, wrapped at word boundaries into lines of at most ~96 characters;
/// continuation lines are indented by two spaces.
void write_wrapped(std::ostream& out, const std::string& text) {
  constexpr std::size_t kWidth = 96;
  std::string line;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find(' ', pos);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(pos, end - pos);
    if (!line.empty() && line.size() + 1 + word.size() > kWidth) {
      out << line << "\n";
      line = "  ";
    } else if (!line.empty() && line != "  ") {
      line += ' ';
    }
    line += word;
    pos = end + 1;
  }
  if (!line.empty()) out << line << "\n";
}

/// Text table columns: name, right-aligned?
struct Column {
  const char* title;
  bool right;
};

}  // namespace

std::string format_seconds(double s) {
  if (s <= 0) return "-";
  if (s < 1e-6) return three_digits(s * 1e9) + " ns";
  if (s < 1e-3) return three_digits(s * 1e6) + " us";
  if (s < 1) return three_digits(s * 1e3) + " ms";
  return three_digits(s) + " s";
}

std::string format_bits(std::uint64_t bits) {
  if (bits && std::has_single_bit(bits)) return "2^" + std::to_string(std::countr_zero(bits));
  return std::to_string(bits);
}

std::string format_size(const BenchRow& row) {
  if (!row.instances) return format_bits(row.bits);
  return std::to_string(row.bits) + " bits x " + format_bits(row.instances);
}

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return (u ? three_digits(v) : std::to_string(bytes)) + " " + units[u];
}

std::string json_quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// ---- text ---------------------------------------------------------------------------

void write_text(std::ostream& out, const BenchReport& report) {
  out << "mpgpu bench (" << (report.quick ? "quick" : "full") << "): " << report.context << " vs GMP "
      << report.gmp_release << " on the host, " << report.date << "\n";
  out << "times: median of " << report.policy.min_reps;
  if (report.policy.max_reps != report.policy.min_reps) out << "-" << report.policy.max_reps;
  out << " samples after warm-up; a sample is a burst of back-to-back calls (time per call; mpgpu's\n"
         "bursts between device synchronizations); a row's mpgpu and GMP samples alternate;\n"
         "GB/s = bytes the operation moves (3 x bits/8 for add, sub, and, ior, xor; 2 x bits/8 for\n"
         "tdiv_q_ui) / mpgpu time\n\n";

  // "bits" as before for integer rows only; "size" once batch rows (width x instances) are in.
  const bool batch_rows =
      std::any_of(report.rows.begin(), report.rows.end(), [](const BenchRow& r) { return r.instances != 0; });
  // "+transfers" only when some row has it (the products).
  const bool transfers =
      std::any_of(report.rows.begin(), report.rows.end(), [](const BenchRow& r) { return r.with_transfers.reps != 0; });
  std::vector<Column> cols = {{"op", false}, {batch_rows ? "size" : "bits", true}, {"mpgpu", true}};
  if (transfers) cols.push_back({"+transfers", true});
  for (const Column& c : {Column{"GMP", true}, Column{"speed-up", true}, Column{"GB/s", true}, Column{"verified", false}})
    cols.push_back(c);
  std::vector<std::vector<std::string>> cells;
  for (const BenchRow& r : report.rows) {
    const double su = r.speedup(), gb = r.gbps();
    std::vector<std::string> row = {r.op, format_size(r), r.mpgpu.reps ? format_seconds(r.mpgpu.median_s) : "failed"};
    if (transfers) row.push_back(r.with_transfers.reps ? format_seconds(r.with_transfers.median_s) : "-");
    row.push_back(r.gmp.reps ? format_seconds(r.gmp.median_s) : r.gmp_run ? "failed" : "not run");
    row.push_back(su > 0 ? three_digits(su) + "x" : "-");
    row.push_back(gb > 0 ? three_digits(gb) : "-");
    row.push_back(!r.verified ? "no" : r.check == "GMP" ? "yes" : "yes, " + r.check);
    cells.push_back(std::move(row));
  }
  std::vector<std::size_t> width(cols.size());
  for (std::size_t c = 0; c < cols.size(); ++c) {
    width[c] = std::string(cols[c].title).size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](auto cell_of) {
    std::string s;
    for (std::size_t c = 0; c < cols.size(); ++c) {
      const std::string cell = cell_of(c);
      const std::string pad(width[c] - cell.size(), ' ');
      if (c) s += "  ";
      s += cols[c].right ? pad + cell : cell + (c + 1 < cols.size() ? pad : "");
    }
    out << s << "\n";
  };
  line([&](std::size_t c) { return std::string(cols[c].title); });
  line([&](std::size_t c) { return std::string(width[c], '-'); });
  for (const auto& row : cells) line([&](std::size_t c) { return row[c]; });

  std::size_t bad = 0, other_check = 0;
  for (const BenchRow& r : report.rows) {
    bad += !r.verified;
    other_check += r.verified && r.check != "GMP";
  }
  out << "\n" << report.rows.size() << " rows, ";
  if (bad) out << bad << " NOT verified";
  else if (other_check) out << "all verified (" << other_check << " without GMP, by the check named in the row)";
  else out << "all verified against GMP";
  out << "; " << three_digits(report.total_s) << " s in all\n";
  for (const BenchRow& r : report.rows)
    if (!r.error.empty()) out << "  " << r.op << " " << format_size(r) << ": " << r.error << "\n";
  for (const std::string& note : report.notes) write_wrapped(out, note);
}

// ---- CSV --------------------------------------------------------------------------------

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

namespace {

std::string number(double v) { return printf_string("%.6g", v); }

}  // namespace

void write_csv(std::ostream& out, const BenchReport& report) {
  // instances: empty for integer rows.
  // Columns added later go at the end, so older readers keep their indices.
  out << "op,bits,instances,mpgpu_s,mpgpu_reps,gmp_s,gmp_reps,speedup,gbps,verified,error,transfers_s,checked_by\n";
  for (const BenchRow& r : report.rows) {
    out << r.op << ',' << r.bits << ',' << (r.instances ? std::to_string(r.instances) : "") << ','
        << (r.mpgpu.reps ? number(r.mpgpu.median_s) : "") << ','
        << r.mpgpu.reps << ',' << (r.gmp.reps ? number(r.gmp.median_s) : "") << ',' << r.gmp.reps << ','
        << (r.speedup() > 0 ? number(r.speedup()) : "") << ',' << (r.gbps() > 0 ? number(r.gbps()) : "")
        << ',' << (r.verified ? "yes" : "no") << ',' << csv_field(r.error) << ','
        << (r.with_transfers.reps ? number(r.with_transfers.median_s) : "") << ',' << csv_field(r.check) << '\n';
  }
}

// ---- JSON -------------------------------------------------------------------------------

void write_json(std::ostream& out, const BenchReport& report) {
  auto num_or_null = [](double v) { return v > 0 ? number(v) : std::string("null"); };
  out << "{\n"
      << "  \"context\": " << json_quote(report.context) << ",\n"
      << "  \"device\": " << json_quote(report.device_name) << ",\n"
      << "  \"gmp\": " << json_quote(report.gmp_release) << ",\n"
      << "  \"date\": " << json_quote(report.date) << ",\n"
      << "  \"mode\": " << json_quote(report.quick ? "quick" : "full") << ",\n"
      << "  \"total_s\": " << number(report.total_s) << ",\n"
      << "  \"all_verified\": " << (report.all_verified() ? "true" : "false") << ",\n"
      << "  \"notes\": [";
  for (std::size_t i = 0; i < report.notes.size(); ++i) out << (i ? ", " : "") << json_quote(report.notes[i]);
  out << "],\n"
      << "  \"rows\": [";
  for (std::size_t i = 0; i < report.rows.size(); ++i) {
    const BenchRow& r = report.rows[i];
    out << (i ? ",\n" : "\n") << "    {\"op\": " << json_quote(r.op) << ", \"bits\": " << r.bits
        << ", \"instances\": " << (r.instances ? std::to_string(r.instances) : "null")
        << ", \"mpgpu_s\": " << (r.mpgpu.reps ? number(r.mpgpu.median_s) : "null")
        << ", \"mpgpu_reps\": " << r.mpgpu.reps
        << ", \"gmp_s\": " << (r.gmp.reps ? number(r.gmp.median_s) : "null") << ", \"gmp_reps\": " << r.gmp.reps
        << ", \"speedup\": " << num_or_null(r.speedup()) << ", \"gbps\": " << num_or_null(r.gbps())
        << ", \"transfers_s\": " << (r.with_transfers.reps ? number(r.with_transfers.median_s) : "null")
        << ", \"verified\": " << (r.verified ? "true" : "false") << ", \"checked_by\": " << json_quote(r.check)
        << ", \"error\": " << (r.error.empty() ? "null" : json_quote(r.error)) << "}";
  }
  out << (report.rows.empty() ? "]\n" : "\n  ]\n") << "}\n";
}

void write_report(std::ostream& out, const BenchReport& report, Format format) {
  switch (format) {
    case Format::text: write_text(out, report); break;
    case Format::csv: write_csv(out, report); break;
    case Format::json: write_json(out, report); break;
  }
}

}  // namespace mpgpu::cli
