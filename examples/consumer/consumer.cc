// A program in another workspace that uses sstfilter: builds a filter with the
// native policy, then gives the same policy to a RocksDB database and reads a
// key back through it. Exits 0 when every step worked.

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "engines/rocksdb/rocksdb_adapter.h"
#include "filter/bloom/bloom.h"
#include "rocksdb/db.h"
#include "rocksdb/table.h"

namespace {

int Fail(const std::string& what) {
  std::fprintf(stderr, "consumer: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main() {
  auto policy =
      sstfilter::NewBloomFilterPolicy(sstfilter::FilterOptions::Fpp(0.01));
  if (!policy.ok()) return Fail(policy.status().ToString());
  std::shared_ptr<const sstfilter::FilterPolicy> shared = std::move(*policy);

  std::string filter;
  auto builder = shared->NewBuilder();
  builder->AddKey("apple");
  builder->Finish(&filter);
  if (!shared->NewReader(filter)->MayMatch("apple")) {
    return Fail("an added key did not match");
  }

  char dir[] = "/tmp/sstfilter-consumer.XXXXXX";
  if (mkdtemp(dir) == nullptr) return Fail("mkdtemp failed");
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy = sstfilter::AsRocksDbFilterPolicy(shared);
  rocksdb::Options options;
  options.create_if_missing = true;
  options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));
  std::string value;
  {
    rocksdb::DB* raw = nullptr;
    rocksdb::Status s = rocksdb::DB::Open(options, dir, &raw);
    if (!s.ok()) return Fail(s.ToString());
    std::unique_ptr<rocksdb::DB> db(raw);
    s = db->Put(rocksdb::WriteOptions(), "apple", "red");
    if (s.ok()) s = db->Flush(rocksdb::FlushOptions());
    if (s.ok()) s = db->Get(rocksdb::ReadOptions(), "apple", &value);
    if (!s.ok()) return Fail(s.ToString());
  }
  rocksdb::DestroyDB(dir, options);
  std::remove(dir);
  if (value != "red") return Fail("read back '" + value + "'");
  std::printf("consumer: sstfilter %s inside RocksDB: ok\n", shared->Name());
  return 0;
}
