// The Vector I/O lab's networked back-end session in the registry ("vector.net", view "net",
// the lab's default): its schema, live fields, the `trace` operation and factory. The
// behaviour: vecio/lab/net_session.h.
#include <vector>

#include "registry/sessions.h"
#include "vecio/lab/net_session.h"

namespace fawnlab {

void RegisterVectorNetSession(std::vector<SessionInfo>* out) {
  SessionInfo s;
  s.id = "vector.net";
  s.lab = "vector";
  s.view = "net";
  s.title = "Networked FAWN-KV back-end";
  s.summary = "One FAWN-KV back-end on an NVM device under open-loop clients: requests through the NIC, RPC "
              "threads, FAWN-DS and the DMA channels, every core-microsecond by cost kind, with multiget and "
              "multiread widths to change while it runs.";
  s.noun = "the networked back-end";
  s.params = vecio::NetSession::Schema();
  s.live = vecio::NetSession::LiveFields();
  s.ops = {{"trace", "follow the next RPC issued through its stages until it is answered (virtual time moves)", {}}};
  s.create = vecio::NetSession::New;
  out->push_back(std::move(s));
}

}  // namespace fawnlab
