// The tables of `mpgpu bench --workloads`: aligned text, CSV and JSON.
#include <algorithm>
#include <cstdio>
#include <ostream>

#include "bench_workloads.hpp"
#include "output.hpp"

namespace mpgpu::cli {

namespace {

std::string time_cell(const WorkloadResult& r) {
  if (!r.ran) return "-";
  return r.error.empty() ? format_seconds(r.seconds) : "failed";
}

const WorkloadResult& first_ran(const WorkloadRow& row) { return row.cuda.ran ? row.cuda : row.cpu; }

std::string digits_cell(const WorkloadRow& row) {
  const WorkloadResult& r = first_ran(row);
  return r.ran && r.error.empty() && r.digits ? std::to_string(r.digits) : "-";
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

void write_workloads_text(std::ostream& out, const WorkloadReport& report) {
  out << "mpgpu bench --workloads (" << (report.quick ? "quick" : "full") << "): "
      << (report.cuda_context.empty() ? "no CUDA context" : report.cuda_context) << " and "
      << (report.cpu_context.empty() ? "no CPU context" : report.cpu_context + " (GMP " + report.gmp_release + ")")
      << ", " << report.date << "\n";
  if (!report.note.empty()) out << "note: " << report.note << "\n";
  out << "times: computing the value and its decimal text, one run each (CUDA: the faster of two when under 2 s);\n"
         "sha256: of that text\n\n";

  const std::vector<std::string> titles = {"workload", "digits", "cuda", "cpu", "speed-up", "sha256", "match"};
  std::vector<std::vector<std::string>> cells;
  for (const WorkloadRow& r : report.rows) {
    const double su = r.speedup();
    char speed[32] = "-";
    if (su > 0) std::snprintf(speed, sizeof speed, su >= 100 ? "%.0fx" : su >= 10 ? "%.1fx" : "%.2fx", su);
    const WorkloadResult& any = first_ran(r);
    cells.push_back({r.spec.label, digits_cell(r), time_cell(r.cuda), time_cell(r.cpu), speed,
                     any.ran && any.error.empty() ? any.sha256.substr(0, 16) : "-", r.match()});
  }
  std::vector<std::size_t> width(titles.size());
  for (std::size_t c = 0; c < titles.size(); ++c) {
    width[c] = titles[c].size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& row) {
    std::string s;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::string pad(width[c] - row[c].size(), ' ');
      const bool left = c == 0 || c == 5 || c == 6;
      if (c) s += "  ";
      s += left ? row[c] + (c + 1 < row.size() ? pad : "") : pad + row[c];
    }
    out << s << "\n";
  };
  line(titles);
  std::vector<std::string> rule;
  for (std::size_t w : width) rule.emplace_back(w, '-');
  line(rule);
  for (const auto& row : cells) line(row);

  const auto bad = std::count_if(report.rows.begin(), report.rows.end(), [](const WorkloadRow& r) { return !r.ok(); });
  char total[32];
  std::snprintf(total, sizeof total, "%.1f s", report.total_s);
  out << "\n" << report.rows.size() << " workloads, ";
  if (bad) out << bad << " failed or NOT matching";
  else if (!report.cuda_context.empty() && !report.cpu_context.empty()) out << "all matching between the contexts";
  else out << "all ran (one context: nothing to compare)";
  out << "; " << total << " in all\n";
  for (const WorkloadRow& r : report.rows) {
    if (!r.cuda.error.empty()) out << "  " << r.spec.label << " on cuda: " << r.cuda.error << "\n";
    if (!r.cpu.error.empty()) out << "  " << r.spec.label << " on cpu: " << r.cpu.error << "\n";
  }
}

void write_workloads_csv(std::ostream& out, const WorkloadReport& report) {
  out << "id,workload,digits,cuda_s,cpu_s,speedup,sha256,match,error\n";
  for (const WorkloadRow& r : report.rows) {
    const WorkloadResult& any = first_ran(r);
    std::string error = r.cuda.error.empty() ? r.cpu.error : "cuda: " + r.cuda.error;
    out << r.spec.id << ',' << csv_field(r.spec.label) << ',' << (any.digits ? std::to_string(any.digits) : "") << ','
        << (r.cuda.ran && r.cuda.error.empty() ? number(r.cuda.seconds) : "") << ','
        << (r.cpu.ran && r.cpu.error.empty() ? number(r.cpu.seconds) : "") << ','
        << (r.speedup() > 0 ? number(r.speedup()) : "") << ',' << (any.error.empty() ? any.sha256 : "") << ','
        << csv_field(r.match()) << ',' << csv_field(error) << '\n';
  }
}

void write_workloads_json(std::ostream& out, const WorkloadReport& report) {
  auto side = [](const WorkloadResult& r) {
    if (!r.ran) return std::string("null");
    std::string s = "{\"seconds\": " + (r.error.empty() ? number(r.seconds) : "null") +
                    ", \"sha256\": " + (r.error.empty() ? json_quote(r.sha256) : "null") +
                    ", \"digits\": " + (r.error.empty() && r.digits ? std::to_string(r.digits) : "null") +
                    ", \"result\": " + (r.word.empty() ? "null" : json_quote(r.word)) +
                    ", \"error\": " + (r.error.empty() ? "null" : json_quote(r.error)) + "}";
    return s;
  };
  out << "{\n"
      << "  \"cuda_context\": " << (report.cuda_context.empty() ? "null" : json_quote(report.cuda_context)) << ",\n"
      << "  \"cpu_context\": " << (report.cpu_context.empty() ? "null" : json_quote(report.cpu_context)) << ",\n"
      << "  \"note\": " << (report.note.empty() ? "null" : json_quote(report.note)) << ",\n"
      << "  \"gmp\": " << json_quote(report.gmp_release) << ",\n"
      << "  \"date\": " << json_quote(report.date) << ",\n"
      << "  \"mode\": " << json_quote(report.quick ? "quick" : "full") << ",\n"
      << "  \"total_s\": " << number(report.total_s) << ",\n"
      << "  \"all_ok\": " << (report.all_ok() ? "true" : "false") << ",\n"
      << "  \"workloads\": [";
  for (std::size_t i = 0; i < report.rows.size(); ++i) {
    const WorkloadRow& r = report.rows[i];
    out << (i ? ",\n" : "\n") << "    {\"id\": " << json_quote(r.spec.id) << ", \"workload\": " << json_quote(r.spec.label)
        << ", \"cuda\": " << side(r.cuda) << ", \"cpu\": " << side(r.cpu)
        << ", \"speedup\": " << (r.speedup() > 0 ? number(r.speedup()) : "null")
        << ", \"match\": " << json_quote(r.match()) << ", \"ok\": " << (r.ok() ? "true" : "false") << "}";
  }
  out << (report.rows.empty() ? "]\n" : "\n  ]\n") << "}\n";
}

}  // namespace mpgpu::cli
