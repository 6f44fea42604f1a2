// Runs one function on several threads that start together, for the tests of
// what the library promises about sharing its objects between threads.

#ifndef SSTFILTER_TESTS_CONCURRENCY_RUN_ON_THREADS_H_
#define SSTFILTER_TESTS_CONCURRENCY_RUN_ON_THREADS_H_

#include <atomic>
#include <thread>
#include <vector>

namespace sstfilter {
namespace test {

// The number of threads these tests share an object between: more than the
// two cores of CI's machines, so that threads are also preempted mid-call.
constexpr int kThreads = 4;

// Calls body(t) for t = 0 .. threads - 1, each on its own thread, and returns
// when all have returned. No thread starts its body before every thread is
// running, so that the bodies overlap even when creating a thread costs as
// much as the body (as it can under ThreadSanitizer).
template <typename Body>
void RunOnThreads(int threads, Body body) {
  std::atomic<int> waiting{threads};
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&waiting, &body, t] {
      waiting.fetch_sub(1, std::memory_order_acq_rel);
      while (waiting.load(std::memory_order_acquire) > 0) {
        std::this_thread::yield();
      }
      body(t);
    });
  }
  for (std::thread& thread : pool) thread.join();
}

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CONCURRENCY_RUN_ON_THREADS_H_
