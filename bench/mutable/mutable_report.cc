#include "bench/mutable/mutable_report.h"

#include <cmath>

#include "absl/strings/str_format.h"
#include "bench/machine.h"
#include "nlohmann/json.hpp"

namespace sstfilter {
namespace bench {
namespace {

// Millions, for the adds/s columns.
std::string Millions(double per_second) {
  if (std::isnan(per_second)) return "-";
  return absl::StrFormat("%.1f M", per_second / 1e6);
}

// A figure, or null when it was not measured (NaN is not JSON).
nlohmann::ordered_json Figure(double v) {
  if (std::isnan(v) || std::isinf(v)) return nullptr;
  return v;
}

}  // namespace

void PrintMutableTable(const std::vector<SizeResult>& results,
                       std::ostream& out) {
  if (results.empty()) return;
  const MutableBenchConfig& c = results[0].config;
  out << absl::StrFormat(
      "mutable_bench: random 16-byte keys, each mutable filter against the "
      "native one of its size (bloom); %d fresh absent keys per query "
      "figure; medians of %d repetitions; ns per key\n\n",
      c.queries, c.reps);
  out << absl::StrFormat(
      "%10s  %-20s %8s %7s %9s %9s %9s %9s %12s %12s %12s %7s %7s\n", "keys",
      "filter", "bits/key", "FP %", "build/add", "batch add", "1-wr add",
      "1-wr batch", "adds/s 1 thr", "adds/s 2 thr", "2 thr wall", "query",
      "batch");
  for (const SizeResult& r : results) {
    const ImmutableFigures& i = r.immutable;
    const MutableFigures& m = r.mutable_filter;
    out << absl::StrFormat(
        "%10d  %-20s %8.2f %7.3f %9.1f %9s %9s %9s %12s %12s %12s %7.1f "
        "%7.1f\n",
        r.config.keys, r.config.NativeSpec().ToString(), i.bits_per_key,
        100 * i.fp_rate, i.build_ns_per_key, "-", "-", "-", "-", "-", "-",
        i.query_ns, i.batch_ns);
    out << absl::StrFormat(
        "%10d  %-20s %8.2f %7.3f %9.1f %9.1f %9.1f %9.1f %12s %12s %12s %7.1f "
        "%7.1f\n",
        r.config.keys, r.config.spec.ToString(), m.bits_per_key,
        100 * m.fp_rate, m.add_ns_per_key, m.batch_add_ns_per_key,
        m.single_writer_add_ns_per_key, m.single_writer_batch_add_ns_per_key,
        Millions(m.adds_per_second_1_thread),
        Millions(m.adds_per_second_2_threads),
        Millions(m.adds_per_second_2_threads_wall), m.query_ns, m.batch_ns);
    out << absl::StrFormat(
        "%10s  mutable / immutable: add %.2fx build (target <= %.1f; batch "
        "add %.2fx; single-writer add %.2fx, batch %.2fx), query %.2fx, "
        "batch %.2fx (target <= %.1f)\n",
        "", m.add_ns_per_key / i.build_ns_per_key, kAddRatioTarget,
        m.batch_add_ns_per_key / i.build_ns_per_key,
        m.single_writer_add_ns_per_key / i.build_ns_per_key,
        m.single_writer_batch_add_ns_per_key / i.build_ns_per_key,
        m.query_ns / i.query_ns, m.batch_ns / i.batch_ns, kQueryRatioTarget);
  }
  out << absl::StrFormat(
      "\nEvery added key was checked in both filters (and the bits of the "
      "two-thread, batch-filled and single-writer filters against the "
      "one-thread filter's) before any figure counted.\n");
}

void PrintMutableJson(const std::vector<SizeResult>& results,
                      std::ostream& out) {
  for (const SizeResult& r : results) {
    const ImmutableFigures& i = r.immutable;
    const MutableFigures& m = r.mutable_filter;
    nlohmann::ordered_json row;
    row["keys"] = r.config.keys;
    row["filter"] = r.config.spec.ToString();
    row["native_filter"] = r.config.NativeSpec().ToString();
    if (r.config.spec.options.fpp.has_value()) {
      row["fpp"] = *r.config.spec.options.fpp;
    } else {
      row["fpp"] = nullptr;
    }
    row["queries"] = r.config.queries;
    row["reps"] = r.config.reps;
    row["keys_checked"] = r.keys_checked;
    row["machine"] = MachineDescription();
    row["cpu"] = CpuGeneration();
    nlohmann::ordered_json immutable;
    immutable["bits_per_key"] = Figure(i.bits_per_key);
    immutable["fp_rate"] = Figure(i.fp_rate);
    immutable["build_ns_per_key"] = Figure(i.build_ns_per_key);
    immutable["query_ns"] = Figure(i.query_ns);
    immutable["batch_ns"] = Figure(i.batch_ns);
    row["immutable"] = immutable;
    nlohmann::ordered_json mut;
    mut["bits_per_key"] = Figure(m.bits_per_key);
    mut["fp_rate"] = Figure(m.fp_rate);
    mut["add_ns_per_key"] = Figure(m.add_ns_per_key);
    mut["adds_per_second_1_thread"] = Figure(m.adds_per_second_1_thread);
    mut["batch_add_ns_per_key"] = Figure(m.batch_add_ns_per_key);
    mut["single_writer_add_ns_per_key"] =
        Figure(m.single_writer_add_ns_per_key);
    mut["single_writer_batch_add_ns_per_key"] =
        Figure(m.single_writer_batch_add_ns_per_key);
    mut["adds_per_second_2_threads"] = Figure(m.adds_per_second_2_threads);
    mut["adds_per_second_2_threads_wall"] =
        Figure(m.adds_per_second_2_threads_wall);
    mut["query_ns"] = Figure(m.query_ns);
    mut["batch_ns"] = Figure(m.batch_ns);
    row["mutable"] = mut;
    nlohmann::ordered_json ratios;
    ratios["add_vs_build"] = Figure(m.add_ns_per_key / i.build_ns_per_key);
    ratios["batch_add_vs_build"] =
        Figure(m.batch_add_ns_per_key / i.build_ns_per_key);
    ratios["single_writer_add_vs_build"] =
        Figure(m.single_writer_add_ns_per_key / i.build_ns_per_key);
    ratios["single_writer_batch_add_vs_build"] =
        Figure(m.single_writer_batch_add_ns_per_key / i.build_ns_per_key);
    ratios["query"] = Figure(m.query_ns / i.query_ns);
    ratios["batch"] = Figure(m.batch_ns / i.batch_ns);
    ratios["add_vs_build_target"] = kAddRatioTarget;
    ratios["query_target"] = kQueryRatioTarget;
    row["ratios"] = ratios;
    out << row.dump() << "\n";
  }
}

}  // namespace bench
}  // namespace sstfilter
