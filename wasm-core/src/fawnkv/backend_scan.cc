// Backend (backend.h): the donor's scans of one range of its store's log: the pre-copy (live
// records from the log's start until caught up, under a window of acknowledged batches) and
// the flush (every in-range record between two offsets).
#include "fawnkv/backend.h"

#include <algorithm>
#include <memory>
#include <string>

#include "fawnds/record.h"

namespace fawnlab::fawnkv {

namespace {
constexpr uint64_t kBatchBytes = 32 * 1024;   // pre-copy and flush messages carry up to this much
}  // namespace

// --- the donor's scans ----------------------------------------------------------------------

void Backend::StartScan(const KeyRange& range, Endpoint joiner, uint64_t from, uint64_t until, bool flush, uint64_t id, uint64_t seq) {
  StopScan(range);  // an earlier copy of the range (abandoned) sends nothing more
  const int st = node_->StoreOf(range.end);
  auto sc = std::make_shared<Scan>();
  sc->id = id;
  sc->range = range;
  sc->joiner = joiner;
  sc->pos = from;
  sc->until = until;
  sc->flush = flush;
  sc->seq = seq;
  if (st >= 0) {
    sc->store = static_cast<size_t>(st);
    sc->ds = &node_->store(sc->store);
  }
  sc->batch = std::make_shared<std::vector<KvRecord>>();
  scans_[range.end] = sc;
  ScanStep(sc);
}

void Backend::ScanStep(const std::shared_ptr<Scan>& sc) {
  if (failed_ || sc->done || sc->reading) return;
  auto send_batch = [this, sc]() {
    if (sc->batch->empty()) return;
    Message d;
    d.kind = sc->flush ? MsgKind::kFlushData : MsgKind::kPrecopyData;
    d.to = sc->joiner;
    d.range = sc->range;
    d.epoch = sc->id;
    d.records = sc->batch;
    stats_.precopy_bytes_sent += WireBytes(d);
    cpu_->Run(o_.rpc_base_ns + static_cast<sim::SimDuration>(o_.rpc_ns_per_byte * WireBytes(d)), [] {});
    Send(std::move(d));
    if (!sc->flush) ++sc->in_flight;
    sc->batch = std::make_shared<std::vector<KvRecord>>();
    sc->batch_bytes = 0;
  };
  const uint64_t end = sc->ds ? (sc->flush ? sc->until : sc->ds->log_end()) : 0;
  if (!sc->ds || sc->pos >= end) {
    send_batch();
    if (sc->in_flight > 0) return;  // wait for the joiner to take the last batches
    sc->done = true;
    sc->ds = nullptr;
    Message d;
    d.kind = sc->flush ? MsgKind::kFlushDone : MsgKind::kPrecopyDone;
    d.range = sc->range;
    d.to = sc->joiner;
    d.epoch = sc->id;
    d.seq = sc->seq;  // a flush: the joiner keeps the chain's puts after it (0 for a pre-copy)
    Send(d);
    if (!sc->flush) {
      Seg& s = SegFor(sc->range);
      s.mark = sc->pos;  // the flush starts here
      s.flush_due = true;
      s.copy = sc->id;   // and carries the copy's id
      d.to = FrontEndpoint(0);
      Send(d);
    }
    scans_.erase(sc->range.end);
    return;
  }
  if (sc->in_flight >= o_.precopy_window) return;  // flow control: wait for an ack
  const uint64_t n = std::min<uint64_t>(o_.precopy_chunk, end - sc->pos);
  auto buf = std::make_shared<std::string>(n, '\0');
  sc->reading = true;
  const fawnds::DataStore* ds = sc->ds;
  Status s = dev_->Submit(
      device::IoCommand::Single(device::IoEntry::Read(ds->DeviceOffsetOf(sc->pos), n, reinterpret_cast<uint8_t*>(buf->data()))),
      [this, sc, buf, send_batch](const device::IoCompletion&) {
        if (failed_ || !sc->ds) return;
        sc->reading = false;
        uint64_t p = 0;
        std::string rec_buf;
        while (p + fawnds::kRecordHeader <= buf->size()) {
          // A record that runs past this read is decoded from the device's bytes.
          auto r = sc->ds->PeekRecord(sc->pos + p, &rec_buf);
          if (!r.ok()) break;
          const fawnds::RecordView& rec = r.value();
          // Current puts, and every delete: a joiner applies them in log order, so a delete
          // of a key it never received is harmless and one of a key it did is needed.
          const bool in = sc->range.Contains(rec.key);
          const bool del = rec.type == fawnds::RecordType::kDelete;
          if (in && (del || sc->flush || sc->ds->IsLive(rec.key, sc->pos + p))) {
            sc->batch->push_back(KvRecord{rec.key, del ? std::string() : std::string(rec.value), del});
            sc->batch_bytes += rec.size;
          }
          p += rec.size;
          if (p > buf->size()) break;
        }
        if (p == 0) p = buf->size();  // nothing decodable: skip the unreadable tail
        sc->pos += p;
        if (sc->batch_bytes >= kBatchBytes) send_batch();
        ScanStep(sc);
      });
  if (!s.ok()) {
    sc->reading = false;
    sc->done = true;
  }
}

}  // namespace fawnlab::fawnkv
