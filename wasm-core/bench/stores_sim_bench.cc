#include <chrono>
#include <string>
#include <vector>

#include "bench/stores_bench.h"
#include "stores/factory.h"
#include "stores/machine.h"
#include "stores/runner.h"

// StoresSimSpeed (bench/stores_bench.h): apart from the file and LevelDB benchmarks so the
// WebAssembly build (bindings/bench_bindings.cc) compiles it alone.
namespace fawnlab::bench {

std::vector<BenchFigure> StoresSimSpeed(uint64_t records, uint64_t ops) {
  auto now = [] { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); };
  auto fig = [](std::string name, double v, std::string note) {
    BenchFigure f(std::move(name), v, "ops/s", 0, 0);
    f.note = std::move(note);
    return f;
  };
  std::vector<BenchFigure> out;
  for (const stores::StoreInfo& kind : stores::StoreKinds()) {
    stores::MachineConfig mc;
    mc.store = kind.id;
    mc.records = records;
    auto m = stores::Machine::Create(mc);
    if (!m.ok()) {
      out.push_back(fig("stores.sim." + kind.id, 0, "not measured: " + m.status().message()));
      continue;
    }
    stores::RunConfig rc;
    rc.workload = "a";
    rc.operations = ops;
    const double t0 = now();
    auto r = stores::RunYcsb(m.value().get(), rc);
    const double wall = now() - t0;
    if (!r.ok()) {
      BenchFigure f = fig("stores.sim." + kind.id, 0, r.status().ToString());
      f.failures = 1;
      out.push_back(f);
      continue;
    }
    const double n = static_cast<double>(r.value().load.ops + r.value().run.ops);
    BenchFigure f = fig("stores.sim." + kind.id, n / wall,
                        m.value()->Describe() + "; load + " + std::to_string(ops) + " ops of YCSB A, emulated");
    f.seconds = wall;
    f.checksum = r.value().run.store_bytes_written;
    out.push_back(f);
  }
  return out;
}

}  // namespace fawnlab::bench
