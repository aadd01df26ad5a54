// Backend (backend.h): membership (SOSP'09 §3.4.4): seals and configurations passed down
// the chain, a joiner's pre-copy and flush batches and the merge of its temporary log, a
// range given up (kRelease), and a range restored from a recovered store (kRestore).
#include "fawnkv/backend.h"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

namespace fawnlab::fawnkv {

namespace {
constexpr sim::SimDuration kResetRetryNs = sim::kMs;  // a reset waiting for a write or a compaction
}  // namespace

std::vector<Backend::JoinView> Backend::joins() const {
  std::vector<JoinView> v;
  for (const auto& [end, s] : segs_) {
    if (s.joining) v.push_back(JoinView{s.range, s.precopy_done, s.flush_done, s.merged, s.received});
  }
  return v;
}

namespace {
// Whether ring range `in` lies inside `out` (ranges (start, end]; start == end: the whole ring).
bool Inside(const KeyRange& in, const KeyRange& out) {
  if (out.start == out.end) return true;
  if (in.start == in.end || in.start == out.end || !out.Contains(in.end)) return false;
  if (!(in.start == out.start) && !out.Contains(in.start)) return false;
  return in.end == out.end || !in.Contains(out.end);  // both ends inside, and no wrap past out's end
}
}  // namespace

void Backend::OnRestore(const Message& m) {
  Message r;
  r.kind = MsgKind::kRestored;
  r.to = m.from;
  r.range = m.range;
  r.epoch = m.epoch;
  Seg* have = SegOf(m.range.end);
  if (have && have->range.start == m.range.start && !have->epochs.empty() && have->epochs.back().member) {
    r.found = true;  // this process never stopped (only the front-end did): it serves the range already
    return Send(std::move(r));
  }
  const int st = node_->StoreOf(m.range.end);
  bool member = false;
  const Role role = m.spec ? RoleIn(*m.spec, static_cast<Endpoint>(id_), &member) : Role{};
  r.found = member && st >= 0 && Inside(m.range, node_->range(static_cast<size_t>(st)));
  if (r.found) {
    const Key end = node_->range(static_cast<size_t>(st)).end;
    stale_.erase(std::remove(stale_.begin(), stale_.end(), end), stale_.end());  // claimed: kept, not dropped by joins
    Seg& s = SegFor(m.range);
    Epoch e;
    e.epoch = m.epoch;
    e.from = 1;
    e.role = role;
    e.member = true;
    e.caught_up = true;
    e.spec = m.spec;
    s.epochs = {e};
    std::vector<Message> waiting;
    waiting.swap(s.waiting);
    for (Message& w : waiting) Enqueue(std::move(w));
  }
  Send(std::move(r));
}

// --- membership -----------------------------------------------------------------------------

void Backend::OnSeal(Message& m) {
  Seg& s = SegFor(m.range);
  if (Writing(s)) {
    // A put stamped before the seal is still being written (the client worker): sealing now
    // would pass the configuration on ahead of it. The seal waits for it (Progress).
    s.sealing.push_back(std::move(m));
    return;
  }
  // The head stamps the epoch's first sequence number: every put it has stamped is older.
  s.counter = std::max(s.counter, s.applied);
  m.seq = s.counter + 1;
  Message r;
  r.kind = MsgKind::kSealed;
  r.to = m.from;
  r.range = m.range;
  r.epoch = m.epoch;
  r.seq = m.seq;
  Send(std::move(r));
  OnConfig(m);
}

namespace {
// Whether `who` sent its copy of a configuration from inside the chain of the epoch before:
// it passed the configuration on behind every put of that epoch it had sent (links are FIFO),
// after resending what a new successor may lack. A joiner's copy vouches for nothing: it
// was not in that chain, and the old predecessor's puts travel another link.
bool Vouches(const std::shared_ptr<const ChainSpec>& before, Endpoint who) {
  return before && std::find(before->chain.begin(), before->chain.end(), who) != before->chain.end();
}
}  // namespace

void Backend::OnConfig(Message& m) {
  Seg& s = SegFor(m.range);
  if (!s.epochs.empty() && s.epochs.back().epoch >= m.epoch) {  // seen; but this copy may vouch
    for (size_t i = 1; i < s.epochs.size(); ++i) {
      if (s.epochs[i].epoch != m.epoch || s.epochs[i].caught_up || !Vouches(s.epochs[i - 1].spec, m.from)) continue;
      for (size_t j = 0; j <= i; ++j) s.epochs[j].caught_up = true;
      Progress(s);
    }
    return;
  }
  const Epoch* prev = Current(s);  // invalid once s.epochs grows: read what is needed now
  const bool was_member = prev && prev->member;
  const Endpoint old_succ = was_member ? prev->role.succ : kNobody;
  const bool was_reader = Reads(s);
  Epoch e;
  e.epoch = m.epoch;
  e.from = m.seq;
  e.spec = m.spec;
  e.role = RoleIn(*m.spec, static_cast<Endpoint>(id_), &e.member);
  // Caught up at once: a new member (nothing older comes to it through the chain), or a copy
  // from a member of the epoch before. Otherwise once every put before e.from has been
  // applied here (Progress): until then this epoch's puts wait, and a donor's flush too.
  e.caught_up = !was_member || Vouches(prev->spec, m.from);
  if (e.caught_up) {
    for (Epoch& x : s.epochs) x.caught_up = true;
  }
  s.epochs.push_back(e);
  if (e.member && !was_member) {
    // A new member (a joiner, or a new head told directly): its puts continue the range's
    // sequence; anything older reaches it through the copy (a joiner keeps an older epoch's
    // puts aside in case the flush ends before them: OnChainPut, MaybeMerge).
    s.applied = std::max(s.applied, e.from - 1);
    s.counter = std::max(s.counter, e.from - 1);
  }
  if (e.member && e.role.temp) s.joining = true;
  s.chain_room = kRoomUnknown;  // a new chain: the next ack says
  if (e.member && !e.role.temp && s.joining && !s.merged) s.merged = true;  // configured whole
  // Resend what a new successor may lack, then pass the configuration on behind it.
  const Endpoint new_succ = e.member ? e.role.succ : kNobody;
  if (new_succ != kNobody && new_succ != old_succ) {
    for (const Unacked& u : s.unacked) {
      Message c;
      c.kind = MsgKind::kChainPut;
      c.to = new_succ;
      c.key = u.key;
      c.value = u.value;
      c.seq = u.seq;
      c.epoch = u.epoch;
      c.req = u.req;
      c.client = u.client;
      c.del = u.del;
      Send(std::move(c));
    }
  }
  std::vector<Endpoint> targets;
  if (old_succ != kNobody && old_succ != m.from) targets.push_back(old_succ);
  if (new_succ != kNobody && new_succ != m.from && new_succ != old_succ) targets.push_back(new_succ);
  for (Endpoint t : targets) {
    Message c = m;
    c.kind = MsgKind::kConfig;
    c.to = t;
    Send(std::move(c));
  }
  // The donor flushes what arrived after its pre-copy, up to this epoch's first put: once
  // it has applied every put before that (MaybeFlush), whichever copy came first.
  if (m.spec->donor == static_cast<Endpoint>(id_) && m.spec->joiner != kNobody) {
    s.flush_epoch = m.epoch;
    s.flush_to = m.spec->joiner;
  }
  if (e.member) EnsureStore(m.range);  // a joiner's, or a first member's (a ring that was empty)
  if (!was_reader && Reads(s)) {
    Message r;
    r.kind = MsgKind::kReaderNow;
    r.range = m.range;
    r.epoch = m.epoch;
    for (int f = 0; f < o_.front_ends; ++f) {  // each front-end switches its own gets
      r.to = FrontEndpoint(f);
      Send(r);
    }
  }
  // Chain puts that waited for this configuration go first (those of an epoch not caught up
  // wait again).
  Progress(s);
  if (s.flush_epoch == m.epoch) ++stats_.flush_waits;
  Requeue(s.waiting);
  MaybeMerge(s, [] {});
}

void Backend::Progress(Seg& s) {
  if (Writing(s)) return;  // that put's end calls again
  for (size_t i = s.epochs.size(); i-- > 0;) {
    if (s.epochs[i].caught_up) break;
    if (s.applied + 1 >= s.epochs[i].from) {
      for (size_t j = 0; j <= i; ++j) s.epochs[j].caught_up = true;
      break;
    }
  }
  MaybeFlush(s);
  Requeue(s.sealing);
  bool release = false;
  for (const Message& w : s.waiting) {
    const Epoch* e = s.epochs.empty() || w.epoch > s.epochs.back().epoch ? nullptr : EpochAt(s, w.epoch);
    release = release || (e && e->caught_up);
  }
  if (release) Requeue(s.waiting);
}

void Backend::MaybeFlush(Seg& s) {
  if (s.flush_epoch == 0 || Writing(s)) return;
  for (const Epoch& e : s.epochs) {
    if (e.epoch != s.flush_epoch) continue;
    if (!e.caught_up) return;
    s.flush_epoch = 0;
    s.flush_due = false;
    const int st = node_->StoreOf(s.range.end);  // no store: an empty flush, just the done
    StartScan(s.range, s.flush_to, s.mark, st >= 0 ? node_->store(static_cast<size_t>(st)).log_end() : 0, true, s.copy,
              s.applied);
    return;
  }
  s.flush_epoch = 0;  // that epoch is gone: no flush
}

// A joiner's copy of a range is the coordinator's newest: the batches of an abandoned copy
// (a failure interrupted the join; docs/decisions.md) are dropped, and a newer copy starts
// the range afresh — flags, temporary log and store.
bool Backend::CurrentCopy(Seg& s, uint64_t id) {
  if (id < s.copy) return false;
  // A new copy: whatever the node holds of the range is stale (an abandoned copy, or what it
  // kept from before it was declared failed), so the range starts afresh.
  if (id > s.copy) {
    s.precopy_done = s.flush_done = s.merged = false;
    s.temp.clear();
    s.received = s.flush_seq = 0;
    const int st = node_->StoreOf(s.range.end);
    if (st >= 0 && node_->range(static_cast<size_t>(st)).start == s.range.start && node_->range(static_cast<size_t>(st)).end == s.range.end) {
      (void)node_->RemoveStore(static_cast<size_t>(st), nullptr);
    }
  }
  s.copy = id;
  return true;
}

void Backend::StopScan(const KeyRange& range) {
  auto it = scans_.find(range.end);
  if (it == scans_.end()) return;
  it->second->done = true;
  it->second->ds = nullptr;  // a read in progress ends there
  scans_.erase(it);
}

void Backend::OnPrecopyData(Message& m, std::function<void()> done) {
  Seg& s = SegFor(m.range);
  if (!CurrentCopy(s, m.epoch)) return done();
  s.joining = true;
  const uint64_t bytes = m.bytes;
  s.received += bytes;
  stats_.precopy_bytes_received += bytes;
  const bool ack = m.kind == MsgKind::kPrecopyData;
  const KeyRange range = m.range;
  const Endpoint donor = m.from;
  const uint64_t copy = m.epoch;
  auto finish = [this, ack, range, donor, copy, done = std::move(done)]() {
    if (ack) {
      Message a;
      a.kind = MsgKind::kPrecopyAck;
      a.to = donor;
      a.range = range;
      a.epoch = copy;
      Send(std::move(a));
    }
    done();
  };
  EnsureStore(range);
  AppendAll(m.records, 0, std::move(finish));
}

void Backend::AppendAll(std::shared_ptr<std::vector<KvRecord>> recs, size_t i, std::function<void()> done) {
  if (!recs || i >= recs->size()) return done();
  const KvRecord& r = (*recs)[i];
  auto next = [this, recs, i, done](const Status&) {
    if (failed_) return;
    AppendAll(recs, i + 1, done);
  };
  Status st = r.del ? node_->Delete(r.key, next) : node_->Put(r.key, r.value, next);
  if (!st.ok()) done();
}

void Backend::OnFlushDone(Message& m, std::function<void()> done) {
  Seg& s = SegFor(m.range);
  if (!CurrentCopy(s, m.epoch)) return done();
  s.flush_done = true;
  s.flush_seq = m.seq;
  MaybeMerge(s, std::move(done));
}

void Backend::MaybeMerge(Seg& s, std::function<void()> done) {
  const Epoch* e = Current(s);
  if (!s.joining || s.merged || !s.flush_done || !e || !e->role.temp) return done();
  // Append the temporary log's puts that the flush ended before, in sequence order: this
  // epoch's, and any older epoch's resent by the predecessor that the donor had not applied.
  std::stable_sort(s.temp.begin(), s.temp.end(), [](const TempPut& a, const TempPut& b) { return a.seq < b.seq; });
  auto recs = std::make_shared<std::vector<KvRecord>>();
  uint64_t last = s.flush_seq;
  for (const TempPut& t : s.temp) {
    if (t.seq <= last) continue;  // in the flush already, or a second copy
    recs->push_back(KvRecord{t.key, t.value, t.del});
    last = t.seq;
  }
  s.temp.clear();
  s.merged = true;  // puts arriving from now on go straight to the store
  const KeyRange range = s.range;
  const uint64_t epoch = e->epoch;
  AppendAll(recs, 0, [this, range, epoch, done = std::move(done)]() {
    Message r;
    r.kind = MsgKind::kReady;
    r.to = FrontEndpoint(0);
    r.range = range;
    r.epoch = epoch;
    Send(std::move(r));
    done();
  });
}

void Backend::OnRelease(const Message& m) {
  // The range's chain state goes: messages still on their way for it find no segment and
  // are dropped (chain traffic) or answered "retry" (clients).
  SegFor(m.range);
  segs_.erase(m.range.end);
  scans_.erase(m.range.end);
  const int st = node_->StoreOf(m.range.end);
  if (st < 0) return;
  const KeyRange have = node_->range(static_cast<size_t>(st));
  const KeyRange& give = m.range;
  if (have.start == give.start && have.end == give.end) {
    (void)node_->RemoveStore(static_cast<size_t>(st), nullptr);
  } else if (have.start == give.start) {
    (void)node_->Narrow(static_cast<size_t>(st), KeyRange{give.end, have.end}, nullptr);
  } else if (have.end == give.end) {
    (void)node_->Narrow(static_cast<size_t>(st), KeyRange{have.start, give.start}, nullptr);
  }
  // A range in the middle of a store stays until a compaction: its keys are not served (the
  // segment is released) and no store is ever added over it (docs/decisions.md).
}

void Backend::OnReset(Message& m, std::function<void()> done) {
  if (client_.busy || !writing_.empty() || node_->maintenance_running()) {
    // A client request or a compaction still uses a segment or a store: again shortly (the
    // chain worker waits, so nothing that came after the reset is handled before it).
    auto held = std::make_shared<Message>(std::move(m));
    sim_->Schedule(sim_->now() + kResetRetryNs, [this, held, done = std::move(done)]() {
      if (!failed_) OnReset(*held, done);
    });
    return;
  }
  for (auto& [end, sc] : scans_) {
    sc->done = true;
    sc->ds = nullptr;  // a read in progress ends there
  }
  scans_.clear();
  segs_.clear();
  stale_.clear();
  unknown_garbage_.clear();
  while (node_->num_stores() > 0) {
    if (!node_->RemoveStore(node_->num_stores() - 1, nullptr).ok()) break;
  }
  Message r;
  r.kind = MsgKind::kResetDone;
  r.to = m.from;
  r.req = m.req;
  Send(std::move(r));
  done();
}

}  // namespace fawnlab::fawnkv
