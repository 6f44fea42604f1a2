#include "bench/report.h"

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/impls.h"
#include "bench/leveldb_peer.h"
#include "bench/rocksdb_peer.h"
#include "nlohmann/json.hpp"

namespace sstfilter {
namespace bench {
namespace {

const Row* Baseline(const std::vector<Row>& rows, size_t begin, size_t end) {
  for (size_t i = begin; i < end; ++i) {
    if (rows[i].impl == kBaselineImpl) return &rows[i];
  }
  return nullptr;
}

// A rate as a percentage with three significant digits (rates span 60% to
// below 10^-4%).
std::string Percent(double rate) {
  if (std::isnan(rate)) return "-";
  if (rate == 0) return "0";
  return absl::StrFormat("%.3g", 100 * rate);
}

std::string CaseTitle(const Row& r) {
  std::string size =
      r.fpp_config.has_value()
          ? absl::StrFormat("fpp %g", *r.fpp_config)
          : absl::StrFormat("%g bits/key", r.bits_per_key_requested.value_or(
                                               r.bits_per_key_config));
  std::string keys = r.filters > 1
                         ? absl::StrFormat("%d filters x %s keys", r.filters,
                                           CountText(r.keys))
                         : absl::StrFormat("%s keys", CountText(r.keys));
  std::string placement =
      r.placement == kNaturalPlacement
          ? std::string(r.huge_pages ? "filters at cache lines"
                                     : "filters where built")
          : absl::StrFormat("filters at +%d B from a cache line", r.placement);
  if (r.huge_pages) placement += " in huge-page arenas";
  return absl::StrFormat(
      "%s, %s (%.1f B/key), %s; %s; hash floor %.1f ns/key; timed %s",
      r.workload, keys, r.key_bytes, size, placement, r.hash_floor_ns,
      r.interleaved ? "interleaved" : "sequentially");
}

// "+0 25%, +16 75%": where each implementation's filters start, relative to a
// cache line.
std::string LineOffsets(const std::map<int, size_t>& offsets) {
  size_t total = 0;
  for (const auto& [offset, count] : offsets) total += count;
  std::vector<std::string> parts;
  for (const auto& [offset, count] : offsets) {
    parts.push_back(absl::StrFormat(
        "+%d %.0f%%", offset,
        100.0 * static_cast<double>(count) / static_cast<double>(total)));
  }
  return absl::StrJoin(parts, ", ");
}

// A figure for JSON: null when it was not measured (NaN) or is infinite, else
// the number to six significant digits, as the table prints it (the timings
// carry no more).
nlohmann::ordered_json Figure(double v) {
  if (!std::isfinite(v)) return nullptr;
  double rounded = v;
  if (!absl::SimpleAtod(absl::StrFormat("%.6g", v), &rounded)) rounded = v;
  return rounded;
}

}  // namespace

std::string CountText(uint64_t n) {
  int k = 0;
  uint64_t m = n;
  while (m >= 10 && m % 10 == 0) {
    m /= 10;
    ++k;
  }
  if (k < 3 || m >= 10) return absl::StrFormat("%d", n);
  return m == 1 ? absl::StrFormat("10^%d", k)
                : absl::StrFormat("%d*10^%d", m, k);
}

std::string PeerVersions() {
  return absl::StrFormat("peers: LevelDB %s, RocksDB %s",
                         LevelDbPeer::Version(), RocksDbPeer::Version());
}

void PrintTable(const std::vector<Row>& rows, std::ostream& out) {
  if (rows.empty()) return;
  out << absl::StrFormat(
      "filter_bench: medians of %d interleaved repetitions; times in ns per "
      "key; machine: %s\n",
      rows.front().reps, MachineDescription());
  out << PeerVersions()
      << "; Debian's RocksDB is built without AVX2 (portable x86-64 code).\n";
  out << "present/absent/mixed: single queries back to back (one thread's "
         "throughput); lat: one query at a time\n"
         "  (an LFENCE after each); batch: 32 keys per call. mem, memlat, "
         "mem32: one random cache line per key\n"
         "  in a buffer the filter's size, loaded as the single, lat and batch "
         "queries load theirs.\n"
         "x columns: ratio to rocksdb.fastbloom in the same case (build, "
         "mixed, batch, bits/key).\n";
  const std::string header = absl::StrFormat(
      "  %-26s %8s %8s %8s %7s %7s %7s %7s %7s %7s %6s %6s %6s | %6s %6s %6s "
      "%6s\n",
      "impl", "bits/key", "FP %", "exp FP%", "build", "present", "absent",
      "mixed", "lat", "batch", "mem", "memlat", "mem32", "xbuild", "xmixed",
      "xbatch", "xbits");
  size_t begin = 0;
  while (begin < rows.size()) {
    size_t end = begin + 1;
    while (end < rows.size() &&
           rows[end].case_index == rows[begin].case_index) {
      ++end;
    }
    const Row* base = Baseline(rows, begin, end);
    out << "\n" << CaseTitle(rows[begin]) << "\n" << header;
    for (size_t i = begin; i < end; ++i) {
      const Row& r = rows[i];
      const RepResult& m = r.median;
      const auto ratio = [base](double v, double RepResult::*field) {
        if (base == nullptr) return std::string("-");
        const double b = base->median.*field;
        if (std::isnan(v) || std::isnan(b) || b <= 0) return std::string("-");
        return absl::StrFormat("%.2f", v / b);
      };
      out << absl::StrFormat(
          "  %-26s %8.2f %8s %8s %7.1f %7.1f %7.1f %7.1f %7.1f %7s %6.1f "
          "%6.1f %6.1f | %6s %6s %6s %6s\n",
          r.impl, m.bits_per_key, Percent(m.fp_rate),
          Percent(m.expected_fp_rate), m.build_ns_per_key, m.query_ns_positive,
          m.query_ns_negative, m.query_ns_mixed, m.query_ns_dependent,
          std::isnan(m.query_ns_batched)
              ? std::string("-")
              : absl::StrFormat("%.1f", m.query_ns_batched),
          m.memory_floor_ns, m.memory_floor_dependent_ns,
          m.memory_floor_batched_ns,
          ratio(m.build_ns_per_key, &RepResult::build_ns_per_key),
          ratio(m.query_ns_mixed, &RepResult::query_ns_mixed),
          ratio(m.query_ns_batched, &RepResult::query_ns_batched),
          ratio(m.bits_per_key, &RepResult::bits_per_key));
    }
    out << absl::StrFormat(
        "  false-negative check: %s, per implementation and rep\n",
        rows[begin].check);
    // "  <title>: impl figure; impl figure; ..." over the case's rows.
    const auto per_impl_line = [&](absl::string_view title,
                                   const auto& figure) {
      std::vector<std::string> parts;
      for (size_t i = begin; i < end; ++i) {
        parts.push_back(absl::StrCat(rows[i].impl, " ", figure(rows[i])));
      }
      out << "  " << title << ": " << absl::StrJoin(parts, "; ") << "\n";
    };
    if (rows[begin].placement == kNaturalPlacement) {
      per_impl_line("filters' first byte from a cache line", [](const Row& r) {
        return LineOffsets(r.median.line_offsets);
      });
    }
    if (rows[begin].huge_pages) {
      per_impl_line("filter bytes in huge pages", [](const Row& r) {
        return absl::StrFormat("%.0f%%", 100 * r.median.huge_page_share);
      });
    }
    begin = end;
  }
}

void PrintJson(const std::vector<Row>& rows, std::ostream& out) {
  for (const Row& r : rows) {
    const RepResult& m = r.median;
    // Ordered: the fields come out in the order bench/filter_bench.md lists
    // them.
    nlohmann::ordered_json row;
    row["impl"] = r.impl;
    row["details"] = r.details;
    row["workload"] = r.workload;
    row["placement"] = r.placement == kNaturalPlacement
                           ? nlohmann::ordered_json("natural")
                           : nlohmann::ordered_json(r.placement);
    nlohmann::ordered_json offsets = nlohmann::ordered_json::object();
    for (const auto& [offset, count] : m.line_offsets) {
      offsets[std::to_string(offset)] = count;
    }
    row["filter_line_offsets"] = offsets;
    row["huge_pages"] = r.huge_pages;
    row["huge_page_share"] = Figure(m.huge_page_share);
    row["timing"] = r.interleaved ? "interleaved" : "sequential";
    row["keys"] = r.keys;
    row["filters"] = r.filters;
    row["key_bytes"] = Figure(r.key_bytes);
    row["bits_per_key_config"] = Figure(r.bits_per_key_config);
    row["fpp_config"] =
        r.fpp_config.has_value() ? Figure(*r.fpp_config) : nullptr;
    row["bits_per_key"] = Figure(m.bits_per_key);
    row["fp_rate"] = Figure(m.fp_rate);
    row["expected_fp_rate"] = Figure(m.expected_fp_rate);
    row["build_ns_per_key"] = Figure(m.build_ns_per_key);
    row["query_ns_positive"] = Figure(m.query_ns_positive);
    row["query_ns_negative"] = Figure(m.query_ns_negative);
    row["query_ns_mixed"] = Figure(m.query_ns_mixed);
    row["query_ns_dependent"] = Figure(m.query_ns_dependent);
    row["query_ns_batched"] = Figure(m.query_ns_batched);
    row["hash_floor_ns"] = Figure(r.hash_floor_ns);
    row["memory_floor_ns"] = Figure(m.memory_floor_ns);
    row["memory_floor_dependent_ns"] = Figure(m.memory_floor_dependent_ns);
    row["memory_floor_batched_ns"] = Figure(m.memory_floor_batched_ns);
    row["reps"] = r.reps;
    row["keys_checked"] = m.keys_checked;
    row["check"] = r.check;
    // One object per line. Bytes that are not UTF-8 (none of the strings
    // should hold any) become U+FFFD rather than an exception.
    out << row.dump(/*indent=*/-1, /*indent_char=*/' ', /*ensure_ascii=*/false,
                    nlohmann::ordered_json::error_handler_t::replace)
        << "\n";
  }
}

}  // namespace bench
}  // namespace sstfilter
