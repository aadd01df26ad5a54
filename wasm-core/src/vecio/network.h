// The 1 GbE network between the clients and the back-end, and the back-end's NIC.
//   Frames: a payload is cut into MSS-sized segments (1448 B: 1500 MTU less IP, TCP with
//           timestamps); each frame on the wire adds 66 B of headers and 24 B of preamble,
//           FCS and inter-frame gap. Requests carry a 30 B Thrift header plus key length and
//           key per key; replies a 30 B header plus status, length and value per key.
//   Link:   the server's port, one FIFO line per direction at the line rate, then half the
//           base round trip of propagation and switching.
//   Nic:    `queues` rx rings (receive-side scaling: connection c uses ring c mod queues),
//           each with its own interrupt. In a ring, the first packet of a burst arms the
//           interrupt `coalesce` later; every packet that arrives while it is pending shares
//           it. The handler charges one burst (nic_irq) plus kernel TCP per packet waiting when
//           it takes a core. Packets that arrive while it runs are the next burst, handled by
//           the ring's softirq thread (NAPI's ksoftirqd: thread `first_thread + ring`), which
//           takes its turn with the connection threads, so a flood cannot starve them
//           (receive livelock); the ring's interrupt is re-enabled once a pass finds it empty.
#ifndef FAWNLAB_VECIO_NETWORK_H_
#define FAWNLAB_VECIO_NETWORK_H_

#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "sim/simulator.h"
#include "vecio/host.h"
#include "vecio/rpc.h"

namespace fawnlab::vecio {

constexpr int kMss = 1448;
constexpr int kFrameHeaders = 66;   // Ethernet 14 + IP 20 + TCP 32 (with timestamps)
constexpr int kWireExtra = 24;      // preamble 8 + FCS 4 + inter-frame gap 12
constexpr int kThriftHeader = 30;   // [inferred] message header of one Thrift call or reply

// Payload bytes of a G-key request and of its reply.
int RequestPayload(int keys, int key_bytes);
int ReplyPayload(int keys, int value_bytes);
// Wire bytes of each frame that carries `payload` bytes (a pure ACK: one frame of 0 payload).
std::vector<uint32_t> Frames(int payload);

class Link {
 public:
  Link(double gbps, sim::SimDuration one_way_ns) : ns_per_byte_(8.0 / gbps), one_way_ns_(one_way_ns) {}
  // When a frame of `bytes` sent at `now` arrives at the far end.
  sim::SimTime Send(sim::SimTime now, uint32_t bytes);

 private:
  double ns_per_byte_;
  sim::SimDuration one_way_ns_;
  sim::SimTime free_ = 0;
};

class Nic {
 public:
  using Deliver = std::function<void(const Packet&)>;
  Nic(sim::Simulator* sim, Host* host, const HostProfile* profile, int queues, int first_thread,
      sim::SimDuration coalesce_ns, Deliver deliver, uint64_t* nic_irqs, uint64_t* packets_in);
  // A frame reaches the NIC.
  void Arrive(const Packet& p);
  size_t ring() const;  // packets waiting in all rings

 private:
  struct RxQueue {
    std::deque<Packet> ring;
    bool armed = false;  // an interrupt is pending or being handled
  };
  void Raise(size_t q);
  void Handle(size_t q, bool softirq);
  sim::Simulator* sim_;
  Host* host_;
  const HostProfile* profile_;
  sim::SimDuration coalesce_ns_;
  Deliver deliver_;
  uint64_t* nic_irqs_;
  uint64_t* packets_in_;
  int first_thread_;
  std::vector<RxQueue> queues_;
};

}  // namespace fawnlab::vecio

#endif  // FAWNLAB_VECIO_NETWORK_H_
