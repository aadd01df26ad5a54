// One multiget RPC of the networked back-end as it travels: its keys (indices into the
// preloaded key table), where it is (Stage), since when, and how many of its keys are still
// unanswered. Owned by Clients from issue to the reply's arrival.
#ifndef FAWNLAB_VECIO_RPC_H_
#define FAWNLAB_VECIO_RPC_H_

#include <cstdint>
#include <vector>

#include "sim/time.h"
#include "vecio/costs.h"

namespace fawnlab::vecio {

struct Rpc {
  uint64_t id = 0;
  int conn = 0;
  std::vector<uint32_t> keys;  // indices into the key table
  sim::SimTime issued = 0;     // the client's token
  Stage stage = Stage::kClient;
  sim::SimTime since = 0;
  int channel = -1;
  int keys_left = 0;           // keys not yet read (intermediate-queue pattern)
  void At(Stage s, sim::SimTime now, int ch = -1) {
    stage = s;
    since = now;
    channel = ch;
  }
};

// A frame on the wire. kData to the server carries (part of) the request `rpc`, `last` marking
// the frame that completes it; kData to a client carries replies, `replies` listing those whose
// last byte it holds. kAck is a client's pure ACK.
struct Packet {
  enum class Kind : uint8_t { kData, kAck };
  Kind kind = Kind::kData;
  int conn = 0;
  Rpc* rpc = nullptr;
  bool last = false;
  uint32_t wire_bytes = 0;
  std::vector<Rpc*> replies;
};

}  // namespace fawnlab::vecio

#endif  // FAWNLAB_VECIO_RPC_H_
