// The Vector I/O lab's net session (none registered yet).
#include <vector>

#include "registry/sessions.h"

namespace fawnlab {

void RegisterVectorNetSession(std::vector<SessionInfo>* out) { (void)out; }

}  // namespace fawnlab
