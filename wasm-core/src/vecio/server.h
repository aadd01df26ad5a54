// Server: the FAWN-KV back-end's RPC threads, one per connection (SEDA-like; thesis §7.4.2),
// on the Host's cores, over a FAWN-DS DataStore on the NVM device. A thread, when idle and
// its socket holds requests, takes them all with one recv() (syscall), deserialises each
// (rpc: per RPC plus per key), then per RPC:
//   direct (G >= R, pattern auto): ⌈G/R⌉ multireads in turn, each: FAWN-DS lookup per key and
//     one device submit on the thread, the command on DMA channel conn mod 4 (DataStore::
//     MultiGet: the real index probe and full-key check), one storage completion interrupt,
//     one wake-up of the thread; then the reply: serialise, send() (syscall), TCP per frame.
//   queue (G < R, or pattern queue): each key is enqueued (queue, per item) into the
//     connection's intermediate queue; when R keys wait (or the optional timeout fires for a
//     partly filled queue) the thread dequeues them (queue, per item) and issues one
//     multiread; when it completes, every RPC whose last key it read is replied to, back to
//     back (a burst the client ACKs once: multiread's implicit benefit, digest §1.8).
// Warm cache (thesis §7.4.2, digest §1.8 "implicit cache benefit"): a recv()/deserialise
// that follows the same thread's previous receive (no I/O or reply between), every RPC after
// the first taken by one recv(), and every reply after the first of a burst cost
// `warm_factor` of their system-call and RPC cost: the same code and data, still hot.
// A thread waits for its own commands (synchronous), so its connection's next requests wait
// in the socket meanwhile (and are then taken by one recv()).
#ifndef FAWNLAB_VECIO_SERVER_H_
#define FAWNLAB_VECIO_SERVER_H_

#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "fawnds/store.h"
#include "sim/simulator.h"
#include "vecio/host.h"
#include "vecio/rpc.h"
#include "vecio/system.h"

namespace fawnlab::vecio {

class Server {
 public:
  using SendFrame = std::function<void(const Packet&)>;  // a reply frame leaves the server
  Server(sim::Simulator* sim, const SystemConfig* config, const HostProfile* profile, int cores, int channels,
         fawnds::DataStore* store, const std::vector<fawnds::Key>* keys, Counters* counters, SendFrame send);

  Host& host() { return host_; }
  const Host& host() const { return host_; }
  // A packet after the NIC's TCP processing.
  void OnPacket(const Packet& p);
  // The widths or pattern changed: every idle thread looks at its queue again.
  void Kick();
  int queue_depth(int conn) const { return static_cast<int>(conns_[static_cast<size_t>(conn)].queue.size()); }

 private:
  struct Queued {
    Rpc* rpc;
    uint32_t key;
    sim::SimTime since;
  };
  enum class Phase : uint8_t { kNone, kRecv, kIo, kReply };
  struct Conn {
    Phase last = Phase::kNone;  // the kind of work the thread did last
    std::deque<Rpc*> socket;
    std::deque<Queued> queue;
    bool busy = false;       // the thread has work scheduled or waits for its command
    bool flush_due = false;  // the queue's timeout expired
    uint64_t timer_gen = 0;
  };
  using Then = std::function<void()>;
  bool UsesQueue(const Rpc& r) const;
  // `ns` scaled by the profile's warm-cache factor when `warm`.
  sim::SimDuration Warm(sim::SimDuration ns, bool warm) const;
  void Pump(int c);
  void Handle(int c, std::shared_ptr<std::vector<Rpc*>> list, size_t i);
  void DirectChunk(int c, Rpc* rpc, size_t off, Then then);
  void IssueBatch(int c);
  // Submits a command of `keys` on conn c's channel; `then` runs on the thread after the
  // completion interrupt and the wake-up.
  void Read(int c, std::vector<fawnds::Key> keys, std::vector<Rpc*> rpcs, Then then);
  void Reply(int c, std::shared_ptr<std::vector<Rpc*>> list, size_t i, Then then);
  void ArmTimer(int c);

  sim::Simulator* sim_;
  const SystemConfig* config_;
  const HostProfile* profile_;
  int channels_;
  fawnds::DataStore* store_;
  const std::vector<fawnds::Key>* keys_;
  Counters* counters_;
  SendFrame send_;
  Host host_;
  std::vector<Conn> conns_;
};

}  // namespace fawnlab::vecio

#endif  // FAWNLAB_VECIO_SERVER_H_
