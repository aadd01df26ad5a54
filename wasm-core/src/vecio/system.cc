// VectorSystem: builds the device, the preloaded FAWN-DS store, the host, the network and the
// clients, and wires them: client → ingress link → NIC → server thread → egress link → client.
#include "vecio/system.h"

#include <algorithm>
#include <string>
#include <utility>

#include "fawnds/record.h"
#include "fawnds/store.h"
#include "sim/rng.h"
#include "vecio/clients.h"
#include "vecio/network.h"
#include "vecio/server.h"

namespace fawnlab::vecio {

// The pieces VectorSystem owns besides the device (declared here: system.h stays small).
struct Wiring {
  std::unique_ptr<fawnds::DataStore> store;
  std::vector<fawnds::Key> keys;
  std::unique_ptr<Link> in, out;
  std::unique_ptr<Nic> nic;
};

namespace {

int IndexBits(int keys) {
  int bits = fawnds::HashIndex::kMinBits;
  while ((uint64_t{1} << bits) < uint64_t(keys) * 2 && bits < fawnds::HashIndex::kMaxBits) ++bits;
  return bits;
}

}  // namespace

VectorSystem::VectorSystem(sim::Simulator* sim, const SystemConfig& c) : sim_(sim), config_(c) {}
VectorSystem::~VectorSystem() = default;

StatusOr<std::unique_ptr<VectorSystem>> VectorSystem::Create(sim::Simulator* sim, const SystemConfig& c, uint64_t seed) {
  Status v = Validate(c);
  if (!v.ok()) return v;
  std::unique_ptr<VectorSystem> s(new VectorSystem(sim, c));
  const HostProfile* profile = FindHostProfile(c.host);
  const int cores = c.cores > 0 ? c.cores : profile->cores;

  // The store: `keys` records of read_bytes each, on an NVM device just large enough.
  const int bits = IndexBits(c.keys);
  const uint64_t record = std::max<uint64_t>(fawnds::kRecordHeader + 1, static_cast<uint64_t>(c.read_bytes));
  const uint64_t file = fawnds::DataStore::FileBytes(bits, record * static_cast<uint64_t>(c.keys) + 4096);
  device::NvmConfig nc;
  nc.capacity_bytes = (file + 4095) / 4096 * 4096;
  s->device_ = std::make_unique<device::NvmDevice>(sim, "nvm-emulator", nc);
  fawnds::StoreOptions so;
  so.index_bits = bits;
  so.region_bytes = nc.capacity_bytes;
  auto store = fawnds::DataStore::Create(s->device_.get(), so);
  if (!store.ok()) return Status::Internal("vecio: the FAWN-DS store: " + store.status().message());
  s->wiring_ = std::make_unique<Wiring>();
  Wiring& w = *s->wiring_;
  w.store = std::move(store).value();
  uint64_t mix = seed ^ 0x6b657973ULL;
  const std::string value(record - fawnds::kRecordHeader, 'v');
  w.keys.reserve(static_cast<size_t>(c.keys));
  for (int i = 0; i < c.keys; ++i) {
    w.keys.push_back(fawnds::Key::FromU64(sim::SplitMix64(&mix)));
    Status p = w.store->Put(w.keys.back(), value, nullptr);
    if (!p.ok()) return Status::Internal("vecio: preloading key " + std::to_string(i) + ": " + p.message());
  }
  sim->Run(UINT64_MAX);  // the preload's writes complete

  // The network and the server.
  const sim::SimDuration one_way = sim::UsToNs(c.base_rtt_us / 2);
  w.in = std::make_unique<Link>(c.link_gbps, one_way);
  w.out = std::make_unique<Link>(c.link_gbps, one_way);
  VectorSystem* self = s.get();
  s->server_ = std::make_unique<Server>(sim, &s->config_, profile, cores, s->device_->config().channels, w.store.get(),
                                        &w.keys, &s->counters_, [self](const Packet& p) {
                                          const sim::SimTime at = self->wiring_->out->Send(self->sim_->now(), p.wire_bytes);
                                          self->sim_->Schedule(at, [self, p] { self->clients_->OnFrame(p); });
                                        });
  w.nic = std::make_unique<Nic>(sim, &s->server_->host(), profile, c.nic_queues, c.clients, sim::UsToNs(c.nic_coalesce_us),
                                [self](const Packet& p) { self->server_->OnPacket(p); }, &s->counters_.nic_irqs,
                                &s->counters_.packets_in);
  s->clients_ = std::make_unique<Clients>(sim, &s->config_, profile, seed, &s->counters_, [self](const Packet& p) {
    if (p.rpc != nullptr) p.rpc->At(Stage::kWireIn, self->sim_->now());
    const sim::SimTime at = self->wiring_->in->Send(self->sim_->now(), p.wire_bytes);
    self->sim_->Schedule(at, [self, p] {
      if (p.rpc != nullptr && p.last) p.rpc->At(Stage::kNic, self->sim_->now());
      self->wiring_->nic->Arrive(p);
    });
  });
  return s;
}

void VectorSystem::Start() { clients_->Start(); }
void VectorSystem::StopClients() { clients_->Stop(); }

Status VectorSystem::Reconfigure(const SystemConfig& c) {
  Status v = Validate(c);
  if (!v.ok()) return v;
  struct Fixed {
    const char* field;
    bool same;
  };
  const Fixed fixed[] = {
      {"clients", c.clients == config_.clients},     {"cores", c.cores == config_.cores},
      {"host", c.host == config_.host},              {"keys", c.keys == config_.keys},
      {"link_gbps", c.link_gbps == config_.link_gbps}, {"base_rtt_us", c.base_rtt_us == config_.base_rtt_us},
      {"key_bytes", c.key_bytes == config_.key_bytes}, {"value_bytes", c.value_bytes == config_.value_bytes},
      {"read_bytes", c.read_bytes == config_.read_bytes}, {"nic_queues", c.nic_queues == config_.nic_queues},
      {"nic_coalesce_us", c.nic_coalesce_us == config_.nic_coalesce_us},
      {"ack_delay_us", c.ack_delay_us == config_.ack_delay_us},
  };
  for (const Fixed& f : fixed) {
    if (!f.same) return Status::InvalidArgument(std::string("'") + f.field + "' cannot change while the system runs");
  }
  const bool rate_changed = c.load_per_s != config_.load_per_s || c.multiget != config_.multiget;
  config_ = c;
  if (rate_changed) clients_->Restart();
  server_->Kick();
  return Status::Ok();
}

const Counters& VectorSystem::counters() const {
  counters_.events = server_->host().events();
  counters_.busy_ns = server_->host().busy_ns();
  return counters_;
}

int VectorSystem::cores() const { return server_->host().cores(); }
sim::SimDuration VectorSystem::core_busy_ns(int core) const { return server_->host().core_busy_ns(core); }

void VectorSystem::set_on_complete(std::function<void(sim::SimTime, sim::SimDuration, int)> fn) {
  clients_->set_on_complete(std::move(fn));
}

void VectorSystem::ForEachInFlight(const std::function<void(const RpcView&)>& fn) const {
  for (const auto& [id, r] : clients_->in_flight()) {
    fn(RpcView{id, r->conn, static_cast<int>(r->keys.size()), r->stage, r->since, r->channel});
  }
}

int VectorSystem::queue_depth(int conn) const {
  if (conn < 0 || conn >= config_.clients) return 0;
  return server_->queue_depth(conn);
}

}  // namespace fawnlab::vecio
