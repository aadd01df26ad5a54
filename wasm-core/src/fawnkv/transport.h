// Transport: how FAWN-KV's protocol classes (Backend, FrontEnd, Coordinator) reach each other.
//
// The simulated switched Ethernet (network.h) implements it in virtual time; a real-cluster
// host node (fawnkvhost/) implements it by encoding each message into an outbox its host
// sends over TCP. The contract the protocol relies on: messages from one endpoint to another
// arrive in the order sent, or not at all (a down endpoint's traffic is dropped, silently, as
// a dead machine's); Send never calls back into the sender synchronously.
#ifndef FAWNLAB_FAWNKV_TRANSPORT_H_
#define FAWNLAB_FAWNKV_TRANSPORT_H_

#include "fawnkv/message.h"

namespace fawnlab::fawnkv {

class Transport {
 public:
  virtual ~Transport() = default;
  // Sends `m` (m.from and m.to set). Dropped if either end is down.
  virtual void Send(Message m) = 0;
  // Whether `e` is believed up (senders skip endpoints that are not).
  virtual bool up(Endpoint e) const = 0;
  // Marks `e` up or down (a failed node takes itself down).
  virtual void SetUp(Endpoint e, bool up) = 0;
};

}  // namespace fawnlab::fawnkv

#endif  // FAWNLAB_FAWNKV_TRANSPORT_H_
