// SrcmapSession ("srcmap"): the SRCMap testbed's day, live (docs/srcmap/session.md; the
// snapshot's fields are the contract web/src/labs/srcmap/ draws).
//
// The session owns a workload (the generated evaluation workload, EvaluationWorkload(seed) at
// `rate_scale`, with the disks' capacities scaled alike; or an imported MSR Cambridge trace),
// the history the working sets come from (`history_days` generated days before the evaluated
// one, or the trace before `history_h`), and a DayRun (srcmap/day_run.h) over 00:00-24:00 of
// the evaluated day. Time in the session is ns since 00:00 of that day. There is no event
// simulator: Advance(dt, max_events) runs the requests arriving before t + dt (at most
// max_events of them), each through the replica manager and the disks' mechanism; Step runs
// one. At 24:00 the day is over: Advance does nothing, Busy() is 0, the snapshot says "done"
// and carries the day's report figures (RunGeneratedDay's for the same config).
//
// Config: policy, level (live: a new decision at once, on the current interval's
// prediction), replica_pct, interval_h, rate_scale, history_days, retrigger.
// Operations: run_to {hour}, locate {volume, offset_mb}, load_trace {csv, history_h} (restarts
// the day on the trace). View "power": one row per elapsed minute, and the spin-ups.
// Busy(): 1 while a consolidation's sync I/O is pending or a disk is spinning up, else 0.
// Deterministic: the same config, seed and call sequence give the same snapshots.
#ifndef FAWNLAB_SRCMAP_LAB_SESSION_H_
#define FAWNLAB_SRCMAP_LAB_SESSION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/json_writer.h"
#include "base/params.h"
#include "base/status.h"
#include "registry/sessions.h"
#include "srcmap/day.h"
#include "srcmap/day_run.h"
#include "srcmap/trace_import.h"
#include "srcmap/workload.h"

namespace fawnlab::srcmap {

class SrcmapSession : public LabSession {
 public:
  static constexpr size_t kEvents = 30;  // the snapshot's last events

  struct Config {
    std::string policy = "srcmap";
    int level = 0;
    double replica_pct = 10;
    double interval_h = 2;
    double rate_scale = 1;
    int history_days = 21;
    bool retrigger = true;
  };

  static std::vector<ParamSpec> Schema();
  static std::vector<std::string> LiveFields();
  static StatusOr<std::unique_ptr<LabSession>> New(const ParamValues& config, uint64_t seed);
  ~SrcmapSession() override;

  uint64_t Advance(sim::SimDuration dt_ns, uint64_t max_events) override;
  bool Step() override;
  std::string SnapshotJson() override;
  uint64_t version() override;
  int Busy() const override;

  // For tests and hosts.
  const DayRun& run() const { return *run_; }
  bool done() const { return run_->done(); }
  int64_t now_ns() const { return run_->now() - run_->origin(); }
  const DayReport* report() const { return report_ ? report_.get() : nullptr; }  // once done
  DayConfig day_config() const;

 protected:
  StatusOr<std::string> RunOp(const std::string& name, const ParamValues& args, const JsonValue& op) override;
  Status Reconfigured(const ParamValues& config, const ParamValues& patch) override;
  StatusOr<ColumnSet> View(const std::string& name, const ParamValues& args) override;

 private:
  SrcmapSession(Config c, uint64_t seed);
  static Config FromParams(const ParamValues& p);
  DayConfig MakeDayConfig(bool trace) const;
  // A run over [origin, origin + 24 h), set up (warm: `src`'s requests of the interval before
  // origin run first; the same source then feeds the day).
  StatusOr<std::unique_ptr<DayRun>> BuildRun(const std::vector<VolumeHistory>& hist, uint32_t extent_bytes,
                                             int64_t origin, bool trace, RequestSource* src) const;
  Status StartGenerated();
  // Replaces the day with the trace's (the old day stays when this fails).
  Status StartTrace(std::unique_ptr<ImportedTrace> trace, int64_t history_ns);
  // Runs to the session time `t_ns` (at most max requests); finishes the report at the end.
  uint64_t RunTo(int64_t t_ns, uint64_t max_requests);

  StatusOr<std::string> DoRunTo(const ParamValues& args);
  StatusOr<std::string> DoLocate(const ParamValues& args);
  StatusOr<std::string> DoLoadTrace(const ParamValues& args);

  void WriteInterval(JsonWriter& w) const;
  void WriteDisks(JsonWriter& w) const;
  void WriteVolumes(JsonWriter& w) const;
  void WritePower(JsonWriter& w) const;
  void WriteTotals(JsonWriter& w) const;
  void WriteEvents(JsonWriter& w) const;
  std::string VolumeName(int v) const;

  Config config_;
  uint64_t seed_;
  std::unique_ptr<Generator> gen_;
  std::unique_ptr<ImportedTrace> trace_;
  std::shared_ptr<const std::vector<VolumeHistory>> hist_;
  std::unique_ptr<RequestSource> src_;
  std::unique_ptr<DayRun> run_;
  std::unique_ptr<DayReport> report_;
  uint64_t generation_ = 0;  // bumped by load_trace
  std::string last_error_;
};

}  // namespace fawnlab::srcmap

#endif  // FAWNLAB_SRCMAP_LAB_SESSION_H_
