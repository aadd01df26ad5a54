#include "stores/fawnds_kv.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "cona/costs.h"
#include "fawnds/hash_index.h"
#include "fawnds/record.h"

namespace fawnlab::stores {

FawnDsCosts FawnDsI7Costs() {
  const cona::HostCosts& c = cona::I7_3610QM();
  return FawnDsCosts{c.op_base_ns, c.cell_probe_ns, c.fragment_compare_ns, c.entry_compare_ns, c.induce_copy_ns_per_byte};
}

uint64_t FawnDsKv::FileBytes(uint64_t entries, uint32_t value_bytes) {
  int bits = fawnds::HashIndex::kMinBits;
  while (bits < fawnds::HashIndex::kMaxBits && (uint64_t{1} << bits) < entries) ++bits;
  return fawnds::DataStore::FileBytes(bits, std::max<uint64_t>(entries, 1) * fawnds::RecordSize(value_bytes));
}

int FawnDsKv::IndexBitsFor(uint64_t region_bytes, uint32_t value_bytes) {
  const uint64_t rec = fawnds::RecordSize(value_bytes);
  for (int b = fawnds::HashIndex::kMaxBits; b > fawnds::HashIndex::kMinBits; --b) {
    const uint64_t fixed = fawnds::DataStore::FileBytes(b, 0);
    if (region_bytes > fixed && (region_bytes - fixed) / rec >= (uint64_t{1} << (b - 1))) return b;
  }
  return fawnds::HashIndex::kMinBits;
}

FawnDsKv::FawnDsKv(device::Device* dev, FawnDsKvOptions o, std::unique_ptr<fawnds::DataStore> s)
    : dev_(dev), sim_(dev->sim()), o_(o), c_(FawnDsI7Costs()), s_(std::move(s)), alive_(std::make_shared<bool>(true)) {
  fg_free_at_ = sim_->now();
}

FawnDsKv::~FawnDsKv() { *alive_ = false; }

StatusOr<std::unique_ptr<FawnDsKv>> FawnDsKv::Create(device::Device* dev, FawnDsKvOptions o) {
  if (!(o.cpu_scale > 0)) return Status::InvalidArgument("fawnds: cpu_scale must be above 0");
  if (o.key_bytes != 20) return Status::InvalidArgument("fawnds: keys are 160 bits (key_bytes 20)");
  fawnds::StoreOptions so;
  so.index_bits = o.index_bits;
  so.region_offset = o.region_offset;
  so.region_bytes = o.region_bytes;
  so.stream = o.stream;
  const uint64_t read0 = dev->counters().host_read_bytes, written0 = dev->counters().host_write_bytes;
  auto s = fawnds::DataStore::Create(dev, so);
  if (!s.ok()) return s.status();
  std::unique_ptr<FawnDsKv> kv(new FawnDsKv(dev, o, std::move(s).value()));
  kv->read_at_create_ = read0;
  kv->written_at_create_ = written0;
  return kv;
}

Status FawnDsKv::Check(std::string_view key, std::string_view value) const {
  if (failed_) return Status::Unavailable("fawnds: the store failed earlier");
  if (key.size() != o_.key_bytes) {
    return Status::InvalidArgument("fawnds: a key must be " + std::to_string(o_.key_bytes) + " bytes, not " +
                                   std::to_string(key.size()));
  }
  if (value.size() > o_.max_value_bytes) {
    return Status::InvalidArgument("fawnds: a value of " + std::to_string(value.size()) + " bytes is over the " +
                                   std::to_string(o_.max_value_bytes) + "-byte maximum");
  }
  return Status::Ok();
}

Status FawnDsKv::Enqueue(Op op) {
  if (op.kind == Kind::kPut || op.kind == Kind::kDelete) queued_log_bytes_ += fawnds::RecordSize(op.value.size());
  queue_.push_back(std::move(op));
  Pump();
  return Status::Ok();
}

Status FawnDsKv::Put(std::string_view key, std::string_view value, Done done) {
  Status st = Check(key, value);
  if (!st.ok()) return st;
  // The log's room, counting the records of the writes queued before this one.
  if (s_->log_end() + queued_log_bytes_ + fawnds::RecordSize(value.size()) > s_->log_capacity()) {
    return Status::ResourceExhausted("fawnds: the log is full (" + std::to_string(s_->log_capacity()) + " bytes)");
  }
  Op op{Kind::kPut, {}, std::string(value), std::move(done), nullptr};
  std::memcpy(op.key.bytes.data(), key.data(), 20);
  return Enqueue(std::move(op));
}

Status FawnDsKv::Delete(std::string_view key, Done done) {
  Status st = Check(key, "");
  if (!st.ok()) return st;
  Op op{Kind::kDelete, {}, {}, std::move(done), nullptr};
  std::memcpy(op.key.bytes.data(), key.data(), 20);
  return Enqueue(std::move(op));
}

Status FawnDsKv::Get(std::string_view key, GetDone done) {
  Status st = Check(key, "");
  if (!st.ok()) return st;
  Op op{Kind::kGet, {}, {}, nullptr, std::move(done)};
  std::memcpy(op.key.bytes.data(), key.data(), 20);
  return Enqueue(std::move(op));
}

Status FawnDsKv::Sync(Done done) {
  if (failed_) return Status::Unavailable("fawnds: the store failed earlier");
  return Enqueue(Op{Kind::kSync, {}, {}, std::move(done), nullptr});
}

void FawnDsKv::Pump() {
  if (busy_ || queue_.empty()) return;
  cur_ = std::move(queue_.front());
  queue_.pop_front();
  busy_ = true;
  Start();
}

void FawnDsKv::Cpu(sim::SimDuration cost, std::function<void()> then) {
  const sim::SimTime t = std::max(sim_->now(), fg_free_at_) + cost;
  fg_free_at_ = t;
  k_.foreground_cpu_ns += cost;
  std::weak_ptr<bool> alive = alive_;
  sim_->Schedule(t, [alive, then = std::move(then)] {
    if (auto a = alive.lock(); a && *a) then();
  });
}

void FawnDsKv::Start() {
  cur_.start = std::max(sim_->now(), fg_free_at_);
  if (cur_.kind == Kind::kSync) {
    Cpu(ns(c_.dispatch_ns), [this] {
      Status st = s_->Sync([this, alive = std::weak_ptr<bool>(alive_)](const Status& r) {
        if (auto a = alive.lock(); a && *a) Finish(r, {});
      });
      if (!st.ok()) Finish(st, {});
    });
    return;
  }
  // Before the I/O: the request, the key's bucket, its fragment.
  const sim::SimDuration pre = ns(c_.dispatch_ns + c_.bucket_probe_ns + c_.fragment_ns);
  Cpu(pre, [this] {
    const uint64_t reads0 = s_->stats().record_reads;
    std::weak_ptr<bool> alive = alive_;
    // After the I/O: each record read has its full key compared; the record is copied (into
    // the log's append buffer, or out to the caller).
    auto after = [this, reads0](uint64_t copied) {
      const uint64_t reads = s_->stats().record_reads - reads0;
      if (cur_.kind == Kind::kGet) k_.lookup_reads += reads;
      return ns(static_cast<double>(reads) * c_.key_compare_ns + static_cast<double>(copied) * c_.copy_ns_per_byte);
    };
    Status st;
    if (cur_.kind == Kind::kGet) {
      st = s_->Get(cur_.key, [this, alive, after](const Status& r, std::string value) {
        if (auto a = alive.lock(); !a || !*a) return;
        const sim::SimDuration cost = after(fawnds::RecordSize(value.size()));
        Cpu(cost, [this, r, value = std::move(value)]() mutable { Finish(r, std::move(value)); });
      });
    } else {
      const bool put = cur_.kind == Kind::kPut;
      const uint64_t rec = fawnds::RecordSize(cur_.value.size());
      queued_log_bytes_ -= rec;  // from here the log's end counts it (if it appends)
      auto cb = [this, alive, after, rec, put](const Status& r) {
        if (auto a = alive.lock(); !a || !*a) return;
        // Deleting a key the store does not hold: FAWN-DS writes nothing and says NotFound;
        // for the lab's interface that delete has simply succeeded (the key is absent).
        const bool absent = !put && r.code() == StatusCode::kNotFound;
        Cpu(after(absent ? 0 : rec), [this, r, absent] { Finish(absent ? Status::Ok() : r, {}); });
      };
      if (put) {
        st = s_->Put(cur_.key, cur_.value, cb);
      } else {
        st = s_->Delete(cur_.key, cb);
      }
    }
    if (!st.ok()) Finish(st, {});
  });
}

void FawnDsKv::Finish(const Status& st, std::string value) {
  Op op = std::move(cur_);
  const sim::SimDuration took = sim_->now() - op.start;
  switch (op.kind) {
    case Kind::kPut:
      ++k_.puts;
      k_.user_bytes += o_.key_bytes + op.value.size();
      k_.write_ns += took;
      break;
    case Kind::kDelete:
      ++k_.deletes;
      k_.user_bytes += o_.key_bytes;
      k_.write_ns += took;
      break;
    case Kind::kGet:
      ++k_.gets;
      (st.ok() ? k_.hits : k_.misses) += 1;
      k_.read_ns += took;
      break;
    case Kind::kSync:
      break;
  }
  busy_ = false;
  if (st.code() == StatusCode::kUnavailable) failed_ = true;  // the device is gone (a crash)
  // A refusal the store gives only when it runs the operation (a full index, the device)
  // arrives through `done`; later operations still run.
  if (op.kind == Kind::kGet) {
    if (op.get_done) op.get_done(st, std::move(value));
  } else if (op.done) {
    op.done(st);
  }
  Pump();
}

kv::KvCounters FawnDsKv::counters() const {
  kv::KvCounters c = k_;
  c.store_bytes_written = dev_->counters().host_write_bytes - written_at_create_;
  c.store_bytes_read = dev_->counters().host_read_bytes - read_at_create_;
  return c;
}

void FawnDsKv::DescribeJson(JsonWriter* w) const {
  w->BeginObject();
  w->Key("type");
  w->String("fawnds");
  w->Key("log_bytes");
  w->Int(static_cast<int64_t>(s_->log_end()));
  w->Key("log_capacity");
  w->Int(static_cast<int64_t>(s_->log_capacity()));
  w->Key("index_buckets");
  w->Int(static_cast<int64_t>(s_->index().buckets()));
  w->Key("index_used");
  w->Int(static_cast<int64_t>(s_->live_keys()));
  w->Key("garbage_bytes");
  w->Int(static_cast<int64_t>(s_->stats().garbage_bytes));
  w->EndObject();
}

}  // namespace fawnlab::stores
