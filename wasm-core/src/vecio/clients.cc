#include "vecio/clients.h"

#include <utility>

#include "vecio/network.h"

namespace fawnlab::vecio {

Clients::Clients(sim::Simulator* sim, const SystemConfig* config, const HostProfile* profile, uint64_t seed,
                 Counters* counters, ToServer to_server)
    : sim_(sim), config_(config), profile_(profile), counters_(counters), to_server_(std::move(to_server)),
      ack_pending_(static_cast<size_t>(config->clients), false) {
  for (int c = 0; c < config->clients; ++c) rng_.push_back(sim::Rng::ForStream(seed, 0x636c69656e74ULL + static_cast<uint64_t>(c)));
}

void Clients::Start() {
  running_ = true;
  Restart();
}

void Clients::Stop() {
  running_ = false;
  ++gen_;
}

void Clients::Restart() {
  if (!running_) return;
  ++gen_;
  for (int c = 0; c < config_->clients; ++c) Schedule(c);
}

void Clients::Schedule(int c) {
  const double tokens_per_s = config_->load_per_s / (static_cast<double>(config_->multiget) * config_->clients);
  const double gap_ns = rng_[static_cast<size_t>(c)].Exponential(1e9 / tokens_per_s);
  const uint64_t gen = gen_;
  sim_->Schedule(sim_->now() + static_cast<sim::SimDuration>(gap_ns), [this, c, gen] {
    if (gen != gen_) return;
    Issue(c);
    Schedule(c);
  });
}

void Clients::Issue(int c) {
  auto rpc = std::make_unique<Rpc>();
  rpc->id = next_id_++;
  rpc->conn = c;
  rpc->issued = sim_->now();
  sim::Rng& rng = rng_[static_cast<size_t>(c)];
  rpc->keys.resize(static_cast<size_t>(config_->multiget));
  for (uint32_t& k : rpc->keys) k = static_cast<uint32_t>(rng.UniformU64(static_cast<uint64_t>(config_->keys)));
  rpc->At(Stage::kClient, sim_->now());
  counters_->offered_keys += rpc->keys.size();
  Rpc* r = rpc.get();
  in_flight_.emplace(r->id, std::move(rpc));
  sim_->Schedule(sim_->now() + profile_->client_ns / 2, [this, r] {
    r->At(Stage::kWireIn, sim_->now());
    const std::vector<uint32_t> frames = Frames(RequestPayload(static_cast<int>(r->keys.size()), config_->key_bytes));
    for (size_t f = 0; f < frames.size(); ++f) {
      to_server_(Packet{Packet::Kind::kData, r->conn, r, f + 1 == frames.size(), frames[f]});
    }
  });
}

void Clients::OnFrame(const Packet& p) {
  const int c = p.conn;
  if (!ack_pending_[static_cast<size_t>(c)]) {
    ack_pending_[static_cast<size_t>(c)] = true;
    sim_->Schedule(sim_->now() + sim::UsToNs(config_->ack_delay_us), [this, c] {
      ack_pending_[static_cast<size_t>(c)] = false;
      to_server_(Packet{Packet::Kind::kAck, c, nullptr, true, Frames(0)[0]});
    });
  }
  for (Rpc* r : p.replies) {
    r->At(Stage::kClient, sim_->now());
    sim_->Schedule(sim_->now() + profile_->client_ns - profile_->client_ns / 2, [this, r] {
      const sim::SimDuration latency = sim_->now() - r->issued;
      const int keys = static_cast<int>(r->keys.size());
      ++counters_->rpcs_done;
      counters_->completed_keys += static_cast<uint64_t>(keys);
      in_flight_.erase(r->id);
      if (on_complete_) on_complete_(sim_->now(), latency, keys);
    });
  }
}

}  // namespace fawnlab::vecio
