#include "fawnkvhost/back_host.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "base/json_writer.h"
#include "fawnkv/backend.h"

namespace fawnlab::fawnkvhost {

namespace {

// mkdir -p.
Status MakeDirs(const std::string& path) {
  for (size_t i = 1; i <= path.size(); ++i) {
    if (i < path.size() && path[i] != '/') continue;
    const std::string part = path.substr(0, i);
    if (::mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) {
      return Status::Unavailable("back-end: cannot create directory '" + part + "': " + std::strerror(errno));
    }
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return Status::Unavailable("back-end: '" + path + "' is not a directory");
  return Status::Ok();
}

void WriteRange(JsonWriter& w, const fawnkv::KeyRange& r) {
  w.BeginArray(true);
  w.String(r.start.Hex());
  w.String(r.end.Hex());
  w.EndArray();
}

class BackHost : public HostNode {
 public:
  explicit BackHost(const HostConfig& c) : HostNode(c, static_cast<fawnkv::Endpoint>(c.id)) {}

  Status Open() {
    if (Status s = MakeDirs(config_.data_dir); !s.ok()) return s;
    fawnkv::BackendOptions bo;
    bo.file_path = config_.data_dir + "/card.img";
    // Room for every store the node may hold at once (R × V, and joins' new ones), as the
    // simulated cluster sizes its cards (fawnkv/cluster.cc).
    const uint64_t stores = static_cast<uint64_t>(config_.replicas) * static_cast<uint64_t>(config_.vids) * 2 + 4;
    bo.card_min_bytes = stores * config_.file_bytes + (uint64_t{4} << 20);
    bo.file_bytes = config_.file_bytes;
    bo.index_bits = config_.index_bits;
    bo.prefill = false;
    bo.rpc_base_ns = 0;
    bo.rpc_ns_per_byte = 0;
    bo.lock_hold_ns = 0;
    // Overwrites must not fill a store: compact in the background (docs/decisions.md,
    // "Background compaction": past half full with half of the log garbage).
    bo.compact_fill = 0.5;
    bo.compact_garbage = 0.5;
    auto b = fawnkv::Backend::Create(&sim_, &out_, static_cast<fawnkv::NodeId>(config_.id), bo);
    if (!b.ok()) return b.status();
    backend_ = std::move(b).value();
    if (config_.checkpoint_ms > 0) ScheduleCheckpoint();
    return Status::Ok();
  }

  std::string StatusJson() override {
    JsonWriter w;
    w.BeginObject();
    w.Key("role");
    w.String("backend");
    w.Key("id");
    w.Int(config_.id);
    w.Key("nowNs");
    w.Int(sim_.now());
    const fawnds::Node& node = backend_->node();
    w.Key("stores");
    w.BeginArray();
    for (size_t i = 0; i < node.num_stores(); ++i) {
      w.BeginObject();
      w.Key("range");
      WriteRange(w, node.range(i));
      w.Key("records");
      w.Int(static_cast<int64_t>(node.store(i).live_keys()));
      w.Key("logBytes");
      w.Int(static_cast<int64_t>(node.store(i).log_end()));
      w.Key("logCapacity");
      w.Int(static_cast<int64_t>(node.store(i).log_capacity()));
      w.Key("garbageBytes");
      w.Int(static_cast<int64_t>(node.store(i).stats().garbage_bytes));
      w.EndObject();
    }
    w.EndArray();
    const fawnkv::BackendStats& s = backend_->stats();
    const std::pair<const char*, uint64_t> counters[] = {
        {"records", backend_->records()}, {"logBytes", backend_->log_bytes()}, {"gets", s.gets}, {"puts", s.puts},
        {"deletes", s.deletes}, {"multigets", s.multigets}, {"multigetKeys", s.multiget_keys}, {"chainPuts", s.chain_puts},
        {"retries", s.retries}, {"precopyBytesSent", s.precopy_bytes_sent}, {"precopyBytesReceived", s.precopy_bytes_received},
        {"messages", s.messages}, {"storeErrors", s.store_errors}, {"refused", s.refused},
        {"compactions", s.compactions}, {"reclaimedBytes", s.reclaimed_bytes}, {"checkpoints", checkpoints_},
        {"heldPuts", s.held_puts}, {"flushWaits", s.flush_waits},
        {"framesSent", out_.frames_sent()}, {"bytesSent", out_.bytes_sent()}};
    for (const auto& [name, value] : counters) {
      w.Key(name);
      w.Int(static_cast<int64_t>(value));
    }
    w.Key("joins");
    w.BeginArray();
    for (const fawnkv::Backend::JoinView& j : backend_->joins()) {
      w.BeginObject();
      w.Key("range");
      WriteRange(w, j.range);
      w.Key("precopyDone");
      w.Bool(j.precopy_done);
      w.Key("flushDone");
      w.Bool(j.flush_done);
      w.Key("merged");
      w.Bool(j.merged);
      w.Key("receivedBytes");
      w.Int(static_cast<int64_t>(j.received_bytes));
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    return w.str();
  }

  std::string RecoveredJson() const override {
    const fawnkv::RecoveredStores& r = backend_->recovered();
    JsonWriter w;
    w.BeginObject();
    w.Key("stores");
    w.Int(static_cast<int64_t>(r.stores));
    w.Key("records");
    w.Int(static_cast<int64_t>(r.records));
    w.Key("ranges");
    w.BeginArray();
    for (const fawnkv::KeyRange& k : r.ranges) WriteRange(w, k);
    w.EndArray();
    w.Key("detail");
    w.String(r.detail);
    w.EndObject();
    return w.str();
  }

 protected:
  void Receive(fawnkv::Message& m) override { backend_->Receive(m); }

 private:
  void ScheduleCheckpoint() {
    sim_.Schedule(sim_.now() + config_.checkpoint_ms * sim::kMs, [this]() {
      if (!checkpointing_ && backend_->log_bytes() != checkpointed_log_) {
        checkpointing_ = true;
        const uint64_t at = backend_->log_bytes();
        Status s = backend_->CheckpointAll([this, at](const Status& r) {
          checkpointing_ = false;
          if (r.ok()) {
            checkpointed_log_ = at;
            ++checkpoints_;
          }
        });
        if (!s.ok()) checkpointing_ = false;
      }
      ScheduleCheckpoint();
    });
  }

  std::unique_ptr<fawnkv::Backend> backend_;
  bool checkpointing_ = false;
  uint64_t checkpointed_log_ = 0, checkpoints_ = 0;
};

}  // namespace

StatusOr<std::unique_ptr<HostNode>> MakeBackHost(const HostConfig& c) {
  std::unique_ptr<BackHost> b(new BackHost(c));
  if (Status s = b->Open(); !s.ok()) return s;
  return std::unique_ptr<HostNode>(std::move(b));
}

}  // namespace fawnlab::fawnkvhost
