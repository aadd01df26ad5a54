// Backend (backend.h): client requests and chain replication (SOSP'09 §3.4.3): gets and
// multi-gets at the replier, puts and deletes stamped at the head, applied and forwarded
// down the chain, answered by the tail and acknowledged back up with the least room.
#include "fawnkv/backend.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "fawnds/record.h"

namespace fawnlab::fawnkv {

// --- client requests and the chain ----------------------------------------------------------

void Backend::OnGet(Message& m, std::function<void()> done) {
  Seg* s = SegOf(m.key);
  if (!s || !Reads(*s)) {
    Retry(m);
    return done();
  }
  ++stats_.gets;
  auto req = std::make_shared<Message>(std::move(m));
  Status st = node_->Get(req->key, [this, req, done = std::move(done)](const Status& r, std::string value) {
    if (failed_) return;
    // Marshalling the answer: its bytes cost CPU before the worker may go on.
    auto v = std::make_shared<std::string>(r.ok() ? std::move(value) : std::string());
    const bool found = r.ok();
    cpu_->Run(static_cast<sim::SimDuration>(o_.rpc_ns_per_byte * static_cast<double>(kHeaderBytes + v->size())),
              [this, req, v, found, done]() {
                if (failed_) return;
                Reply(*req, found, std::move(*v));
                done();
              });
  });
  if (!st.ok()) {
    Retry(*req);
    done();
  }
}

void Backend::OnPut(Message& m, std::function<void()> done) {
  Seg* s = SegOf(m.key);
  const Epoch* e = s ? Current(*s) : nullptr;
  if (!e || !e->member || !e->role.head || s->released) {
    Retry(m);
    return done();
  }
  m.del = m.kind == MsgKind::kDelete;
  ++(m.del ? stats_.deletes : stats_.puts);
  if (s->chain_room != kRoomUnknown) {
    // Would a successor have room? Its room as of the last ack, less what is still in flight.
    uint64_t need = fawnds::RecordSize(m.del ? 0 : m.value.size());
    for (const Unacked& u : s->unacked) need += fawnds::RecordSize(u.del ? 0 : u.value.size());
    if (need > s->chain_room) {
      ++stats_.store_errors;
      ++stats_.refused;
      Reply(m, false, std::string(), ReplyStatus::kNoSpace);
      return done();
    }
  }
  s->counter = std::max(s->counter, s->applied) + 1;
  m.seq = s->counter;
  m.epoch = e->epoch;
  ApplyPut(*s, m, std::move(done));
}

void Backend::OnMultiGet(Message& m, std::function<void()> done) {
  ++stats_.multigets;
  auto reply = std::make_shared<Message>();
  reply->kind = MsgKind::kMultiReply;
  reply->to = m.client;
  reply->req = m.req;
  reply->items = std::make_shared<std::vector<MultiItem>>();
  if (m.items) *reply->items = *m.items;
  std::vector<MultiItem>& items = *reply->items;
  // The keys this node reads, grouped by store: one vector lookup each.
  std::map<size_t, std::vector<size_t>> by_store;
  for (size_t i = 0; i < items.size(); ++i) {
    MultiItem& it = items[i];
    it.value.clear();
    it.state = MultiItem::kNotHere;
    Seg* s = SegOf(it.key);
    const int st = node_->StoreOf(it.key);
    if (!s || !Reads(*s) || st < 0 || node_->maintenance_running()) continue;
    by_store[static_cast<size_t>(st)].push_back(i);
  }
  stats_.multiget_keys += items.size();
  auto left = std::make_shared<size_t>(by_store.size() + 1);
  auto fin = std::make_shared<std::function<void()>>(std::move(done));
  auto finish = [this, reply, left, fin]() {
    if (--*left > 0 || failed_) return;
    uint64_t bytes = kHeaderBytes;
    for (const MultiItem& it : *reply->items) bytes += 21 + it.value.size();
    cpu_->Run(static_cast<sim::SimDuration>(o_.rpc_ns_per_byte * static_cast<double>(bytes)), [this, reply, fin]() {
      if (failed_) return;
      Send(std::move(*reply));
      (*fin)();
    });
  };
  for (auto& [store, idx] : by_store) {
    std::vector<Key> keys;
    for (size_t i : idx) keys.push_back(items[i].key);
    Status st = node_->store(store).MultiGet(keys, [reply, idx = idx, finish](std::vector<Status> sts, std::vector<std::string> vals) {
      for (size_t j = 0; j < idx.size() && j < sts.size(); ++j) {
        MultiItem& it = (*reply->items)[idx[j]];
        it.state = sts[j].ok() ? MultiItem::kFound : MultiItem::kMissing;
        if (sts[j].ok()) it.value = std::move(vals[j]);
      }
      finish();
    });
    if (!st.ok()) finish();  // refused: those keys stay "not here" and are retried singly
  }
  finish();
}

void Backend::OnChainPut(Message& m, std::function<void()> done) {
  Seg* s = SegOf(m.key);
  if (!s || s->released) return done();
  ++stats_.chain_puts;
  if (s->epochs.empty() || m.epoch > s->epochs.back().epoch) {
    s->waiting.push_back(std::move(m));  // its epoch's configuration has not reached us yet
    return done();
  }
  const Epoch& cur = s->epochs.back();
  if (m.epoch < cur.epoch && cur.member && cur.role.temp && !s->merged) {
    // A joiner given an older epoch's put (its predecessor's resend of what the old tail had
    // not acknowledged): the donor's flush may lack it (the flush ends where the donor had
    // applied; kFlushDone says where). Kept aside, merged if the flush ends before it.
    s->temp.push_back(TempPut{m.seq, m.key, m.value, m.del});
    return done();
  }
  if (m.seq <= s->applied) return done();  // a resend we already have
  const Epoch* e = EpochAt(*s, m.epoch);
  if (e && e->member && !e->caught_up) {
    // An earlier epoch's puts may still be on their way from the old predecessor (another
    // link): applying this one first would skip them (they would look like resends).
    ++stats_.held_puts;
    s->waiting.push_back(std::move(m));
    return done();
  }
  ApplyPut(*s, m, std::move(done));
}

bool Backend::Writing(const Seg& s) const {
  for (const Key& k : writing_) {
    if (s.range.Contains(k)) return true;
  }
  return false;
}

void Backend::ApplyPut(Seg& s, const Message& m, std::function<void()> done) {
  const Epoch* e = EpochAt(s, m.epoch);
  if (!e || !e->member) return done();
  const Role role = e->role;
  s.applied = m.seq;
  auto fwd = std::make_shared<Message>(m);
  writing_.push_back(m.key);
  auto fin = std::make_shared<std::function<void()>>([this, key = m.key, done = std::move(done)]() {
    auto w = std::find(writing_.begin(), writing_.end(), key);
    if (w != writing_.end()) writing_.erase(w);
    if (Seg* s = SegOf(key)) Progress(*s);  // a flush, a seal or held puts may wait for this one
    done();
  });
  auto after = [this, fwd, role, fin]() {
    if (failed_) return;
    Seg* s = SegOf(fwd->key);
    if (role.replier) {
      Reply(*fwd, fwd->del ? fwd->found : true, std::string());
      if (role.pred != kNobody) {
        Message a;
        a.kind = MsgKind::kAck;
        a.to = role.pred;
        a.key = fwd->key;
        a.seq = fwd->seq;
        a.room = RoomFor(fwd->key);
        Send(std::move(a));
      }
    } else if (s && role.succ != kNobody) {
      s->unacked.push_back(Unacked{fwd->seq, fwd->epoch, fwd->key, fwd->value, fwd->req, fwd->client, fwd->del});
    }
    if (role.succ != kNobody) {
      Message c = *fwd;
      c.kind = MsgKind::kChainPut;
      c.found = false;
      c.to = role.succ;
      Send(std::move(c));
    }
    (*fin)();
  };
  if (role.temp && !s.merged) {
    s.temp.push_back(TempPut{m.seq, m.key, m.value, m.del});
    return after();
  }
  WriteToStore(fwd, role, std::move(after), fin);
}

void Backend::OnAck(const Message& m) {
  Seg* s = SegOf(m.key);
  if (!s) return;
  while (!s->unacked.empty() && s->unacked.front().seq <= m.seq) s->unacked.pop_front();
  const Epoch* e = Current(*s);
  if (e && e->member && e->role.pred != kNobody) {
    Message a = m;
    a.to = e->role.pred;
    a.room = std::min(m.room, RoomFor(m.key));
    Send(std::move(a));
  } else if (e && e->member && e->role.head) {
    s->chain_room = m.room;
  }
}

}  // namespace fawnlab::fawnkv
