#include "fawnkv/frontend.h"

#include <cstring>
#include <utility>

namespace fawnlab::fawnkv {

size_t FrontEnd::KeyHash::operator()(const Key& k) const {
  uint64_t h;
  std::memcpy(&h, k.bytes.data() + 12, sizeof h);  // keys are SHA-1 values: any 8 bytes will do
  return static_cast<size_t>(h);
}

FrontEnd::FrontEnd(sim::Simulator* sim, Transport* net, Routes* routes, int index, FrontOptions o)
    : sim_(sim), net_(net), routes_(routes), index_(index), o_(o), cpu_(sim, fawnds::CpuCosts{}) {}

void FrontEnd::Get(const Key& key, Done done) {
  ++stats_.gets;
  const uint64_t req = next_req_++;
  pending_[req] = Pending{MsgKind::kGet, key, std::string(), std::move(done), sim_->now(), put_count_[key]};
  cpu_.Run(o_.cpu_ns, [this, req]() {
    auto it = pending_.find(req);
    if (it == pending_.end()) return;
    if (const std::string* v = CacheGet(it->second.key)) {
      ++stats_.cache_hits;
      Outcome o;
      o.ok = o.found = true;
      o.value = *v;
      o.cache_hit = true;
      return Finish(req, std::move(o));
    }
    if (o_.cache_entries > 0) ++stats_.cache_misses;
    Send(req);
  });
  sim_->Schedule(sim_->now() + o_.timeout_ns, [this, req]() {
    if (pending_.count(req)) Finish(req, Outcome{});
  });
}

void FrontEnd::Put(const Key& key, std::string value, Done done) {
  ++stats_.puts;
  ++put_count_[key];
  const uint64_t req = next_req_++;
  pending_[req] = Pending{MsgKind::kPut, key, std::move(value), std::move(done), sim_->now(), 0};
  cpu_.Run(o_.cpu_ns, [this, req]() { Send(req); });
  sim_->Schedule(sim_->now() + o_.timeout_ns, [this, req]() {
    if (pending_.count(req)) Finish(req, Outcome{});
  });
}

void FrontEnd::Arm(uint64_t req) {
  sim_->Schedule(sim_->now() + o_.timeout_ns, [this, req]() {
    if (pending_.count(req)) Finish(req, Outcome{});
  });
}

void FrontEnd::Delete(const Key& key, Done done) {
  ++stats_.deletes;
  ++put_count_[key];
  const uint64_t req = next_req_++;
  pending_[req] = Pending{MsgKind::kDelete, key, std::string(), std::move(done), sim_->now(), 0};
  cpu_.Run(o_.cpu_ns, [this, req]() { Send(req); });
  Arm(req);
}

void FrontEnd::MultiGet(std::vector<Key> keys, Done done) {
  ++stats_.multigets;
  const uint64_t req = next_req_++;
  Pending p{MsgKind::kMultiGet, Key(), std::string(), std::move(done), sim_->now(), 0};
  p.open = keys.size();
  p.answers.resize(keys.size());
  p.state.assign(keys.size(), 0);
  p.keys = std::move(keys);
  pending_[req] = std::move(p);
  cpu_.Run(o_.cpu_ns, [this, req]() { SendMulti(req); });
  Arm(req);
}

void FrontEnd::SendMulti(uint64_t req) {
  auto it = pending_.find(req);
  if (it == pending_.end()) return;
  Pending& p = it->second;
  if (p.open == 0) return Finish(req, Outcome{});  // no keys: answered at once (ok set in Finish)
  std::map<Endpoint, std::shared_ptr<std::vector<MultiItem>>> batches;
  for (size_t i = 0; i < p.keys.size(); ++i) {
    if (p.state[i] != 0) continue;
    if (const std::string* v = CacheGet(p.keys[i])) {
      ++stats_.cache_hits;
      Settle(req, i, KeyAnswer{true, true, *v});
      if (!pending_.count(req)) return;
      continue;
    }
    RouteEntry* r = routes_->Find(p.keys[i]);
    const Endpoint to = r ? r->readers[static_cast<size_t>(index_)] : kNobody;
    if (to == kNobody || !net_->up(to)) {
      AskAlone(req, i);
      continue;
    }
    auto& b = batches[to];
    if (!b) b = std::make_shared<std::vector<MultiItem>>();
    b->push_back(MultiItem{p.keys[i], MultiItem::kMissing, std::string()});
  }
  for (auto& [to, items] : batches) {
    Message m;
    m.kind = MsgKind::kMultiGet;
    m.from = endpoint();
    m.to = to;
    m.client = endpoint();
    m.req = req;
    m.items = items;
    net_->Send(std::move(m));
  }
}

void FrontEnd::AskAlone(uint64_t req, size_t i) {
  Pending& p = pending_.at(req);
  p.state[i] = 1;
  Get(p.keys[i], [this, req, i](const Outcome& o) { Settle(req, i, KeyAnswer{o.ok, o.found, o.value}); });
}

void FrontEnd::Settle(uint64_t req, size_t i, KeyAnswer a) {
  auto it = pending_.find(req);
  if (it == pending_.end() || it->second.state[i] == 2) return;
  Pending& p = it->second;
  p.state[i] = 2;
  p.answers[i] = std::move(a);
  if (--p.open > 0) return;
  Outcome o;
  o.ok = true;
  for (const KeyAnswer& x : p.answers) o.ok = o.ok && x.ok;
  Finish(req, std::move(o));
}

void FrontEnd::OnMultiReply(const Message& m) {
  auto it = pending_.find(m.req);
  if (it == pending_.end() || it->second.kind != MsgKind::kMultiGet || !m.items) return;
  const uint64_t req = m.req;
  for (const MultiItem& item : *m.items) {
    // Every open position holding this key (a key may be asked twice).
    for (size_t i = 0; i < it->second.keys.size(); ++i) {
      if (it->second.state[i] != 0 || !(it->second.keys[i] == item.key)) continue;
      if (item.state == MultiItem::kNotHere) {
        ++stats_.retries;
        AskAlone(req, i);
      } else {
        Settle(req, i, KeyAnswer{true, item.state == MultiItem::kFound, item.value});
      }
      it = pending_.find(req);
      if (it == pending_.end()) return;
    }
  }
}

void FrontEnd::Send(uint64_t req) {
  auto it = pending_.find(req);
  if (it == pending_.end()) return;
  const Pending& p = it->second;
  RouteEntry* r = routes_->Find(p.key);
  const Endpoint to = !r ? kNobody : (p.kind == MsgKind::kGet ? r->readers[static_cast<size_t>(index_)] : r->head);
  if (to == kNobody || !net_->up(to)) {  // nobody to ask yet: try again shortly
    sim_->Schedule(sim_->now() + o_.retry_ns, [this, req]() { Send(req); });
    return;
  }
  Message m;
  m.kind = p.kind;
  m.from = endpoint();
  m.to = to;
  m.client = endpoint();
  m.req = req;
  m.key = p.key;
  m.value = p.value;
  net_->Send(std::move(m));
}

void FrontEnd::Receive(Message& m) {
  if (m.kind == MsgKind::kReaderNow) {
    for (RouteEntry* e : routes_->Cover(m.range)) {
      if (e->epoch <= m.epoch) e->readers[static_cast<size_t>(index_)] = m.from;
    }
    return;
  }
  if (m.kind == MsgKind::kMultiReply) return OnMultiReply(m);
  const uint64_t req = m.req;
  if (!pending_.count(req)) return;  // answered already, or given up
  if (m.kind == MsgKind::kRetry) {
    ++stats_.retries;
    sim_->Schedule(sim_->now() + o_.retry_ns, [this, req]() { Send(req); });
    return;
  }
  auto reply = std::make_shared<Message>(std::move(m));
  cpu_.Run(o_.cpu_ns, [this, reply]() {
    auto it = pending_.find(reply->req);
    if (it == pending_.end()) return;
    Pending& p = it->second;
    Outcome o;
    o.served_by = reply->from;
    if (reply->status != ReplyStatus::kOk) {  // refused: ok stays false, definitely not applied
      o.status = reply->status;
      return Finish(reply->req, std::move(o));
    }
    o.ok = true;
    if (p.kind == MsgKind::kGet) {
      o.found = reply->found;
      o.value = reply->value;
      if (o.found && put_count_[p.key] == p.version) CachePut(p.key, o.value);
    } else if (p.kind == MsgKind::kDelete) {
      o.found = reply->found;
      CacheErase(p.key);
    } else {
      CachePut(p.key, p.value);
    }
    Finish(reply->req, std::move(o));
  });
}

void FrontEnd::Finish(uint64_t req, Outcome o) {
  auto it = pending_.find(req);
  Pending p = std::move(it->second);
  pending_.erase(it);
  o.latency_ns = sim_->now() - p.invoked;
  if (p.kind == MsgKind::kMultiGet) {
    if (p.keys.empty()) o.ok = true;
    o.answers = std::move(p.answers);
  }
  if (o.ok) {
    ++stats_.answered;
  } else {
    ++stats_.failed;
    if (o.status != ReplyStatus::kOk) ++stats_.refused;
    if (p.kind == MsgKind::kPut || p.kind == MsgKind::kDelete) CacheErase(p.key);  // it may yet take effect: forget the old value
  }
  if (p.done) p.done(o);
}

void FrontEnd::set_cache_entries(size_t n) {
  o_.cache_entries = n;
  while (lru_.size() > n) {
    cache_.erase(lru_.back().first);
    lru_.pop_back();
  }
}

void FrontEnd::CachePut(const Key& key, const std::string& value) {
  if (o_.cache_entries == 0) return;
  auto it = cache_.find(key);
  if (it != cache_.end()) {
    it->second->second = value;
    lru_.splice(lru_.begin(), lru_, it->second);
    return;
  }
  lru_.emplace_front(key, value);
  cache_[key] = lru_.begin();
  if (lru_.size() > o_.cache_entries) {
    cache_.erase(lru_.back().first);
    lru_.pop_back();
  }
}

void FrontEnd::CacheErase(const Key& key) {
  auto it = cache_.find(key);
  if (it == cache_.end()) return;
  lru_.erase(it->second);
  cache_.erase(it);
}

const std::string* FrontEnd::CacheGet(const Key& key) {
  if (o_.cache_entries == 0) return nullptr;
  auto it = cache_.find(key);
  if (it == cache_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);
  return &it->second->second;
}

}  // namespace fawnlab::fawnkv
