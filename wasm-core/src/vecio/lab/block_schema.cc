// The Vector I/O lab's block session in the registry: "vector.block" (view "block"), the
// Ch. 6 Linux block stack of vecio/block/ driven live (contract in block_session.h).
#include <vector>

#include "registry/sessions.h"
#include "vecio/lab/block_session.h"

namespace fawnlab {

void RegisterVectorBlockSession(std::vector<SessionInfo>* out) {
  SessionInfo s;
  s.id = "vector.block";
  s.lab = "vector";
  s.view = "block";
  s.title = "Block layer (Ch. 6)";
  s.summary = "fio's 512 B random reads through the Linux 2.6.36 block stack on an Atom or a Xeon: each I/O's "
              "blktrace phases, the interrupts that complete them, and what CFQ vs noop and interrupt coalescing change.";
  s.noun = "the block layer";
  s.params = vecio::BlockSession::Schema();
  s.live = {"scheduler", "coalescing", "defer_us", "iodepth", "block_bytes"};
  s.views = vecio::BlockSession::Views();
  s.create = vecio::BlockSession::New;
  out->push_back(std::move(s));
}

}  // namespace fawnlab
