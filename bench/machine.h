// Where a benchmark's figures were measured, from /proc/cpuinfo: what
// docs/machines.md tells this project's machines apart by.

#ifndef SSTFILTER_BENCH_MACHINE_H_
#define SSTFILTER_BENCH_MACHINE_H_

#include <string>

namespace sstfilter {
namespace bench {

// CPU model and cores: "AMD EPYC 9R14, 2 hardware threads".
std::string MachineDescription();

// The CPU's family and model numbers and its widest vector instructions:
// "family 25 model 17, AVX-512". Virtual machines of one model name have come
// with different CPUs (docs/machines.md), and these tell them apart.
std::string CpuGeneration();

// /proc/loadavg's load averages over 1, 5 and 15 minutes, "0.05 0.31 0.40":
// whether other jobs shared the machine while a benchmark ran.
std::string LoadAverages();

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_MACHINE_H_
