// main() of the Google Benchmark programs: runs the benchmarks they register,
// with the machine and the CPU in the JSON context (--benchmark_format=json),
// which //docs:results_table --render=google_benchmark prints beside their
// figures.

#include "bench/machine.h"
#include "benchmark/benchmark.h"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("machine",
                              sstfilter::bench::MachineDescription());
  benchmark::AddCustomContext("cpu", sstfilter::bench::CpuGeneration());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
