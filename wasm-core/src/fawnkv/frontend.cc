#include "fawnkv/frontend.h"

#include <cstring>
#include <utility>

namespace fawnlab::fawnkv {

size_t FrontEnd::KeyHash::operator()(const Key& k) const {
  uint64_t h;
  std::memcpy(&h, k.bytes.data() + 12, sizeof h);  // keys are SHA-1 values: any 8 bytes will do
  return static_cast<size_t>(h);
}

FrontEnd::FrontEnd(sim::Simulator* sim, Network* net, Routes* routes, int index, FrontOptions o)
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
    o.ok = true;
    o.served_by = reply->from;
    if (p.kind == MsgKind::kGet) {
      o.found = reply->found;
      o.value = reply->value;
      if (o.found && put_count_[p.key] == p.version) CachePut(p.key, o.value);
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
  if (o.ok) {
    ++stats_.answered;
  } else {
    ++stats_.failed;
    if (p.kind == MsgKind::kPut && cache_.count(p.key)) {  // it may yet take effect: forget the old value
      lru_.erase(cache_[p.key]);
      cache_.erase(p.key);
    }
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

const std::string* FrontEnd::CacheGet(const Key& key) {
  if (o_.cache_entries == 0) return nullptr;
  auto it = cache_.find(key);
  if (it == cache_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);
  return &it->second->second;
}

}  // namespace fawnlab::fawnkv
