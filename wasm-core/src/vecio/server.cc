#include "vecio/server.h"

#include <algorithm>
#include <utility>

#include "vecio/network.h"

namespace fawnlab::vecio {

Server::Server(sim::Simulator* sim, const SystemConfig* config, const HostProfile* profile, int cores, int channels,
               fawnds::DataStore* store, const std::vector<fawnds::Key>* keys, Counters* counters, SendFrame send)
    : sim_(sim), config_(config), profile_(profile), channels_(channels), store_(store), keys_(keys),
      counters_(counters), send_(std::move(send)), host_(sim, cores, config->clients + config->nic_queues),
      conns_(static_cast<size_t>(config->clients)) {}

sim::SimDuration Server::Warm(sim::SimDuration ns, bool warm) const {
  return warm ? static_cast<sim::SimDuration>(static_cast<double>(ns) * profile_->warm_factor + 0.5) : ns;
}

bool Server::UsesQueue(const Rpc& r) const {
  return config_->pattern == Pattern::kQueue || static_cast<int>(r.keys.size()) < config_->multiread;
}

void Server::OnPacket(const Packet& p) {
  if (p.kind != Packet::Kind::kData || !p.last) return;  // ACKs and leading segments: TCP only
  p.rpc->At(Stage::kThread, sim_->now());
  conns_[static_cast<size_t>(p.conn)].socket.push_back(p.rpc);
  Pump(p.conn);
}

void Server::Kick() {
  for (int c = 0; c < static_cast<int>(conns_.size()); ++c) Pump(c);
}

void Server::Pump(int c) {
  Conn& cn = conns_[static_cast<size_t>(c)];
  if (cn.busy) return;
  // A live change can leave keys queued that no new RPC will join (the queue is no longer in
  // use): they go at once.
  const bool queue_in_use = config_->pattern == Pattern::kQueue || config_->multiget < config_->multiread;
  if (!cn.queue.empty() &&
      (static_cast<int>(cn.queue.size()) >= config_->multiread || cn.flush_due || !queue_in_use)) {
    cn.busy = true;
    IssueBatch(c);
    return;
  }
  if (cn.socket.empty()) return;
  cn.busy = true;
  auto list = std::make_shared<std::vector<Rpc*>>(cn.socket.begin(), cn.socket.end());
  cn.socket.clear();
  // Warm: this thread's last work was receiving too (thesis §7.4.2's implicit cache benefit:
  // recv/deserialise/enqueue repeated with hot code and data); every RPC after the first in
  // one recv() is warm as well.
  bool warm = cn.last == Phase::kRecv;
  Charges ch;
  ch.Add(CostKind::kSyscall, 1, Warm(profile_->syscall_ns, warm));
  for (Rpc* r : *list) {
    ch.Add(CostKind::kRpc, 1, Warm(EventCost(*profile_, CostKind::kRpc, static_cast<int>(r->keys.size())), warm));
    warm = true;
  }
  cn.last = Phase::kRecv;
  host_.Run(c, ch, [this, c, list] {
    ++counters_->syscalls;
    Handle(c, list, 0);
  });
}

void Server::Handle(int c, std::shared_ptr<std::vector<Rpc*>> list, size_t i) {
  Conn& cn = conns_[static_cast<size_t>(c)];
  if (i == list->size()) {
    cn.busy = false;
    Pump(c);
    return;
  }
  Rpc* rpc = (*list)[i];
  if (UsesQueue(*rpc)) {
    Charges ch;
    ch.Add(CostKind::kQueue, static_cast<uint32_t>(rpc->keys.size()), profile_->queue_ns);
    host_.Run(c, ch, [this, c, list, i, rpc] {
      Conn& q = conns_[static_cast<size_t>(c)];
      const bool was_empty = q.queue.empty();
      rpc->keys_left = static_cast<int>(rpc->keys.size());
      for (uint32_t k : rpc->keys) q.queue.push_back(Queued{rpc, k, sim_->now()});
      counters_->queue_items += rpc->keys.size();
      rpc->At(Stage::kQueue, sim_->now());
      if (was_empty) ArmTimer(c);
      Handle(c, list, i + 1);
    });
    return;
  }
  DirectChunk(c, rpc, 0, [this, c, list, i, rpc] {
    auto one = std::make_shared<std::vector<Rpc*>>(1, rpc);
    Reply(c, one, 0, [this, c, list, i] { Handle(c, list, i + 1); });
  });
}

void Server::DirectChunk(int c, Rpc* rpc, size_t off, Then then) {
  const size_t n = std::min(rpc->keys.size() - off, static_cast<size_t>(config_->multiread));
  std::vector<fawnds::Key> keys;
  keys.reserve(n);
  for (size_t k = off; k < off + n; ++k) keys.push_back((*keys_)[rpc->keys[k]]);
  conns_[static_cast<size_t>(c)].last = Phase::kIo;
  Charges ch;
  ch.Add(CostKind::kLookup, static_cast<uint32_t>(n), profile_->lookup_ns).Add(CostKind::kSubmit, 1, profile_->submit_ns);
  host_.Run(c, ch, [this, c, rpc, off, n, keys = std::move(keys), then = std::move(then)]() mutable {
    Read(c, std::move(keys), {rpc}, [this, c, rpc, off, n, then = std::move(then)]() mutable {
      if (off + n < rpc->keys.size()) {
        DirectChunk(c, rpc, off + n, std::move(then));
      } else {
        then();
      }
    });
  });
}

void Server::IssueBatch(int c) {
  Conn& cn = conns_[static_cast<size_t>(c)];
  cn.flush_due = false;
  const size_t n = std::min(cn.queue.size(), static_cast<size_t>(config_->multiread));
  auto items = std::make_shared<std::vector<Queued>>(cn.queue.begin(), cn.queue.begin() + static_cast<long>(n));
  cn.queue.erase(cn.queue.begin(), cn.queue.begin() + static_cast<long>(n));
  if (!cn.queue.empty()) ArmTimer(c);
  cn.last = Phase::kIo;
  Charges ch;
  ch.Add(CostKind::kQueue, static_cast<uint32_t>(n), profile_->queue_ns)
      .Add(CostKind::kLookup, static_cast<uint32_t>(n), profile_->lookup_ns)
      .Add(CostKind::kSubmit, 1, profile_->submit_ns);
  host_.Run(c, ch, [this, c, items] {
    std::vector<fawnds::Key> keys;
    std::vector<Rpc*> rpcs;
    for (const Queued& q : *items) {
      keys.push_back((*keys_)[q.key]);
      if (rpcs.empty() || rpcs.back() != q.rpc) rpcs.push_back(q.rpc);
    }
    Read(c, std::move(keys), rpcs, [this, c, items] {
      auto done = std::make_shared<std::vector<Rpc*>>();
      for (const Queued& q : *items) {
        if (--q.rpc->keys_left == 0) done->push_back(q.rpc);
      }
      for (const Queued& q : *items) {
        if (q.rpc->keys_left > 0) q.rpc->At(Stage::kQueue, sim_->now());
      }
      Reply(c, done, 0, [this, c] {
        conns_[static_cast<size_t>(c)].busy = false;
        Pump(c);
      });
    });
  });
}

void Server::Read(int c, std::vector<fawnds::Key> keys, std::vector<Rpc*> rpcs, Then then) {
  ++counters_->commands;
  const int ch = c % channels_;
  for (Rpc* r : rpcs) r->At(Stage::kDevice, sim_->now(), ch);
  Status s = store_->MultiGet(keys, c, [this, c, rpcs, then = std::move(then)](std::vector<Status>, std::vector<std::string>) mutable {
    for (Rpc* r : rpcs) r->At(Stage::kIrq, sim_->now());
    // The handler's first act wakes the waiting thread (which may resume on another core);
    // the rest of its cost (completion-queue processing, cache pollution) occupies its core
    // meanwhile, off the thread's path.
    host_.Interrupt(
        [this, c, then = std::move(then)]() mutable {
          ++counters_->io_irqs;
          Charges wake;
          wake.Add(CostKind::kWakeup, 1, profile_->wakeup_ns);
          host_.Run(c, wake, [this, then = std::move(then)] {
            ++counters_->wakeups;
            then();
          });
          Charges irq;
          irq.Add(CostKind::kIoIrq, 1, profile_->io_irq_ns);
          return irq;
        },
        nullptr);
  });
  (void)s;  // an NVM device with every key preloaded never refuses a read
}

void Server::Reply(int c, std::shared_ptr<std::vector<Rpc*>> list, size_t i, Then then) {
  if (i == list->size()) {
    then();
    return;
  }
  Rpc* rpc = (*list)[i];
  rpc->At(Stage::kReply, sim_->now());
  Conn& cn = conns_[static_cast<size_t>(c)];
  const bool warm = cn.last == Phase::kReply;  // the burst's second reply on
  cn.last = Phase::kReply;
  Charges ch;
  ch.Add(CostKind::kRpc, 1, Warm(EventCost(*profile_, CostKind::kRpc, static_cast<int>(rpc->keys.size())), warm))
      .Add(CostKind::kSyscall, 1, Warm(profile_->syscall_ns, warm));
  // The replies of one burst leave together: the kernel cuts their bytes into segments, so
  // the client gets one larger packet (thesis §7.4.2); TCP is charged per segment, with the last.
  std::vector<uint32_t> frames;
  std::vector<std::vector<Rpc*>> ends;  // the replies each segment completes
  if (i + 1 == list->size()) {
    int total = 0;
    std::vector<int> end_at;
    for (Rpc* r : *list) {
      total += ReplyPayload(static_cast<int>(r->keys.size()), config_->value_bytes);
      end_at.push_back(total);
    }
    frames = Frames(total);
    ends.resize(frames.size());
    for (size_t j = 0; j < list->size(); ++j) ends[static_cast<size_t>((end_at[j] - 1) / kMss)].push_back((*list)[j]);
    ch.Add(CostKind::kTcp, static_cast<uint32_t>(frames.size()), profile_->tcp_ns);
  }
  host_.Run(c, ch, [this, c, list, i, frames = std::move(frames), ends = std::move(ends), then = std::move(then)]() mutable {
    ++counters_->syscalls;
    if (!frames.empty()) {
      counters_->packets_out += frames.size();
      for (Rpc* r : *list) r->At(Stage::kWireOut, sim_->now());
      for (size_t f = 0; f < frames.size(); ++f) {
        Packet p{Packet::Kind::kData, c, nullptr, f + 1 == frames.size(), frames[f]};
        p.replies = std::move(ends[f]);
        send_(p);
      }
    }
    Reply(c, list, i + 1, std::move(then));
  });
}

void Server::ArmTimer(int c) {
  Conn& cn = conns_[static_cast<size_t>(c)];
  if (config_->queue_timeout_us <= 0 || cn.queue.empty()) return;
  const uint64_t gen = ++cn.timer_gen;
  const sim::SimTime at = std::max(sim_->now(), cn.queue.front().since + sim::UsToNs(config_->queue_timeout_us));
  sim_->Schedule(at, [this, c, gen] {
    Conn& q = conns_[static_cast<size_t>(c)];
    if (q.timer_gen != gen || q.queue.empty()) return;
    q.flush_due = true;
    Pump(c);
  });
}

}  // namespace fawnlab::vecio
